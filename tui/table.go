package tui

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/tui/board"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// tableScreen is one table: its waiting room, the game board while it is
// played, the result, and the chat. Everything drawn comes from the latest
// lobby.TableView; everything done goes back through the Conn.
type tableScreen struct {
	plainScreen

	conn    tableConn
	view    lobby.TableView
	loaded  bool
	board   board.Board
	boardOf string // game id the board draws
	// ctx is what the board is told about view besides its size: the
	// seats' handles are sanitised once per view, not on every frame.
	ctx board.Context

	chat     widget.Field
	chatOpen bool

	confirmLeave bool
	err          string
	ended        string    // why the connection ended, once it has
	busy         bool      // a move is on its way to the table
	tickAt       time.Time // when the countdown tick on its way arrives; zero when none is
	tickSeq      int       // the latest tick sent; earlier ones are stale
	// moveSecs is the whole seconds left for this player's awaited move,
	// shown in the strip in the last turnWarning of a clock; -1 hides it.
	moveSecs int

	// ratingsOf is the finished game whose rating changes were asked for;
	// ratings says them ("" for a game that changed none).
	ratingsOf string
	ratings   string

	// stripKey is what the strip in stripLines was drawn from; a frame
	// asks for the strip three times (the board's size, its layout, the
	// body), and a change of any of these draws it again.
	stripKey   stripKey
	stripLines []string
	// code, shownID and titleText are the table's code, the finished
	// game's id and the title, as drawn (made in refresh).
	code, shownID, titleText string
	rawCode, rawID           string // the view's code and id they were made from

	// keys is the key bar's list as shortHelp last made it, from keysKey.
	keysKey keysKey
	keys    []key.Binding
	// keysRoom is keys at its whole capacity, written over when the list
	// changes.
	keysRoom []key.Binding
	// fits is the board's lines as last fitted to the screen's width.
	fits lineFits
	// watching is the title's "N watching" for watchingN spectators.
	watching  string
	watchingN int
}

// stripKey is everything strip draws from but the chat field, which is
// never remembered (see strip): the view (by version: a table's view
// changes only with its version), the screen's own notes and the looks.
type stripKey struct {
	st                             *styles
	version                        uint64
	w                              int
	ended, err, ratings, ratingsOf string
	confirmLeave                   bool
	moveSecs                       int
}

// Messages with the answers of the table to this screen's requests.
type (
	actDoneMsg struct {
		conn tableConn
		err  error
	}
	chatSentMsg struct {
		conn tableConn
		err  error
	}
)

func newTableScreen(a *app, c tableConn) *tableScreen {
	s := &tableScreen{conn: c, chat: newInput("say something", 200), moveSecs: -1}
	s.chat.Blur()
	s.refresh(a)
	return s
}

// refresh pulls the latest view; it reports false when nothing changed, so
// a coalesced duplicate notification costs no redraw.
func (s *tableScreen) refresh(a *app) bool {
	v := s.conn.View()
	if s.loaded && v.Version == s.view.Version {
		return false
	}
	s.view, s.loaded = v, true
	s.ctx = boardContextAfter(v, 0, 0, s.ctx)
	// What the frame says of the view, sanitised once per view rather
	// than on every frame (a frame asks for the game's id three times).
	if v.Code != s.rawCode || v.GameID != s.rawID || s.code == "" {
		s.rawCode, s.rawID = v.Code, v.GameID
		s.code, s.shownID = formatCode(v.Code), gameIDText(v.GameID)
	}
	s.titleText = s.makeTitle()
	s.syncBoard(a)
	return true
}

func (s *tableScreen) syncBoard(a *app) {
	v := &s.view
	if v.Board == nil {
		return
	}
	if s.board == nil || s.boardOf != v.Game.ID {
		s.board = newBoard(v.Game.ID, &a.st.board, &a.km.board)
		s.boardOf = v.Game.ID
	}
	if s.board != nil {
		w, h := s.boardSize(a)
		s.board.SetView(v.Board, s.boardContext(w, h))
		s.tellBusy()
	}
}

