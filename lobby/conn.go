package lobby

import (
	"slices"
	"strings"
	"sync"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/textsafe"
)

// Conn is one session's link to one table, as a player in a seat or as a
// spectator. All methods are safe from any goroutine. None waits on another
// session: the ones that talk to the table wait only for that table's answer.
type Conn struct {
	t       *table
	id      Identity
	viewer  engine.Viewer
	updates signal
	done    chan struct{}

	once   sync.Once
	mu     sync.Mutex
	reason string
	frozen TableView       // the last view, kept when the Conn ends
	muted  map[string]bool // muteKeys of the people whose chat this viewer hides
}

func newConn(t *table, id Identity, v engine.Viewer) *Conn {
	t.hub.sessions.Add(1)
	return &Conn{t: t, id: id, viewer: v, updates: newSignal(), done: make(chan struct{})}
}

// Updates delivers "something changed" signals. It is a one-slot coalescing
// channel: after a receive, call View for the latest snapshot.
func (c *Conn) Updates() <-chan struct{} { return c.updates.ch }

// Notify hands this Conn's signals to wake instead of Updates: wake is
// called after every change (changes that come close together may share
// a call) and when the Conn ends. A signal already waiting on Updates is
// handed over at once. This is how a session learns of changes without a
// goroutine parked on Updates. wake runs on the table's goroutine (or on
// whoever ends the Conn): it must return at once, never block or call the
// table. Calling Notify again replaces wake.
func (c *Conn) Notify(wake func()) {
	c.updates.notify(wake)
	if c.ended() {
		wake()
	}
}

// View returns the latest snapshot of the table for this viewer. It never
// blocks. The returned value shares slices with other viewers' snapshots:
// read it, never modify it.
//
// Once the Conn has ended, View keeps returning its last view: the seat may
// pass to someone else, and what they see is not for this session.
func (c *Conn) View() TableView {
	v := c.current()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended() { // checked after the load: a later seat holder is only published after end
		return c.frozen
	}
	if len(c.muted) > 0 && slices.ContainsFunc(v.Chat, c.hides) {
		v.Chat = slices.DeleteFunc(slices.Clone(v.Chat), c.hides)
	}
	return v
}

// hides reports whether this viewer muted the line's author. Called with
// c.mu held.
func (c *Conn) hides(l ChatLine) bool {
	a := l.author
	switch {
	case a.Account == c.id.Account:
		return false // never one's own lines
	case c.muted["account "+a.Account]:
		return true
	case !a.Guest:
		return false
	}
	return a.ConnID != "" && c.muted["conn "+a.ConnID] || a.Addr != "" && c.muted["addr "+a.Addr]
}

// muteKeys are what muting id hides: its account and, for a guest, whose
// every session is a new account, its connection and its address too, so
// a muted guest cannot come back under a new guest handle. An account with
// a key is an identity its owner keeps, so only the account is muted:
// hiding a whole address would also hide the other people behind it.
func muteKeys(id Identity) []string {
	keys := []string{"account " + id.Account}
	if id.Guest {
		if id.ConnID != "" {
			keys = append(keys, "conn "+id.ConnID)
		}
		if id.Addr != "" {
			keys = append(keys, "addr "+id.Addr)
		}
	}
	return keys
}

// current reads this viewer's entry of the latest snapshot.
func (c *Conn) current() TableView {
	snap := c.t.snap.Load()
	if snap == nil {
		return TableView{}
	}
	return snap.view(c.viewer)
}

// Viewer says whether this Conn holds a seat (and which) or watches.
func (c *Conn) Viewer() engine.Viewer { return c.viewer }

// Identity is who this Conn belongs to.
func (c *Conn) Identity() Identity { return c.id }

// Act sends an encoded action for this Conn's seat and waits for the table's
// answer. An illegal action returns an *engine.IllegalError and changes
// nothing. The action is durable in the Store before Act returns nil.
func (c *Conn) Act(action []byte) error {
	if len(action) > engine.MaxActionBytes {
		return engine.Illegal("That action is too large.")
	}
	action = append([]byte(nil), action...) // the caller may reuse its buffer
	return c.call(func() error { return c.t.act(c, action) })
}

