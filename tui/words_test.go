package tui

import (
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/lobby"
)

// TestCountsReadRight: one table is "1 table" in the title bar, and the
// create form's summary says "1 bot", never "1 tables" or "bot(s)".
func TestCountsReadRight(t *testing.T) {
	h := &fakeHub{tables: []lobby.TableSummary{{Code: "KQ7-M4X", Phase: lobby.Waiting, Public: true}}}
	m := newTestApp(t, h, nil, 80, 24)
	if s := screenText(m); !strings.Contains(s, "mara · 1 table ") || strings.Contains(s, "1 tables") {
		t.Errorf("title with one table:\n%s", s)
	}
	chooseHome(t, m, "Create a table") // one game: no game menu
	press(t, m, "down", "right")       // one bot
	cs := m.top().(*createScreen)
	cs.cursor = len(cs.fields) - 1 // the Create button shows the summary
	m.draw()
	s := screenText(m)
	if !strings.Contains(s, "3 seats: you, 1 bot, 1 open for people.") || strings.Contains(s, "(s)") {
		t.Errorf("create summary with one bot:\n%s", s)
	}
}
