package server

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	gossh "golang.org/x/crypto/ssh"
)

// keyCounter is a model that counts the input bytes it is given (keys and
// pastes) and quits on "q".
type keyCounter struct{ n *atomic.Int64 }

func (m keyCounter) Init() tea.Cmd { return nil }

func (m keyCounter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.String() == "q" {
			return m, tea.Quit
		}
		m.n.Add(int64(max(1, len(msg.Text))))
	case tea.PasteMsg:
		m.n.Add(int64(len(msg.Content)))
	}
	return m, nil
}

func (m keyCounter) View() tea.View { return tea.NewView("COUNTING") }

func TestPastedMegabyteIsDroppedNotQueued(t *testing.T) {
	var keys atomic.Int64
	logs := &syncBuffer{}
	ts := startServer(t, func(c *Config) {
		c.InputPerSecond, c.InputBurst = 512, 4096
		c.Logger = slog.New(slog.NewTextHandler(logs, nil))
		c.App = func(Session) tea.Model { return keyCounter{&keys} }
	})
	c := dial(t, ts.addr, withKey(newKey(t)))
	sess, out, in := ptySession(t, c, 80, 24)
	waitFor(t, "first frame", func() bool { return contains(out.String(), "COUNTING") })

	const total = 1 << 20
	chunk := bytes.Repeat([]byte("x"), 32<<10)
	for sent := 0; sent < total; sent += len(chunk) {
		if _, err := in.Write(chunk); err != nil {
			t.Fatalf("paste: %v", err)
		}
	}
	// The session still answers: "q" gets through once the budget refills.
	ended := make(chan error, 1)
	go func() { ended <- sess.Wait() }()
	deadline := time.After(waitLimit)
	for done := false; !done; {
		select {
		case <-ended:
			done = true
		case <-deadline:
			t.Fatal("session did not answer after the flood")
		case <-time.After(200 * time.Millisecond):
			_, _ = in.Write([]byte("q"))
		}
	}
	// Budget: the burst plus the refill over the whole wait, far below 1 MB.
	t.Logf("the program was handed %d of %d pasted bytes", keys.Load(), total)
	if got := keys.Load(); got > 4096+512*int64(waitLimit/time.Second) {
		t.Errorf("the program was handed %d input bytes of a %d-byte flood", got, total)
	}
	if !strings.Contains(logs.String(), "kind=\"input flood\"") {
		t.Errorf("no abuse line for the flood:\n%s", logs.String())
	}
}

// chunkReader hands out its chunks one Read at a time.
type chunkReader struct{ chunks [][]byte }

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.chunks[0])
	r.chunks[0] = r.chunks[0][n:]
	if len(r.chunks[0]) == 0 {
		r.chunks = r.chunks[1:]
	}
	return n, nil
}

// pumpAll runs the limiter's pump over a source that ends and returns
// everything it admitted.
func pumpAll(l *inputLimiter) []byte {
	l.pump()
	got, _ := l.take()
	return got
}

func TestInputLimiterClosesACutPaste(t *testing.T) {
	paste := append(append([]byte("\x1b[200~"), bytes.Repeat([]byte("y"), 100)...), "\x1b[201~"...)
	src := &chunkReader{chunks: [][]byte{paste[:50], paste[50:], []byte("z")}}
	floods := 0
	l := newInputLimiter(src, 1, 40, func() { floods++ })
	clock := time.Unix(0, 0)
	l.now = func() time.Time { return clock }
	l.updated = clock
	got := pumpAll(l)
	want := string(paste[:40]) + "\x1b[201~"
	if string(got) != want {
		t.Errorf("passed %q, want the budget then a paste end %q", got, want)
	}
	if floods != 1 || l.Dropped() != int64(len(paste)+1-40) {
		t.Errorf("floods = %d, dropped = %d", floods, l.Dropped())
	}
}

func TestBanListFileFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bans")
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("# operator's list\n\nSHA256:bad  # spammer\nban 203.0.113.7\n198.51.100.0/24\n::ffff:192.0.2.1\nmute SHA256:loud\n")
	b, err := LoadBanList(path, testLogger())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		got  bool
		want bool
	}{
		{"key", b.BannedKey("SHA256:bad"), true},
		{"other key", b.BannedKey("SHA256:good"), false},
		{"muted key not banned", b.BannedKey("SHA256:loud"), false},
		{"muted", b.Muted("SHA256:loud"), true},
		{"banned is muted", b.Muted("SHA256:bad"), true},
		{"address", b.BannedAddr("203.0.113.7"), true},
		{"network", b.BannedAddr("198.51.100.200"), true},
		{"mapped address", b.BannedAddr("192.0.2.1"), true},
		{"v4 in v6 form", b.BannedAddr("::ffff:203.0.113.7"), true},
		{"outside", b.BannedAddr("198.51.101.1"), false},
		{"garbage address", b.BannedAddr("not-an-ip"), false},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}

	// A bad edit is reported and the previous list stays in force.
	write("SHA256:bad\nmute 203.0.113.7\n")
	if err := b.Reload(); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad file: err = %v, want one naming line 2", err)
	}
	if !b.BannedAddr("203.0.113.7") {
		t.Error("a failed reload dropped the previous list")
	}
	// A good edit is picked up without a signal once the file changes.
	write("SHA256:other\n")
	b.mu.Lock()
	b.checked = time.Time{}
	b.mu.Unlock()
	if b.BannedKey("SHA256:bad") || !b.BannedKey("SHA256:other") {
		t.Error("the changed file was not reloaded")
	}

	var none *BanList
	if none.BannedKey("SHA256:bad") || none.BannedAddr("203.0.113.7") || none.Muted("x") || none.Reload() != nil {
		t.Error("the nil list must ban nobody")
	}
	if _, err := LoadBanList(filepath.Join(t.TempDir(), "missing"), testLogger()); err == nil {
		t.Error("a missing ban file must be an error")
	}
}

func TestBannedKeyAndAddressAreRefused(t *testing.T) {
	banned, fine := newKey(t), newKey(t)
	path := filepath.Join(t.TempDir(), "bans")
	if err := os.WriteFile(path, []byte(gossh.FingerprintSHA256(banned.PublicKey())+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bans, err := LoadBanList(path, testLogger())
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	ts := startServer(t, func(c *Config) {
		c.Bans = bans
		c.Logger = slog.New(slog.NewTextHandler(logs, nil))
	})

	_, stderr, code := run(t, dial(t, ts.addr, withKey(banned)), "help")
	if code == 0 || !strings.Contains(stderr, "banned") {
		t.Errorf("banned key: exit %d, stderr %q", code, stderr)
	}
	if _, _, code := run(t, dial(t, ts.addr, withKey(fine)), "help"); code != 0 {
		t.Errorf("another key was refused (exit %d)", code)
	}

	// Ban the loopback network: everyone is refused, with the message.
	if err := os.WriteFile(path, []byte("127.0.0.0/8\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := bans.Reload(); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = run(t, dial(t, ts.addr, withKey(fine)), "help")
	if code == 0 || !strings.Contains(stderr, "banned") {
		t.Errorf("banned address: exit %d, stderr %q", code, stderr)
	}
	waitFor(t, "abuse lines", func() bool {
		return strings.Contains(logs.String(), `kind="banned key"`) && strings.Contains(logs.String(), `kind="banned address"`)
	})
	if !strings.Contains(logs.String(), "account="+gossh.FingerprintSHA256(banned.PublicKey())) {
		t.Errorf("the banned key's account is not in the log:\n%s", logs.String())
	}
}

func TestHalfOpenAndSlowHandshakesAreReaped(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.HandshakeTimeout = 300 * time.Millisecond })
	warm := dial(t, ts.addr, withKey(newKey(t)))
	run(t, warm, "help")
	_ = warm.Close()
	runtime.GC()
	baseline := runtime.NumGoroutine()

	var wg sync.WaitGroup
	reaped := make(chan string, 8)
	for i := range 6 {
		conn, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = conn.Close() })
		if i%2 == 1 {
			// A slow handshake: a version line, then nothing.
			_, _ = conn.Write([]byte("SSH-2.0-slowpoke\r\n"))
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = conn.SetReadDeadline(time.Now().Add(waitLimit))
			_, err := io.Copy(io.Discard, conn) // returns when the server hangs up
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				reaped <- "still open"
				return
			}
			reaped <- ""
		}()
	}
	wg.Wait()
	close(reaped)
	for r := range reaped {
		if r != "" {
			t.Errorf("a silent connection was %s after the wait limit", r)
		}
	}
	// The limiter forgot them, so this address may still connect.
	after := dial(t, ts.addr, withKey(newKey(t)))
	if _, _, code := run(t, after, "help"); code != 0 {
		t.Error("reaped connections still count against the address")
	}
	_ = after.Close()
	waitFor(t, "goroutines back to baseline", func() bool {
		return runtime.NumGoroutine() <= baseline+2
	})
}

