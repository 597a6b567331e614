package tui

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	bc "github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/storage"
)

// key turns a key name into a key press: "enter", "esc", "up", "ctrl+c",
// or literal text such as "q" or "1b 2w".
func keyMsg(k string) tea.KeyPressMsg {
	special := map[string]tea.Key{
		"enter": {Code: tea.KeyEnter}, "esc": {Code: tea.KeyEscape}, "tab": {Code: tea.KeyTab},
		"up": {Code: tea.KeyUp}, "down": {Code: tea.KeyDown}, "left": {Code: tea.KeyLeft}, "right": {Code: tea.KeyRight},
		"home": {Code: tea.KeyHome}, "end": {Code: tea.KeyEnd}, "backspace": {Code: tea.KeyBackspace},
		"space":  {Code: tea.KeySpace, Text: " "},
		"ctrl+c": {Code: 'c', Mod: tea.ModCtrl},
	}
	if sk, ok := special[k]; ok {
		return tea.KeyPressMsg(sk)
	}
	r := []rune(k)
	return tea.KeyPressMsg(tea.Key{Code: r[0], Text: k})
}

// send delivers a message and returns the command the model answered with.
func send(m *app, msg tea.Msg) tea.Cmd {
	_, cmd := m.Update(msg)
	return cmd
}

// press sends key presses, running each resulting command that finishes at
// once (hub and store calls in tests are immediate) and feeding its message
// back, like the program would.
func press(t testing.TB, m *app, keys ...string) {
	t.Helper()
	for _, k := range keys {
		run(t, m, send(m, keyMsg(k)))
	}
}

// typeText sends each rune of s as its own key press.
func typeText(t testing.TB, m *app, s string) {
	t.Helper()
	for _, r := range s {
		run(t, m, send(m, keyMsg(string(r))))
	}
}

// run executes cmd and feeds its messages back, skipping the table pump
// (which waits on channels) and timers; depth bounds the chain.
func run(t testing.TB, m *app, cmd tea.Cmd) {
	t.Helper()
	runDepth(t, m, cmd, 0)
}

func runDepth(t testing.TB, m *app, cmd tea.Cmd, depth int) {
	if cmd == nil || depth > 20 {
		return
	}
	msg := cmd()
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			runDepth(t, m, c, depth+1)
		}
	case tea.QuitMsg:
	default:
		runDepth(t, m, send(m, msg), depth+1)
	}
}

// screen returns the current frame without styling.
func screenText(m *app) string { return ansi.Strip(m.View().Content) }

// keyBarText is the screen's last line, the key bar, without styles.
func keyBarText(m *app) string {
	lines := strings.Split(strings.TrimRight(screenText(m), "\n "), "\n")
	return lines[len(lines)-1]
}

// checkFits fails when the frame is wider or taller than the window.
func checkFits(t testing.TB, m *app, w, h int) {
	t.Helper()
	frame := m.View().Content
	if frame == "" {
		return
	}
	lines := strings.Split(frame, "\n")
	if len(lines) > h {
		t.Errorf("%d×%d: frame has %d lines:\n%s", w, h, len(lines), ansi.Strip(frame))
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("%d×%d: line %d is %d wide: %q", w, h, i, lw, ansi.Strip(l))
		}
	}
}

// fakeStore is an in-memory AccountStore.
type fakeStore struct {
	mu        sync.Mutex
	accounts  map[string]storage.Account
	games     map[string]storage.FinishedGame
	history   []storage.GameSummary
	prefs     map[string]string // account NUL name → value
	gameReads int               // calls of Game
}

func newFakeStore() *fakeStore {
	return &fakeStore{accounts: map[string]storage.Account{}, games: map[string]storage.FinishedGame{}}
}

func (f *fakeStore) Account(id string) (storage.Account, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a, ok := f.accounts[id]
	if !ok {
		return storage.Account{}, storage.ErrNotFound
	}
	return a, nil
}

func (f *fakeStore) ClaimHandle(id, handle string) (storage.Account, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for other, a := range f.accounts {
		if other != id && strings.EqualFold(a.Handle, handle) {
			return storage.Account{}, storage.ErrHandleTaken
		}
	}
	a := storage.Account{ID: id, Handle: handle}
	f.accounts[id] = a
	return a, nil
}

