// Package tui is the terminal UI of one SSH session: a Bubble Tea model with
// a stack of screens (handle entry, home, table setup, tables, history,
// replays, rules) around the per-game boards of the sub-packages. It reads
// immutable views from the lobby and sends it intents; it never decides
// anything about a game.
package tui

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/analysis"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/engine/words"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/storage"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// Size limits. Below the minimum the session shows one line asking for a
// bigger window; above the maximum it draws as if the window were that big
// (the server clamps the PTY itself, this only bounds what we lay out).
const (
	MinWidth  = 60
	MinHeight = 20
	MaxWidth  = 240
	MaxHeight = 80
)

// AccountStore is what the UI needs from storage (storage.*DB satisfies it).
type AccountStore interface {
	Account(id string) (storage.Account, error)
	ClaimHandle(id, handle string) (storage.Account, error)
	History(accountID string, limit int) ([]storage.GameSummary, error)
	Stats(accountID string) (storage.Stats, error)
	Game(id string) (storage.FinishedGame, error)
	Leaderboard(q storage.LeaderQuery) ([]storage.Leader, error)
	Profile(handle string, recent int) (storage.Profile, error)
	FinishedGames(q storage.ListQuery) ([]storage.GameSummary, error)
}

// prefStore is a store that keeps small per-account choices (the last
// quick-play bot level of each game): storage.DB does. With a store that
// does not (a cluster's shared records), choices last for the session.
type prefStore interface {
	Preference(account, name string) (string, error)
	SetPreference(account, name, value string) error
}

// Deps are the shared services every session uses.
type Deps struct {
	Hub    *lobby.Hub
	Store  AccountStore
	Games  *engine.Registry
	Logger *slog.Logger
	// LeaderboardMinGames is how many rated games put a player on a
	// leaderboard (default 5, as the `top` command).
	LeaderboardMinGames int
	// Analyst gives replays their analysis (nil: replays have none).
	Analyst Analyst
	// Puzzles is the puzzle of the day (nil: the server has none).
	Puzzles Puzzles
}

// Analyst gives a finished game's analysis, made now when none is stored
// (*analyst.Analyst satisfies it). It may take a while: call it off the
// event loop.
type Analyst interface {
	Report(ctx context.Context, g storage.FinishedGame) (analysis.Report, error)
}

// Start says where a session begins, from the SSH command line
// (`ssh -t host join KQ7M4X`): Kind "" (home), "join" or "watch" with a table
// code, or "replay" with a game id.
type Start struct {
	Kind string
	Arg  string
}

// Session is one SSH session's identity, window and context.
type Session struct {
	// Identity of the player. An empty Handle makes the first screen ask for
	// one; guests get a generated handle and a note that history needs a key.
	Identity lobby.Identity
	// Width and Height are the initial window size (already clamped by the server).
	Width, Height int
	// Start is where the session begins.
	Start Start
	// Context is the SSH session's context: every Cmd that waits selects on it.
	Context context.Context
	// Colours is what the terminal can show; with 16 colours (ANSI) the
	// greys and news use the terminal theme's own (see basicPalette).
	Colours colorprofile.Profile
	// SSH is the command that opens this arcade in a terminal, as players
	// run it ("ssh -t -p 2222 play.example.org"): the hints add a command
	// to it ("… replay ID"). Empty: "ssh -t HOST".
	SSH string
	// Send hands a message to the session's running program, waiting until
	// it is taken or the program has ended (tea.Program.Send). With it,
	// the lobby's changes and the countdowns reach the program without a
	// goroutine per session waiting for them (see mailbox); without it
	// (tests), Cmds wait.
	Send func(tea.Msg)
}

// New returns the root model of one session.
func New(deps Deps, s Session) tea.Model {
	var h hubAPI
	if deps.Hub != nil {
		h = lobbyHub{deps.Hub}
	}
	return newApp(deps, h, s)
}

// screen is one page of the UI, and everything the session asks of it: in
// the spirit of soft-serve's components, a model with its keys and size
// (drawn in the w×h it is given). Screens are pointers that the app
// mutates only from its Update. Most screens embed plainScreen for the
// answers that are the same almost everywhere.
type screen interface {
	// title names the screen in the title bar; titleRight is the bar's
	// right end.
	title(a *app) string
	titleRight(a *app) string
	// update handles a message; navigation goes through the app.
	update(a *app, msg tea.Msg) tea.Cmd
	// setSize tells the screen the size its body is about to be drawn at:
	// a screen lays itself out here (a board's size), in Update, so that
	// drawing changes nothing. body then draws the screen as exactly h
	// lines of at most w cells.
	setSize(a *app, w, h int)
	body(a *app, w, h int) []string
	// shortHelp lists the keys that work now, for the key bar; helpKeys
	// are the keys the ? help lists before those, and the key that goes
	// back.
	shortHelp(a *app) []key.Binding
	helpKeys(a *app) (more []key.Binding, back key.Binding)
	// capturing reports whether a text field has focus.
	capturing() bool
	// setError shows how the screen's last request ended ("" when it
	// succeeded): either way the request is done, so the screen is no
	// longer busy.
	setError(msg string)
	// restyle makes again what the screen holds drawn with the session's
	// styles (a board) when they change (the terminal's background).
	restyle(a *app)
	// close releases what the screen holds in the lobby (a seat, a place
	// in a queue) when it is left or the session ends; quitNeedsConfirm
	// says whether quitting must be confirmed first (a game in play).
	close()
	quitNeedsConfirm() bool
}

