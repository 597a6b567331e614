package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/storage"
	"github.com/codebreakers/codebreakers/tui/board"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// replayStepLines is the most lines the footer gives one step's events;
// the log above the footer has them all.
const replayStepLines = 3

// replayStepEvery is the pace of automatic play in a replay.
const replayStepEvery = 1200 * time.Millisecond

// replayScreen steps through a finished game, every hand revealed (or, with
// v, as one seat saw it).
type replayScreen struct {
	plainScreen

	game     storage.FinishedGame
	info     engine.Info
	frames   *replayFrames
	step     int
	board    board.Board
	names    []string
	bots     []bool
	play     bool
	tick     int  // identifies the current autoplay chain, so stale ticks stop
	building bool // another viewer's frames are being rebuilt
	err      string
	// review is the game's analysis once it has come (see replay_analysis.go).
	review replayReview
}

// replayFrames is a whole game replayed once for one viewer: every
// intermediate view, so stepping back and forth costs nothing.
type replayFrames struct {
	viewer engine.Viewer
	views  []any            // views[i]: the state after i moves
	status []engine.Status  // status[i]: whose turn after i moves
	events [][]engine.Event // events[i]: what move i (1-based) produced, filtered
}

type replayTickMsg struct{ tick int }

// replayFramesMsg carries frames rebuilt for another viewer.
type replayFramesMsg struct {
	gameID string
	frames *replayFrames
	err    error
}

// buildFrames replays rec for viewer. It reads only the registry (never
// written after start-up), so it runs off the event loop.
func buildFrames(games *engine.Registry, id string, rec engine.Record, viewer engine.Viewer) (*replayFrames, error) {
	gm, ok := games.Lookup(rec.Game)
	if !ok {
		return nil, fmt.Errorf("replay %s: unknown game %q", id, rec.Game)
	}
	st, _, err := engine.StartRecord(gm, rec)
	if err != nil {
		return nil, fmt.Errorf("replay %s: %w", id, err)
	}
	f := &replayFrames{viewer: viewer, views: []any{st.View(viewer)}, status: []engine.Status{st.Status()}, events: [][]engine.Event{nil}}
	for i, m := range rec.Moves {
		evs, err := st.Apply(m.Seat, m.Action)
		if err != nil {
			return nil, fmt.Errorf("replay %s move %d: %w", id, i+1, err)
		}
		f.views = append(f.views, st.View(viewer))
		f.status = append(f.status, st.Status())
		f.events = append(f.events, engine.FilterEvents(evs, viewer))
	}
	return f, nil
}

// replayLoaded handles a loaded game: open its replay (and ask for its
// analysis) or say what failed.
func (a *app) replayLoaded(msg replayLoadedMsg) tea.Cmd {
	e := a.top()
	fail := e.setError
	switch {
	case errors.Is(msg.err, storage.ErrNotFound):
		fail("No finished game has that id. Ids look like " + exampleGameID + "; yours are under My games.")
		return nil
	case msg.err != nil:
		fail(a.userError(msg.err, "That game could not be loaded just now; try again in a moment."))
		return nil
	}
	r, err := newReplayScreen(a, msg.game, msg.frames)
	if err == nil && msg.buildErr != nil {
		err = msg.buildErr
	}
	if err != nil {
		a.logger.Error("replay", "game", msg.game.ID, "err", err)
		fail("That game's record could not be replayed on this server version.")
		return nil
	}
	e.setError("")
	a.push(r)
	return r.askAnalysis(a)
}

func newReplayScreen(a *app, g storage.FinishedGame, frames *replayFrames) (*replayScreen, error) {
	gm, ok := a.games.Lookup(g.Record.Game)
	if !ok {
		return nil, fmt.Errorf("replay %s: unknown game %q", g.ID, g.Record.Game)
	}
	r := &replayScreen{game: g, info: gm.Info(), frames: frames}
	r.board = newBoard(r.info.ID, &a.st.board, &a.km.board)
	if r.board == nil {
		return nil, fmt.Errorf("replay %s: no board for %q", g.ID, r.info.ID)
	}
	for i, p := range g.Record.Players {
		name := p.Name
		if i < len(g.Seats) && g.Seats[i].Handle != "" {
			name = g.Seats[i].Handle
		}
		r.names = append(r.names, textsafe.Clean(name, 16).String())
		r.bots = append(r.bots, p.Bot)
	}
	if frames == nil {
		return nil, fmt.Errorf("replay %s: no frames", g.ID)
	}
	return r, nil
}

func (r *replayScreen) moves() int { return len(r.frames.views) - 1 }

func (r *replayScreen) title(*app) string {
	return fmt.Sprintf("Replay · %s · game %s · %d players", r.info.Name, gameIDText(r.game.ID), len(r.names))
}

