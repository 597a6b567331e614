package coding

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/analysis"
	"github.com/codebreakers/codebreakers/engine/analysis/analysistest"
	"github.com/codebreakers/codebreakers/engine/enginetest"
)

// reviewGame plays a seeded bot game (mixed levels) with the given system.
func reviewGame(tb testing.TB, system string, n int, seed uint64) engine.Record {
	levels := make([]string, n)
	for i := range levels {
		levels[i] = LevelStrong
		if (seed+uint64(i))%2 == 1 {
			levels[i] = LevelEasy
		}
	}
	return analysistest.BotRecord(tb, Game{}, engine.Options{"system": system}, seed, levels...)
}

// bruteJoint counts, one assignment at a time, the codes of the seats in
// seats that agree with sv's public facts, share no card with each other
// nor with taken: the number of assignments and, per seat, how many of
// them give each code.
func bruteJoint(v View, seats []int, taken uint16, limit int) (total float64, per map[int]map[Code]float64, ok bool) {
	lists := make([][]Code, len(seats)) // each seat's codes by its own facts alone
	counts := make([][]float64, len(seats))
	for j, seat := range seats {
		for _, c := range allCodes() {
			if c.mask()&taken == 0 && fits(c, &v.Seats[seat]) {
				lists[j] = append(lists[j], c)
			}
		}
		counts[j] = make([]float64, len(lists[j]))
	}
	chosen := make([]int, len(seats))
	var rec func(j int, used uint16) bool
	rec = func(j int, used uint16) bool {
		if j == len(seats) {
			total++
			for i, e := range chosen {
				counts[i][e]++
			}
			return total <= float64(limit)
		}
		for e, c := range lists[j] {
			if c.mask()&used == 0 {
				chosen[j] = e
				if !rec(j+1, used|c.mask()) {
					return false
				}
			}
		}
		return true
	}
	ok = rec(0, taken)
	per = map[int]map[Code]float64{}
	for j, seat := range seats {
		per[seat] = map[Code]float64{}
		for e, c := range lists[j] {
			if counts[j][e] > 0 {
				per[seat][c] = counts[j][e]
			}
		}
	}
	return total, per, ok
}

