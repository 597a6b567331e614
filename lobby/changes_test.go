package lobby

import (
	"slices"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
)

// closedSoon reports whether ch closes within a generous bound (a ceiling
// against hangs, not a speed assertion).
func closedSoon(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	case <-time.After(10 * time.Second):
		return false
	}
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// TestChangedWakesHomeScreens: Changed closes when a table opens, when its
// phase changes and when a seat is given up, and stays open while nothing
// the home screen shows changes; HeldSeat follows the seat.
func TestChangedWakesHomeScreens(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	ann := ident("ann")
	if _, ok := h.HeldSeat(ann.Account); ok {
		t.Fatal("ann holds a seat before sitting anywhere")
	}

	ch := h.Changed()
	c, err := h.Create(ann, TableSpec{Game: "secret", Seats: 2, Options: map[string]string{"turns": "0"}})
	if err != nil {
		t.Fatal(err)
	}
	if !closedSoon(ch) {
		t.Fatal("Changed did not close when a table opened")
	}
	s, ok := h.HeldSeat(ann.Account)
	if !ok || s.Phase != Waiting {
		t.Fatalf("HeldSeat = %+v, %v; want ann's waiting table", s, ok)
	}

	// A chat line changes nothing the home screen shows.
	waitView(t, c, "the table published", func(v TableView) bool { return v.Version > 0 })
	ch = h.Changed()
	if err := c.Chat("hello"); err != nil {
		t.Fatal(err)
	}
	waitView(t, c, "the chat line", func(v TableView) bool { return len(v.Chat) == 1 })
	if isClosed(ch) {
		t.Error("a chat line woke the home screens")
	}

	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if !closedSoon(ch) {
		t.Fatal("Changed did not close when the game started")
	}
	if s, ok := h.HeldSeat(ann.Account); !ok || s.Phase != Playing {
		t.Fatalf("HeldSeat = %+v, %v; want ann's game in play", s, ok)
	}
}

// TestHeldSeatEndsWhenLeft: once a waiting table is left, the seat is no
// longer held and home screens are told.
func TestHeldSeatEndsWhenLeft(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	ann := ident("ann")
	c, err := h.Create(ann, TableSpec{Game: "secret", Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	waitView(t, c, "the table published", func(v TableView) bool { return v.Version > 0 })
	ch := h.Changed()
	c.Leave()
	if !closedSoon(ch) {
		t.Fatal("Changed did not close when the only player left")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, ok := h.HeldSeat(ann.Account); !ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("ann still holds a seat after leaving")
		}
		closedSoon(h.Changed())
	}
}

// TestChangedFollowsThePools: home screens count the people seeking each
// game, so joining a pool, leaving it and being seated from it each close
// Changed.
func TestChangedFollowsThePools(t *testing.T) {
	h, _ := clockHub(t, newMemStore(), nil)
	ch := h.Changed()
	ann := seek(t, h, ident("ann"), 2)
	if !isClosed(ch) {
		t.Fatal("Changed did not close when ann began seeking")
	}
	ch = h.Changed()
	ann.Cancel()
	if !isClosed(ch) {
		t.Fatal("Changed did not close when ann stopped seeking")
	}
	ann = seek(t, h, ident("ann"), 2)
	ch = h.Changed()
	bo := seek(t, h, ident("bo"), 2)
	seated(t, ann)
	seated(t, bo)
	if !isClosed(ch) || h.Seeking()["secret"] != 0 {
		t.Fatalf("after ann and bo were seated: Changed closed %v, seeking %v", isClosed(ch), h.Seeking())
	}
	// Seeking again elsewhere ends the first seek: its pool changes too.
	cy := seek(t, h, ident("cy"), 3)
	ch = h.Changed()
	cy2, err := h.Seek(ident("cy"), SeekSpec{Game: "secret", Players: 4})
	if err != nil {
		t.Fatal(err)
	}
	if !isClosed(ch) || cy.Status().Over == "" || h.Seeking()["secret"] != 1 {
		t.Errorf("a second seek: Changed closed %v, first over %q, seeking %v", isClosed(ch), cy.Status().Over, h.Seeking())
	}
	cy2.Cancel()
}

// TestPublicCountsAgreeWithPublicTables: home's counts are the tables the
// public list shows, by phase; private tables are not counted.
func TestPublicCountsAgreeWithPublicTables(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	open := func(who string, public, start bool) {
		t.Helper()
		c, err := h.Create(ident(who), TableSpec{Game: "secret", Seats: 2, Bots: 1, Public: public})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Leave)
		if start {
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			waitView(t, c, "the game to start", func(v TableView) bool { return v.Phase == Playing })
		} else {
			waitView(t, c, "the table published", func(v TableView) bool { return v.Version > 0 })
		}
	}
	open("ann", true, false)
	open("bo", true, true)
	open("cy", true, true)
	open("dee", false, false)
	open("eve", false, true)
	waiting, playing := h.PublicCounts()
	var listed [2]int
	for _, s := range h.PublicTables() {
		listed[s.Phase]++
	}
	if waiting != 1 || playing != 2 || listed != [2]int{waiting, playing} {
		t.Errorf("PublicCounts = %d waiting, %d playing; PublicTables lists %v; want 1 and 2", waiting, playing, listed)
	}
}

