package lobby

import "time"

// window is a sliding-window counter of recent events, used for chat and
// wrong join codes. It is not safe for concurrent use; its owner locks.
type window struct {
	times  []time.Time
	warned bool // the owner already logged that this window is full
}

// prune forgets events older than span before now.
func (w *window) prune(now time.Time, span time.Duration) {
	i := 0
	for i < len(w.times) && now.Sub(w.times[i]) >= span {
		i++
	}
	w.times = append(w.times[:0], w.times[i:]...)
}

// full reports whether limit events already happened within span.
func (w *window) full(now time.Time, span time.Duration, limit int) bool {
	w.prune(now, span)
	return len(w.times) >= limit
}

// add records an event at now.
func (w *window) add(now time.Time) { w.times = append(w.times, now) }
