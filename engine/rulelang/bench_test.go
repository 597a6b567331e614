package rulelang

import "testing"

// BenchmarkJudgeCard judges one card against a lookback-2 starter rule.
func BenchmarkJudgeCard(b *testing.B) {
	as := WhatTheRuleAttributes()
	r := MustParse(as, "if prev.color == prev2.color then color != prev.color else color == prev.color")
	line := wtrLine(b, "c1fb", "t2fw", "s3uw")
	card := wtr(b, "c4uw")
	b.ReportAllocs()
	for b.Loop() {
		if r.Accepts(line, card) {
			b.Fatal("a third white card in a row must be rejected")
		}
	}
}

// BenchmarkJudgeCardIfThen judges one end against a Level 3 style challenge.
func BenchmarkJudgeCardIfThen(b *testing.B) {
	as := IfThenAttributes()
	r := MustParse(as, "if prev.size == large then number == prev.number + 3 and bg != prev.bg else ncolor == prev.bg or even(number + prev.number)")
	prev, _ := ITEnd(8, "red", "large", "blue")
	card, _ := ITEnd(1, "blue", "small", "yellow")
	line := []Card{prev}
	b.ReportAllocs()
	for b.Loop() {
		if !r.Accepts(line, card) {
			b.Fatal("8 + 3 is 1 and the background changed: the end must be accepted")
		}
	}
}

// BenchmarkEquivalenceWhatTheRule compares two equivalent lookback-2 rules
// that read every attribute of both previous cards, so the whole joint state
// space (72 × 72 lines per position) is explored: the worst case.
func BenchmarkEquivalenceWhatTheRule(b *testing.B) {
	as := WhatTheRuleAttributes()
	x := MustParse(as, "if prev.color == prev2.color then color != prev.color and shape != prev2.shape else count != prev.count or filled == prev2.filled")
	y := MustParse(as, "(prev.color == prev2.color and color != prev.color and shape != prev2.shape) or (prev.color != prev2.color and (count != prev.count or filled == prev2.filled))")
	benchEquivalent(b, x, y, false)
}

// BenchmarkEquivalenceWhatTheRuleStarter compares starter rule 5 with a
// rewording of it (lookback 2, colour only).
func BenchmarkEquivalenceWhatTheRuleStarter(b *testing.B) {
	as := WhatTheRuleAttributes()
	x := MustParse(as, "if prev.color == prev2.color then color != prev.color else color == prev.color")
	y := MustParse(as, "(color == prev.color) == (prev.color != prev2.color)")
	benchEquivalent(b, x, y, true)
}

// BenchmarkEquivalenceIfThen compares two equivalent Level 3 style
// challenges over all 180 possible ends.
func BenchmarkEquivalenceIfThen(b *testing.B) {
	as := IfThenAttributes()
	x := MustParse(as, "if prev.size == large then number == prev.number + 3 and bg != prev.bg else ncolor == prev.bg or even(number + prev.number)")
	y := MustParse(as, "prev.size == large and number - 3 == prev.number and bg != prev.bg or prev.size != large and (ncolor == prev.bg or even(number - prev.number))")
	benchEquivalent(b, x, y, true)
}

func benchEquivalent(b *testing.B, x, y *Rule, fullCheck bool) {
	eq, cx, err := Equivalent(x, y)
	if err != nil || !eq {
		b.Fatalf("%q vs %q: want equivalent, got %v %+v %v", x, y, eq, cx, err)
	}
	_ = fullCheck
	b.ReportAllocs()
	for b.Loop() {
		if eq, _, _ := Equivalent(x, y); !eq {
			b.Fatal("not equivalent")
		}
	}
}
