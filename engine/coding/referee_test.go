package coding

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// TestCounterCrackingMatchesARefereeModel plays random Counter Cracking
// games of 2–4 players (random hacks and right or wrong decodes, playing on
// or stopping) and checks each turn and the winner against a referee kept
// straight from the rulebook: turns go left from the first-player card,
// skipping players who are out; a right decode puts the target out and the
// decoder plays again or stops; a wrong one shows a card of the decoder's
// and passes the turn, the third puts the decoder out; the last player in
// wins. In the rounds, every player acts once per round, receives exactly
// one Hack card, the round's first player last, and the card passes left.
func TestCounterCrackingMatchesARefereeModel(t *testing.T) {
	games := 300
	if raceEnabled {
		games = 40
	}
	codes := []string{"A01", "B23", "C45", "D67"}
	for g := range games {
		n := 2 + g%3
		rng := rand.New(rand.NewPCG(uint64(g), 7))
		s := fixedGame(t, SystemCounter, codes[:n], engine.Seat(rng.IntN(n)))
		refereeRounds(t, s, rng)
		refereeCounter(t, s, rng)
	}
}

func refereeRounds(t *testing.T, s *state, rng *rand.Rand) {
	t.Helper()
	n := s.n
	first := s.first
	for round := 1; round <= RoundCount; round++ {
		if s.round != round || s.first != first || s.toMove != first {
			t.Fatalf("round %d: engine round %d, first %d, to move %d; want first %d", round, s.round, s.first, s.toMove, first)
		}
		acted := make([]bool, n)
		received := make([]int, n)
		for step := range n {
			seat := s.toMove
			if acted[seat] {
				t.Fatalf("round %d: %d acts twice", round, seat)
			}
			rs := s.recipients(seat)
			to := rs[rng.IntN(len(rs))]
			if step < n-1 && (to == first || acted[to]) {
				t.Fatalf("round %d: %d may send to %d before the round is done", round, seat, to)
			}
			mustApply(t, s, seat, PlayAction(anyData(s, seat), s.hackLine[rng.IntN(len(s.hackLine))], to))
			acted[seat] = true
			received[to]++
		}
		for i, r := range received {
			if r != 1 {
				t.Fatalf("round %d: %d received %d Hack cards", round, i, r)
			}
		}
		first = (first + 1) % engine.Seat(n)
	}
	if s.phase != Counter || s.toMove != first {
		t.Fatalf("after round 4: phase %v, to move %d, want %d", s.phase, s.toMove, first)
	}
}

func refereeCounter(t *testing.T, s *state, rng *rand.Rand) {
	t.Helper()
	n := s.n
	out := make([]bool, n)
	wrongs := make([]int, n)
	left := func(seat engine.Seat) engine.Seat {
		for i := 1; i <= n; i++ {
			c := (seat + engine.Seat(i)) % engine.Seat(n)
			if !out[c] {
				return c
			}
		}
		return seat
	}
	in := func() []engine.Seat {
		var ins []engine.Seat
		for i, o := range out {
			if !o {
				ins = append(ins, engine.Seat(i))
			}
		}
		return ins
	}
	seat := s.toMove
	for turn := 0; turn < 500; turn++ {
		if _, over := s.Result(); over {
			t.Fatalf("the game ended with %v still in", in())
		}
		if s.toMove != seat || s.phase != Counter {
			t.Fatalf("to move %d (phase %v), the referee says %d", s.toMove, s.phase, seat)
		}
		var others []engine.Seat
		for _, o := range in() {
			if o != seat {
				others = append(others, o)
			}
		}
		rs := s.recipients(seat)
		for _, r := range rs {
			if len(s.hacks[r]) >= MaxHacksHeld || out[r] || r == seat {
				t.Fatalf("%d may send to %d, who holds %d Hack cards (out %v)", seat, r, len(s.hacks[r]), out[r])
			}
		}
		switch r := rng.IntN(10); {
		case r < 5 && len(rs) > 0 && len(s.hackLine) > 0:
			mustApply(t, s, seat, PlayAction(anyData(s, seat), s.hackLine[rng.IntN(len(s.hackLine))], rs[rng.IntN(len(rs))]))
			seat = left(seat)
		case r < 7:
			target := others[rng.IntN(len(others))]
			mustApply(t, s, seat, DecodeAction(target, s.codes[target]))
			out[target] = true
			if len(in()) == 1 {
				if res, ok := s.Result(); !ok || !slices.Equal(res.Winners, []engine.Seat{seat}) {
					t.Fatalf("result %+v %v, want %d", res, ok, seat)
				}
				return
			}
			if rng.IntN(2) == 0 {
				mustApply(t, s, seat, StopAction())
				seat = left(seat)
			}
		default:
			target := others[rng.IntN(len(others))]
			wrong := s.codes[target]
			wrong.X1, wrong.X2 = wrong.X2, wrong.X1
			mustApply(t, s, seat, DecodeAction(target, wrong))
			wrongs[seat]++
			if wrongs[seat] == 3 {
				out[seat] = true
				if ins := in(); len(ins) == 1 {
					if res, ok := s.Result(); !ok || !slices.Equal(res.Winners, ins) {
						t.Fatalf("result %+v %v, want %v", res, ok, ins)
					}
					return
				}
				seat = left(seat)
				continue
			}
			if s.phase != RevealOne || s.toMove != seat {
				t.Fatalf("after a wrong decode: phase %v, to move %d", s.phase, s.toMove)
			}
			var hidden []int
			for p := range 3 {
				if !s.revealed[seat][p] {
					hidden = append(hidden, p)
				}
			}
			if len(hidden) != 3-wrongs[seat]+1 {
				t.Fatalf("%d has %d hidden cards after %d wrong decodes", seat, len(hidden), wrongs[seat])
			}
			mustApply(t, s, seat, RevealAction(hidden[rng.IntN(len(hidden))]))
			seat = left(seat)
		}
	}
	t.Fatal("no winner in 500 turns")
}