// setBusy records whether a move is on its way to the table and tells the
// board.
func (s *tableScreen) setBusy(busy bool) {
	s.busy = busy
	s.tellBusy()
}

// quietReturn takes a move's return when it changes nothing on screen —
// it was accepted, and no "wait for your move" note waits for it — and
// reports whether it did. Being busy is never drawn (it only holds keys
// back) and the move itself shows through the table's change, so the
// frame is not drawn again: every move came back to its mover's screen as
// one more whole frame, a sixth of the frames a table drew.
func (s *tableScreen) quietReturn(msg actDoneMsg) bool {
	if msg.conn != s.conn || msg.err != nil || s.err == waitForMove {
		return false
	}
	s.setBusy(false)
	return true
}

// tellBusy tells the board whether to hold back keys that could make a
// move: only while one is on its way and the viewer plays a game in
// progress (elsewhere the board's moves are refused anyway, and its other
// keys, such as the notepad's, work as ever).
func (s *tableScreen) tellBusy() {
	if s.board != nil {
		s.board.SetBusy(s.busy && s.view.Phase == lobby.Playing && s.seated())
	}
}

// boardSize is the space left for the board under the title and above the
// strip (chat, notices) and the key bar.
func (s *tableScreen) boardSize(a *app) (int, int) {
	return a.width, max(1, a.height-3-keyBarHeight-len(s.strip(a, a.width)))
}

// boardContext is s.ctx for a board of w×h.
func (s *tableScreen) boardContext(w, h int) board.Context {
	c := s.ctx
	c.Width, c.Height = w, h
	return c
}

// closed is called when the connection ended from the other side.
func (s *tableScreen) closed(a *app, reason string) {
	reason = textsafe.Cut(reason, 120)
	if reason == "" {
		reason = "The table closed."
	}
	s.ended = reason
	s.chatOpen = false
}

func (s *tableScreen) close() {
	if s.ended == "" {
		s.conn.Leave()
		s.ended = "You left the table."
	}
}

func (s *tableScreen) seated() bool { return s.view.You.Kind == engine.ViewerSeat }

// lastPerson reports whether the viewer is the only person connected to
// the game: the others are bots or have gone, so leaving leaves nobody.
func (s *tableScreen) lastPerson() bool {
	for i, sv := range s.view.Seats {
		if sv.Connected && !sv.Bot && !s.view.You.IsSeat(engine.Seat(i)) {
			return false
		}
	}
	return s.seated()
}

// leaveOutcome says what becomes of the game if the player leaves it now
// and does not come back: exactly what the lobby will do when the seat's
// grace runs out (lobby: graceOver), and how long that is.
func (s *tableScreen) leaveOutcome() string {
	held := heldFor(s.view.Grace)
	switch {
	case s.lastPerson():
		// Nobody is connected to play on: the game is given up, nothing is
		// recorded, no rating moves.
		return "You are the last person playing: unless you or another player come back within " +
			held + ", the game is abandoned and not recorded."
	case s.view.NoBot:
		// This game has no bots to take the seat: it ends for everyone.
		return "Your seat is held for " + held + "; if you do not come back by then, no bot can take it, " +
			"so the game ends for everyone, abandoned and not recorded."
	case s.view.Rated:
		return "Your seat is held for " + held + "; if you do not come back by then, a bot plays it and the game counts as a loss."
	default:
		return "Your seat is held for " + held + "; if you do not come back by then, a bot plays it."
	}
}

func (s *tableScreen) quitNeedsConfirm() bool {
	return s.ended == "" && s.seated() && s.view.Phase == lobby.Playing
}

func (s *tableScreen) capturing() bool {
	return s.chatOpen || (s.board != nil && s.board.Capturing())
}

func (s *tableScreen) setError(m string) { s.err = m; s.setBusy(false) }

// title is the title bar's text, made when the view came (refresh).
func (s *tableScreen) title(a *app) string { return s.titleText }

