package server

import (
	"context"
	"log/slog"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

func TestHostKeyCreatedPrivateAndReused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "host_ed25519")
	first, err := LoadOrCreateHostKey(path)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("key mode = %o, want 600", perm)
	}
	dir, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if perm := dir.Mode().Perm(); perm != 0o700 {
		t.Errorf("key dir mode = %o, want 700", perm)
	}
	if first.PublicKey().Type() != gossh.KeyAlgoED25519 {
		t.Errorf("key type = %s, want ed25519", first.PublicKey().Type())
	}
	second, err := LoadOrCreateHostKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if gossh.FingerprintSHA256(first.PublicKey()) != gossh.FingerprintSHA256(second.PublicKey()) {
		t.Error("second load made a new key instead of reusing the file")
	}
}

func TestNewWritesNothingIntoWorkingDir(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadDir(wd)
	startServer(t, nil)
	after, _ := os.ReadDir(wd)
	if len(after) != len(before) {
		t.Errorf("working directory changed: %d entries before, %d after", len(before), len(after))
	}
}

func TestConfigRequiresHostKeyAndApp(t *testing.T) {
	if _, err := New(Config{App: newTestApp().build}); err == nil {
		t.Error("New without HostKeyPath succeeded")
	}
	if _, err := New(Config{HostKeyPath: filepath.Join(t.TempDir(), "k")}); err == nil {
		t.Error("New without App succeeded")
	}
}

func TestIdentityIsTheAuthenticatedKey(t *testing.T) {
	ts := startServer(t, nil)
	keyA, keyB := newKey(t), newKey(t)

	accounts := make([]string, 0, 2)
	for _, key := range []gossh.Signer{keyA, keyB} {
		c := dial(t, ts.addr, withKey(key))
		ptySession(t, c, 80, 24)
		s := nextSession(t, ts.app)
		if s.Identity.Guest {
			t.Fatal("a key session was treated as a guest")
		}
		if want := gossh.FingerprintSHA256(key.PublicKey()); s.Identity.Account != want {
			t.Errorf("account = %q, want the key's fingerprint %q", s.Identity.Account, want)
		}
		accounts = append(accounts, s.Identity.Account)
	}
	if accounts[0] == accounts[1] {
		t.Error("two keys share one account")
	}
}

// forgedSigner offers one key but signs with another, as a client that only
// holds a public key would have to.
type forgedSigner struct {
	offered gossh.PublicKey
	real    gossh.Signer
}

func (f forgedSigner) PublicKey() gossh.PublicKey { return f.offered }

func (f forgedSigner) Sign(r io.Reader, data []byte) (*gossh.Signature, error) {
	return f.real.Sign(r, data)
}

// offerOnlySigner offers a public key the client cannot sign with: the
// server is asked about the key, which it accepts, but no signature follows.
type offerOnlySigner struct{ offered gossh.PublicKey }

func (o offerOnlySigner) PublicKey() gossh.PublicKey { return o.offered }

func (o offerOnlySigner) Sign(io.Reader, []byte) (*gossh.Signature, error) {
	return nil, errors.New("no private key here")
}

func TestOfferedButUnsignedKeyIsNotTrusted(t *testing.T) {
	ts := startServer(t, nil)
	victim, attacker := newKey(t), newKey(t)
	victimFP := gossh.FingerprintSHA256(victim.PublicKey())

	t.Run("offered then keyboard-interactive", func(t *testing.T) {
		c := dial(t, ts.addr, gossh.PublicKeys(offerOnlySigner{victim.PublicKey()}), asGuest())
		ptySession(t, c, 80, 24)
		s := nextSession(t, ts.app)
		if s.Identity.Account == victimFP {
			t.Fatal("the session got the account of a key it never signed with")
		}
		if !s.Identity.Guest || !strings.HasPrefix(s.Identity.Account, "guest:") {
			t.Errorf("identity = %+v, want a guest", s.Identity)
		}
	})
	t.Run("forged signature", func(t *testing.T) {
		forged := forgedSigner{offered: victim.PublicKey(), real: attacker}
		if c, err := dialErr(ts.addr, gossh.PublicKeys(forged), asGuest()); err == nil {
			_ = c.Close()
			t.Fatal("a forged signature was accepted")
		}
	})
}

