package engine

import (
	"encoding/json"
	"fmt"
	"slices"
)

// This file holds what every game's State shares: the opening of Apply, the
// Status and Result they report, the timer they ask for and the names their
// narration uses. A game keeps only what is its own.

// Moves is a game's Action: a struct of optional moves, of which Apply
// takes exactly one. Moves counts how many are set.
type Moves interface {
	Moves() int
}

// CountSet counts the true values: how many of an action's optional moves
// are set, for a Moves method.
func CountSet(set ...bool) int {
	n := 0
	for _, ok := range set {
		if ok {
			n++
		}
	}
	return n
}

// OpenApply is the opening of every game's Apply: a finished game takes no
// more moves; the action is decoded strictly (DecodeAction) into a, which
// must be a pointer; and it must name exactly one move, or the player reads
// choose. A refusal changes nothing.
func OpenApply(finished bool, data []byte, a Moves, choose string) error {
	if finished {
		return Illegal("The game is over.")
	}
	if err := DecodeAction(data, a); err != nil {
		return err
	}
	if a.Moves() != 1 {
		return Illegal("%s", choose)
	}
	return nil
}

// EncodeAction is the JSON form of a game's action value, for the games'
// action constructors. Actions are plain structs of numbers, strings and
// booleans, which cannot fail to encode; one that does is a bug in the game
// package, so it panics.
func EncodeAction(a any) []byte {
	b, err := json.Marshal(a)
	if err != nil {
		panic(fmt.Sprintf("engine: encode action %T: %v", a, err))
	}
	return b
}

// StatusOf is the Status of a game at turn (1-based): active lists who may
// act, and is asked only while the game runs.
func StatusOf(turn int, finished bool, active func() []Seat) Status {
	st := Status{Turn: turn, Finished: finished}
	if !finished {
		st.Active = active()
	}
	return st
}

// FinalResult is State.Result for a game that keeps its result as a
// pointer, nil while it runs: a copy the caller may change freely.
func FinalResult(r *Result) (Result, bool) {
	if r == nil {
		return Result{}, false
	}
	c := *r
	c.Winners = slices.Clone(r.Winners)
	c.Scores = slices.Clone(r.Scores)
	return c, true
}

// Untimed gives a game with no timed moves its State.Timer: embed it in the
// state.
type Untimed struct{}

// Timer is always nil: nothing in the game is timed.
func (Untimed) Timer() *Timer { return nil }

// TimerAfter asks for action after ms milliseconds, or for no timer when ms
// is not positive (the table chose none).
func TimerAfter(ms int, action []byte) *Timer {
	if ms <= 0 {
		return nil
	}
	return &Timer{DelayMillis: ms, Action: action}
}

// SeatName is the name narration uses for seat: the player's name, or
// "seat N" for an unnamed or unknown seat.
func SeatName(players []Player, seat Seat) string {
	if int(seat) >= 0 && int(seat) < len(players) && players[seat].Name != "" {
		return players[seat].Name
	}
	return fmt.Sprintf("seat %d", int(seat)+1)
}
