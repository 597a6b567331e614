package lobby

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/codebreakers/codebreakers/engine"
)

// countingGame is the test game under another ID whose states count the
// views they build, by viewer.
type countingGame struct {
	renamedGame
	tally *viewTally
}

func newCountingGame(tally *viewTally) countingGame {
	return countingGame{renamedGame{id: "counted", name: "Counted secrets"}, tally}
}

func (g countingGame) New(opts engine.Options, players []engine.Player, seed uint64) (engine.State, error) {
	st, err := g.secretGame.New(opts, players, seed)
	if err != nil {
		return nil, err
	}
	return countingState{State: st, tally: g.tally}, nil
}

type countingState struct {
	engine.State
	tally *viewTally
}

func (s countingState) View(v engine.Viewer) any {
	s.tally.add(v)
	return s.State.View(v)
}

// viewTally counts View calls; the table goroutine adds, the test reads.
type viewTally struct {
	mu sync.Mutex
	n  map[engine.Viewer]int
}

func (t *viewTally) add(v engine.Viewer) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n == nil {
		t.n = map[engine.Viewer]int{}
	}
	t.n[v]++
}

func (t *viewTally) counts() map[engine.Viewer]int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return maps.Clone(t.n)
}

// sameCounts fails the test when the engine built views since before.
func sameCounts(t *testing.T, what string, tally *viewTally, before map[engine.Viewer]int) {
	t.Helper()
	if now := tally.counts(); !maps.Equal(now, before) {
		t.Errorf("%s: the engine built views again: %v, before %v", what, now, before)
	}
}

// moved fails the test unless exactly the viewers in want got one new view
// each since before.
func moved(t *testing.T, what string, tally *viewTally, before map[engine.Viewer]int, want ...engine.Viewer) {
	t.Helper()
	exp := maps.Clone(before)
	if exp == nil {
		exp = map[engine.Viewer]int{}
	}
	for _, v := range want {
		exp[v]++
	}
	if now := tally.counts(); !maps.Equal(now, exp) {
		t.Errorf("%s: views built %v, want %v", what, now, exp)
	}
}

