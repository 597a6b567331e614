package whattherule

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/analysis"
	"github.com/codebreakers/codebreakers/engine/analysis/analysistest"
	"github.com/codebreakers/codebreakers/engine/enginetest"
	"github.com/codebreakers/codebreakers/engine/rulelang"
)

// reviewGame plays a seeded bot game (strong and easy players).
func reviewGame(tb testing.TB, n int, seed uint64) engine.Record {
	levels := make([]string, n)
	for i := range levels {
		levels[i] = LevelStrong
		if (seed+uint64(i))%2 == 1 {
			levels[i] = LevelEasy
		}
	}
	return analysistest.BotRecord(tb, Game{}, engine.Options{OptRounds: "2"}, seed, levels...)
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// withRule returns a copy of s whose round is judged by rule instead.
func withRule(s *state, rule *rulelang.Rule) *state {
	c := s.clone()
	c.r.ruleText, c.r.rule = rule.String(), rule
	return c
}

// playerSees renders what seat sees of s, less what the analysis does not
// use (the game master's hints, which are words).
func playerSees(t *testing.T, s *state, seat engine.Seat) string {
	t.Helper()
	v := s.view(engine.SeatViewer(seat))
	v.Hints = nil
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReviewMatchesBruteForce replays every round of seeded games once per
// library rule, with that rule as the game master's: the rules possible for
// a player are exactly those whose game the player could not tell from the
// real one. Each option's bits and each step's after count and bits are
// recounted from those games' verdicts.
func TestReviewMatchesBruteForce(t *testing.T) {
	checked := 0
	for _, n := range []int{2, 3, 4} {
		seed := uint64(20 + n)
		rec := reviewGame(t, n, seed)
		rep, err := Game{}.Analyze(rec, nil)
		if err != nil {
			t.Fatal(err)
		}
		st, _, _ := engine.StartRecord(Game{}, rec)
		real := st.(*state)
		var alts []*state
		next := 0
		for i, m := range rec.Moves {
			phase := real.phase
			if next < len(rep.Steps) && rep.Steps[next].Move == i {
				checkWTRStep(t, rep.Steps[next], real, alts, rec.Moves[i:])
				checked++
				next++
			}
			if _, err := real.Apply(m.Seat, m.Action); err != nil {
				t.Fatal(err)
			}
			if phase == Setup && real.phase != Setup {
				// A new round's rule is set: one game per library rule.
				alts = alts[:0]
				for _, lr := range Library() {
					alts = append(alts, withRule(real, rulelang.MustParse(attrs, lr.Text)))
				}
				continue
			}
			for j, a := range alts {
				if a != nil {
					if _, err := a.Apply(m.Seat, m.Action); err != nil {
						alts[j] = nil
					}
				}
			}
		}
		if next != len(rep.Steps) {
			t.Fatalf("%d players: %d steps, %d matched", n, len(rep.Steps), next)
		}
	}
	if checked < 30 {
		t.Errorf("only %d steps checked", checked)
	}
}

// checkWTRStep checks one step; moves starts with the step's move.
func checkWTRStep(t *testing.T, step analysis.Step, real *state, alts []*state, moves []engine.Move) {
	t.Helper()
	seat := moves[0].Seat
	seen := playerSees(t, real, seat)
	var same []*state
	for _, a := range alts {
		if a != nil && playerSees(t, a, seat) == seen {
			same = append(same, a)
		}
	}
	if step.Before != len(same) {
		t.Fatalf("move %d: %d library rules possible, yet %d games look the same to seat %d", step.Move, step.Before, len(same), seat)
	}
	for _, o := range step.Options {
		var a Action
		_ = json.Unmarshal(o.Action, &a)
		if a.Reveal {
			// None fits, or card x laid, the game master choosing evenly.
			none, laid, fitsX := 0.0, map[int]float64{}, map[int]float64{}
			for _, s := range same {
				c := s.clone()
				c.r.revealed = slices.Clone(c.r.hands[seat])
				f := c.fittingInHand()
				if len(f) == 0 {
					none++
				}
				for _, x := range f {
					laid[x] += 1 / float64(len(f))
					fitsX[x]++
				}
			}
			n := float64(len(same))
			want := 0.0
			if none > 0 {
				want += none / n * math.Log2(n/none)
			}
			for x, p := range laid {
				want += p / n * math.Log2(n/fitsX[x])
			}
			if !near(o.Bits, want) {
				t.Errorf("move %d: showing the hand worth %.6f bits, the games say %.6f", step.Move, o.Bits, want)
			}
			continue
		}
		fits := 0.0
		for _, s := range same {
			if s.fits(a.Play.Card) {
				fits++
			}
		}
		if want := analysis.Binary(fits / float64(len(same))); !near(o.Bits, want) {
			t.Errorf("move %d: %q worth %.6f bits, the games say %.6f", step.Move, o.Label, o.Bits, want)
		}
	}
	// After: the games that still look the same once the verdict is in (a
	// laid card comes with the game master's next move).
	r := real.clone()
	k := 0
	for ; k < len(moves); k++ {
		if _, err := r.Apply(moves[k].Seat, moves[k].Action); err != nil {
			t.Fatal(err)
		}
		if r.phase != JudgeReveal && r.phase != JudgePlay && r.phase != JudgeGuess {
			break
		}
	}
	after := playerSees(t, r, seat)
	alike := 0
	for _, s := range same {
		c := s.clone()
		ok := true
		for _, m := range moves[:k+1] {
			if _, err := c.Apply(m.Seat, m.Action); err != nil {
				ok = false
				break
			}
		}
		if ok && playerSees(t, c, seat) == after {
			alike++
		}
	}
	if step.After != alike {
		t.Errorf("move %d (%s): %d rules after, the games say %d", step.Move, step.Text, step.After, alike)
	}
	if want := analysis.Surprisal(float64(len(same)), float64(alike)); !near(step.Bits, want) {
		t.Errorf("move %d: %.6f bits, want %.6f", step.Move, step.Bits, want)
	}
}

// TestReviewIsDeterministic: the same report from the record and from its
// JSON export, with every step of a machine rule placing the game master's
// rule among those still fitting.
func TestReviewIsDeterministic(t *testing.T) {
	rec := reviewGame(t, 3, 5)
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
		t.Fatalf("analysis differs:\n%s\n%s", a, b)
	}
	if len(first.Steps) < 5 {
		t.Fatalf("only %d steps", len(first.Steps))
	}
	for _, s := range first.Steps {
		if !strings.Contains(s.Hidden, "still fitting") {
			t.Errorf("step %d: hidden %q, want the library rule's place", s.Move, s.Hidden)
		}
	}
	cut, err := Game{}.Analyze(rec, analysis.NewBudget(first.Work/2))
	if err != nil || !cut.Cut || len(cut.Steps) >= len(first.Steps) {
		t.Fatalf("half the budget: %v, cut %v, %d of %d steps", err, cut.Cut, len(cut.Steps), len(first.Steps))
	}
}

// TestReviewNoninterference: before players' moves of seeded games the
// game master's rule is replaced by another library rule the player cannot
// tell from it, even after the move, and the other hands are shuffled; the
// move's analysis (less the replay's hidden commentary) must not change.
func TestReviewNoninterference(t *testing.T) {
	tried := 0
	for n := 3; n <= 4; n++ {
		seed := uint64(40 + n)
		rng := rand.New(rand.NewPCG(seed, 2))
		rec := reviewGame(t, n, seed)
		st, _, _ := engine.StartRecord(Game{}, rec)
		s := st.(*state)
		for _, m := range rec.Moves {
			if s.phase == Turn && m.Seat == s.r.toMove {
				for _, lr := range Library() {
					rule := rulelang.MustParse(attrs, lr.Text)
					if rule.String() == s.r.ruleText || rng.IntN(3) != 0 {
						continue
					}
					alt := withRule(s, rule)
					// The other players' hands, shuffled among themselves.
					var pool []int
					var sizes []int
					for i := range n {
						if engine.Seat(i) != m.Seat {
							pool = append(pool, alt.r.hands[i]...)
							sizes = append(sizes, len(alt.r.hands[i]))
						}
					}
					rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
					k := 0
					for i := range n {
						if engine.Seat(i) != m.Seat {
							alt.r.hands[i] = slices.Clone(pool[:sizes[k]])
							pool = pool[sizes[k]:]
							k++
						}
					}
					orig := s.clone()
					a, _, errA := review(orig, []engine.Move{m}, nil)
					b, _, errB := review(alt, []engine.Move{m}, nil)
					if errA != nil || errB != nil ||
						enginetest.ViewJSON(t, orig, engine.SeatViewer(m.Seat)) != enginetest.ViewJSON(t, alt, engine.SeatViewer(m.Seat)) {
						continue
					}
					tried++
					for i := range a {
						a[i].Hidden = ""
					}
					for i := range b {
						b[i].Hidden = ""
					}
					x, _ := json.Marshal(a)
					y, _ := json.Marshal(b)
					if string(x) != string(y) {
						t.Fatalf("%d players: seat %d's analysis changed with the hidden rule:\n%s\n%s", n, m.Seat, x, y)
					}
				}
			}
			if _, err := s.Apply(m.Seat, m.Action); err != nil {
				t.Fatal(err)
			}
		}
	}
	if tried < 10 {
		t.Errorf("only %d hidden swaps kept the player's view", tried)
	}
}

// BenchmarkAnalyzeGame analyses whole finished games (two rounds, 20 seeds
// per player count) and reports the median and 99th percentile.
func BenchmarkAnalyzeGame(b *testing.B) {
	for _, n := range []int{3, 6} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			var recs []engine.Record
			for seed := uint64(0); seed < 20; seed++ {
				recs = append(recs, reviewGame(b, n, 600+seed))
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
