package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/lobby/textsafe"
	"github.com/codebreakers/codebreakers/storage"
	"github.com/codebreakers/codebreakers/tui/board"
)

// replayStepEvery is the pace of automatic play in a replay.
const replayStepEvery = 1200 * time.Millisecond

// replayScreen steps through a finished game, every hand revealed (or, with
// v, as one seat saw it).
type replayScreen struct {
	game   storage.FinishedGame
	info   engine.Info
	viewer engine.Viewer
	views  []any            // views[i]: the state after i moves, for viewer
	events [][]engine.Event // events[i]: what move i (1-based) produced, filtered
	step   int
	board  board.Board
	names  []string
	bots   []bool
	status []engine.Status
	play   bool
	tick   int // identifies the current autoplay chain, so stale ticks stop
	err    string
}

type replayTickMsg struct{ tick int }

// replayLoaded handles a loaded game: open its replay or say what failed.
func (a *app) replayLoaded(msg replayLoadedMsg) {
	e, _ := a.top().(interface{ setError(string) })
	fail := func(m string) {
		if e != nil {
			e.setError(m)
		}
	}
	switch {
	case errors.Is(msg.err, storage.ErrNotFound):
		fail("No finished game has that id. Ids look like 8F3K2; yours are under My games.")
		return
	case msg.err != nil:
		fail(a.userError(msg.err, "That game could not be loaded just now; try again in a moment."))
		return
	}
	r, err := newReplayScreen(a, msg.game)
	if err != nil {
		a.logger.Error("replay", "game", msg.game.ID, "err", err)
		fail("That game's record could not be replayed on this server version.")
		return
	}
	if e != nil {
		e.setError("")
	}
	a.push(r)
}

func newReplayScreen(a *app, g storage.FinishedGame) (*replayScreen, error) {
	gm, ok := a.games.Lookup(g.Record.Game)
	if !ok {
		return nil, fmt.Errorf("replay %s: unknown game %q", g.ID, g.Record.Game)
	}
	r := &replayScreen{game: g, info: gm.Info()}
	r.board = newBoard(r.info.ID, a.st.board, a.km.board)
	if r.board == nil {
		return nil, fmt.Errorf("replay %s: no board for %q", g.ID, r.info.ID)
	}
	for i, p := range g.Record.Players {
		name := p.Name
		if i < len(g.Seats) && g.Seats[i].Handle != "" {
			name = g.Seats[i].Handle
		}
		r.names = append(r.names, textsafe.Clean(name, 16))
		r.bots = append(r.bots, p.Bot)
	}
	if err := r.build(a, engine.Omniscient()); err != nil {
		return nil, err
	}
	return r, nil
}

// build replays the whole record once, keeping every intermediate view for
// viewer, so stepping back and forth costs nothing.
func (r *replayScreen) build(a *app, viewer engine.Viewer) error {
	gm, _ := a.games.Lookup(r.game.Record.Game)
	rec := r.game.Record
	st, _, err := engine.Start(gm, rec.Options, rec.Players, rec.Seed)
	if err != nil {
		return fmt.Errorf("replay %s: %w", r.game.ID, err)
	}
	views := []any{st.View(viewer)}
	status := []engine.Status{st.Status()}
	events := [][]engine.Event{nil}
	for i, m := range rec.Moves {
		evs, err := st.Apply(m.Seat, m.Action)
		if err != nil {
			return fmt.Errorf("replay %s move %d: %w", r.game.ID, i+1, err)
		}
		views = append(views, st.View(viewer))
		status = append(status, st.Status())
		events = append(events, engine.FilterEvents(evs, viewer))
	}
	r.viewer, r.views, r.status, r.events = viewer, views, status, events
	r.step = min(r.step, len(views)-1)
	return nil
}

func (r *replayScreen) moves() int { return len(r.views) - 1 }

func (r *replayScreen) title(*app) string {
	return fmt.Sprintf("Replay · %s · game %s · %d players", r.info.Name, textsafe.Clean(r.game.ID, 10), len(r.names))
}

func (r *replayScreen) titleRight(*app) string {
	switch r.viewer.Kind {
	case engine.ViewerSeat:
		return "as " + r.seatName(r.viewer.Seat) + " saw it"
	}
	return "all tiles shown"
}

func (r *replayScreen) seatName(s engine.Seat) string {
	if int(s) >= 0 && int(s) < len(r.names) {
		return r.names[s]
	}
	return fmt.Sprintf("seat %d", s+1)
}

func (r *replayScreen) capturing() bool   { return false }
func (r *replayScreen) setError(m string) { r.err = m }

