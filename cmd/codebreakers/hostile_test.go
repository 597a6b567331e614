package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	gossh "golang.org/x/crypto/ssh"
)

// rawLog keeps every byte a session received, to check what reached the
// wire besides what the virtual terminal made of it.
type rawLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (r *rawLog) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.Write(p)
}

func (r *rawLog) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.String()
}

// watchedTerm is a term whose raw output is logged and whose terminal
// reports title changes.
type watchedTerm struct {
	*term
	raw    *rawLog
	titles chan string
}

// openWatchedTerm is openTerm with a chosen TERM and environment, a raw log
// and a title watch. The client user name is set by dialing.
func openWatchedTerm(t testing.TB, c *gossh.Client, name, termType string, env map[string]string, cmd string) *watchedTerm {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatalf("%s: new session: %v", name, err)
	}
	for k, v := range env {
		_ = sess.Setenv(k, v) // the server may refuse some; that is fine
	}
	wt := &watchedTerm{
		term:   &term{t: t, name: name, sess: sess, emu: vt.NewEmulator(termW, termH), done: make(chan struct{})},
		raw:    &rawLog{},
		titles: make(chan string, 256),
	}
	wt.emu.SetCallbacks(vt.Callbacks{
		Title: func(s string) {
			select {
			case wt.titles <- s:
			default:
			}
		},
		IconName: func(s string) {
			select {
			case wt.titles <- "icon:" + s:
			default:
			}
		},
	})
	wt.start(termType, termW, termH, cmd, wt.raw)
	return wt
}

// dialAs is dial with a chosen user name.
func dialAs(t testing.TB, addr, user string, auth gossh.AuthMethod) *gossh.Client {
	t.Helper()
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User: user, Auth: []gossh.AuthMethod{auth}, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: waitLimit,
	})
	if err != nil {
		t.Fatalf("dial as %q: %v", user, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// escapeCorpus is what a hostile player pastes into chat. Each entry
// carries a marker (E01…) so its trace on a screen can be found.
var escapeCorpus = []string{
	"\x1b[2J\x1b[HE01 clear and home",
	"\x1b]52;c;UFdORUQ=\x07E02 clipboard write",
	"\x1b]0;pwned\x07E03 title by BEL",
	"\x1b]2;pwned\x1b\\E04 title by ST",
	"\u202eE05 bidi override\u202c\u2066isolate\u2069",
	"E06\u200b\u200c\u200d\u2060\ufeff zero width",
	"\u009b2JE07 raw C1 CSI",
	"\rE08 carriage\bback",
	"\x1b]8;;http://evil.example/\x07E09 link\x1b]8;;\x07",
	"\x1bP+q544e\x1b\\E10 device control",
	"E11 " + strings.Repeat("全", 300),
	"\x1b[6n\x1b[cE12 report requests",
	"\x1b[10;10H\x1b[1AE13 cursor moves\x1b7\x1b8",
	"\x1b[?1049lE14 leave alt screen\x1b[?25l",
}

// forbiddenOnWire are byte strings no payload may put on a victim's wire.
var forbiddenOnWire = []string{
	"]52;", "]0;pwned", "]2;pwned", "http://evil", "P+q544e", "UFdORUQ",
	"\u202e", "\u2066", "\u200b", "\u200d", "\u2060", "\ufeff", "\u009b",
}

func TestEscapeCorpusNeverReachesAScreen(t *testing.T) {
	_, addr := startInstance(t, dataDir(t))

	// The attacker's own connection is hostile too: user name, TERM and
	// environment carry escapes.
	evilName := "\x1b]0;pwned\x07\x1b[2Jmallory"
	ann := openWatchedTerm(t, dialAs(t, addr, evilName, withKey(newKey(t))), "ann", "xterm\x1b]0;pwned\x07",
		map[string]string{"LANG": "\x1b]52;c;UFdORUQ=\x07", "NO_COLOR": "\x1b[2J"}, "")
	register(ann.term, "ann")
	code := createTable(ann.term)

	bob := openWatchedTerm(t, dial(t, addr, withKey(newKey(t))), "bob", "xterm-256color", nil, "join "+code)
	register(bob.term, "bob")
	bob.waitFor("bob", "ann")

	for i, payload := range escapeCorpus {
		marker := fmt.Sprintf("E%02d", i+1)
		ann.send("c")
		ann.send("\x1b[200~" + payload + "\x1b[201~")
		ann.send(keyEnter)
		bob.waitFor(marker)
	}
	screen := bob.waitFor("E14")
	// Every marker sits on a chat line of ann's, in the frame, never where
	// a cursor move or a clear would have put it.
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, "E1") || strings.Contains(line, "E0") {
			if !strings.Contains(line, "ann") {
				t.Errorf("a payload escaped its chat line: %q", line)
			}
		}
	}
	if !strings.Contains(screen, code) {
		t.Errorf("the table frame is gone from bob's screen:\n%s", screen)
	}
	for _, w := range []*watchedTerm{ann, bob} {
		for _, title := range drain(w.titles) {
			if !strings.HasPrefix(title, "Codebreakers") {
				t.Errorf("%s: a payload set the terminal title to %q", w.name, title)
			}
		}
		raw := w.raw.String()
		for _, bad := range forbiddenOnWire {
			if strings.Contains(raw, bad) {
				t.Errorf("%s: %q reached the wire", w.name, bad)
			}
		}
		w.mu.Lock()
		pos := w.emu.CursorPosition()
		w.mu.Unlock()
		if pos.X < 0 || pos.X >= termW || pos.Y < 0 || pos.Y >= termH {
			t.Errorf("%s: cursor at %v, outside the %dx%d frame", w.name, pos, termW, termH)
		}
	}
	// An exec argument carrying escapes comes back clean.
	mal := openWatchedTerm(t, dial(t, addr, withKey(newKey(t))), "mal", "xterm", nil, "watch \x1b]0;pwned\x07\x1b[2JZZ")
	register(mal.term, "mal")
	mal.waitUntil("the code refused", func(s string) bool { return strings.Contains(strings.ToLower(s), "code") })
	for _, title := range drain(mal.titles) {
		if !strings.HasPrefix(title, "Codebreakers") {
			t.Errorf("an exec argument set the title to %q", title)
		}
	}
	for _, bad := range forbiddenOnWire {
		if strings.Contains(mal.raw.String(), bad) {
			t.Errorf("exec argument: %q reached the wire", bad)
		}
	}
}

