package coding

import (
	"fmt"
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

// afterRounds plays the four rounds with strong bots and returns the state
// at the start of the end game (the largest views the sheet works on come
// early; this is the typical one bots decide from).
func afterRounds(tb testing.TB, system string, n int, seed uint64) *state {
	tb.Helper()
	s := newState(config{system: system, answerMillis: 30000, sheet: true}, make([]engine.Player, n), seed)
	for s.phase == Setup || s.phase == Rounds {
		seat := s.active()[0]
		a, err := (&Bot{Seat: seat, Level: LevelStrong, Seed: seed}).Act(s.view(engine.SeatViewer(seat)))
		if err != nil || a == nil {
			tb.Fatalf("bot: %s %v", a, err)
		}
		if _, err := s.Apply(seat, a); err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

// BenchmarkBotDecision times the strong bot's decision at its first hacking
// turn (every code still possible) and at the start of the end game.
func BenchmarkBotDecision(b *testing.B) {
	for n := 2; n <= 4; n++ {
		b.Run(fmt.Sprintf("first-play-%dp", n), func(b *testing.B) {
			s := newState(config{system: SystemCounter, answerMillis: 30000}, make([]engine.Player, n), 1)
			for seat := range n {
				mustApplyB(b, s, engine.Seat(seat), OrderAction(s.codes[seat].X1))
			}
			v := s.view(engine.SeatViewer(s.toMove))
			bot := &Bot{Seat: s.toMove, Level: LevelStrong, Seed: 1}
			b.ResetTimer()
			for range b.N {
				if a, err := bot.Act(v); err != nil || a == nil {
					b.Fatal(a, err)
				}
			}
		})
		b.Run(fmt.Sprintf("counter-start-%dp", n), func(b *testing.B) {
			s := afterRounds(b, SystemCounter, n, 1)
			v := s.view(engine.SeatViewer(s.toMove))
			bot := &Bot{Seat: s.toMove, Level: LevelStrong, Seed: 1}
			b.ResetTimer()
			for range b.N {
				if a, err := bot.Act(v); err != nil || a == nil {
					b.Fatal(a, err)
				}
			}
		})
	}
}

// BenchmarkSeatView times one seat's view with the crack sheet, at the
// start of the rounds (every code possible) and after them.
func BenchmarkSeatView(b *testing.B) {
	for n := 2; n <= 4; n++ {
		b.Run(fmt.Sprintf("start-%dp", n), func(b *testing.B) {
			s := newState(config{system: SystemSpeed, answerMillis: 30000, sheet: true}, make([]engine.Player, n), 1)
			for range b.N {
				s.View(engine.SeatViewer(0))
			}
		})
		b.Run(fmt.Sprintf("race-%dp", n), func(b *testing.B) {
			s := afterRounds(b, SystemSpeed, n, 1)
			b.ResetTimer()
			for range b.N {
				s.View(engine.SeatViewer(0))
			}
		})
	}
}

func mustApplyB(b *testing.B, s *state, seat engine.Seat, a []byte) {
	b.Helper()
	if _, err := s.Apply(seat, a); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkBotVsBot plays seeded games per system and player count: one
// strong bot against easy bots (the strong seat rotates), reporting the
// strong bot's win rate against the fair share 1/n; and strong-only games,
// reporting the average number of rounds before the first right decode:
// in Counter Cracking hacking rounds (all plays / players, the four fixed
// rounds included), in Speed Cracking the four rounds plus the extra deals
// and X reveals voted before the winning answer (also reported alone).
func BenchmarkBotVsBot(b *testing.B) {
	const games = 200
	for _, system := range []string{SystemSpeed, SystemCounter} {
		for n := 2; n <= 4; n++ {
			b.Run(fmt.Sprintf("%s-%dp", system, n), func(b *testing.B) {
				var strongWins, rounds, reveals float64
				for range b.N {
					strongWins, rounds, reveals = 0, 0, 0
					for g := range uint64(games) {
						levels := make([]string, n)
						for i := range levels {
							levels[i] = LevelEasy
						}
						strong := engine.Seat(g % uint64(n))
						levels[strong] = LevelStrong
						if r, _ := playBots(b, system, g, levels); r.Won(strong) {
							strongWins++
						}
						for i := range levels {
							levels[i] = LevelStrong
						}
						_, s := playBots(b, system, g+1_000_000, levels)
						extra := float64(s.extraDeals)
						if s.xRevealed {
							extra++
						}
						reveals += extra
						if system == SystemSpeed {
							rounds += RoundCount + extra
						} else {
							rounds += float64(s.firstDecodeAt) / float64(n)
						}
					}
				}
				b.ReportMetric(strongWins/games, "strong-win-rate")
				b.ReportMetric(1/float64(n), "fair-share")
				b.ReportMetric(rounds/games, "rounds-to-decode")
				if system == SystemSpeed {
					b.ReportMetric(reveals/games, "extra-reveals")
				}
			})
		}
	}
}
