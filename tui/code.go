package tui

import (
	"errors"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/tui/widget"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/storage"
)

type codeKind int

const (
	codeJoin   codeKind = iota // a table code, to play
	codeWatch                  // a table code, to watch
	codeReplay                 // a finished game's id
)

// codeScreen asks for a table code (join or watch) or a game id (replay).
type codeScreen struct {
	plainScreen

	kind  codeKind
	input widget.Field
	err   string
	busy  bool
}

func newCodeScreen(kind codeKind) *codeScreen {
	ph, limit := "KQ7-M4X", 12
	if kind == codeReplay {
		ph, limit = exampleGameID, storage.GameIDLen+4 // room for stray spaces around an id
	}
	return &codeScreen{kind: kind, input: newInput(ph, limit)}
}

func (s *codeScreen) title(*app) string {
	switch s.kind {
	case codeWatch:
		return "Watch a table"
	case codeReplay:
		return "Replay a game"
	}
	return "Join a table"
}

func (s *codeScreen) capturing() bool { return true }
func (s *codeScreen) setError(m string) {
	s.err = m
	s.busy = false
}

func (s *codeScreen) update(a *app, msg tea.Msg) tea.Cmd {
	if km, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(km, a.km.back):
			a.pop()
			return nil
		case key.Matches(km, a.km.tab) && s.kind != codeReplay:
			if s.kind == codeJoin {
				s.kind = codeWatch
			} else {
				s.kind = codeJoin
			}
			s.err = ""
			return nil
		case key.Matches(km, a.km.enter):
			if s.busy {
				return nil
			}
			return s.submit(a)
		}
		s.err = ""
	}
	s.input.Update(msg)
	return nil
}

func (s *codeScreen) submit(a *app) tea.Cmd {
	v := strings.TrimSpace(s.input.Value())
	if v == "" {
		if s.kind == codeReplay {
			s.err = "Type a game id first; you find ids under My games."
		} else {
			s.err = "Type the table's code first; it looks like KQ7-M4X."
		}
		return nil
	}
	s.busy = true
	switch s.kind {
	case codeWatch:
		return a.openTable("Watch", func(h hubAPI, id lobby.Identity) (tableConn, error) { return h.Watch(id, v) })
	case codeReplay:
		return a.openReplay(v)
	}
	return a.openTable("Join", func(h hubAPI, id lobby.Identity) (tableConn, error) { return h.Join(id, v) })
}

func (s *codeScreen) body(a *app, w, h int) []string {
	var b strings.Builder
	b.WriteString("\n")
	switch s.kind {
	case codeReplay:
		b.WriteString("  Type the id of a finished game to replay it, every hand shown.\n")
		b.WriteString("  " + a.st.dim.Render("From a shell: "+a.ssh+" replay ID (without -t: as text, with its analysis)") + "\n")
	case codeWatch:
		b.WriteString("  Type a table's code to " + a.st.strong.Render("watch") + " it live (you see what everyone sees).\n")
		b.WriteString("  " + a.st.dim.Render("tab: join as a player instead") + "\n")
	default:
		b.WriteString("  Type a table's code to " + a.st.strong.Render("join") + " it as a player.\n")
		b.WriteString("  " + a.st.dim.Render("tab: watch instead") + "\n")
	}
	input := s.input // drawn in the width there is, without changing the field
	input.Width = max(10, min(20, w-8))
	b.WriteString("\n  " + input.View() + "\n\n")
	switch {
	case s.busy:
		b.WriteString("  " + a.st.dim.Render("One moment…"))
	case s.err != "":
		b.WriteString("  " + a.st.errText.Render("! "+s.err))
	}
	return wrapBlock(b.String(), w, h)
}

func (s *codeScreen) shortHelp(a *app) []key.Binding {
	ks := []key.Binding{withHelp(a.km.enter, "enter", "go")}
	if s.kind != codeReplay {
		ks = append(ks, withHelp(a.km.tab, "tab", "play/watch"))
	}
	return append(ks, a.km.back, a.km.forceQuit)
}

// replayLoadedMsg carries a finished game loaded for replay, already
// replayed once with every hand shown.
type replayLoadedMsg struct {
	game     storage.FinishedGame
	frames   *replayFrames
	err      error // loading failed
	buildErr error // the record could not be replayed
}

// openReplay loads a finished game by id and replays it, off the event
// loop, then opens its replay.
func (a *app) openReplay(id string) tea.Cmd {
	id = strings.ToUpper(strings.TrimSpace(id))
	if a.store == nil {
		return func() tea.Msg { return replayLoadedMsg{err: errors.New("no store")} }
	}
	store, games, puzzles, account := a.store, a.games, a.puzzles, a.account()
	return func() tea.Msg {
		g, err := store.Game(id)
		if err != nil {
			return replayLoadedMsg{err: err}
		}
		if puzzles != nil {
			// Today's puzzle replays once answered (puzzle.Service.Withholds).
			withheld, err := puzzles.Withholds(g, account)
			if err != nil {
				return replayLoadedMsg{err: err}
			}
			if withheld {
				name := g.Record.Game
				if gm, ok := games.Lookup(name); ok {
					name = gm.Info().Name
				}
				return replayLoadedMsg{err: &engine.IllegalError{Msg: "That game is today's " + name +
					" puzzle: its replay would give the answer away. Answer it first (Puzzle of the day, with a key), or replay it tomorrow."}}
			}
		}
		f, err := buildFrames(games, g.ID, g.Record, engine.Omniscient())
		return replayLoadedMsg{game: g, frames: f, buildErr: err}
	}
}
