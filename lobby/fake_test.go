package lobby

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/storage"
)

// secretGame is a tiny game for hub tests: every seat has a hidden secret,
// players take turns saying a number, a timer can skip a turn, and bots
// play. Secrets all contain "SECRET", so leak checks are a substring test.
type secretGame struct{}

func (secretGame) Info() engine.Info {
	return engine.Info{
		ID: "secret", Name: "Secrets", Summary: "say numbers, keep secrets",
		MinPlayers: 2, MaxPlayers: 12,
		Options: []engine.OptionSpec{
			{Key: "turns", Label: "Turns", Choices: []string{"2", "6", "30", "0"}, Default: "6"}, // 0: endless
			{Key: "timer", Label: "Timer ms", Choices: []string{"0", "5", "60000"}, Default: "0"},
			{Key: "timed", Label: "Timed turns", Choices: []string{"0", "1"}, Default: "0"}, // 0: every turn
		},
		BotLevels: []string{"panic", "broken", "sharp", "easy"}, // default (middle): "sharp"
	}
}

func (secretGame) New(opts engine.Options, players []engine.Player, seed uint64) (engine.State, error) {
	turns, _ := strconv.Atoi(opts["turns"])
	timer, _ := strconv.Atoi(opts["timer"])
	timed, _ := strconv.Atoi(opts["timed"])
	st := &secretState{players: players, turns: turns, timerMs: timer, timed: timed, rules: opts[engine.RulesOption]}
	for i := range players {
		st.secrets = append(st.secrets, fmt.Sprintf("SECRET%d-%x", i, seed*uint64(i+7)))
	}
	return st, nil
}

func (secretGame) NewBot(seat engine.Seat, level string, seed uint64) (engine.Bot, error) {
	return &secretBot{seat: seat, level: level}, nil
}

// renamedGame is the test game under another ID, so that a variant of it
// can sit in the same registry.
type renamedGame struct {
	secretGame
	id, name string
}

func (g renamedGame) Info() engine.Info {
	info := g.secretGame.Info()
	info.ID, info.Name = g.id, g.name
	return info
}

// revisedGame is the test game with two rules revisions, "old" and "new".
type revisedGame struct{ secretGame }

func (revisedGame) Info() engine.Info {
	info := secretGame{}.Info()
	info.ID, info.Name, info.Rules = "revised", "Revised", []string{"old", "new"}
	return info
}

// teamGame is the test game for a cooperative game: its bots default to a
// chosen level ("easy") rather than the middle one ("sharp").
type teamGame struct{ secretGame }

func (teamGame) Info() engine.Info {
	info := secretGame{}.Info()
	info.ID, info.Name, info.DefaultBotLevel = "team", "Team", "easy"
	return info
}

type secretAction struct {
	Say     *int `json:"say,omitempty"`
	Panic   bool `json:"panic,omitempty"`
	Timeout bool `json:"timeout,omitempty"`
}

func say(n int) []byte {
	b, _ := json.Marshal(secretAction{Say: &n})
	return b
}

type secretState struct {
	rules   string // the rules revision it was dealt under (revisedGame)
	players []engine.Player
	secrets []string
	turns   int
	timerMs int
	timed   int // moves that have a timer; 0: all
	moves   int
	active  engine.Seat
	said    []int
}

func (s *secretState) finished() bool { return s.turns > 0 && s.moves >= s.turns }

func (s *secretState) Status() engine.Status {
	st := engine.Status{Turn: s.moves + 1, Finished: s.finished()}
	if !st.Finished {
		st.Active = []engine.Seat{s.active}
	}
	return st
}

func (s *secretState) Apply(seat engine.Seat, data []byte) ([]engine.Event, error) {
	var a secretAction
	if err := engine.DecodeAction(data, &a); err != nil {
		return nil, err
	}
	if s.finished() {
		return nil, engine.Illegal("The game is over.")
	}
	var evs []engine.Event
	switch {
	case a.Timeout:
		if seat != engine.System {
			return nil, engine.Illegal("Only the clock can time out.")
		}
		evs = append(evs, engine.Event{Kind: "timeout", Text: s.players[s.active].Name + " ran out of time"})
	case seat != s.active:
		return nil, engine.Illegal("It is not your turn.")
	case a.Panic:
		panic("the fake engine exploded")
	case a.Say == nil:
		return nil, engine.Illegal("Say a number.")
	default:
		s.said = append(s.said, *a.Say)
		evs = append(evs,
			engine.Event{Kind: "say", Text: fmt.Sprintf("%s said %d", s.players[seat].Name, *a.Say)},
			engine.Event{Kind: "psst", Text: "psst " + s.secrets[seat], Seats: []engine.Seat{seat}})
	}
	s.moves++
	s.active = (s.active + 1) % engine.Seat(len(s.players))
	return evs, nil
}

// secretView is what a viewer may know.
type secretView struct {
	You    engine.Viewer
	Active engine.Seat
	Moves  int
	Said   []int    // the last 50 numbers said
	Secret string   // only for a seat
	All    []string // only for omniscient viewers
	Rules  string   // the rules revision the game was dealt under
}

func (s *secretState) View(v engine.Viewer) any {
	out := secretView{You: v, Active: s.active, Moves: s.moves, Said: slices.Clone(s.said[max(0, len(s.said)-50):]), Rules: s.rules}
	switch v.Kind {
	case engine.ViewerSeat:
		out.Secret = s.secrets[v.Seat]
	case engine.ViewerOmniscient:
		out.All = slices.Clone(s.secrets)
	}
	return out
}

