package main

import (
	"bytes"
	"fmt"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Goroutines a session costs once it has settled, counted among those the
// server labels as serving connections (the table's own goroutine is the
// table's, not the session's). Of these, x/crypto/ssh runs three for the
// connection (its mux, reader and key exchange), charm.land/ssh two (the
// channel loop and the global requests), the channel handler answers the
// session's requests, Bubble Tea runs two (the event loop and its Cmd
// runner), and the input pump reads the channel. Nothing waits for the
// lobby, a table or a countdown: they wake the session (tui/wake.go).
// Every goroutine is a stack the collector scans in every cycle; raising
// these needs a reason (BENCHMARKS.md, "Ten thousand players").
const (
	goroutinesPerHeldSession = 9
	goroutinesPerSeatedGuest = 9
)

// TestGoroutinesPerSession pins what an idle session on home and a player
// seated at a game against bots cost in goroutines, so that a goroutine
// parked per session again fails here rather than in a load test.
func TestGoroutinesPerSession(t *testing.T) {
	_, addr := startInstance(t, dataDir(t), "--max-sessions-per-ip", "100", "--connections-per-minute", "100000")

	// Warm up: one session through home and away, for the server's lazily
	// started goroutines.
	warm := openTerm(t, dial(t, addr, withKey(newKey(t))), "warm", 80, 24, "")
	warm.waitFor("handle")
	warm.send("warmup\r")
	warm.waitFor("Quick play")
	_ = warm.sess.Close()
	base := settledSessionGoroutines(t, -1)

	const held = 6
	for i := range held {
		tm := openTerm(t, dial(t, addr, withKey(newKey(t))), fmt.Sprintf("held%d", i), 80, 24, "")
		tm.waitFor("handle")
		tm.send(fmt.Sprintf("held%d\r", i))
		tm.waitFor("Quick play")
	}
	g := settledSessionGoroutines(t, base+held*goroutinesPerHeldSession)
	t.Logf("%d sessions on home: %.1f goroutines each", held, float64(g-base)/held)
	if g > base+held*goroutinesPerHeldSession {
		t.Fatalf("%d sessions on home hold %d goroutines, want at most %d each\n%s",
			held, g-base, goroutinesPerHeldSession, sessionStacks())
	}

	const seated = 4
	base = g
	for i := range seated {
		tm := openTerm(t, dial(t, addr, withKey(newKey(t))), fmt.Sprintf("seat%d", i), 80, 24, "")
		tm.waitFor("handle")
		tm.send(fmt.Sprintf("seat%d\r", i))
		tm.waitFor("Quick play")
		tm.send("\r") // quick play
		tm.waitFor("Break the Code")
		tm.send("\r") // Break the Code
		tm.waitFor("bots")
		tm.send("\r") // the level suggested
		tm.waitFor("Your turn")
	}
	g = settledSessionGoroutines(t, base+seated*goroutinesPerSeatedGuest)
	t.Logf("%d players seated against bots: %.1f goroutines each", seated, float64(g-base)/seated)
	if g > base+seated*goroutinesPerSeatedGuest {
		t.Fatalf("%d seated players hold %d goroutines, want at most %d each\n%s",
			seated, g-base, goroutinesPerSeatedGuest, sessionStacks())
	}
}

// settledSessionGoroutines waits (bounded) until the sessions' goroutines
// number at most want, or, with want < 0, until their count holds still
// for a while; it returns the count. Goroutines come and go while a screen
// is drawn or a bot thinks; only the settled count is a session's cost.
func settledSessionGoroutines(t *testing.T, want int) int {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	last, still := -1, 0
	for {
		g := sessionGoroutines()
		if g == last {
			still++
		} else {
			still = 0
		}
		last = g
		if (want >= 0 && g <= want) || (want < 0 && still >= 5) || time.Now().After(deadline) {
			return g
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// sessionGoroutines counts the goroutines the server labels as serving
// connections (server.connGoroutineLabel), leaving out the tables'
// goroutines, which inherit the label from the session that opened them.
// The test's own SSH clients carry no label.
func sessionGoroutines() int {
	n := 0
	for _, g := range labelledStacks() {
		if !strings.Contains(g.stack, "lobby.(*table).run") {
			n += g.count
		}
	}
	return n
}

// sessionStacks is the labelled goroutines' stacks, for a failure.
func sessionStacks() string {
	var b strings.Builder
	for _, g := range labelledStacks() {
		fmt.Fprintf(&b, "%d ×\n%s\n", g.count, g.stack)
	}
	return b.String()
}

type stackCount struct {
	count int
	stack string
}

// labelledStacks parses the goroutine profile's text form: "N @ pcs"
// opens a record, its "# labels:" line says whom it serves.
func labelledStacks() []stackCount {
	var buf bytes.Buffer
	_ = pprof.Lookup("goroutine").WriteTo(&buf, 1)
	var out []stackCount
	for rec := range strings.SplitSeq(buf.String(), "\n\n") {
		head, _, _ := strings.Cut(rec, "\n")
		f := strings.Fields(head)
		if len(f) < 2 || f[1] != "@" || !strings.Contains(rec, `"codebreakers":"conn"`) {
			continue
		}
		n, err := strconv.Atoi(f[0])
		if err != nil {
			continue
		}
		out = append(out, stackCount{n, rec})
	}
	return out
}