func TestGuestLogin(t *testing.T) {
	ts := startServer(t, nil)
	seen := map[string]bool{}
	for range 2 {
		c := dial(t, ts.addr, asGuest())
		ptySession(t, c, 80, 24)
		s := nextSession(t, ts.app)
		if !s.Identity.Guest || !strings.HasPrefix(s.Identity.Account, "guest:") {
			t.Fatalf("identity = %+v, want a guest", s.Identity)
		}
		if seen[s.Identity.Account] {
			t.Error("two guests got the same account")
		}
		seen[s.Identity.Account] = true
	}
	c := dial(t, ts.addr, asGuest())
	out, _, code := run(t, c, "history")
	if code != 0 || !strings.Contains(out, "SSH key") {
		t.Errorf("guest history = %q (exit %d), want a note that history needs a key", out, code)
	}
}

func TestExecHelpAndUnknownCommand(t *testing.T) {
	ts := startServer(t, nil)
	c := dial(t, ts.addr, withKey(newKey(t)))

	out, _, code := run(t, c, "help")
	if code != 0 || !strings.Contains(out, "127.0.0.1 join CODE") {
		t.Errorf("help = %q (exit %d)", out, code)
	}
	_, errOut, code := run(t, c, "rm -rf \x1b[2J/")
	if code != 1 {
		t.Errorf("unknown command exit = %d, want 1", code)
	}
	if !strings.Contains(errOut, `Unknown command "rm"`) || strings.Contains(errOut, "\x1b") {
		t.Errorf("unknown command message = %q", errOut)
	}
	_, errOut, code = run(t, c, "join KQ7M4X")
	if code != 1 || !strings.Contains(errOut, "127.0.0.1 join KQ7M4X") {
		t.Errorf("join without a terminal = %q (exit %d), want advice to use -t", errOut, code)
	}
	_, errOut, code = run(t, c, "")
	if code != 1 || !strings.Contains(errOut, "terminal") {
		t.Errorf("shell without a terminal = %q (exit %d)", errOut, code)
	}
}

func TestExecStartsProgramWithPty(t *testing.T) {
	ts := startServer(t, nil)
	c := dial(t, ts.addr, withKey(newKey(t)))
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if err := sess.RequestPty("xterm", 24, 80, nil); err != nil {
		t.Fatal(err)
	}
	if err := sess.Start("JOIN kq7-m4x\x07"); err != nil {
		t.Fatal(err)
	}
	s := nextSession(t, ts.app)
	if s.Start != (Start{Kind: "join", Arg: "KQ7-M4X"}) {
		t.Errorf("start = %+v, want join KQ7-M4X", s.Start)
	}
}

func TestPtySizesAreClamped(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxWidth, c.MaxHeight = 200, 60 })
	cases := []struct{ w, h, wantW, wantH int }{
		{1, 1, 1, 1},
		{10000, 10000, 200, 60},
		{1500, 1500, 200, 60},
		{0, 0, 80, 24},
	}
	for _, tc := range cases {
		var before runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)

		c := dial(t, ts.addr, withKey(newKey(t)))
		_, out, _ := ptySession(t, c, tc.w, tc.h)
		s := nextSession(t, ts.app)
		if s.Width != tc.wantW || s.Height != tc.wantH {
			t.Errorf("pty %dx%d: app got %dx%d, want %dx%d", tc.w, tc.h, s.Width, s.Height, tc.wantW, tc.wantH)
		}
		// At 1×1 only the first letter fits.
		waitFor(t, "first frame", func() bool { return contains(out.String(), "R") })

		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		// An unclamped 1500×1500 screen costs hundreds of MB in cell buffers.
		if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 64<<20 {
			t.Errorf("pty %dx%d: heap grew by %d MB", tc.w, tc.h, grew>>20)
		}
		_ = c.Close()
	}
}

func TestResizesAreClampedAndCoalesced(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxWidth, c.MaxHeight = 200, 60 })
	c := dial(t, ts.addr, withKey(newKey(t)))
	sess, out, _ := ptySession(t, c, 80, 24)
	waitFor(t, "first frame", func() bool { return contains(out.String(), "READY 80x24") })

	for i := range 500 {
		if err := sess.WindowChange(100000+i, 100000+i); err != nil {
			t.Fatal(err)
		}
	}
	if err := sess.WindowChange(30, 100); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "final size", func() bool { return contains(out.String(), "READY 100x30") })
	for {
		select {
		case s := <-ts.app.sizes:
			if s.Width > 200 || s.Height > 60 {
				t.Fatalf("model saw %dx%d, beyond the clamp", s.Width, s.Height)
			}
			continue
		default:
		}
		break
	}
}

