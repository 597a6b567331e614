package main

import (
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"
)

// lightness is how light a colour is, from 0 (black) to 1 (white): the
// luma of its (gamma-encoded) channels, enough to tell a dark title colour
// from a light one.
func lightness(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xffff
}

// titleColour is the foreground of the first letter of the title bar.
func titleColour(t *testing.T, tm *term) color.Color {
	t.Helper()
	tm.mu.Lock()
	defer tm.mu.Unlock()
	for x := range 10 {
		if c := tm.emu.CellAt(x, 0); c != nil && strings.TrimSpace(c.Content) != "" {
			return c.Style.Fg
		}
	}
	t.Fatalf("%s: no title on the first row", tm.name)
	return nil
}

// TestTerminalBackgroundPicksThePalette: the session asks the terminal for
// its background colour; a terminal answering with white gets the light
// palette (a dark title colour that reads on white), one answering with
// black and one that never answers get the dark palette (a light title).
func TestTerminalBackgroundPicksThePalette(t *testing.T) {
	_, addr := startInstance(t, dataDir(t))
	for _, tc := range []struct {
		name   string
		bg     color.Color
		silent bool
		light  bool
	}{
		{"white", color.White, false, true},
		{"black", color.Black, false, false},
		{"silent", color.White, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := dial(t, addr, withKey(newKey(t)))
			sess, err := c.NewSession()
			if err != nil {
				t.Fatal(err)
			}
			tm := &term{t: t, name: tc.name, sess: sess, emu: vt.NewEmulator(80, 24), done: make(chan struct{}), silent: tc.silent}
			tm.emu.SetDefaultBackgroundColor(tc.bg)
			tm.start("xterm-256color", 80, 24, "", nil)
			register(tm, "pal"+tc.name)
			tm.waitFor("CODEBREAKERS", "Quick play")
			// The answer may come after the first frame: wait for the
			// title to take the palette's colour.
			want := "a light title (the dark palette)"
			if tc.light {
				want = "a dark title (the light palette)"
			}
			tm.waitUntil(want, func(string) bool {
				l := lightness(titleColour(t, tm))
				return l < 0.5 == tc.light && !math.IsNaN(l)
			})
			if tc.silent {
				// Nothing more is coming: the dark palette stays.
				tm.send("?")
				tm.waitFor("Keys on this screen")
				if l := lightness(titleColour(t, tm)); l < 0.5 {
					t.Errorf("a terminal that never answered got the light palette (title lightness %.2f)", l)
				}
			}
		})
	}
}