// TestChangeWakesHomeScreensAGroupAtATime: a change closes the waits of
// the first changeGroup waiters at once and the others one group per
// step; a wait taken after the change is closed only by a later change,
// and one taken while the groups are still being woken joins none of
// them. The steps are run by hand: nothing here is timed.
func TestChangeWakesHomeScreensAGroupAtATime(t *testing.T) {
	var steps []func()
	c := &changes{after: func(d time.Duration, f func()) {
		if d <= 0 {
			t.Errorf("step after %v", d)
		}
		steps = append(steps, f)
	}}
	const waiters = 3*changeGroup + 5
	var chs []<-chan struct{}
	for range waiters {
		chs = append(chs, c.wait())
	}
	closed := func() int {
		n := 0
		for _, ch := range chs {
			if isClosed(ch) {
				n++
			}
		}
		return n
	}
	step := func() {
		t.Helper()
		if len(steps) != 1 {
			t.Fatalf("%d steps on their way, want 1", len(steps))
		}
		f := steps[0]
		steps = steps[:0]
		f()
	}
	if closed() != 0 {
		t.Fatal("a wait closed before any change")
	}

	c.signal()
	if got := closed(); got != changeGroup {
		t.Fatalf("a change closed %d of %d waits at once, want %d", got, waiters, changeGroup)
	}
	late := c.wait() // asked after the change: the walk under way is not for it
	c.signal()       // a second change meanwhile starts no second walk
	if got := closed(); got != changeGroup {
		t.Fatalf("a second change closed %d waits at once, want %d", got, changeGroup)
	}
	step()
	if got := closed(); got != 2*changeGroup {
		t.Fatalf("after one step %d waits closed, want %d", got, 2*changeGroup)
	}
	step()
	step()
	if got := closed(); got != waiters {
		t.Fatalf("after three steps %d of %d waits closed", got, waiters)
	}
	// The second change came after late was handed out: its group is
	// the last one woken.
	if isClosed(late) {
		t.Fatal("the wait taken during the walk closed with the groups before it")
	}
	step()
	if !isClosed(late) {
		t.Fatal("the change after the wait was taken did not close it")
	}
	if len(steps) != 0 {
		t.Fatalf("%d steps still on their way with nothing left to close", len(steps))
	}

	// A change with nobody waiting closes nothing and leaves nothing
	// for the next waiter, whose wait closes at the next change.
	c.signal()
	ch := c.wait()
	if isClosed(ch) || len(steps) != 0 {
		t.Fatal("a change nobody waited for reached a later wait")
	}
	c.signal()
	if !isClosed(ch) {
		t.Fatal("a lone waiter was not woken at once")
	}
}

// TestHeldSeatsListsEveryTable: a player seated at two tables is offered
// both, the newest first; leaving the newer one leaves the older one to go
// back to (HeldSeat used to forget every seat but the newest).
func TestHeldSeatsListsEveryTable(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	ann := ident("ann")
	var conns []*Conn
	for range 2 {
		c, err := h.Create(ann, TableSpec{Game: "secret", Seats: 2})
		if err != nil {
			t.Fatal(err)
		}
		waitView(t, c, "the table published", func(v TableView) bool { return v.Version > 0 })
		conns = append(conns, c)
	}
	older, newer := conns[0].View().Code, conns[1].View().Code
	codes := func() []string {
		var out []string
		for _, s := range h.HeldSeats(ann.Account) {
			out = append(out, s.Code)
		}
		return out
	}
	if got := codes(); !slices.Equal(got, []string{newer, older}) {
		t.Fatalf("HeldSeats = %v, want the newer table then the older: %v", got, []string{newer, older})
	}
	conns[1].Leave()
	deadline := time.Now().Add(10 * time.Second)
	for !slices.Equal(codes(), []string{older}) {
		if time.Now().After(deadline) {
			t.Fatalf("HeldSeats = %v after leaving %s, want only %s", codes(), newer, older)
		}
		closedSoon(h.Changed())
	}
	if s, ok := h.HeldSeat(ann.Account); !ok || s.Code != older {
		t.Fatalf("HeldSeat = %+v, %v after leaving the newer table; want the older one, %s", s, ok, older)
	}
	if c, ok := h.Resume(ann); !ok || c.View().Code != older {
		t.Fatalf("Resume after leaving the newer table: %v; want a way back to %s", ok, older)
	}
}

// TestHeldSeatsSayWhenABotPlays: when a bot takes a seat whose player
// stayed away past the grace, the lobby's change notice goes out (home
// learns it without polling) and HeldSeats, still listing the seat, says a
// bot plays it; taking the seat back is a change too, and the bot is gone
// from it.
func TestHeldSeatsSayWhenABotPlays(t *testing.T) {
	h := testHub(t, newMemStore(), func(c *Config) { c.Grace = 10 * time.Millisecond })
	ann, bob := startTwo(t, h, engine.Options{"turns": "30"})
	botPlays := func(who string) bool {
		t.Helper()
		held := h.HeldSeats(ident(who).Account)
		if len(held) != 1 || held[0].Code != ann.View().Code {
			t.Fatalf("HeldSeats(%s) = %+v; want table %s", who, held, ann.View().Code)
		}
		return held[0].BotPlays
	}
	if botPlays("bob") {
		t.Fatal("HeldSeats says a bot plays bob's seat while he plays it")
	}
	changed := h.Changed()
	bob.Leave()
	waitView(t, ann, "a bot in bob's seat", func(v TableView) bool { return v.Seats[1].Replaced })
	if !isClosed(changed) {
		t.Fatal("no change notice when a bot took bob's seat")
	}
	if !botPlays("bob") || botPlays("ann") {
		t.Fatal("HeldSeats does not say a bot plays bob's seat (and only his)")
	}
	changed = h.Changed()
	if _, ok := h.Resume(ident("bob")); !ok {
		t.Fatal("bob cannot take his seat back")
	}
	if !isClosed(changed) {
		t.Fatal("no change notice when bob took his seat back from the bot")
	}
	if botPlays("bob") {
		t.Fatal("HeldSeats still says a bot plays bob's seat after he took it back")
	}
}
