package breakcode

import (
	"encoding/json"
	"fmt"
	"github.com/codebreakers/codebreakers/engine/analysis/analysistest"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/analysis"
	"github.com/codebreakers/codebreakers/engine/enginetest"
)

// botRecord plays one seeded game between bots of the given levels (one per
// seat) and returns its record.
func botRecord(tb testing.TB, seed uint64, levels ...string) engine.Record {
	tb.Helper()
	players := enginetest.Players(len(levels))
	st, opts, err := engine.Start(Game{}, nil, players, seed)
	if err != nil {
		tb.Fatal(err)
	}
	rec := engine.Record{Game: ID, Options: opts, Players: players, Seed: seed}
	bots := make([]*Bot, len(levels))
	for i, l := range levels {
		bots[i] = &Bot{Seat: engine.Seat(i), Level: l, Seed: seed*8 + uint64(i)}
	}
	for !st.Status().Finished {
		seat := st.Status().Active[0]
		a, err := bots[seat].Act(st.View(engine.SeatViewer(seat)))
		if err != nil || a == nil {
			tb.Fatalf("seed %d: bot %d: %s %v", seed, seat, a, err)
		}
		if _, err := st.Apply(seat, a); err != nil {
			tb.Fatalf("seed %d: bot %d played %s: %v", seed, seat, a, err)
		}
		rec.Moves = append(rec.Moves, engine.Move{Seat: seat, Action: a})
	}
	return rec
}

// levelsFor mixes strong and easy bots so that some questions are not the best.
func levelsFor(n int, seed uint64) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = LevelStrong
		if (seed+uint64(i))%2 == 1 {
			out[i] = LevelEasy
		}
	}
	return out
}

// bruteCount is what enumerating every physical deal of the tiles a seat
// cannot see, one by one, says about that seat's position.
type bruteCount struct {
	deals   float64
	targets map[uint32]bool // canonical sets of what the seat must name
	// hist[i] maps the joint answers of all opponents (6 bits each, in seat
	// order) to the number of deals giving them, for question variant vs[i].
	hist []map[uint32]float64
}

// brute enumerates the deals for the seat viewing v, answering each note
// from the tiles with answerFor (not the hand tables). It gives up (ok
// false) past limit deals.
func brute(v View, vs []int, limit int) (bc bruteCount, ok bool) {
	me := int(v.Viewer.Seat)
	mine, _ := maskOf(v.Hand)
	pool := uint32(1<<tileCount-1) &^ mine
	var wrong []uint32
	if v.Players == 2 {
		for _, g := range v.Seats[me].Guesses {
			if m, err := maskOf(g.Tiles); err == nil && !g.Right {
				wrong = append(wrong, canonical(m))
			}
		}
	}
	var centre uint32
	seen := v.Centre != nil
	if seen {
		centre, _ = maskOf(v.Centre)
	}
	var opps []int
	for i := range v.Players {
		if i != me {
			opps = append(opps, i)
		}
	}
	fits := func(seat int, set uint32) bool {
		ts := tilesOf(set)
		for _, n := range v.Seats[seat].Notes {
			if answerFor(ts, variantOf(n.Card, n.Number)) != n.Code {
				return false
			}
		}
		if v.Players == 2 {
			for _, w := range wrong {
				if canonical(set) == w {
					return false
				}
			}
		}
		return true
	}
	bc = bruteCount{targets: map[uint32]bool{}, hist: make([]map[uint32]float64, len(vs))}
	for i := range vs {
		bc.hist[i] = map[uint32]float64{}
	}
	hands := make([]uint32, len(opps))
	answers := make([][]uint8, len(opps)) // answers[j][i]: hands[j]'s answer to vs[i]
	for j := range answers {
		answers[j] = make([]uint8, len(vs))
	}
	var rec func(j int, left uint32) bool
	rec = func(j int, left uint32) bool {
		if j == len(opps) {
			if seen && canonical(left) != canonical(centre) {
				return true
			}
			bc.deals++
			if bc.deals > float64(limit) {
				return false
			}
			target := canonical(left)
			if v.Players == 2 {
				target = canonical(hands[0])
			}
			bc.targets[target] = true
			for i := range vs {
				key := uint32(0)
				for j := range hands {
					key = key<<6 | uint32(answers[j][i])
				}
				bc.hist[i][key]++
			}
			return true
		}
		goOn := true
		forSubsets(left, v.HandSize, func(h uint32) {
			if goOn && fits(opps[j], h) {
				hands[j] = h
				ts := tilesOf(h)
				for i, q := range vs {
					answers[j][i] = answerFor(ts, q)
				}
				goOn = rec(j+1, left&^h)
			}
		})
		return goOn
	}
	return bc, rec(0, pool)
}