// makeTitle says the game, the table and whose turn it is.
func (s *tableScreen) makeTitle() string {
	// Written into one builder: the title changes with every move.
	v := s.view
	var b strings.Builder
	b.Grow(len(v.Game.Name) + len(s.code) + 64)
	b.WriteString(v.Game.Name)
	if v.Code != "" {
		b.WriteString(" · table ")
		b.WriteString(s.code)
	}
	switch v.Phase {
	case lobby.Waiting:
		b.WriteString(" · waiting for players")
	case lobby.Playing:
		b.WriteString(" · turn ")
		b.WriteString(strconv.Itoa(v.Status.Turn))
		b.WriteString(" · ")
		s.writeTurnText(&b)
	case lobby.Finished:
		b.WriteString(" · finished")
	case lobby.Broken:
		b.WriteString(" · stopped")
	}
	return b.String()
}

// writeTurnText writes whose move it is, from this viewer's point of
// view, to b.
func (s *tableScreen) writeTurnText(b *strings.Builder) {
	v := s.view
	if len(v.Status.Active) == 0 {
		return
	}
	for _, seat := range v.Status.Active {
		if v.You.IsSeat(seat) {
			b.WriteString("your turn")
			return
		}
	}
	for i, seat := range v.Status.Active {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s.name(seat))
	}
	b.WriteString("'s turn")
}

func (s *tableScreen) name(seat engine.Seat) string {
	if int(seat) >= 0 && int(seat) < len(s.ctx.Names) {
		return s.ctx.Names[seat] // the handle, sanitised as the view came
	}
	return fmt.Sprintf("seat %d", seat+1)
}

func (s *tableScreen) titleRight(a *app) string {
	if n := s.view.Spectators; n > 0 {
		if n != s.watchingN || s.watching == "" {
			s.watchingN, s.watching = n, strconv.Itoa(n)+" watching" // once per count, not per frame
		}
		return s.watching
	}
	if !s.seated() {
		return "watching"
	}
	return a.id.Handle
}

func (s *tableScreen) update(a *app, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case actDoneMsg:
		if msg.conn != s.conn {
			return nil
		}
		s.setBusy(false)
		if s.err == waitForMove {
			s.err = "" // the wait is over
		}
		if msg.err != nil {
			text := a.userError(msg.err, "The table did not answer; try again.")
			if s.board != nil && s.view.Phase != lobby.Waiting {
				s.board.SetError(text) // shown beside the move it refuses
			} else {
				s.err = text
			}
		}
		return nil
	case chatSentMsg:
		if msg.conn == s.conn && msg.err != nil {
			s.err = a.userError(msg.err, "Your message was not sent; try again.")
		}
		return nil
	case tea.KeyPressMsg:
		return s.key(a, msg)
	case tea.PasteMsg:
		if s.chatOpen {
			s.chat.Update(msg)
			return nil
		}
	}
	return nil
}

