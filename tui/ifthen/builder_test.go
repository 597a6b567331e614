package ifthen

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine/rulelang"
)

func pressAll(g *guessBuilder, seq ...string) {
	for _, k := range seq {
		var msg tea.KeyPressMsg
		switch k {
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "up":
			msg = tea.KeyPressMsg{Code: tea.KeyUp}
		case "down":
			msg = tea.KeyPressMsg{Code: tea.KeyDown}
		case "left":
			msg = tea.KeyPressMsg{Code: tea.KeyLeft}
		case "right":
			msg = tea.KeyPressMsg{Code: tea.KeyRight}
		case "space":
			msg = tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
		default:
			msg = tea.KeyPressMsg{Code: rune(k[0]), Text: k}
		}
		g.key(msg)
	}
}

// Building "if the last Valid card is small, the number is even, otherwise odd"
// with keys alone gives a rule equivalent to the Level 2 Challenge.
func TestBuilderMakesAnIfThenElse(t *testing.T) {
	g := newGuessBuilder(new(testKeys()))
	// Rows: 0 If, 1 add-if, 2 Then, 3 then clause, 4 add-then, 5 Otherwise, 6 add-otherwise, 7 send.
	pressAll(&g, "down", "enter") // an If clause appears at row 1
	pressAll(&g, "space")         // subject: the last Valid card
	pressAll(&g, "right", "-")    // attribute: bg → size
	pressAll(&g, "right")         // operator: from "is different from" back to "is"
	for range 9 {
		pressAll(&g, "-")
	}
	pressAll(&g, "right", "space", "-") // value stays small
	// Then clause (row 4): number is even.
	pressAll(&g, "down", "down", "down", "left", "left", "left", "right", "space") // attr bg → number
	pressAll(&g, "right")
	for range 3 {
		pressAll(&g, "-") // different from → even
	}
	// Otherwise: add a clause, make it "number is odd".
	pressAll(&g, "down", "down", "down", "enter", "right", "space", "right")
	for range 2 {
		pressAll(&g, "-") // different from → odd
	}
	text, err := g.text()
	if err != nil {
		t.Fatalf("builder: %v (%+v)", err, g.b)
	}
	as := rulelang.IfThenAttributes()
	got := rulelang.MustParse(as, text)
	want := rulelang.MustParse(as, "if prev.size == small then even(number) else odd(number)")
	if same, _, err := rulelang.Equivalent(got, want); err != nil || !same {
		t.Fatalf("built %q, want it equivalent to %q", got, want)
	}
	if !strings.HasPrefix(g.preview(), "Reads: ") {
		t.Fatalf("preview %q", g.preview())
	}
	// Deleting the only Then clause leaves no rule, with a reason.
	g2 := newGuessBuilder(new(testKeys()))
	pressAll(&g2, "down", "down", "down", "x")
	if _, err := g2.text(); err == nil || !strings.Contains(g2.preview(), "Not a rule yet") {
		t.Fatalf("empty builder made a rule: %v", err)
	}
}
