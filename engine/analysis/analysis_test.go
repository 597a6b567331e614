package analysis

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

func TestEntropyAndSurprisal(t *testing.T) {
	cases := []struct {
		w    []float64
		want float64
	}{
		{[]float64{1, 1}, 1},
		{[]float64{3, 0, 1}, 0.811278124},
		{[]float64{5}, 0},
		{nil, 0},
		{[]float64{1, 1, 1, 1}, 2},
	}
	for _, c := range cases {
		if got := Entropy(c.w); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Entropy(%v) = %v, want %v", c.w, got, c.want)
		}
	}
	if Binary(0) != 0 || Binary(1) != 0 || Binary(0.5) != 1 {
		t.Errorf("Binary: %v %v %v", Binary(0), Binary(1), Binary(0.5))
	}
	if got := Surprisal(212, 53); math.Abs(got-2) > 1e-9 {
		t.Errorf("Surprisal(212, 53) = %v, want 2", got)
	}
	for _, c := range [][2]float64{{10, 10}, {10, 0}, {0, 5}, {5, 10}} {
		if got := Surprisal(c[0], c[1]); got != 0 || math.Signbit(got) {
			t.Errorf("Surprisal(%v, %v) = %v, want +0", c[0], c[1], got)
		}
	}
}

func TestRankKeepsTableOrderAmongEquals(t *testing.T) {
	opts := []Option{{Label: "a", Bits: 1}, {Label: "b", Bits: 2}, {Label: "c", Bits: 1}, {Label: "d", Bits: 2}}
	best := Rank(opts)
	got := ""
	for _, o := range opts {
		got += o.Label
	}
	if best.Label != "b" || got != "bdac" {
		t.Errorf("Rank: best %q, order %q; want b, bdac", best.Label, got)
	}
	if o := Rank(nil); o.Label != "" || o.Action != nil || o.Bits != 0 {
		t.Error("Rank(nil) must be the zero option")
	}
}

// TestSummarize checks the review of two players: bits add up, accuracy is
// expected over best on scored steps only, the step that helped most is the
// one with the most bits, and the costliest is the largest shortfall.
func TestSummarize(t *testing.T) {
	steps := []Step{
		{Move: 0, Seat: 0, Kind: "ask", Bits: 2, Expected: 1.5, Best: 2, Scored: true},
		{Move: 1, Seat: 1, Kind: "ask", Bits: 0.5, Expected: 1, Best: 1, Scored: true},
		{Move: 2, Seat: 0, Kind: "ask", Bits: 3, Expected: 2.5, Best: 2.5, Scored: true},
		{Move: 3, Seat: 0, Kind: "ask", Bits: 1, Expected: 0.5, Best: 2, Scored: true},
		{Move: 4, Seat: 1, Kind: "guess", Bits: 4, Chance: 0.1},
	}
	sums := Summarize(steps, []engine.Player{{Name: "ann"}, {Name: "bo"}})
	a, b := sums[0], sums[1]
	if a.Name != "ann" || a.Moves != 3 || a.Bits != 6 || a.Expected != 4.5 || a.Best != 6.5 {
		t.Errorf("ann: %+v", a)
	}
	if math.Abs(a.Accuracy-4.5/6.5) > 1e-12 || a.Helped != 2 || a.Cost != 3 {
		t.Errorf("ann: accuracy %v helped %d cost %d; want %v, 2, 3", a.Accuracy, a.Helped, a.Cost, 4.5/6.5)
	}
	if b.Moves != 1 || b.Guesses != 1 || b.Accuracy != 1 || b.Cost != -1 || b.Helped != 4 || b.Bits != 4.5 {
		t.Errorf("bo: %+v", b)
	}
	none := Summarize(nil, []engine.Player{{Name: "x"}})[0]
	if none.Accuracy != 1 || none.Helped != -1 || none.Cost != -1 {
		t.Errorf("no steps: %+v", none)
	}
	r := Report{Steps: steps}
	if r.StepAt(3) != 3 || r.StepAt(7) != -1 {
		t.Errorf("StepAt: %d %d", r.StepAt(3), r.StepAt(7))
	}
}

func TestBudget(t *testing.T) {
	b := NewBudget(10)
	if !b.Afford(10) || b.Afford(11) || !b.Spend(4) || b.Left() != 6 || b.Spent() != 4 {
		t.Fatalf("budget after 4: left %d spent %d", b.Left(), b.Spent())
	}
	if b.Spend(7) || b.Left() != 0 || b.Spend(1) || b.Spent() != 10 {
		t.Fatalf("an overspend must empty the budget: left %d spent %d", b.Left(), b.Spent())
	}
	var unlimited *Budget
	if !unlimited.Spend(1<<40) || !unlimited.Afford(1<<62) || unlimited.Spent() != 0 {
		t.Fatal("a nil budget is unlimited")
	}
}

