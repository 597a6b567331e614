package rulelang

import (
	"errors"
	"testing"
)

// checkCounterexample replays cx against both rules and fails unless it
// really separates them.
func checkCounterexample(t *testing.T, a, b *Rule, cx *Counterexample) {
	t.Helper()
	if cx == nil {
		t.Fatalf("%q vs %q: no counterexample", a, b)
	}
	for i := range cx.Line {
		if !a.Accepts(cx.Line[:i], cx.Line[i]) || !b.Accepts(cx.Line[:i], cx.Line[i]) {
			t.Fatalf("%q vs %q: counterexample line is not valid under both at card %d", a, b, i+1)
		}
	}
	ta, tb := a.Accepts(cx.Line, cx.Card), b.Accepts(cx.Line, cx.Card)
	if ta == tb || ta != cx.FirstAccepts {
		t.Fatalf("%q vs %q: counterexample does not separate them (first %v, second %v, claimed %v)", a, b, ta, tb, cx.FirstAccepts)
	}
}

func TestEquivalence(t *testing.T) {
	wtrAs := WhatTheRuleAttributes()
	itAs := IfThenAttributes()
	cases := []struct {
		as    *Attributes
		a, b  string
		equal bool
	}{
		{wtrAs, "color == white", "color != black", true},
		{wtrAs, "shape == circle", "shape in {circle, triangle}", false},
		{wtrAs, "count not in {1, 2}", "count >= 3", true},
		{wtrAs, "filled != prev.filled", "if prev.filled then not filled else filled", true},
		{wtrAs, "filled != prev.filled", "filled and not prev.filled or not filled and prev.filled", true},
		{wtrAs, "even(count) != even(prev.count)", "odd(count + prev.count)", true},
		{wtrAs, "shape == next(prev.shape)",
			"if prev.shape == circle then shape == triangle else if prev.shape == triangle then shape == square else shape == circle", true},
		// Differences only after impossible lines do not count.
		{wtrAs, "shape != circle", "shape != circle and prev.shape != circle", true},
		{wtrAs, "shape != circle", "shape != circle and prev2.shape != circle and prev3.count > 0", true},
		// Position: the first card white, then alternate.
		{wtrAs, "n % 2 == 1 and color == white or n % 2 == 0 and color == black",
			"if n == 1 then color == white else color != prev.color", true},
		{wtrAs, "if odd(n) then color == white else color == black", "color != prev.color", false},
		{wtrAs, "n > 3 or filled", "n >= 4 or filled", true},
		{wtrAs, "n > 3 or filled", "n > 4 or filled", false},
		{wtrAs, "n - n + 2 > 1", "true", true},
		{wtrAs, "(n + 2) % 3 == 0 or filled", "n % 3 == 1 or filled", true},
		{wtrAs, "if prev.color == prev2.color then color != prev.color else color == prev.color",
			"if n % 4 in {1, 2} then color == black else color == white", false},
		{wtrAs, "true", "count <= 6", true},
		{itAs, "if prev.bg in {yellow, blue, red} then bg != prev.bg", "bg != prev.bg", true},
		{itAs, "number == prev.number + 1", "prev.number == number - 1", true},
		{itAs, "number == prev.number + 1", "number == prev.number + 11", true},
		{itAs, "number == prev.number + 1", "number > prev.number", false},
		{itAs, "if size == large then even(number) else odd(number)", "if size >= 3 then number % 2 == 0 else number % 2 == 1", true},
	}
	for _, c := range cases {
		a, b := MustParse(c.as, c.a), MustParse(c.as, c.b)
		for _, pair := range [][2]*Rule{{a, b}, {b, a}} {
			eq, cx, err := Equivalent(pair[0], pair[1])
			if err != nil {
				t.Fatalf("%q vs %q: %v", pair[0], pair[1], err)
			}
			if eq != c.equal {
				t.Errorf("%q vs %q: equivalent = %v, want %v (counterexample %+v)", pair[0], pair[1], eq, c.equal, cx)
				continue
			}
			if !eq {
				checkCounterexample(t, pair[0], pair[1], cx)
			}
		}
	}
}

func TestNearMissCounterexample(t *testing.T) {
	as := WhatTheRuleAttributes()
	a, b := MustParse(as, "shape == circle"), MustParse(as, "shape in {circle, triangle}")
	eq, cx, err := Equivalent(a, b)
	if err != nil || eq {
		t.Fatalf("want a difference, got eq=%v err=%v", eq, err)
	}
	checkCounterexample(t, a, b, cx)
	if as.Get(cx.Card, "shape") != "triangle" || cx.FirstAccepts {
		t.Errorf("the counterexample should be a triangle that only the second rule accepts; got %s", as.Format(cx.Card))
	}
}

func TestHostileRulesAreRefusedNotExplored(t *testing.T) {
	as := WhatTheRuleAttributes()
	// Many moduli of n: the period would be astronomically large.
	src := "n % 97 == 1 or n % 89 == 1 or n % 83 == 1 or n % 79 == 1 or n % 73 == 1 or n % 71 == 1 or n % 67 == 1 or n % 61 == 1 or n % 59 == 1 or n % 53 == 1 or n % 47 == 1 or n % 43 == 1 or n % 41 == 1"
	r := MustParse(as, src)
	if _, _, err := Equivalent(r, r); !errors.Is(err, ErrTooComplex) {
		t.Errorf("want ErrTooComplex, got %v", err)
	}
	if _, err := r.Analyze(); !errors.Is(err, ErrTooComplex) {
		t.Errorf("Analyze: want ErrTooComplex, got %v", err)
	}
	// Comparing rules of different games is an error, not a panic.
	if _, _, err := Equivalent(r, MustParse(IfThenAttributes(), "bg != prev.bg")); err == nil {
		t.Error("want an error comparing rules of different games")
	}
}