// countedTable seats ann (the host), then the others, and adds a spectator.
func countedTable(t *testing.T, change func(*Config), opts engine.Options, others ...string) (*Hub, *viewTally, []*Conn, *Conn) {
	t.Helper()
	tally := &viewTally{}
	h := testHub(t, newMemStore(), change, newCountingGame(tally))
	ann, err := h.Create(ident("ann"), TableSpec{Game: "counted", Seats: 1 + len(others), Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	seats := []*Conn{ann}
	code := ann.View().Code
	for _, name := range others {
		c, err := h.Join(ident(name), code)
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, c)
	}
	w, err := h.Watch(ident("wes"), code)
	if err != nil {
		t.Fatal(err)
	}
	return h, tally, seats, w
}

// leave disconnects seat i and waits until watcher sees it gone.
func leave(t *testing.T, c, watcher *Conn, i int) {
	t.Helper()
	c.Leave()
	waitView(t, watcher, "a seat to disconnect", func(v TableView) bool { return !v.Seats[i].Connected })
}

func seatBoard(t *testing.T, c *Conn, moves int) {
	t.Helper()
	v := c.View()
	b := board(t, v)
	if b.Moves != moves || b.You != v.You {
		t.Errorf("%v sees a board for %v after %d moves, want its own after %d", v.You, b.You, b.Moves, moves)
	}
}

// TestPublishReusesBoardsUntilTheGameMoves checks that what changes only
// around the game (readiness, chat, spectators, connections) never asks the
// engine for views again, that a move gives every connected viewer a fresh
// board, and that a seat coming back after a move gets one too.
func TestPublishReusesBoardsUntilTheGameMoves(t *testing.T) {
	h, tally, seats, wes := countedTable(t, nil, engine.Options{"turns": "0"}, "bob", "cat")
	ann, bob, cat := seats[0], seats[1], seats[2]
	code := ann.View().Code
	for _, step := range []func() error{
		func() error { return bob.SetReady(true) },
		func() error { return cat.SetReady(true) },
		func() error { return bob.SetReady(false) },
		func() error { return bob.SetReady(true) },
		func() error { return ann.Chat("ready?") },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	sameCounts(t, "waiting", tally, nil)

	if err := ann.Start(); err != nil {
		t.Fatal(err)
	}
	s0, s1, s2, spec := engine.SeatViewer(0), engine.SeatViewer(1), engine.SeatViewer(2), engine.Spectator()
	moved(t, "start", tally, nil, s0, s1, s2, spec)

	before := tally.counts()
	if err := ann.Chat("good luck"); err != nil {
		t.Fatal(err)
	}
	if err := wes.Chat("go ann"); err != nil {
		t.Fatal(err)
	}
	wyn, err := h.Watch(ident("wyn"), code)
	if err != nil {
		t.Fatal(err)
	}
	leave(t, cat, ann, 2)
	if cat, err = h.Join(ident("cat"), code); err != nil {
		t.Fatal(err)
	}
	sameCounts(t, "chat, a spectator and a reconnection", tally, before)
	for _, c := range []*Conn{ann, bob, cat, wes, wyn} {
		seatBoard(t, c, 0)
	}

	before = tally.counts()
	if err := ann.Act(say(1)); err != nil {
		t.Fatal(err)
	}
	moved(t, "a move", tally, before, s0, s1, s2, spec) // one spectator view for both
	for _, c := range []*Conn{ann, bob, cat, wes, wyn} {
		seatBoard(t, c, 1)
	}

	leave(t, cat, ann, 2)
	before = tally.counts()
	if err := bob.Act(say(2)); err != nil {
		t.Fatal(err)
	}
	moved(t, "a move with a seat away", tally, before, s0, s1, spec)
	before = tally.counts()
	if cat, err = h.Join(ident("cat"), code); err != nil {
		t.Fatal(err)
	}
	moved(t, "a seat back after a move", tally, before, s2)
	seatBoard(t, cat, 2)
	if b := board(t, cat.View()); b.Secret == "" {
		t.Error("the returning seat's board has no secret")
	}
}

// TestFinishedGameRevealsOnce checks that a finished game builds its
// revealed view once and shows it to everyone until the table changes game.
func TestFinishedGameRevealsOnce(t *testing.T) {
	_, tally, seats, wes := countedTable(t, nil, engine.Options{"turns": "2"}, "bob")
	ann, bob := seats[0], seats[1]
	if err := bob.SetReady(true); err != nil {
		t.Fatal(err)
	}
	if err := ann.Start(); err != nil {
		t.Fatal(err)
	}
	if err := ann.Act(say(1)); err != nil {
		t.Fatal(err)
	}
	before := tally.counts()
	if err := bob.Act(say(2)); err != nil {
		t.Fatal(err)
	}
	moved(t, "the last move", tally, before, engine.Omniscient())
	before = tally.counts()
	if err := wes.Chat("well played"); err != nil {
		t.Fatal(err)
	}
	if err := ann.Chat("thanks"); err != nil {
		t.Fatal(err)
	}
	sameCounts(t, "chat after the end", tally, before)
	for _, c := range []*Conn{ann, bob, wes} {
		v := c.View()
		if v.Phase != Finished || len(board(t, v).All) != 2 {
			t.Errorf("%v: phase %v, board %+v; want the revealed board", v.You, v.Phase, v.Board)
		}
	}

	if err := bob.Rematch(); err != nil {
		t.Fatal(err)
	}
	if err := ann.SetReady(true); err != nil { // everyone is ready: the game starts
		t.Fatal(err)
	}
	for _, c := range []*Conn{ann, bob, wes} {
		seatBoard(t, c, 0)
	}
}

// TestBotTakesOverWithTheSeatsBoard checks that a bot taking over a seat
// whose board was already built for this state thinks about that board
// instead of asking the engine again.
func TestBotTakesOverWithTheSeatsBoard(t *testing.T) {
	grace := func(c *Config) { c.Grace = time.Millisecond }
	_, tally, seats, wes := countedTable(t, grace, engine.Options{"turns": "0"}, "bob")
	ann, bob := seats[0], seats[1]
	if err := bob.SetReady(true); err != nil {
		t.Fatal(err)
	}
	if err := ann.Start(); err != nil {
		t.Fatal(err)
	}
	if err := ann.Act(say(1)); err != nil { // bob's turn: his board is built
		t.Fatal(err)
	}
	before := tally.counts()
	bob.Leave()
	v := waitView(t, wes, "the bot's move", func(v TableView) bool { return v.Seats[1].Replaced && v.Status.Turn == 3 })
	if b := board(t, v); b.Moves != 2 || b.Said[1] != 1 {
		t.Errorf("spectator board %+v, want the bot's move", b)
	}
	// The bot's move is a new state: the connected viewers see it. Seat 1's
	// board for the old state was reused for the bot.
	moved(t, "a bot took over", tally, before, engine.SeatViewer(0), engine.Spectator())
}

// TestEachViewerReadsOnlyItsOwnPartOfTheSnapshot: a table publishes one
// snapshot that every viewer's view is put together from; each seat's view
// holds its own board, log and secrets and no one else's, only the host's
// says it hosts, and the spectators' holds no secret at all.
func TestEachViewerReadsOnlyItsOwnPartOfTheSnapshot(t *testing.T) {
	_, _, seats, wes := countedTable(t, nil, engine.Options{"turns": "0"}, "bob", "cat")
	for _, c := range seats[1:] {
		if err := c.SetReady(true); err != nil {
			t.Fatal(err)
		}
	}
	if err := seats[0].Start(); err != nil {
		t.Fatal(err)
	}
	for i, c := range seats {
		if err := c.Act(say(i)); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range append(seats, wes) {
		v := waitView(t, c, "every seat's move", func(v TableView) bool { return v.Status.Turn == len(seats)+1 })
		if v.You != c.Viewer() || board(t, v).You != c.Viewer() {
			t.Errorf("%v reads a view for %v with a board for %v", c.Viewer(), v.You, board(t, v).You)
		}
		if want := i == 0; v.Host != want {
			t.Errorf("%v reads Host %v, want %v", c.Viewer(), v.Host, want)
		}
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		all, own := strings.Count(string(data), "SECRET"), strings.Count(string(data), fmt.Sprintf("SECRET%d-", i))
		switch {
		case all != own:
			t.Errorf("%v reads %d secrets, only %d of them its own: %s", c.Viewer(), all, own, data)
		case i < len(seats) && own < 2: // its board's and its move's private event
			t.Errorf("%v reads its own secret %d times, want its board and its log: %s", c.Viewer(), own, data)
		}
	}
}

// TestSeatsAreSharedUntilASeatChanges: views published while nobody sat
// down, stood up, readied or dropped share one seats slice; a change makes
// a new one, and a view taken before it still reads the seats as they were.
// The table list's summary is likewise kept until it reads differently.
func TestSeatsAreSharedUntilASeatChanges(t *testing.T) {
	_, _, seats, wes := countedTable(t, nil, engine.Options{"turns": "0"}, "bob")
	ann, bob := seats[0], seats[1]
	if err := bob.SetReady(true); err != nil {
		t.Fatal(err)
	}
	if err := ann.Start(); err != nil {
		t.Fatal(err)
	}
	before := ann.View()
	if err := ann.Act(say(1)); err != nil {
		t.Fatal(err)
	}
	after := waitView(t, wes, "ann's move", func(v TableView) bool { return v.Version > before.Version })
	if unsafe.SliceData(after.Seats) != unsafe.SliceData(before.Seats) {
		t.Error("a move that changed no seat made a new seats slice")
	}
	// The table list's summary too is kept while it reads the same.
	sum := ann.t.summary.Load()
	if err := ann.Chat("hello"); err != nil {
		t.Fatal(err)
	}
	chatted := waitView(t, wes, "ann's chat", func(v TableView) bool { return len(v.Chat) == 1 })
	if unsafe.SliceData(chatted.Seats) != unsafe.SliceData(before.Seats) {
		t.Error("a chat line made a new seats slice")
	}
	if ann.t.summary.Load() != sum {
		t.Error("a chat line made a new table summary")
	}
	if err := bob.Act(say(2)); err != nil {
		t.Fatal(err)
	}
	waitView(t, wes, "bob's move", func(v TableView) bool { return v.Status.Turn == 3 })
	if s := ann.t.summary.Load(); s == sum || s.Turn != 3 || sum.Turn != 2 {
		t.Errorf("after bob's move the summary reads turn %d (a new one: %v), before it turn %d", s.Turn, s != sum, sum.Turn)
	}
	leave(t, bob, ann, 1)
	gone := ann.View()
	if unsafe.SliceData(gone.Seats) == unsafe.SliceData(before.Seats) {
		t.Error("bob leaving kept the old seats slice")
	}
	if !before.Seats[1].Connected || gone.Seats[1].Connected {
		t.Errorf("bob reads connected %v before leaving and %v after", before.Seats[1].Connected, gone.Seats[1].Connected)
	}
}

// TestPublishAllocatesOneSnapshot: publishing a table whose seats and
// summary read as before allocates one object, the snapshot — no view per
// seat or spectator, no seats slice, no summary — for a table of up to
// maxInlineSeats seats, and one more (the seats' entries) past that.
func TestPublishAllocatesOneSnapshot(t *testing.T) {
	for _, others := range [][]string{{"bob", "cat"}, {"bob", "cat", "dan", "eve"}} {
		_, _, seats, _ := countedTable(t, nil, engine.Options{"turns": "0"}, others...)
		for _, c := range seats[1:] {
			if err := c.SetReady(true); err != nil {
				t.Fatal(err)
			}
		}
		if err := seats[0].Start(); err != nil {
			t.Fatal(err)
		}
		tb := seats[0].t
		var allocs float64
		if err := tb.call(func() error { allocs = testing.AllocsPerRun(50, tb.publish); return nil }); err != nil {
			t.Fatal(err)
		}
		want := 1.0
		if len(seats) > maxInlineSeats {
			want = 2
		}
		if allocs != want && !raceEnabled {
			t.Errorf("a publish at a table of %d seats and a spectator allocates %v objects, want %v", len(seats), allocs, want)
		}
	}
}
