package rulelangtest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine/rulelang"
)

// randomLines returns count lines of 3 to 5 random cards.
func randomLines(as *rulelang.Attributes, rng *rand.Rand, count int) [][]rulelang.Card {
	univ := as.Universe()
	out := make([][]rulelang.Card, count)
	for i := range out {
		out[i] = make([]rulelang.Card, 3+rng.IntN(3))
		for j := range out[i] {
			out[i][j] = univ[rng.IntN(len(univ))]
		}
	}
	return out
}

// disagreement is how english (instead of r's own) reads against r's
// judge after count random lines, or "" when they agree.
func disagreement(t *testing.T, as *rulelang.Attributes, r *rulelang.Rule, english string, rng *rand.Rand, count int) string {
	t.Helper()
	rd, err := ReadEnglish(as, english)
	if err != nil {
		return "unreadable: " + err.Error()
	}
	for _, line := range randomLines(as, rng, count) {
		for _, c := range as.Universe() {
			got, err := rd.Judge(line, c)
			if err != nil {
				return err.Error()
			}
			if want := r.Accepts(line, c); got != want {
				return fmt.Sprintf("after %s the card %s: the English says %v, the judge %v", as.Format(line[len(line)-1]), as.Format(c), got, want)
			}
		}
	}
	return ""
}

func TestStarterRulesSayWhatTheyJudge(t *testing.T) {
	as := rulelang.WhatTheRuleAttributes()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, lr := range rulelang.WhatTheRuleStarters() {
		r := rulelang.MustParse(as, lr.Text)
		if err := SaysWhatItJudges(r, randomLines(as, rng, 20), as.Universe()); err != nil {
			t.Errorf("%s: %v", lr.Text, err)
		}
	}
}

// The reading is independent of the judge: English that says something
// else than the rule is caught.
func TestWrongEnglishIsCaught(t *testing.T) {
	it, wtr := rulelang.IfThenAttributes(), rulelang.WhatTheRuleAttributes()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		as             *rulelang.Attributes
		rule, old, new string
	}{
		{it, "number + prev.number == 0", "is 0", "is 10"}, // a sum that wraps never reaches 10
		{it, "size >= prev.size", "at least", "greater than"},
		{it, "number - prev.number in {1, 2, 3}", "minus", "plus"},
		{it, "if bg == blue then odd(number) else size != prev.size", "odd", "even"},
		{it, "bg != prev.bg and size != prev.size", " and ", " or "},
		{wtr, "shape == next(prev.shape)", "previous card's", "card two back's"},
		{wtr, "count not in {1, 2}", "neither 1 nor 2", "neither 1 nor 3"},
		{wtr, "if prev.color == prev2.color then color != prev.color else color == prev.color", "two cards back", "three cards back"},
	} {
		r := rulelang.MustParse(c.as, c.rule)
		right := r.English()
		if d := disagreement(t, c.as, r, right, rng, 10); d != "" {
			t.Errorf("%s: the right English %q disagrees: %s", c.rule, right, d)
		}
		wrong := strings.Replace(right, c.old, c.new, 1)
		if wrong == right {
			t.Fatalf("%s: %q has no %q to change", c.rule, right, c.old)
		}
		if d := disagreement(t, c.as, r, wrong, rng, 10); d == "" {
			t.Errorf("%s: the wrong English %q was not caught", c.rule, wrong)
		}
	}
}

// gen writes random rules that stress how the English groups things:
// nested sums and differences, minus, remainders, and/or/if/not in each
// other, comparisons of conditions, sets, next() and n.
type gen struct {
	as  *rulelang.Attributes
	rng *rand.Rand
}

func (g *gen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }

func (g *gen) attrs(kind rulelang.Kind) []rulelang.Attribute {
	var out []rulelang.Attribute
	for i := range g.as.Len() {
		if a := g.as.At(i); a.Kind == kind {
			out = append(out, a)
		}
	}
	return out
}

func (g *gen) slot() string { return g.pick("", "", "prev.", "prev2.") }

