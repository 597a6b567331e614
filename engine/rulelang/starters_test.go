package rulelang

import (
	"testing"
)

// wtr builds a What the Rule?! card from a compact code: shape letter
// (c, t, s), count digit, f/u for filled, w/b for colour. "c3fb" is three
// filled circles on a black card.
func wtr(t testing.TB, code string) Card {
	t.Helper()
	shapes := map[byte]string{'c': "circle", 't': "triangle", 's': "square"}
	colors := map[byte]string{'w': "white", 'b': "black"}
	if len(code) != 4 {
		t.Fatalf("bad card code %q", code)
	}
	c, err := WTRCard(shapes[code[0]], int(code[1]-'0'), code[2] == 'f', colors[code[3]])
	if err != nil {
		t.Fatalf("card %q: %v", code, err)
	}
	return c
}

func wtrLine(t testing.TB, codes ...string) []Card {
	t.Helper()
	out := make([]Card, len(codes))
	for i, c := range codes {
		out[i] = wtr(t, c)
	}
	return out
}

func TestStarterRulesJudgeHandWrittenLines(t *testing.T) {
	as := WhatTheRuleAttributes()
	starters := WhatTheRuleStarters()
	if len(starters) != 10 {
		t.Fatalf("want 10 starter rules, got %d", len(starters))
	}
	// For each starter: lines that must be valid card by card, and
	// (line, card) plays that must be rejected.
	type play struct {
		line []string
		card string
	}
	cases := []struct {
		valid   [][]string
		invalid []play
	}{
		{ // 1 filled alternates
			valid:   [][]string{{"c1fw", "t2uw", "s3fb", "c4ub"}, {"s6uw", "s6fw"}},
			invalid: []play{{[]string{"c1fw"}, "t2fb"}, {[]string{"c1fw", "t2uw"}, "s3ub"}},
		},
		{ // 2 even/odd counts alternate
			valid:   [][]string{{"c1fw", "c2fw", "c5fw", "c6fw"}, {"t4ub", "s3ub"}},
			invalid: []play{{[]string{"c1fw"}, "c3fw"}, {[]string{"c2fw", "c1fw"}, "c1fw"}},
		},
		{ // 3 circle → triangle → square → circle
			valid:   [][]string{{"t1fw", "s2fw", "c3fw", "t4fw"}, {"s5ub", "c5ub"}},
			invalid: []play{{[]string{"c1fw"}, "s1fw"}, {[]string{"s1fw"}, "t1fw"}},
		},
		{ // 4 black 1–3, white 4–6
			valid:   [][]string{{"c1fb", "c3ub", "t4fw", "s6uw"}},
			invalid: []play{{nil, "c4fb"}, {[]string{"c1fb"}, "c3fw"}},
		},
		{ // 5 two black, two white
			valid:   [][]string{{"c1fb", "c1fb", "c1fw", "c1fw", "c1fb"}, {"c1fw", "c1fb", "c1fb", "c1fw"}},
			invalid: []play{{[]string{"c1fb", "c1fb"}, "c1fb"}, {[]string{"c1fb", "c1fw"}, "c1fb"}},
		},
		{ // 6 no circles
			valid:   [][]string{{"t1fw", "s2ub"}},
			invalid: []play{{nil, "c1fw"}, {[]string{"t1fw"}, "c6ub"}},
		},
		{ // 7 a different shape
			valid:   [][]string{{"c1fw", "t1fw", "c2ub", "s3fb"}},
			invalid: []play{{[]string{"c1fw"}, "c2ub"}, {[]string{"c1fw", "s1fw"}, "s4fw"}},
		},
		{ // 8 white filled, black unfilled
			valid:   [][]string{{"c1fw", "t2ub", "s6fw"}},
			invalid: []play{{nil, "c1uw"}, {[]string{"c1fw"}, "c1fb"}},
		},
		{ // 9 no 1s or 2s
			valid:   [][]string{{"c3fw", "t6ub"}},
			invalid: []play{{nil, "c1fw"}, {[]string{"c3fw"}, "c2fw"}},
		},
		{ // 10 even white, odd black
			valid:   [][]string{{"c2fw", "c1fb", "s6uw", "t5ub"}},
			invalid: []play{{nil, "c2fb"}, {[]string{"c2fw"}, "c3fw"}},
		},
	}
	for i, st := range starters {
		r, err := Parse(as, st.Text)
		if err != nil {
			t.Fatalf("starter %d %q: %v", i+1, st.Text, err)
		}
		if r.English() == "" {
			t.Errorf("starter %d: empty English", i+1)
		}
		for _, codes := range cases[i].valid {
			line := wtrLine(t, codes...)
			for k := range line {
				if !r.Accepts(line[:k], line[k]) {
					t.Errorf("starter %d %q: rejects card %d of valid line %v", i+1, r, k+1, codes)
				}
			}
		}
		for _, p := range cases[i].invalid {
			if r.Accepts(wtrLine(t, p.line...), wtr(t, p.card)) {
				t.Errorf("starter %d %q: accepts %s after %v", i+1, r, p.card, p.line)
			}
		}
	}
}

func TestStarterEnglish(t *testing.T) {
	as := WhatTheRuleAttributes()
	for _, st := range WhatTheRuleStarters() {
		t.Logf("%-75s %s", st.Text, MustParse(as, st.Text).English())
	}
	want := map[string]string{
		"count not in {1, 2}":                               "The count is neither 1 nor 2.",
		"if color == black then count <= 3 else count >= 4": "If the colour is black, then the count is at most 3; otherwise the count is at least 4.",
		"if color == white then filled else not filled":     "If the colour is white, then the card is filled; otherwise the card is unfilled.",
		"shape == next(prev.shape)":                         "The shape is the next shape after the previous card's shape.",
		"not (filled or count > 2)":                         "It is not the case that (the card is filled or the count is greater than 2).",
	}
	for src, w := range want {
		if got := MustParse(as, src).English(); got != w {
			t.Errorf("%q:\n got %q\nwant %q", src, got, w)
		}
	}
}
