package rulelang

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// ruleGen writes random rules for an attribute set.
type ruleGen struct {
	as  *Attributes
	rng *rand.Rand
}

func (g *ruleGen) slot() string {
	return []string{"", "", "prev.", "prev2."}[g.rng.IntN(4)]
}

func (g *ruleGen) attr(pred func(Attribute) bool) (int, bool) {
	var ok []int
	for i := range g.as.Len() {
		if pred(g.as.At(i)) {
			ok = append(ok, i)
		}
	}
	if len(ok) == 0 {
		return 0, false
	}
	return ok[g.rng.IntN(len(ok))], true
}

func (g *ruleGen) value(a Attribute) string {
	v := a.Min + g.rng.IntN(a.Max-a.Min+1)
	if a.Kind == KindEnum || (len(a.Names) > 0 && g.rng.IntN(2) == 0) {
		return a.Names[v-a.Min]
	}
	return fmt.Sprint(v)
}

func (g *ruleGen) atom() string {
	switch g.rng.IntN(8) {
	case 0:
		if i, ok := g.attr(func(a Attribute) bool { return a.Kind == KindBool }); ok {
			return g.slot() + g.as.At(i).Name
		}
	case 1:
		i, _ := g.attr(func(a Attribute) bool { return a.Kind != KindBool })
		a := g.as.At(i)
		vals := []string{g.value(a), g.value(a), g.value(a)}[:1+g.rng.IntN(3)]
		not := []string{" in ", " not in "}[g.rng.IntN(2)]
		return g.slot() + a.Name + not + "{" + strings.Join(vals, ", ") + "}"
	case 2:
		i, _ := g.attr(func(a Attribute) bool { return a.Kind != KindBool })
		a := g.as.At(i)
		op := []string{"==", "!="}[g.rng.IntN(2)]
		return g.slot() + a.Name + " " + op + " " + g.slot() + a.Name
	case 3:
		if i, ok := g.attr(func(a Attribute) bool { return a.Kind == KindNumber }); ok {
			a := g.as.At(i)
			op := []string{"<", "<=", ">", ">=", "==", "!="}[g.rng.IntN(6)]
			rhs := g.value(a)
			if g.rng.IntN(2) == 0 {
				rhs = fmt.Sprintf("prev.%s + %d", a.Name, g.rng.IntN(4))
			}
			return g.slot() + a.Name + " " + op + " " + rhs
		}
	case 4:
		if i, ok := g.attr(func(a Attribute) bool { return a.Kind == KindNumber }); ok {
			f := []string{"even", "odd"}[g.rng.IntN(2)]
			return fmt.Sprintf("%s(%s%s + %d)", f, g.slot(), g.as.At(i).Name, g.rng.IntN(3))
		}
	case 5:
		if g.rng.IntN(3) == 0 {
			return fmt.Sprintf("n %% %d == %d", 2+g.rng.IntN(3), g.rng.IntN(2))
		}
		return fmt.Sprintf("n %s %d", []string{"<", ">", "=="}[g.rng.IntN(3)], 1+g.rng.IntN(4))
	case 6:
		i, _ := g.attr(func(a Attribute) bool { return a.Kind == KindEnum })
		a := g.as.At(i)
		return fmt.Sprintf("%s == next(prev.%s)", a.Name, a.Name)
	}
	i, _ := g.attr(func(a Attribute) bool { return a.Kind != KindBool })
	a := g.as.At(i)
	return g.slot() + a.Name + " != " + g.value(a)
}

func (g *ruleGen) cond(depth int) string {
	if depth <= 0 || g.rng.IntN(3) == 0 {
		return g.atom()
	}
	switch g.rng.IntN(5) {
	case 0:
		return "not (" + g.cond(depth-1) + ")"
	case 1:
		return "(" + g.cond(depth-1) + ") and (" + g.cond(depth-1) + ")"
	case 2:
		return "(" + g.cond(depth-1) + ") or (" + g.cond(depth-1) + ")"
	case 3:
		return "if " + g.cond(depth-1) + " then (" + g.cond(depth-1) + ")"
	}
	return "if " + g.cond(depth-1) + " then (" + g.cond(depth-1) + ") else (" + g.cond(depth-1) + ")"
}