func TestResizeBeforeShellDoesNotHang(t *testing.T) {
	ts := startServer(t, nil)
	// Let the server's own goroutines settle before counting.
	warm := dial(t, ts.addr, withKey(newKey(t)))
	run(t, warm, "help")
	_ = warm.Close()
	runtime.GC()
	baseline := runtime.NumGoroutine()

	for range 3 {
		c, err := dialErr(ts.addr, withKey(newKey(t)))
		if err != nil {
			t.Fatal(err)
		}
		sess, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		out := &screen{}
		sess.Stdout = out
		stdin, _ := sess.StdinPipe()
		if err := sess.RequestPty("xterm", 24, 80, nil); err != nil {
			t.Fatal(err)
		}
		for i := range 5 {
			if err := sess.WindowChange(30+i, 100+i); err != nil {
				t.Fatal(err)
			}
		}
		if err := sess.Shell(); err != nil {
			t.Fatalf("shell after early resizes: %v", err)
		}
		s := nextSession(t, ts.app)
		if s.Width != 104 || s.Height != 34 {
			t.Errorf("app started at %dx%d, want the latest early size 104x34", s.Width, s.Height)
		}
		waitFor(t, "first frame", func() bool { return contains(out.String(), "READY") })
		_, _ = stdin.Write([]byte("q"))
		_ = sess.Wait()
		// A resize after the program ended must not wedge anything either.
		_ = sess.WindowChange(40, 120)
		_ = sess.Close()
		_ = c.Close()
	}
	waitFor(t, "goroutines back to baseline", func() bool {
		return runtime.NumGoroutine() <= baseline+2 && ts.Sessions() == 0
	})
}

func TestEnvFloodIsCapped(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxEnv = 8 })
	c := dial(t, ts.addr, withKey(newKey(t)))
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	accepted := 0
	for i := range 200 {
		if sess.Setenv("VAR"+strings.Repeat("X", i%10), strings.Repeat("v", 100)) == nil {
			accepted++
		}
	}
	if accepted != 8 {
		t.Errorf("accepted %d env entries, want 8", accepted)
	}
	if sess.Setenv(sessionKeyEnv, "forged") == nil {
		t.Error("the private session key was accepted from the client")
	}
	if err := sess.RequestPty("xterm", 24, 80, nil); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	s := nextSession(t, ts.app)
	if len(s.Environ) > 9 {
		t.Errorf("app got %d env entries, want at most 8 plus TERM", len(s.Environ))
	}
	for _, kv := range s.Environ {
		if strings.HasPrefix(kv, sessionKeyEnv) {
			t.Error("the private session key leaked into the app's environment")
		}
	}
}

func TestSessionsPerConnectionAreCapped(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxSessionsPerConn = 2 })
	c := dial(t, ts.addr, withKey(newKey(t)))
	for i := range 2 {
		if _, err := c.NewSession(); err != nil {
			t.Fatalf("session %d: %v", i+1, err)
		}
	}
	_, err := c.NewSession()
	var oce *gossh.OpenChannelError
	if !errors.As(err, &oce) || oce.Reason != gossh.ResourceShortage {
		t.Fatalf("third session error = %v, want a resource-shortage refusal", err)
	}
}

func TestPerAddressSessionLimit(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxSessionsPerIP = 2 })
	for range 2 {
		c := dial(t, ts.addr, withKey(newKey(t)))
		ptySession(t, c, 80, 24)
		nextSession(t, ts.app)
	}
	c := dial(t, ts.addr, withKey(newKey(t)))
	_, errOut, code := run(t, c, "help")
	if code != 1 || !strings.Contains(errOut, "sessions open from this address") {
		t.Errorf("third session = %q (exit %d), want a clear refusal", errOut, code)
	}
}

func TestNewConnectionRateLimit(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.ConnectionsPerMinute = 3 })
	for i := range 3 {
		c := dial(t, ts.addr, withKey(newKey(t)))
		if _, _, code := run(t, c, "help"); code != 0 {
			t.Fatalf("connection %d refused", i+1)
		}
		_ = c.Close()
	}
	c := dial(t, ts.addr, withKey(newKey(t)))
	_, errOut, code := run(t, c, "help")
	if code != 1 || !strings.Contains(errOut, "Too many new connections") {
		t.Errorf("fourth connection = %q (exit %d), want a clear refusal", errOut, code)
	}
}

func TestIdleCountsInputNotOutput(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.IdleTimeout = 300 * time.Millisecond })
	ts.app.tick = 20 * time.Millisecond // the model repaints all the time
	c := dial(t, ts.addr, withKey(newKey(t)))
	sess, out, _ := ptySession(t, c, 80, 24)
	waitFor(t, "idle disconnect", func() bool { return contains(out.String(), "without input") })
	if err := sess.Wait(); err != nil {
		t.Errorf("idle session exit: %v, want status 0", err)
	}
}

