package main

import (
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/internal/seen"
	"github.com/codebreakers/codebreakers/lobby/natsdir/natstest"
	"github.com/codebreakers/codebreakers/server"
)

// node is one node of a test cluster.
type node struct {
	name, dataDir, addr, link string
	in                        *instance
}

// testCluster is a PostgreSQL database, a NATS server and the settings
// every node of one test shares.
type testCluster struct {
	t     *testing.T
	pgURL string
	nats  *natstest.Server
	peers string // the peer-keys file
	nodes map[string]*node
}

// newTestCluster prepares a cluster of named nodes: their data
// directories with host keys made up front, so that every node's
// --peer-keys can list them all.
func newTestCluster(t *testing.T, names ...string) *testCluster {
	t.Helper()
	c := &testCluster{t: t, pgURL: pg.Get(t).NewDatabase(t), nats: natstest.Start(t), nodes: map[string]*node{}}
	var keys []byte
	for _, name := range names {
		n := &node{name: name, dataDir: shortDataDir(t)}
		signer, err := server.LoadOrCreateHostKey(filepath.Join(n.dataDir, "host_ed25519"))
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, gossh.MarshalAuthorizedKey(signer.PublicKey())...)
		c.nodes[name] = n
	}
	c.peers = filepath.Join(t.TempDir(), "peers")
	if err := os.WriteFile(c.peers, keys, 0o600); err != nil {
		t.Fatal(err)
	}
	return c
}

// start runs node name (again, after a stop) on its data directory.
func (c *testCluster) start(name string, flags ...string) *node {
	c.t.Helper()
	n := c.nodes[name]
	if n.link == "" {
		n.link = freeAddr(c.t)
	}
	ln, err := net.Listen("tcp", n.link)
	if err != nil {
		c.t.Fatal(err)
	}
	args := append([]string{"--postgres", c.pgURL, "--nats", c.nats.URL(), "--node-name", name,
		"--node-addr", n.link, "--peer-keys", c.peers, "--directory-ttl", "2s"}, flags...)
	n.in, n.addr = startInstance(c.t, n.dataDir, args...)
	go func() { _ = n.in.srv.ServeNodes(ln) }()
	return n
}

// TestTwoNodesOverSSH is the cluster's show: two nodes, one PostgreSQL, one
// NATS, all on loopback. A private table made on node A is joined by code
// from node B (the session is carried to A) and played to the end; the
// finished game is in history and replay on both nodes; and a second
// login on B takes over a seat held on A.
func TestTwoNodesOverSSH(t *testing.T) {
	c := newTestCluster(t, "a", "b")
	a, b := c.start("a"), c.start("b")
	maraKey, boKey := newKey(t), newKey(t)

	mara := openTerm(t, dial(t, a.addr, withKey(maraKey)), "mara@a", termW, termH, "")
	register(mara, "mara")
	code := createTable(mara)

	// bo is on B; the table is on A: `ssh B join CODE` carries bo there.
	bo := openTerm(t, dial(t, b.addr, withKey(boKey)), "bo@b", termW, termH, "join "+code)
	register(bo, "bo")
	bo.waitFor("waiting for players", "bo", "mara")
	bo.send("r")
	mara.waitUntil("bo ready", func(s string) bool { return regexp.MustCompile(`bo\s+(✓ )?ready`).MatchString(s) })
	mara.send("s")
	maraHand := seen.OwnHand(waitGame(mara))
	waitGame(bo)

	// mara signs in on B with the same key: her seat is on A, so B carries
	// the new session there and it takes the seat over.
	mara2 := openTerm(t, dial(t, b.addr, withKey(maraKey)), "mara@b", termW, termH, "")
	if got := seen.OwnHand(waitGame(mara2)); strings.Join(got, " ") != strings.Join(maraHand, " ") {
		t.Fatalf("mara's session on B shows hand %v, want her seat's %v", got, maraHand)
	}
	mara.waitFor("signed in elsewhere")

	newDriver(t, 2, mara2, bo).playToEnd()

	// The finished game is in both players' history on both nodes, and
	// replays on both.
	var id string
	for _, n := range []*node{a, b} {
		for _, k := range []gossh.Signer{maraKey, boKey} {
			out, _, status := execRun(t, dial(t, n.addr, withKey(k)), "history")
			m := regexp.MustCompile(`(?m)^([0-9A-Z]{5,14})\s+Break the Code`).FindStringSubmatch(out)
			if status != 0 || m == nil || !strings.Contains(out, "mara, bo, bot-") {
				t.Fatalf("history on %s (exit %d):\n%s", n.name, status, out)
			}
			if id == "" {
				id = m[1]
			} else if m[1] != id {
				t.Fatalf("history on %s shows game %s, want %s", n.name, m[1], id)
			}
		}
		out, _, status := execRun(t, dial(t, n.addr, withKey(boKey)), "replay "+id)
		if status != 0 || !strings.Contains(out, "Result:") {
			t.Fatalf("replay on %s (exit %d):\n%s", n.name, status, out)
		}
	}
	rp := openTerm(t, dial(t, b.addr, withKey(boKey)), "replay@b", termW, termH, "replay "+id)
	rp.waitFor("REPLAY")
}