func attrSets() []*Attributes {
	return []*Attributes{WhatTheRuleAttributes(), IfThenAttributes()}
}

// randomLine builds a line valid under every rule given, up to length max.
func randomLine(rng *rand.Rand, univ []Card, max int, rules ...*Rule) []Card {
	var line []Card
	for len(line) < max {
		placed := false
		for range 20 {
			c := univ[rng.IntN(len(univ))]
			ok := true
			for _, r := range rules {
				ok = ok && r.Accepts(line, c)
			}
			if ok {
				line = append(line, c)
				placed = true
				break
			}
		}
		if !placed {
			break
		}
	}
	return line
}

func TestPrinterRoundTripsRandomRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, as := range attrSets() {
		g := ruleGen{as: as, rng: rng}
		univ := as.Universe()
		for range 500 {
			src := g.cond(4)
			r, err := Parse(as, src)
			if err != nil {
				t.Fatalf("generated rule %q does not parse: %v", src, err)
			}
			again, err := Parse(as, r.String())
			if err != nil {
				t.Fatalf("printed %q (from %q) does not parse: %v", r, src, err)
			}
			if again.String() != r.String() {
				t.Fatalf("print is not stable: %q → %q", r, again)
			}
			// Printing keeps the meaning.
			for range 20 {
				line := randomLine(rng, univ, rng.IntN(6))
				c := univ[rng.IntN(len(univ))]
				if r.Judge(line, c) != again.Judge(line, c) {
					t.Fatalf("%q and its print %q judge differently", src, again)
				}
			}
			if r.English() == "" {
				t.Fatalf("%q: empty English", src)
			}
		}
	}
}

func TestEquivalenceProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, as := range attrSets() {
		g := ruleGen{as: as, rng: rng}
		univ := as.Universe()
		pairs := 150
		if testing.Short() {
			pairs = 30
		}
		for i := range pairs {
			a := MustParse(as, g.cond(3))
			b := MustParse(as, g.cond(3))
			if i%3 == 0 {
				// A rewording that must stay equivalent.
				b = MustParse(as, "not not ("+a.String()+") and true")
			}
			eq, _, err := Equivalent(a, a)
			if err != nil || !eq {
				t.Fatalf("%q is not equivalent to itself: %v", a, err)
			}
			ab, cxab, err1 := Equivalent(a, b)
			ba, cxba, err2 := Equivalent(b, a)
			if err1 != nil || err2 != nil {
				t.Fatalf("%q vs %q: %v %v", a, b, err1, err2)
			}
			if ab != ba {
				t.Fatalf("not symmetric: %q vs %q gives %v, reversed %v", a, b, ab, ba)
			}
			if i%3 == 0 && !ab {
				t.Fatalf("%q and its rewording %q are judged different", a, b)
			}
			if !ab {
				checkCounterexample(t, a, b, cxab)
				checkCounterexample(t, b, a, cxba)
				continue
			}
			// Equivalent rules never disagree on random lines valid under both
			// (long enough to pass every threshold and period of n).
			for range 30 {
				line := randomLine(rng, univ, 3+rng.IntN(20), a)
				for k := range line {
					if a.Accepts(line[:k], line[k]) != b.Accepts(line[:k], line[k]) {
						t.Fatalf("%q and %q judged equivalent but disagree at card %d of a line", a, b, k+1)
					}
				}
				c := univ[rng.IntN(len(univ))]
				if a.Accepts(line, c) != b.Accepts(line, c) {
					t.Fatalf("%q and %q judged equivalent but disagree after a line", a, b)
				}
			}
		}
	}
}
