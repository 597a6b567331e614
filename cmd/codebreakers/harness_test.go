package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	gossh "golang.org/x/crypto/ssh"
)

// waitLimit bounds every wait: a ceiling against hangs, not a speed claim.
const waitLimit = 60 * time.Second

// Keys as a terminal sends them.
const (
	keyEnter = "\r"
	keyEsc   = "\x1b"
	keyUp    = "\x1b[A"
	keyDown  = "\x1b[B"
	keyRight = "\x1b[C"
	keyLeft  = "\x1b[D"
)

func testLogger() *slog.Logger {
	if os.Getenv("CB_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// startInstance runs a whole arcade in-process on a loopback port.
// Extra flags override the test defaults.
func startInstance(t testing.TB, dataDir string, flags ...string) (*instance, string) {
	t.Helper()
	args := append([]string{"--data-dir", dataDir, "--bot-delay", "-1ms", "--grace", "30s"}, flags...)
	o, err := parseServe(args, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	in, err := openInstance(o, testLogger())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = in.srv.Serve(ln) }()
	t.Cleanup(func() {
		if err := in.close(10 * time.Second); err != nil {
			t.Logf("close: %v", err)
		}
	})
	return in, ln.Addr().String()
}

func newKey(t testing.TB) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func dial(t testing.TB, addr string, auth ...gossh.AuthMethod) *gossh.Client {
	t.Helper()
	var c *gossh.Client
	var err error
	// The server may still be starting (crash test): retry a bounded number of times.
	for range 100 {
		c, err = gossh.Dial("tcp", addr, &gossh.ClientConfig{
			User:            "tester",
			Auth:            auth,
			HostKeyCallback: gossh.InsecureIgnoreHostKey(),
			Timeout:         waitLimit,
		})
		if err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("dial %s: %v", addr, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// term is a player's terminal: an SSH session with a PTY whose output is
// interpreted by a virtual terminal, so tests read screens, not bytes.
type term struct {
	t    testing.TB
	name string
	sess *gossh.Session
	in   io.WriteCloser

	mu      sync.Mutex
	emu     *vt.Emulator
	done    chan struct{}
	history []string // every distinct screen, when recording
	record  bool
	// silent drops the terminal's replies to the program's queries (such
	// as its background colour) instead of sending them back: a terminal
	// that does not answer.
	silent bool
}

// maxHistory bounds the screens a recording terminal keeps.
const maxHistory = 20000

// recorded returns every distinct screen seen since recording began.
func (tm *term) recorded() []string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return append([]string(nil), tm.history...)
}

// openTerm starts an interactive session of w×h running cmd ("" for the shell).
func openTerm(t testing.TB, c *gossh.Client, name string, w, h int, cmd string) *term {
	t.Helper()
	return openTermRec(t, c, name, w, h, cmd, false)
}

// openTermRec is openTerm, keeping every distinct screen when record is set.
func openTermRec(t testing.TB, c *gossh.Client, name string, w, h int, cmd string, record bool) *term {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatalf("%s: new session: %v", name, err)
	}
	tm := &term{t: t, name: name, sess: sess, emu: vt.NewEmulator(w, h), done: make(chan struct{}), record: record}
	tm.start("xterm-256color", w, h, cmd, streamRecorder(t, name, w, h))
	return tm
}

// streamRecorder returns a file that keeps everything a terminal of w×h
// receives, when CODEBREAKERS_RECORD_STREAMS names a directory, or nil.
// The load generator's screen model is tested against the emulator on
// such recordings of real sessions (cmd/codebreakers/loadtest/testdata).
func streamRecorder(t testing.TB, name string, w, h int) io.Writer {
	dir := os.Getenv("CODEBREAKERS_RECORD_STREAMS")
	if dir == "" {
		return nil
	}
	f, err := os.CreateTemp(dir, strings.ReplaceAll(fmt.Sprintf("%s-%s-%dx%d-*.raw", t.Name(), name, w, h), "/", "_"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

// start requests a termType PTY of w×h on tm's session, runs cmd ("" for
// the shell) and feeds everything the server draws into tm's emulator (and a
// copy to tee, when not nil).
func (tm *term) start(termType string, w, h int, cmd string, tee io.Writer) {
	t, sess := tm.t, tm.sess
	t.Helper()
	var err error
	tm.in, err = sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty(termType, h, w, gossh.TerminalModes{}); err != nil {
		t.Fatalf("%s: pty: %v", tm.name, err)
	}
	if cmd == "" {
		err = sess.Shell()
	} else {
		err = sess.Start(cmd)
	}
	if err != nil {
		t.Fatalf("%s: start: %v", tm.name, err)
	}
	// Terminal replies (to the program's queries) go back as input.
	reply := io.Writer(tm.in)
	if tm.silent {
		reply = io.Discard
	}
	go func() { _, _ = io.Copy(reply, tm.emu) }()
	go func() {
		defer close(tm.done)
		buf := make([]byte, 32*1024)
		for {
			n, err := out.Read(buf)
			if n > 0 {
				if tee != nil {
					_, _ = tee.Write(buf[:n])
				}
				tm.mu.Lock()
				_, _ = tm.emu.Write(buf[:n])
				if tm.record && len(tm.history) < maxHistory {
					if s := tm.emu.String(); len(tm.history) == 0 || tm.history[len(tm.history)-1] != s {
						tm.history = append(tm.history, s)
					}
				}
				tm.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { _ = sess.Close() })
}

// screen is what the terminal shows now, one line per row.
func (tm *term) screen() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.emu.String()
}

// send types keys.
func (tm *term) send(keys ...string) {
	tm.t.Helper()
	for _, k := range keys {
		if _, err := io.WriteString(tm.in, k); err != nil {
			tm.t.Fatalf("%s: send %q: %v", tm.name, k, err)
		}
	}
}

// waitFor waits until the screen contains every one of subs, and returns it.
func (tm *term) waitFor(subs ...string) string {
	tm.t.Helper()
	return tm.waitUntil(strings.Join(subs, " & "), func(s string) bool {
		for _, sub := range subs {
			if !strings.Contains(s, sub) {
				return false
			}
		}
		return true
	})
}

// waitUntil waits until ok(screen) holds, and returns that screen.
func (tm *term) waitUntil(what string, ok func(string) bool) string {
	tm.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		s := tm.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("%s: timed out waiting for %s; screen:\n%s", tm.name, what, s)
		}
		select {
		case <-tm.done:
			s = tm.screen()
			if ok(s) {
				return s
			}
			tm.t.Fatalf("%s: session ended while waiting for %s; screen:\n%s", tm.name, what, s)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func dataDir(t testing.TB) string { return filepath.Join(t.TempDir(), "data") }

func withKey(s gossh.Signer) gossh.AuthMethod { return gossh.PublicKeys(s) }
