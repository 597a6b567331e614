package rulelang

import (
	"math"
	"slices"
	"testing"
)

func TestAnalysis(t *testing.T) {
	wtrAs, itAs := WhatTheRuleAttributes(), IfThenAttributes()
	cases := []struct {
		as       *Attributes
		rule     string
		lookback int
		usesN    bool
		attrs    []string
		share    float64 // -1: do not check
		stuck    bool
		trivial  bool
	}{
		{wtrAs, "filled != prev.filled", 1, false, []string{"filled"}, 0.5, false, false},
		{wtrAs, "shape != circle", 0, false, []string{"shape"}, 2.0 / 3, false, false},
		{wtrAs, "count not in {1, 2}", 0, false, []string{"count"}, 4.0 / 6, false, false},
		{wtrAs, "if prev.color == prev2.color then color != prev.color else color == prev.color", 2, false, []string{"color"}, 0.5, false, false},
		{wtrAs, "count <= 6", 0, false, []string{"count"}, 1, false, true},
		{wtrAs, "count > prev.count", 1, false, []string{"count"}, -1, true, false},
		{wtrAs, "n % 3 == 0 or filled", 0, true, []string{"filled"}, 0.5 + 5.0/32 /* positions 3, 6, …, 15 of 16 accept all */, false, false},
		{itAs, "if prev.bg in {yellow, blue, red} then bg != prev.bg", 1, false, []string{"bg"}, -1, false, false},
		{itAs, "number == prev.number + 1", 1, false, []string{"number"}, 0.1, false, false},
	}
	for _, c := range cases {
		r := MustParse(c.as, c.rule)
		an, err := r.Analyze()
		if err != nil {
			t.Fatalf("%q: %v", c.rule, err)
		}
		if an.Lookback != c.lookback || an.UsesPosition != c.usesN || !slices.Equal(an.Attributes, c.attrs) {
			t.Errorf("%q: lookback %d, n %v, attrs %v; want %d, %v, %v", c.rule, an.Lookback, an.UsesPosition, an.Attributes, c.lookback, c.usesN, c.attrs)
		}
		if c.share >= 0 && math.Abs(an.ValidShare-c.share) > 0.01 {
			t.Errorf("%q: valid share %.3f, want %.3f", c.rule, an.ValidShare, c.share)
		}
		if an.CanGetStuck != c.stuck || an.Trivial != c.trivial {
			t.Errorf("%q: stuck %v trivial %v, want %v %v", c.rule, an.CanGetStuck, an.Trivial, c.stuck, c.trivial)
		}
		if an.CanGetStuck {
			for k := range an.StuckLine {
				if !r.Accepts(an.StuckLine[:k], an.StuckLine[k]) {
					t.Errorf("%q: stuck line is not valid", c.rule)
				}
			}
			for _, card := range c.as.Universe() {
				if r.Accepts(an.StuckLine, card) {
					t.Errorf("%q: a card is still valid after the stuck line", c.rule)
					break
				}
			}
		}
		if an.MinShare > an.ValidShare+1e-9 || an.MaxShare < an.ValidShare-1e-9 {
			t.Errorf("%q: share %.3f outside [%.3f, %.3f]", c.rule, an.ValidShare, an.MinShare, an.MaxShare)
		}
	}
}

func TestStarterRulesNeverGetStuck(t *testing.T) {
	as := WhatTheRuleAttributes()
	for _, st := range WhatTheRuleStarters() {
		an, err := MustParse(as, st.Text).Analyze()
		if err != nil {
			t.Fatal(err)
		}
		if an.CanGetStuck || an.Trivial {
			t.Errorf("%q: stuck %v, trivial %v", st.Text, an.CanGetStuck, an.Trivial)
		}
		t.Logf("%-80s share %.2f (%.2f–%.2f) states %d", st.Text, an.ValidShare, an.MinShare, an.MaxShare, an.States)
	}
}