func (f *fakeStore) History(string, int) ([]storage.GameSummary, error) { return f.history, nil }

func (f *fakeStore) Preference(account, name string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.prefs[account+"\x00"+name], nil
}

func (f *fakeStore) SetPreference(account, name, value string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.prefs == nil {
		f.prefs = map[string]string{}
	}
	f.prefs[account+"\x00"+name] = value
	return nil
}

func (f *fakeStore) Stats(string) (storage.Stats, error) {
	return storage.Stats{Totals: storage.Totals{Played: len(f.history)}}, nil
}

func (f *fakeStore) Game(id string) (storage.FinishedGame, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gameReads++
	g, ok := f.games[id]
	if !ok {
		return storage.FinishedGame{}, storage.ErrNotFound
	}
	return g, nil
}

// fakeConn is a table link whose view the test sets.
type fakeConn struct {
	mu        sync.Mutex
	view      lobby.TableView
	updates   chan struct{}
	done      chan struct{}
	acts      [][]byte
	chats     []string
	ready     []bool
	starts    int
	rematches int
	left      bool
	actErr    error
}

func newFakeConn(v lobby.TableView) *fakeConn {
	return &fakeConn{view: v, updates: make(chan struct{}, 1), done: make(chan struct{})}
}

func (c *fakeConn) Updates() <-chan struct{} { return c.updates }
func (c *fakeConn) View() lobby.TableView {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.view
}
func (c *fakeConn) setView(v lobby.TableView) {
	c.mu.Lock()
	c.view = v
	c.mu.Unlock()
}
func (c *fakeConn) Act(a []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.acts = append(c.acts, a)
	return c.actErr
}
func (c *fakeConn) Chat(s string) error { c.chats = append(c.chats, s); return nil }
func (c *fakeConn) SetReady(r bool) error {
	c.ready = append(c.ready, r)
	return nil
}
func (c *fakeConn) Start() error   { c.starts++; return nil }
func (c *fakeConn) Rematch() error { c.rematches++; return nil }
func (c *fakeConn) Leave()         { c.left = true }
func (c *fakeConn) Done() <-chan struct{} {
	return c.done
}
func (c *fakeConn) Reason() string { return "" }

// fakeHub hands out one prepared conn.
type fakeHub struct {
	conn    *fakeConn
	joinErr error
	tables  []lobby.TableSummary
	joined  []string
	quick   int
	seeker  *fakeSeeker // what Seek returns (people_test.go)
	seekErr error
	held    *lobby.TableSummary // the seat Resume returns to, first in HeldSeats
	// heldToo are the account's other seats, after held in HeldSeats.
	heldToo []lobby.TableSummary
	// quickLevel is the bot level of the last quick play.
	quickLevel string
	// elsewhere is the seat SeatElsewhere reports (nil: none).
	elsewhere *lobby.ElsewhereError
	// claimErr is what AllowClaim answers.
	claimErr error
	// renameErr is what AllowRename answers.
	renameErr error
}

func (h *fakeHub) Create(lobby.Identity, lobby.TableSpec) (tableConn, error) { return h.conn, nil }
func (h *fakeHub) Join(_ lobby.Identity, code string) (tableConn, error) {
	h.joined = append(h.joined, code)
	if h.joinErr != nil {
		return nil, h.joinErr
	}
	return h.conn, nil
}
func (h *fakeHub) Watch(lobby.Identity, string) (tableConn, error) { return h.conn, nil }
func (h *fakeHub) QuickPlay(_ lobby.Identity, game, level string) (tableConn, error) {
	h.quick++
	h.quickLevel = level
	if h.conn == nil {
		return nil, errors.New("no conn")
	}
	return h.conn, nil
}
func (h *fakeHub) Resume(lobby.Identity) (tableConn, bool) {
	if h.held == nil || h.conn == nil {
		return nil, false
	}
	return h.conn, true
}
func (h *fakeHub) PublicTables() []lobby.TableSummary { return h.tables }
func (h *fakeHub) PublicCounts() (waiting, playing int) {
	for _, t := range h.tables {
		switch t.Phase {
		case lobby.Waiting:
			waiting++
		case lobby.Playing:
			playing++
		}
	}
	return waiting, playing
}
func (h *fakeHub) Online() (int, int)               { return 3, len(h.tables) }
func (h *fakeHub) Changed() <-chan struct{}         { return nil }
func (h *fakeHub) AllowRename(lobby.Identity) error { return h.renameErr }
func (h *fakeHub) AllowClaim(lobby.Identity) error  { return h.claimErr }
func (h *fakeHub) HeldSeats(string) []lobby.TableSummary {
	if h.held == nil {
		return nil
	}
	return append([]lobby.TableSummary{*h.held}, h.heldToo...)
}
func (h *fakeHub) SeatElsewhere(lobby.Identity) *lobby.ElsewhereError {
	return h.elsewhere
}

