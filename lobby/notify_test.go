package lobby

import (
	"sync/atomic"
	"testing"
	"time"
)

// poked returns a wake function that counts its calls and pokes a
// one-slot channel, and that channel.
func poked() (func(), *atomic.Int64, chan struct{}) {
	var n atomic.Int64
	ch := make(chan struct{}, 1)
	return func() {
		n.Add(1)
		select {
		case ch <- struct{}{}:
		default:
		}
	}, &n, ch
}

// TestNotifyWakesWithoutAGoroutine: a Conn with a wake function calls it
// for every change instead of leaving signals on Updates (a signal that
// was already waiting is handed over at once), and calls it when the
// Conn ends; Updates stays quiet.
func TestNotifyWakesWithoutAGoroutine(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	c, err := h.Create(ident("ann"), TableSpec{Game: "secret", Seats: 2, Options: map[string]string{"turns": "0"}})
	if err != nil {
		t.Fatal(err)
	}
	waitView(t, c, "the table published", func(v TableView) bool { return v.Version > 0 })
	// The first publish left a signal on Updates: Notify hands it over.
	wake, calls, ch := poked()
	c.Notify(wake)
	if !closedSoonOrPoked(ch) {
		t.Fatal("the signal waiting on Updates was not handed to wake")
	}

	before := calls.Load()
	if err := c.Chat("hello"); err != nil {
		t.Fatal(err)
	}
	if !closedSoonOrPoked(ch) {
		t.Fatal("wake was not called for a chat line")
	}
	if calls.Load() <= before {
		t.Fatal("wake was not called again")
	}
	select {
	case <-c.Updates():
		t.Error("a signal was left on Updates with a wake set")
	default:
	}

	before = calls.Load()
	c.Leave()
	if !closedSoonOrPoked(ch) || calls.Load() <= before {
		t.Fatal("wake was not called when the Conn ended")
	}
}

// TestNotifyOnAnEndedConnWakesAtOnce: a wake set after the Conn ended is
// called at once, so the session learns of the end.
func TestNotifyOnAnEndedConnWakesAtOnce(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	c, err := h.Create(ident("ann"), TableSpec{Game: "secret", Seats: 2, Options: map[string]string{"turns": "0"}})
	if err != nil {
		t.Fatal(err)
	}
	c.Leave()
	for len(c.Updates()) > 0 { // only the end is to be told
		<-c.Updates()
	}
	wake, calls, _ := poked()
	c.Notify(wake)
	if calls.Load() != 1 {
		t.Fatalf("wake called %d times for an ended Conn, want 1", calls.Load())
	}
}

// TestOnChangeCallsOnceAtTheNextChange: a function given to OnChange is
// called at the next change of what home shows, and only once: a later
// change does not call it again.
func TestOnChangeCallsOnceAtTheNextChange(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	wake, calls, ch := poked()
	h.OnChange(wake)
	if calls.Load() != 0 {
		t.Fatal("OnChange called before any change")
	}
	spec := TableSpec{Game: "secret", Seats: 2, Options: map[string]string{"turns": "0"}}
	if _, err := h.Create(ident("ann"), spec); err != nil {
		t.Fatal(err)
	}
	if !closedSoonOrPoked(ch) {
		t.Fatal("OnChange was not called when a table opened")
	}
	next := h.Changed()
	if _, err := h.Create(ident("bob"), spec); err != nil {
		t.Fatal(err)
	}
	if !closedSoon(next) {
		t.Fatal("no change when a second table opened")
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("OnChange's function was called %d times, want once", n)
	}
}

// closedSoonOrPoked reports whether ch receives within the bound of
// closedSoon.
func closedSoonOrPoked(ch chan struct{}) bool {
	done := make(chan struct{})
	go func() {
		<-ch
		close(done)
	}()
	return closedSoon(done)
}

// TestSeekerNotifyWakesWhenSeated: a seeker with a wake function is woken,
// not left a signal on Updates, when another joins its pool and when the
// two are seated.
func TestSeekerNotifyWakesWhenSeated(t *testing.T) {
	h, _ := clockHub(t, newMemStore(), nil)
	ann := seek(t, h, ident("ann"), 3)
	wake, calls, ch := poked()
	ann.Notify(wake)
	for len(ch) > 0 { // a signal of ann's own arrival, handed over
		<-ch
	}
	before := calls.Load()
	seek(t, h, ident("bo"), 3)
	if !closedSoonOrPoked(ch) || calls.Load() <= before {
		t.Fatal("ann was not woken when bo joined the pool")
	}
	seek(t, h, ident("cy"), 3)
	deadline := time.Now().Add(10 * time.Second) // a ceiling against hangs, not a speed check
	for ann.Conn() == nil && time.Now().Before(deadline) {
		closedSoonOrPoked(ch)
	}
	if ann.Conn() == nil {
		t.Fatal("ann was never seated")
	}
	select {
	case <-ann.Updates():
		t.Error("a signal was left on Updates with a wake set")
	default:
	}
}

// TestOnChangeCancelledLetsGo: a function whose session ended (cancel) is
// let go at once and never called; cancelling after the call is harmless.
func TestOnChangeCancelledLetsGo(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	wake, calls, _ := poked()
	cancel := h.OnChange(wake)
	cancel()
	h.changes.mu.Lock()
	for _, g := range h.changes.groups {
		for _, f := range g.calls {
			if f != nil {
				t.Error("a cancelled function is still held by the hub")
			}
		}
	}
	h.changes.mu.Unlock()
	next := h.Changed()
	spec := TableSpec{Game: "secret", Seats: 2, Options: map[string]string{"turns": "0"}}
	if _, err := h.Create(ident("ann"), spec); err != nil {
		t.Fatal(err)
	}
	if !closedSoon(next) {
		t.Fatal("no change when a table opened")
	}
	if n := calls.Load(); n != 0 {
		t.Fatalf("a cancelled function was called %d times", n)
	}

	wake, calls, ch := poked()
	cancel = h.OnChange(wake)
	if _, err := h.Create(ident("bo"), spec); err != nil {
		t.Fatal(err)
	}
	if !closedSoonOrPoked(ch) {
		t.Fatal("OnChange was not called")
	}
	cancel()
	if n := calls.Load(); n != 1 {
		t.Fatalf("called %d times, want once", n)
	}
}