// plainScreen is embedded by screens for the usual answers: the session's
// handle and the tables online at the title bar's right, nothing to lay
// out before drawing or to make again in new styles, no keys in the help but the key bar's, esc goes
// back, no request to answer, nothing held in the lobby.
type plainScreen struct{}

func (plainScreen) setSize(*app, int, int) {}
func (plainScreen) restyle(*app)           {}

func (plainScreen) titleRight(a *app) string { return a.defaultTitleRight() }
func (plainScreen) helpKeys(a *app) ([]key.Binding, key.Binding) {
	return nil, a.km.back
}
func (plainScreen) setError(string)        {}
func (plainScreen) close()                 {}
func (plainScreen) quitNeedsConfirm() bool { return false }

// defaultTitleRight is the handle and how many tables are online.
func (a *app) defaultTitleRight() string {
	if a.hub == nil {
		return a.id.Handle
	}
	_, tables := a.hub.Online()
	count := words.Count(tables, "table", "tables")
	if a.id.Handle == "" { // choosing one: no "· 0 tables" with nothing before it
		return count
	}
	return a.id.Handle + " · " + count
}

// app is the root model.
type app struct {
	hub     hubAPI
	store   AccountStore
	games   *engine.Registry
	logger  *slog.Logger
	analyst Analyst
	puzzles Puzzles
	// minRated is Deps.LeaderboardMinGames.
	minRated int
	ctx      context.Context
	id       lobby.Identity
	ssh      string // Session.SSH
	start    Start

	width, height int
	// st and km are shared by every session (see sharedLooks): read them,
	// never change them.
	st *styles
	km *keys

	stack       []screen
	showHelp    bool
	confirmQuit bool
	quitting    bool
	// handoff, once set, is where the session goes next: a table (or the
	// player's seat) on another node of the cluster. The program quits and
	// the server carries the session there.
	handoff *lobby.ElsewhereError

	// frame is the screen as last drawn, by draw in Update (and Init)
	// after a message that changed something, so that View only shows it
	// and an idle session costs nothing to draw; drawn counts the frames.
	frame frameLines
	drawn int
	parts frameParts // pieces of the frame around the body, remembered

	// pump waits for a table's next change; tests replace it to deliver
	// changes by hand.
	pump func(ctx context.Context, c tableConn) tea.Cmd
	// seekPump waits for a seek's next change (waitSeek); tests replace it.
	seekPump func(ctx context.Context, s seekConn) tea.Cmd
	// lobbyWait is set while a wait for lobby changes is on its way (only
	// while home is shown; see watchLobby). waitLobby makes that wait;
	// tests replace it to deliver changes by hand.
	lobbyWait bool
	// quickLevels are the quick-play bot levels chosen in this session, by
	// game (a guest's are kept nowhere else).
	quickLevels map[string]string
	waitLobby   func(ctx context.Context, ch <-chan struct{}, calm time.Duration) tea.Cmd
	// mail, when the session has Send, is how the lobby and timers reach
	// the program: pump, after and the lobby's wait then post to it.
	mail *mailbox
	// lobbyCancel drops the last wait for a lobby change given to the hub
	// (notifyLobby), when the session ends.
	lobbyCancel func()
	// now and after are the clock of countdowns (time.Now and tea.Tick);
	// tests replace them so that nothing waits on real time.
	now   func() time.Time
	after func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd
}

func newApp(deps Deps, h hubAPI, s Session) *app {
	ctx := s.Context
	if ctx == nil {
		ctx = context.Background()
	}
	logger := deps.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	games := deps.Games
	if games == nil {
		games = engine.NewRegistry()
	}
	a := &app{
		hub: h, store: deps.Store, games: games, logger: logger, ctx: ctx, analyst: deps.Analyst, puzzles: deps.Puzzles,
		id: s.Identity, start: s.Start, ssh: cmp.Or(s.SSH, "ssh -t HOST"),
		st: &looksFor(true, s.Colours == colorprofile.ANSI).st, km: &looksFor(true, false).km,
		pump: waitTable, seekPump: waitSeek, waitLobby: waitLobby, now: time.Now, after: tea.Tick,
		quickLevels: map[string]string{},
		minRated:    cmp.Or(deps.LeaderboardMinGames, 5),
	}
	if s.Send != nil {
		a.mail = newMailbox(s.Send)
		a.pump, a.seekPump, a.after = a.notifyTable, a.notifySeek, a.afterNote
	}
	a.resize(s.Width, s.Height)
	if a.id.Guest && a.id.Handle == "" {
		a.id.Handle = guestHandle()
	}
	if a.id.Handle == "" {
		a.stack = []screen{newHandleScreen(a, a.id.Account != "")}
	} else {
		a.stack = []screen{newHomeScreen()}
	}
	a.draw()
	return a
}

