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

// TestEquivalentAfterAnyCard: two rules that agree on every line they can
// build from an empty start may still differ after a card neither accepts,
// which a game dealing its first card unjudged (If Then) does reach.
func TestEquivalentAfterAnyCard(t *testing.T) {
	as := IfThenAttributes()
	code := MustParse(as, "if prev.bg == red then bg == yellow else bg == red")
	guess := MustParse(as, "bg != prev.bg and bg != blue")
	if same, _, err := Equivalent(code, guess); err != nil || !same {
		t.Fatalf("the premise changed: Equivalent = %v, %v", same, err)
	}
	same, cx, err := EquivalentAfterAnyCard(code, guess, as.Universe())
	if err != nil {
		t.Fatal(err)
	}
	if same || cx == nil {
		t.Fatal("the rules differ after a blue background, yet were found equivalent")
	}
	if len(cx.Line) != 1 || as.Get(cx.Line[0], "bg") != "blue" {
		t.Errorf("counterexample %v: want a line of one blue-background card", cx.Line)
	}
	if code.Accepts(cx.Line, cx.Card) == guess.Accepts(cx.Line, cx.Card) || cx.FirstAccepts != code.Accepts(cx.Line, cx.Card) {
		t.Errorf("counterexample %v then %v does not separate the rules", cx.Line, cx.Card)
	}
	for _, pair := range [][2]string{
		{"bg != prev.bg", "not (bg == prev.bg)"},
		{"if prev.bg == red then bg == yellow else bg == red", "bg == red and prev.bg != red or bg == yellow and prev.bg == red"},
		{"size == large", "size > medium"},
	} {
		same, cx, err := EquivalentAfterAnyCard(MustParse(as, pair[0]), MustParse(as, pair[1]), as.Universe())
		if err != nil || !same {
			t.Errorf("%q and %q: want equivalent, got %v %v %v", pair[0], pair[1], same, cx, err)
		}
	}
	if _, _, err := EquivalentAfterAnyCard(code, MustParse(as, "bg != prev2.bg"), as.Universe()); err == nil {
		t.Error("a rule reading prev2 was compared pairwise")
	}
}

// TestEnglishOfComparisonsWithTrueOrFalse: a condition compared with true
// or false reads as the condition or its opposite, so the rule card says
// what the rule does ("the card is filled", not "the filling matches true").
func TestEnglishOfComparisonsWithTrueOrFalse(t *testing.T) {
	as := WhatTheRuleAttributes()
	cases := [][2]string{
		{"filled == true", "The card is filled."},
		{"filled == false", "The card is unfilled."},
		{"true != prev.filled", "The previous card is unfilled."},
		{"(color == white) == false", "The colour is not white."},
		{"(filled and color == white) == true", "The card is filled and the colour is white."},
		{"shape == circle or (filled and color == white) == true", "The shape is circle or (the card is filled and the colour is white)."},
		{"if filled == true then color == white", "If the card is filled, then the colour is white."},
	}
	for _, c := range cases {
		if got := MustParse(as, c[0]).English(); got != c[1] {
			t.Errorf("%q reads %q, want %q", c[0], got, c[1])
		}
	}
}
