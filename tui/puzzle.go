package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/engine/words"
	"github.com/codebreakers/codebreakers/lobby/puzzle"
	"github.com/codebreakers/codebreakers/storage"
	"github.com/codebreakers/codebreakers/tui/board"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// Puzzles is the puzzle of the day (*puzzle.Service satisfies it). Its
// calls may replay and analyse games: call them off the event loop.
type Puzzles interface {
	Today(ctx context.Context, game, account string) (puzzle.Day, error)
	Answer(ctx context.Context, game, account string, choice int) (puzzle.Day, error)
	Position(p storage.Puzzle) (puzzle.Position, error)
	// Withholds reports whether account may not replay g yet: it is
	// today's puzzle, unanswered by account (puzzle.Service.Withholds).
	Withholds(g storage.FinishedGame, account string) (bool, error)
}

// puzzleDaysMsg carries the day's puzzle of every game.
type puzzleDaysMsg struct {
	days map[string]puzzle.Day
	err  error
}

// puzzlePositionMsg carries a puzzle's position.
type puzzlePositionMsg struct {
	game string
	pos  puzzle.Position
	err  error
}

// puzzleAnsweredMsg carries the day after an answer.
type puzzleAnsweredMsg struct {
	game string
	day  puzzle.Day
	err  error
}

// account is the session's account for puzzles ("" for a guest).
func (a *app) account() string {
	if a.id.Guest {
		return ""
	}
	return a.id.Account
}

// puzzleMenu lists today's puzzle of every game.
type puzzleMenu struct {
	plainScreen

	games   []engine.Info
	days    map[string]puzzle.Day
	cursor  int
	loading bool
	err     string
}

func openPuzzles(a *app) tea.Cmd {
	if a.puzzles == nil {
		a.top().setError("This server has no puzzle of the day.")
		return nil
	}
	s := &puzzleMenu{loading: true}
	for _, g := range a.games.Games() {
		s.games = append(s.games, g.Info())
	}
	a.push(s)
	return s.load(a)
}

func (s *puzzleMenu) load(a *app) tea.Cmd {
	s.loading = true
	pz, ctx, acct := a.puzzles, a.ctx, a.account()
	var ids []string
	for _, g := range s.games {
		ids = append(ids, g.ID)
	}
	return func() tea.Msg {
		days := map[string]puzzle.Day{}
		for _, id := range ids {
			d, err := pz.Today(ctx, id, acct)
			if err != nil {
				return puzzleDaysMsg{err: err}
			}
			days[id] = d
		}
		return puzzleDaysMsg{days: days}
	}
}

func (s *puzzleMenu) title(*app) string { return "Puzzle of the day" }
func (s *puzzleMenu) capturing() bool   { return false }
func (s *puzzleMenu) setError(m string) { s.err = m }

// titleRight is the day the puzzles are of: puzzles change at midnight UTC.
func (s *puzzleMenu) titleRight(a *app) string {
	return a.now().UTC().Format("2006-01-02") + " (UTC)"
}

func (s *puzzleMenu) update(a *app, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case puzzleDaysMsg:
		s.loading = false
		if msg.err != nil {
			s.err = a.userError(msg.err, "Today's puzzles could not be found just now; try again in a moment.")
			return nil
		}
		s.days = msg.days
	case puzzleAnsweredMsg:
		if msg.err == nil && s.days != nil {
			s.days[msg.game] = msg.day
		}
	case tea.KeyPressMsg:
		s.err = ""
		switch {
		case key.Matches(msg, a.km.back):
			a.pop()
		case key.Matches(msg, a.km.up):
			s.cursor = (s.cursor + len(s.games) - 1) % len(s.games)
		case key.Matches(msg, a.km.down):
			s.cursor = (s.cursor + 1) % len(s.games)
		case key.Matches(msg, a.km.enter):
			if s.loading || s.days == nil {
				return nil
			}
			g := s.games[s.cursor]
			d := s.days[g.ID]
			if d.Puzzle.None {
				return nil // the menu says why already (body)
			}
			p := newPuzzleScreen(a, g, d)
			a.push(p)
			return p.load(a)
		}
	}
	return nil
}

