package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/storage"
)

// historyLimit is how many past games My games lists.
const historyLimit = 50

// historyScreen lists the account's finished games with its stats; enter
// opens a replay.
type historyScreen struct {
	plainScreen

	loading bool
	games   []storage.GameSummary
	stats   storage.Stats
	cursor  int
	err     string
}

type historyLoadedMsg struct {
	games []storage.GameSummary
	stats storage.Stats
	err   error
}

func newHistoryScreen() *historyScreen { return &historyScreen{loading: true} }

func (s *historyScreen) load(a *app) tea.Cmd {
	if a.store == nil || a.id.Guest {
		s.loading = false
		return nil
	}
	store, id := a.store, a.id.Account
	return func() tea.Msg {
		games, err := store.History(id, historyLimit)
		if err != nil {
			return historyLoadedMsg{err: fmt.Errorf("history: %w", err)}
		}
		stats, err := store.Stats(id)
		return historyLoadedMsg{games: games, stats: stats, err: err}
	}
}

func (s *historyScreen) title(*app) string { return "My games" }
func (s *historyScreen) capturing() bool   { return false }
func (s *historyScreen) setError(m string) { s.err = m }

func (s *historyScreen) update(a *app, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case historyLoadedMsg:
		s.loading = false
		if msg.err != nil {
			s.err = a.userError(msg.err, "Your history could not be read just now; press esc and try again.")
			return nil
		}
		s.games, s.stats = msg.games, msg.stats
		return nil
	case tea.KeyPressMsg:
		s.err = ""
		switch {
		case key.Matches(msg, a.km.back):
			a.pop()
		case key.Matches(msg, a.km.up):
			s.cursor = max(0, s.cursor-1)
		case key.Matches(msg, a.km.down):
			s.cursor = min(max(0, len(s.games)-1), s.cursor+1)
		case key.Matches(msg, a.km.enter):
			if len(s.games) > 0 {
				return a.openReplay(s.games[s.cursor].ID)
			}
		}
	}
	return nil
}

func (s *historyScreen) body(a *app, w, h int) []string {
	var b strings.Builder
	b.WriteString("\n")
	switch {
	case a.id.Guest:
		b.WriteString("  Guests have no history. Connect with an SSH key (ssh -i yourkey …) to keep your games.\n")
		b.WriteString("  You can still replay any finished game by its id from the home screen.\n")
		return wrapBlock(b.String(), w, h)
	case s.loading:
		b.WriteString("  Loading your games…\n")
		return wrapBlock(b.String(), w, h)
	case s.err != "":
		b.WriteString("  " + a.st.errText.Render("! "+s.err) + "\n")
		return wrapBlock(b.String(), w, h)
	}
	st := s.stats
	b.WriteString("  " + st.Totals.String() + "\n\n")
	if len(s.games) == 0 {
		b.WriteString("  No finished games yet. Quick play deals one in a second.\n")
		return wrapBlock(b.String(), w, h)
	}
	// The id column is as wide as an id, and each row keeps to one line:
	// ids of storage.GameIDLen pushed the columns out of line with their
	// headings, and a long list of players wrapped under the next row.
	b.WriteString(a.st.dim.Render(fmt.Sprintf("    %-*s  %-16s  %-10s  %5s  %-10s  %s", storage.GameIDLen, "id", "game", "result", "moves", "date", "players")) + "\n")
	rows := max(1, h-5)
	first := max(0, min(s.cursor-rows/2, len(s.games)-rows))
	for i := first; i < len(s.games) && i < first+rows; i++ {
		g := s.games[i]
		names := make([]string, 0, len(g.Seats))
		for _, seat := range g.Seats {
			n := textsafe.Clean(seat.Handle, 16).String()
			if seat.Bot {
				n += " (bot)"
			}
			names = append(names, n)
		}
		name := g.Game
		if gm, ok := a.games.Lookup(g.Game); ok {
			name = gm.Info().Name
		}
		row := truncate(fmt.Sprintf("%-*s  %-16s  %-10s  %5d  %-10s  %s", storage.GameIDLen, gameIDText(g.ID), name, g.Outcome, g.Moves,
			g.Finished.UTC().Format("2006-01-02"), strings.Join(names, ", ")), max(10, w-5))
		if i == s.cursor {
			b.WriteString("  " + a.st.selected.Render("▸ "+row) + "\n")
		} else {
			b.WriteString("    " + row + "\n")
		}
	}
	return wrapBlock(b.String(), w, h)
}

func (s *historyScreen) shortHelp(a *app) []key.Binding {
	return append(a.listKeys(len(s.games), "move", a.km.replay), a.km.back, a.km.help)
}
