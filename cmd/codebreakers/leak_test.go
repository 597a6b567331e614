package main

import (
	"flag"
	"fmt"
	"runtime"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// leakSessions is how many sessions TestSessionsLeaveNothingBehind opens
// and closes; raise it to check thousands (BENCHMARKS.md has the command).
var leakSessions = flag.Int("leak-sessions", 240, "sessions the leak test opens and closes")

// TestSessionsLeaveNothingBehind opens and closes a few hundred interactive
// sessions (each with its own key, so each is a new account at the handle
// prompt) and checks that the server's goroutines and heap come back to
// where they were: nothing is kept per session once it has gone.
func TestSessionsLeaveNothingBehind(t *testing.T) {
	sessions, batch := *leakSessions, 40
	// An idle 80×24 session holds about 0.15 MB; keeping a fifth of that
	// per session would grow the heap by 7 MB over 240 sessions.
	const maxGrowth = 7 << 20
	_, addr := startInstance(t, dataDir(t), "--max-sessions-per-ip", "1000", "--connections-per-minute", "1000000")

	// Warm up: the first sessions create lazily built state (styles, pools).
	cycle(t, addr, 20, 20)
	baseG, baseHeap := settle(t, 0)
	t.Logf("baseline: %d goroutines, %.1f MB heap", baseG, float64(baseHeap)/(1<<20))

	cycle(t, addr, sessions, batch)
	g, heap := settle(t, baseG+10)
	// Closed sessions may still be unwinding; give the heap a bounded while.
	for deadline := time.Now().Add(10 * time.Second); heap > baseHeap+maxGrowth && time.Now().Before(deadline); {
		time.Sleep(500 * time.Millisecond)
		heap = liveHeap()
	}
	t.Logf("after %d sessions: %d goroutines, %.1f MB heap", sessions, g, float64(heap)/(1<<20))
	// A few goroutines may come and go (timers, the storage writer), but a
	// leak of even one per session would leave hundreds.
	if g > baseG+10 {
		buf := make([]byte, 1<<20)
		t.Fatalf("goroutines: %d before, %d after %d sessions\n%s", baseG, g, sessions, buf[:runtime.Stack(buf, true)])
	}
	if heap > baseHeap+maxGrowth {
		grow := int64(heap) - int64(baseHeap)
		t.Fatalf("heap grew by %.1f MB over %d sessions", float64(grow)/(1<<20), sessions)
	}
}

// cycle opens n sessions, batch at a time, waits for each one's first
// screen, then closes the batch.
func cycle(t *testing.T, addr string, n, batch int) {
	t.Helper()
	for done := 0; done < n; done += batch {
		clients := make([]*gossh.Client, 0, batch)
		for i := range min(batch, n-done) {
			c := dialUncleaned(t, addr, withKey(newKey(t)))
			clients = append(clients, c)
			openHandlePrompt(t, c, fmt.Sprintf("s%d", done+i))
		}
		for _, c := range clients {
			_ = c.Close()
		}
	}
}

// openHandlePrompt opens an 80×24 shell and waits until the handle prompt
// is drawn.
func openHandlePrompt(t *testing.T, c *gossh.Client, name string) {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out := &rawOut{}
	sess.Stdout = out
	if err := sess.RequestPty("xterm-256color", 24, 80, nil); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(waitLimit)
	for !out.has("handle") {
		if time.Now().After(deadline) {
			t.Fatalf("%s: no handle prompt", name)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// settle waits (bounded) until the goroutine count is at most want, or,
// when want is 0, until it holds still for half a second; it returns the
// count with the live heap.
func settle(t *testing.T, want int) (int, uint64) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	last := -1
	for {
		runtime.GC()
		g := runtime.NumGoroutine()
		steady := want == 0 && g == last
		if steady || (want > 0 && g <= want) || time.Now().After(deadline) {
			return g, liveHeap()
		}
		last = g
		time.Sleep(500 * time.Millisecond)
	}
}

// liveHeap is the heap in use after two collections (the second frees
// what sync.Pools kept through the first).
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// dialUncleaned dials without registering a cleanup: the caller closes
// the client. A cleanup per client would keep every closed client (and
// its SSH state) alive until the test ends, which over thousands of
// sessions reads as a leak in the heap this test measures.
func dialUncleaned(t *testing.T, addr string, auth ...gossh.AuthMethod) *gossh.Client {
	t.Helper()
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User:            "tester",
		Auth:            auth,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(),
		Timeout:         waitLimit,
	})
	if err != nil {
		t.Fatalf("dial %s: %v", addr, err)
	}
	return c
}