// noPuzzleToday says why a game has no puzzle today: a day's puzzles come
// from games finished before that day, so a game finished today (on a new
// server, every game) cannot give one until tomorrow.
func noPuzzleToday(game string) string {
	return "No " + game + " puzzle today: puzzles come from public games finished in the two weeks before today, " +
		"and none gave one. Try another game, or come back tomorrow: today's public games count then."
}

// status is one game's line in the menu.
func (s *puzzleMenu) status(g engine.Info) string {
	d, ok := s.days[g.ID]
	switch {
	case s.loading:
		return "looking…"
	case !ok:
		return ""
	case d.Puzzle.None:
		return "no puzzle today"
	}
	solved := fmt.Sprintf("solved by %d of %d", len(d.Solvers), d.Answered)
	if len(d.Solvers) == puzzle.SolversShown {
		solved = fmt.Sprintf("solved by %d+ of %d", len(d.Solvers), d.Answered)
	}
	switch {
	case d.Try == nil:
		return "not answered yet · " + solved
	case d.Try.Solved:
		return fmt.Sprintf("✓ solved · streak %s · %s", words.Count(d.Streak.Current, "day", "days"), solved)
	}
	return "✗ answered · " + solved
}

func (s *puzzleMenu) body(a *app, w, h int) []string {
	var b strings.Builder
	// One sentence, wrapped at the window's width (two fixed lines broke
	// mid-sentence in a narrow window).
	b.WriteString("\n")
	for _, l := range widget.WrapIndent("One position a day per game, from a real finished game: pick the move that tells the most. One try a day.", w, "  ", "  ") {
		b.WriteString(a.st.dim.Render(l) + "\n")
	}
	b.WriteString("\n")
	for i, g := range s.games {
		mark := "  "
		name := fmt.Sprintf("%-16s", g.Name)
		if i == s.cursor {
			mark = "▸ "
			name = a.st.strong.Render(name)
		}
		b.WriteString(widget.Truncate("  "+mark+name+"  "+s.status(g), w, "…") + "\n")
	}
	if s.loading {
		b.WriteString("\n  " + a.st.dim.Render("Finding today's puzzles (the first visit of the day looks through recent games)…"))
	}
	if g, ok := s.chosenWithout(); ok {
		// Said as soon as the row is chosen: there is nothing to open.
		for _, l := range widget.WrapIndent(noPuzzleToday(g.Name), w, "  ", "  ") {
			b.WriteString("\n" + a.st.dim.Render(l))
		}
	}
	if a.id.Guest {
		b.WriteString("\n  " + a.st.dim.Render("Guests can look; answering needs an SSH key."))
	}
	if s.err != "" {
		for _, l := range widget.WrapIndent("! "+s.err, w, "  ", "    ") {
			b.WriteString("\n" + a.st.errText.Render(l))
		}
	}
	return wrapBlock(b.String(), w, h)
}

// chosenWithout returns the chosen game when today's puzzles are known
// and it has none.
func (s *puzzleMenu) chosenWithout() (engine.Info, bool) {
	if s.loading || s.days == nil || s.cursor >= len(s.games) {
		return engine.Info{}, false
	}
	g := s.games[s.cursor]
	d, ok := s.days[g.ID]
	return g, ok && d.Puzzle.None
}

// shortHelp offers enter only on a game with a puzzle to open.
func (s *puzzleMenu) shortHelp(a *app) []key.Binding {
	ks := []key.Binding{withHelp(a.km.up, "↑/↓", "move")}
	if _, none := s.chosenWithout(); !none && !s.loading && s.days != nil {
		ks = append(ks, withHelp(a.km.enter, "enter", "open"))
	}
	return append(ks, a.km.back, a.km.help)
}

