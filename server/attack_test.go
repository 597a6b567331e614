package server

import (
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// ended reports whether a session's context has ended.
func ended(s Session) bool {
	select {
	case <-s.Context.Done():
		return true
	default:
		return false
	}
}

// The attack: close a session's channel but keep the connection, as OpenSSH
// connection sharing (ControlMaster) does when one client is killed. The
// session must end with its channel, and give its place back only then.
func TestClosedChannelEndsItsSessionUnderALiveConnection(t *testing.T) {
	ts := startServer(t, nil)
	c := dial(t, ts.addr, withKey(newKey(t)))
	var chans []*gossh.Session
	var sessions []Session
	for range 3 {
		sess, out, _ := ptySession(t, c, 80, 24)
		waitFor(t, "the screen", func() bool { return contains(out.String(), "READY") })
		chans = append(chans, sess)
		sessions = append(sessions, nextSession(t, ts.app))
	}
	if _, err := c.NewSession(); err == nil {
		t.Fatal("a 4th session opened at once on one connection")
	}

	if err := chans[1].Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the closed channel's session to end", func() bool { return ended(sessions[1]) })
	if ended(sessions[0]) || ended(sessions[2]) {
		t.Fatal("closing one channel ended the other sessions of the connection")
	}
	waitFor(t, "its place to be given back", func() bool { return ts.Sessions() == 2 })

	// The place is free again: one more at once, but not two.
	sess, out, _ := ptySession(t, c, 80, 24)
	waitFor(t, "the new screen", func() bool { return contains(out.String(), "READY") })
	nextSession(t, ts.app)
	if extra, err := c.NewSession(); err == nil {
		_ = extra.Close()
		t.Fatal("more sessions than the cap ran at once on one connection")
	}
	if n := ts.Sessions(); n != 3 {
		t.Errorf("%d sessions running, want 3", n)
	}
	_ = sess.Close()
}

// The attack: one connection running thousands of sessions one after
// another (each `replay ID` without a terminal) in a few seconds.
func TestSessionsPerConnectionPerMinuteAreCapped(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.SessionsPerConnPerMinute = 5 })
	c := dial(t, ts.addr, asGuest())
	for i := range 5 {
		if _, _, code := run(t, c, "help"); code != 0 {
			t.Fatalf("command %d: exit %d", i+1, code)
		}
	}
	sess, err := c.NewSession()
	if err == nil {
		_ = sess.Close()
		t.Fatal("a 6th session in a minute opened on one connection")
	}
	if !strings.Contains(err.Error(), "sessions a minute") {
		t.Errorf("refusal %q does not say why", err)
	}
	// Another connection is not held up.
	other := dial(t, ts.addr, asGuest())
	if _, _, code := run(t, other, "help"); code != 0 {
		t.Errorf("another connection: exit %d", code)
	}
}

// The attack: exec commands spread over connections from one address.
func TestCommandsAreMeteredPerAddress(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.ExecPerMinute = 5 })
	a, b := dial(t, ts.addr, asGuest()), dial(t, ts.addr, withKey(newKey(t)))
	for i, c := range []*gossh.Client{a, a, a, b, b} {
		if _, _, code := run(t, c, "help"); code != 0 {
			t.Fatalf("command %d: exit %d", i+1, code)
		}
	}
	_, stderr, code := run(t, dial(t, ts.addr, asGuest()), "help")
	if code == 0 || !strings.Contains(stderr, "Too many commands") {
		t.Fatalf("6th command in a minute from one address: exit %d, %q", code, stderr)
	}
	// The arcade itself is not a command.
	_, out, _ := ptySession(t, a, 80, 24)
	waitFor(t, "the arcade", func() bool { return contains(out.String(), "READY") })
}

// The attack: an exec request of 250 KB, which the SSH library's splitting
// takes seconds of CPU to cut into words.
func TestOverlongCommandIsRefusedBeforeItIsSplit(t *testing.T) {
	ts := startServer(t, nil)
	c := dial(t, ts.addr, asGuest())
	long := "replay " + strings.Repeat(`"a" `, 250_000/4)
	_, stderr, code := run(t, c, long)
	if code == 0 || !strings.Contains(stderr, "too long") {
		t.Fatalf("250 KB command: exit %d, %q", code, tail(stderr))
	}
	if _, _, code := run(t, c, "help"); code != 0 {
		t.Errorf("a normal command after it: exit %d", code)
	}
}

