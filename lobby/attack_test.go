package lobby

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
)

// guest is a fresh guest session: a new account each time, as a client
// without a key gets for every session, on the given connection and address.
func guest(n int, conn, addr string) Identity {
	return Identity{Account: fmt.Sprintf("guest:%d", n), Handle: fmt.Sprintf("guest-%d", n), Guest: true, ConnID: conn, Addr: addr}
}

// The attack: sessions opened one after another on one connection, each a
// new guest, each guessing codes. The limit must follow the connection and
// the address, or it never bites.
func TestWrongCodesCountPerConnectionAndAddressNotJustAccount(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	h := testHub(t, newMemStore(), func(c *Config) { c.Now = clock.Now })
	host, err := h.Create(ident("host"), TableSpec{Game: "secret", Seats: 12})
	if err != nil {
		t.Fatal(err)
	}
	code := host.View().Code

	n := 0
	next := func(conn, addr string) Identity { n++; return guest(n, conn, addr) }
	for i := range 10 {
		if _, err := h.Join(next("c1", "203.0.113.5"), "ZZZZZZ"); !errors.Is(err, ErrNoTable) {
			t.Fatalf("wrong code %d: %v", i+1, err)
		}
	}
	// A new guest on the same connection, with the right code: refused.
	if _, err := h.Join(next("c1", "203.0.113.5"), code); !errors.Is(err, ErrTooManyCodes) {
		t.Fatalf("11th try from the same connection as a new guest: %v, want %v", err, ErrTooManyCodes)
	}
	// A new connection from the same address: refused too.
	if _, err := h.Join(next("c2", "203.0.113.5"), code); !errors.Is(err, ErrTooManyCodes) {
		t.Fatalf("a new connection from the same address: %v, want %v", err, ErrTooManyCodes)
	}
	// Somebody else is not held up.
	if c, err := h.Join(next("c3", "198.51.100.9"), code); err != nil {
		t.Fatalf("another address: %v", err)
	} else {
		c.Leave()
	}
	// A key counts against its account wherever it connects from.
	for i := range 10 {
		id := ident("mallory")
		id.ConnID, id.Addr = fmt.Sprintf("k%d", i), fmt.Sprintf("192.0.2.%d", i)
		if _, err := h.Join(id, "ZZZZZZ"); !errors.Is(err, ErrNoTable) {
			t.Fatalf("key, wrong code %d: %v", i+1, err)
		}
	}
	id := ident("mallory")
	id.ConnID, id.Addr = "k99", "192.0.2.99"
	if _, err := h.Join(id, code); !errors.Is(err, ErrTooManyCodes) {
		t.Fatalf("a key from a new address after 10 wrong codes: %v", err)
	}

	// After a minute the address may try again, but only up to the hourly
	// cap: 60 wrong codes an hour.
	wrong := 10
	for minute := 1; wrong < 60; minute++ {
		clock.Add(time.Minute)
		for range 10 {
			if _, err := h.Join(next(fmt.Sprintf("m%d", minute), "203.0.113.5"), "ZZZZZZ"); !errors.Is(err, ErrNoTable) {
				t.Fatalf("minute %d, wrong code %d: %v", minute, wrong+1, err)
			}
			wrong++
		}
	}
	clock.Add(time.Minute)
	if _, err := h.Join(next("late", "203.0.113.5"), code); !errors.Is(err, ErrTooManyCodes) {
		t.Fatalf("after 60 wrong codes within the hour: %v, want %v", err, ErrTooManyCodes)
	}
	clock.Add(time.Hour)
	if c, err := h.Join(next("later", "203.0.113.5"), code); err != nil {
		t.Fatalf("an hour later: %v", err)
	} else {
		c.Leave()
	}
}

