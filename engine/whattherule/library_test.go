package whattherule

import (
	"math/rand/v2"
	"testing"

	"github.com/codebreakers/codebreakers/engine/rulelang"
	"github.com/codebreakers/codebreakers/engine/rulelang/rulelangtest"
)

func TestLibraryRulesParseAndPlay(t *testing.T) {
	lib := Library()
	if len(lib) < 40 {
		t.Fatalf("library has %d rules, want at least 40", len(lib))
	}
	byGrade := map[Grade]int{}
	for i, lr := range lib {
		r, err := rulelang.Parse(attrs, lr.Text)
		if err != nil {
			t.Fatalf("rule %d %q: %v", i, lr.Text, err)
		}
		an, err := r.Analyze()
		if err != nil {
			t.Fatalf("rule %d %q: analyse: %v", i, lr.Text, err)
		}
		if an.Trivial || an.CanGetStuck || an.ValidShare <= 0 || an.MinShare <= 0 {
			t.Errorf("rule %d %q: trivial %v, stuck %v, share %.2f (min %.2f)", i, lr.Text, an.Trivial, an.CanGetStuck, an.ValidShare, an.MinShare)
		}
		if lr.Title == "" || lr.Grade < Easy || lr.Grade > Fiendish {
			t.Errorf("rule %d: title %q grade %d", i, lr.Title, lr.Grade)
		}
		if i > 0 && lr.Grade < lib[i-1].Grade {
			t.Errorf("rule %d %q: grades must not fall along the library", i, lr.Text)
		}
		byGrade[lr.Grade]++
		t.Logf("%-9s share %.2f  %s", lr.Grade, an.ValidShare, lr.Text)
	}
	for g := Easy; g <= Fiendish; g++ {
		if byGrade[g] < 5 {
			t.Errorf("grade %s has %d rules, want at least 5", g, byGrade[g])
		}
	}
}

func TestLibraryRulesAllDiffer(t *testing.T) {
	lib := Library()
	rules := make([]*rulelang.Rule, len(lib))
	for i := range lib {
		rules[i] = rulelang.MustParse(attrs, lib[i].Text)
	}
	for i := range rules {
		for j := i + 1; j < len(rules); j++ {
			eq, _, err := rulelang.Equivalent(rules[i], rules[j])
			if err != nil {
				t.Fatalf("%q vs %q: %v", lib[i].Text, lib[j].Text, err)
			}
			if eq {
				t.Errorf("library rules %d %q and %d %q are equivalent", i, lib[i].Text, j, lib[j].Text)
			}
		}
	}
}

func TestLibraryHoldsTheStarters(t *testing.T) {
	lib := Library()
	for _, s := range rulelang.WhatTheRuleStarters() {
		want := rulelang.MustParse(attrs, s.Text)
		found := false
		for _, lr := range lib {
			if !lr.Starter {
				continue
			}
			if eq, _, _ := rulelang.Equivalent(want, rulelang.MustParse(attrs, lr.Text)); eq {
				found = true
			}
		}
		if !found {
			t.Errorf("starter %q is not in the library", s.Title)
		}
	}
}

// Harder grades read more: more cards back or more attributes, on average.
func TestLibraryGradesRiseWithComplexity(t *testing.T) {
	sum := map[Grade]float64{}
	cnt := map[Grade]float64{}
	for _, lr := range Library() {
		r := rulelang.MustParse(attrs, lr.Text)
		c := float64(r.Lookback()*2 + len(r.AttributesUsed()))
		if r.UsesPosition() {
			c += 3
		}
		sum[lr.Grade] += c
		cnt[lr.Grade]++
		if lr.Grade == Easy && (r.Lookback() > 0 || len(r.AttributesUsed()) > 1) {
			t.Errorf("easy rule %q reads more than one attribute of the card", lr.Text)
		}
	}
	prev := -1.0
	for g := Easy; g <= Fiendish; g++ {
		avg := sum[g] / cnt[g]
		if avg <= prev {
			t.Errorf("grade %s averages complexity %.2f, not above %.2f", g, avg, prev)
		}
		prev = avg
	}
}

// Each library rule's English, read on its own (rulelangtest), judges as
// the rule does after sampled lines, and compares no value with one it
// cannot take.
func TestLibraryRulesSayWhatTheyJudge(t *testing.T) {
	univ := attrs.Universe()
	rng := rand.New(rand.NewPCG(8, 9))
	lines := make([][]rulelang.Card, 30)
	for i := range lines {
		lines[i] = make([]rulelang.Card, 3+rng.IntN(4))
		for j := range lines[i] {
			lines[i][j] = univ[rng.IntN(len(univ))]
		}
	}
	for _, lr := range Library() {
		r := rulelang.MustParse(attrs, lr.Text)
		for _, f := range r.FixedComparisons() {
			t.Errorf("%q: %v", lr.Text, f)
		}
		if err := rulelangtest.SaysWhatItJudges(r, lines, univ); err != nil {
			t.Errorf("%q: %v", lr.Text, err)
		}
	}
}