// bruteViewer is bruteJoint for the seat viewing v: every other seat, none
// of v's own cards nor the face-up extras.
func bruteViewer(v View, limit int) (float64, map[int]map[Code]float64, bool) {
	taken := v.Code.mask()
	for _, e := range v.Extras {
		taken |= 1 << e
	}
	var seats []int
	for i := range v.Seats {
		if engine.Seat(i) != v.Viewer.Seat {
			seats = append(seats, i)
		}
	}
	return bruteJoint(v, seats, taken, limit)
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// TestReviewMatchesBruteForce checks every hacking turn and decode of
// seeded games against counting the assignments one by one: the codes
// possible before and after, the bits gained, every option's expected bits,
// a decode's chance and, where the public count is small enough, what the
// Data card gave away.
func TestReviewMatchesBruteForce(t *testing.T) {
	checked, gaveChecked := 0, 0
	systems, least := []string{SystemSpeed, SystemCounter}, 30
	if testing.Short() || raceEnabled {
		systems, least = systems[:1], 10 // a tenth of the time under the race detector
	}
	for n := 2; n <= 4; n++ {
		for _, system := range systems {
			seed := uint64(10*n + len(system))
			rec := reviewGame(t, system, n, seed)
			rep, err := Game{}.Analyze(rec, nil)
			if err != nil {
				t.Fatal(err)
			}
			st, _, _ := engine.StartRecord(Game{}, rec)
			next := 0
			for i, m := range rec.Moves {
				var before View
				if m.Seat >= 0 {
					before = st.View(engine.SeatViewer(m.Seat)).(View)
				}
				if _, err := st.Apply(m.Seat, m.Action); err != nil {
					t.Fatal(err)
				}
				if next >= len(rep.Steps) || rep.Steps[next].Move != i {
					continue
				}
				step := rep.Steps[next]
				next++
				after := st.View(engine.SeatViewer(m.Seat)).(View)
				var a Action
				_ = json.Unmarshal(m.Action, &a)
				tb, pb, ok := bruteViewer(before, 3_000_000)
				if !ok {
					continue
				}
				ta, _, _ := bruteViewer(after, 3_000_000)
				checked++
				target := -1
				switch {
				case a.Play != nil:
					target = int(a.Play.To)
					for _, o := range step.Options {
						var oa Action
						_ = json.Unmarshal(o.Action, &oa)
						green := 0.0
						for c, w := range pb[int(oa.Play.To)] {
							if Hack(oa.Play.Hack).Green(c) {
								green += w
							}
						}
						if want := analysis.Binary(green / tb); !near(o.Bits, want) {
							t.Errorf("%d players seed %d move %d: %s worth %.6f bits, brute force %.6f", n, seed, i, o.Label, o.Bits, want)
						}
					}
					if want := analysis.Surprisal(tb, ta); !near(step.Bits, want) {
						t.Errorf("%d players seed %d move %d: gained %.6f bits, brute force %.6f", n, seed, i, step.Bits, want)
					}
					if step.LeastGave > step.Gave+1e-9 {
						t.Errorf("move %d: gave %.4f bits but the least was %.4f", i, step.Gave, step.LeastGave)
					}
					if checkGave(t, before, a.Play, step) {
						gaveChecked++
					}
				case a.Decode != nil:
					target = int(a.Decode.Target)
					c, _ := ParseCode(a.Decode.Code)
					if want := pb[target][c] / tb; !near(step.Chance, want) {
						t.Errorf("%d players seed %d move %d: decode chance %.6f, brute force %.6f", n, seed, i, step.Chance, want)
					}
				}
				if step.Before != len(pb[target]) {
					t.Errorf("%d players seed %d move %d: %d %s before, brute force %d", n, seed, i, step.Before, step.Unit, len(pb[target]))
				}
			}
			if next != len(rep.Steps) {
				t.Fatalf("seed %d: %d steps, %d matched", seed, len(rep.Steps), next)
			}
		}
	}
	t.Logf("%d steps checked, %d of them for what the Data card gave away", checked, gaveChecked)
	if checked < least || gaveChecked < least/3 {
		t.Errorf("only %d steps (%d Data cards) were small enough to check", checked, gaveChecked)
	}
}

// checkGave recounts, over the public table alone, what the Data card (or
// the announcement) of a hacking turn told about the mover's code.
func checkGave(t *testing.T, before View, p *PlayMove, step analysis.Step) bool {
	t.Helper()
	pub := before
	pub.Seats = append([]SeatView(nil), before.Seats...)
	for i := range pub.Seats {
		for q := range 3 {
			if !pub.Seats[i].Revealed[q] {
				pub.Seats[i].Known[q] = -1
			}
		}
	}
	var taken uint16
	for _, e := range before.Extras {
		taken |= 1 << e
	}
	var seats []int
	for i := range pub.Seats {
		seats = append(seats, i)
	}
	total, per, ok := bruteJoint(pub, seats, taken, 2_000_000)
	if !ok {
		return false
	}
	me := int(before.Viewer.Seat)
	if p.Data == nil {
		return false
	}
	kept := 0.0
	for c, w := range per[me] {
		if !inDataRange(*p.Data, c) {
			kept += w
		}
	}
	if want := analysis.Surprisal(total, kept); !near(step.Gave, want) {
		t.Errorf("move %d: the Data card gave %.6f bits, brute force %.6f", step.Move, step.Gave, want)
	}
	return true
}

// TestReviewIsDeterministic: the report is the same from the record, from
// its JSON export and again.
func TestReviewIsDeterministic(t *testing.T) {
	for n := 2; n <= 4; n++ {
		rec := reviewGame(t, SystemCounter, n, uint64(300+n))
		first, err := Game{}.Analyze(rec, analysis.NewBudget(analysis.DefaultWork))
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(rec)
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
			t.Fatalf("%d players: analysis differs:\n%s\n%s", n, a, b)
		}
		if len(first.Steps) < 4*n {
			t.Errorf("%d players: only %d steps for %d moves", n, len(first.Steps), len(rec.Moves))
		}
	}
}