func (r *replayScreen) titleRight(a *app) string {
	right := "all hands shown"
	if r.frames.viewer.Kind == engine.ViewerSeat {
		right = "as " + r.seatName(r.frames.viewer.Seat) + " saw it"
	}
	// The analysis mark only where the title has room for it.
	if m := r.mark(); m != "" && widget.Width(r.title(a))+widget.Width(right+m)+4 <= a.width {
		right += m
	}
	return right
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
	case replayAnalysisMsg:
		r.gotAnalysis(a, msg)
		return nil
	case replayFramesMsg:
		if msg.gameID != r.game.ID {
			return nil
		}
		r.building = false
		if msg.err != nil {
			r.err = "That view could not be rebuilt."
			a.logger.Error("replay view", "game", r.game.ID, "err", msg.err)
			return nil
		}
		r.frames = msg.frames
		r.step = min(r.step, r.moves())
		return nil
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
	case key.Matches(msg, a.km.analysis) && a.analyst != nil:
		r.review.on = !r.review.on
	case key.Matches(msg, a.km.viewAs):
		next := engine.Omniscient()
		switch {
		case r.frames.viewer.Kind == engine.ViewerOmniscient && len(r.names) > 0:
			next = engine.SeatViewer(0)
		case r.frames.viewer.Kind == engine.ViewerSeat && int(r.frames.viewer.Seat)+1 < len(r.names):
			next = engine.SeatViewer(r.frames.viewer.Seat + 1)
		}
		if r.building {
			return nil
		}
		r.building = true
		games, id, rec := a.games, r.game.ID, r.game.Record
		return func() tea.Msg {
			f, err := buildFrames(games, id, rec, next)
			return replayFramesMsg{gameID: id, frames: f, err: err}
		}
	}
	return nil
}

// setSize shows the board the step's view in the room the footer leaves.
func (r *replayScreen) setSize(a *app, w, h int) {
	var log []engine.Event
	for _, evs := range r.frames.events[:r.step+1] {
		log = append(log, evs...)
	}
	res := r.game.Result
	ctx := board.Context{
		Viewer: r.frames.viewer, Names: r.names, Bots: r.bots, Status: r.frames.status[r.step], Log: log,
		Replay: true, Width: w, Height: max(1, h-len(r.footer(a, w))),
	}
	if r.step == r.moves() {
		ctx.Result = &res
	}
	r.board.SetView(r.frames.views[r.step], ctx)
	r.board.SetSize(ctx.Width, ctx.Height)
}

func (r *replayScreen) body(a *app, w, h int) []string {
	footer := r.footer(a, w)
	lines := fitBlock(r.board.View(), w, max(1, h-len(footer))) // laid out by setSize
	return wrapBlock(strings.Join(append(lines, footer...), "\n"), w, h)
}

// footer is what the replay shows under the board: the step, its analysis,
// the result at the end, and any trouble.
func (r *replayScreen) footer(a *app, w int) []string {
	var last string
	if r.step > 0 {
		var parts []string
		for _, e := range r.frames.events[r.step] {
			parts = append(parts, textsafe.Cut(e.Text, 300))
		}
		last = strings.Join(parts, " ")
		if last == "" {
			last = "(a move nobody else sees)"
		}
	} else {
		last = "The deal. Press → to step through the game."
	}
	prefix := fmt.Sprintf(" step %d/%d   ", r.step, r.moves())
	if r.play {
		prefix = " ▶" + prefix[1:]
	}
	var footer []string
	for _, l := range capLines(widget.WrapIndent(last, w, prefix, strings.Repeat(" ", widget.Width(prefix))), replayStepLines, w) {
		footer = append(footer, a.st.strong.Render(l))
	}
	footer = append(footer, r.analysisLines(a, w)...)
	if r.step == r.moves() {
		// The result, unless the last move's events have just said it
		// ("bo passed. mara broke the code in 3 turns.").
		if summary := textsafe.Clean(r.game.Result.Summary, 300).String(); !strings.Contains(last, summary) {
			for _, l := range widget.WrapIndent(summary, w, " ", " ") {
				footer = append(footer, a.st.strong.Render(l))
			}
		}
		footer = append(footer, r.summaryLines(a, w)...)
	}
	switch {
	case r.err != "":
		for _, l := range widget.WrapIndent("! "+r.err, w, " ", "   ") {
			footer = append(footer, a.st.errText.Render(l))
		}
	case r.building:
		footer = append(footer, " "+a.st.dim.Render("Replaying the game for that view…"))
	}
	return footer
}

func (r *replayScreen) shortHelp(a *app) []key.Binding {
	if r.board.Overlay() {
		return r.board.ShortHelp()
	}
	ks := []key.Binding{withHelp(a.km.left, "←/→", "step"), withHelp(a.km.home, "home/end", "jump"), withHelp(a.km.play, "space", "play")}
	if a.analyst != nil {
		ks = append(ks, a.km.analysis)
	}
	return append(ks, a.km.viewAs, withHelp(a.km.board.Notes, "n", "notes"), a.km.back)
}

// exampleGameID shows what a game id looks like wherever one is asked for:
// as long as the ids given out now (storage.GameIDLen), from their alphabet.
const exampleGameID = "8F3K2QW7MN4XHR"

// gameIDText is a game id, safe to draw and never cut short: a player
// reads it to replay the game later (ssh HOST replay ID). Ids are
// storage.GameIDLen characters (older ones 5 or 6), so a list column sized
// for the old ones is simply overrun by a new one.
func gameIDText(id string) string { return textsafe.Clean(id, storage.GameIDLen).String() }

// restyle makes the board again with the session's new styles.
func (r *replayScreen) restyle(a *app) {
	if b := newBoard(r.info.ID, &a.st.board, &a.km.board); b != nil {
		r.board = b
	}
}
