package server

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// recordWrites keeps each write it is given, as a copy.
type recordWrites struct{ writes [][]byte }

func (r *recordWrites) Write(p []byte) (int, error) {
	r.writes = append(r.writes, bytes.Clone(p))
	return len(p), nil
}

// TestCRLFWriterIsPtyWriter: for every input, edge cases and random ones,
// one crlfWriter (its buffer reused from write to write) writes what the
// SSH library's ptyWriter writes, in one write, and reports the same count.
func TestCRLFWriterIsPtyWriter(t *testing.T) {
	edges := []string{
		"", "\n", "\r", "\r\n", "\r\r\n", "\n\n", "\r\n\r\n", "\n\r", "\r\r", "\r\r\r\n", "\n\r\n",
		"a\n", "\na", "a\r", "\ra", "a\r\n", "a\nb\r\nc\r\r\nd\n\re",
		"\x1b[1;1H\x1b[2Kline\x1b[m\x1b[K", // a frame: no newline at all
		strings.Repeat("x", 5000) + "\n",
		strings.Repeat("line\n", 400),
		strings.Repeat("\r", 30) + "\n",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("\r\n\x1ba\u00e9")
	for range 5000 {
		b := make([]byte, rng.IntN(48))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		edges = append(edges, string(b))
	}
	var got recordWrites
	w := &crlfWriter{w: &got}
	for _, in := range edges {
		var want bytes.Buffer
		wantN, _ := ssh.NewPtyWriter(&want).Write([]byte(in))
		got.writes = got.writes[:0]
		n, err := w.Write([]byte(in))
		if err != nil || n != wantN {
			t.Fatalf("Write(%q) = %d, %v; ptyWriter says %d", in, n, err, wantN)
		}
		if len(got.writes) != 1 {
			t.Fatalf("Write(%q) made %d writes, want 1", in, len(got.writes))
		}
		if !bytes.Equal(got.writes[0], want.Bytes()) {
			t.Fatalf("Write(%q) wrote %q; ptyWriter writes %q", in, got.writes[0], want.Bytes())
		}
	}
}

// TestCRLFWriterAllocatesNothing: a frame (no newline) is written as it
// is, and text with newlines reuses the writer's buffer.
func TestCRLFWriterAllocatesNothing(t *testing.T) {
	var sink countWrites
	w := &crlfWriter{w: &sink}
	frame := []byte("\x1b[3;1Hturn 12 \x1b[1mKQ7\x1b[m\x1b[K\x1b[5;1H\r\n")
	text := []byte("Players: ana, bo\nResult: ana wins\n")
	_, _ = w.Write(text) // the buffer, once
	for name, p := range map[string][]byte{"frame": frame, "text": text} {
		if allocs := testing.AllocsPerRun(100, func() { _, _ = w.Write(p) }); allocs != 0 {
			t.Errorf("writing a %s allocates %.1f times", name, allocs)
		}
	}
}

type countWrites struct{ n int }

func (c *countWrites) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

// overlapDetector fails its test if two writes are in it at once.
type overlapDetector struct {
	t    *testing.T
	busy atomic.Bool
}

func (o *overlapDetector) Write(p []byte) (int, error) {
	if !o.busy.CompareAndSwap(false, true) {
		o.t.Error("two writes reached the channel at once")
	}
	for range 100 {
		_ = bytes.Count(p, []byte{'\n'}) // some time inside
	}
	o.busy.Store(false)
	return len(p), nil
}

// TestCRLFWriterSerialisesWrites: the frame writer and the session's own
// messages never write to the channel at the same time (its packet buffer
// is not safe for that).
func TestCRLFWriterSerialisesWrites(t *testing.T) {
	w := &crlfWriter{w: &overlapDetector{t: t}}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 200 {
				_, _ = w.Write([]byte(strings.Repeat("a\n", g+i%7)))
			}
		})
	}
	wg.Wait()
}