func (g *gen) number(depth int) string {
	nums := g.attrs(rulelang.KindNumber)
	a := nums[g.rng.IntN(len(nums))]
	switch {
	case depth <= 0 || g.rng.IntN(3) == 0:
		if g.rng.IntN(4) == 0 {
			return fmt.Sprint(g.rng.IntN(7))
		}
		return g.slot() + a.Name
	}
	switch g.rng.IntN(4) {
	case 0:
		return "(" + g.number(depth-1) + " " + g.pick("+", "-") + " " + g.number(depth-1) + ")"
	case 1:
		return "-(" + g.number(depth-1) + ")"
	case 2:
		return "(" + g.number(depth-1) + ") % " + fmt.Sprint(2+g.rng.IntN(3))
	}
	return g.number(depth-1) + " " + g.pick("+", "-") + " " + g.number(depth-1)
}

// led is a number that starts with a card's attribute, as conditions are
// written: a condition that starts with a bare number would run into a
// list of values before it ("the colour is yellow, 5 is even").
func (g *gen) led() string {
	nums := g.attrs(rulelang.KindNumber)
	left := g.slot() + nums[g.rng.IntN(len(nums))].Name
	if g.rng.IntN(2) == 0 {
		left += " " + g.pick("+", "-") + " " + g.number(1)
	}
	return left
}

func (g *gen) cond(depth int) string {
	if depth <= 0 || g.rng.IntN(3) == 0 {
		return g.atom()
	}
	a, b := g.cond(depth-1), g.cond(depth-1)
	switch g.rng.IntN(6) {
	case 0:
		return "(" + a + " and " + b + ")"
	case 1:
		return "(" + a + " or " + b + " or " + g.cond(depth-1) + ")"
	case 2:
		return "not (" + a + ")"
	case 3:
		return "(if " + a + " then " + b + ")"
	case 4:
		return "(" + a + ") == (" + b + ")"
	}
	return "(if " + a + " then " + b + " else " + g.cond(depth-1) + ")"
}

func (g *gen) atom() string {
	switch g.rng.IntN(7) {
	case 0:
		return g.led() + " " + g.pick("==", "!=", "<", "<=", ">", ">=") + " " + g.number(2)
	case 1:
		return g.pick("even", "odd") + "(" + g.led() + ")"
	case 2:
		enums := g.attrs(rulelang.KindEnum)
		a := enums[g.rng.IntN(len(enums))]
		return g.slot() + a.Name + " " + g.pick("==", "!=") + " next(" + g.slot() + a.Name + ")"
	case 3:
		enums := g.attrs(rulelang.KindEnum)
		a := enums[g.rng.IntN(len(enums))]
		vals := []string{a.Names[g.rng.IntN(len(a.Names))], a.Names[g.rng.IntN(len(a.Names))]}[:1+g.rng.IntN(2)]
		return g.slot() + a.Name + g.pick(" in ", " not in ") + "{" + strings.Join(vals, ", ") + "}"
	case 4:
		nums := g.attrs(rulelang.KindNumber)
		a := nums[g.rng.IntN(len(nums))]
		return g.slot() + a.Name + g.pick(" in ", " not in ") + fmt.Sprintf("{%d, %d, %d}", a.Min+g.rng.IntN(3), a.Min+1+g.rng.IntN(3), a.Max)
	case 5:
		if bools := g.attrs(rulelang.KindBool); len(bools) > 0 {
			return g.pick("", "not ") + g.slot() + bools[0].Name
		}
		return "n % 3 " + g.pick("==", "!=") + " 1"
	}
	return "n " + g.pick("<", ">", "==") + " " + fmt.Sprint(1+g.rng.IntN(5))
}

// Random rules of both games: the English of each says what the judge does.
func TestRandomRulesSayWhatTheyJudge(t *testing.T) {
	count := 600
	if testing.Short() {
		count = 100
	}
	for _, as := range []*rulelang.Attributes{rulelang.IfThenAttributes(), rulelang.WhatTheRuleAttributes()} {
		g := gen{as: as, rng: rand.New(rand.NewPCG(5, 6))}
		for range count {
			src := g.cond(3)
			r, err := rulelang.Parse(as, src)
			if err != nil {
				t.Fatalf("generated %q: %v", src, err)
			}
			if err := SaysWhatItJudges(r, randomLines(as, g.rng, 2), as.Universe()); err != nil {
				t.Fatalf("%s: %v", r, err)
			}
		}
	}
}
