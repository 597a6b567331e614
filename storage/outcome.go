package storage

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
)

// Outcome is how a finished game went for one seat. It is the one
// vocabulary of results: history, stats, profiles, leaderboards and replay
// listings, in the exec commands and on screen, all say it with String.
type Outcome int

// The outcomes of a seat.
const (
	// NotPlayed: the account had no seat at the table.
	NotPlayed Outcome = iota
	// Won: the seat won alone, or with its team in a cooperative game.
	Won
	// SharedWin: the seat was one of several winners of a competitive game
	// (a tie for first place). A shared win is not a draw.
	SharedWin
	// Lost: somebody else won.
	Lost
	// NoWinner: the game ended with nobody winning (the questions ran out,
	// a game without points, the team lost every seat).
	NoWinner
	// Left: the player left for good and a bot finished the seat. In a
	// rated game it counts as a loss.
	Left
)

// String is the outcome as every listing shows it.
func (o Outcome) String() string {
	switch o {
	case Won:
		return "won"
	case SharedWin:
		return "shared win"
	case Lost:
		return "lost"
	case NoWinner:
		return "no winner"
	case Left:
		return "left"
	}
	return "—"
}

// SeatOutcome says how the game went for the seat.
func SeatOutcome(seats []SeatRecord, res engine.Result, seat int) Outcome {
	if seat < 0 || seat >= len(seats) {
		return NotPlayed
	}
	s := engine.Seat(seat)
	switch {
	case seats[seat].Replaced:
		return Left
	case res.Won(s) && res.Draw && len(res.Winners) > 1:
		return SharedWin
	case res.Won(s):
		return Won
	case len(res.Winners) == 0:
		return NoWinner
	}
	return Lost
}

// AccountOutcome says how the game went for the account (its first seat),
// NotPlayed when it had none.
func AccountOutcome(seats []SeatRecord, res engine.Result, account string) Outcome {
	for i, s := range seats {
		if !s.Bot && account != "" && s.AccountID == account {
			return SeatOutcome(seats, res, i)
		}
	}
	return NotPlayed
}

// Ranks turns a result into each seat's finishing place for rating: 0 is
// first, equal places tie. Games that score (What the Rule?!) are ranked
// by final points; others put the winners first and everyone else second
// (so a game nobody won is a tie). A seat whose player left for good is
// placed below everyone who stayed, as a loss.
func Ranks(seats []SeatRecord, res engine.Result) []int {
	n := len(seats)
	ranks := make([]int, n)
	if len(res.Scores) == n {
		order := slices.Clone(res.Scores)
		slices.SortFunc(order, func(a, b int) int { return cmp.Compare(b, a) })
		order = slices.Compact(order)
		for i, sc := range res.Scores {
			ranks[i] = slices.Index(order, sc)
		}
	} else if len(res.Winners) > 0 {
		for i := range ranks {
			if !res.Won(engine.Seat(i)) {
				ranks[i] = 1
			}
		}
	}
	last := slices.Max(append([]int{0}, ranks...)) + 1
	for i, s := range seats {
		if s.Replaced {
			ranks[i] = last
		}
	}
	return ranks
}

// String says the totals in the words of the outcome vocabulary, leaving
// out outcomes that never happened: "played 5 · won 1 · shared win 1 · lost 3".
func (t Totals) String() string {
	parts := []string{fmt.Sprintf("played %d", t.Played)}
	for _, c := range []struct {
		o Outcome
		n int
	}{{Won, t.Won}, {SharedWin, t.SharedWins}, {Lost, t.Lost}, {NoWinner, t.NoWinner}, {Left, t.Left}} {
		if c.n > 0 || c.o == Won {
			parts = append(parts, fmt.Sprintf("%s %d", c.o, c.n))
		}
	}
	return strings.Join(parts, " · ")
}
