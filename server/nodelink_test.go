package server

import (
	"net"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// nodeServer starts a server with a node link that trusts peer.
func nodeServer(t *testing.T, peers ...gossh.PublicKey) (*testServer, string) {
	t.Helper()
	ts := startServer(t, func(c *Config) { c.Cluster = &ClusterConfig{Node: "b", Peers: peers} })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = ts.ServeNodes(ln) }()
	return ts, ln.Addr().String()
}

// dialNode opens a node link as the holder of key, accepting any host key.
func dialNode(addr string, key gossh.Signer) (*gossh.Client, error) {
	return gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "a", Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: waitLimit})
}

// assertedShell opens a PTY shell on a node link asserting env.
func assertedShell(t *testing.T, c *gossh.Client, env map[string]string) (*gossh.Session, *screen) {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sess.Close() })
	for k, v := range env {
		if err := sess.Setenv(k, v); err != nil {
			t.Fatal(err)
		}
	}
	out := &screen{}
	sess.Stdout, sess.Stderr = out, out
	if err := sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	return sess, out
}

// TestNodeLinkRunsTheAssertedPlayer: a known node's session runs as the
// player it asserts (their account and address), and many such sessions
// share one connection.
func TestNodeLinkRunsTheAssertedPlayer(t *testing.T) {
	nodeKey := newKey(t)
	ts, link := nodeServer(t, nodeKey.PublicKey())
	c, err := dialNode(link, nodeKey)
	if err != nil {
		t.Fatalf("a known node cannot connect: %v", err)
	}
	defer c.Close()
	for i := range 6 { // more than the per-connection cap of players
		acct := "SHA256:player" + string(rune('a'+i))
		_, out := assertedShell(t, c, map[string]string{assertAccount: acct, assertGuest: "0", assertIP: "203.0.113.7", assertConn: "c1"})
		s := nextSession(t, ts.app)
		if s.Identity.Account != acct || s.Identity.Addr != "203.0.113.7" || s.Identity.Guest {
			t.Fatalf("session %d runs as %+v, want %s from 203.0.113.7", i, s.Identity, acct)
		}
		waitFor(t, "the asserted player's screen", func() bool { return contains(out.String(), "READY 80x24 "+acct) })
	}
}

// TestNodeLinkRefusesStrangers: a key that is not a known node's cannot
// open the node link, not even a player's key.
func TestNodeLinkRefusesStrangers(t *testing.T) {
	_, link := nodeServer(t, newKey(t).PublicKey())
	if c, err := dialNode(link, newKey(t)); err == nil {
		c.Close()
		t.Fatal("an unknown key opened the node link")
	}
}

// TestNodeLinkRefusesBadAssertions: a known node asserting no player, or
// nonsense, gets no session.
func TestNodeLinkRefusesBadAssertions(t *testing.T) {
	nodeKey := newKey(t)
	ts, link := nodeServer(t, nodeKey.PublicKey())
	c, err := dialNode(link, nodeKey)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, env := range []map[string]string{
		{},
		{assertAccount: "mara", assertIP: "203.0.113.7"},
		{assertAccount: "SHA256:x", assertIP: "not an ip"},
		{assertAccount: "SHA256:x\x1b[2J", assertIP: "203.0.113.7"},
		{assertAccount: "SHA256:x", assertGuest: "1", assertIP: "203.0.113.7"},
	} {
		sess, out := assertedShell(t, c, env)
		done := make(chan error, 1)
		go func() { done <- sess.Wait() }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("assertion %q: session ended well", env)
			}
		case <-time.After(waitLimit):
			t.Fatalf("assertion %q: session not refused; screen %q", env, out.String())
		}
	}
	select {
	case s := <-ts.app.sessions:
		t.Fatalf("a bad assertion reached the app as %+v", s.Identity)
	default:
	}
}

// TestPublicPortIgnoresAssertions: on the players' port the asserting
// variables are just environment: identity comes from the key.
func TestPublicPortIgnoresAssertions(t *testing.T) {
	nodeKey := newKey(t)
	ts, _ := nodeServer(t, nodeKey.PublicKey())
	key := newKey(t)
	c := dial(t, ts.addr, withKey(key))
	_, out := assertedShell(t, c, map[string]string{assertAccount: "SHA256:somebody-else", assertIP: "203.0.113.7"})
	s := nextSession(t, ts.app)
	if want := gossh.FingerprintSHA256(key.PublicKey()); s.Identity.Account != want || strings.Contains(out.String(), "somebody-else") {
		t.Fatalf("public session runs as %q, want its own key %q", s.Identity.Account, want)
	}
}
