package main

import (
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/internal/seen"
	"github.com/codebreakers/codebreakers/storage/postgres/pgtest"
)

// startNodeProcess runs node name of c as a separate process (so that it
// can be killed), on its data directory and node link.
func (c *testCluster) startNodeProcess(bin, name string) *process {
	c.t.Helper()
	n := c.nodes[name]
	if n.link == "" {
		n.link = freeAddr(c.t)
	}
	p := startProcess(c.t, bin, n.dataDir, "--postgres", c.pgURL, "--nats", c.nats.URL(), "--node-name", name,
		"--node-addr", n.link, "--peer-keys", c.peers, "--directory-ttl", "2s")
	n.addr = p.addr
	return p
}

// TestKilledNodeLeavesAndComesBack: node B is killed with SIGKILL in the
// middle of a game that a player on node A joined by code. B's table leaves
// the directory within the TTL, a game on A goes on untouched, the player
// carried to B is told the link is gone; when B restarts its game resumes
// from its log, and its players come back through either node.
func TestKilledNodeLeavesAndComesBack(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	c := newTestCluster(t, "a", "b")
	a := c.start("a")
	pb := c.startNodeProcess(bin, "b")
	b := c.nodes["b"]
	maraKey, boKey, kaiKey := newKey(t), newKey(t), newKey(t)

	// A game on A, mara against bots.
	mara := openTerm(t, dial(t, a.addr, withKey(maraKey)), "mara@a", termW, termH, "")
	register(mara, "mara")
	createTable(mara)
	mara.send("s")
	waitGame(mara)

	// A game on B: bo is there, kai joins from A by code.
	bo := openTerm(t, dial(t, b.addr, withKey(boKey)), "bo@b", termW, termH, "")
	register(bo, "bo")
	code := createTable(bo)
	kai := openTerm(t, dial(t, a.addr, withKey(kaiKey)), "kai@a", termW, termH, "join "+code)
	register(kai, "kai")
	kai.waitFor("waiting for players", "kai", "bo")
	kai.send("r")
	bo.waitUntil("kai ready", func(s string) bool { return regexp.MustCompile(`kai\s+(✓ )?ready`).MatchString(s) })
	bo.send("s")
	waitGame(bo)
	kaiHand := seen.OwnHand(waitGame(kai))
	d := newDriver(t, 100, bo, kai)
	d.step()
	d.waitTurn()
	canon := strings.ReplaceAll(code, "-", "")

	if err := pb.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = pb.cmd.Wait()
	killed := time.Now()
	kai.waitFor("connection to server b was lost")
	for {
		node, err := a.in.dir.Locate(canon)
		if err == nil && node == "" {
			break
		}
		if time.Since(killed) > waitLimit {
			t.Fatalf("B's table still in the directory %v after the kill", waitLimit)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("B's table left the directory %v after SIGKILL (TTL 2s)", time.Since(killed).Round(100*time.Millisecond))

	// mara's game on A goes on.
	newDriver(t, 100, mara).step()

	// B restarts: the game resumes from its log; bo comes back on B, kai
	// through A (his seat is on B: A carries him there).
	c.startNodeProcess(bin, "b")
	bo2 := openTerm(t, dial(t, b.addr, withKey(boKey)), "bo@b again", termW, termH, "")
	waitGame(bo2)
	var kai2 *term
	for attempt := 0; ; attempt++ { // until B has published the seats it resumed
		kai2 = openTerm(t, dial(t, a.addr, withKey(kaiKey)), "kai@a again", termW, termH, "")
		s := kai2.waitUntil("home or the game", func(s string) bool { return seen.HasTurn(s) || strings.Contains(s, "Play people") })
		if seen.HasTurn(s) {
			break
		}
		if attempt > 20 {
			t.Fatalf("kai's seat on B never came back through A:\n%s", s)
		}
		_ = kai2.sess.Close()
		time.Sleep(200 * time.Millisecond)
	}
	if got := seen.OwnHand(waitGame(kai2)); strings.Join(got, " ") != strings.Join(kaiHand, " ") {
		t.Fatalf("kai's resumed hand %v, want %v", got, kaiHand)
	}
	newDriver(t, 2, bo2, kai2).playToEnd()
}

// TestPostgresDownWhileAGameEnds: PostgreSQL stops for a few seconds while a
// game ends. The finish waits and retries, the players are told it is
// taking long, nothing is lost, and once the database is back the game is
// in history on both nodes.
func TestPostgresDownWhileAGameEnds(t *testing.T) {
	own := pgtest.Start(t)
	c := newTestCluster(t, "a", "b")
	c.pgURL = own.NewDatabase(t)
	a, b := c.start("a"), c.start("b")
	key := newKey(t)
	mara := openTerm(t, dial(t, a.addr, withKey(key)), "mara@a", termW, termH, "")
	register(mara, "mara")
	createTable(mara)
	mara.send("s")
	waitGame(mara)

	own.Stop()
	newDriver(t, 1, mara).playToEnd()
	mara.waitFor("records database is not answering")
	if err := own.Resume(); err != nil {
		t.Fatal(err)
	}
	mara.waitUntil("the result saved", func(s string) bool {
		return strings.Contains(seen.Title(s), "finished") && !strings.Contains(s, "records database")
	})
	for _, n := range []*node{a, b} {
		out, _, status := execRun(t, dial(t, n.addr, withKey(key)), "history")
		if status != 0 || !strings.Contains(out, "Break the Code") {
			t.Fatalf("history on %s after the outage (exit %d):\n%s", n.name, status, out)
		}
	}
}
