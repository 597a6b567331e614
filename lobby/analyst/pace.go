package analyst

import (
	"sync"
	"sync/atomic"
	"time"
)

// Pace measures how fast live play goes (moves a second) so the background
// worker can step aside while the tables are busy: tables call Move for
// every move, and Busy says whether the last full window's rate was above
// the limit. Move is one atomic add, cheap enough for every move.
type Pace struct {
	limit  float64       // moves a second above which play is busy; ≤ 0: never
	window time.Duration // the span one rate is measured over
	now    func() time.Time
	moves  atomic.Int64

	mu    sync.Mutex
	since time.Time // the start of the current window
	at    int64     // moves counted when it started
	busy  bool      // the last full window's verdict
	rate  float64   // and its rate
}

// NewPace returns a Pace that calls play busy above limit moves a second
// (never when limit ≤ 0), measured over windows of a second.
func NewPace(limit float64) *Pace {
	return newPace(limit, time.Second, time.Now)
}

func newPace(limit float64, window time.Duration, now func() time.Time) *Pace {
	return &Pace{limit: limit, window: window, now: now, since: now()}
}

// Move counts one move played at any table.
func (p *Pace) Move() { p.moves.Add(1) }

// Moves is how many moves were counted in all.
func (p *Pace) Moves() int64 { return p.moves.Load() }

// Busy reports whether play was above the limit over the last full window.
// Within a window it repeats the last verdict, so asking often costs
// nothing and a burst shorter than a window does not decide alone.
func (p *Pace) Busy() bool {
	if p.limit <= 0 {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if elapsed := now.Sub(p.since); elapsed >= p.window {
		n := p.moves.Load()
		p.rate = float64(n-p.at) / elapsed.Seconds()
		p.busy = p.rate > p.limit
		p.since, p.at = now, n
	}
	return p.busy
}

// Rate is the moves a second of the last full window Busy measured.
func (p *Pace) Rate() float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rate
}