// TestCrossNodeJoinWhileNATSIsDown: with the directory unreachable, play
// on a node goes on, and a code held by no local table says why it cannot
// be followed elsewhere.
func TestCrossNodeJoinWhileNATSIsDown(t *testing.T) {
	c := newTestCluster(t, "a")
	a := c.start("a")
	key := newKey(t)
	c.nats.Stop()
	tm := openTerm(t, dial(t, a.addr, withKey(key)), "kai@a", termW, termH, "join ZZZ-ZZZ")
	register(tm, "kai")
	tm.waitFor("cannot be asked right now")
	tm.send(keyEsc)
	code := createTable(tm)
	if code == "" {
		t.Fatal("no table made with NATS down")
	}
	_ = time.Second
}

// TestNATSUnreachableAtStart: a node whose NATS does not answer refuses to
// start, saying so.
func TestNATSUnreachableAtStart(t *testing.T) {
	c := newTestCluster(t, "a")
	c.nats.Stop()
	args := []string{"--data-dir", c.nodes["a"].dataDir, "--postgres", c.pgURL, "--nats", c.nats.URL(),
		"--node-name", "a", "--node-addr", "127.0.0.1:1", "--peer-keys", c.peers}
	o, err := parseServe(args, func(string) string { return "" }, nil)
	if err != nil {
		t.Fatal(err)
	}
	in, err := openInstance(o, testLogger())
	if err == nil {
		_ = in.close(time.Second)
		t.Fatal("started without NATS")
	}
	if !strings.Contains(err.Error(), "cannot reach NATS at "+c.nats.URL()) || !strings.Contains(err.Error(), "--nats") {
		t.Fatalf("error does not say what is wrong: %v", err)
	}
}

// freeAddr is a loopback address free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestDrainTurnsBalancersAway: `codebreakers drain` makes /healthz answer
// 503 and marks the node draining in the directory, while the players
// already on it play on.
func TestDrainTurnsBalancersAway(t *testing.T) {
	c := newTestCluster(t, "a", "b")
	a := c.start("a", "--metrics-addr", "127.0.0.1:0")
	b := c.start("b")
	key := newKey(t)
	mara := openTerm(t, dial(t, a.addr, withKey(key)), "mara@a", termW, termH, "")
	register(mara, "mara")
	createTable(mara)
	mara.send("s")
	waitGame(mara)
	health := "http://" + a.in.ops.metricsAddr + "/healthz"
	if code, _ := httpGet(t, health); code != 200 {
		t.Fatalf("/healthz before draining: %d", code)
	}
	out, stderr, err := runCmd(t, "drain", "--data-dir", a.dataDir)
	if err != nil || !strings.Contains(out, "draining") || !strings.Contains(out, "1 table ") {
		t.Fatalf("drain: %v %q %s", err, out, stderr)
	}
	if code, body := httpGet(t, health); code != 503 || !strings.Contains(body, "draining") {
		t.Fatalf("/healthz after drain: %d %q", code, body)
	}
	deadline := time.Now().Add(waitLimit)
	for {
		if _, draining, err := b.in.dir.Link("a"); err == nil && draining {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the directory never showed node a draining")
		}
		time.Sleep(50 * time.Millisecond)
	}
	newDriver(t, 100, mara).step() // the game on the draining node goes on
	if _, _, err := runCmd(t, "drain", "--data-dir", shortDataDir(t)); err == nil || !strings.Contains(err.Error(), "no server answers") {
		t.Fatalf("drain with no server: %v", err)
	}
}