func (s *tableScreen) key(a *app, msg tea.KeyPressMsg) tea.Cmd {
	if s.ended != "" {
		if key.Matches(msg, a.km.back) || key.Matches(msg, a.km.enter) {
			return a.leaveTable()
		}
		return nil
	}
	if s.confirmLeave {
		switch {
		case key.Matches(msg, a.km.yes):
			return a.leaveTable()
		case key.Matches(msg, a.km.no):
			s.confirmLeave = false
		}
		return nil
	}
	if s.chatOpen {
		switch {
		case key.Matches(msg, a.km.back):
			s.chatOpen = false
			s.chat.Blur()
			return nil
		case key.Matches(msg, a.km.enter):
			text := strings.TrimSpace(s.chat.Value())
			s.chat.SetValue("")
			s.chatOpen = false
			s.chat.Blur()
			if text == "" {
				return nil
			}
			c := s.conn
			return func() tea.Msg { return chatSentMsg{conn: c, err: c.Chat(text)} }
		}
		s.chat.Update(msg)
		return nil
	}
	s.err = ""
	boardModal := s.board != nil && (s.board.Capturing() || s.board.Overlay())
	if !boardModal {
		switch {
		case key.Matches(msg, a.km.chat):
			s.chatOpen = true
			s.chat.Focus()
			return nil
		case key.Matches(msg, a.km.back):
			if s.quitNeedsConfirm() {
				s.confirmLeave = true
				return nil
			}
			return a.leaveTable()
		}
		switch s.view.Phase {
		case lobby.Waiting:
			return s.waitingKey(a, msg)
		case lobby.Finished:
			switch {
			case key.Matches(msg, a.km.rematch) && s.seated():
				return s.call(func(c tableConn) error { return c.Rematch() })
			case key.Matches(msg, a.km.replayGame) && s.gameID() != "":
				return a.openReplay(s.gameID())
			}
		}
	}
	if s.board == nil || s.view.Phase == lobby.Waiting {
		return nil
	}
	if s.view.Phase != lobby.Playing || !s.seated() {
		_, cmd := s.board.Update(msg) // the notepad still works; moves are refused
		return cmd
	}
	action, cmd := s.board.Update(msg)
	if board.IsHeld(action) {
		// The board held back a key that could make a move while the last
		// one is on its way (SetBusy): it changed nothing.
		s.err = waitForMove
		return cmd
	}
	if action == nil {
		return cmd
	}
	if s.busy {
		// A busy board made a move instead of holding the key back: say
		// so rather than drop it silently. (A board bug: see SetBusy.)
		a.logger.Warn("board made a move while one was on its way", "game", s.boardOf, "key", msg.String())
		s.err = waitForMove
		return cmd
	}
	s.setBusy(true)
	c := s.conn
	return tea.Batch(cmd, func() tea.Msg { return actDoneMsg{conn: c, err: c.Act(action)} })
}

// leaveTable closes the table screen and goes home, or back to the public
// tables or the Watch list when it was opened from one (the Watch list
// freshly read, as the table watched may have ended): never back to the
// form that made the table (or the code that joined it), where a stray
// enter would make another table.
func (a *app) leaveTable() tea.Cmd {
	a.pop()
	switch top := a.top().(type) {
	case *tablesScreen:
		return nil
	case *watchScreen:
		top.busy = false
		return top.load(a)
	}
	a.goHome()
	if h, ok := a.top().(*homeScreen); ok {
		h.cursor = 0
	}
	return nil
}

// waitForMove is said when a key would make a move before the last one
// has been answered.
const waitForMove = "Wait a moment: your last move is still being sent."

func (s *tableScreen) waitingKey(a *app, msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, a.km.ready) && s.seated():
		ready := !s.myReady()
		return s.call(func(c tableConn) error { return c.SetReady(ready) })
	case key.Matches(msg, a.km.start) && s.view.Host:
		return s.call(func(c tableConn) error { return c.Start() })
	}
	return nil
}

// call runs a table request off the event loop and reports its error.
func (s *tableScreen) call(f func(c tableConn) error) tea.Cmd {
	c := s.conn
	return func() tea.Msg { return actDoneMsg{conn: c, err: f(c)} }
}

func (s *tableScreen) myReady() bool {
	if !s.seated() || int(s.view.You.Seat) >= len(s.view.Seats) {
		return false
	}
	return s.view.Seats[s.view.You.Seat].Ready
}

// setSize gives the board the room the strip leaves under the title, as
// body will draw it.
func (s *tableScreen) setSize(a *app, w, h int) {
	if h <= 0 || s.board == nil || s.view.Phase == lobby.Waiting || s.view.Phase == lobby.Broken {
		return
	}
	s.board.SetSize(w, max(1, h-len(s.strip(a, w))))
}

