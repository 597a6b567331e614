package rulelang

import (
	"strings"
	"testing"
)

func TestFixedComparisons(t *testing.T) {
	it, wtr := IfThenAttributes(), WhatTheRuleAttributes()
	cases := []struct {
		as    *Attributes
		rule  string
		fixed []string // a word of each finding's Why, in order; none: nothing fixed
	}{
		// Cyclic sums stay within 0–9: 10 is never reached.
		{it, "number + prev.number == 10", []string{"never equal"}},
		{it, "if bg == prev.ncolor then number + prev.number == 10 or number == prev.number else number == prev.number + 6", []string{"never equal"}},
		{it, "number + prev.number == 0", nil},
		{it, "number + prev.number != 10", []string{"never equal"}},
		{it, "number + prev.number in {8, 9, 10}", []string{"never 10"}},
		{it, "number - prev.number in {1, 2, 3}", nil},
		{it, "number + prev.number < 10", []string{"always true"}},
		{it, "number + prev.number > 9", []string{"never true"}},
		{it, "number + prev.number >= 9", nil},
		// Plain arithmetic does not wrap: size + 1 reaches 4, not 5.
		{it, "number - prev.number == size + 1", nil},
		{it, "size + 1 == 5", []string{"never equal"}},
		{it, "size + prev.size in {2, 6, 7}", []string{"never 7"}},
		{it, "(number + size) % 3 == (prev.number + prev.size) % 3", nil},
		{it, "(number + prev.number) % 4 == 4", []string{"never equal"}},
		{it, "size > 0", []string{"always true"}},
		{it, "number in {0, 5}", nil},
		// Several findings, in order.
		{it, "number + 1 == 10 and size == 4", []string{"never equal", "never equal"}},
		// What the Rule?!: counts are 1–6 and do not wrap; shapes wrap.
		{wtr, "count + prev.count == 12", nil},
		{wtr, "count + prev.count == 13", []string{"never equal"}},
		{wtr, "count == 0", []string{"never equal"}},
		{wtr, "shape == next(prev.shape)", nil},
		{wtr, "n % 3 == 3", []string{"never equal"}},
		{wtr, "n > 3", nil},
		{wtr, "count + n == 2", nil},
	}
	for _, c := range cases {
		r := MustParse(c.as, c.rule)
		got := r.FixedComparisons()
		if len(got) != len(c.fixed) {
			t.Errorf("%s: %d findings %v, want %d", c.rule, len(got), got, len(c.fixed))
			continue
		}
		for i, f := range got {
			if !strings.Contains(f.Why, c.fixed[i]) || f.Col < 1 || f.Text == "" {
				t.Errorf("%s: finding %d is %v, want it to say %q", c.rule, i, f, c.fixed[i])
			}
		}
	}
}

// A finding is sound: a comparison said to be fixed really never changes
// over every pair of cards, and one not reported does change.
func TestFixedComparisonsAreSound(t *testing.T) {
	as := IfThenAttributes()
	univ := as.Universe()
	for _, src := range []string{
		"number + prev.number == 10", "number + prev.number == 0", "size + prev.size == 7",
		"size + prev.size == 6", "(number - prev.number) % 4 == 3", "number - prev.number < 0",
	} {
		r := MustParse(as, src)
		seen := map[Truth]bool{}
		for _, p := range univ {
			for _, c := range univ {
				seen[r.Judge([]Card{p}, c)] = true
			}
		}
		fixed := len(r.FixedComparisons()) > 0
		if fixed != (len(seen) == 1) {
			t.Errorf("%s: reported fixed %v, but judged %v over every pair", src, fixed, seen)
		}
	}
}
