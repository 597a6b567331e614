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

// queueBuf is an outbox's queue: the bytes waiting, or the batch being
// written. It is a pointer so that the pool holds it without allocating.
type queueBuf struct{ b []byte }

// queueBufs lends queue buffers to the outboxes of every session. An
// outbox takes one when a burst of output starts and gives it back when
// the burst is written, so an idle session holds none, and a frame is
// queued into a buffer a frame was queued in before instead of a fresh
// one grown to size every time (issue 20's profiles: that growing was
// most of what queuing cost). A sync.Pool keeps no memory of its own
// past two garbage collections, and what it holds has no meaning: any
// buffer serves any outbox.
var queueBufs = sync.Pool{New: func() any { return &queueBuf{b: make([]byte, 0, 4<<10)} }}

// putQueueBuf gives q back to the pool, unless it grew too big to keep.
func putQueueBuf(q *queueBuf) {
	if q != nil && cap(q.b) <= shrinkAbove {
		q.b = q.b[:0]
		queueBufs.Put(q)
	}
}

// outbox queues a session's output and writes it from a goroutine of its
// own, so the program that produces frames never waits on the network.
// Bytes queued while a write is in flight are sent together after it, in
// one write. The writer goroutine runs only while there is output to
// write: an idle session keeps no goroutine and no buffer here.
type outbox struct {
	w          io.Writer
	maxPending int
	stallAfter time.Duration
	onStall    func()
	// watch reports a write blocked for stallAfter. It is made on the
	// first write and only used by the writer goroutine (one at a time).
	watch *time.Timer
	// runFn is o.run, made once: `go o.run()` would allocate a closure
	// for every burst of output.
	runFn func()

	mu      sync.Mutex
	queued  *queueBuf // nil when nothing is waiting
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
	o := &outbox{w: w, maxPending: maxPending, stallAfter: stallAfter, onStall: onStall}
	o.runFn = o.run
	return o
}

// pending is how many bytes wait to be written. It holds o.mu.
func (o *outbox) pending() int {
	if o.queued == nil {
		return 0
	}
	return len(o.queued.b)
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
	if o.pending()+len(p) > o.maxPending {
		o.dead, o.queued = true, nil
		o.mu.Unlock()
		o.stalled()
		return
	}
	if o.queued == nil {
		o.queued = queueBufs.Get().(*queueBuf)
	}
	o.queued.b = append(o.queued.b, p...)
	start := !o.running
	o.running = true
	o.mu.Unlock()
	if start {
		go o.runFn()
	}
}

// run writes whatever is queued until nothing is, or the writer fails. It
// writes each batch with one Write, so a frame reaches the channel whole
// (one SSH packet when it fits in one), and frames queued while a write
// was in flight go out together.
func (o *outbox) run() {
	var spare *queueBuf // the last batch's buffer, for the next one
	for {
		o.mu.Lock()
		batch := o.queued
		if batch == nil || len(batch.b) == 0 || o.dead {
			o.running = false
			putQueueBuf(spare)
			putQueueBuf(batch)
			o.queued = nil // an idle (or dead) session keeps no buffer
			if o.drained != nil {
				close(o.drained)
				o.drained = nil
			}
			o.mu.Unlock()
			return
		}
		o.queued = spare
		if spare != nil {
			spare.b = spare.b[:0]
		}
		o.writing = true
		o.mu.Unlock()

		if o.watch == nil {
			o.watch = time.AfterFunc(o.stallAfter, o.stalled)
		} else {
			o.watch.Reset(o.stallAfter)
		}
		_, err := o.w.Write(batch.b)
		o.watch.Stop()

		o.mu.Lock()
		o.writing = false
		if err != nil {
			o.dead, o.queued = true, nil
		}
		spare = batch
		if cap(batch.b) > shrinkAbove {
			spare = nil // let one big repaint go
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
