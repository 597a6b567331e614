package server

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
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

	tea "charm.land/bubbletea/v2"
	gossh "golang.org/x/crypto/ssh"
)

// waitLimit bounds every wait in these tests. It is a ceiling against hangs,
// not a speed assertion.
const waitLimit = 30 * time.Second

// testApp records the sessions the server builds and gives each a tiny
// model that shows its size and account, and quits on "q".
type testApp struct {
	sessions chan Session
	sizes    chan termSize
	tick     time.Duration // when set, the model repaints this often
	// echo makes the model show how many keys it was sent on a screen of
	// styled lines that every key changes, as a move changes a board.
	echo bool
	// askBackground makes the model ask the terminal for its background
	// colour when it starts, as the arcade's UI does.
	askBackground bool
}

func newTestApp() *testApp {
	return &testApp{sessions: make(chan Session, 64), sizes: make(chan termSize, 1024)}
}

func (a *testApp) build(s Session) tea.Model {
	select {
	case a.sessions <- s:
	default:
	}
	return &testModel{app: a, s: s, w: s.Width, h: s.Height}
}

type testModel struct {
	app   *testApp
	s     Session
	w, h  int
	ticks int
	keys  int
	bg    string // "light" or "dark" once the terminal said its background
}

type tickMsg struct{}

func (m *testModel) tick() tea.Cmd {
	if m.app.tick == 0 {
		return nil
	}
	return tea.Tick(m.app.tick, func(time.Time) tea.Msg { return tickMsg{} })
}

func (m *testModel) Init() tea.Cmd {
	if m.app.askBackground {
		return tea.Batch(m.tick(), tea.RequestBackgroundColor)
	}
	return m.tick()
}

func (m *testModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		select {
		case m.app.sizes <- termSize{msg.Width, msg.Height}:
		default:
		}
	case tea.KeyPressMsg:
		m.keys++
		if msg.String() == "q" {
			return m, tea.Quit
		}
	case tea.BackgroundColorMsg:
		m.bg = map[bool]string{true: "dark", false: "light"}[msg.IsDark()]
	case tickMsg:
		m.ticks++
		return m, m.tick()
	}
	return m, nil
}

func (m *testModel) View() tea.View {
	v := fmt.Sprintf("READY %dx%d %s ticks=%d", m.w, m.h, m.s.Identity.Account, m.ticks)
	if m.app.echo {
		var b strings.Builder
		for i := range m.h - 2 {
			fmt.Fprintf(&b, "\n\x1b[38;5;%dm%2d·%d\x1b[m seat %d  \x1b[1m◆ ○ ◆ ○\x1b[m  notes ··· 3 of 5 even, 2 red  \x1b[2m(asked %d)\x1b[m",
				16+(m.keys+i)%200, i, m.keys, i%4, m.keys)
		}
		v += fmt.Sprintf("%s\nkeys=%d;", b.String(), m.keys)
	}
	if m.bg != "" {
		v = "background=" + m.bg + " " + v // first: the line is cut at the width
	}
	return tea.NewView(v)
}

// testServer is a server on a loopback port.
type testServer struct {
	*Server
	addr string
	app  *testApp
	done chan error
}

// startServer runs a server with small limits, changed by edit.
func startServer(t testing.TB, edit func(*Config)) *testServer {
	t.Helper()
	app := newTestApp()
	cfg := Config{
		HostKeyPath: filepath.Join(t.TempDir(), "keys", "host_ed25519"),
		Logger:      testLogger(),
		App:         app.build,
	}
	if edit != nil {
		edit(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	ts := &testServer{Server: srv, addr: ln.Addr().String(), app: app, done: make(chan error, 1)}
	go func() { ts.done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		_ = srv.Close()
		select {
		case <-ts.done:
		case <-time.After(waitLimit):
			t.Error("server did not stop")
		}
	})
	return ts
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

func dial(t *testing.T, addr string, auth ...gossh.AuthMethod) *gossh.Client {
	t.Helper()
	c, err := dialErr(addr, auth...)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func dialErr(addr string, auth ...gossh.AuthMethod) (*gossh.Client, error) {
	return gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User:            "player\x1b[31m",
		Auth:            auth,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(),
		Timeout:         waitLimit,
	})
}

func withKey(s gossh.Signer) gossh.AuthMethod { return gossh.PublicKeys(s) }

func asGuest() gossh.AuthMethod {
	return gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
		return nil, nil
	})
}

// screen collects a session's output.
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// waitFor polls until cond holds or the wait limit passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// ptySession opens a shell with a PTY of the given size.
func ptySession(t *testing.T, c *gossh.Client, w, h int) (*gossh.Session, *screen, io.WriteCloser) {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatalf("new session: %v", err)
	}
	t.Cleanup(func() { _ = sess.Close() })
	out := &screen{}
	sess.Stdout = out
	sess.Stderr = out
	in, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		t.Fatalf("pty: %v", err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatalf("shell: %v", err)
	}
	return sess, out, in
}

// run runs an exec command without a PTY and returns stdout, stderr and
// the exit status.
func run(t *testing.T, c *gossh.Client, cmd string) (string, string, int) {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatalf("new session: %v", err)
	}
	defer sess.Close()
	var stdout, stderr bytes.Buffer
	sess.Stdout, sess.Stderr = &stdout, &stderr
	err = sess.Run(cmd)
	code := 0
	var exit *gossh.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitStatus()
	case err != nil:
		t.Fatalf("run %q: %v", cmd, err)
	}
	return stdout.String(), stderr.String(), code
}

func nextSession(t *testing.T, app *testApp) Session {
	t.Helper()
	select {
	case s := <-app.sessions:
		return s
	case <-time.After(waitLimit):
		t.Fatal("no session reached the app")
		return Session{}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// testLogger discards logs unless CB_TEST_LOG is set.
func testLogger() *slog.Logger {
	if os.Getenv("CB_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}
