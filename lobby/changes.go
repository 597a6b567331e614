package lobby

import "sync"

// changes tells whoever waits that the lobby's picture changed: a table
// opened or closed, a table's phase or visibility changed, someone took or
// gave up a seat, or someone joined or left a matchmaking pool. It is how a home screen keeps its counts live without
// polling: each waiter holds the current channel, which is closed (waking
// them all at once) at the next change and replaced only when someone asks
// again. With nobody waiting, a change costs a lock and nothing else.
type changes struct {
	mu sync.Mutex
	ch chan struct{} // nil until someone waits
}

// wait returns a channel closed at the next change.
func (c *changes) wait() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ch == nil {
		c.ch = make(chan struct{})
	}
	return c.ch
}

// signal wakes every waiter.
func (c *changes) signal() {
	c.mu.Lock()
	if c.ch != nil {
		close(c.ch)
		c.ch = nil
	}
	c.mu.Unlock()
}

// Changed returns a channel that is closed at the next change of what the
// home screen shows: the tables open, their phases and visibility, who
// holds a seat, and how many people seek each game. Ask again after it closes; between changes it costs
// nothing.
func (h *Hub) Changed() <-chan struct{} { return h.changes.wait() }

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