func (s *secretState) Result() (engine.Result, bool) {
	if !s.finished() {
		return engine.Result{}, false
	}
	return engine.Result{Winners: []engine.Seat{0}, Summary: "Seat 0 wins, as always."}, true
}

func (s *secretState) Timer() *engine.Timer {
	if s.timerMs == 0 || s.finished() || (s.timed > 0 && s.moves >= s.timed) {
		return nil
	}
	return &engine.Timer{DelayMillis: s.timerMs, Action: json.RawMessage(`{"timeout":true}`)}
}

// secretBot says the move number when it is its turn. It refuses any view
// that is not exactly its own seat's, which would be a leak.
type secretBot struct {
	seat  engine.Seat
	level string
}

func (b *secretBot) Act(view any) ([]byte, error) {
	v, ok := view.(secretView)
	if !ok || !v.You.IsSeat(b.seat) || !strings.HasPrefix(v.Secret, fmt.Sprintf("SECRET%d-", b.seat)) || v.All != nil {
		return nil, fmt.Errorf("bot for seat %d got the wrong view: %+v", b.seat, view)
	}
	switch b.level {
	case "panic":
		panic("the fake bot exploded")
	case "broken":
		return []byte(`{"say":"not a number"}`), nil
	}
	if v.Active != b.seat {
		return nil, nil
	}
	return say(v.Moves), nil
}

// memStore is an in-memory Store that checks the order of moves.
type memStore struct {
	mu         sync.Mutex
	nextID     int
	live       map[string]*storage.LiveGame
	finished   map[string]storage.FinishedGame
	abandoned  []string
	failAppend int // fail this many AppendMove calls
	failFinish int // refuse this many FinishGame calls as unavailable
}

func newMemStore() *memStore {
	return &memStore{live: map[string]*storage.LiveGame{}, finished: map[string]storage.FinishedGame{}}
}

func (m *memStore) NewGameID() (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.nextID++
	return fmt.Sprintf("G%d", m.nextID), nil
}

func (m *memStore) StartGame(g storage.LiveGame) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, dup := m.live[g.ID]; dup {
		return errors.New("duplicate game")
	}
	g.Record.Moves = slices.Clone(g.Record.Moves)
	m.live[g.ID] = &g
	return nil
}

func (m *memStore) AppendMove(id string, index int, mv engine.Move) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failAppend > 0 {
		m.failAppend--
		return errors.New("disk on fire")
	}
	g := m.live[id]
	if g == nil {
		return fmt.Errorf("append to unknown game %s", id)
	}
	if index != len(g.Record.Moves) {
		return fmt.Errorf("move %d out of order (have %d)", index, len(g.Record.Moves))
	}
	g.Record.Moves = append(g.Record.Moves, mv)
	return nil
}

func (m *memStore) FinishGame(g storage.FinishedGame) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failFinish > 0 {
		m.failFinish--
		return fmt.Errorf("finish game %s: %w", g.ID, storage.ErrUnavailable)
	}
	if m.live[g.ID] == nil {
		return fmt.Errorf("finish unknown game %s", g.ID)
	}
	delete(m.live, g.ID)
	m.finished[g.ID] = g
	return nil
}

func (m *memStore) AbandonGame(id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.live, id)
	m.abandoned = append(m.abandoned, id)
	return nil
}

func (m *memStore) LiveGames() ([]storage.LiveGame, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []storage.LiveGame
	for _, g := range m.live {
		c := *g
		c.Record.Moves = slices.Clone(g.Record.Moves)
		out = append(out, c)
	}
	return out, nil
}

func (m *memStore) liveMoves(id string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if g := m.live[id]; g != nil {
		return len(g.Record.Moves)
	}
	return -1
}

func (m *memStore) wasAbandoned(id string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Contains(m.abandoned, id)
}

// fakeClock is a settable clock for rate limits.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

var _ Store = (*memStore)(nil)

// testHub builds a hub over the fake game (and any others) with test-friendly
// settings; change lets a test adjust the config.
func testHub(t testing.TB, store Store, change func(*Config), games ...engine.Game) *Hub {
	t.Helper()
	cfg := Config{
		Games:    engine.NewRegistry(append([]engine.Game{secretGame{}}, games...)...),
		Store:    store,
		Logger:   slog.New(slog.DiscardHandler),
		Grace:    time.Hour,
		BotDelay: -1,
		Now:      (&fakeClock{now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}).Now,
	}
	if change != nil {
		change(&cfg)
	}
	h, err := NewHub(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

// waitView waits (generously, without timing assertions) for c's view to
// satisfy ok, and returns it.
func waitView(t testing.TB, c *Conn, what string, ok func(TableView) bool) TableView {
	t.Helper()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for {
		v := c.View()
		if ok(v) {
			return v
		}
		select {
		case <-c.Updates():
		case <-c.Done():
			v := c.View()
			if ok(v) {
				return v
			}
			t.Fatalf("waiting for %s: conn ended (%s); last view phase %v notice %q", what, c.Reason(), v.Phase, v.Notice)
		case <-deadline.C:
			t.Fatalf("waiting for %s: gave up; last view phase %v turn %d notice %q", what, v.Phase, v.Status.Turn, v.Notice)
		}
	}
}

func board(t testing.TB, v TableView) secretView {
	t.Helper()
	b, ok := v.Board.(secretView)
	if !ok {
		t.Fatalf("board is %T, want secretView", v.Board)
	}
	return b
}

func ident(name string) Identity { return Identity{Account: "SHA256:" + name, Handle: name} }