// guestHandle makes a handle like guest-7k3 for a session without a key.
func guestHandle() string {
	const alphabet = "23456789abcdefghjkmnpqrstuvwxyz"
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return "guest-" + string(b)
}

func (a *app) resize(w, h int) {
	a.width = max(0, min(w, MaxWidth))
	a.height = max(0, min(h, MaxHeight))
}

// looks are what every session draws with: its styles, its keys and the
// help bar's settings. Nothing in them changes once made, so all sessions
// share two sets (for dark and light backgrounds) instead of holding 23 KB
// each.
type looks struct {
	st   styles
	km   keys
	help help.Model // its width is set per use (helpModel)
	bar  barLooks   // help's short styles as text around a line
}

// sharedLooks makes every set of looks once, on first use, by
// [basic][dark]: for terminals of 16 colours or more, and for light or
// dark backgrounds.
var sharedLooks = sync.OnceValue(func() *[2][2]looks {
	var all [2][2]looks
	for basic := range all {
		for dark := range all[basic] {
			l := &all[basic][dark]
			l.st, l.km, l.help = stylesFor(dark == 1, basic == 1), newKeys(), help.New()
			l.help.Styles = l.st.help
			l.help.ShortSeparator = " · "
			l.bar = newBarLooks(l.help)
		}
	}
	return &all
})

// looksFor is the shared looks for a dark or a light background, on a
// terminal of 16 colours (basic) or more.
func looksFor(dark, basic bool) *looks {
	b, d := 0, 0
	if basic {
		b = 1
	}
	if dark {
		d = 1
	}
	return &sharedLooks()[b][d]
}

// setBackground switches the session to the looks for its terminal's
// background. Everything drawn with the old ones is drawn again: the
// pieces around the body and the boards, which style as they draw.
func (a *app) setBackground(dark bool) bool {
	if a.st.dark == dark {
		return false
	}
	a.st = &looksFor(dark, a.st.basic).st
	a.parts = frameParts{}
	for _, s := range a.stack {
		s.restyle(a)
	}
	return true
}

// helpWidth is the width of the key bar under every screen.
func (a *app) helpWidth() int { return max(0, a.width-2) }

// helpModel is the help bar for this session's width.
func (a *app) helpModel() help.Model {
	h := looksFor(a.st.dark, a.st.basic).help
	h.SetWidth(a.helpWidth())
	return h
}

func (a *app) top() screen { return a.stack[len(a.stack)-1] }

// push opens s on top of the current screen.
func (a *app) push(s screen) { a.stack = append(a.stack, s); a.showHelp = false }

// pop returns to the previous screen (home never pops).
func (a *app) pop() {
	if len(a.stack) <= 1 {
		return
	}
	a.top().close()
	a.stack = a.stack[:len(a.stack)-1]
	a.showHelp = false
}

// goHome closes every screen above home.
func (a *app) goHome() {
	for len(a.stack) > 1 {
		a.pop()
	}
	if _, ok := a.stack[0].(*homeScreen); !ok {
		a.stack[0] = newHomeScreen()
	}
}

// signedIn is called once the handle is known: it opens home and whatever
// the session asked to start with.
func (a *app) signedIn() tea.Cmd {
	a.stack = []screen{newHomeScreen()}
	switch strings.ToLower(a.start.Kind) {
	case "join":
		code := a.start.Arg
		return a.openTable("Join", func(h hubAPI, id lobby.Identity) (tableConn, error) { return h.Join(id, code) })
	case "watch":
		code := a.start.Arg
		return a.openTable("Watch", func(h hubAPI, id lobby.Identity) (tableConn, error) { return h.Watch(id, code) })
	case "replay":
		return a.openReplay(a.start.Arg)
	}
	if a.hub != nil {
		if c, ok := a.hub.Resume(a.id); ok {
			return a.pushTable(c)
		}
		if e := a.hub.SeatElsewhere(a.id); e != nil {
			return a.handOff(e)
		}
	}
	return nil
}

// handOff ends the program so that the server carries the session to the
// node holding what the player asked for.
func (a *app) handOff(e *lobby.ElsewhereError) tea.Cmd {
	a.handoff = e
	return a.quit()
}

// Handoff says where the session should go once the program has ended:
// the node, what to do there ("join", "watch" or "resume") and the join
// code; ok is false for a session that simply ended.
func (a *app) Handoff() (node, kind, code string, ok bool) {
	if a.handoff == nil {
		return "", "", "", false
	}
	return a.handoff.Node, a.handoff.Kind, a.handoff.Code, true
}

// userError turns an error into a sentence for the player. Refusals from the
// rules and the lobby are already user-facing; anything else is logged and
// replaced by a generic message so internals never reach the screen.
func (a *app) userError(err error, fallback string) string {
	if err == nil {
		return ""
	}
	var ie *engine.IllegalError
	if errors.As(err, &ie) {
		return ie.Msg
	}
	a.logger.Warn("session error", "account", a.id.Account, "err", err)
	if fallback != "" {
		return fallback
	}
	return "Something went wrong on our side; try again in a moment."
}

