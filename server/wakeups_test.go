package server

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime/trace"
	"sort"
	"strings"
	"testing"
	"time"

	xtrace "golang.org/x/exp/trace"
)

// wakeups counts, per place where a goroutine sleeps, how often a
// goroutine that sleeps in session code was woken.
type wakeups map[string]int

func (w wakeups) total() int {
	n := 0
	for _, c := range w {
		n += c
	}
	return n
}

func (w wakeups) String() string {
	var lines []string
	for site, n := range w {
		lines = append(lines, fmt.Sprintf("%6d  %s", n, site))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// sessionCode says whether a stack frame belongs to the code that serves
// (or, in these tests, drives) an SSH session: this package, the SSH
// libraries and Bubble Tea with its terminal packages.
func sessionCode(fn string) bool {
	for _, p := range []string{
		"github.com/codebreakers/codebreakers/",
		"charm.land/",
		"github.com/charmbracelet/",
		"golang.org/x/crypto/ssh",
	} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// traceWakeups records an execution trace of this process for the length
// of wait() and counts the wake-ups of goroutines that sleep in session
// code, by where they sleep (the test's own goroutines aside). It counts; it times nothing. A wake-up
// carries no stack in the trace, so each goroutine is known by the
// stacks it blocks with (and the one it is found blocked with when the
// trace starts).
func traceWakeups(t *testing.T, wait func()) wakeups {
	t.Helper()
	var buf bytes.Buffer
	if err := trace.Start(&buf); err != nil {
		t.Skipf("cannot trace (another trace is running?): %v", err)
	}
	wait()
	trace.Stop()
	r, err := xtrace.NewReader(&buf)
	if err != nil {
		t.Fatalf("read trace: %v", err)
	}
	woke := map[xtrace.GoID]int{}      // wake-ups per goroutine
	sleeps := map[xtrace.GoID]string{} // where a goroutine of session code sleeps
	for {
		ev, err := r.ReadEvent()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("read trace: %v", err)
		}
		if ev.Kind() != xtrace.EventStateTransition {
			continue
		}
		st := ev.StateTransition()
		if st.Resource.Kind != xtrace.ResourceGoroutine {
			continue
		}
		id := st.Resource.Goroutine()
		from, to := st.Goroutine()
		if from == xtrace.GoWaiting && to == xtrace.GoRunnable {
			woke[id]++
		}
		if to != xtrace.GoWaiting || sleeps[id] != "" {
			continue
		}
		site, ours, test := "", false, false
		for f := range st.Stack.Frames() {
			if site == "" && !strings.HasPrefix(f.Func, "runtime.") {
				site = f.Func
			}
			ours = ours || sessionCode(f.Func)
			test = test || strings.HasPrefix(f.Func, "testing.")
		}
		if ours && !test { // the test's own goroutine is not a session's
			sleeps[id] = site
		}
	}
	out := wakeups{}
	for id, n := range woke {
		if site := sleeps[id]; site != "" {
			out[site] += n
		}
	}
	return out
}

// TestIdleSessionsDoNotWake holds a few interactive sessions that have
// drawn their first screen and answered a key, then traces the whole
// process for three seconds: no goroutine of the server's sessions (or of
// the SSH clients driving them) may wake while nobody types and nothing
// they show changes. Bubble Tea's renderer goroutine used to wake each
// session once a second to flush output that goes nowhere here: with
// 10,000 sessions held that was 10,000 wake-ups a second on two cores,
// and a keypress that arrived behind them waited (BENCHMARKS.md, issue 20).
func TestIdleSessionsDoNotWake(t *testing.T) {
	const sessions = 4
	ts := startServer(t, func(c *Config) { c.MaxSessionsPerIP = sessions })
	for range sessions {
		c := dial(t, ts.addr, withKey(newKey(t)))
		_, out, in := ptySession(t, c, 80, 24)
		waitFor(t, "first frame", func() bool { return contains(out.String(), "READY 80x24") })
		_, _ = in.Write([]byte("x")) // a key, so the input path has run
	}
	// What a session does once when it starts (Bubble Tea's terminal
	// release waits half a second for an input reader it does not have)
	// is over before the trace starts.
	waitFor(t, "the sessions to settle", func() bool {
		_, dump := connGoroutines(t)
		return !strings.Contains(dump, "ReleaseTerminal")
	})
	time.Sleep(time.Second)

	woke := traceWakeups(t, func() { time.Sleep(3 * time.Second) })
	if n := woke.total(); n > 0 {
		t.Errorf("%d idle sessions woke %d times in 3 s, want 0; where they slept:\n%s", sessions, n, woke)
	}
}

// TestWatchdogIsFewObjects: a session's idle and length watchdog is one
// object, its timer and the timer's callback, kept for as long as the
// session lasts (it was half a dozen closures and variables more), and it
// still ends an idle session with the idle reason.
func TestWatchdogIsFewObjects(t *testing.T) {
	s := &Server{cfg: Config{IdleTimeout: time.Hour}}
	cancel := func(error) {}
	if n := testing.AllocsPerRun(50, func() {
		w := s.newWatchdog(cancel)
		w.start(time.Now(), time.Hour)
		w.stop()
	}); n > 3 {
		t.Errorf("a watchdog takes %.0f objects, want at most 3", n)
	}
	ended := make(chan error, 1)
	s.cfg.IdleTimeout = time.Millisecond
	w := s.newWatchdog(func(err error) { ended <- err })
	w.start(time.Now(), time.Hour)
	defer w.stop()
	select {
	case err := <-ended:
		if err != errIdle {
			t.Errorf("an idle session ended with %v, want %v", err, errIdle)
		}
	case <-time.After(waitLimit):
		t.Fatal("an idle session was not ended")
	}
}