// TestReviewBudget: a small budget cuts the review short, keeping the steps
// it finished exactly as a full review gives them.
func TestReviewBudget(t *testing.T) {
	rec := reviewGame(t, SystemSpeed, 4, 9)
	full, err := Game{}.Analyze(rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	cut, err := Game{}.Analyze(rec, analysis.NewBudget(full.Work/2))
	if err != nil {
		t.Fatal(err)
	}
	if !cut.Cut || len(cut.Steps) == 0 || len(cut.Steps) >= len(full.Steps) {
		t.Fatalf("budget cut: %v, %d of %d steps", cut.Cut, len(cut.Steps), len(full.Steps))
	}
	a, _ := json.Marshal(cut.Steps)
	b, _ := json.Marshal(full.Steps[:len(cut.Steps)])
	if string(a) != string(b) {
		t.Fatalf("steps differ under a budget")
	}
}

// redeal gives the seats other than me new codes among the assignments
// that agree with everything in v (me's view), or returns nil.
func redeal(rng *rand.Rand, s *state, me int, v View) *state {
	k := newKnowledge(v)
	for range 100 {
		c := s.clone()
		used := v.Code.mask()
		for _, e := range v.Extras {
			used |= 1 << e
		}
		ok := true
		for i := range c.n {
			if i == me {
				continue
			}
			var free []Code
			for _, x := range k.cands[i] {
				if x.mask()&used == 0 {
					free = append(free, x)
				}
			}
			if len(free) == 0 {
				ok = false
				break
			}
			c.codes[i] = free[rng.IntN(len(free))]
			used |= c.codes[i].mask()
		}
		if !ok {
			continue
		}
		// The leftover pile is what nobody holds; face-up extras stay.
		c.leftover = nil
		for card := range CodeCards {
			if used&(1<<card) == 0 {
				c.leftover = append(c.leftover, card)
			}
		}
		changed := false
		for i := range c.n {
			if c.codes[i] != s.codes[i] {
				changed = true
			}
		}
		if changed {
			return c
		}
	}
	return nil
}

// TestReviewNoninterference: a move's analysis changes with nothing its
// mover could not see. Before moves of seeded games the other codes are
// dealt again among those agreeing with the mover's view after the move.
func TestReviewNoninterference(t *testing.T) {
	tried := 0
	for n := 2; n <= 4; n++ {
		for _, system := range []string{SystemSpeed, SystemCounter} {
			seed := uint64(60 + n)
			rng := rand.New(rand.NewPCG(seed, 3))
			rec := reviewGame(t, system, n, seed)
			st, _, _ := engine.StartRecord(Game{}, rec)
			s := st.(*state)
			for _, m := range rec.Moves {
				if m.Seat >= 0 && (s.phase == Rounds || s.phase == Counter || s.phase == Answer) && rng.IntN(2) == 0 {
					later := s.clone()
					if _, err := later.Apply(m.Seat, m.Action); err != nil {
						t.Fatal(err)
					}
					if alt := redeal(rng, s, int(m.Seat), later.view(engine.SeatViewer(m.Seat))); alt != nil {
						orig := s.clone()
						a, _, errA := review(orig, []engine.Move{m}, nil)
						b, _, errB := review(alt, []engine.Move{m}, nil)
						same := errA == nil && errB == nil &&
							enginetest.ViewJSON(t, orig, engine.SeatViewer(m.Seat)) == enginetest.ViewJSON(t, alt, engine.SeatViewer(m.Seat))
						if same {
							tried++
							x, _ := json.Marshal(a)
							y, _ := json.Marshal(b)
							if string(x) != string(y) {
								t.Fatalf("%d players seed %d: seat %d's analysis changed with hidden codes:\n%s\n%s", n, seed, m.Seat, x, y)
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
		t.Errorf("only %d redeals kept the mover's view", tried)
	}
}

// BenchmarkAnalyzeGame analyses whole finished games (Speed and Counter
// Cracking in turn, 20 seeds per player count) and reports the median and
// 99th percentile of one game's analysis.
func BenchmarkAnalyzeGame(b *testing.B) {
	for n := 2; n <= 4; n++ {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			var recs []engine.Record
			for seed := uint64(0); seed < 20; seed++ {
				system := SystemSpeed
				if seed%2 == 1 {
					system = SystemCounter
				}
				recs = append(recs, reviewGame(b, system, n, 700+seed))
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

// TestReviewLegacyRecords: games recorded under the first Data card rules
// are reviewed under those rules, so every move replays and is analysed.
func TestReviewLegacyRecords(t *testing.T) {
	for i, g := range loadLegacy(t) {
		rep, err := Game{}.Analyze(g.Record, nil)
		if err != nil || rep.Cut || len(rep.Steps) == 0 {
			t.Fatalf("legacy record %d: %v (cut %v, %d steps)", i, err, rep.Cut, len(rep.Steps))
		}
	}
}