// Init implements tea.Model. Every session asks its terminal for its background colour and draws
// with the dark looks until it answers (tea.BackgroundColorMsg).
func (a *app) Init() tea.Cmd {
	defer a.draw() // signing in may open a screen
	if a.id.Handle != "" {
		return tea.Batch(tea.RequestBackgroundColor, a.signedIn(), a.watchLobby(0))
	}
	if h, ok := a.top().(*handleScreen); ok {
		return tea.Batch(tea.RequestBackgroundColor, h.init(a))
	}
	return tea.RequestBackgroundColor
}

// Update implements tea.Model.
func (a *app) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd, changed := a.handle(msg)
	if changed {
		a.draw()
	}
	if w := a.watchLobby(0); w != nil {
		cmd = tea.Batch(cmd, w)
	}
	return a, cmd
}

// watchLobby keeps one wait for lobby changes on its way while home is the
// screen shown, so its counts and "Back to your game" stay live; calm is
// the pause before the wait. Other screens wait for nothing, so a session
// away from home costs nothing when the lobby changes.
func (a *app) watchLobby(calm time.Duration) tea.Cmd {
	if a.hub == nil || a.lobbyWait || a.quitting {
		return nil
	}
	if _, home := a.top().(*homeScreen); !home {
		return nil
	}
	a.lobbyWait = true
	if n, ok := a.hub.(lobbyNotifier); ok && a.mail != nil {
		a.notifyLobby(n, calm)
		return nil
	}
	return a.waitLobby(a.ctx, a.hub.Changed(), calm)
}

func (a *app) tooSmall() bool { return a.width < MinWidth || a.height < MinHeight }

// routed is a message that knows where it goes: a table's change, end or
// countdown beat finds the screen showing that table wherever it is on the
// stack, and an opened table opens its screen (see table_conn.go). The
// root only hands it over; changed says whether the frame must be drawn
// again.
type routed interface {
	route(a *app) (cmd tea.Cmd, changed bool)
}

func (a *app) handle(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.resize(msg.Width, msg.Height)
		return nil, true
	case tea.BackgroundColorMsg:
		return nil, a.setBackground(msg.IsDark())
	case routed:
		return msg.route(a)
	case replayLoadedMsg:
		return a.replayLoaded(msg), true
	case seekStartedMsg:
		return a.seekStarted(msg), true
	case lobbyChangedMsg:
		// Redraw with the new counts, then wait again after a calm spell.
		a.lobbyWait = false
		_, home := a.top().(*homeScreen)
		return a.watchLobby(lobbyCalm), home
	case tea.KeyPressMsg:
		return a.key(msg), true
	case actDoneMsg:
		if ts, ok := a.top().(*tableScreen); ok && ts.quietReturn(msg) {
			return nil, false
		}
	}
	return a.top().update(a, msg), true
}

func (a *app) key(msg tea.KeyPressMsg) tea.Cmd {
	if a.confirmQuit {
		switch {
		case key.Matches(msg, a.km.yes), key.Matches(msg, a.km.forceQuit):
			return a.quit()
		case key.Matches(msg, a.km.no), key.Matches(msg, a.km.quit):
			a.confirmQuit = false
		}
		return nil
	}
	if key.Matches(msg, a.km.forceQuit) {
		return a.askQuit()
	}
	if a.tooSmall() {
		if key.Matches(msg, a.km.quit) {
			return a.askQuit()
		}
		return nil
	}
	if a.showHelp {
		switch {
		case key.Matches(msg, a.km.help), key.Matches(msg, a.km.back):
			a.showHelp = false
		case key.Matches(msg, a.km.quit):
			return a.askQuit()
		}
		return nil
	}
	if !a.top().capturing() {
		switch {
		case key.Matches(msg, a.km.help):
			a.showHelp = true
			return nil
		case key.Matches(msg, a.km.quit):
			return a.askQuit()
		}
	}
	return a.top().update(a, msg)
}

// askQuit quits at once, or asks first when a game is in play.
func (a *app) askQuit() tea.Cmd {
	for _, s := range a.stack {
		if s.quitNeedsConfirm() {
			a.confirmQuit = true
			return nil
		}
	}
	return a.quit()
}

func (a *app) quit() tea.Cmd {
	a.Close()
	a.quitting = true
	return tea.Quit
}

// Close gives back what the session holds in the lobby (a seat or a place
// as a spectator), as leaving does. The server calls it once the program
// has ended, however it ended, so a player whose connection drops gets the
// seat's grace period instead of holding the seat forever.
func (a *app) Close() {
	for len(a.stack) > 1 {
		a.pop()
	}
	a.stack[0].close()
	if a.mail != nil {
		a.mail.close()
	}
	if a.lobbyCancel != nil {
		a.lobbyCancel()
	}
}

// View implements tea.Model: the frame drawn after the last message that
// changed something, its lines joined. It changes nothing.
func (a *app) View() tea.View {
	v, _ := a.ViewLines()
	v.Content = a.frame.joined()
	return v
}

// ViewLines is View with the frame as lines, which are not joined: the
// server's renderer (frame.Hook, whose LineViewer this is) writes the
// frame to the terminal line by line, and may keep them: they are never
// changed (a new frame is a new slice).
func (a *app) ViewLines() (tea.View, []string) {
	v := tea.View{AltScreen: true, WindowTitle: "Codebreakers"}
	return v, a.frame.lines
}