// body is the board (or the waiting room) and the strip under it, fitted
// line by line: the board's lines are fitted already, so they are never
// joined and split again.
func (s *tableScreen) body(a *app, w, h int) []string {
	if h <= 0 {
		return nil
	}
	lines, strip := s.boardLines(a, w, h)
	for _, l := range strip {
		for part := range strings.SplitSeq(l, "\n") {
			lines = append(lines, fitLine(part, w))
		}
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return lines
}

// boardLines are the board (or the waiting room, or a message) fitted to w
// columns and the room the strip leaves, and the strip, not yet fitted.
func (s *tableScreen) boardLines(a *app, w, h int) (lines, strip []string) {
	strip = s.strip(a, w)
	var main string
	switch {
	case s.view.Phase == lobby.Waiting:
		main = s.waitingBody(a, w)
	case s.view.Phase == lobby.Broken:
		main = "\n  " + a.st.errText.Render("! This table stopped after an internal error; the game cannot go on.") +
			"\n  Sorry. Press esc to go back and start another one."
	case s.board == nil && s.view.Board != nil:
		main = "\n  This server has no screen for " + s.view.Game.Name + " yet."
	case s.board == nil:
		main = "\n  Waiting for the table…"
	default:
		if lb, ok := s.board.(board.Lines); ok {
			lines, fitted := lb.ViewLines(), math.MaxInt
			if fb, ok := s.board.(board.Fitted); ok {
				fitted = fb.FittedFrom(w)
			}
			return s.fits.block(lines, w, max(0, h-len(strip)), fitted), strip
		}
		main = s.board.View() // laid out by setSize
	}
	if s.view.Phase == lobby.Waiting || s.board == nil {
		return wrapBlock(main, w, max(0, h-len(strip))), strip
	}
	return fitBlock(main, w, max(0, h-len(strip))), strip
}

// strip is the few lines under the board: chat, notices, the result and
// how to replay it. Every line is wrapped by words to w cells, so nothing
// is cut off at 80 columns.
//
// The strip is remembered by its inputs (stripKey) while the chat is
// closed; callers must not change the lines.
func (s *tableScreen) strip(a *app, w int) []string {
	if s.chatOpen {
		return s.drawStrip(a, w)
	}
	k := stripKey{st: a.st, version: s.view.Version, w: w, ended: s.ended, err: s.err,
		ratings: s.ratings, ratingsOf: s.ratingsOf, confirmLeave: s.confirmLeave, moveSecs: s.moveSecs}
	if s.stripLines == nil || k != s.stripKey {
		s.stripKey, s.stripLines = k, s.drawStrip(a, w)
		if s.stripLines == nil {
			s.stripLines = []string{}
		}
	}
	return s.stripLines[:len(s.stripLines):len(s.stripLines)]
}

// drawStrip draws the strip (see strip).
func (s *tableScreen) drawStrip(a *app, w int) []string {
	var out []string
	paint := a.paints()
	say := func(p *widget.Painter, text string) {
		for _, l := range widget.WrapIndent(text, w, " ", " ") {
			out = append(out, p.Render(l))
		}
	}
	switch {
	case s.ended != "":
		say(&paint.notice, s.ended+" Press esc to go home.")
	case s.confirmLeave:
		q := "Leave this game? "
		if s.view.Rated && !s.lastPerson() && !s.view.NoBot {
			q = "Leave this rated game? "
		}
		say(&paint.strong, q+s.leaveOutcome()+" y/n")
	case s.err != "":
		say(&paint.errText, "! "+s.err)
	case s.view.Phase == lobby.Finished && s.view.Result != nil:
		say(&paint.strong, textsafe.Cut(s.view.Result.Summary, 300))
		if s.view.Unsaved != "" {
			say(&paint.notice, textsafe.Cut(s.view.Unsaved, 300))
		} else if id := s.gameID(); id != "" {
			if s.ratings != "" && s.ratingsOf == id {
				say(&paint.strong, s.ratings)
			}
			say(&paint.dim, "Game "+id+" is saved: press V to replay it now, choose Replay a game at home later, or run "+a.ssh+" replay "+id)
		}
	case s.view.Notice != "":
		say(&paint.notice, textsafe.Cut(s.view.Notice, 300))
	}
	if s.ended == "" && s.moveSecs >= 0 && s.view.Phase == lobby.Playing && !s.view.Deadline.IsZero() {
		// A glyph with the number, not colour alone: the turn clock is
		// about to have a bot move for this player.
		say(&paint.strong, fmt.Sprintf("⧗ %d s left for your move", s.moveSecs))
	}
	if n := len(s.view.Chat); n > 0 && s.view.Phase != lobby.Waiting {
		// The last message under the board, wrapped by words in two lines
		// at most (it was cut at the window's edge, and the end of a long
		// message could not be read at all); while the chat is open, the
		// last three in full.
		show, most := 1, 2
		if s.chatOpen {
			show, most = min(n, 3), math.MaxInt
		}
		var lines []string
		for _, c := range s.view.Chat[n-show:] {
			msg := widget.WrapIndent(paint.chatLine(c), w, " ", "   ")
			lines = append(lines, widget.CutTail(msg, min(most, len(msg)), w)...)
		}
		out = append(lines, out...)
	}
	if s.chatOpen {
		chat := s.chat // drawn in the width there is, without changing the field
		chat.Width = max(10, w-12)
		out = append(out, " chat "+chat.View())
	}
	return out
}

// gameID is the finished game's id, safe to draw; empty when there is none.
func (s *tableScreen) gameID() string { return s.shownID }

func chatLine(a *app, c lobby.ChatLine) string { return a.paints().chatLine(c) }

// chatLine is one line of chat: the handle in strong, then the text.
func (p *textPaints) chatLine(c lobby.ChatLine) string {
	return p.strong.Render(c.Handle.Cut(16).String()+":") + " " + c.Text.Cut(200).String()
}

func (s *tableScreen) waitingBody(a *app, w int) string {
	v := s.view
	paint := a.paints() // the waiting room is drawn again at every change of its seats
	var b strings.Builder
	vis := "private"
	if v.Public {
		vis = "public"
	}
	b.WriteString("\n  " + paint.strong.Render(v.Game.Name) + " · " + vis + " table · code " + paint.strong.Render(s.code) + "\n")
	b.WriteString("  " + paint.dim.Render("Share the code: friends choose Join with a code on the home screen,") + "\n")
	b.WriteString("  " + paint.dim.Render("or connect with: "+a.ssh+" join "+s.code) + "\n\n")
	for i, seat := range v.Seats {
		mark := "  "
		if v.You.IsSeat(engine.Seat(i)) {
			mark = "▸ "
		}
		name := seat.Handle.Cut(16).String()
		state := ""
		switch {
		case name == "":
			name, state = paint.dim.Render("— open —"), ""
		case seat.Bot:
			state = "bot"
			if seat.BotLevel != "" {
				state += " · " + textsafe.Cut(seat.BotLevel, 12)
			}
		case !seat.Connected:
			state = "away"
		case seat.Ready:
			state = "✓ ready"
		default:
			state = "not ready"
		}
		if i == 0 {
			state += " · host"
		}
		b.WriteString(fmt.Sprintf("  %s%*d  %-18s %s\n", mark, len(strconv.Itoa(len(v.Seats))), i+1, name, state))
	}
	if len(v.Game.Options) > 0 {
		var opts []string
		for _, o := range v.Game.Options {
			opts = append(opts, o.Label+": "+v.Options[o.Key])
		}
		b.WriteString("\n  " + paint.dim.Render(strings.Join(opts, " · ")) + "\n")
	}
	b.WriteString("\n")
	switch {
	case !s.seated():
		b.WriteString("  You are watching. The game starts when the host says so.\n")
	case v.Host:
		// The hub refuses to start while a seated person is not ready; say
		// who the host is waiting for rather than offer a start that fails.
		var unready []string
		for i, seat := range v.Seats {
			if i != 0 && seat.Handle != "" && !seat.Bot && !seat.Ready {
				unready = append(unready, seat.Handle.Cut(16).String())
			}
		}
		if len(unready) > 0 {
			b.WriteString("  Waiting for " + strings.Join(unready, ", ") + " to press r (ready);\n")
			b.WriteString("  then press s to start: empty seats get bots.\n")
		} else {
			b.WriteString("  Press s to start: empty seats get bots.\n")
		}
	case s.myReady():
		b.WriteString("  You are ready. Waiting for the host to start.\n")
	default:
		b.WriteString("  Press r when you are ready; the host starts the game.\n")
	}
	if len(v.Chat) > 0 {
		b.WriteString("\n")
		start := max(0, len(v.Chat)-4)
		for _, c := range v.Chat[start:] {
			b.WriteString("  " + chatLine(a, c) + "\n")
		}
	}
	return b.String()
}

// helpKeys are every key of the board for the ? help; esc leaves the table.
func (s *tableScreen) helpKeys(a *app) ([]key.Binding, key.Binding) {
	var all []key.Binding
	if s.board != nil {
		for _, g := range s.board.FullHelp() {
			all = append(all, g...)
		}
	}
	return all, a.km.leave
}

func (s *tableScreen) shortHelp(a *app) []key.Binding {
	switch {
	case s.ended != "":
		return []key.Binding{a.km.back, a.km.quit}
	case s.confirmLeave:
		return []key.Binding{a.km.yes, a.km.no}
	case s.chatOpen:
		return []key.Binding{withHelp(a.km.enter, "enter", "send"), withHelp(a.km.back, "esc", "close chat")}
	}
	var boardKeys []key.Binding
	if s.board != nil && (s.view.Phase == lobby.Playing || s.view.Phase == lobby.Finished) {
		boardKeys = s.board.ShortHelp()
	}
	k := keysKey{km: a.km, phase: s.view.Phase, seated: s.seated(), host: s.view.Host, saved: s.gameID() != "",
		modal: s.board != nil && (s.board.Capturing() || s.board.Overlay()), boardKeys: len(boardKeys)}
	if len(boardKeys) > 0 {
		k.boardFirst = &boardKeys[0]
	}
	if s.keys == nil || k != s.keysKey {
		// Written over the list before, which only this screen holds
		// (the key bar reads a list and keeps its keys' encoding, not the
		// list): a seat's bar changes with every turn, and the list was
		// made anew each time.
		room := s.keysRoom[:0]
		if room == nil {
			room = make([]key.Binding, 0, len(boardKeys)+5) // at most five of the table's own
		}
		room = s.makeShortHelp(a, boardKeys, room)
		clear(room[len(room):cap(room)]) // bindings of an older list
		s.keysKey, s.keysRoom, s.keys = k, room, room[:len(room):len(room)]
	}
	return s.keys
}

// keysKey is what the table's key bar list was made from, the board's
// keys by the slice the board gave (a board that remembers its lists
// gives the same one while they stay the same).
type keysKey struct {
	km           *keys
	phase        lobby.Phase
	seated, host bool
	saved, modal bool
	boardFirst   *key.Binding
	boardKeys    int
}

// makeShortHelp is shortHelp's list once the table is neither ended nor
// asking nor chatting, with boardKeys the board's own, appended to ks.
func (s *tableScreen) makeShortHelp(a *app, boardKeys, ks []key.Binding) []key.Binding {
	switch s.view.Phase {
	case lobby.Waiting:
		if s.seated() {
			ks = append(ks, a.km.ready)
		}
		if s.view.Host {
			ks = append(ks, a.km.start)
		}
	case lobby.Playing:
		ks = append(ks, boardKeys...)
	case lobby.Finished:
		ks = append(ks, boardKeys...)
		if s.seated() {
			ks = append(ks, a.km.rematch)
		}
		if s.gameID() != "" {
			ks = append(ks, a.km.replayGame)
		}
	}
	if s.board != nil && (s.board.Capturing() || s.board.Overlay()) {
		return ks
	}
	ks = append(ks, a.km.chat, a.km.help)
	// A player in a game in play is asked before leaving and has the game's
	// keys to read; a spectator has no other way out to see (q would end
	// the whole session).
	if s.view.Phase != lobby.Playing || !s.seated() {
		ks = append(ks, a.km.leave)
	}
	return ks
}

// restyle makes the board again with the session's new styles. What the
// player had selected on it is lost: the terminal answers at once, before
// a table is usually open.
func (s *tableScreen) restyle(a *app) {
	s.board = nil
	s.syncBoard(a)
}