func TestThousandConnectsLeaveNoGoroutines(t *testing.T) {
	if testing.Short() {
		t.Skip("a thousand handshakes")
	}
	ts := startServer(t, func(c *Config) {
		c.ConnectionsPerMinute = 100000
		c.MaxSessionsPerIP = 64
	})
	key := newKey(t)
	warm := dial(t, ts.addr, withKey(key))
	run(t, warm, "help")
	_ = warm.Close()
	runtime.GC()
	baseline := runtime.NumGoroutine()

	const total, workers = 1000, 4
	var next atomic.Int64
	var failed atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1); i <= total; i = next.Add(1) {
				c, err := dialErr(ts.addr, withKey(key))
				if err != nil {
					failed.Add(1)
					continue
				}
				switch i % 10 {
				case 0: // some run a command
					if s, err := c.NewSession(); err == nil {
						_ = s.Run("help")
					}
				case 1: // some open a session and hang up mid-way
					if s, err := c.NewSession(); err == nil {
						_ = s.RequestPty("xterm", 24, 80, nil)
					}
				}
				_ = c.Close()
			}
		}()
	}
	wg.Wait()
	if n := failed.Load(); n > 0 {
		t.Errorf("%d of %d connections failed", n, total)
	}
	waitFor(t, "goroutines back to baseline", func() bool {
		runtime.GC()
		return runtime.NumGoroutine() <= baseline+2 && ts.Sessions() == 0
	})
}

// panicky panics in Update on "p" and in a command (inside a batch) on "c".
type panicky struct{}

func (panicky) Init() tea.Cmd { return nil }

func (m panicky) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "p":
			panic("update went wrong")
		case "c":
			return m, tea.Batch(nil, func() tea.Msg { panic("command went wrong") })
		}
	}
	return m, nil
}

func (panicky) View() tea.View { return tea.NewView("PANICKY") }

