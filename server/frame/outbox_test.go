package frame

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// doneWriter tells of every write it has finished, keeping nothing.
type doneWriter struct {
	n    chan int
	gate chan struct{} // when set, each write waits for a value first
}

func (w doneWriter) Write(p []byte) (int, error) {
	if w.gate != nil {
		<-w.gate
	}
	w.n <- len(p)
	return len(p), nil
}

// TestOutboxQueuesFramesWithoutAllocating: a frame queued and written by
// a session with nothing else waiting (how most frames go out) allocates
// nothing: the queue's buffer is lent by the pool and the stall watch is
// made once. Before, every frame grew a fresh queue and made a timer.
func TestOutboxQueuesFramesWithoutAllocating(t *testing.T) {
	w := doneWriter{n: make(chan int, 1)}
	o := newOutbox(w, DefaultMaxPending, time.Hour, func() {})
	frame := []byte(boardLike(3))
	send := func() {
		o.enqueue(frame)
		if n := <-w.n; n != len(frame) {
			t.Fatalf("wrote %d bytes, want the frame's %d", n, len(frame))
		}
	}
	send() // the stall watch, once
	// A garbage collection may empty the pool once in a while; a frame
	// that allocates at all would average 1 or more.
	if allocs := testing.AllocsPerRun(200, send); allocs >= 0.5 {
		t.Errorf("a frame allocates %.2f times on its way out", allocs)
	}
	if !o.close(waitLimit) {
		t.Error("the outbox did not drain")
	}
}

// TestOutboxWritesEachBatchWhole: frames queued while a write is in
// flight go out together in one write, in order, and nothing is split.
func TestOutboxWritesEachBatchWhole(t *testing.T) {
	var mu sync.Mutex
	var got [][]byte
	gate := make(chan struct{})
	w := writerFunc(func(p []byte) (int, error) {
		<-gate
		mu.Lock()
		got = append(got, bytes.Clone(p))
		mu.Unlock()
		return len(p), nil
	})
	o := newOutbox(w, DefaultMaxPending, time.Hour, func() {})
	o.enqueue([]byte("first|"))
	// The first write is in flight (held at the gate) once writing is set.
	deadline := time.Now().Add(waitLimit)
	for {
		o.mu.Lock()
		writing := o.writing
		o.mu.Unlock()
		if writing {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first frame was never written")
		}
		time.Sleep(time.Millisecond)
	}
	var rest strings.Builder
	for i := range 50 {
		f := strings.Repeat(string(rune('a'+i%26)), 100+i) + "|"
		rest.WriteString(f)
		o.enqueue([]byte(f))
	}
	close(gate)
	if !o.close(waitLimit) {
		t.Fatal("the outbox did not drain")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || string(got[0]) != "first|" || string(got[1]) != rest.String() {
		t.Errorf("got %d writes, want the first frame then the 50 queued behind it as one", len(got))
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// BenchmarkOutboxFrame is one frame queued and written by an otherwise
// idle outbox: the writer goroutine starts, writes, and leaves.
func BenchmarkOutboxFrame(b *testing.B) {
	w := doneWriter{n: make(chan int, 1)}
	o := newOutbox(w, DefaultMaxPending, time.Hour, func() {})
	frame := []byte(boardLike(3))
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		o.enqueue(frame)
		<-w.n
	}
	o.close(time.Second)
}