// draw makes the frame from the model as it is now: the screen on top is
// told its size first (setSize), then drawn.
func (a *app) draw() {
	a.render()
	a.drawn++
}

// render draws the frame into a.frame, which it leaves as it is when
// nothing on screen changed.
func (a *app) render() {
	w, h := a.width, a.height
	if a.quitting {
		a.frame.setText("")
		return
	}
	if a.tooSmall() {
		a.frame.setText(sizeMessage(w, h))
		return
	}
	s := a.top()
	bar := a.titleBar(s.title(a), s.titleRight(a), w)
	rule := a.rule(w)

	var body string
	var bodyLines []string // set instead of body by the screen, which fits its own lines
	// The key bar is one line whatever its keys (keyBarHeight).
	var keys string
	bodyH := h - 3 - keyBarHeight
	switch {
	case a.confirmQuit:
		keys = a.keyBar([]key.Binding{a.km.yes, withHelp(a.km.no, "n/esc", "stay")})
		body = lipgloss.Place(w, bodyH, lipgloss.Center, lipgloss.Center,
			a.st.strong.Render("Leave the game and quit?")+"\n\n"+
				strings.Join(widget.Wrap(a.quitOutcome(), w-4), "\n"))
	case a.showHelp:
		keys = a.keyBar([]key.Binding{withHelp(a.km.help, "?/esc", "close help"), a.km.quit})
		body = a.fullHelp(s, w, bodyH)
	default:
		// The screen is laid out first and its bar made once, after:
		// laying out may change which keys work (a notepad just opened
		// learns that it scrolls) and the bar shows the screen as drawn.
		s.setSize(a, w, bodyH)
		keys = a.keyBar(s.shortHelp(a))
		bodyLines = s.body(a, w, bodyH)
	}
	if bodyLines == nil {
		bodyLines = wrapBlock(body, w, bodyH)
	}
	// The title bar and the rules are exactly w cells and the body's lines
	// are fitted, so only the key bar is left to fit. The frame is written
	// from its pieces, not gathered into a slice of lines first.
	f := frameText{bar: bar, rule: rule, body: bodyLines, keys: a.keyLine(keys, w)}
	f.n = min(h, len(bodyLines)+4)
	a.frame.set(&f)
}

// frameText is a frame's lines as its pieces: the title bar and a rule,
// the body's lines, a rule and the key line; the first n of them. The
// lines were gathered into one slice and joined: every string of the frame
// written into a slice of pointers and cleared out of it again, work the
// collector shares in while it marks (write barriers), on every frame.
type frameText struct {
	bar, rule string
	body      []string
	keys      string
	n         int
}

// line is the frame's line i (0 ≤ i < n).
func (f *frameText) line(i int) string {
	switch {
	case i == 0:
		return f.bar
	case i == 1:
		return f.rule
	case i-2 < len(f.body):
		return f.body[i-2]
	case i-2 == len(f.body):
		return f.rule
	}
	return f.keys
}

// frameLines is the frame on screen as its lines, none holding a newline.
// The frame was kept as one string: every frame was written out whole, to
// be cut into lines again by the server's renderer, and that copying was a
// twentieth of a busy server's work. A slice of lines, once set, is never
// written again: a frame that differs gets a new one, so the renderer keeps
// the very slice it was handed (ViewLines) as the lines it shows, and the
// session and its renderer hold one slice of the frame's lines between
// them, not a copy each for the collector to scan.
type frameLines struct {
	lines []string
}

// set makes f the frame. A line equal to the one it replaces is kept as
// it was: after a key that only sent a move nothing is made at all, and
// the renderer finds each kept line the very string it has on screen, so
// comparing it costs nothing. Only a changed line is looked through for a
// newline of its own, which is cut into as many lines.
func (fl *frameLines) set(f *frameText) {
	old := fl.lines
	var lines []string // the new frame's, made at its first line that differs
	n := 0             // lines gone through so far
	for i := range f.n {
		l := f.line(i)
		if n < len(old) && old[n] == l { // kept as it was
			if lines != nil {
				lines = append(lines, l)
			}
			n++
			continue
		}
		if k := cutKeptAs(l, old[min(n, len(old)):]); k > 0 {
			if lines != nil {
				lines = append(lines, old[n:n+k]...)
			}
			n += k
			continue
		}
		if lines == nil {
			lines = append(make([]string, 0, max(f.n, len(old))), old[:n]...)
		}
		before := len(lines)
		lines = appendLines(lines, l)
		n += len(lines) - before
	}
	switch {
	case lines != nil:
		fl.lines = lines
	case n != len(old): // the frame lost lines at its end
		fl.lines = slices.Clone(old[:n])
	}
}

// cutKeptAs is how many of lines a line l with a newline of its own is,
// cut at its newlines, when they are its start; 0 when l is not kept there.
func cutKeptAs(l string, lines []string) int {
	// Such a line starts with the first line it was cut into and that
	// newline; any other changed line is told apart here.
	if len(lines) == 0 || len(l) <= len(lines[0]) || l[len(lines[0])] != '\n' || !strings.HasPrefix(l, lines[0]) {
		return 0
	}
	k := 0
	for more := true; more; k++ {
		var part string
		part, l, more = strings.Cut(l, "\n")
		if k >= len(lines) || lines[k] != part {
			return 0
		}
	}
	return k
}