// fakeSession is an ssh.Session with a chosen PTY state; anything else
// panics.
type fakeSession struct {
	ssh.Session
	pty, emulated bool
}

func (f fakeSession) Pty() (ssh.Pty, <-chan ssh.Window, bool) { return ssh.Pty{}, nil, f.pty }
func (f fakeSession) EmulatedPty() bool                       { return f.emulated }

// TestWireSessionOnlyForEmulatedPty: output bypasses the library's
// session.Write only where that would have converted line endings;
// elsewhere the session writes as it did.
func TestWireSessionOnlyForEmulatedPty(t *testing.T) {
	var raw gossh.Channel = struct{ gossh.Channel }{}
	for _, c := range []struct {
		pty, emulated, raw, wired bool
	}{
		{true, true, true, true},
		{true, true, false, false}, // channel handler bypassed
		{false, true, true, false}, // exec without a terminal: no conversion
		{true, false, true, false}, // a real PTY (not this server): no conversion
	} {
		ch := raw
		if !c.raw {
			ch = nil
		}
		_, wired := wireSession(fakeSession{pty: c.pty, emulated: c.emulated}, ch).(*wiredSession)
		if wired != c.wired {
			t.Errorf("pty %v, emulated %v, channel %v: wired %v, want %v", c.pty, c.emulated, c.raw, wired, c.wired)
		}
	}
}

// TestSessionTextEndsLinesWithCRLF: over SSH, what a session writes besides
// its frames keeps the line endings a terminal needs — the message a
// session leaves with, a command's output on a terminal — and a command
// without a terminal gets its text as it is.
func TestSessionTextEndsLinesWithCRLF(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.IdleTimeout = 300 * time.Millisecond })
	c := dial(t, ts.addr, withKey(newKey(t)))

	sess, out, _ := ptySession(t, c, 80, 24)
	waitFor(t, "idle disconnect", func() bool { return contains(out.String(), "without input") })
	_ = sess.Wait()
	if got := out.String(); !strings.Contains(got, "\r\n"+errIdle.Error()+"\r\n") || bareLF([]byte(got), 0) >= 0 {
		t.Errorf("the leaving message is not on lines of its own ending in CRLF: %q", tail(got))
	}

	help := func(pty bool) string {
		s, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if pty {
			if err := s.RequestPty("xterm", 24, 80, gossh.TerminalModes{}); err != nil {
				t.Fatal(err)
			}
		}
		b, err := s.Output("help")
		if err != nil {
			t.Fatalf("help (pty %v): %v", pty, err)
		}
		return string(b)
	}
	plain, onTerminal := help(false), help(true)
	if strings.Contains(plain, "\r") || !strings.Contains(plain, "\n") {
		t.Errorf("help without a terminal is not plain lines: %q", plain)
	}
	if want := strings.ReplaceAll(plain, "\n", "\r\n"); onTerminal != want {
		t.Errorf("help on a terminal = %q, want %q", onTerminal, want)
	}
}

// TestSessionsShareReducedColours: a server's sessions reduce their
// colours to the terminal's profile through one table (frame.Colours), so
// a second session drawing the same colours keeps nothing of its own for
// them.
func TestSessionsShareReducedColours(t *testing.T) {
	ts := startServer(t, nil)
	ts.app.echo = true
	_, first, _ := ptySession(t, dial(t, ts.addr, asGuest()), 80, 24)
	waitFor(t, "the first session's screen", func() bool { return contains(first.String(), "keys=0;") })
	n := ts.colours.Len()
	if n == 0 {
		t.Fatal("no colours in the server's table after a 256-colour session drew coloured lines")
	}
	_, second, _ := ptySession(t, dial(t, ts.addr, asGuest()), 80, 24)
	waitFor(t, "the second session's screen", func() bool { return contains(second.String(), "keys=0;") })
	if got := ts.colours.Len(); got != n {
		t.Errorf("%d colours in the server's table after a second session drew the same screen, want still %d", got, n)
	}
}
