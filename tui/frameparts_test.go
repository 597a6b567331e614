package tui

import (
	"math/rand/v2"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/lobby"
)

// TestKeyBarRemembersBarsInTurn: keyBar, which checks the bars drawn last
// before its map, gives the bar of exactly the keys asked for, whatever
// order more bars than it checks come in, at a width that changes now and
// then, and when only a key's description or whether it is enabled
// differs from a bar drawn before.
func TestKeyBarRemembersBarsInTurn(t *testing.T) {
	m := newTestApp(t, &fakeHub{}, nil, 100, MinHeight)
	km := m.km
	off := km.start
	off.SetEnabled(false)
	lists := [][]key.Binding{
		{km.back, km.quit},
		{km.ready, km.start, km.chat, km.help, km.leave},
		{km.ready, off, km.chat, km.help, km.leave}, // only start is off
		{km.ready, withHelp(km.start, "s", "begin"), km.chat, km.help, km.leave},
		{km.rematch, km.replayGame, km.chat, km.ready, km.start, km.refresh, km.watch, km.help, km.leave},
		{km.help, km.back},
		{km.chat, km.help},
		nil,
	}
	if len(lists) <= lastBars+1 {
		t.Fatal("the test needs more bars than keyBar checks first")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	widths := []int{100, 100, 100, 60, 40}
	for step := range 2000 {
		if step%50 == 0 {
			m.width = widths[rng.IntN(len(widths))]
		}
		ks := lists[rng.IntN(len(lists))]
		if step%7 == 0 { // a run of the same few, as in a game
			ks = lists[1+step%3]
		}
		h := m.helpModel()
		kept := keptKeys(ks, func(ks []key.Binding) bool {
			return h.Ellipsis == "" || !strings.HasSuffix(ansi.Strip(h.ShortHelpView(ks)), h.Ellipsis)
		})
		if got, want := m.keyBar(ks), h.ShortHelpView(kept); got != want {
			t.Fatalf("step %d, %d columns: the key bar of %d keys is %q, want %q", step, m.width, len(ks), ansi.Strip(got), ansi.Strip(want))
		}
	}
}

// TestKeyBarLooksAreMeasured: every set of looks lays its bars out from
// their texts' widths (barLooks.measured), so the tests that hold the key
// bar to help.Model's (TestKeyBarIsTheKeysKeptDrawn,
// TestShortHelpViewIsTheHelpModels) test that way of laying out.
func TestKeyBarLooksAreMeasured(t *testing.T) {
	for _, dark := range []bool{false, true} {
		for _, basic := range []bool{false, true} {
			if !looksFor(dark, basic).bar.measured {
				t.Errorf("dark %v, basic %v: the key bar's looks are not measured", dark, basic)
			}
		}
	}
}

// TestEndsWith: endsWith sees a suffix across the parts as in one string.
func TestEndsWith(t *testing.T) {
	for _, c := range []struct {
		suffix string
		parts  []string
		want   bool
	}{
		{"…", []string{"g", " ", "guess…"}, true},
		{"…", []string{"g…", " ", ""}, false},
		{"s …", []string{"g", "s", " ", "…"}, true},
		{"x …", []string{"g", "s", " ", "…"}, false},
		{"", []string{"a"}, true},
		{"ab", []string{"", "a", "", "b"}, true},
		{"abc", []string{"b", "c"}, false},
	} {
		if got := endsWith(c.suffix, c.parts...); got != c.want {
			t.Errorf("endsWith(%q, %q) = %v, want %v", c.suffix, c.parts, got, c.want)
		}
	}
}

// TestSameInputIsTheEncodingCompared: sameInput reads keysInput's bytes
// exactly: it holds for the width and keys encoded and for no other
// width, list, text or enabled state.
func TestSameInputIsTheEncodingCompared(t *testing.T) {
	km := newKeys()
	off := km.start
	off.SetEnabled(false)
	pool := []key.Binding{km.back, km.quit, km.ready, km.start, off, km.chat, km.help, km.leave,
		withHelp(km.chat, "c", "chat"), withHelp(km.chat, "c", "chats"), withHelp(km.chat, "cc", "hat"), withHelp(km.chat, "", "")}
	rng := rand.New(rand.NewPCG(5, 6))
	pick := func() []key.Binding {
		ks := make([]key.Binding, rng.IntN(4))
		for i := range ks {
			ks[i] = pool[rng.IntN(len(pool))]
		}
		return ks
	}
	same := 0
	for range 5000 {
		a, b := pick(), pick()
		wa, wb := 78+rng.IntN(2), 78+rng.IntN(2)
		in := keysInput(nil, wa, a)
		want := string(in) == string(keysInput(nil, wb, b))
		if want {
			same++
		}
		if got := sameInput(in, wb, b); got != want {
			t.Fatalf("sameInput(keysInput(%d, %v), %d, %v) = %v, want %v", wa, helpTexts(a), wb, helpTexts(b), got, want)
		}
		if len(in) > 0 && sameInput(in[:len(in)-1], wa, a) {
			t.Fatalf("sameInput holds for a cut input of %v", helpTexts(a))
		}
	}
	if same == 0 {
		t.Fatal("no two inputs were the same: the test does not cover that case")
	}
}

// helpTexts are the keys' help texts, for messages.
func helpTexts(ks []key.Binding) []string {
	var out []string
	for _, k := range ks {
		out = append(out, k.Help().Key+" "+k.Help().Desc)
	}
	return out
}

// TestTableKeyListIsWrittenOverTheLast: the table's list of keys for its
// bar, made again when what it shows changes (a seat's bar changes with
// every turn), is written over the list before, never a new one, and is
// the list for what the table shows now.
func TestTableKeyListIsWrittenOverTheLast(t *testing.T) {
	m := newTestApp(t, &fakeHub{}, nil, 100, MinHeight)
	s := &tableScreen{view: lobby.TableView{Phase: lobby.Waiting, You: engine.SeatViewer(0)}}
	want := map[bool]string{
		false: keyText(m.km.ready, m.km.chat, m.km.help, m.km.leave),
		true:  keyText(m.km.ready, m.km.start, m.km.chat, m.km.help, m.km.leave),
	}
	for range 3 {
		for _, host := range []bool{true, false} {
			s.view.Host = host
			if got := keyText(s.shortHelp(m)...); got != want[host] {
				t.Fatalf("host %v: keys %s, want %s", host, got, want[host])
			}
		}
	}
	allocs := testing.AllocsPerRun(50, func() {
		s.view.Host = !s.view.Host
		_ = s.shortHelp(m)
	})
	if allocs != 0 {
		t.Errorf("the key list made again allocates %v times", allocs)
	}
}

// keyText is the keys' help, to compare lists of keys.
func keyText(ks ...key.Binding) string {
	var b strings.Builder
	for _, k := range ks {
		b.WriteString(k.Help().Key + " " + k.Help().Desc + "; ")
	}
	return b.String()
}
