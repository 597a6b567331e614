package rulelang

import (
	"errors"
	"strings"
	"testing"
)

func TestCanonicalPrinting(t *testing.T) {
	as := WhatTheRuleAttributes()
	cases := []struct{ in, want string }{
		{"card.shape   ==circle", "shape == circle"},
		{"SHAPE = Circle", "shape == circle"},
		{"shape in {square, circle, square}", "shape in {circle, square}"},
		{"not count in {2,1}", "count not in {1, 2}"},
		{"a_or_b", ""}, // error, checked below
		{"(filled and (color == white and count > 2)) or shape == circle", "filled and color == white and count > 2 or shape == circle"},
		{"filled and (color == white or count > 2)", "filled and (color == white or count > 2)"},
		{"if filled then if count > 2 then color == black else true", "if filled then (if count > 2 then color == black else true)"},
		{"if filled, then color == white, otherwise color == black", "if filled then color == white else color == black"},
		{"count - (prev.count - 1) == 1", "count - (prev.count - 1) == 1"},
		{"(count + 1) % 6 == prev.count % 6", "(count + 1) % 6 == prev.count % 6"},
		{"(n % 4) < 2", "n % 4 < 2"},
		{"(filled == prev.filled) == (color == prev.color)", "(filled == prev.filled) == (color == prev.color)"},
		{"not not filled", "not not filled"},
		{"count == -1 + 3", "count == -1 + 3"},
		{"count ≥ 3 and count ≠ 5", "count >= 3 and count != 5"},
		{"colour == white", "color == white"},
	}
	for _, c := range cases {
		r, err := Parse(as, c.in)
		if c.want == "" {
			if err == nil {
				t.Errorf("%q: want an error, got %q", c.in, r)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if r.String() != c.want {
			t.Errorf("%q printed as %q, want %q", c.in, r, c.want)
		}
		again := MustParse(as, r.String())
		if again.String() != r.String() {
			t.Errorf("%q: reprint %q differs from %q", c.in, again, r)
		}
	}
}

func TestParseErrorsNameColumnAndExpectation(t *testing.T) {
	as := WhatTheRuleAttributes()
	cases := []struct {
		in   string
		col  int
		want string
	}{
		{"", 1, "empty"},
		{"shape ==", 9, "expected a value"},
		{"shape == hexagon", 10, "unknown word"},
		{"shape == 3", 7, "takes names"},
		{"count == circle", 10, "count"},
		{"if filled color == white", 11, "expected 'then'"},
		{"shape != prev.", 15, "expected an attribute"},
		{"shape in {circle", 17, "'}'"},
		{"shape < triangle", 7, "no order"},
		{"count", 1, "expected a condition"},
		{"filled and count", 12, "expected a condition"},
		{"color == white extra", 16, "end of the rule"},
		{"count % 0 == 1", 9, "whole number"},
		{"shape == circle & filled", 17, "unexpected character"},
		{"color == prev.count", 7, "cannot compare"},
		{"next(3) == count", 1, "next() needs an attribute"},
	}
	for _, c := range cases {
		_, err := Parse(as, c.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: want a *SyntaxError, got %v", c.in, err)
			continue
		}
		if se.Col != c.col || !strings.Contains(se.Error(), c.want) {
			t.Errorf("%q: got %q (column %d), want column %d mentioning %q", c.in, se.Error(), se.Col, c.col, c.want)
		}
	}
}

func TestIfThenRules(t *testing.T) {
	as := IfThenAttributes()
	if n := len(as.Universe()); n != 180 {
		t.Fatalf("If Then universe: want 180 ends, got %d", n)
	}
	if n := len(WhatTheRuleAttributes().Universe()); n != 72 {
		t.Fatalf("What the Rule?! universe: want 72 cards, got %d", n)
	}
	r := MustParse(as, "if prev.bg in {yellow, blue, red} then bg != prev.bg")
	want := "If the previous card's background colour is yellow, blue or red, then the background colour is different from the previous card's background colour."
	if r.English() != want {
		t.Errorf("English:\n got %q\nwant %q", r.English(), want)
	}
	end := func(num int, nc, size, bg string) Card {
		c, err := ITEnd(num, nc, size, bg)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	prev := []Card{end(9, "red", "small", "blue")}
	if r.Accepts(prev, end(3, "red", "large", "blue")) {
		t.Error("same background accepted")
	}
	if !r.Accepts(prev, end(3, "blue", "large", "yellow")) {
		t.Error("different background rejected")
	}
	if !r.Accepts(nil, end(3, "red", "large", "blue")) {
		t.Error("first card rejected")
	}
	// Cyclic numbers: 9 + 1 is 0.
	up := MustParse(as, "number == prev.number + 1")
	if !up.Accepts(prev, end(0, "red", "small", "blue")) || up.Accepts(prev, end(10%10+1, "red", "small", "blue")) {
		t.Error("9 + 1 should be 0")
	}
	down := MustParse(as, "number == prev.number - 3 and size >= medium")
	if !down.Accepts([]Card{end(1, "red", "small", "blue")}, end(8, "red", "medium", "blue")) {
		t.Error("1 - 3 should be 8")
	}
	if _, err := Parse(as, "ncolor == prev.bg"); err != nil {
		t.Errorf("colours of both kinds should compare: %v", err)
	}
	if _, err := ITEnd(1, "red", "small", "red"); err == nil {
		t.Error("an end whose number colour equals its background should not exist")
	}
}

func TestThreeValuedLogic(t *testing.T) {
	as := WhatTheRuleAttributes()
	c := wtr(t, "c1fw")
	cases := []struct {
		rule string
		line []Card
		want Truth
	}{
		{"filled != prev.filled", nil, Unknown},
		{"filled != prev.filled or shape == square", nil, Unknown},
		{"filled != prev.filled or shape == circle", nil, True},
		{"filled != prev.filled and shape == square", nil, False},
		{"not (filled != prev.filled)", nil, Unknown},
		{"if prev.filled then filled else filled", nil, True},
		{"if prev.filled then filled else not filled", nil, Unknown},
		{"prev2.count == 1", []Card{c}, Unknown},
		{"prev.count == 1", []Card{c}, True},
		{"n == 1", nil, True},
		{"n == 1", []Card{c}, False},
	}
	for _, k := range cases {
		if got := MustParse(as, k.rule).Judge(k.line, c); got != k.want {
			t.Errorf("%q with %d cards: got %v, want %v", k.rule, len(k.line), got, k.want)
		}
	}
}

func TestHostileInputIsRefusedQuickly(t *testing.T) {
	as := WhatTheRuleAttributes()
	cases := []string{
		strings.Repeat("(", 500) + "filled" + strings.Repeat(")", 500),
		strings.Repeat("not ", 200) + "filled",
		"count == " + strings.Repeat("-", 300) + "1",
		strings.Repeat("filled and ", 200) + "filled",
		strings.Repeat("x", MaxRuleLength+1),
		"count == 100",
		"shape == circle\x1b[31m",
	}
	for _, src := range cases {
		_, err := Parse(as, src)
		if err == nil {
			t.Errorf("%.40q…: want an error", src)
		} else if errorColumn(err) < 1 {
			t.Errorf("%.40q…: error without a column: %v", src, err)
		}
	}
	// Long but flat rules within the limit are fine.
	if _, err := Parse(as, strings.Repeat("filled and ", 80)+"filled"); err != nil {
		t.Errorf("a long flat rule should parse: %v", err)
	}
}
