package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestHomeMenuFitsAShortWindow: at the smallest size the arcade draws
// (60×20), the home menu's hints wrap onto more lines than the window has;
// every row must still be reachable and the chosen one on screen, with a
// marker saying how many rows are out of sight.
func TestHomeMenuFitsAShortWindow(t *testing.T) {
	m := newTestApp(t, &fakeHub{}, nil, 60, 20)
	s := screenText(m)
	for _, label := range []string{"Quick play", "My games", "How to play", "Quit"} {
		if !strings.Contains(s, label) {
			t.Errorf("home at 60×20 hides %q:\n%s", label, s)
		}
	}
	checkFits(t, m, 60, 20)

	// Shorter still (home with a note under it, or a longer menu): the
	// rows scroll with the cursor.
	rows := newHomeScreen().rows(m)
	menu := ansi.Strip(renderMenu(m, rows, 0, 60, 6))
	if n := strings.Count(menu, "\n"); n > 6 {
		t.Errorf("the menu took %d lines of 6:\n%s", n, menu)
	}
	if !strings.Contains(menu, "▸ Quick play") || !strings.Contains(menu, "↓ ") {
		t.Errorf("a short menu should show the cursor and how many rows are below:\n%s", menu)
	}
	menu = ansi.Strip(renderMenu(m, rows, len(rows)-1, 60, 6))
	if !strings.Contains(menu, "▸ Quit") || !strings.Contains(menu, "↑ ") || strings.Contains(menu, "↓ ") {
		t.Errorf("the chosen last row is off screen, or the markers are wrong:\n%s", menu)
	}
}
