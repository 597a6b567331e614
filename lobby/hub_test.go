package lobby

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
)

func TestCodes(t *testing.T) {
	seen := map[string]bool{}
	for range 200 {
		c, err := newCode()
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(c, "01OIL") || len(c) != codeLen {
			t.Fatalf("bad code %q", c)
		}
		seen[c] = true
		n, ok := NormalizeCode(strings.ToLower(FormatCode(c)))
		if !ok || n != c {
			t.Fatalf("NormalizeCode(%q) = %q, %v", FormatCode(c), n, ok)
		}
	}
	if len(seen) < 195 {
		t.Errorf("only %d distinct codes out of 200", len(seen))
	}
	for _, bad := range []string{"", "KQ7M4", "KQ7M4XX", "KQ7-M4O", "KQ7_M4X", "KQ7M4\x1b"} {
		if _, ok := NormalizeCode(bad); ok {
			t.Errorf("NormalizeCode(%q) accepted", bad)
		}
	}
	if n, ok := NormalizeCode(" kq7 m4x "); !ok || n != "KQ7M4X" {
		t.Errorf("spaces: %q %v", n, ok)
	}
}

func TestCreateJoinWatchStart(t *testing.T) {
	store := newMemStore()
	h := testHub(t, store, nil)
	ann, err := h.Create(ident("ann"), TableSpec{Game: "secret", Seats: 3, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	v := ann.View()
	if v.Phase != Waiting || !v.Host || v.Seats[0].Handle != "ann" || !v.Seats[0].Connected || !v.Seats[1].Open() {
		t.Fatalf("fresh table view: %+v", v)
	}
	if _, ok := NormalizeCode(v.Code); !ok || v.Code[3] != '-' {
		t.Fatalf("code %q not in display form", v.Code)
	}
	typed := strings.ToLower(strings.ReplaceAll(v.Code, "-", " "))
	bob, err := h.Join(ident("bob"), typed)
	if err != nil {
		t.Fatal(err)
	}
	if bv := bob.View(); !bv.You.IsSeat(1) || bv.Host {
		t.Fatalf("bob: %+v", bv.You)
	}
	cat, err := h.Watch(ident("cat"), v.Code)
	if err != nil {
		t.Fatal(err)
	}
	list := h.PublicTables()
	if len(list) != 1 || list[0].Code != v.Code || list[0].Humans != 2 || list[0].Open != 1 || list[0].Spectators != 1 || list[0].Host != "ann" {
		t.Fatalf("public tables: %+v", list)
	}
	if sessions, tables := h.Online(); sessions != 3 || tables != 1 {
		t.Fatalf("online %d sessions %d tables", sessions, tables)
	}
	if err := cat.Act(say(1)); err == nil {
		t.Fatal("a spectator could act")
	}
	if err := bob.Start(); err == nil || !strings.Contains(err.Error(), "host") {
		t.Fatalf("non-host start: %v", err)
	}
	if err := ann.Start(); err == nil || !strings.Contains(err.Error(), "bob") {
		t.Fatalf("start before bob is ready: %v", err)
	}
	if err := bob.SetReady(true); err != nil {
		t.Fatal(err)
	}
	if err := ann.Start(); err != nil {
		t.Fatal(err)
	}
	v = ann.View()
	if v.Phase != Playing || v.GameID == "" || !v.Seats[2].Bot || v.Seats[2].Handle == "" {
		t.Fatalf("after start: %+v", v)
	}
	if _, err := h.Join(ident("dan"), v.Code); err == nil {
		t.Fatal("joined a game in progress")
	}
	if err := bob.Act(say(5)); !engine.IsIllegal(err) {
		t.Fatalf("out of turn: %v", err)
	}
	if err := ann.Act([]byte(`{"say":`)); !engine.IsIllegal(err) {
		t.Fatalf("garbage action: %v", err)
	}
	if err := ann.Act(say(7)); err != nil {
		t.Fatal(err)
	}
	if err := bob.Act(say(8)); err != nil {
		t.Fatal(err)
	}
	// The bot in seat 2 moves by itself; then it is ann's turn again.
	v = waitView(t, ann, "the bot's move", func(v TableView) bool { return v.Status.Turn == 4 })
	if got := board(t, v).Said; fmt.Sprint(got) != "[7 8 2]" {
		t.Fatalf("said %v", got)
	}
	if n := store.liveMoves(v.GameID); n != 3 {
		t.Fatalf("store has %d moves, want 3", n)
	}
	sv := waitView(t, cat, "spectator sees turn 4", func(v TableView) bool { return v.Status.Turn == 4 })
	if sv.Spectators != 1 || sv.Host || sv.You.Kind != engine.ViewerSpectator {
		t.Fatalf("spectator view: %+v", sv)
	}
	checkNoLeak(t, sv, -1)
	checkNoLeak(t, ann.View(), 0)
	checkNoLeak(t, bob.View(), 1)
}

// checkNoLeak fails if a view shows a secret other than seat's own (seat -1:
// none at all).
func checkNoLeak(t testing.TB, v TableView, seat int) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for i := range len(v.Seats) {
		has := strings.Contains(s, fmt.Sprintf("SECRET%d-", i))
		if v.Phase == Finished {
			// A finished game is revealed to everyone, as its replay would be.
			if !has {
				t.Errorf("viewer %v of a finished game does not see seat %d's secret", v.You, i)
			}
			continue
		}
		if i == seat && v.Phase == Playing && !has {
			t.Errorf("seat %d cannot see its own secret", seat)
		}
		if i != seat && has {
			t.Errorf("viewer %v sees seat %d's secret: %s", v.You, i, s)
		}
	}
}

// Quick play seats bots at the game's default level: the one it names
// (cooperative games name a strong one), else the middle one.
func TestQuickPlayBotsAtTheDefaultLevel(t *testing.T) {
	h := testHub(t, newMemStore(), nil, teamGame{})
	for game, want := range map[string]string{"secret": "sharp", "team": "easy"} {
		c, err := h.QuickPlay(ident("ann-"+game), game)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range c.View().Seats[1:] {
			if !s.Bot || s.BotLevel != want {
				t.Errorf("%s: seat %d is %+v, want a %s bot", game, i+1, s, want)
			}
		}
	}
}

// TestQuickPlayAtAChosenLevel: quick play seats its bots at the level the
// player chose, and refuses a level the game does not have.
func TestQuickPlayAtAChosenLevel(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	c, err := h.QuickPlayLevel(ident("ann"), "secret", "easy")
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range c.View().Seats[1:] {
		if !s.Bot || s.BotLevel != "easy" {
			t.Errorf("seat %d is %+v, want an easy bot", i+1, s)
		}
	}
	if _, err := h.QuickPlayLevel(ident("bob"), "secret", "godlike"); err == nil || !engine.IsIllegal(err) {
		t.Errorf("an unknown level: err = %v, want a refusal", err)
	}
}

func TestQuickPlayToTheEnd(t *testing.T) {
	store := newMemStore()
	h := testHub(t, store, nil)
	c, err := h.QuickPlay(ident("ann"), "secret")
	if err != nil {
		t.Fatal(err)
	}
	v := c.View()
	if v.Phase != Playing || len(v.Seats) != 3 || !v.Seats[1].Bot || !v.Seats[2].Bot || v.Public {
		t.Fatalf("quick play: %+v", v)
	}
	// A spectator checks every version it is told about.
	spy, err := h.Watch(ident("spy"), v.Code)
	if err != nil {
		t.Fatal(err)
	}
	spied := make(chan []TableView)
	go func() {
		var seen []TableView
		for {
			sv := spy.View()
			seen = append(seen, sv)
			if sv.Phase != Playing {
				spied <- seen
				return
			}
			<-spy.Updates()
		}
	}()
	for v.Phase == Playing {
		v = waitView(t, c, "my turn or the end", func(v TableView) bool {
			return v.Phase != Playing || board(t, v).Active == 0
		})
		checkNoLeak(t, v, 0)
		if v.Phase == Playing {
			if err := c.Act(say(1)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if v.Phase != Finished || v.Result == nil || v.Notice != v.Result.Summary {
		t.Fatalf("end: %+v", v)
	}
	seen := <-spied
	for _, sv := range seen {
		checkNoLeak(t, sv, -1)
	}
	if last := seen[len(seen)-1]; last.Phase != Finished || len(last.Log) != 6 {
		t.Fatalf("spectator's last view: %v with %d events", last.Phase, len(last.Log))
	}
	store.mu.Lock()
	fg, ok := store.finished[v.GameID]
	store.mu.Unlock()
	if !ok || len(fg.Record.Moves) != 6 || fg.Seats[0].AccountID != "SHA256:ann" || !fg.Seats[1].Bot {
		t.Fatalf("finished record: %+v", fg)
	}
	// Replaying the record gives the same end.
	st, _, err := engine.Replay(engine.NewRegistry(secretGame{}), fg.Record, -1)
	if err != nil {
		t.Fatal(err)
	}
	if res, ok := st.Result(); !ok || res.Summary != fg.Result.Summary {
		t.Fatalf("replay result %+v %v", res, ok)
	}
}

func TestWrongCodesAndLimit(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	h := testHub(t, newMemStore(), func(c *Config) { c.Now = clock.Now; c.JoinFailuresPerMinute = 3 })
	ann, err := h.Create(ident("ann"), TableSpec{Game: "secret", Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	code := ann.View().Code
	_, err = h.Join(ident("eve"), "ZZZ-ZZZ")
	if !errors.Is(err, ErrNoTable) || !strings.Contains(err.Error(), "KQ7-M4X") {
		t.Fatalf("wrong code: %v", err)
	}
	for _, typed := range []string{"not a code", "\x1b[31m"} {
		if _, err := h.Watch(ident("eve"), typed); !errors.Is(err, ErrNoTable) {
			t.Fatalf("malformed code %q: %v", typed, err)
		}
	}
	if _, err := h.Join(ident("eve"), code); !errors.Is(err, ErrTooManyCodes) {
		t.Fatalf("after 3 wrong codes, a right one should be refused too: %v", err)
	}
	if _, err := h.Join(ident("bob"), code); err != nil {
		t.Fatalf("another account is not limited: %v", err)
	}
	clock.Add(61 * time.Second)
	if _, err := h.Watch(ident("eve"), code); err != nil {
		t.Fatalf("after a minute: %v", err)
	}
	if _, err := h.Create(ident("x"), TableSpec{Game: "nope", Seats: 2}); !engine.IsIllegal(err) {
		t.Fatalf("unknown game: %v", err)
	}
	if _, err := h.Create(ident("x"), TableSpec{Game: "secret", Seats: 1}); !engine.IsIllegal(err) {
		t.Fatalf("one seat: %v", err)
	}
	if _, err := h.Create(Identity{}, TableSpec{Game: "secret", Seats: 2}); !errors.Is(err, ErrNoIdentity) {
		t.Fatalf("no identity: %v", err)
	}
}

// startTwo creates a 2-seat table for ann and bob and starts it.
func startTwo(t *testing.T, h *Hub, opts engine.Options) (ann, bob *Conn) {
	t.Helper()
	ann, err := h.Create(ident("ann"), TableSpec{Game: "secret", Seats: 2, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	bob, err = h.Join(ident("bob"), ann.View().Code)
	if err != nil {
		t.Fatal(err)
	}
	if err := bob.SetReady(true); err != nil {
		t.Fatal(err)
	}
	if err := ann.SetReady(true); err != nil { // everyone ready: starts by itself
		t.Fatal(err)
	}
	if p := ann.View().Phase; p != Playing {
		t.Fatalf("phase %v after everyone is ready", p)
	}
	return ann, bob
}

func TestSlowConnDoesNotBlockTable(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	ann, bob := startTwo(t, h, engine.Options{"turns": "0"})
	stuck, err := h.Watch(ident("stuck"), ann.View().Code) // never reads Updates
	if err != nil {
		t.Fatal(err)
	}
	for i := range 500 {
		if err := ann.Act(say(i)); err != nil {
			t.Fatal(err)
		}
		if err := bob.Act(say(i)); err != nil {
			t.Fatal(err)
		}
	}
	if v := stuck.View(); v.Status.Turn != 1001 || board(t, v).Moves != 1000 {
		t.Fatalf("the stuck viewer's latest view is at turn %d", v.Status.Turn)
	}
	if len(stuck.Updates()) != 1 {
		t.Fatal("a pending update should be waiting for the stuck viewer")
	}
}

func TestReconnectWithinGrace(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	ann, bob := startTwo(t, h, nil)
	if err := ann.Act(say(1)); err != nil {
		t.Fatal(err)
	}
	bob.Leave()
	<-bob.Done()
	if bob.Reason() == "" {
		t.Fatal("no reason after Leave")
	}
	waitView(t, ann, "bob disconnected", func(v TableView) bool { return !v.Seats[1].Connected })
	bob2, ok := h.Resume(ident("bob"))
	if !ok {
		t.Fatal("Resume found no seat")
	}
	v := bob2.View()
	if !v.You.IsSeat(1) || !v.Seats[1].Connected || v.Seats[1].Replaced || board(t, v).Moves != 1 {
		t.Fatalf("resumed view: %+v", v)
	}
	if err := bob2.Act(say(2)); err != nil {
		t.Fatal(err)
	}
	if err := bob.Act(say(3)); !errors.Is(err, ErrNotHere) {
		t.Fatalf("old conn acting: %v", err)
	}
	if _, ok := h.Resume(ident("nobody")); ok {
		t.Fatal("resumed a seat that does not exist")
	}
}

func TestSecondLoginTakesOver(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	ann, bob := startTwo(t, h, nil)
	bob2, err := h.Join(ident("bob"), ann.View().Code)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-bob.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("the old session was not ended")
	}
	if !strings.Contains(bob.Reason(), "elsewhere") {
		t.Fatalf("reason %q", bob.Reason())
	}
	if !bob2.View().You.IsSeat(1) {
		t.Fatal("takeover got another seat")
	}
	if err := ann.Act(say(1)); err != nil {
		t.Fatal(err)
	}
	if err := bob.Act(say(2)); !errors.Is(err, ErrNotHere) {
		t.Fatalf("old conn: %v", err)
	}
	if err := bob2.Act(say(2)); err != nil {
		t.Fatal(err)
	}
	if s, _ := h.Online(); s != 2 {
		t.Fatalf("%d sessions, want 2", s)
	}
}

func TestGraceExpiryBotTakesOver(t *testing.T) {
	store := newMemStore()
	h := testHub(t, store, func(c *Config) { c.Grace = 10 * time.Millisecond })
	ann, bob := startTwo(t, h, engine.Options{"turns": "30"})
	if err := ann.Act(say(1)); err != nil {
		t.Fatal(err)
	}
	bob.Leave()
	v := waitView(t, ann, "a bot in bob's seat", func(v TableView) bool { return v.Seats[1].Replaced })
	if !v.Seats[1].Bot || v.Seats[1].Connected || !strings.Contains(v.Notice, "bot") {
		t.Fatalf("after grace: %+v / %q", v.Seats[1], v.Notice)
	}
	// The seat is still bob's to take back (below), so home rightly keeps
	// offering the way back to it.
	if held := h.HeldSeats(ident("bob").Account); len(held) != 1 || held[0].Code != v.Code {
		t.Fatalf("HeldSeats(bob) with a bot in his seat = %+v; want table %s", held, v.Code)
	}
	// The bot plays bob's turn.
	v = waitView(t, ann, "the bot's move", func(v TableView) bool { return board(t, v).Moves == 2 })
	if err := ann.Act(say(3)); err != nil {
		t.Fatal(err)
	}
	waitView(t, ann, "the bot's second move", func(v TableView) bool { return board(t, v).Moves == 4 })
	// Bob comes back and takes his seat from the bot; the game stays marked.
	bob2, ok := h.Resume(ident("bob"))
	if !ok {
		t.Fatal("bob cannot come back")
	}
	v = bob2.View()
	if !v.Seats[1].Replaced || v.Seats[1].Bot || !v.Seats[1].Connected {
		t.Fatalf("bob back: %+v", v.Seats[1])
	}
	if err := ann.Act(say(5)); err != nil {
		t.Fatal(err)
	}
	if err := bob2.Act(say(6)); err != nil {
		t.Fatal(err)
	}
	// When everyone is gone past the grace period, the game is abandoned.
	gameID := v.GameID
	ann.Leave()
	bob2.Leave()
	deadline := time.Now().Add(20 * time.Second)
	for !store.wasAbandoned(gameID) {
		if time.Now().After(deadline) {
			t.Fatal("an empty game was not abandoned")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestChatSanitisedAndLimited(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	h := testHub(t, newMemStore(), func(c *Config) { c.Now = clock.Now; c.ChatPerMinute = 3; c.MaxChatLen = 20 })
	ann, err := h.Create(ident("ann"), TableSpec{Game: "secret", Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	spy, err := h.Watch(Identity{Account: "guest:1", Handle: "sp\x1b[2Jy", Guest: true}, ann.View().Code)
	if err != nil {
		t.Fatal(err)
	}
	hostile := "hi\x1b[31m red\x1b]52;c;cm0gLXJmIC8=\x07\u202eevil\u200b!\r\nbye\u009b2J"
	if err := ann.Chat(hostile); err != nil {
		t.Fatal(err)
	}
	if err := spy.Chat("x"); err != nil {
		t.Fatal(err)
	}
	if err := ann.Chat(strings.Repeat("long ", 50)); err != nil {
		t.Fatal(err)
	}
	if err := ann.Chat("third"); err != nil {
		t.Fatal(err)
	}
	if err := ann.Chat("  \x1b[0m  "); err == nil {
		t.Fatal("an empty line was accepted")
	}
	if err := ann.Chat("one too many"); !engine.IsIllegal(err) || !strings.Contains(err.Error(), "fast") {
		t.Fatalf("rate limit: %v", err)
	}
	v := spy.View()
	if len(v.Chat) != 4 {
		t.Fatalf("chat: %+v", v.Chat)
	}
	if got := v.Chat[0].Text; got != "hi redevil! bye" {
		t.Errorf("sanitised chat = %q", got)
	}
	if v.Chat[1].Handle != "spy" {
		t.Errorf("handle not sanitised: %q", v.Chat[1].Handle)
	}
	if n := len([]rune(v.Chat[2].Text)); n > 20 {
		t.Errorf("long line kept %d runes", n)
	}
	clock.Add(time.Minute)
	if err := ann.Chat("later"); err != nil {
		t.Fatalf("after a minute: %v", err)
	}
}

func TestTimerMovesAreLogged(t *testing.T) {
	store := newMemStore()
	h := testHub(t, store, nil)
	c, err := h.Create(ident("ann"), TableSpec{Game: "secret", Seats: 2, Options: engine.Options{"timer": "5", "turns": "6"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Join(ident("bob"), c.View().Code); err != nil {
		t.Fatal(err)
	}
	// Nobody moves: the clock plays every turn out.
	if err := c.Start(); err == nil {
		t.Fatal("started with bob not ready")
	}
	bob, _ := h.Resume(ident("bob"))
	if err := bob.SetReady(true); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	gameID := c.View().GameID
	v := waitView(t, c, "the end by timeouts", func(v TableView) bool { return v.Phase == Finished })
	store.mu.Lock()
	fg := store.finished[gameID]
	store.mu.Unlock()
	for i, m := range fg.Record.Moves {
		if m.Seat != engine.System {
			t.Fatalf("move %d by seat %d, want the system", i, m.Seat)
		}
	}
	if len(fg.Record.Moves) != 6 || !strings.Contains(v.Log[0].Text, "ran out of time") {
		t.Fatalf("moves %d, log %+v", len(fg.Record.Moves), v.Log)
	}
	if !v.Deadline.IsZero() {
		t.Fatalf("a finished game still shows a deadline %v", v.Deadline)
	}
}

func TestDeadlineFollowsTheTimer(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	// The engine's timer alone: the turn clock is off (see turnclock_test.go).
	h := testHub(t, newMemStore(), func(c *Config) { c.Now, c.TurnTime = clock.Now, -1 })

	// An untimed game shows no deadline.
	ann, _ := startTwo(t, h, engine.Options{"turns": "0"})
	if d := ann.View().Deadline; !d.IsZero() {
		t.Fatalf("untimed game has a deadline %v", d)
	}

	// A long timer: the deadline is the table's now plus the delay, for
	// players and spectators alike, and a move starts a fresh one.
	ann, _ = startTwo(t, h, engine.Options{"turns": "0", "timer": "60000"})
	spy, err := h.Watch(ident("spy"), ann.View().Code)
	if err != nil {
		t.Fatal(err)
	}
	want := clock.Now().Add(time.Minute)
	if got := ann.View().Deadline; !got.Equal(want) {
		t.Fatalf("deadline %v, want %v", got, want)
	}
	if got := spy.View().Deadline; !got.Equal(want) {
		t.Fatalf("spectator's deadline %v, want %v", got, want)
	}
	if ann.View().TurnClock {
		t.Fatal("the game's own timer is said to be the turn clock")
	}
	clock.Add(10 * time.Second)
	if err := ann.Act(say(1)); err != nil {
		t.Fatal(err)
	}
	if got, want := ann.View().Deadline, clock.Now().Add(time.Minute); !got.Equal(want) {
		t.Fatalf("deadline after a move %v, want %v", got, want)
	}

	// A short timer on the first turn only: once it fires the game goes on
	// untimed and the deadline is gone.
	h2 := testHub(t, newMemStore(), func(c *Config) { c.Now, c.TurnTime = clock.Now, -1 })
	cat, _ := startTwo(t, h2, engine.Options{"turns": "0", "timer": "5", "timed": "1"})
	v := waitView(t, cat, "the timeout", func(v TableView) bool { return board(t, v).Moves == 1 })
	if v.Phase != Playing || !v.Deadline.IsZero() {
		t.Fatalf("after the timer fired: phase %v, deadline %v", v.Phase, v.Deadline)
	}
	if n := len(v.Log); n == 0 || !strings.Contains(v.Log[n-1].Text, "ran out of time") {
		t.Fatalf("log %+v", v.Log)
	}
}

// TestFailedAppendLosesNothing checks that a move the Store refused is
// nowhere: not on the board, not in any seat's or spectator's log, not in
// the Store; and that a retry then shows it, once, everywhere.
func TestFailedAppendLosesNothing(t *testing.T) {
	store := newMemStore()
	h := testHub(t, store, nil)
	ann, bob := startTwo(t, h, nil)
	spy, err := h.Watch(ident("spy"), ann.View().Code)
	if err != nil {
		t.Fatal(err)
	}
	if err := ann.Act(say(1)); err != nil {
		t.Fatal(err)
	}
	store.mu.Lock()
	store.failAppend = 1
	store.mu.Unlock()
	if err := bob.Act(say(2)); !errors.Is(err, ErrNotSaved) {
		t.Fatalf("failed append: %v", err)
	}
	// A spectator arriving now makes the table publish what it holds.
	late, err := h.Watch(ident("late"), ann.View().Code)
	if err != nil {
		t.Fatal(err)
	}
	waitView(t, ann, "the late spectator", func(v TableView) bool { return v.Spectators == 2 })
	before := map[string][]string{
		"ann": {"say: ann said 1", "psst: own secret"},
		"bob": {"say: ann said 1"},
		"spy": {"say: ann said 1"},
	}
	after := map[string][]string{
		"ann": {"say: ann said 1", "psst: own secret", "say: bob said 2"},
		"bob": {"say: ann said 1", "say: bob said 2", "psst: own secret"},
		"spy": {"say: ann said 1", "say: bob said 2"},
	}
	viewers := []struct {
		name, kind string
		c          *Conn
	}{{"ann", "ann", ann}, {"bob", "bob", bob}, {"spy", "spy", spy}, {"late", "spy", late}}
	for _, vw := range viewers {
		v := vw.c.View()
		if b := board(t, v); b.Moves != 1 || fmt.Sprint(b.Said) != "[1]" {
			t.Errorf("%s was shown an unsaved move: %+v", vw.name, b)
		}
		if got := logLines(t, v); !slices.Equal(got, before[vw.kind]) {
			t.Errorf("%s's log after the failed append:\n got  %q\n want %q", vw.name, got, before[vw.kind])
		}
	}
	if err := bob.Act(say(2)); err != nil {
		t.Fatalf("retry: %v", err)
	}
	for _, vw := range viewers {
		v := vw.c.View()
		if b := board(t, v); b.Moves != 2 || fmt.Sprint(b.Said) != "[1 2]" {
			t.Errorf("%s's board after the retry: %+v", vw.name, b)
		}
		if got := logLines(t, v); !slices.Equal(got, after[vw.kind]) {
			t.Errorf("%s's log after the retry:\n got  %q\n want %q", vw.name, got, after[vw.kind])
		}
	}
	store.mu.Lock()
	defer store.mu.Unlock()
	if g := store.live[ann.View().GameID]; g == nil || len(g.Record.Moves) != 2 {
		t.Errorf("stored game: %+v", g)
	}
}

// logLines is v's log as "kind: text" lines; a whisper of the viewer's own
// secret reads "psst: own secret", any other whisper keeps its text.
func logLines(t *testing.T, v TableView) []string {
	t.Helper()
	var out []string
	for _, e := range v.Log {
		text := e.Text
		if e.Kind == "psst" && v.Board != nil && text == "psst "+board(t, v).Secret {
			text = "own secret"
		}
		out = append(out, e.Kind+": "+text)
	}
	return out
}

func TestPanicBreaksOnlyThatTable(t *testing.T) {
	store := newMemStore()
	var logs syncBuffer
	h := testHub(t, store, func(c *Config) { c.Logger = slog.New(slog.NewTextHandler(&logs, nil)) })
	ann, bob := startTwo(t, h, nil)
	gameID := ann.View().GameID
	other, err := h.QuickPlay(ident("cat"), "secret")
	if err != nil {
		t.Fatal(err)
	}
	if err := ann.Act([]byte(`{"panic":true}`)); !errors.Is(err, ErrBroken) {
		t.Fatalf("panic: %v", err)
	}
	v := waitView(t, bob, "broken", func(v TableView) bool { return v.Phase == Broken })
	if v.Notice == "" || v.Board != nil {
		t.Fatalf("broken view: %+v", v)
	}
	if !store.wasAbandoned(gameID) {
		t.Fatal("a broken game was not abandoned")
	}
	if err := bob.Act(say(1)); err == nil {
		t.Fatal("acted at a broken table")
	}
	if l := logs.String(); !strings.Contains(l, "table broken") || !strings.Contains(l, "fake_test.go") {
		t.Fatalf("the panic was not logged with a stack:\n%s", l)
	}
	if err := other.Act(say(1)); err != nil {
		t.Fatalf("another table: %v", err)
	}
	// A bot that panics, or plays an illegal move, breaks its table too.
	for _, level := range []string{"panic", "broken"} {
		c, err := h.Create(ident("dan"), TableSpec{Game: "secret", Seats: 2, Bots: 1, BotLevel: level})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		if err := c.Act(say(1)); err != nil {
			t.Fatal(err)
		}
		waitView(t, c, "a table broken by its "+level+" bot", func(v TableView) bool { return v.Phase == Broken })
		c.Leave()
	}
}

func TestRematchKeepsSeatsAndCode(t *testing.T) {
	store := newMemStore()
	h := testHub(t, store, nil)
	ann, bob := startTwo(t, h, engine.Options{"turns": "2"})
	first := ann.View()
	if err := ann.Rematch(); err == nil {
		t.Fatal("rematch during play")
	}
	if err := ann.Act(say(1)); err != nil {
		t.Fatal(err)
	}
	if err := bob.Act(say(2)); err != nil {
		t.Fatal(err)
	}
	if v := bob.View(); v.Phase != Finished || v.Result == nil {
		t.Fatalf("not finished: %+v", v)
	}
	if err := bob.Rematch(); err != nil {
		t.Fatal(err)
	}
	v := ann.View()
	if v.Phase != Waiting || v.Code != first.Code || v.Seats[0].Handle != "ann" || !v.Seats[1].Ready || v.Result != nil {
		t.Fatalf("rematch view: %+v", v)
	}
	if err := ann.Start(); err != nil {
		t.Fatal(err)
	}
	if v := ann.View(); v.Phase != Playing || v.GameID == first.GameID || board(t, v).Moves != 0 {
		t.Fatalf("second game: %+v", v)
	}
}

func TestWaitingTableClosesWhenEmpty(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	ann, err := h.Create(ident("ann"), TableSpec{Game: "secret", Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	code := ann.View().Code
	bob, err := h.Join(ident("bob"), code)
	if err != nil {
		t.Fatal(err)
	}
	spy, err := h.Watch(ident("spy"), code)
	if err != nil {
		t.Fatal(err)
	}
	ann.Leave()
	v := waitView(t, bob, "bob is host", func(v TableView) bool { return v.Host })
	if !v.Seats[0].Open() {
		t.Fatalf("ann's seat not freed: %+v", v.Seats[0])
	}
	bob.Leave()
	<-spy.Done()
	if spy.Reason() == "" {
		t.Fatal("no reason for the spectator")
	}
	if _, n := h.Online(); n != 0 {
		t.Fatalf("%d tables left", n)
	}
}

// syncBuffer is a bytes.Buffer safe for a logger and a test to share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestEndedConnKeepsItsLastView: a seat freed while waiting may go to someone
// else; the old session must not see the new holder's secrets.
func TestEndedConnKeepsItsLastView(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	ann, err := h.Create(ident("ann"), TableSpec{Game: "secret", Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	code := ann.View().Code
	bob, err := h.Join(ident("bob"), code)
	if err != nil {
		t.Fatal(err)
	}
	bob.Leave()
	waitView(t, ann, "bob gone", func(v TableView) bool { return v.Seats[1].Open() })
	eve, err := h.Join(ident("eve"), code)
	if err != nil {
		t.Fatal(err)
	}
	if !eve.View().You.IsSeat(1) {
		t.Fatal("eve did not get the freed seat")
	}
	if err := eve.SetReady(true); err != nil {
		t.Fatal(err)
	}
	if err := ann.Start(); err != nil {
		t.Fatal(err)
	}
	checkNoLeak(t, eve.View(), 1)
	if v := bob.View(); v.Phase != Waiting || v.Board != nil {
		t.Fatalf("bob's ended conn shows a later view: %+v", v)
	}
}

func TestCloseEndsEverything(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	ann, bob := startTwo(t, h, nil)
	spy, err := h.Watch(ident("spy"), ann.View().Code)
	if err != nil {
		t.Fatal(err)
	}
	if s, n := h.Online(); s != 3 || n != 1 {
		t.Fatalf("online: %d sessions, %d tables", s, n)
	}
	bob.Leave()
	if v := waitView(t, ann, "bob away", func(v TableView) bool { return !v.Seats[1].Connected }); !strings.Contains(v.Notice, "held for 60 minutes") {
		t.Fatalf("notice %q", v.Notice)
	}
	h.Close()
	for _, c := range []*Conn{ann, spy} {
		<-c.Done()
		if c.Reason() == "" {
			t.Fatal("no reason at shutdown")
		}
	}
	if s, _ := h.Online(); s != 0 {
		t.Fatalf("%d sessions after Close", s)
	}
	if _, err := h.Create(ident("x"), TableSpec{Game: "secret", Seats: 2}); !errors.Is(err, ErrShutdown) {
		t.Fatalf("create after close: %v", err)
	}
	if err := ann.Act(say(1)); !errors.Is(err, ErrNotHere) {
		t.Fatalf("act after close: %v", err)
	}
}

func TestHumanDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Minute: "1 minute", 3 * time.Minute: "3 minutes", 90 * time.Second: "90 seconds",
		45 * time.Second: "45 seconds", 10 * time.Millisecond: "a moment", time.Second: "1 second",
	} {
		if got := humanDuration(d); got != want {
			t.Errorf("humanDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

// peekStore lets a test look at the views at the moment a move is appended.
type peekStore struct {
	*memStore
	onAppend func(index int)
}

func (p *peekStore) AppendMove(id string, index int, m engine.Move) error {
	if p.onAppend != nil {
		p.onAppend(index)
	}
	return p.memStore.AppendMove(id, index, m)
}

// TestMovesAreDurableBeforeShown: while the Store is appending move n, no
// viewer has been shown it yet.
func TestMovesAreDurableBeforeShown(t *testing.T) {
	store := &peekStore{memStore: newMemStore()}
	h := testHub(t, store, nil)
	ann, bob := startTwo(t, h, engine.Options{"turns": "30"})
	var bad []string
	store.onAppend = func(index int) { // runs on the table goroutine
		for _, c := range []*Conn{ann, bob} {
			if got := board(t, c.View()).Moves; got != index {
				bad = append(bad, fmt.Sprintf("appending move %d while %v already sees %d moves", index, c.Viewer(), got))
			}
		}
	}
	for i := range 3 {
		if err := ann.Act(say(i)); err != nil {
			t.Fatal(err)
		}
		if err := bob.Act(say(i)); err != nil {
			t.Fatal(err)
		}
	}
	h.Close() // after this the table goroutine is gone: bad is ours to read
	if len(bad) > 0 {
		t.Fatal(bad)
	}
	if n := store.liveMoves(ann.View().GameID); n != 6 {
		t.Fatalf("store has %d moves", n)
	}
}

// News ("The game has begun.", "bob is back.") is current until a person
// plays the next move: it used to stay as the table's latest line all game.
func TestNewsLastsUntilTheNextMove(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	ann, bob := startTwo(t, h, nil)
	if n := ann.View().Notice; n != "The game has begun." {
		t.Fatalf("at the start the news is %q", n)
	}
	if err := ann.Act(say(1)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*Conn{ann, bob} {
		if n := c.View().Notice; n != "" {
			t.Fatalf("after the first move the news is still %q", n)
		}
	}
	bob.Leave()
	<-bob.Done()
	v := waitView(t, ann, "bob disconnected", func(v TableView) bool { return !v.Seats[1].Connected })
	if !strings.Contains(v.Notice, "bob disconnected") {
		t.Fatalf("news of a disconnection after a move: %q", v.Notice)
	}
	bob2, ok := h.Resume(ident("bob"))
	if !ok {
		t.Fatal("Resume found no seat")
	}
	if n := bob2.View().Notice; n != "bob is back." {
		t.Fatalf("news of a return: %q", n)
	}
	if err := bob2.Act(say(2)); err != nil {
		t.Fatal(err)
	}
	if n := ann.View().Notice; n != "" {
		t.Fatalf("after the next move the news is still %q", n)
	}

	// A bot's move does not wipe the news (a bot moving at once would
	// clear "bob left; a bot took the seat." before anyone read it); the
	// next person's move does.
	h = testHub(t, newMemStore(), func(c *Config) { c.Grace = 10 * time.Millisecond })
	ann, bob = startTwo(t, h, engine.Options{"turns": "30"})
	if err := ann.Act(say(1)); err != nil {
		t.Fatal(err)
	}
	bob.Leave()
	v = waitView(t, ann, "the bot's move in bob's seat", func(v TableView) bool { return v.Seats[1].Replaced && board(t, v).Moves == 2 })
	if !strings.Contains(v.Notice, "a bot took the seat") {
		t.Fatalf("after the bot's move the news is %q", v.Notice)
	}
	if err := ann.Act(say(3)); err != nil {
		t.Fatal(err)
	}
	if n := ann.View().Notice; n != "" {
		t.Fatalf("after ann's move the news is still %q", n)
	}
}

// TestLastPersonLeavingBotsAbandonsUnrecorded: when the only person at a
// table of bots leaves and the grace runs out, no bot plays on: the game is
// abandoned, nothing is recorded, and whoever watches is told so (the words
// the leave question promises, tui: TestLeavingLastPersonSaysAbandoned).
func TestLastPersonLeavingBotsAbandonsUnrecorded(t *testing.T) {
	store := newMemStore()
	h := testHub(t, store, func(c *Config) { c.Grace = 10 * time.Millisecond })
	ann, err := h.Create(ident("ann"), TableSpec{Game: "secret", Seats: 2, Bots: 1, Options: engine.Options{"turns": "30"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := ann.Start(); err != nil {
		t.Fatal(err)
	}
	v := waitView(t, ann, "the game to start", func(v TableView) bool { return v.Phase == Playing })
	eve, err := h.Watch(ident("eve"), v.Code)
	if err != nil {
		t.Fatal(err)
	}
	ann.Leave()
	select {
	case <-eve.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("the table of bots did not close after its last person left")
	}
	if !store.wasAbandoned(v.GameID) {
		t.Fatal("the game left to bots was not abandoned")
	}
	store.mu.Lock()
	_, recorded := store.finished[v.GameID]
	store.mu.Unlock()
	if recorded {
		t.Fatal("the game left to bots was recorded")
	}
	if r := eve.Reason(); !strings.Contains(r, "abandoned") || !strings.Contains(r, "not recorded") {
		t.Fatalf("the spectator is told %q; want that the game was abandoned and not recorded", r)
	}
}

// botlessGame is the test game without bots.
type botlessGame struct{ secretGame }

func (botlessGame) Info() engine.Info {
	info := secretGame{}.Info()
	info.ID, info.Name, info.BotLevels, info.DefaultBotLevel = "botless", "Botless", nil, ""
	return info
}

// TestNoBotSeatLeftAbandonsTheGame: at a table of a game with no bots, a
// person who stays away past the grace ends the game for everyone,
// abandoned and not recorded, though another person is still playing; the
// view says so beforehand (TableView.NoBot), which the leave question reads
// (tui: TestLeavingABotlessGameSaysAbandoned). A table created without
// bots of a game that has them says a bot will take over
// (TestGraceExpiryBotTakesOver shows one does).
func TestNoBotSeatLeftAbandonsTheGame(t *testing.T) {
	store := newMemStore()
	h := testHub(t, store, func(c *Config) { c.Grace = 10 * time.Millisecond }, botlessGame{})
	ann, err := h.Create(ident("ann"), TableSpec{Game: "botless", Seats: 2, Options: engine.Options{"turns": "30"}})
	if err != nil {
		t.Fatal(err)
	}
	bob, err := h.Join(ident("bob"), ann.View().Code)
	if err != nil {
		t.Fatal(err)
	}
	if err := bob.SetReady(true); err != nil {
		t.Fatal(err)
	}
	if err := ann.SetReady(true); err != nil {
		t.Fatal(err)
	}
	v := waitView(t, ann, "the game to start", func(v TableView) bool { return v.Phase == Playing })
	if !v.NoBot || !bob.View().NoBot {
		t.Fatal("the view of a game without bots does not say no bot takes a seat over")
	}
	bob.Leave()
	select {
	case <-ann.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("the game went on after bob's grace ran out with no bot to take his seat")
	}
	if r := ann.Reason(); !strings.Contains(r, "abandoned") || !strings.Contains(r, "not recorded") {
		t.Fatalf("ann is told %q; want that the game was abandoned and not recorded", r)
	}
	if !store.wasAbandoned(v.GameID) {
		t.Fatal("the game was not abandoned")
	}

	other, _ := startTwo(t, h, nil) // a game with bots, the table created without
	if other.View().NoBot {
		t.Fatal("a table of a game with bots says no bot takes a seat over")
	}
}
