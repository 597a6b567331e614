package breakcode

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
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

// BenchmarkBotAfterAsks times the strong bot's decision after two and
// four questions (answers heard, so the opponents' possible hands differ
// and nothing is shared between them), averaged over five seeded games.
func BenchmarkBotAfterAsks(b *testing.B) {
	for n := 2; n <= 4; n++ {
		for _, asks := range []int{2, 4} {
			b.Run(fmt.Sprintf("%dp/asked=%d", n, asks), func(b *testing.B) {
				var views []View
				var bots []*Bot
				for seed := range uint64(5) {
					s := askedPosition(b, n, asks, seed)
					views = append(views, s.view(engine.SeatViewer(s.toMove)))
					bots = append(bots, &Bot{Seat: s.toMove, Level: LevelStrong, Seed: seed})
				}
				b.ResetTimer()
				for i := range b.N {
					if _, err := bots[i%5].Act(views[i%5]); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkBotGame plays 10 seeded games between strong bots (as the
// golden games do) and reports the average cost of one decision over whole
// games, first moves and late ones alike; the game's own moves and views
// are a small part.
func BenchmarkBotGame(b *testing.B) {
	for n := 2; n <= 4; n++ {
		b.Run(fmt.Sprintf("%dp", n), func(b *testing.B) {
			levels := make([]string, n)
			for i := range levels {
				levels[i] = LevelStrong
			}
			handsOfSize(5)
			handsOfSize(4)
			decisions := 0
			for b.Loop() {
				for seed := range uint64(10) {
					_, moves := (goldenGame{seed: seed, levels: levels}).play(b)
					decisions += moves
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(decisions), "ns/decision")
		})
	}
}

// askedPosition returns a seeded game with the aid on after asks questions
// (random face-up cards, no guesses).
func askedPosition(tb testing.TB, n, asks int, seed uint64) *state {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	s := newState(true, make([]engine.Player, n), seed)
	handsOfSize(s.handSize)
	for range asks {
		card := s.faceUp[rng.IntN(len(s.faceUp))]
		num := 0
		if nums := CardNumbers(card); nums != nil {
			num = nums[rng.IntN(2)]
		}
		if _, err := s.Apply(s.toMove, AskAction(card, num)); err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

// BenchmarkSeatViewAfterMove times a seat's view with the aid on just after
// a question: the seat's aid is worked out again, starting from what its
// view before that question kept (see aidLists), as in a game.
func BenchmarkSeatViewAfterMove(b *testing.B) {
	for n := 2; n <= 4; n++ {
		for _, asks := range []int{0, 1, 2, 4, 6} {
			b.Run(fmt.Sprintf("%dp/asked=%d", n, asks), func(b *testing.B) {
				s := askedPosition(b, n, asks, 1)
				var before []aidMemo
				if asks > 0 {
					prev := askedPosition(b, n, asks-1, 1)
					prev.View(engine.SeatViewer(0))
					before = prev.aidMemo
				}
				b.ReportAllocs()
				for b.Loop() {
					// The view writes its lists over the memo's: each
					// round starts from a copy of the ones kept before.
					b.StopTimer()
					s.aidMemo = cloneMemos(before)
					b.StartTimer()
					s.View(engine.SeatViewer(0))
				}
			})
		}
	}
}

// cloneMemos copies memos with the lists they keep.
func cloneMemos(memos []aidMemo) []aidMemo {
	out := slices.Clone(memos)
	for i, m := range out {
		if l := m.lists; l != nil {
			c := *l
			c.sets = make([][]uint16, len(l.sets))
			for j := range l.sets {
				c.sets[j] = slices.Clone(l.sets[j])
			}
			c.whole, c.heard = slices.Clone(l.whole), slices.Clone(l.heard)
			if l.ids != nil {
				c.ids = make([][]int32, len(l.ids))
				for j := range l.ids {
					c.ids[j] = slices.Clone(l.ids[j])
				}
			}
			out[i].lists = &c
		}
	}
	return out
}

// BenchmarkSeatViewRepeated times a seat's view with the aid on when
// nothing the seat knows has changed since its last view (chat, someone
// connecting, the bot's view of a seat already shown).
func BenchmarkSeatViewRepeated(b *testing.B) {
	for n := 2; n <= 4; n++ {
		b.Run(fmt.Sprintf("%dp", n), func(b *testing.B) {
			s := askedPosition(b, n, 2, 1)
			s.View(engine.SeatViewer(0))
			b.ReportAllocs()
			for b.Loop() {
				s.View(engine.SeatViewer(0))
			}
		})
	}
}

// BenchmarkSeatViewGame plays 10 seeded games of questions (as
// askedPosition asks them) and takes every seat's view after every move,
// as the lobby does; reported per view (the moves themselves are a few
// microseconds).
func BenchmarkSeatViewGame(b *testing.B) {
	for n := 2; n <= 4; n++ {
		b.Run(fmt.Sprintf("%dp", n), func(b *testing.B) {
			type game struct {
				seed  uint64
				moves [][]byte
			}
			var games []game
			for g := range uint64(10) {
				rng := rand.New(rand.NewPCG(g, 11))
				s := newState(true, make([]engine.Player, n), g)
				var moves [][]byte
				for len(s.faceUp) > 1 && len(moves) < 12 {
					card := s.faceUp[rng.IntN(len(s.faceUp))]
					num := 0
					if nums := CardNumbers(card); nums != nil {
						num = nums[rng.IntN(2)]
					}
					a := AskAction(card, num)
					if _, err := s.Apply(s.toMove, a); err != nil {
						b.Fatal(err)
					}
					moves = append(moves, a)
				}
				games = append(games, game{g, moves})
			}
			b.ReportAllocs()
			views := 0
			for b.Loop() {
				for _, g := range games {
					s := newState(true, make([]engine.Player, n), g.seed)
					for i := 0; ; i++ {
						for seat := range n {
							s.View(engine.SeatViewer(engine.Seat(seat)))
							views++
						}
						if i == len(g.moves) {
							break
						}
						if _, err := s.Apply(s.toMove, g.moves[i]); err != nil {
							b.Fatal(err)
						}
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(views), "ns/view")
		})
	}
}

// BenchmarkSeatAidFromBelief times the aid as it was first computed, from
// the bot's weighted belief (the reference TestAidMatchesBelief checks
// against), for comparison with BenchmarkSeatViewAfterMove.
func BenchmarkSeatAidFromBelief(b *testing.B) {
	for n := 2; n <= 4; n++ {
		for _, asks := range []int{0, 1, 2, 4, 6} {
			b.Run(fmt.Sprintf("%dp/asked=%d", n, asks), func(b *testing.B) {
				s := askedPosition(b, n, asks, 1)
				s.aid = false
				v := s.view(engine.SeatViewer(0))
				b.ReportAllocs()
				for b.Loop() {
					newKnowledge(v).counts()
				}
			})
		}
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
			for _, id := range bel.target.ids {
				ws = append(ws, bel.target.at(id))
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

// BenchmarkLoadTable plays 10 seeded 3-player games as the load test's
// tables play them (cmd/codebreakers BenchmarkTablesPlay): two people who
// always ask the first face-up card (its first number), as enter does
// with the cursor where it starts, and a strong bot; the aid on. After
// every move each person's seat view is built, as their sessions pull it,
// and the bot acts on its own view when its turn comes. Reported per move:
// the engine's share of a move at a busy server.
func BenchmarkLoadTable(b *testing.B) {
	const n, bot = 3, 2
	handsOfSize(5)
	moves := 0
	for b.Loop() {
		for seed := range uint64(10) {
			s := newState(true, make([]engine.Player, n), seed)
			robot := &Bot{Seat: bot, Level: LevelStrong, Seed: seed}
			for s.phase != Finished {
				for seat := range bot {
					s.View(engine.SeatViewer(engine.Seat(seat)))
				}
				var a []byte
				if s.toMove == bot {
					var err error
					if a, err = robot.Act(s.BotView(bot)); err != nil || a == nil {
						b.Fatalf("seed %d: bot: %s %v", seed, a, err)
					}
				} else {
					card := s.faceUp[0]
					num := 0
					if nums := CardNumbers(card); nums != nil {
						num = nums[0]
					}
					a = AskAction(card, num)
				}
				if _, err := s.Apply(s.toMove, a); err != nil {
					b.Fatalf("seed %d: %s: %v", seed, a, err)
				}
				moves++
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(moves), "ns/move")
}

// BenchmarkUnions times each way of listing disjoint unions on the two
// opponents' lists of 3-player positions after 1, 2 and 4 questions, seen
// from seat 0 (the centre's candidates in solve3).
func BenchmarkUnions(b *testing.B) {
	for _, asks := range []int{1, 2, 3, 4, 6} {
		s := askedPosition(b, 3, asks, 1)
		a := newAidSolver(s.viewAid(engine.SeatViewer(0), false), nil)
		xs, ys := a.ok[0], a.ok[1]
		name := fmt.Sprintf("asked=%d/%dx%d", asks, len(xs), len(ys))
		b.Run(name+"/pairs", func(b *testing.B) {
			for b.Loop() {
				a.unionsByPairs(xs, ys)
			}
		})
		b.Run(name+"/transform", func(b *testing.B) {
			for b.Loop() {
				a.zetas = make([][]uint64, len(a.ok))
				a.unionsByTransform(xs, ys, -1, -1)
			}
		})
		b.Run(name+"/words", func(b *testing.B) {
			for b.Loop() {
				a.unionsByWords(xs, a.okSet[1])
			}
			b.ReportMetric(float64(a.wordSteps(xs)), "steps")
		})
	}
}

// BenchmarkUnionsDense times the ways of listing disjoint unions on
// random lists holding a share of every set of a hand's size (3 players).
func BenchmarkUnionsDense(b *testing.B) {
	s := newState(true, make([]engine.Player, 3), 1)
	a := newAidSolver(s.viewAid(engine.SeatViewer(0), false), nil)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, per := range []int{2, 4, 8} {
		var xs, ys []uint32
		xSet, ySet := a.bitset(), a.bitset()
		for _, m := range a.ok[0] {
			if rng.IntN(per) == 0 {
				xs = append(xs, m)
				xSet.set(m)
			}
			if rng.IntN(per) == 0 {
				ys = append(ys, m)
				ySet.set(m)
			}
		}
		name := fmt.Sprintf("%dx%d", len(xs), len(ys))
		b.Run(name+"/transform", func(b *testing.B) {
			for b.Loop() {
				a.unionsByTransform(xs, ys, -1, -1)
			}
		})
		b.Run(name+"/words", func(b *testing.B) {
			for b.Loop() {
				a.unionsByWords(xs, ySet)
			}
			b.ReportMetric(float64(a.wordSteps(xs)), "steps")
		})
	}
}

// BenchmarkNewKnowledge times what a bot's decision starts with: the
// seat's knowledge (every hand's id over its pool, the opponents' lists)
// after two questions, on a scratch reused as in play.
func BenchmarkNewKnowledge(b *testing.B) {
	for n := 2; n <= 4; n++ {
		b.Run(fmt.Sprintf("%dp", n), func(b *testing.B) {
			s := askedPosition(b, n, 2, 1)
			v := s.view(engine.SeatViewer(s.toMove))
			for b.Loop() {
				buf := getScratch()
				newKnowledgeIn(v, buf)
				putScratch(buf)
			}
		})
	}
}