func (r *replayScreen) nextTick() tea.Cmd {
	r.tick++
	t := r.tick
	return tea.Tick(replayStepEvery, func(time.Time) tea.Msg { return replayTickMsg{tick: t} })
}

func (r *replayScreen) update(a *app, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case replayTickMsg:
		if !r.play || msg.tick != r.tick {
			return nil
		}
		if r.step >= r.moves() {
			r.play = false
			return nil
		}
		r.step++
		return r.nextTick()
	case tea.KeyPressMsg:
		return r.key(a, msg)
	}
	return nil
}

func (r *replayScreen) key(a *app, msg tea.KeyPressMsg) tea.Cmd {
	r.err = ""
	if key.Matches(msg, a.km.board.Notes) || r.board.Overlay() {
		if key.Matches(msg, a.km.back) && !r.board.Overlay() {
			a.pop()
			return nil
		}
		r.board.Update(msg)
		return nil
	}
	switch {
	case key.Matches(msg, a.km.back):
		r.play = false
		a.pop()
	case key.Matches(msg, a.km.right), key.Matches(msg, a.km.down):
		r.play = false
		r.step = min(r.moves(), r.step+1)
	case key.Matches(msg, a.km.left), key.Matches(msg, a.km.up):
		r.play = false
		r.step = max(0, r.step-1)
	case msg.String() == "home" || msg.String() == "g":
		r.play, r.step = false, 0
	case msg.String() == "end" || msg.String() == "G":
		r.play, r.step = false, r.moves()
	case key.Matches(msg, a.km.play):
		r.play = !r.play
		if r.play {
			if r.step >= r.moves() {
				r.step = 0
			}
			return r.nextTick()
		}
	case key.Matches(msg, a.km.viewAs):
		next := engine.Omniscient()
		switch {
		case r.viewer.Kind == engine.ViewerOmniscient && len(r.names) > 0:
			next = engine.SeatViewer(0)
		case r.viewer.Kind == engine.ViewerSeat && int(r.viewer.Seat)+1 < len(r.names):
			next = engine.SeatViewer(r.viewer.Seat + 1)
		}
		if err := r.build(a, next); err != nil {
			r.err = "That view could not be rebuilt."
			a.logger.Error("replay view", "game", r.game.ID, "err", err)
		}
	}
	return nil
}

func (r *replayScreen) body(a *app, w, h int) string {
	var log []engine.Event
	for _, evs := range r.events[:r.step+1] {
		log = append(log, evs...)
	}
	var last string
	if r.step > 0 {
		var parts []string
		for _, e := range r.events[r.step] {
			parts = append(parts, textsafe.Clean(e.Text, 300))
		}
		last = strings.Join(parts, " ")
		if last == "" {
			last = "(a move nobody else sees)"
		}
	} else {
		last = "The deal. Press → to step through the game."
	}
	prefix := fmt.Sprintf(" step %d/%d   ", r.step, r.moves())
	stepLine := prefix + last
	if r.play {
		stepLine = " ▶" + stepLine[1:]
	}
	var footer []string
	for i, l := range strings.Split(ansi.Wordwrap(stepLine, max(20, w-1), ""), "\n") {
		if i == 2 {
			break // two lines at most; the log above has the rest
		}
		if i > 0 {
			l = strings.Repeat(" ", len(prefix)) + l
		}
		footer = append(footer, a.st.strong.Render(l))
	}
	if r.step == r.moves() {
		footer = append(footer, " "+a.st.strong.Render(textsafe.Clean(r.game.Result.Summary, w)))
	}
	if r.err != "" {
		footer = append(footer, " "+a.st.errText.Render("! "+r.err))
	}
	bh := max(1, h-len(footer))
	res := r.game.Result
	ctx := board.Context{
		Viewer: r.viewer, Names: r.names, Bots: r.bots, Status: r.status[r.step], Log: log,
		Replay: true, Width: w, Height: bh,
	}
	if r.step == r.moves() {
		ctx.Result = &res
	}
	r.board.SetView(r.views[r.step], ctx)
	lines := fitBlock(r.board.View(), w, bh)
	return strings.Join(append(lines, footer...), "\n")
}

func (r *replayScreen) shortHelp(a *app) []key.Binding {
	if r.board.Overlay() {
		return r.board.ShortHelp()
	}
	return []key.Binding{
		withHelp(a.km.left, "←/→", "step"), withHelp(a.km.home, "home/end", "jump"),
		withHelp(a.km.play, "space", "play"), a.km.viewAs, withHelp(a.km.board.Notes, "n", "notes"), a.km.back,
	}
}
