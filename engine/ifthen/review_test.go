package ifthen

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/analysis"
	"github.com/codebreakers/codebreakers/engine/analysis/analysistest"
	"github.com/codebreakers/codebreakers/engine/enginetest"
)

// reviewGame plays a seeded bot game (strong and easy Code Breakers).
func reviewGame(tb testing.TB, level int, mode string, n int, seed uint64) engine.Record {
	levels := make([]string, n)
	for i := range levels {
		levels[i] = LevelStrong
		if (seed+uint64(i))%2 == 1 {
			levels[i] = LevelEasy
		}
	}
	opts := engine.Options{"level": fmt.Sprint(level), "allknowing": mode}
	return analysistest.BotRecord(tb, Game{}, opts, seed, levels...)
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// lastJudgement is the newest judgement a state holds, or nil.
func lastJudgement(s *state) *judgement {
	if len(s.history) == 0 {
		return nil
	}
	return &s.history[len(s.history)-1]
}

// TestReviewMatchesBruteForce replays each seeded game once per Challenge
// of its level, with that Challenge as the Code: the Challenges possible for
// a mover are exactly those whose game the mover could not tell from the
// real one (the same view, move for move). Each option's expected bits is
// then the entropy of the judgements it draws in those games, and After
// counts those whose game judged the move as the real one did.
func TestReviewMatchesBruteForce(t *testing.T) {
	checked := 0
	for level := 0; level <= 3; level++ {
		for _, mode := range []string{ModeServer, ModePlayer} {
			n := 2 + level%3
			if mode == ModePlayer {
				n++
			}
			seed := uint64(100*level + n)
			rec := reviewGame(t, level, mode, n, seed)
			rep, err := Game{}.Analyze(rec, nil)
			if err != nil {
				t.Fatal(err)
			}
			players := rec.Players
			real := newState(level, mode, players, seed)
			var alts []*state
			for _, idx := range challengeIndexes(level) {
				a := newState(level, mode, players, seed)
				a.challenge = idx
				alts = append(alts, a)
			}
			next := 0
			for i, m := range rec.Moves {
				if next < len(rep.Steps) && rep.Steps[next].Move == i {
					checkIfThenStep(t, rep.Steps[next], real, alts, m)
					checked++
					next++
				}
				if _, err := real.Apply(m.Seat, m.Action); err != nil {
					t.Fatal(err)
				}
				for j, a := range alts {
					if a == nil {
						continue
					}
					if _, err := a.Apply(m.Seat, m.Action); err != nil {
						alts[j] = nil // this Code could not have given this game
						continue
					}
					// A Hint is drawn at random from the Code's Hint cards: the
					// game is one this Code could give if the real Hint is among them.
					if !slices.Equal(a.hints, real.hints) {
						cards := a.challengeOf(a.challenge).Hints()
						if len(a.hints) != len(real.hints) || slices.ContainsFunc(real.hints, func(h Hint) bool { return !slices.Contains(cards, h) }) {
							alts[j] = nil
							continue
						}
						a.hints = slices.Clone(real.hints)
					}
				}
			}
			if next != len(rep.Steps) {
				t.Fatalf("level %d: %d steps, %d matched", level, len(rep.Steps), next)
			}
		}
	}
	if checked < 40 {
		t.Errorf("only %d steps checked", checked)
	}
}

// seenBy renders what seat sees of s, less what the analysis does not use
// (a Spotlight mark).
func seenBy(t *testing.T, s *state, seat engine.Seat) string {
	v := s.view(engine.SeatViewer(seat))
	for i := range v.Market {
		v.Market[i].Spotlight, v.Market[i].SpotUp = false, 0
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func checkIfThenStep(t *testing.T, step analysis.Step, real *state, alts []*state, m engine.Move) {
	t.Helper()
	seen := seenBy(t, real, m.Seat)
	var same []*state
	var weight []float64 // the chance of the Hints shown, under each Code
	for _, a := range alts {
		if a != nil && seenBy(t, a, m.Seat) == seen {
			same = append(same, a)
			w, cards := 1.0, len(a.challengeOf(a.challenge).Hints())
			for i := range a.hints {
				w /= float64(cards - i)
			}
			weight = append(weight, w)
		}
	}
	total := 0.0
	for _, w := range weight {
		total += w
	}
	if step.Before != len(same) {
		t.Fatalf("move %d: %d Challenges possible, yet %d games look the same to seat %d", step.Move, step.Before, len(same), m.Seat)
	}
	for _, o := range step.Options {
		valid := 0.0
		for i, a := range same {
			c := a.clone()
			if _, err := c.Apply(m.Seat, o.Action); err != nil {
				t.Fatalf("option %s refused: %v", o.Action, err)
			}
			if lastJudgement(c).valid {
				valid += weight[i]
			}
		}
		if want := analysis.Binary(valid / total); !near(o.Bits, want) {
			t.Errorf("move %d: %q worth %.6f bits, the games say %.6f", step.Move, o.Label, o.Bits, want)
		}
	}
	r := real.clone()
	if _, err := r.Apply(m.Seat, m.Action); err != nil {
		t.Fatal(err)
	}
	alike, left := 0, 0.0
	for i, a := range same {
		c := a.clone()
		if _, err := c.Apply(m.Seat, m.Action); err == nil && lastJudgement(c).valid == lastJudgement(r).valid {
			alike++
			left += weight[i]
		}
	}
	if step.After != alike {
		t.Errorf("move %d: %d Challenges after, the games say %d", step.Move, step.After, alike)
	}
	if want := analysis.Surprisal(total, left); !near(step.Bits, want) {
		t.Errorf("move %d: %.6f bits, want %.6f", step.Move, step.Bits, want)
	}
}

// TestReviewIsDeterministic: the same report from the record and from its
// JSON export; strong Code Breakers score 100 % only if they always chose
// the most telling card, which they do not aim for, so only the range is checked.
func TestReviewIsDeterministic(t *testing.T) {
	rec := reviewGame(t, 2, ModeServer, 3, 11)
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
	for _, s := range first.Summaries {
		if s.Accuracy < 0 || s.Accuracy > 1 {
			t.Errorf("accuracy %v out of range", s.Accuracy)
		}
	}
	cut, err := Game{}.Analyze(rec, analysis.NewBudget(first.Work/2))
	if err != nil || !cut.Cut || len(cut.Steps) >= len(first.Steps) {
		t.Fatalf("half the budget: %v, cut %v, %d of %d steps", err, cut.Cut, len(cut.Steps), len(first.Steps))
	}
}

// TestReviewNoninterference: before moves of seeded games, the Code is
// replaced by another Challenge the mover cannot tell from it (even after
// the move), and the other Code Breakers' hands are dealt again; the move's
// analysis must not change.
func TestReviewNoninterference(t *testing.T) {
	tried := 0
	for game := range 9 {
		level := 1 + game%3
		seed := uint64(50 + game)
		rng := rand.New(rand.NewPCG(seed, 1))
		rec := reviewGame(t, level, ModeServer, 3, seed)
		s := newState(level, ModeServer, rec.Players, seed)
		for _, m := range rec.Moves {
			if m.Seat >= 0 && s.phase == Turn && m.Seat == s.toMove && rng.IntN(2) == 0 {
				later := s.clone()
				if _, err := later.Apply(m.Seat, m.Action); err != nil {
					t.Fatal(err)
				}
				rules, _ := codeBelief(later.view(engine.SeatViewer(m.Seat)), levelDeck(level, false))
				for _, r := range rules {
					idx := slices.IndexFunc(Challenges(), func(x Challenge) bool { return x.Rule().String() == r.String() })
					if idx == s.challenge {
						continue
					}
					alt := s.clone()
					alt.challenge = idx
					// Other hands: swap cards between the other Code Breakers.
					var others []engine.Seat
					for _, b := range alt.breakers {
						if b != m.Seat && len(alt.hands[b]) > 0 {
							others = append(others, b)
						}
					}
					if len(others) == 2 {
						x, y := others[0], others[1]
						alt.hands[x][0], alt.hands[y][0] = alt.hands[y][0], alt.hands[x][0]
					}
					orig := s.clone()
					a, _, errA := review(orig, []engine.Move{m}, nil)
					b, _, errB := review(alt, []engine.Move{m}, nil)
					if errA != nil || errB != nil ||
						enginetest.ViewJSON(t, orig, engine.SeatViewer(m.Seat)) != enginetest.ViewJSON(t, alt, engine.SeatViewer(m.Seat)) {
						continue
					}
					tried++
					x, _ := json.Marshal(a)
					y, _ := json.Marshal(b)
					if string(x) != string(y) {
						t.Fatalf("level %d: seat %d's analysis changed with the hidden Code:\n%s\n%s", level, m.Seat, x, y)
					}
					break
				}
			}
			if _, err := s.Apply(m.Seat, m.Action); err != nil {
				t.Fatal(err)
			}
		}
	}
	if tried < 10 {
		t.Errorf("only %d hidden swaps kept the mover's view", tried)
	}
}

// BenchmarkAnalyzeGame analyses whole finished games (20 seeds per level,
// three Code Breakers, the server as All Knowing) and reports the median
// and 99th percentile of one game's analysis.
func BenchmarkAnalyzeGame(b *testing.B) {
	for level := 0; level <= 3; level++ {
		b.Run(fmt.Sprintf("level=%d", level), func(b *testing.B) {
			var recs []engine.Record
			for seed := uint64(0); seed < 20; seed++ {
				recs = append(recs, reviewGame(b, level, ModeServer, 3, 900+seed))
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

// TestReviewLegacyRecords: games recorded under the first Challenges are
// reviewed against those Challenges (the new ones would have judged their
// plays differently).
func TestReviewLegacyRecords(t *testing.T) {
	b, err := os.ReadFile("testdata/legacy_records.json")
	if err != nil {
		t.Fatal(err)
	}
	var games []legacyGame
	if err := json.Unmarshal(b, &games); err != nil {
		t.Fatal(err)
	}
	for i, g := range games {
		rep, err := Game{}.Analyze(g.Record, nil)
		if err != nil || rep.Cut || len(rep.Steps) == 0 {
			t.Fatalf("legacy record %d: %v (cut %v, %d steps)", i, err, rep.Cut, len(rep.Steps))
		}
		for _, s := range rep.Steps {
			if s.After == 0 {
				t.Fatalf("legacy record %d move %d: no Challenge of the first rules fits", i, s.Move)
			}
		}
	}
}
