package breakcode

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// TestTurnOrderMatchesARefereeModel plays many random games, asking and
// guessing (right or wrong) at random, and checks every turn and every end
// against a referee written straight from the rulebook: with 2 players
// turns alternate, a right guess by the second player wins at once and one
// by the starter gives the other player one answering guess; with 3–4
// players the game runs in rounds from the starter, seats that guessed are
// skipped, the round in which someone guessed right is played out, and the
// game ends when everyone is out or the last face-up card is asked.
func TestTurnOrderMatchesARefereeModel(t *testing.T) {
	games := 400
	if raceEnabled {
		games = 60
	}
	for g := range games {
		n := 2 + g%3
		rng := rand.New(rand.NewPCG(uint64(g), 99))
		s := newState(false, make([]engine.Player, n), uint64(g))
		refereeGame(t, s, rng)
	}
}

func refereeGame(t *testing.T, s *state, rng *rand.Rand) {
	t.Helper()
	n := s.n
	target := func(seat engine.Seat) uint32 {
		if n == 2 {
			return s.hands[1-seat]
		}
		return s.centre
	}
	// act makes seat ask, guess right or guess wrong, and reports which.
	act := func(seat engine.Seat, mayAsk bool) (asked, right bool) {
		r := rng.IntN(10)
		switch {
		case mayAsk && r < 7:
			card := s.faceUp[rng.IntN(len(s.faceUp))]
			mustApply(t, s, seat, AskAction(card, firstNumber(card)))
			return true, false
		case r < 8 || (!mayAsk && r < 5):
			mustApply(t, s, seat, GuessAction(tilesOf(target(seat))))
			return false, true
		default:
			// Any other hand of the right size: a wrong guess.
			table := handsOfSize(s.handSize)
			m := table.masks[rng.IntN(len(table.masks))]
			for canonical(m) == canonical(target(seat)) {
				m = table.masks[rng.IntN(len(table.masks))]
			}
			mustApply(t, s, seat, GuessAction(tilesOf(m)))
			return false, false
		}
	}
	expect := func(seat engine.Seat) {
		t.Helper()
		if _, over := s.Result(); over {
			t.Fatalf("%d players: the game ended before %d's turn", n, seat)
		}
		if s.toMove != seat {
			t.Fatalf("%d players: %d to move, the referee says %d", n, s.toMove, seat)
		}
	}
	end := func(winners []engine.Seat) {
		t.Helper()
		r, ok := s.Result()
		got := slices.Sorted(slices.Values(r.Winners))
		if !ok || !slices.Equal(got, winners) {
			t.Fatalf("%d players: result %+v %v, the referee says winners %v", n, r, ok, winners)
		}
	}
	ranOut := func() bool { return len(s.faceUp) == 0 }

	if n == 2 {
		for seat := s.starter; ; seat = 1 - seat {
			expect(seat)
			_, right := act(seat, true)
			switch {
			case ranOut():
				end(nil)
				return
			case right && seat != s.starter:
				end([]engine.Seat{seat})
				return
			case right:
				if s.phase != LastChance {
					t.Fatalf("the starter broke the code: phase %v", s.phase)
				}
				expect(1 - seat)
				if rng.IntN(3) == 0 {
					mustApply(t, s, 1-seat, PassAction())
					end([]engine.Seat{seat})
					return
				}
				if _, right2 := act(1-seat, false); right2 {
					end([]engine.Seat{0, 1})
				} else {
					end([]engine.Seat{seat})
				}
				return
			}
		}
	}
	out := make([]bool, n)
	var winners []engine.Seat
	for {
		for p := range n {
			seat := engine.Seat((int(s.starter) + p) % n)
			if out[seat] {
				continue
			}
			expect(seat)
			asked, right := act(seat, true)
			if !asked {
				out[seat] = true
				if right {
					winners = append(winners, seat)
				}
			}
			if ranOut() {
				end(winners)
				return
			}
		}
		if len(winners) > 0 || !slices.Contains(out, false) {
			slices.Sort(winners)
			end(winners)
			return
		}
	}
}
