package rulelang

import "testing"

// TestInSetSpanningMoreThan64Values: a set of plain numbers may reach from
// -99 to 99; every member must count, not only the first 64 above the least.
func TestInSetSpanningMoreThan64Values(t *testing.T) {
	as := WhatTheRuleAttributes()
	c, err := WTRCard("circle", 1, true, "white")
	if err != nil {
		t.Fatal(err)
	}
	lineOf := func(k int) []Card {
		line := make([]Card, k)
		for i := range line {
			line[i] = c
		}
		return line
	}
	cases := []struct {
		rule string
		line int // cards already in the line; the candidate takes n = line+1
		want Truth
	}{
		{"n in {1, 70}", 69, True},
		{"n in {1, 70}", 68, False},
		{"n not in {1, 70}", 69, False},
		{"n in {1, 99}", 98, True},
		{"n - 99 in {-98, 0}", 98, True},
		{"n % 99 in {1, 70}", 69, True},
		{"count - 90 in {-89, 9}", 0, True},
	}
	for _, tc := range cases {
		r := MustParse(as, tc.rule)
		if got := r.Judge(lineOf(tc.line), c); got != tc.want {
			t.Errorf("%q at n=%d: got %v, want %v", tc.rule, tc.line+1, got, tc.want)
		}
	}
}