// puzzleScreen is one game's puzzle: the position as its seat saw it, the
// moves to choose from, and once answered, every move's worth.
type puzzleScreen struct {
	plainScreen

	info     engine.Info
	day      puzzle.Day
	pos      *puzzle.Position
	board    board.Board
	names    []string
	bots     []bool
	choosing bool // the answer pane is shown (else the position)
	cursor   int
	confirm  bool // enter was pressed once on the cursor's move
	busy     bool
	err      string
}

func newPuzzleScreen(a *app, info engine.Info, d puzzle.Day) *puzzleScreen {
	return &puzzleScreen{info: info, day: d, board: newBoard(info.ID, &a.st.board, &a.km.board), choosing: d.Try != nil}
}

func (s *puzzleScreen) load(a *app) tea.Cmd {
	pz, p := a.puzzles, s.day.Puzzle
	return func() tea.Msg {
		pos, err := pz.Position(p)
		return puzzlePositionMsg{game: p.Game, pos: pos, err: err}
	}
}

func (s *puzzleScreen) title(*app) string { return "Puzzle of the day · " + s.info.Name }
func (s *puzzleScreen) capturing() bool   { return false }
func (s *puzzleScreen) setError(m string) { s.err = m }

func (s *puzzleScreen) titleRight(*app) string {
	if s.day.Try != nil {
		return "answered"
	}
	return s.day.Puzzle.Date
}

func (s *puzzleScreen) seatName() string {
	seat := int(s.day.Puzzle.Seat)
	if seat >= 0 && seat < len(s.names) {
		return s.names[seat]
	}
	return fmt.Sprintf("seat %d", seat+1)
}

func (s *puzzleScreen) update(a *app, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case puzzlePositionMsg:
		if msg.game != s.info.ID {
			return nil
		}
		if msg.err != nil {
			s.err = a.userError(msg.err, "That position could not be rebuilt just now.")
			return nil
		}
		s.pos = &msg.pos
		s.names, s.bots = nil, nil
		for i, p := range msg.pos.Game.Record.Players {
			name := p.Name
			if i < len(msg.pos.Game.Seats) && msg.pos.Game.Seats[i].Handle != "" {
				name = msg.pos.Game.Seats[i].Handle
			}
			s.names = append(s.names, textsafe.Clean(name, 16).String())
			s.bots = append(s.bots, p.Bot)
		}
	case puzzleAnsweredMsg:
		if msg.game != s.info.ID {
			return nil
		}
		s.busy = false
		switch {
		case errors.Is(msg.err, storage.ErrAlreadyTried):
			s.err = "You have already answered today's puzzle of this game. A new one comes at midnight UTC."
		case msg.err != nil:
			s.err = a.userError(msg.err, "Your answer could not be recorded just now; try again in a moment.")
		default:
			s.day = msg.day
			s.choosing = true
		}
		// The menu below keeps its line up to date.
		for _, sc := range a.stack {
			if m, ok := sc.(*puzzleMenu); ok {
				m.update(a, msg)
			}
		}
	case tea.KeyPressMsg:
		return s.key(a, msg)
	}
	return nil
}

func (s *puzzleScreen) key(a *app, msg tea.KeyPressMsg) tea.Cmd {
	s.err = ""
	opts := s.day.Puzzle.Options
	switch {
	case key.Matches(msg, a.km.back):
		a.pop()
	case key.Matches(msg, a.km.tab):
		s.choosing, s.confirm = !s.choosing, false
	case !s.choosing && key.Matches(msg, a.km.enter):
		s.choosing = true
	case s.day.Try != nil && key.Matches(msg, a.km.replayGame):
		// Answered: the game it came from may be seen, every hand shown.
		return a.openReplay(s.day.Puzzle.GameID)
	case s.choosing && s.day.Try == nil && key.Matches(msg, a.km.up):
		s.cursor, s.confirm = (s.cursor+len(opts)-1)%len(opts), false
	case s.choosing && s.day.Try == nil && key.Matches(msg, a.km.down):
		s.cursor, s.confirm = (s.cursor+1)%len(opts), false
	case s.choosing && s.day.Try == nil && key.Matches(msg, a.km.enter):
		switch {
		case a.account() == "":
			s.err = "Guests can look at the puzzle, but answering needs an SSH key (your key is your account)."
		case s.busy:
		case !s.confirm:
			s.confirm = true
		default:
			s.confirm, s.busy = false, true
			pz, ctx, acct, game, choice := a.puzzles, a.ctx, a.account(), s.info.ID, s.cursor
			return func() tea.Msg {
				d, err := pz.Answer(ctx, game, acct, choice)
				return puzzleAnsweredMsg{game: game, day: d, err: err}
			}
		}
	}
	return nil
}