func TestPanicInRunningProgramEndsOnlyThatSession(t *testing.T) {
	logs := &syncBuffer{}
	ts := startServer(t, func(c *Config) {
		c.Logger = slog.New(slog.NewTextHandler(logs, nil))
		c.App = func(Session) tea.Model { return panicky{} }
	})
	bystander := dial(t, ts.addr, withKey(newKey(t)))
	_, bystanderOut, _ := ptySession(t, bystander, 80, 24)
	waitFor(t, "bystander frame", func() bool { return contains(bystanderOut.String(), "PANICKY") })

	for _, key := range []string{"p", "c"} {
		c := dial(t, ts.addr, withKey(newKey(t)))
		sess, out, in := ptySession(t, c, 80, 24)
		waitFor(t, "first frame", func() bool { return contains(out.String(), "PANICKY") })
		_, _ = in.Write([]byte(key))
		err := sess.Wait()
		var exit *gossh.ExitError
		if !errors.As(err, &exit) || exit.ExitStatus() != 1 {
			t.Errorf("%s: exit = %v, want status 1", key, err)
		}
		if !contains(out.String(), "Something went wrong") || contains(out.String(), "goroutine") {
			t.Errorf("%s: the player saw %q", key, tail(out.String()))
		}
	}
	waitFor(t, "both panics logged", func() bool { return strings.Count(logs.String(), `msg="panic in session"`) >= 2 })
	for _, want := range []string{"update went wrong", "command went wrong", "stack=", "goroutine"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q", want)
		}
	}
	// The server and the other session carry on.
	if _, _, code := run(t, dial(t, ts.addr, withKey(newKey(t))), "help"); code != 0 {
		t.Error("server broken after panics")
	}
	if ts.Sessions() != 1 {
		t.Errorf("%d sessions open, want only the bystander", ts.Sessions())
	}
}

func TestInputLimiterSeesMarkersSplitAcrossReads(t *testing.T) {
	src := &chunkReader{chunks: [][]byte{[]byte("ab\x1b[20"), []byte("0~yyyy"), bytes.Repeat([]byte("y"), 50)}}
	l := newInputLimiter(src, 1, 12, nil)
	clock := time.Unix(0, 0)
	l.now = func() time.Time { return clock }
	l.updated = clock
	got := pumpAll(l)
	if want := "ab\x1b[200~yyyy\x1b[201~"; string(got) != want {
		t.Errorf("passed %q, want %q", got, want)
	}
}

func TestInputLimiterNeverCutsInsideASequence(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ab\x1b", "ab"},
		{"ab\x1b[20", "ab"},
		{"ab\x1b[A", "ab\x1b[A"},
		{"ab\x1bO", "ab"},
		{"ab\x1b]0;x", "ab"},
		{"ab\x1b]0;x\x07", "ab\x1b]0;x\x07"},
		{"ab\x1bx", "ab\x1bx"},
		{"ab\xe5\x85", "ab"},
		{"ab\xe5\x85\xa8", "ab全"},
	} {
		if got := string(cutWhole([]byte(c.in))); got != c.want {
			t.Errorf("cutWhole(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// Through the limiter: a budget ending mid-sequence passes none of it.
	src := &chunkReader{chunks: [][]byte{[]byte("abc\x1b[1;5A" + strings.Repeat("z", 20))}}
	l := newInputLimiter(src, 1, 6, nil)
	clock := time.Unix(0, 0)
	l.now = func() time.Time { return clock }
	l.updated = clock
	got := pumpAll(l)
	if string(got) != "abc" {
		t.Errorf("passed %q, want %q", got, "abc")
	}
}

func TestBanEndsSessionsAlreadyOpen(t *testing.T) {
	troll := newKey(t)
	path := filepath.Join(t.TempDir(), "bans")
	if err := os.WriteFile(path, []byte("# nobody yet\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bans, err := LoadBanList(path, testLogger())
	if err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, func(c *Config) { c.Bans = bans })
	sess, out, _ := ptySession(t, dial(t, ts.addr, withKey(troll)), 80, 24)
	waitFor(t, "first frame", func() bool { return contains(out.String(), "READY") })

	if err := os.WriteFile(path, []byte(gossh.FingerprintSHA256(troll.PublicKey())+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := bans.Reload(); err != nil {
		t.Fatal(err)
	}
	// The next connection to arrive makes the server notice the new list.
	if _, _, code := run(t, dial(t, ts.addr, withKey(newKey(t))), "help"); code != 0 {
		t.Fatal("an unbanned key was refused")
	}
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()
	select {
	case <-done:
	case <-time.After(waitLimit):
		t.Fatal("the banned player's open session was not ended")
	}
	if !contains(out.String(), "banned") {
		t.Errorf("the player was not told: %q", tail(out.String()))
	}
}
