package lobby

import (
	"slices"
	"sync"
	"time"
)

// changes tells whoever waits that the lobby's picture changed: a table
// opened or closed, a table's phase or visibility changed, someone took or
// gave up a seat, or someone joined or left a matchmaking pool. It is how a
// home screen keeps its counts live without polling: each waiter holds a
// channel that is closed at the next change. With nobody waiting, a change
// costs a lock and nothing else.
//
// Waiters are kept in groups of at most changeGroup, in the order they
// asked, and a change closes the groups one at a time, changeStep apart
// (the first at once). Closing one channel for every home screen woke them
// all in the same instant: with thousands of sessions at home, thousands
// of goroutines redrew home at once (76 µs each at 80×24) and a keypress
// arriving then, on any screen, waited behind them for a core. A group
// handed out before a change is closed by it; a waiter that asks after
// the change joins a new group, which only a later change closes.
type changes struct {
	mu      sync.Mutex
	groups  []*changeWaiters // oldest first; only the last one takes new waiters
	due     int              // groups[:due] are to be closed: a change came after they were handed out
	walking bool             // a step is on its way
	// after runs f once d has passed (time.AfterFunc; tests step by hand).
	after func(d time.Duration, f func())
}

// changeWaiters is one group of waiters and the channel they share, with
// the functions to call when it closes (onChange).
type changeWaiters struct {
	ch    chan struct{}
	n     int
	calls []func()
}

// changeGroup is the most waiters woken at once by a change, and
// changeStep the pause before the next group: a group's redraws take about
// 2.4 ms of CPU (32 × 76 µs), which two cores finish within the step, so
// a keypress waits behind at most one group; at 10,000 home screens a
// change reaches the last of them in about 1.3 s (home waits a second
// between redraws anyway).
const (
	changeGroup = 32
	changeStep  = 4 * time.Millisecond
)

// wait returns a channel closed at the next change.
func (c *changes) wait() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.join().ch
}

// onChange calls f once, at the next change, with the group it joins:
// a waiter that holds no goroutine. f runs on whoever signals the change
// (or on a timer's goroutine): it must return at once, never block or
// call the hub. cancel drops f if it has not been called yet.
func (c *changes) onChange(f func()) (cancel func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := c.join()
	i := len(g.calls)
	g.calls = append(g.calls, f)
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if i < len(g.calls) { // not yet taken by closeFirst, which empties it
			g.calls[i] = nil
		}
	}
}

// join counts one more waiter in the group that takes new ones and
// returns that group. c.mu is held.
func (c *changes) join() *changeWaiters {
	n := len(c.groups)
	if n == 0 || n <= c.due || c.groups[n-1].n >= changeGroup {
		c.groups = append(c.groups, &changeWaiters{ch: make(chan struct{})})
		n++
	}
	g := c.groups[n-1]
	g.n++
	return g
}

// signal closes the oldest group's channel now and every other group
// handed out so far after it, changeStep apart.
func (c *changes) signal() {
	c.mu.Lock()
	c.due = len(c.groups)
	calls := c.closeFirst()
	c.mu.Unlock()
	for _, f := range calls {
		if f != nil {
			f()
		}
	}
}

// step closes the next group due.
func (c *changes) step() {
	c.mu.Lock()
	c.walking = false
	calls := c.closeFirst()
	c.mu.Unlock()
	for _, f := range calls {
		if f != nil {
			f()
		}
	}
}

// closeFirst closes the oldest group if it is due, and arranges the next
// step while others are; it returns the group's functions, for the caller
// to call once c.mu is released. c.mu is held.
func (c *changes) closeFirst() []func() {
	if c.due == 0 || c.walking {
		return nil
	}
	calls := c.groups[0].calls
	c.groups[0].calls = nil // a later cancel finds nothing to drop
	close(c.groups[0].ch)
	c.groups[0] = nil
	c.groups = c.groups[1:]
	c.due--
	if len(c.groups) == 0 {
		c.groups = nil // let the array go
	}
	if c.due > 0 {
		c.walking = true
		after := c.after
		if after == nil {
			after = func(d time.Duration, f func()) { time.AfterFunc(d, f) }
		}
		after(changeStep, c.step)
	}
	return calls
}

// Changed returns a channel that is closed at the next change of what the
// home screen shows: the tables open, their phases and visibility, who
// holds a seat, and how many people seek each game. Ask again after it closes; between changes it costs
// nothing.
func (h *Hub) Changed() <-chan struct{} { return h.changes.wait() }

// OnChange calls f once, at the next change of what Changed watches,
// in turn with the waiters of Changed: a waiter that holds no goroutine.
// f runs on whoever made the change (or a timer's goroutine): it must
// return at once, never block or call the hub. A session that ends first
// calls cancel, so that the hub lets f (and what it holds) go at once
// rather than at the next change.
func (h *Hub) OnChange(f func()) (cancel func()) { return h.changes.onChange(f) }

// HeldSeat reports the table where account holds a seat in a game that is
// waiting or in progress (the one Resume would return to).
func (h *Hub) HeldSeat(account string) (TableSummary, bool) {
	h.mu.Lock()
	t := h.seats[account]
	h.mu.Unlock()
	if t == nil {
		return TableSummary{}, false
	}
	s := t.summary.Load()
	if s == nil || (s.Phase != Waiting && s.Phase != Playing) {
		return TableSummary{}, false
	}
	return *s, true
}

// HeldSeats lists every table where account holds a seat in a game that is
// waiting or in play, the most recently taken first (HeldSeat's table),
// each saying whether a bot plays the seat now (BotPlays).
func (h *Hub) HeldSeats(account string) []TableSummary {
	h.mu.Lock()
	ts := slices.Clone(h.held[account])
	bots := make([]bool, len(ts))
	for i, t := range ts {
		_, bots[i] = h.botPlays[heldSeat{account, t}]
	}
	h.mu.Unlock()
	var out []TableSummary
	for i, t := range slices.Backward(ts) {
		if s := t.summary.Load(); s != nil && (s.Phase == Waiting || s.Phase == Playing) {
			sum := *s
			sum.BotPlays = bots[i]
			out = append(out, sum)
		}
	}
	return out
}
