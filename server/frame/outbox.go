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

// outbox queues a session's output and writes it from its own goroutine,
// so the program that produces frames never waits on the network. Bytes
// queued while a write is in flight are sent together after it.
type outbox struct {
	w          io.Writer
	maxPending int
	stallAfter time.Duration
	onStall    func()

	mu       sync.Mutex
	queued   []byte
	spare    []byte
	closing  bool
	dead     bool // stalled or failed: output is dropped
	writing  bool // a write is in flight
	wake     chan struct{}
	finished chan struct{}
	stall    sync.Once
}

func newOutbox(w io.Writer, maxPending int, stallAfter time.Duration, onStall func()) *outbox {
	o := &outbox{
		w: w, maxPending: maxPending, stallAfter: stallAfter, onStall: onStall,
		wake: make(chan struct{}, 1), finished: make(chan struct{}),
	}
	go o.run()
	return o
}

// enqueue copies p to the queue. A client with more than maxPending bytes
// waiting has stopped reading: it is reported and its output dropped.
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
	o.mu.Unlock()
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// run writes whatever is queued until the outbox is closed and empty, or
// the writer fails.
func (o *outbox) run() {
	defer close(o.finished)
	for range o.wake {
		for {
			o.mu.Lock()
			batch := o.queued
			if len(batch) == 0 || o.dead {
				done := o.closing || o.dead
				o.mu.Unlock()
				if done {
					return
				}
				break
			}
			o.queued = o.spare[:0]
			o.spare = nil
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
			if cap(batch) <= shrinkAbove {
				o.spare = batch[:0]
			}
			if cap(o.queued) > shrinkAbove && len(o.queued) == 0 {
				o.queued = nil
			}
			o.mu.Unlock()
		}
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
// it. It reports whether everything queued was written.
func (o *outbox) close(wait time.Duration) bool {
	o.mu.Lock()
	already := o.closing
	o.closing = true
	o.mu.Unlock()
	if !already {
		select {
		case o.wake <- struct{}{}:
		default:
		}
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-o.finished:
		o.mu.Lock()
		defer o.mu.Unlock()
		return !o.dead
	case <-timer.C:
		o.stalled()
		return false
	}
}
