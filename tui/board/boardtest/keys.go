package boardtest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/tui/board"
)

// HelpPosition is one moment of a game on a board: New returns a fresh
// board showing it (its view set, any keys already pressed).
type HelpPosition struct {
	Name string
	New  func() board.Board
}

// Keys are the shared board keys as the session binds them, with each
// key's first name as its help.
func Keys() board.Keys {
	b := func(keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], keys[0]))
	}
	return board.Keys{
		Up: b("up", "k"), Down: b("down", "j"), Left: b("left", "h"), Right: b("right", "l"),
		Choose: b("enter"), Guess: b("g"), Notes: b("n"), Submit: b("enter"), Cancel: b("esc"),
		Pick: b("1", "2", "3", "4", "5", "6", "7", "8", "9"),
	}
}

// KeyPress turns a key name as bindings spell it ("up", "enter", "space",
// "ctrl+c", "g", "-") into the key press a terminal would send.
func KeyPress(k string) tea.KeyPressMsg {
	special := map[string]tea.Key{
		"enter": {Code: tea.KeyEnter}, "esc": {Code: tea.KeyEscape}, "tab": {Code: tea.KeyTab},
		"up": {Code: tea.KeyUp}, "down": {Code: tea.KeyDown}, "left": {Code: tea.KeyLeft}, "right": {Code: tea.KeyRight},
		"home": {Code: tea.KeyHome}, "end": {Code: tea.KeyEnd}, "backspace": {Code: tea.KeyBackspace},
		"pgup": {Code: tea.KeyPgUp}, "pgdown": {Code: tea.KeyPgDown},
		"space": {Code: tea.KeySpace, Text: " "},
	}
	if sk, ok := special[k]; ok {
		return tea.KeyPressMsg(sk)
	}
	if c, ok := strings.CutPrefix(k, "ctrl+"); ok {
		return tea.KeyPressMsg(tea.Key{Code: []rune(c)[0], Mod: tea.ModCtrl})
	}
	r := []rune(k)
	return tea.KeyPressMsg(tea.Key{Code: r[0], Text: k})
}

// shown is every binding a board's help shows now: its key bar and its
// full help, without repeats.
func shown(b board.Board) []key.Binding {
	var out []key.Binding
	seen := map[[2]string]bool{}
	add := func(k key.Binding) {
		h := [2]string{k.Help().Key, k.Help().Desc}
		if !k.Enabled() || h[0] == "" || seen[h] {
			return
		}
		seen[h] = true
		out = append(out, k)
	}
	for _, k := range b.ShortHelp() {
		add(k)
	}
	for _, g := range b.FullHelp() {
		for _, k := range g {
			add(k)
		}
	}
	return out
}

// CheckHelpKeys holds each board to its help: in every position, and in
// every mode a shown key opens from it (to depth more key presses), each
// key the help shows must do something on that board — send an action or
// change what the board draws — pressed at once or right after one other
// shown key (so ↑ counts at the top of a list, where ↓ first makes room).
// A key may not be shown twice with two meanings, and every shown key must
// be one a terminal can send.
func CheckHelpKeys(t *testing.T, positions []HelpPosition, depth int) {
	t.Helper()
	for _, p := range positions {
		checkHelpAt(t, p, nil, depth)
	}
}

// fresh is a new board at p with path pressed; it reports an action sent
// on the way (a path that sends is not a mode to explore).
func fresh(p HelpPosition, path []string) (board.Board, bool) {
	b := p.New()
	for _, k := range path {
		b.View() // as the session draws between keys
		if a, _ := b.Update(KeyPress(k)); a != nil {
			return b, true
		}
	}
	return b, false
}

func checkHelpAt(t *testing.T, p HelpPosition, path []string, depth int) {
	t.Helper()
	where := p.Name
	if len(path) > 0 {
		where += " after " + strings.Join(path, ",")
	}
	b, _ := fresh(p, path)
	before := b.View() // drawn first, as a session draws the board before its key bar
	keys := shown(b)
	meaning := map[string]string{}
	for _, k := range keys {
		if len(k.Keys()) == 0 {
			t.Errorf("%s: help shows %q (%s), a binding with no keys", where, k.Help().Key, k.Help().Desc)
			continue
		}
		for _, name := range k.Keys() {
			if d, ok := meaning[name]; ok && d != k.Help().Desc {
				t.Errorf("%s: help shows key %q twice: %q and %q", where, name, d, k.Help().Desc)
			}
			meaning[name] = k.Help().Desc
		}
	}
	beforeShort := helpText(b.ShortHelp())
	for _, k := range keys {
		works, opened := false, ""
		for _, name := range k.Keys() {
			b2, _ := fresh(p, path)
			b2.View()
			act, _ := b2.Update(KeyPress(name))
			if act != nil || b2.View() != before {
				works = true
				if act == nil && helpText(b2.ShortHelp()) != beforeShort {
					opened = name
				}
				break
			}
		}
		for _, name := range k.Keys() {
			if !works {
				works = worksAfterAnother(p, path, keys, name)
			}
		}
		if !works && len(k.Keys()) > 0 {
			t.Errorf("%s: help shows %q (%s) but pressing %q does nothing", where, k.Help().Key, k.Help().Desc, k.Keys())
			continue
		}
		if opened != "" && depth > 0 {
			// The key opened another mode: its help is held to the same rule.
			checkHelpAt(t, p, append(slices.Clone(path), opened), depth-1)
		}
	}
}

// worksAfterAnother reports whether pressing name right after one other of
// keys sends an action or changes the board.
func worksAfterAnother(p HelpPosition, path []string, keys []key.Binding, name string) bool {
	for _, o := range keys {
		if len(o.Keys()) == 0 || slices.Contains(o.Keys(), name) {
			continue
		}
		b := p.New()
		sent := false
		for _, k := range append(slices.Clone(path), o.Keys()[0]) {
			b.View()
			if a, _ := b.Update(KeyPress(k)); a != nil {
				sent = true
				break
			}
		}
		if sent {
			continue
		}
		mid := b.View()
		if act, _ := b.Update(KeyPress(name)); act != nil || b.View() != mid {
			return true
		}
	}
	return false
}

func helpText(ks []key.Binding) string {
	var b strings.Builder
	for _, k := range ks {
		fmt.Fprintf(&b, "%s=%s;", k.Help().Key, k.Help().Desc)
	}
	return b.String()
}
