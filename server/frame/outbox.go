package frame

import (
	"io"
	"sync"
	"time"
)

// shrinkAbove is the capacity past which an emptied buffer is let go
// rather than kept for the next frame, so one big repaint does not pin
// memory for the rest of an idle session.
const shrinkAbove = 32 << 10

// outbox queues a session's output and writes it from a goroutine of its
// own, so the program that produces frames never waits on the network.
// Bytes queued while a write is in flight are sent together after it. The
// writer goroutine runs only while there is output to write: an idle
// session keeps no goroutine and no buffer here.
type outbox struct {
	w          io.Writer
	maxPending int
	stallAfter time.Duration
	onStall    func()

	mu      sync.Mutex
	queued  []byte
	closing bool
	dead    bool // stalled or failed: output is dropped
	writing bool // a write is in flight
	running bool // the writer goroutine is on its way
	// drained is closed when the writer goroutine leaves after close
	// was asked for (nil until then).
	drained chan struct{}
	stall   sync.Once
}

func newOutbox(w io.Writer, maxPending int, stallAfter time.Duration, onStall func()) *outbox {
	return &outbox{w: w, maxPending: maxPending, stallAfter: stallAfter, onStall: onStall}
}

// enqueue copies p to the queue and makes sure a writer will send it. A
// client with more than maxPending bytes waiting has stopped reading: it
// is reported and its output dropped.
func (o *outbox) enqueue(p []byte) {
	o.mu.Lock()
	if o.dead || o.closing {
		o.mu.Unlock()
		return
	}
	if len(o.queued)+len(p) > o.maxPending {
		o.dead, o.queued = true, nil
		o.mu.Unlock()
		o.stalled()
		return
	}
	o.queued = append(o.queued, p...)
	start := !o.running
	o.running = true
	o.mu.Unlock()
	if start {
		go o.run()
	}
}

// run writes whatever is queued until nothing is, or the writer fails.
func (o *outbox) run() {
	var spare []byte // the last batch's buffer, for the next one
	for {
		o.mu.Lock()
		batch := o.queued
		if len(batch) == 0 || o.dead {
			o.running = false
			if o.dead {
				o.queued = nil
			}
			if o.drained != nil {
				close(o.drained)
				o.drained = nil
			}
			o.mu.Unlock()
			return
		}
		o.queued = spare[:0]
		o.writing = true
		o.mu.Unlock()

		watch := time.AfterFunc(o.stallAfter, o.stalled)
		_, err := o.w.Write(batch)
		watch.Stop()

		o.mu.Lock()
		o.writing = false
		if err != nil {
			o.dead, o.queued = true, nil
		}
		spare = nil
		if cap(batch) <= shrinkAbove {
			spare = batch[:0]
		}
		if len(o.queued) == 0 && cap(o.queued) > 0 && spare == nil {
			spare = o.queued[:0]
		}
		if len(o.queued) == 0 {
			o.queued = nil // nothing left: an idle session keeps no buffer
		}
		o.mu.Unlock()
	}
}

// stalled reports a client that stopped reading, once.
func (o *outbox) stalled() {
	o.stall.Do(func() {
		o.mu.Lock()
		o.dead, o.queued = true, nil
		o.mu.Unlock()
		o.onStall()
	})
}

// close lets the writer finish what is queued, for at most wait, and stops
// taking output. It reports whether everything queued was written.
func (o *outbox) close(wait time.Duration) bool {
	o.mu.Lock()
	o.closing = true
	if !o.running {
		dead := o.dead
		o.mu.Unlock()
		return !dead
	}
	if o.drained == nil {
		o.drained = make(chan struct{})
	}
	drained := o.drained
	o.mu.Unlock()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-drained:
		o.mu.Lock()
		defer o.mu.Unlock()
		return !o.dead
	case <-timer.C:
		o.stalled()
		return false
	}
}