// setSize shows the board the position in the room the pane leaves it.
func (s *puzzleScreen) setSize(a *app, w, h int) {
	if s.pos == nil || s.choosing {
		return
	}
	bh := h - len(s.errLines(a, w))
	ctx := board.Context{
		Viewer: engine.SeatViewer(s.day.Puzzle.Seat), Names: s.names, Bots: s.bots, Status: s.pos.Status,
		Log: s.pos.Log, Replay: true, Width: w, Height: max(1, bh-len(s.intro(w))),
	}
	s.board.SetView(s.pos.View, ctx)
	s.board.SetSize(ctx.Width, ctx.Height)
}

// errLines are the screen's error, wrapped to w.
func (s *puzzleScreen) errLines(a *app, w int) []string {
	var lines []string
	if s.err != "" {
		lines = append(lines, widget.WrapIndent("! "+s.err, w, " ", "   ")...)
		for i := range lines {
			lines[i] = a.st.errText.Render(lines[i])
		}
	}
	return lines
}

func (s *puzzleScreen) body(a *app, w, h int) []string {
	lines := s.errLines(a, w)
	bh := h - len(lines)
	var main []string
	switch {
	case s.pos == nil:
		main = []string{"", " " + a.st.dim.Render("Rebuilding the position…")}
	case s.choosing:
		main = s.answerPane(a, w)
	default:
		main = s.positionPane(a, w, bh)
	}
	return wrapBlock(strings.Join(append(fitBlock(strings.Join(main, "\n"), w, bh), lines...), "\n"), w, h)
}

// intro says whose seat the puzzle is and what to do, wrapped to w.
func (s *puzzleScreen) intro(w int) []string {
	return widget.WrapIndent(fmt.Sprintf("You are %s, about to move: which move tells you the most? (enter to choose)", s.seatName()), w, " ", " ")
}

// positionPane draws the board as the puzzle's seat saw it (laid out by
// setSize), and what to do.
func (s *puzzleScreen) positionPane(a *app, w, h int) []string {
	intro := s.intro(w)
	out := fitBlock(s.board.View(), w, max(1, h-len(intro)))
	for _, l := range intro {
		out = append(out, a.st.strong.Render(l))
	}
	return out
}

