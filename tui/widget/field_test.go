package widget

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

func typeKey(f *Field, k tea.Key) bool { return f.Update(tea.KeyPressMsg(k)) }

func TestFieldEditsAndDropsControls(t *testing.T) {
	f := NewField("> ", "code", 8)
	if typeKey(&f, tea.Key{Code: 'a', Text: "a"}) {
		t.Fatal("an unfocused field took a key")
	}
	f.Focus()
	for _, r := range "ab\x1b[31mcd" {
		typeKey(&f, tea.Key{Code: r, Text: string(r)})
	}
	if f.Value() != "ab[31mcd" {
		t.Fatalf("value %q", f.Value())
	}
	// The limit holds.
	typeKey(&f, tea.Key{Code: 'z', Text: "zzz"})
	if len([]rune(f.Value())) != 8 {
		t.Fatalf("limit broken: %q", f.Value())
	}
	f.SetValue("hello world")
	if f.Value() != "hello wo" {
		t.Fatalf("SetValue ignores the limit: %q", f.Value())
	}
	typeKey(&f, tea.Key{Code: 'w', Mod: tea.ModCtrl})
	if f.Value() != "hello " {
		t.Fatalf("ctrl+w: %q", f.Value())
	}
	typeKey(&f, tea.Key{Code: tea.KeyHome})
	typeKey(&f, tea.Key{Code: tea.KeyDelete})
	typeKey(&f, tea.Key{Code: tea.KeyEnd})
	typeKey(&f, tea.Key{Code: tea.KeyBackspace})
	if f.Value() != "ello" {
		t.Fatalf("home/delete/end/backspace: %q", f.Value())
	}
	f.Update(tea.PasteMsg{Content: "\u202e!\x07\n"})
	if f.Value() != "ello! " {
		t.Fatalf("paste: %q", f.Value())
	}
	if v := f.View(); strings.ContainsAny(v, "\x07\u202e") || !strings.HasPrefix(ansi.Strip(v), "> ello!") {
		t.Fatalf("view %q", v)
	}
	// A narrow field scrolls to keep the cursor in view.
	f.Width = 3
	if w := ansi.StringWidth(f.View()); w > 2+3+1 {
		t.Fatalf("view too wide: %d", w)
	}
}

func TestSuggestionIsReplacedByTyping(t *testing.T) {
	f := NewField("› ", "", 10)
	f.Focus()
	f.Suggest("E61")
	if f.Value() != "E61" || !f.Suggested() {
		t.Fatalf("Suggest: %q suggested=%v", f.Value(), f.Suggested())
	}
	for _, r := range "E61" {
		f.Update(tea.KeyPressMsg(tea.Key{Code: r, Text: string(r)}))
	}
	if f.Value() != "E61" || f.Suggested() {
		t.Errorf("typing over a suggestion gave %q (suggested=%v), want E61", f.Value(), f.Suggested())
	}
	f.Suggest("E61")
	f.Update(tea.KeyPressMsg(tea.Key{Code: tea.KeyLeft}))
	f.Update(tea.KeyPressMsg(tea.Key{Code: '7', Text: "7"}))
	if f.Value() != "E671" {
		t.Errorf("a cursor key keeps the suggestion as text to edit: got %q", f.Value())
	}
	f.Suggest("E61")
	f.Update(tea.KeyPressMsg(tea.Key{Code: tea.KeyBackspace}))
	if f.Value() != "" {
		t.Errorf("backspace over a suggestion left %q", f.Value())
	}
	f.Suggest("E61")
	f.Update(tea.PasteMsg{Content: "B22"})
	if f.Value() != "B22" {
		t.Errorf("a paste over a suggestion gave %q", f.Value())
	}
}

// Wide glyphs take two cells: a field of Width cells never draws wider,
// whatever mix of narrow and wide glyphs it holds and wherever its cursor
// is, never cuts a glyph in half at its edge, and keeps the cursor in view.
func TestFieldWidthCountsCellsOfWideGlyphs(t *testing.T) {
	for _, text := range []string{"漢字漢字漢字漢字漢字", "ab漢字cd🙂🙂ef", "a漢b字c漢d字e漢", "🙂🙂🙂🙂🙂🙂🙂🙂", "héllo wörld 漢"} {
		for _, w := range []int{5, 6, 9, 10} {
			f := NewField("> ", "", 200)
			f.Width = w
			f.Focus()
			f.SetValue(text)
			n := len([]rune(text))
			for pos := n; pos >= 0; pos-- {
				out := f.View()
				if got := ansi.StringWidth(out) - 2; got > w {
					t.Fatalf("%q in %d cells, cursor at %d: drawn %d cells wide: %q", text, w, pos, got, ansi.Strip(out))
				}
				// The glyph under the cursor (or the cell after the text)
				// is drawn.
				under := " "
				if pos < n {
					under = string([]rune(text)[pos])
				}
				if !strings.Contains(ansi.Strip(out), under) {
					t.Fatalf("%q in %d cells, cursor at %d: %q not shown in %q", text, w, pos, under, ansi.Strip(out))
				}
				typeKey(&f, tea.Key{Code: tea.KeyLeft})
			}
		}
	}
	// A field with room shows all of it; one cell short, it scrolls.
	f := NewField("", "", 200)
	f.Width = 9
	f.Focus()
	f.SetValue("漢字漢字")
	if got := ansi.Strip(f.View()); got != "漢字漢字 " {
		t.Fatalf("four wide glyphs in 9 cells: %q", got)
	}
	f.Width = 8
	if got := ansi.Strip(f.View()); got != "字漢字 " {
		t.Fatalf("four wide glyphs in 8 cells: %q, want the last three and the cursor", got)
	}
}

// TestFieldLooksAreLipgloss: the field's cursor and placeholder are drawn
// as lipgloss draws reverse and faint text.
func TestFieldLooksAreLipgloss(t *testing.T) {
	for _, s := range []string{"", " ", "a", "李", "é", "type a code", "ab cd "} {
		if got, want := (fieldLooks{reverse}).Render(s), lipgloss.NewStyle().Reverse(true).Render(s); got != want {
			t.Errorf("cursor on %q = %q, lipgloss %q", s, got, want)
		}
		if got, want := (fieldLooks{faint}).Render(s), lipgloss.NewStyle().Faint(true).Render(s); got != want {
			t.Errorf("placeholder %q = %q, lipgloss %q", s, got, want)
		}
	}
}