// The attack: each line from a new guest handle on one connection, each
// under the per-account limit, together a flood on another player's screen.
func TestChatRateFollowsConnectionAndAddress(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	ann, err := h.Create(ident("ann"), TableSpec{Game: "secret", Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	code := ann.View().Code
	chatAs := func(id Identity, line string) error {
		c, err := h.Watch(id, code)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Leave()
		return c.Chat(line)
	}
	for i := range 20 {
		if err := chatAs(guest(i, "c1", "203.0.113.5"), fmt.Sprintf("spam %d", i)); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
	}
	for _, id := range []Identity{guest(100, "c1", "203.0.113.5"), guest(101, "c2", "203.0.113.5")} {
		if err := chatAs(id, "one more"); !engine.IsIllegal(err) || !strings.Contains(err.Error(), "too fast") {
			t.Errorf("%s on %s from %s: %v, want the chat limit", id.Handle, id.ConnID, id.Addr, err)
		}
	}
	if err := chatAs(guest(102, "c3", "198.51.100.9"), "hello"); err != nil {
		t.Errorf("someone else: %v", err)
	}
	if got := strings.Count(chatTexts(ann.View()), "spam"); got != 20 {
		t.Errorf("ann's screen has %d spam lines, want the 20 allowed", got)
	}
}

// The attack: a muted guest opens a new session (a new guest account) on
// the same connection, or a new connection from the same address, and
// carries on.
func TestMuteSilencesAGuestsConnectionAndAddress(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	ann, err := h.Create(ident("ann"), TableSpec{Game: "secret", Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	code := ann.View().Code
	say := func(id Identity, line string) {
		t.Helper()
		c, err := h.Watch(id, code)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Leave()
		if err := c.Chat(line); err != nil {
			t.Fatal(err)
		}
	}
	say(guest(1, "c1", "203.0.113.5"), "first spam")
	// The guest has left; the handle is still found through its chat line.
	if err := ann.Chat("/mute guest-1"); !engine.IsIllegal(err) || !strings.Contains(err.Error(), "Muted") {
		t.Fatalf("mute: %v", err)
	}
	say(guest(2, "c1", "203.0.113.5"), "same connection spam")
	say(guest(3, "c2", "203.0.113.5"), "same address spam")
	neighbour := ident("neighbour")
	neighbour.ConnID, neighbour.Addr = "c4", "203.0.113.5"
	say(neighbour, "a keyed neighbour")
	say(guest(4, "c5", "198.51.100.9"), "someone else")

	got := chatTexts(waitView(t, ann, "the last line", func(v TableView) bool {
		return strings.Contains(chatTexts(v), "someone else")
	}))
	if strings.Contains(got, "spam") {
		t.Errorf("ann muted a guest but still sees %q", got)
	}
	if !strings.Contains(got, "a keyed neighbour") {
		t.Errorf("a player with a key at the same address was hidden: %q", got)
	}
	if err := ann.Chat("/unmute guest-3"); !engine.IsIllegal(err) || !strings.Contains(err.Error(), "Unmuted") {
		t.Fatalf("unmute: %v", err)
	}
	if got := chatTexts(ann.View()); !strings.Contains(got, "same address spam") {
		t.Errorf("unmuting did not show the address's lines again: %q", got)
	}
}

// The attack: a full disk and no bot delay, so a bot retried its refused
// move as fast as the disk refused it, logging every try.
func TestBotBacksOffWhileMovesCannotBeSaved(t *testing.T) {
	store := newMemStore()
	clock := &fakeClock{now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	var logs syncBuffer
	h := testHub(t, store, func(c *Config) {
		c.Now = clock.Now
		c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	pauses := make(chan time.Duration, 64)
	proceed := make(chan struct{})
	h.pause = func(d time.Duration, quit <-chan struct{}) bool {
		pauses <- d
		select {
		case <-proceed:
			return true
		case <-quit:
			return false
		}
	}
	ann, err := h.QuickPlay(ident("ann"), "secret")
	if err != nil {
		t.Fatal(err)
	}
	if err := ann.Act(say(0)); err != nil {
		t.Fatal(err)
	}
	next := func() time.Duration {
		t.Helper()
		select {
		case d := <-pauses:
			return d
		case <-time.After(20 * time.Second):
			t.Fatal("the bot never tried again")
			return 0
		}
	}
	if d := next(); d != 0 {
		t.Fatalf("first bot pause %v, want none (no bot delay, no failure yet)", d)
	}
	store.mu.Lock()
	store.failAppend = 1 << 30
	store.mu.Unlock()
	var got []time.Duration
	for range 10 {
		proceed <- struct{}{}
		got = append(got, next())
	}
	want := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second,
		4 * time.Second, 8 * time.Second, 16 * time.Second, 30 * time.Second, 30 * time.Second, 30 * time.Second}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("pauses after refused moves %v, want %v", got, want)
	}
	if n := strings.Count(logs.String(), `msg="append move"`); n != 1 {
		t.Errorf("10 identical failures logged %d times, want once:\n%s", n, logs.String())
	}
	clock.Add(2 * time.Minute)
	proceed <- struct{}{}
	next()
	if !logLine(logs.String(), `msg="append move still failing"`, "times=11") {
		t.Errorf("no reminder with a count after a minute:\n%s", logs.String())
	}
	store.mu.Lock()
	store.failAppend = 0
	store.mu.Unlock()
	proceed <- struct{}{}
	waitView(t, ann, "the bot's move", func(v TableView) bool { return board(t, v).Moves == 2 })
	if !logLine(logs.String(), `msg="append move failures ended"`, "times=11") {
		t.Errorf("the end of the failures was not logged with its count:\n%s", logs.String())
	}
	if d := next(); d != 0 {
		t.Errorf("after a saved move the next bot waits %v, want no backoff", d)
	}
	close(proceed)
}

// logLine reports whether one line of logs holds every one of parts.
func logLine(logs string, parts ...string) bool {
	for _, line := range strings.Split(logs, "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all {
			return true
		}
	}
	return false
}

// TestRatedSeeksFromOneAddressAreNotPaired: two keys cost nothing, so one
// person can seek a rated game with both at once and throw it with one to
// lift the other's rating. Rated seekers from one address (or one
// connection) are never paired with each other; a third from elsewhere is,
// and two keys of one address still meet in a casual pool.
func TestRatedSeeksFromOneAddressAreNotPaired(t *testing.T) {
	store := newMemStore()
	h, _ := clockHub(t, store, nil)
	from := func(name, addr string) Identity {
		id := ident(name)
		id.ConnID, id.Addr = "conn-"+name, addr
		return id
	}
	main := seek(t, h, from("main", "198.51.100.7"), 2)
	defer main.Cancel()
	puppet := seek(t, h, from("puppet", "198.51.100.7"), 2)
	if main.Conn() != nil || puppet.Conn() != nil {
		t.Fatal("two keys from one address were paired in a rated game")
	}
	if st := puppet.Status(); !st.Rated || len(st.Others) != 1 || st.Others[0].InRange {
		t.Errorf("the puppet's status shows the other key of its address as a possible opponent: %+v", st)
	}
	puppet.Cancel()
	// A key on the same connection from another address (a node link
	// carries the connection's name) is the same origin too.
	shared := Identity{Account: "SHA256:third", Handle: "third", ConnID: "conn-main", Addr: "203.0.113.9"}
	third := seek(t, h, shared, 2)
	if third.Conn() != nil {
		t.Fatal("two keys on one connection were paired in a rated game")
	}
	third.Cancel()
	// Someone from elsewhere is paired with the oldest seeker.
	other := seek(t, h, from("other", "203.0.113.50"), 2)
	c := seated(t, other)
	v := waitView(t, c, "the game to start", func(v TableView) bool { return v.Phase == Playing })
	if !v.Rated || v.Seats[0].Handle != "main" || v.Seats[1].Handle != "other" {
		t.Fatalf("rated table: rated %v, seats %+v", v.Rated, v.Seats)
	}
}

// TestTablesOpenedAreLimitedPerConnectionAndAddress: opening tables and
// leaving them (each held in play for the grace period) is metered per
// account and per connection, so new guests on one connection are no fresh
// start, and per address at six times that, so new connections are none
// either; another address is untouched, a refused table opens nothing,
// and a minute later tables open again.
func TestTablesOpenedAreLimitedPerConnectionAndAddress(t *testing.T) {
	const perMinute = 2
	h, clock := clockHub(t, newMemStore(), func(c *Config) { c.TablesPerMinute = perMinute })
	guests := 0
	guest := func(conn, addr string) Identity {
		guests++
		return Identity{Account: fmt.Sprintf("guest:g%d", guests), Handle: fmt.Sprintf("g%d", guests), Guest: true,
			ConnID: conn, Addr: addr}
	}
	open := func(id Identity) error {
		c, err := h.Create(id, TableSpec{Game: "secret", Seats: 2})
		if err == nil {
			t.Cleanup(c.Leave)
		}
		return err
	}
	tables := func() int { _, n := h.Online(); return n }
	for i := range perMinute {
		if err := open(guest("c1", "198.51.100.7")); err != nil {
			t.Fatalf("table %d on the connection: %v", i+1, err)
		}
	}
	if err := open(guest("c1", "198.51.100.7")); !errors.Is(err, ErrTooManyTables) {
		t.Fatalf("a new guest on the same connection past the limit: %v", err)
	}
	if n := tables(); n != perMinute {
		t.Errorf("%d tables open after a refusal, want %d", n, perMinute)
	}
	// New connections from the address, two tables each, until the
	// address has opened six times the limit.
	for i := perMinute; i < 6*perMinute; i++ {
		if err := open(guest(fmt.Sprintf("c%d", 2+i/perMinute), "198.51.100.7")); err != nil {
			t.Fatalf("table %d from the address: %v", i+1, err)
		}
	}
	if err := open(guest("c-new", "198.51.100.7")); !errors.Is(err, ErrTooManyTables) {
		t.Fatalf("a new connection from the address past its limit: %v", err)
	}
	if err := open(guest("c-else", "203.0.113.9")); err != nil {
		t.Fatalf("another address is refused: %v", err)
	}
	clock.Add(time.Minute)
	if err := open(guest("c1", "198.51.100.7")); err != nil {
		t.Fatalf("a minute later: %v", err)
	}
}

// TestRenamesAreLimited: each handle change is a database write and frees
// a handle; they are metered per account, connection and address, so a
// new key on the same connection or address is no fresh start, and a
// minute later a change goes through again.
func TestRenamesAreLimited(t *testing.T) {
	h, clock := clockHub(t, newMemStore(), nil)
	ann := Identity{Account: "SHA256:ann", Handle: "ann", ConnID: "c1", Addr: "198.51.100.7"}
	for i := range renamesPerMinute {
		if err := h.AllowRename(ann); err != nil {
			t.Fatalf("change %d: %v", i+1, err)
		}
	}
	if err := h.AllowRename(ann); !errors.Is(err, ErrTooManyRenames) {
		t.Fatalf("a change past the limit: %v", err)
	}
	other := Identity{Account: "SHA256:puppet", Handle: "puppet", ConnID: "c2", Addr: "198.51.100.7"}
	if err := h.AllowRename(other); !errors.Is(err, ErrTooManyRenames) {
		t.Fatalf("another key from the same address: %v", err)
	}
	if err := h.AllowRename(Identity{Account: "SHA256:bo", Handle: "bo", ConnID: "c3", Addr: "203.0.113.9"}); err != nil {
		t.Fatalf("someone else: %v", err)
	}
	clock.Add(time.Minute)
	if err := h.AllowRename(ann); err != nil {
		t.Fatalf("a minute later: %v", err)
	}
}

// TestNewHandlesAreLimitedPerAddress: each new key's first handle makes an
// account for good, and keys are free; claims are metered per address (a
// third of the hour's limit in a minute), so a script minting keys cannot
// squat thousands of handles a day, while other addresses are unaffected
// and the address claims again once the minute has passed.
func TestNewHandlesAreLimitedPerAddress(t *testing.T) {
	h, clock := clockHub(t, newMemStore(), nil)
	perMinute := h.cfg.NewHandlesPerHour / 3
	key := func(i int, addr string) Identity {
		return Identity{Account: fmt.Sprintf("SHA256:key%d", i), ConnID: fmt.Sprintf("c%d", i), Addr: addr}
	}
	for i := range perMinute {
		if err := h.AllowClaim(key(i, "198.51.100.7")); err != nil {
			t.Fatalf("claim %d: %v", i+1, err)
		}
	}
	if err := h.AllowClaim(key(perMinute, "198.51.100.7")); !errors.Is(err, ErrTooManyClaims) {
		t.Fatalf("a claim past the minute's limit from one address: %v", err)
	}
	if err := h.AllowClaim(key(0, "203.0.113.9")); err != nil {
		t.Fatalf("a new key elsewhere: %v", err)
	}
	// The hour's limit holds across minutes.
	claimed := perMinute
	for claimed < h.cfg.NewHandlesPerHour {
		clock.Add(time.Minute)
		for range perMinute {
			if err := h.AllowClaim(key(claimed, "198.51.100.7")); err != nil {
				t.Fatalf("claim %d after %d minutes: %v", claimed+1, claimed/perMinute, err)
			}
			claimed++
		}
	}
	clock.Add(time.Minute)
	if err := h.AllowClaim(key(claimed, "198.51.100.7")); !errors.Is(err, ErrTooManyClaims) {
		t.Fatalf("claim %d within the hour: %v", claimed+1, err)
	}
	clock.Add(time.Hour)
	if err := h.AllowClaim(key(claimed, "198.51.100.7")); err != nil {
		t.Fatalf("an hour later: %v", err)
	}
}