func (bc bruteCount) entropy(i int) float64 {
	keys := make([]uint32, 0, len(bc.hist[i]))
	for k := range bc.hist[i] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	ws := make([]float64, len(keys))
	for j, k := range keys {
		ws[j] = bc.hist[i][k]
	}
	return analysis.Entropy(ws)
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// optionVariant reads the question variant of an option's action.
func optionVariant(t *testing.T, o analysis.Option) int {
	t.Helper()
	var a Action
	if err := json.Unmarshal(o.Action, &a); err != nil || a.Ask == nil {
		t.Fatalf("option %q has no question: %s", o.Label, o.Action)
	}
	return variantOf(a.Ask.Card, a.Ask.Number)
}

// TestReviewMatchesBruteForce checks every figure of every question and
// guess of seeded games against a count of the deals one by one: the
// possibilities before and after, the bits gained, each option's expected
// bits, and a guess's chance.
func TestReviewMatchesBruteForce(t *testing.T) {
	limits := map[int]int{2: 1 << 20, 3: 400_000, 4: 300_000}
	games := map[int]int{2: 6, 3: 3, 4: 3}
	least := 5
	if testing.Short() || raceEnabled {
		games, least = map[int]int{2: 2, 3: 1, 4: 1}, 2
	}
	for n := 2; n <= 4; n++ {
		checked := 0
		for g := range games[n] {
			seed := uint64(1000*n + g)
			rec := botRecord(t, seed, levelsFor(n, seed)...)
			rep, err := Game{}.Analyze(rec, nil)
			if err != nil {
				t.Fatal(err)
			}
			st, _, _ := engine.StartRecord(Game{}, rec)
			next := 0
			for i, m := range rec.Moves {
				before := st.View(engine.SeatViewer(m.Seat)).(View)
				if _, err := st.Apply(m.Seat, m.Action); err != nil {
					t.Fatal(err)
				}
				if next >= len(rep.Steps) || rep.Steps[next].Move != i {
					continue
				}
				step := rep.Steps[next]
				next++
				after := st.View(engine.SeatViewer(m.Seat)).(View)
				if checkStep(t, seed, step, before, after, limits[n]) {
					checked++
				}
			}
			if next != len(rep.Steps) {
				t.Fatalf("seed %d: %d steps, only %d matched moves", seed, len(rep.Steps), next)
			}
		}
		t.Logf("%d players: %d steps checked against brute force", n, checked)
		if checked < least {
			t.Errorf("%d players: only %d steps were small enough to check", n, checked)
		}
	}
}

// checkStep compares one step with the brute-force counts; it returns false
// when the position was too large to enumerate.
func checkStep(t *testing.T, seed uint64, step analysis.Step, before, after View, limit int) bool {
	t.Helper()
	var vs []int
	for _, o := range step.Options {
		vs = append(vs, optionVariant(t, o))
	}
	bb, ok := brute(before, vs, limit)
	if !ok {
		return false
	}
	if step.Before != len(bb.targets) {
		t.Errorf("seed %d move %d: before %d %s, brute force %d", seed, step.Move, step.Before, step.Unit, len(bb.targets))
	}
	if step.Kind == "guess" {
		if before.Players == 2 && step.Chance > 0 && !near(step.Bits, analysis.Surprisal(bb.deals, bb.deals*(1-step.Chance))) &&
			!near(step.Bits, analysis.Surprisal(bb.deals, bb.deals*step.Chance)) {
			t.Errorf("seed %d move %d: guess gained %.4f bits, not what its chance %.4f allows", seed, step.Move, step.Bits, step.Chance)
		}
		return true
	}
	for i, o := range step.Options {
		if step.Approx {
			if o.Bits < bb.entropy(i)-1e-6 {
				t.Errorf("seed %d move %d: %q bound %.6f below the exact %.6f", seed, step.Move, o.Label, o.Bits, bb.entropy(i))
			}
			continue
		}
		if !near(o.Bits, bb.entropy(i)) {
			t.Errorf("seed %d move %d: %q worth %.6f bits, brute force %.6f", seed, step.Move, o.Label, o.Bits, bb.entropy(i))
		}
	}
	ba, ok := brute(after, nil, limit)
	if !ok {
		t.Fatalf("seed %d move %d: fewer deals after than before, yet too many to count", seed, step.Move)
	}
	if step.After != len(ba.targets) {
		t.Errorf("seed %d move %d: after %d %s, brute force %d", seed, step.Move, step.After, step.Unit, len(ba.targets))
	}
	if want := analysis.Surprisal(bb.deals, ba.deals); !near(step.Bits, want) {
		t.Errorf("seed %d move %d: gained %.6f bits, brute force log2(%v/%v) = %.6f", seed, step.Move, step.Bits, bb.deals, ba.deals, want)
	}
	return true
}

// TestReviewIsDeterministic analyses the same games from the record, from
// its JSON export and after a fresh start, and wants the same report byte
// for byte; the summaries add up the steps.
func TestReviewIsDeterministic(t *testing.T) {
	for n := 2; n <= 4; n++ {
		seed := uint64(77 + n)
		rec := botRecord(t, seed, levelsFor(n, seed)...)
		first, err := Game{}.Analyze(rec, analysis.NewBudget(analysis.DefaultWork))
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		var back engine.Record
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		again, err := analysis.Analyze(engine.NewRegistry(Game{}), back)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(first)
		b, _ := json.Marshal(again)
		if string(a) != string(b) {
			t.Fatalf("%d players: analysis differs between runs:\n%s\n%s", n, a, b)
		}
		if len(first.Steps) == 0 || len(first.Summaries) != n {
			t.Fatalf("%d players: %d steps, %d summaries", n, len(first.Steps), len(first.Summaries))
		}
		for _, s := range first.Summaries {
			sum := 0.0
			for _, st := range first.Steps {
				if st.Seat == s.Seat {
					sum += st.Bits
				}
			}
			if !near(sum, s.Bits) || s.Accuracy < 0 || s.Accuracy > 1 {
				t.Errorf("%d players: summary %+v does not add up (bits %.4f)", n, s, sum)
			}
		}
	}
}

// TestReviewStrongBotIsAccurate: the strong bot asks the question worth the
// most bits (exactly so with 2 and 3 players), so its accuracy is 100 %,
// while an easy bot, asking at random, loses some.
func TestReviewStrongBotIsAccurate(t *testing.T) {
	for n := 2; n <= 3; n++ {
		for seed := uint64(1); seed <= 3; seed++ {
			levels := []string{LevelStrong, LevelEasy, LevelEasy}[:n]
			rec := botRecord(t, seed, levels...)
			rep, err := Game{}.Analyze(rec, nil)
			if err != nil {
				t.Fatal(err)
			}
			strong, easy := rep.Summaries[0], rep.Summaries[1]
			if strong.Moves > 0 && !near(strong.Accuracy, 1) {
				t.Errorf("%d players seed %d: strong bot accuracy %.4f, want 1 (%+v)", n, seed, strong.Accuracy, strong)
			}
			if easy.Moves >= 3 && easy.Accuracy > 0.999 {
				t.Errorf("%d players seed %d: easy bot accuracy %.4f over %d questions", n, seed, easy.Accuracy, easy.Moves)
			}
			if easy.Cost >= 0 && rep.Steps[easy.Cost].Seat != 1 {
				t.Errorf("seed %d: the easy bot's costliest step is seat %d's", seed, rep.Steps[easy.Cost].Seat)
			}
		}
	}
}

// TestReviewBudget: the first 4-player question is past the exact budget
// and says so; a small budget cuts the analysis short the same way every time.
func TestReviewBudget(t *testing.T) {
	rec := botRecord(t, 5, LevelStrong, LevelStrong, LevelEasy, LevelStrong)
	rep, err := Game{}.Analyze(rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Steps) == 0 || !rep.Steps[0].Approx || rep.Steps[0].Note == "" {
		t.Errorf("first 4-player question: approx %v, note %q; want a bound, said", rep.Steps[0].Approx, rep.Steps[0].Note)
	}
	if slices.ContainsFunc(rep.Steps[1:], func(s analysis.Step) bool { return s.Approx }) {
		t.Logf("later approx steps: fine, but unexpected with seed 5")
	}
	for range 2 {
		cut, err := Game{}.Analyze(rec, analysis.NewBudget(rep.Work/2))
		if err != nil {
			t.Fatal(err)
		}
		if !cut.Cut || len(cut.Steps) >= len(rep.Steps) {
			t.Fatalf("half the budget analysed %d of %d steps, cut %v", len(cut.Steps), len(rep.Steps), cut.Cut)
		}
		for i, s := range cut.Steps {
			a, _ := json.Marshal(s)
			b, _ := json.Marshal(rep.Steps[i])
			if string(a) != string(b) && !s.Approx {
				t.Fatalf("step %d differs under a small budget:\n%s\n%s", i, a, b)
			}
		}
	}
}

// consistentRedeal returns a copy of s in which the tiles seat me cannot
// see are dealt again, at random, among the deals that agree with every
// answer and guess in v (me's view, possibly a later one), or nil when it
// found no other deal.
func consistentRedeal(rng *rand.Rand, s *state, me int, v View) *state {
	k := newKnowledge(v)
	for range 200 {
		c := s.clone()
		used := uint32(0)
		ok := true
		for j, seat := range k.opps {
			var free []uint32
			for _, m := range k.ok[j] {
				if m&used == 0 {
					free = append(free, m)
				}
			}
			if len(free) == 0 {
				ok = false
				break
			}
			m := free[rng.IntN(len(free))]
			used |= m
			c.hands[seat] = physicalOf(k, m)
		}
		if !ok {
			continue
		}
		c.centre = physicalOf(k, k.full&^used)
		if v.Centre != nil && canonical(c.centre) != canonical(s.centre) {
			continue
		}
		if c.n > 2 && bits.OnesCount32(c.centre) != c.handSize {
			continue
		}
		same := true
		for i := range c.n {
			if canonical(c.hands[i]) != canonical(s.hands[i]) {
				same = false
			}
		}
		if !same {
			return c
		}
	}
	return nil
}

// physicalOf turns a local set of k's pool back into physical tiles.
func physicalOf(k *knowledge, local uint32) uint32 {
	var m uint32
	for i, p := range k.pool {
		if local&(1<<i) != 0 {
			m |= 1 << p
		}
	}
	return m
}

// TestReviewNoninterference: the analysis of a seat's move changes with
// nothing that seat could not see. At moves of seeded games the hidden
// tiles are dealt again among the deals agreeing with all the mover knows
// (before and after the move); the move's analysis must not change.
func TestReviewNoninterference(t *testing.T) {
	tried := 0
	for n := 2; n <= 4; n++ {
		for seed := uint64(40); seed < 43; seed++ {
			rng := rand.New(rand.NewPCG(seed, 7))
			rec := botRecord(t, seed, levelsFor(n, seed)...)
			st, _, _ := engine.StartRecord(Game{}, rec)
			s := st.(*state)
			for _, m := range rec.Moves {
				if s.phase == Finished {
					break
				}
				if rng.IntN(3) == 0 {
					me := int(m.Seat)
					later := s.clone()
					if _, err := later.Apply(m.Seat, m.Action); err != nil {
						t.Fatal(err)
					}
					if alt := consistentRedeal(rng, s, me, later.view(engine.SeatViewer(m.Seat))); alt != nil {
						orig := s.clone()
						a, _, errA := review(orig, []engine.Move{m}, nil)
						b, _, errB := review(alt, []engine.Move{m}, nil)
						afterSame := enginetest.ViewJSON(t, orig, engine.SeatViewer(m.Seat)) == enginetest.ViewJSON(t, alt, engine.SeatViewer(m.Seat))
						if errA != nil || errB != nil {
							// The redeal may make the move's outcome differ (a right guess turns wrong).
							if afterSame {
								t.Fatalf("seed %d: %v / %v", seed, errA, errB)
							}
						} else if afterSame {
							tried++
							x, _ := json.Marshal(a)
							y, _ := json.Marshal(b)
							if string(x) != string(y) {
								t.Fatalf("%d players seed %d: the analysis of seat %d's move changed with hidden tiles:\n%s\n%s", n, seed, me, x, y)
							}
						}
					}
				}
				if _, err := s.Apply(m.Seat, m.Action); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if tried < 10 {
		t.Errorf("only %d redeals kept the mover's view; the test proves little", tried)
	}
}

// BenchmarkAnalyzeGame analyses whole finished games (bots of mixed levels,
// 20 seeds per player count) and reports the median and 99th percentile of
// one game's analysis, with the steps analysed per game.
func BenchmarkAnalyzeGame(b *testing.B) {
	for n := 2; n <= 4; n++ {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			var recs []engine.Record
			for seed := uint64(0); seed < 20; seed++ {
				recs = append(recs, botRecord(b, 500+seed, levelsFor(n, seed)...))
			}
			var times []time.Duration
			steps := 0
			b.ResetTimer()
			for i := range b.N {
				start := time.Now()
				rep, err := Game{}.Analyze(recs[i%len(recs)], analysis.NewBudget(analysis.DefaultWork))
				times = append(times, time.Since(start))
				if err != nil || rep.Cut {
					b.Fatalf("analysis: %v (cut %v)", err, rep.Cut)
				}
				steps += len(rep.Steps)
			}
			analysistest.ReportPercentiles(b, times)
			b.ReportMetric(float64(steps)/float64(b.N), "steps/game")
		})
	}
}