// Chat posts a line to the table's chat. The text is sanitised (escape
// sequences, control, bidi and zero-width characters removed), cut to the
// configured width and rate-limited per account, connection and address;
// refusals are user-facing.
//
// Two commands are answered instead of posted: "/mute NAME" hides NAME's
// chat from this viewer (the others still see it; for a guest, also the
// chat of every guest on its connection and address, see muteKeys) and
// "/unmute NAME" shows it again. Their answer is a user-facing *engine.IllegalError saying what
// was done, so it shows where refusals show.
func (c *Conn) Chat(text string) error {
	if limit := 8 * c.t.cfg.MaxChatLen; len(text) > limit {
		text = text[:limit] // bound the work; Clean drops any split rune
	}
	if cmd, name, ok := strings.Cut(strings.TrimSpace(text), " "); ok && (cmd == "/mute" || cmd == "/unmute") {
		return c.setMuted(strings.TrimSpace(name), cmd == "/mute")
	}
	return c.call(func() error { return c.t.chat(c, text) })
}

// Mute hides (or, with mute false, shows again) the chat of whoever at this
// table goes by handle, for this viewer only. The answer is a user-facing
// *engine.IllegalError either way: it says what was done or why not.
func (c *Conn) Mute(handle string, mute bool) error { return c.setMuted(handle, mute) }

func (c *Conn) setMuted(name string, mute bool) error {
	name = textsafe.Clean(name, 32).String()
	var who Identity
	err := c.call(func() error {
		id, ok := c.t.whoIs(name)
		if !ok {
			return engine.Illegal("Nobody called %q is at this table.", name)
		}
		who = id
		return nil
	})
	if err != nil {
		return err
	}
	if who.Account == c.id.Account || who.ConnID != "" && who.ConnID == c.id.ConnID {
		return engine.Illegal("You cannot mute yourself.")
	}
	c.mu.Lock()
	for _, k := range muteKeys(who) {
		if mute {
			if c.muted == nil {
				c.muted = make(map[string]bool)
			}
			c.muted[k] = true
		} else {
			delete(c.muted, k)
		}
	}
	c.mu.Unlock()
	c.notify()
	if mute {
		return engine.Illegal("Muted %s: you no longer see their chat. \"/unmute %s\" shows it again.", name, name)
	}
	return engine.Illegal("Unmuted %s: you see their chat again.", name)
}

// SetReady marks this seat ready (or not) while the table waits for
// players. When every seat is taken and everyone is ready the game starts.
func (c *Conn) SetReady(ready bool) error {
	return c.call(func() error { return c.t.setReady(c, ready) })
}

// Start begins the game. Only the host may start, once every seated person
// is ready; open seats are filled by bots when the game has them.
func (c *Conn) Start() error {
	return c.call(func() error { return c.t.start(c) })
}

// Rematch, after a game has finished, takes the table back to waiting with
// the same seats and the same join code. Seats whose players have gone are
// opened; bots stay.
func (c *Conn) Rematch() error {
	return c.call(func() error { return c.t.rematch(c) })
}

// Leave ends this Conn. A player who leaves a game in progress keeps the
// seat for the grace period and can come back with Join or Resume; leaving
// a waiting table frees the seat.
func (c *Conn) Leave() {
	if !c.end("You left the table.") {
		return
	}
	c.t.post(func() error { c.t.detach(c); return nil })
}

// Done is closed when the Conn ends: left, taken over by another login with
// the same key, table closed or server shutting down. Reason says why.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Reason says, for the player, why Done closed; empty while open.
func (c *Conn) Reason() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reason
}

// end closes the Conn with a reason; it reports whether this call closed it.
func (c *Conn) end(reason string) bool {
	closed := false
	c.once.Do(func() {
		c.mu.Lock()
		c.reason = reason
		c.frozen = c.current()
		c.mu.Unlock()
		close(c.done)
		c.t.hub.sessions.Add(-1)
		closed = true
	})
	if closed {
		c.updates.call()
	}
	return closed
}

// ended reports whether the Conn has ended.
func (c *Conn) ended() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// notify pokes the session without ever blocking: if a signal is already
// waiting, the session will read the newest view anyway.
func (c *Conn) notify() { c.updates.poke() }

// call runs fn on the table goroutine unless the Conn has ended.
func (c *Conn) call(fn func() error) error {
	if c.ended() {
		return ErrNotHere
	}
	return c.t.call(func() error {
		if c.ended() {
			return ErrNotHere
		}
		return fn()
	})
}
