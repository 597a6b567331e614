package coding

import (
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// playBots plays one seeded game between bots of the given levels (one per
// seat). In the race, seats are offered the move in turn from a rotating
// start, standing in for who the table hears first. It returns the result
// and the final state.
func playBots(tb testing.TB, system string, seed uint64, levels []string) (engine.Result, *state) {
	tb.Helper()
	n := len(levels)
	s := newState(config{system: system, answerMillis: 30000, sheet: false}, make([]engine.Player, n), seed)
	bots := make([]*Bot, n)
	for i, l := range levels {
		bots[i] = &Bot{Seat: engine.Seat(i), Level: l, Seed: seed*8 + uint64(i)}
	}
	for step := 0; s.phase != Finished; step++ {
		if step > 500 {
			tb.Fatalf("seed %d: bots did not finish", seed)
		}
		acted := false
		for k := range n {
			seat := engine.Seat((step + k) % n)
			if s.out[seat] {
				continue
			}
			a, err := bots[seat].Act(s.view(engine.SeatViewer(seat)))
			if err != nil {
				tb.Fatalf("seed %d: bot %d: %v", seed, seat, err)
			}
			if a == nil {
				continue
			}
			if _, err := s.Apply(seat, a); err != nil {
				tb.Fatalf("seed %d: bot %d played %s in phase %v: %v", seed, seat, a, s.phase, err)
			}
			acted = true
			break
		}
		if !acted {
			tb.Fatalf("seed %d: no bot acts in phase %v", seed, s.phase)
		}
	}
	r, _ := s.Result()
	return r, s
}