// drain returns what is waiting in ch.
func drain(ch chan string) []string {
	var out []string
	for {
		select {
		case s := <-ch:
			out = append(out, s)
		default:
			return out
		}
	}
}

// blockedWriters counts server goroutines stuck writing to a socket whose
// peer stopped reading.
func blockedWriters() int {
	buf := make([]byte, 8<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "internal/poll.(*pollDesc).waitWrite") {
			n++
		}
	}
	return n
}

// stallingConn is a client connection that can stop reading for good, as a
// dead or malicious client does, while still writing.
type stallingConn struct {
	net.Conn
	stalled chan struct{}
	once    sync.Once
}

func (c *stallingConn) stall() { c.once.Do(func() { close(c.stalled) }) }

func (c *stallingConn) Read(p []byte) (int, error) {
	select {
	case <-c.stalled:
		select {} // never read again; the test's cleanup closes the socket
	default:
	}
	return c.Conn.Read(p)
}

// dialStalling connects with a tiny receive buffer, so a stall fills the
// pipe after a few frames.
func dialStalling(t *testing.T, addr string, key gossh.Signer) (*gossh.Client, *stallingConn) {
	t.Helper()
	d := net.Dialer{Timeout: waitLimit, Control: func(_, _ string, rc syscall.RawConn) error {
		return rc.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	raw, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	sc := &stallingConn{Conn: raw, stalled: make(chan struct{})}
	t.Cleanup(func() { _ = raw.Close() })
	conn, chans, reqs, err := gossh.NewClientConn(sc, addr, &gossh.ClientConfig{
		User: "staller", Auth: []gossh.AuthMethod{withKey(key)}, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: waitLimit,
	})
	if err != nil {
		t.Fatal(err)
	}
	return gossh.NewClient(conn, chans, reqs), sc
}

// smallBufListener gives every accepted connection a small send buffer, as
// a busy host's would be, so a client that stops reading blocks the
// server's writes to it after a few frames instead of a few megabytes.
type smallBufListener struct{ net.Listener }

func (l smallBufListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(4096)
	}
	return c, err //nolint:wrapcheck // the server compares listener errors
}

// startSmallBufInstance is startInstance behind a smallBufListener, with
// extra serve flags.
func startSmallBufInstance(t *testing.T, flags ...string) string {
	t.Helper()
	args := append([]string{"--data-dir", dataDir(t), "--bot-delay", "-1ms", "--grace", "30s"}, flags...)
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
	go func() { _ = in.srv.Serve(smallBufListener{ln}) }()
	t.Cleanup(func() {
		if err := in.close(10 * time.Second); err != nil {
			t.Logf("close: %v", err)
		}
	})
	return ln.Addr().String()
}

func TestClientThatStopsReadingDoesNotSlowItsTable(t *testing.T) {
	addr := startSmallBufInstance(t)
	ann := openTerm(t, dial(t, addr, withKey(newKey(t))), "ann", termW, termH, "")
	register(ann, "ann")
	code := createTable(ann)
	bob := openTerm(t, dial(t, addr, withKey(newKey(t))), "bob", termW, termH, "join "+code)
	register(bob, "bob")
	bob.waitFor("bob", "ann")
	bob.send("r")
	ann.waitUntil("bob ready", func(s string) bool { return regexp.MustCompile(`bob\s+(✓ )?ready`).MatchString(s) })

	// The staller watches the table, stops reading, and keeps asking for
	// redraws by resizing until the server's writes to it are stuck.
	client, conn := dialStalling(t, addr, newKey(t))
	staller := openTerm(t, client, "staller", termW, termH, "watch "+code)
	register(staller, "staller")
	staller.waitFor("You are watching")
	before := blockedWriters()
	conn.stall()
	deadline := time.Now().Add(waitLimit)
	for i := 0; blockedWriters() <= before; i++ {
		if time.Now().After(deadline) {
			t.Fatal("the server never got stuck writing to the stalled client")
		}
		_ = staller.sess.WindowChange(40+i%40, 120+i%100)
		time.Sleep(5 * time.Millisecond)
	}

	// Ann and Bob play the whole game while the staller's writes are stuck.
	ann.send("s")
	waitGame(ann)
	waitGame(bob)
	newDriver(t, 2, ann, bob).playToEnd()
	if blockedWriters() <= before {
		t.Log("the staller's writer came unstuck during the game")
	}
}

// TestClientThatStopsReadingIsDropped stalls a spectator until the
// server's write to it blocks, and checks that the server gives up on it
// after the stall timeout: the table sees the spectator leave and no write
// to it stays blocked. The blocked write is looked for only to report it:
// the server may give up within milliseconds (a queue past its bound drops
// the client at once), quicker than a look at every goroutine's stack, so
// the proof is the spectator gone and no writer left blocked.
func TestClientThatStopsReadingIsDropped(t *testing.T) {
	addr := startSmallBufInstance(t, "--stall-timeout", "300ms")
	ann := openTerm(t, dial(t, addr, withKey(newKey(t))), "ann", termW, termH, "")
	register(ann, "ann")
	code := createTable(ann)

	client, conn := dialStalling(t, addr, newKey(t))
	staller := openTerm(t, client, "staller", termW, termH, "watch "+code)
	register(staller, "staller")
	staller.waitFor("You are watching")
	ann.waitFor("1 watching")
	before := blockedWriters()
	conn.stall()
	deadline := time.Now().Add(waitLimit)
	stuck := false
	// Keep asking for redraws, which the server cannot send, until the
	// table no longer counts the staller.
	for i := 0; strings.Contains(ann.screen(), "watching"); i++ {
		if time.Now().After(deadline) {
			t.Fatalf("the stalled client was never dropped (a blocked write seen: %v, blocked writers %d, before %d); ann's screen:\n%s",
				stuck, blockedWriters(), before, ann.screen())
		}
		if blockedWriters() > before {
			stuck = true
		}
		_ = staller.sess.WindowChange(40+i%40, 120+i%100)
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("the staller was dropped (a blocked write seen: %v)", stuck)
	// Whatever write was blocked is freed, not kept forever.
	for blockedWriters() > before {
		if time.Now().After(deadline) {
			t.Fatalf("a write to the dropped client stays blocked (blocked writers %d, before %d)", blockedWriters(), before)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestDroppedConnectionGivesTheSeatBack cuts a seated player's TCP
// connection with no goodbye, as a closed laptop does, and checks that the
// table learns of it: the seat of a waiting table opens again.
func TestDroppedConnectionGivesTheSeatBack(t *testing.T) {
	_, addr := startInstance(t, dataDir(t))
	ann := openTerm(t, dial(t, addr, withKey(newKey(t))), "ann", termW, termH, "")
	register(ann, "ann")
	code := createTable(ann)
	bobClient := dial(t, addr, withKey(newKey(t)))
	bob := openTerm(t, bobClient, "bob", termW, termH, "join "+code)
	register(bob, "bob")
	bob.waitFor("bob", "ann")
	ann.waitUntil("bob seated", func(s string) bool { return regexp.MustCompile(`2\s+bob\s`).MatchString(s) })

	_ = bobClient.Close() // no exit, no leave: the connection is just gone
	ann.waitUntil("bob's seat open again", func(s string) bool {
		return regexp.MustCompile(`2\s+— open —`).MatchString(s)
	})
}

func TestPastedMegabyteDoesNotStallTheTable(t *testing.T) {
	_, addr := startInstance(t, dataDir(t))
	ann := openTerm(t, dial(t, addr, withKey(newKey(t))), "ann", termW, termH, "")
	register(ann, "ann")
	code := createTable(ann)
	bob := openTerm(t, dial(t, addr, withKey(newKey(t))), "bob", termW, termH, "join "+code)
	register(bob, "bob")
	bob.waitFor("bob", "ann")
	bob.send("r")
	ann.waitUntil("bob ready", func(s string) bool { return regexp.MustCompile(`bob\s+(✓ )?ready`).MatchString(s) })
	ann.send("s")
	waitGame(ann)
	waitGame(bob)

	// Bob pastes a megabyte of keys (bracketed and bare) mid-game.
	pasted := make(chan error, 1)
	go func() {
		chunk := strings.Repeat("z", 30_000)
		var err error
		for sent := 0; sent < 1<<20 && err == nil; sent += 2 * len(chunk) {
			_, err = io.WriteString(bob.in, "\x1b[200~"+chunk+"\x1b[201~")
			if err == nil {
				_, err = io.WriteString(bob.in, chunk)
			}
		}
		pasted <- err
	}()
	select {
	case err := <-pasted:
		if err != nil {
			t.Fatalf("paste: %v", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("the server stopped reading the paste")
	}
	// Bob's keys work again once his input budget refills: he opens the
	// chat (a probe that changes nothing), then closes it.
	deadline := time.Now().Add(waitLimit)
	for !strings.Contains(bob.screen(), "close chat") {
		if time.Now().After(deadline) {
			t.Fatalf("bob's keys never worked again; screen:\n%s", bob.screen())
		}
		bob.send("c")
		time.Sleep(300 * time.Millisecond)
	}
	bob.send(keyEsc)
	bob.waitUntil("chat closed", func(s string) bool { return !strings.Contains(s, "close chat") })
	// The game goes on to its end for both.
	newDriver(t, 2, ann, bob).playToEnd()
}

func TestBanFileRefusesKeysAndReloads(t *testing.T) {
	banned, troll := newKey(t), newKey(t)
	path := filepath.Join(t.TempDir(), "bans")
	list := gossh.FingerprintSHA256(banned.PublicKey()) + " # spam\nmute " + gossh.FingerprintSHA256(troll.PublicKey()) + "\n"
	if err := os.WriteFile(path, []byte(list), 0o600); err != nil {
		t.Fatal(err)
	}
	in, addr := startInstance(t, dataDir(t), "--ban-file", path)
	_, stderr, status := execRun(t, dial(t, addr, withKey(banned)), "help")
	if status == 0 || !strings.Contains(stderr, "banned") {
		t.Errorf("banned key: exit %d, stderr %q", status, stderr)
	}
	if _, _, status := execRun(t, dial(t, addr, withKey(troll)), "help"); status != 0 {
		t.Errorf("a muted key may still play (exit %d)", status)
	}
	if !in.bans.Muted(gossh.FingerprintSHA256(troll.PublicKey())) {
		t.Error("the mute line did not reach the lobby's check")
	}
	// The operator lifts the ban and sends SIGHUP (here: its handler).
	if err := os.WriteFile(path, []byte("# nobody\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	in.reloadBans()
	if _, _, status := execRun(t, dial(t, addr, withKey(banned)), "help"); status != 0 {
		t.Errorf("after the reload the key is still refused (exit %d)", status)
	}
	if _, err := parseServe([]string{"--ban-file", path}, func(string) string { return "" }, io.Discard); err != nil {
		t.Fatal(err)
	}
	o, _ := parseServe([]string{"--data-dir", dataDir(t), "--ban-file", filepath.Join(t.TempDir(), "missing")}, func(string) string { return "" }, io.Discard)
	if _, err := openInstance(o, testLogger()); err == nil || !strings.Contains(err.Error(), "ban list") {
		t.Errorf("a missing ban file: err = %v, want a clear refusal to start", err)
	}
}