func TestShutdownTellsPlayers(t *testing.T) {
	ts := startServer(t, nil)
	c := dial(t, ts.addr, withKey(newKey(t)))
	sess, out, _ := ptySession(t, c, 80, 24)
	waitFor(t, "first frame", func() bool { return contains(out.String(), "READY") })
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := ts.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	_ = sess.Wait()
	if !contains(out.String(), "server is restarting") {
		t.Errorf("player was not told about the restart: %q", tail(out.String()))
	}
	if _, err := dialErr(ts.addr, withKey(newKey(t))); err == nil {
		t.Error("server still accepts connections after shutdown")
	}
}

func TestPanicInAppIsContained(t *testing.T) {
	ts := startServer(t, func(c *Config) {
		c.App = func(Session) tea.Model { panic("boom") }
	})
	c := dial(t, ts.addr, withKey(newKey(t)))
	sess, out, _ := ptySession(t, c, 80, 24)
	err := sess.Wait()
	var exit *gossh.ExitError
	if !errors.As(err, &exit) || exit.ExitStatus() != 1 {
		t.Errorf("exit = %v, want status 1", err)
	}
	if !contains(out.String(), "Something went wrong") || contains(out.String(), "goroutine") {
		t.Errorf("panic output = %q", tail(out.String()))
	}
	// The server survives.
	c2 := dial(t, ts.addr, withKey(newKey(t)))
	if _, _, code := run(t, c2, "help"); code != 0 {
		t.Error("server broken after a panic")
	}
}

func tail(s string) string {
	if len(s) > 400 {
		return s[len(s)-400:]
	}
	return s
}

// syncBuffer is a log sink safe for concurrent writers.
type syncBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestLogsCarryNoRawClientText(t *testing.T) {
	logs := &syncBuffer{}
	ts := startServer(t, func(c *Config) { c.Logger = slog.New(slog.NewTextHandler(logs, nil)) })
	c := dial(t, ts.addr, withKey(newKey(t))) // the user name carries an escape sequence
	run(t, c, "help")
	run(t, c, "\x1b]0;pwned\x07evil")
	waitFor(t, "session logs", func() bool { return strings.Count(logs.String(), "session end") >= 2 })
	if strings.ContainsAny(logs.String(), "\x1b\x07") {
		t.Errorf("raw control characters reached the log:\n%q", logs.String())
	}
	if !strings.Contains(logs.String(), "player") {
		t.Errorf("the user name is not logged at all:\n%s", logs.String())
	}
}

func TestMaxSessionTimeEndsBusySessions(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxSessionTime = 300 * time.Millisecond })
	c := dial(t, ts.addr, withKey(newKey(t)))
	sess, out, in := ptySession(t, c, 80, 24)
	// Keep typing: input does not extend the maximum.
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				_, _ = in.Write([]byte("x"))
			}
		}
	}()
	waitFor(t, "the session limit", func() bool { return contains(out.String(), "maximum length") })
	close(stop)
	_ = sess.Wait()
}

func TestForwardingAndSubsystemsRefused(t *testing.T) {
	ts := startServer(t, nil)
	c := dial(t, ts.addr, withKey(newKey(t)))
	if conn, err := c.Dial("tcp", ts.addr); err == nil {
		_ = conn.Close()
		t.Error("port forwarding was allowed")
	}
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if err := sess.RequestSubsystem("sftp"); err == nil {
		t.Error("the sftp subsystem was allowed")
	}
}

// TestRequestsAfterTheShellAreAnswered: once the session runs, its
// channel's requests are answered by the channel handler alone (the
// default handler's loop has ended): a resize still reaches the program,
// clamped, and a second shell or exec, a pty, env and subsystems are
// refused, while the session carries on.
func TestRequestsAfterTheShellAreAnswered(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxWidth, c.MaxHeight = 200, 60 })
	c := dial(t, ts.addr, withKey(newKey(t)))
	sess, out, _ := ptySession(t, c, 80, 24)
	waitFor(t, "first frame", func() bool { return contains(out.String(), "READY 80x24") })

	refused := map[string][]byte{
		"shell":     nil,
		"exec":      gossh.Marshal(struct{ Command string }{"help"}),
		"pty-req":   gossh.Marshal(ptyRequest{Term: "xterm", Columns: 90, Rows: 30}),
		"env":       gossh.Marshal(envRequest{"LANG", "C"}),
		"subsystem": gossh.Marshal(struct{ Name string }{"sftp"}),
	}
	for kind, payload := range refused {
		ok, err := sess.SendRequest(kind, true, payload)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if ok {
			t.Errorf("a %s request was granted to a running session", kind)
		}
	}
	if err := sess.WindowChange(1000, 1000); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the clamped size", func() bool { return contains(out.String(), "READY 200x60") })
}