// dialFrom connects through a PROXY-protocol listener claiming to come from
// src, an IPv6 address.
func dialFrom(t *testing.T, addr, src string, auth ...gossh.AuthMethod) (*gossh.Client, error) {
	t.Helper()
	raw, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(raw, "PROXY TCP6 "+src+" 2001:db8:ffff::1 40000 2222\r\n"); err != nil {
		t.Fatal(err)
	}
	conn, chans, reqs, err := gossh.NewClientConn(raw, addr, &gossh.ClientConfig{
		User: "player", Auth: auth, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: waitLimit,
	})
	if err != nil {
		_ = raw.Close()
		return nil, err
	}
	c := gossh.NewClient(conn, chans, reqs)
	t.Cleanup(func() { _ = c.Close() })
	return c, nil
}

// startProxied runs a server behind a PROXY-protocol listener that trusts
// loopback, so a test can claim any client address.
func startProxied(t *testing.T, edit func(*Config)) (*Server, string) {
	t.Helper()
	app := newTestApp()
	cfg := Config{HostKeyPath: filepath.Join(t.TempDir(), "host_ed25519"), Logger: testLogger(), App: app.build}
	if edit != nil {
		edit(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := ProxyListener(raw, []string{"127.0.0.1"}, waitLimit)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = srv.Serve(ln); close(done) }()
	t.Cleanup(func() { _ = srv.Close(); <-done })
	return srv, raw.Addr().String()
}

// openShells opens a PTY session from each address and reports how many
// ran and the refusals of the others.
func openShells(t *testing.T, addr string, srcs []string) (ran int, refusals []string) {
	t.Helper()
	for _, src := range srcs {
		c, err := dialFrom(t, addr, src, asGuest())
		if err != nil {
			refusals = append(refusals, err.Error())
			continue
		}
		_, out, _ := ptySession(t, c, 80, 24)
		waitFor(t, "an answer", func() bool { return contains(out.String(), "READY") || contains(out.String(), "sessions open") })
		if contains(out.String(), "READY") {
			ran++
		} else {
			refusals = append(refusals, out.String())
		}
	}
	return ran, refusals
}

// The attack: 20 addresses from one IPv6 /64 (which one customer holds)
// opened 20 sessions against a per-address cap of 8.
func TestIPv6AddressesOfOneNetworkShareTheirLimits(t *testing.T) {
	var srcs []string
	for i := range 6 {
		srcs = append(srcs, fmt.Sprintf("2001:db8:1:2::%x", i+1))
	}
	t.Run("grouped by /64", func(t *testing.T) {
		_, addr := startProxied(t, func(c *Config) { c.MaxSessionsPerIP = 3 })
		ran, refusals := openShells(t, addr, srcs)
		if ran != 3 {
			t.Fatalf("%d sessions ran from one /64 against a cap of 3; refusals %q", ran, refusals)
		}
		if ran, _ := openShells(t, addr, []string{"2001:db8:1:3::1"}); ran != 1 {
			t.Error("the next /64 was refused too")
		}
	})
	t.Run("configurable", func(t *testing.T) {
		_, addr := startProxied(t, func(c *Config) { c.MaxSessionsPerIP = 3; c.IPv6Prefix = 128 })
		if ran, refusals := openShells(t, addr, srcs); ran != len(srcs) {
			t.Fatalf("with a /128 grouping, %d of %d addresses got a session: %q", ran, len(srcs), refusals)
		}
	})
	t.Run("IPv4 is one address", func(t *testing.T) {
		for _, tc := range []struct {
			addr   net.Addr
			prefix int
			want   string
		}{
			{&net.TCPAddr{IP: net.ParseIP("203.0.113.7"), Port: 1}, 64, "203.0.113.7"},
			{&net.TCPAddr{IP: net.ParseIP("::ffff:203.0.113.7"), Port: 1}, 64, "203.0.113.7"},
			{&net.TCPAddr{IP: net.ParseIP("2001:db8:1:2:3:4:5:6"), Port: 1}, 64, "2001:db8:1:2::/64"},
			{&net.TCPAddr{IP: net.ParseIP("2001:db8:1:2:3:4:5:6"), Port: 1}, 48, "2001:db8:1::/48"},
			{&net.TCPAddr{IP: net.ParseIP("2001:db8:1:2:3:4:5:6"), Port: 1}, 128, "2001:db8:1:2:3:4:5:6"},
		} {
			if got := limitGroup(tc.addr, tc.prefix); got != tc.want {
				t.Errorf("limitGroup(%s, %d) = %q, want %q", tc.addr, tc.prefix, got, tc.want)
			}
		}
	})
}

// Guests on one connection (sessions one after another or at once) are
// distinct people to the lobby but share its connection and address.
func TestGuestsOnOneConnectionHaveUniqueHandlesAndShareTheirConnection(t *testing.T) {
	ts := startServer(t, nil)
	c := dial(t, ts.addr, asGuest())
	seen := map[string]bool{}
	var conn string
	for i := range 3 {
		_, out, _ := ptySession(t, c, 80, 24)
		waitFor(t, "the screen", func() bool { return contains(out.String(), "READY") })
		s := nextSession(t, ts.app)
		id := s.Identity
		if !strings.HasPrefix(id.Handle, "guest-") || seen[id.Handle] {
			t.Errorf("guest %d handle %q; handles so far %v", i+1, id.Handle, seen)
		}
		seen[id.Handle] = true
		if id.ConnID == "" || conn != "" && id.ConnID != conn || id.Addr != "127.0.0.1" {
			t.Errorf("guest %d: connection %q address %q, want the same connection as the others and 127.0.0.1", i+1, id.ConnID, id.Addr)
		}
		conn = id.ConnID
	}
	other := dial(t, ts.addr, asGuest())
	_, out, _ := ptySession(t, other, 80, 24)
	waitFor(t, "the screen", func() bool { return contains(out.String(), "READY") })
	if id := nextSession(t, ts.app).Identity; id.ConnID == conn {
		t.Errorf("two connections share the id %q", conn)
	}
}

func TestGuestHandlesStayUniqueWhenTheDrawCollides(t *testing.T) {
	g := newGuestNames()
	g.draw = func(n int) string { return strings.Repeat("a", n) } // the worst random source
	first, second, third := g.take(), g.take(), g.take()
	if first != "guest-aaa" || second != "guest-aaaa" || third != "guest-aaaaa" {
		t.Fatalf("handles %q %q %q, want each longer than the last rather than a repeat", first, second, third)
	}
	g.release(first)
	if again := g.take(); again != "guest-aaa" {
		t.Errorf("a released handle was not reused: %q", again)
	}
}

// The banner blamed a missing key when the key was there but not used.
func TestKeyboardInteractiveBannerSaysWhatHappenedToTheKey(t *testing.T) {
	ts := startServer(t, nil)
	banner := func(auth ...gossh.AuthMethod) string {
		var got string
		auth = append(auth, gossh.KeyboardInteractive(func(_, instruction string, _ []string, _ []bool) ([]string, error) {
			got = instruction
			return nil, nil
		}))
		c := dial(t, ts.addr, auth...)
		_ = c.Close()
		return got
	}
	if got := banner(); !strings.Contains(got, "No SSH key offered") {
		t.Errorf("without a key: %q", got)
	}
	got := banner(gossh.PublicKeys(offerOnlySigner{newKey(t).PublicKey()}))
	if strings.Contains(got, "No SSH key offered") || !strings.Contains(got, "offered but") {
		t.Errorf("with a key that could not sign: %q", got)
	}
}

// The attack: open session channels and never ask for a shell or a
// command, but send as much as their window lets through. Nothing reads a
// channel before it starts, so the server held 2 MiB per channel, 6 MiB
// per connection, for the connection's idle timeout (measured: 48 MiB for
// eight connections). A channel that has not started in time is closed
// and its place given back; one that starts in time is untouched.
func TestSessionChannelThatNeverStartsIsClosed(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.SessionStartTimeout = 200 * time.Millisecond })
	c := dial(t, ts.addr, withKey(newKey(t)))
	var stuffed []gossh.Channel
	for range 3 {
		ch, reqs, err := c.OpenChannel("session", nil)
		if err != nil {
			t.Fatal(err)
		}
		go gossh.DiscardRequests(reqs)
		if _, err := ch.Write(make([]byte, 64<<10)); err != nil {
			t.Fatal(err)
		}
		stuffed = append(stuffed, ch)
	}
	var closed atomic.Int32
	for _, ch := range stuffed {
		go func() {
			// Read returns io.EOF once the server closes the channel.
			_, _ = io.Copy(io.Discard, ch)
			closed.Add(1)
		}()
	}
	waitFor(t, "the channels that never started to be closed", func() bool { return closed.Load() == 3 })
	// Their places are free again: a session starts and runs its command.
	if out, _, code := run(t, c, "help"); code != 0 || !strings.Contains(out, "Codebreakers") {
		t.Fatalf("a command after the closed channels: exit %d, %q", code, out)
	}
}