// setText makes text, cut at its newlines, the frame.
func (fl *frameLines) setText(text string) {
	fl.lines = appendLines(nil, text)
}

// joined is the frame's lines joined by newlines, made anew: only View
// asks for it, and the server's sessions do not ask View.
func (fl *frameLines) joined() string { return strings.Join(fl.lines, "\n") }

// appendLines appends s's lines (strings.Split(s, "\n")) to lines. A
// frame's lines hold no newline as a rule; one that did would be shown on
// as many rows, as it was when the frame was one string.
func appendLines(lines []string, s string) []string {
	for more := true; more; {
		var line string
		line, s, more = strings.Cut(s, "\n")
		lines = append(lines, line)
	}
	return lines
}

// fullHelp draws every key of the screen and the global keys, in as many
// columns as fit the window.
func (a *app) fullHelp(s screen, w, h int) string {
	all, back := s.helpKeys(a)
	all = append(slices.Clip(all), s.shortHelp(a)...)
	all = append(all, a.km.help, back, a.km.quit, a.km.forceQuit)
	type entry struct{ k, d string }
	var entries []entry
	seen := map[entry]bool{}
	keyW, descW := 0, 0
	for _, b := range all {
		e := entry{b.Help().Key, b.Help().Desc}
		if !b.Enabled() || e.k == "" || seen[e] {
			continue
		}
		seen[e] = true
		entries = append(entries, e)
		keyW = max(keyW, ansi.StringWidth(e.k))
		descW = max(descW, ansi.StringWidth(e.d))
	}
	colW := keyW + 2 + descW + 4
	cols := max(1, (w-4)/colW)
	rows := (len(entries) + cols - 1) / cols
	var b strings.Builder
	b.WriteString("\n" + a.st.strong.Render("Keys on this screen") + "\n\n")
	for r := range rows {
		for c := range cols {
			i := c*rows + r
			if i >= len(entries) {
				break
			}
			e := entries[i]
			cell := a.st.help.FullKey.Render(padRight(e.k, keyW)) + "  " + a.st.help.FullDesc.Render(padRight(e.d, descW))
			b.WriteString(cell + "    ")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n" + a.st.dim.Render(strings.Join(widget.Wrap("Arrows and vim keys (h j k l) both work. Esc goes back; q quits (during a game you are asked first).", max(20, w-6)), "\n")))
	return lipgloss.NewStyle().Padding(0, 2).Render(b.String())
}

func padRight(s string, w int) string {
	return s + strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
}

func withHelp(b key.Binding, k, desc string) key.Binding {
	b.SetHelp(k, desc)
	return b
}

// quitOutcome says, for the quit question, what becomes of the game on top
// if the player does not come back (tableScreen.leaveOutcome), and how.
func (a *app) quitOutcome() string {
	if t, ok := a.top().(*tableScreen); ok {
		return t.leaveOutcome() + " Reconnect with the same key to resume."
	}
	return "Your seat is held for " + heldFor(0) + "; reconnect with the same key to resume."
}

// heldFor says grace as the time a seat is held: "1 minute", or "a little
// while" when it is not known.
func heldFor(grace time.Duration) string {
	if grace > 0 {
		return words.Duration(grace)
	}
	return "a little while"
}

// sizeMessage is the single centred line shown when the window is too small.
func sizeMessage(w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	msg := fmt.Sprintf("Make the window at least %d×%d (now %d×%d).", MinWidth, MinHeight, w, h)
	for _, shorter := range []string{
		fmt.Sprintf("Need at least %d×%d (now %d×%d)", MinWidth, MinHeight, w, h),
		fmt.Sprintf("Need %d×%d", MinWidth, MinHeight),
	} {
		if ansi.StringWidth(msg) <= w {
			break
		}
		msg = shorter
	}
	msg = ansi.Truncate(msg, w, "")
	pad := (w - ansi.StringWidth(msg)) / 2
	lines := make([]string, h)
	lines[h/2] = strings.Repeat(" ", pad) + msg
	return strings.Join(lines, "\n")
}

// titleBar draws " TITLE ...... right " in exactly w cells, the title in
// the title style and right in the titleEnd style. last, if not nil, is
// the place as drawn before, used again while it is the same.
func titleBar(title, titleEnd *widget.Painter, last *titlePlace, text, right string, w int) string {
	// The first part names the place in capitals; the rest (codes, names,
	// whose turn) keeps its case.
	head, rest, more := strings.Cut(text, " · ")
	var place string
	var placeW int
	if last != nil && last.place != "" && last.head == head {
		place, placeW = last.place, last.placeW
	} else {
		place = title.Render(strings.ToUpper(head))
		placeW = widget.Width(place)
		if last != nil {
			last.head, last.place, last.placeW = head, place, placeW
		}
	}
	var after string
	if more {
		// New with every move: a painter that remembered it held every
		// title of the session's last 256 moves.
		after = title.FreshOf(" · ", rest, "")
	}
	var end string
	var endW int
	if last != nil && last.end != "" && last.right == right {
		end, endW = last.end, last.endW
	} else {
		end = titleEnd.Render(right)
		endW = widget.Width(end)
		if last != nil {
			last.right, last.end, last.endW = right, end, endW
		}
	}
	// The pieces are measured apart and the bar written once: a move
	// changes the title, so the bar is made again on most frames.
	gap := w - 1 - placeW - widget.Width(after) - endW - 1
	if gap < 1 {
		return ansi.Truncate(" "+place+after, w, "…")
	}
	var b strings.Builder
	b.Grow(1 + len(place) + len(after) + gap + len(end) + 1)
	b.WriteByte(' ')
	b.WriteString(place)
	b.WriteString(after)
	widget.WriteSpaces(&b, gap)
	b.WriteString(end)
	b.WriteByte(' ')
	return b.String()
}

// titlePlace is the title bar's place (the title's first part, in
// capitals, styled) as last drawn, with the text it came from, and its
// right part (right, styled as end) likewise, each with its width: a move
// changes only the rest of the title, and the place was upper-cased
// again, a new string, for every bar, and both were measured again.
type titlePlace struct {
	head, place string
	placeW      int
	right, end  string
	endW        int
}

// fitBlock splits s into exactly h lines, each at most w cells wide.
func fitBlock(s string, w, h int) []string {
	if h <= 0 {
		return nil
	}
	return fitLineBlock(strings.Split(s, "\n"), w, h)
}

// fitLineBlock is lines made exactly h lines, each at most w cells wide,
// in place: lines must be the caller's.
func fitLineBlock(lines []string, w, h int) []string {
	if h <= 0 {
		return nil
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = fitLine(l, w)
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return lines
}

// lineFits remembers the lines fitLineBlock fitted last, row by row: a
// board's frame after a move is mostly the lines of the one before, and
// measuring every line again (they are styled, so longer in bytes than
// the width) was a tenth of drawing it.
type lineFits struct {
	w    int
	rows []fitRow
	// lines is the slice block's answer is gathered in, kept from frame
	// to frame: the board's lines are its own (board.Lines), and were
	// copied for every frame to be fitted in place.
	lines []string
}

// fitRow is a row as lineFits last fitted it: the line in, fitted out,
// and in's width as textsafe.SimpleWidth counts it, or -1 where it was not
// counted. A changed line mostly begins and ends as the one before it in
// its row (a sheet's head after a move changes its turn mark, a count
// changes at the end of a row), and only the middle they do not share is
// counted (widthAfter).
type fitRow struct {
	in, out string
	w       int
}

// block is fitLineBlock(lines, w, h), lines fitted as before not measured
// again, and lines from fitted on taken as they are: the board that drew
// them fitted them to w (board.Fitted). Unlike fitLineBlock it leaves
// lines as they are: the answer is f's own slice, which the caller may
// append to and change until it calls block again.
//
// A line that was a row or two above or below on the frame before is
// taken as it was fitted there: a sheet's answers grow by a line with
// most moves and the sheets share their rows out again, so the lines
// under them move down or up a row.
func (f *lineFits) block(lines []string, w, h, fitted int) []string {
	if h <= 0 {
		return nil
	}
	if f.w != w {
		f.w, f.rows = w, f.rows[:0]
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	out := slices.Grow(f.lines[:0], h)
	// The rows before i are this frame's; what rows i-1 and i-2 held
	// before it is in back (row j's in back.rows[j&1]) where they changed,
	// and still in f.rows where they did not (back.changed[j&1] false).
	// The rows from i on are as before.
	var back backRows
	for i, l := range lines {
		if i >= fitted {
			out = append(out, l)
			// The rest are too (fitted is where they begin), so f's rows
			// stay in step with the lines; a row it keeps from before
			// still holds a line and its fit.
			continue
		}
		if i < len(f.rows) && sameString(f.rows[i].in, l) {
			back.changed[i&1] = false
			out = append(out, f.rows[i].out)
			continue
		}
		was := fitRow{w: -1}
		if i < len(f.rows) {
			was = f.rows[i]
		}
		r := fitRow{in: l, out: l, w: -1} // at most w bytes, so at most w cells
		if len(l) > w {
			var ok bool
			if r, ok = f.moved(l, i, &back); !ok {
				r.in = l
				r.out, r.w = fitAfter(was.in, was.w, l, w)
			}
		}
		back.rows[i&1], back.changed[i&1] = was, true
		if i < len(f.rows) {
			f.rows[i] = r
		} else {
			f.rows = append(f.rows, r)
		}
		out = append(out, r.out)
	}
	for len(out) < h {
		out = append(out, "")
	}
	f.lines = out
	return out
}

// backRows are what the two rows before the one lineFits.block fits held
// before the frame, where they changed (block): row j's at j&1, so a row
// kept as it was costs a flag, not a copy of it. Every row lineFits and
// backRows hold is a line and its fit at f.w (a zero row is "" fitted),
// so a row looked up here is right to take whenever its line is l.
type backRows struct {
	rows    [2]fitRow
	changed [2]bool
}

// moved is the row that held l on the frame before, a row or two above
// row i (back) or below it, if any did.
func (f *lineFits) moved(l string, i int, back *backRows) (fitRow, bool) {
	for j := max(0, i-2); j < i; j++ {
		r := &f.rows[j]
		if back.changed[j&1] {
			r = &back.rows[j&1]
		}
		if r.in == l {
			return *r, true
		}
	}
	for j := i + 1; j <= i+2 && j < len(f.rows); j++ {
		if f.rows[j].in == l {
			return f.rows[j], true
		}
	}
	return fitRow{}, false
}

// fitAfter is fitLine(l, w) for a line longer than w bytes (block takes a
// shorter one as it is), and l's width as textsafe.SimpleWidth counts it
// (-1 where SimpleWidth cannot count it), given the line before it in its
// row, old, and old's width ow counted the same way (-1 if not).
func fitAfter(old string, ow int, l string, w int) (string, int) {
	n, ok := widthAfter(old, ow, l)
	if !ok {
		if n, ok = textsafe.SimpleWidth(l); !ok {
			return fitLine(l, w), -1
		}
	}
	// widget.Width(l) is n when SimpleWidth counts l (fitLine).
	if n > w {
		return ansi.Truncate(l, w, "…"), n
	}
	return l, n
}

// widthAfter is textsafe.SimpleWidth(l) counted from old, whose
// SimpleWidth is ow (ok false when ow < 0, or when l and old share too
// little of their starts and ends to be worth it), counting only the
// middle in which they differ. The shared start and end are cut at an
// escape (ESC): in a line SimpleWidth counts, an ESC always begins a part
// of its own (it is no printable byte, no part of a rune, and a CSI
// sequence ends before another ESC), so old's width is the widths before,
// between and after the cuts added up. For l the same holds when its
// middle is counted whole (ok), as it begins and ends at the same bytes
// as old's (TestWidthAfterIsSimpleWidth).
func widthAfter(old string, ow int, l string) (int, bool) {
	if ow < 0 {
		return 0, false
	}
	end := commonEnd(old, l)
	if end == len(old) && end == len(l) {
		return ow, true // equal lines, made anew
	}
	start := commonStart(old[:len(old)-end], l[:len(l)-end])
	// old[:from] and old[to:] are l[:from] and l[len(l)-(len(old)-to):],
	// and each cut is the line's start or end or an ESC.
	from := max(0, strings.LastIndexByte(old[:start], 0x1b))
	to := len(old)
	if e := strings.IndexByte(old[len(old)-end:], 0x1b); e >= 0 {
		to = len(old) - end + e
	}
	if to-from > len(old)/2 {
		return 0, false // counting both middles would cost more than l alone
	}
	wo, ok := textsafe.SimpleWidth(old[from:to])
	if !ok || wo > ow {
		return 0, false
	}
	wl, ok := textsafe.SimpleWidth(l[from : len(l)-(len(old)-to)])
	if !ok {
		return 0, false
	}
	return ow - wo + wl, true
}

// commonStart is how many bytes a and b begin with alike, compared eight
// at a time while they last.
func commonStart(a, b string) int {
	m, n := min(len(a), len(b)), 0
	for ; n+8 <= m && word(a[n:]) == word(b[n:]); n += 8 {
	}
	for ; n < m && a[n] == b[n]; n++ {
	}
	return n
}

// commonEnd is how many bytes a and b end with alike, compared eight at a
// time while they last.
func commonEnd(a, b string) int {
	m, n := min(len(a), len(b)), 0
	for ; n+8 <= m && word(a[len(a)-n-8:]) == word(b[len(b)-n-8:]); n += 8 {
	}
	for ; n < m && a[len(a)-n-1] == b[len(b)-n-1]; n++ {
	}
	return n
}

// word is the first eight bytes of s as one number.
func word(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// sameString reports whether a and b are one string: the same bytes in
// memory, not only equal ones. A board gives the lines it kept as they
// were and makes a changed line anew, so comparing contents (lineFits)
// mostly compared a changed line with the one before it, a row of the
// questions beside the log equal for most of its length; a line made anew
// the same as before is only fitted again, which gives the same line.
func sameString(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// wrapBlock splits s into exactly h lines of at most w cells, word-wrapping
// every line that is wider (its continuation lines indented like it) instead
// of cutting it off; lines past h are dropped.
func wrapBlock(s string, w, h int) []string {
	if h <= 0 {
		return nil
	}
	lines := make([]string, 0, h)
	for l := range strings.SplitSeq(s, "\n") {
		if len(lines) >= h {
			break
		}
		if len(l) <= w || widget.Width(l) <= w {
			lines = append(lines, l)
			continue
		}
		body := strings.TrimLeft(l, " ")
		lead := l[:len(l)-len(body)]
		if len(lead) > w/2 {
			lead = ""
		}
		for _, part := range widget.WrapIndent(body, w, lead, lead) {
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

// fitLines joins lines, guaranteeing the frame never exceeds w×h.
func fitLines(lines []string, w, h int) string {
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = fitLine(l, w)
	}
	return strings.Join(lines, "\n")
}

// fitLine cuts the single line l to w cells.
func fitLine(l string, w int) string {
	// A line of at most w bytes is at most w cells: skip measuring it.
	if len(l) > w && widget.Width(l) > w {
		return ansi.Truncate(l, w, "…")
	}
	return l
}
