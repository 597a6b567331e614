package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/lobby"
)

// tablesScreen lists public tables: join one that waits, watch one in play.
type tablesScreen struct {
	plainScreen

	tables []lobby.TableSummary
	cursor int
	err    string
	busy   bool
}

func newTablesScreen(a *app) *tablesScreen {
	s := &tablesScreen{}
	s.reload(a)
	return s
}

func (s *tablesScreen) reload(a *app) {
	if a.hub == nil {
		return
	}
	s.tables = a.hub.PublicTables()
	s.cursor = min(s.cursor, max(0, len(s.tables)-1))
}

func (s *tablesScreen) title(*app) string { return "Public tables" }
func (s *tablesScreen) capturing() bool   { return false }
func (s *tablesScreen) setError(m string) {
	s.err = m
	s.busy = false
}

func phaseName(p lobby.Phase) string {
	switch p {
	case lobby.Waiting:
		return "waiting"
	case lobby.Playing:
		return "playing"
	case lobby.Finished:
		return "finished"
	}
	return "stopped"
}

func (s *tablesScreen) update(a *app, msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	s.err = ""
	switch {
	case key.Matches(km, a.km.back):
		a.pop()
	case key.Matches(km, a.km.up):
		s.cursor = max(0, s.cursor-1)
	case key.Matches(km, a.km.down):
		s.cursor = min(max(0, len(s.tables)-1), s.cursor+1)
	case key.Matches(km, a.km.refresh):
		s.reload(a)
	case key.Matches(km, a.km.enter), key.Matches(km, a.km.watch):
		if len(s.tables) == 0 || s.busy {
			return nil
		}
		t := s.tables[s.cursor]
		s.busy = true
		if key.Matches(km, a.km.enter) && t.Phase == lobby.Waiting && t.Open > 0 {
			return a.openTable("Join", func(h hubAPI, id lobby.Identity) (tableConn, error) { return h.Join(id, t.Code) })
		}
		return a.openTable("Watch", func(h hubAPI, id lobby.Identity) (tableConn, error) { return h.Watch(id, t.Code) })
	}
	return nil
}

func (s *tablesScreen) body(a *app, w, h int) []string {
	var b strings.Builder
	b.WriteString("\n")
	if len(s.tables) == 0 {
		b.WriteString("  No public tables right now. Create one from the home screen, or press r to look again.\n")
	} else {
		// Each table keeps to one line, cut at the window's edge: in a
		// narrow window a row wrapped, its host on a line of its own.
		b.WriteString(a.st.dim.Render(truncate(fmt.Sprintf("    %-8s  %-16s  %-8s  %-11s  %-8s  %s", "code", "game", "state", "seats", "watching", "host"), max(10, w-1))) + "\n")
		rows := max(1, h-5)
		first := max(0, min(s.cursor-rows/2, len(s.tables)-rows))
		for i := first; i < len(s.tables) && i < first+rows; i++ {
			t := s.tables[i]
			seats := fmt.Sprintf("%d/%d", t.Humans+t.Bots, t.Seats)
			if t.Open > 0 && t.Phase == lobby.Waiting {
				seats += fmt.Sprintf(" %d open", t.Open)
			}
			row := truncate(fmt.Sprintf("%-8s  %-16s  %-8s  %-11s  %-8d  %s", formatCode(t.Code), textsafe.Cut(t.GameName, 16),
				phaseName(t.Phase), seats, t.Spectators, t.Host.Cut(16)), max(10, w-5))
			if i == s.cursor {
				b.WriteString("  " + a.st.selected.Render("▸ "+row) + "\n")
			} else {
				b.WriteString("    " + row + "\n")
			}
		}
	}
	b.WriteString("\n")
	switch {
	case s.busy:
		b.WriteString("  " + a.st.dim.Render("One moment…"))
	case s.err != "":
		b.WriteString("  " + a.st.errText.Render("! "+s.err))
	case len(s.tables) > 0:
		b.WriteString("  " + a.st.dim.Render("enter joins a table that waits for players, or watches one in play."))
	}
	return wrapBlock(b.String(), w, h)
}

func (s *tablesScreen) shortHelp(a *app) []key.Binding {
	return append(a.listKeys(len(s.tables), "move", withHelp(a.km.enter, "enter", "join"), a.km.watch), a.km.refresh, a.km.back, a.km.help)
}

// formatCode shows a table code the way people read it, as KQ7-M4X.
func formatCode(c string) string {
	return lobby.FormatCode(textsafe.Clean(c, 12).String())
}