// TestLines: the transcript names each move by its number, its player and
// what it was, gives its figures, and ends with a line per player.
func TestLines(t *testing.T) {
	steps := []Step{
		{Move: 6, Seat: 0, Kind: "ask", Text: "asked: where are your 8s or 9s? (8)", Knew: "212 centre sets possible",
			Unit: "centre sets", Before: 212, After: 58, Bits: 1.87, Expected: 1.9, Best: 2.31, BestMove: "sum of your tiles", Scored: true},
		{Move: 8, Seat: 1, Kind: "guess", Text: "guessed the centre: 1w 2b 4b 6w 8w", Unit: "centre sets", Before: 3, After: 3,
			Chance: 1.0 / 3, BestChance: 1.0 / 3},
	}
	r := Report{Steps: steps, Summaries: Summarize(steps, []engine.Player{{Name: "p0"}, {Name: "p1"}})}
	got := strings.Join(r.Lines([]string{"Bo", "mara"}), "\n")
	for _, want := range []string{
		"  move 7 · Bo asked: where are your 8s or 9s? (8)",
		"          knew: 212 centre sets possible",
		"          212 → 58 centre sets · gained 1.87 bits · expected 1.90 · best 2.31: sum of your tiles",
		"  move 9 · mara guessed the centre: 1w 2b 4b 6w 8w",
		"          3 → 3 centre sets · chance 33 % (best 33 %)",
		"  Bo           1 question · 1.87 bits gained · expected 1.90 of the best 2.31 · accuracy 82 %",
		"only move 7 mattered (gained 1.87 bits; expected 1.90 of 2.31 bits)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("lines lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "helped most: move 7") || strings.Contains(got, "cost most: move 7") {
		t.Errorf("move 7 is named as one that helped or cost most though it was the only one:\n%s", got)
	}
	// A report stored before Standouts named one move for both: shown
	// from its steps, it does not.
	old := r
	old.Summaries = slices.Clone(r.Summaries)
	old.Summaries[0].Helped, old.Summaries[0].Cost = 0, 0
	if got := strings.Join(old.Lines([]string{"Bo", "mara"}), "\n"); strings.Contains(got, "helped most: move 7") {
		t.Errorf("a stored report names move 7 twice:\n%s", got)
	}
	if !strings.Contains(got, "  mara         nothing to score (1 guess)") || strings.Contains(got, "0 moves") {
		t.Errorf("a player who only guessed is not said so:\n%s", got)
	}
}

// TestStandoutsNeverNameOneMoveTwice: the move that helped most and the one
// that cost most are different moves. A move that is both keeps the role it
// stands out in more (gained at least what it gave up: helped) and the
// other role goes to the runner-up; with no runner-up, it was the only move
// that mattered.
func TestStandoutsNeverNameOneMoveTwice(t *testing.T) {
	cases := []struct {
		name         string
		steps        []Step
		helped, cost int
		only         bool
	}{
		{"lucky and costly, gained more than it lost: helped; cost to the runner-up", []Step{
			{Seat: 0, Bits: 3, Expected: 1, Best: 2.5, Scored: true},
			{Seat: 0, Bits: 1, Expected: 1, Best: 1.5, Scored: true},
			{Seat: 0, Bits: 0.5, Expected: 1, Best: 1, Scored: true},
		}, 0, 1, false},
		{"gave up more than it gained: cost; helped to the runner-up", []Step{
			{Seat: 0, Bits: 0.5, Expected: 0.1, Best: 2.5, Scored: true},
			{Seat: 0, Bits: 0.4, Expected: 1, Best: 1, Scored: true},
		}, 1, 0, false},
		{"one move mattered, kept as helped", []Step{
			{Seat: 0, Bits: 2, Expected: 1.9, Best: 2.3, Scored: true},
			{Seat: 0, Bits: 0, Expected: 1, Best: 1, Scored: true},
		}, 0, -1, true},
		{"one move mattered, kept as cost", []Step{
			{Seat: 0, Bits: 0.1, Expected: 0.2, Best: 2, Scored: true},
		}, -1, 0, true},
		{"different moves stay as they are", []Step{
			{Seat: 0, Bits: 2, Expected: 2, Best: 2, Scored: true},
			{Seat: 1, Bits: 5, Expected: 0, Best: 5, Scored: true},
			{Seat: 0, Bits: 1, Expected: 0.5, Best: 2, Scored: true},
		}, 0, 2, false},
	}
	for _, c := range cases {
		h, co, only := Standouts(c.steps, 0)
		if h != c.helped || co != c.cost || only != c.only {
			t.Errorf("%s: helped %d cost %d only %v; want %d %d %v", c.name, h, co, only, c.helped, c.cost, c.only)
		}
		sum := Summarize(c.steps, []engine.Player{{Name: "a"}, {Name: "b"}})[0]
		if sum.Helped != c.helped || sum.Cost != c.cost {
			t.Errorf("%s: Summarize helped %d cost %d; want %d %d", c.name, sum.Helped, sum.Cost, c.helped, c.cost)
		}
		if sum.Helped >= 0 && sum.Helped == sum.Cost {
			t.Errorf("%s: step %d both helped and cost most", c.name, sum.Helped)
		}
	}
}

// TestPercentNeverRoundsAChanceAway: a one-in-209 guess read "chance 0 %".
func TestPercentNeverRoundsAChanceAway(t *testing.T) {
	for x, want := range map[float64]string{0: "0 %", 1.0 / 209: "<1 %", 0.005: "1 %", 0.5: "50 %", 0.994: "99 %", 0.996: ">99 %", 1: "100 %"} {
		if got := Percent(x); got != want {
			t.Errorf("Percent(%v) = %q, want %q", x, got, want)
		}
	}
}

// TestFiguresSayOneInTheSingular: "209 → 1 hands" read wrong.
func TestFiguresSayOneInTheSingular(t *testing.T) {
	for unit, want := range map[string]string{"hands": "209 → 1 hand ·", "centre sets": "209 → 1 centre set ·",
		"codes of bo": "209 → 1 code of bo ·", "library rules": "209 → 1 library rule ·", "Challenges": "209 → 1 Challenge ·"} {
		if got := (Step{Unit: unit, Before: 209, After: 1, Kind: "guess"}).Figures(); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want it to begin %q", unit, got, want)
		}
	}
	if got := (Step{Unit: "hands", Before: 3003, After: 209}).Figures(); !strings.HasPrefix(got, "3003 → 209 hands ·") {
		t.Errorf("many: %q", got)
	}
}