func registry() *engine.Registry { return engine.NewRegistry(bc.Game{}) }

// newTestApp builds a signed-in session at w×h on fakes.
func newTestApp(t testing.TB, h hubAPI, store AccountStore, w, hgt int) *app {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if store == nil {
		store = newFakeStore()
	}
	m := newApp(Deps{Store: store, Games: registry()}, h, Session{
		Identity: lobby.Identity{Account: "SHA256:test", Handle: "mara"},
		Width:    w, Height: hgt, Context: ctx,
	})
	m.pump = func(context.Context, tableConn) tea.Cmd { return nil }
	m.waitLobby = func(context.Context, <-chan struct{}, time.Duration) tea.Cmd { return nil }
	run(t, m, m.Init())
	return m
}

// dealt starts a Break the Code game with n players.
func dealt(t testing.TB, n int, seed uint64) engine.State {
	t.Helper()
	names := []string{"mara", "Bo", "Kai", "Ana"}
	var players []engine.Player
	for i := range n {
		players = append(players, engine.Player{Name: names[i], Bot: i > 0})
	}
	st, _, err := engine.Start(bc.Game{}, nil, players, seed)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// playFew applies k legal asks (the first face-up card) to st.
func playFew(t testing.TB, st engine.State, k int) []engine.Event {
	t.Helper()
	var log []engine.Event
	for range k {
		s := st.Status()
		if s.Finished || len(s.Active) == 0 {
			break
		}
		v := st.View(engine.SeatViewer(s.Active[0])).(bc.View)
		if len(v.FaceUp) == 0 {
			break
		}
		card := v.FaceUp[0]
		num := 0
		if ns := bc.CardNumbers(card); len(ns) > 0 {
			num = ns[0]
		}
		evs, err := st.Apply(s.Active[0], bc.AskAction(card, num))
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, evs...)
	}
	return log
}

// tableView wraps an engine state as the lobby would show it to viewer.
func tableView(st engine.State, viewer engine.Viewer, log []engine.Event, version uint64) lobby.TableView {
	v := st.View(viewer).(bc.View)
	tv := lobby.TableView{
		Version: version, Code: "KQ7-M4X", GameID: "8F3K2", Game: bc.Game{}.Info(),
		Phase: lobby.Playing, You: viewer, Status: st.Status(), Board: v,
		Log: engine.FilterEvents(log, viewer), Spectators: 1,
	}
	for i, s := range v.Seats {
		tv.Seats = append(tv.Seats, lobby.SeatView{Handle: textsafe.Text(s.Name), Bot: i > 0, Connected: true})
	}
	if r, ok := st.Result(); ok {
		tv.Phase = lobby.Finished
		tv.Result = &r
	}
	return tv
}

func mustJSON(t testing.TB, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("action %s: %v", b, err)
	}
	return m
}

var tileRE = regexp.MustCompile(`\b[0-9][bwg]\b`)

// chooseHome moves home's cursor to the item labelled label and chooses it,
// so that tests do not depend on the order of the menu.
func chooseHome(t testing.TB, m *app, label string) {
	t.Helper()
	h, ok := m.top().(*homeScreen)
	if !ok {
		t.Fatalf("not home: %T", m.top())
	}
	for i, it := range h.items {
		if it.label == label {
			h.cursor = i
			press(t, m, "enter")
			return
		}
	}
	t.Fatalf("home has no %q", label)
}