// answerPane lists the moves to choose from, or once answered, every
// move's worth with the best and the player's choice marked.
func (s *puzzleScreen) answerPane(a *app, w int) []string {
	p := s.day.Puzzle
	out := []string{""}
	for _, l := range widget.WrapIndent(fmt.Sprintf("You are %s. You knew: %s.", s.seatName(), textsafe.Clean(p.Knew, 300).String()), w, " ", " ") {
		out = append(out, a.st.dim.Render(l))
	}
	out = append(out, "")
	if s.day.Try == nil {
		out = append(out, " "+a.st.strong.Render("Which move tells you the most?"))
		for i, o := range p.Options {
			mark, label := "   ", textsafe.Clean(o.Label, 200).String()
			if i == s.cursor {
				mark, label = " ▸ ", a.st.strong.Render(label)
			}
			out = append(out, widget.Truncate(mark+label, w, "…"))
		}
		switch {
		case s.busy:
			out = append(out, "", " "+a.st.dim.Render("Recording your answer…"))
		case s.confirm:
			out = append(out, "", " "+a.st.strong.Render("Press enter again to answer with this move: one try a day."))
		}
		return out
	}
	t := s.day.Try
	verdict := "✗ Not the best move."
	if t.Solved {
		verdict = "✓ Solved: the best move."
	}
	out = append(out, " "+a.st.strong.Render(verdict))
	rows := make([][]string, 0, len(p.Options))
	for i, o := range p.Options {
		rows = append(rows, []string{textsafe.Clean(o.Label, 60).String(), fmt.Sprintf("%.2f", o.Bits), s.day.Mark(i)})
	}
	tb := table.New().Border(lipgloss.HiddenBorder()).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).BorderHeader(false).BorderColumn(false).
		Headers("move", "bits", "").Rows(rows...).
		StyleFunc(func(row, col int) lipgloss.Style {
			st := lipgloss.NewStyle().PaddingRight(2)
			if row == table.HeaderRow {
				return st.Inherit(a.st.dim)
			}
			return st
		})
	for _, l := range strings.Split(tb.Render(), "\n") {
		out = append(out, " "+widget.Truncate(l, w-1, "…"))
	}
	st := s.day.Streak
	out = append(out, "", fmt.Sprintf(" Streak %s (best %s) · solved %d of %s",
		words.Count(st.Current, "day", "days"), words.Count(st.Best, "day", "days"), st.Solved, words.Count(st.Tried, "try", "tries")))
	var names []string
	for _, sv := range s.day.Solvers {
		names = append(names, textsafe.Clean(sv.Handle, 16).String())
	}
	solvers := fmt.Sprintf("Solved today by %d of %d", len(s.day.Solvers), s.day.Answered)
	if len(names) > 0 {
		solvers += ", first to last: " + strings.Join(names, ", ")
	}
	out = append(out, widget.WrapIndent(solvers, w, " ", "   ")...)
	out = append(out, widget.WrapIndent(fmt.Sprintf("(from game %s, move %d: press V to replay it and see what followed)", p.GameID, p.Move+1), w, " ", "   ")...)
	return out
}

func (s *puzzleScreen) shortHelp(a *app) []key.Binding {
	ks := []key.Binding{withHelp(a.km.tab, "tab", "position/moves")}
	if s.choosing && s.day.Try == nil {
		ks = append(ks, withHelp(a.km.up, "↑/↓", "move"), withHelp(a.km.enter, "enter", "answer"))
	} else if !s.choosing {
		ks = append(ks, withHelp(a.km.enter, "enter", "choose"))
	}
	if s.day.Try != nil {
		ks = append(ks, a.km.replayGame)
	}
	return append(ks, a.km.back)
}

// PositionText draws a puzzle's position as its seat saw it, as plain text
// w cells wide and at most h lines, for the `puzzle` command without a
// terminal: the same board a session draws, without colours.
func PositionText(p storage.Puzzle, pos puzzle.Position, w, h int) []string {
	st, km := newStyles(true), newKeys()
	b := newBoard(p.Game, &st.board, &km.board)
	if b == nil {
		return nil
	}
	var names []string
	var bots []bool
	for i, pl := range pos.Game.Record.Players {
		name := pl.Name
		if i < len(pos.Game.Seats) && pos.Game.Seats[i].Handle != "" {
			name = pos.Game.Seats[i].Handle
		}
		names = append(names, textsafe.Clean(name, 16).String())
		bots = append(bots, pl.Bot)
	}
	b.SetView(pos.View, board.Context{Viewer: engine.SeatViewer(p.Seat), Names: names, Bots: bots, Status: pos.Status,
		Log: pos.Log, Replay: true, Width: w, Height: h})
	var out []string
	for _, l := range fitBlock(b.View(), w, h) {
		out = append(out, strings.TrimRight(ansi.Strip(l), " "))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// restyle makes the board again with the session's new styles.
func (s *puzzleScreen) restyle(a *app) {
	if b := newBoard(s.info.ID, &a.st.board, &a.km.board); b != nil {
		s.board = b
	}
}
