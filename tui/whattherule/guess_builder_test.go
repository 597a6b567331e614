package whattherule

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	wtr "github.com/codebreakers/codebreakers/engine/whattherule"
)

// guessing deals a machine-rule round and plays one card that fits, so
// that its player may guess; it returns the state and that player.
func guessing(t *testing.T) (engine.State, engine.Seat) {
	t.Helper()
	st := deal(t, 3, 8, nil)
	gm := st.View(engine.Omniscient()).(wtr.View).GM
	if _, err := st.Apply(gm, wtr.RuleAction("shape != circle")); err != nil {
		t.Fatal(err)
	}
	p := st.Status().Active[0]
	for _, c := range st.View(engine.SeatViewer(p)).(wtr.View).Hand {
		if c.Shape != "circle" {
			if _, err := st.Apply(p, wtr.PlayAction(c.ID)); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if !st.View(engine.SeatViewer(p)).(wtr.View).CanGuess() {
		t.Fatal("the player may not guess")
	}
	return st, p
}

// TestGuessersHaveTheBuilder: a player who may guess builds the guess with
// the same builder the game master builds rules with, and switches between
// building and typing with tab; the guess is sent as a guess.
func TestGuessersHaveTheBuilder(t *testing.T) {
	st, p := guessing(t)
	b, _ := render(st, engine.SeatViewer(p), nil, 80, 24)
	if !strings.Contains(helpKeys(b), "u build a guess") {
		t.Fatalf("the key bar does not offer the builder: %s", helpKeys(b))
	}
	if a, _ := b.Update(press("u")); a != nil || b.mode != modeBuilder {
		t.Fatalf("u should open the builder (mode %v, sent %s)", b.mode, a)
	}
	out := b.View()
	if !strings.Contains(out, "Guess builder") || !strings.Contains(out, "shape != circle") {
		t.Fatalf("the guess builder is not shown:\n%s", out)
	}
	checkFits(t, out, 80, 24, "guess builder")
	// tab: type it, starting from the clauses; tab again: back to them.
	b.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if b.mode != modeGuess || b.input.Value() != "shape != circle" {
		t.Fatalf("tab should type the built guess: mode %v, %q", b.mode, b.input.Value())
	}
	b.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if b.mode != modeBuilder {
		t.Fatalf("tab from typing should go back to the builder: mode %v", b.mode)
	}
	a, _ := b.Update(press("enter"))
	if string(a) != string(wtr.GuessAction("shape != circle")) {
		t.Fatalf("the builder sent %s, want a guess", a)
	}
}

// TestGuessEntryExplainsTheLanguage: an empty guess entry shows the rule
// language in brief, and a guess that does not read ("no circles") is told
// why in full, wrapped to the board, never cut.
func TestGuessEntryExplainsTheLanguage(t *testing.T) {
	st, p := guessing(t)
	for _, w := range []int{60, 80, 120} {
		b, _ := render(st, engine.SeatViewer(p), nil, w, 24)
		b.Update(press("g"))
		out := b.View()
		if !strings.Contains(out, "The rule language") || !strings.Contains(out, "colours take turns") {
			t.Fatalf("%d wide: no reference in the empty guess entry:\n%s", w, out)
		}
		typeText(b, "no circles")
		out = b.View()
		checkFits(t, out, w, 24, "guess error")
		_, err := wtr.ParseGuess("no circles")
		joined := strings.Join(strings.Fields(strings.ReplaceAll(out, "!", "")), " ")
		if !strings.Contains(joined, strings.Join(strings.Fields(err.Error()), " ")) {
			t.Errorf("%d wide: the error is not shown whole:\n%s\nwant %q", w, out, err)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasSuffix(strings.TrimRight(l, " "), "…") {
				t.Errorf("%d wide: a line is cut off: %q", w, l)
			}
		}
	}
}

func helpKeys(b *Board) string {
	var ks []string
	for _, k := range b.ShortHelp() {
		ks = append(ks, k.Help().Key+" "+k.Help().Desc)
	}
	return strings.Join(ks, " · ")
}

// TestReferenceStaysWhileTheTextDoesNotRead: the rule language in brief
// stays under the entry while what is typed does not read as a rule (the
// player who typed "no circles" needs the examples most), and gives way
// to the preview once it reads. Both for a guesser and for the game
// master writing the rule, in the room a board has at 80×24.
func TestReferenceStaysWhileTheTextDoesNotRead(t *testing.T) {
	st, p := guessing(t)
	gmSt := deal(t, 3, 8, nil)
	gm := gmSt.View(engine.Omniscient()).(wtr.View).GM
	for _, c := range []struct {
		who  string
		st   engine.State
		seat engine.Seat
		open string
	}{{"guesser", st, p, "g"}, {"game master", gmSt, gm, "w"}} {
		b, _ := render(c.st, engine.SeatViewer(c.seat), nil, 80, 18)
		b.Update(press(c.open))
		if !b.builderTyping() {
			t.Fatalf("%s: %s did not open a rule entry", c.who, c.open)
		}
		typeText(b, "no circles")
		out := b.View()
		checkFits(t, out, 80, 18, c.who+" typing a rule that does not read")
		if !strings.Contains(out, "The rule language") || !strings.Contains(out, "shape != circle") {
			t.Errorf("%s: the reference went away while the text does not read:\n%s", c.who, out)
		}
		b.input.SetValue("shape != circle")
		if out := b.View(); strings.Contains(out, "The rule language") {
			t.Errorf("%s: the reference stays over a rule that reads:\n%s", c.who, out)
		}
	}
}
