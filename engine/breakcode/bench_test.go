package breakcode

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// BenchmarkBotFirstMove times the strong bot's decision at the start of a
// game (the largest set of possible deals it ever weighs).
func BenchmarkBotFirstMove(b *testing.B) {
	for n := 2; n <= 4; n++ {
		b.Run(fmt.Sprintf("%dp", n), func(b *testing.B) {
			s := newState(false, make([]engine.Player, n), 1)
			v := s.view(engine.SeatViewer(s.toMove))
			bot := &Bot{Seat: s.toMove, Level: LevelStrong, Seed: 1}
			handsOfSize(v.HandSize)
			b.ResetTimer()
			for range b.N {
				if _, err := bot.Act(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSeatViewWithAid times a seat's view with the aid counts on.
func BenchmarkSeatViewWithAid(b *testing.B) {
	for n := 2; n <= 4; n++ {
		b.Run(fmt.Sprintf("%dp", n), func(b *testing.B) {
			s := newState(true, make([]engine.Player, n), 1)
			handsOfSize(s.handSize)
			for range b.N {
				s.View(engine.SeatViewer(0))
			}
		})
	}
}

// playBots plays one seeded game between bots of the given levels (one per
// seat) and returns the result and the number of turns taken.
func playBots(tb testing.TB, seed uint64, levels []string) (engine.Result, int) {
	tb.Helper()
	n := len(levels)
	s := newState(false, make([]engine.Player, n), seed)
	bots := make([]*Bot, n)
	for i, l := range levels {
		bots[i] = &Bot{Seat: engine.Seat(i), Level: l, Seed: seed*8 + uint64(i)}
	}
	for s.phase != Finished {
		a, err := bots[s.toMove].Act(s.view(engine.SeatViewer(s.toMove)))
		if err != nil || a == nil {
			tb.Fatalf("seed %d: bot %d: %s %v", seed, s.toMove, a, err)
		}
		if _, err := s.Apply(s.toMove, a); err != nil {
			tb.Fatalf("seed %d: bot %d played %s: %v", seed, s.toMove, a, err)
		}
	}
	r, _ := s.Result()
	return r, s.turns
}

// BenchmarkFirstQuestionInfo reports, over 500 seeded 2-player deals, the
// average information (bits) of the best of all 25 questions, of the
// strong bot's first question (from the six face-up cards), of "c > 4",
// and the starting uncertainty (bits over the opponent's possible hands).
func BenchmarkFirstQuestionInfo(b *testing.B) {
	const deals = 500
	var best, chosen, cAbove4, start float64
	for range b.N {
		best, chosen, cAbove4, start = 0, 0, 0, 0
		for seed := range uint64(deals) {
			s := newState(false, make([]engine.Player, 2), seed)
			v := s.view(engine.SeatViewer(s.toMove))
			k := newKnowledge(v)
			bel := k.belief()
			all := make([]int, variants)
			for i := range all {
				all[i] = i
			}
			info := k.questionInfo(bel, all)
			top := 0.0
			for _, x := range info {
				top = max(top, x)
			}
			best += top
			cAbove4 += info[variantOf(cardCAbove4, 0)]
			var ws []float64
			for _, w := range bel.target {
				ws = append(ws, w)
			}
			start += entropy(ws)
			a, _ := (&Bot{Seat: s.toMove, Level: LevelStrong, Seed: seed}).Act(v)
			var act Action
			if err := json.Unmarshal(a, &act); err != nil || act.Ask == nil {
				b.Fatalf("first move %s", a)
			}
			chosen += info[variantOf(act.Ask.Card, act.Ask.Number)]
		}
	}
	b.ReportMetric(best/deals, "best-bits")
	b.ReportMetric(chosen/deals, "first-ask-bits")
	b.ReportMetric(cAbove4/deals, "c>4-bits")
	b.ReportMetric(start/deals, "start-bits")
}

// BenchmarkBotVsBot2p plays 1,000 seeded 2-player games strong against
// strong (average turns until the game ends) and 1,000 strong against easy
// (seats alternate; the strong bot's win rate, ties counting half).
func BenchmarkBotVsBot2p(b *testing.B) {
	const games = 1000
	var turns, strongScore, unfinished float64
	for range b.N {
		turns, strongScore, unfinished = 0, 0, 0
		for g := range uint64(games) {
			r, t := playBots(b, g, []string{LevelStrong, LevelStrong})
			turns += float64(t)
			if len(r.Winners) == 0 {
				unfinished++
			}
			strong := engine.Seat(g % 2)
			levels := []string{LevelEasy, LevelEasy}
			levels[strong] = LevelStrong
			r, _ = playBots(b, g+1_000_000, levels)
			switch {
			case r.Draw && len(r.Winners) == 2:
				strongScore += 0.5
			case r.Won(strong):
				strongScore++
			}
		}
	}
	b.ReportMetric(turns/games, "turns/game")
	b.ReportMetric(unfinished/games, "no-winner-rate")
	b.ReportMetric(strongScore/games, "strong-vs-easy")
}

// BenchmarkBotVsBotMulti plays 40 seeded 3- and 4-player games with one
// strong bot against easy bots and reports the strong bot's win share.
func BenchmarkBotVsBotMulti(b *testing.B) {
	const games = 40
	for n := 3; n <= 4; n++ {
		b.Run(fmt.Sprintf("%dp", n), func(b *testing.B) {
			var strongWins, anyWin, turns float64
			for range b.N {
				strongWins, anyWin, turns = 0, 0, 0
				for g := range uint64(games) {
					levels := make([]string, n)
					for i := range levels {
						levels[i] = LevelEasy
					}
					strong := engine.Seat(g % uint64(n))
					levels[strong] = LevelStrong
					r, t := playBots(b, g, levels)
					turns += float64(t)
					if r.Won(strong) {
						strongWins++
					}
					if len(r.Winners) > 0 {
						anyWin++
					}
				}
			}
			b.ReportMetric(strongWins/games, "strong-win-rate")
			b.ReportMetric(anyWin/games, "someone-won-rate")
			b.ReportMetric(turns/games, "turns/game")
		})
	}
}
