package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/storage/postgres/pgtest"
)

// pg is one throwaway PostgreSQL server for this package's cluster tests;
// each test gets a database of its own on it.
var pg pgtest.Shared

func TestMain(m *testing.M) {
	code := m.Run()
	pg.Close()
	os.Exit(code)
}

// fingerprint is the account id of a key.
func fingerprint(s gossh.Signer) string { return gossh.FingerprintSHA256(s.PublicKey()) }

// TestTwoNodesShareAccountsAndRecords: two nodes on one PostgreSQL, each
// with its own data directory. A key registers on node A; its handle is
// taken on node B (in any letter case) and the key is known there; a game
// finished on A is in history, stats and replay on B; export from the
// shared database and import into a fresh one carry accounts and games.
func TestTwoNodesShareAccountsAndRecords(t *testing.T) {
	url := pg.Get(t).NewDatabase(t)
	inA, addrA := startInstance(t, dataDir(t), "--postgres", url)
	_, addrB := startInstance(t, dataDir(t), "--postgres", url)
	maraKey, otherKey := newKey(t), newKey(t)

	mara := openTerm(t, dial(t, addrA, withKey(maraKey)), "mara-on-A", termW, termH, "")
	register(mara, "mara")
	mara.waitFor("Create a table")

	other := openTerm(t, dial(t, addrB, withKey(otherKey)), "other-on-B", termW, termH, "")
	other.waitFor("Choose a handle")
	other.send("MARA", keyEnter)
	other.waitFor("That handle is taken")

	maraOnB := openTerm(t, dial(t, addrB, withKey(maraKey)), "mara-on-B", termW, termH, "")
	maraOnB.waitFor("Create a table", "mara")

	id := playBotGame(t, inA.hub, lobby.Identity{Account: fingerprint(maraKey), Handle: "mara"})
	c := dial(t, addrB, withKey(maraKey))
	out, _, status := execRun(t, c, "history")
	if status != 0 || !strings.Contains(out, id) {
		t.Fatalf("history on B (exit %d) lacks game %s finished on A:\n%s", status, id, out)
	}
	if out, _, status := execRun(t, c, "replay "+id); status != 0 || !strings.Contains(out, "Result:") {
		t.Fatalf("replay on B (exit %d):\n%s", status, out)
	}
	if out, _, _ := execRun(t, c, "stats"); !strings.Contains(out, "played 1") {
		t.Fatalf("stats on B:\n%s", out)
	}

	// Export from the shared database, import into another: the account
	// and the game arrive.
	export := filepath.Join(t.TempDir(), "cluster.jsonl")
	if _, stderr, err := runCmd(t, "export", "--postgres", url, "--out", export); err != nil {
		t.Fatalf("export --postgres: %v %s", err, stderr)
	}
	url2 := pg.Get(t).NewDatabase(t)
	stdout, stderr, err := runCmd(t, "import", "--postgres", url2, export)
	if err != nil || !strings.Contains(stdout, "imported 1 game, 1 account;") {
		t.Fatalf("import --postgres: %v %q %s", err, stdout, stderr)
	}
	_, addrC := startInstance(t, dataDir(t), "--postgres", url2)
	out, _, _ = execRun(t, dial(t, addrC, withKey(maraKey)), "history")
	if !strings.Contains(out, id) {
		t.Fatalf("history after import lacks game %s:\n%s", id, out)
	}
}

// TestPostgresUnreachableAtStart: a node whose --postgres does not answer
// refuses to start, saying which database and why.
func TestPostgresUnreachableAtStart(t *testing.T) {
	o, err := parseServe([]string{"--data-dir", dataDir(t), "--postgres",
		"postgres://nobody@127.0.0.1:1/none?connect_timeout=2"}, func(string) string { return "" }, nil)
	if err != nil {
		t.Fatal(err)
	}
	in, err := openInstance(o, testLogger())
	if err == nil {
		_ = in.close(0)
		t.Fatal("started without its database")
	}
	if !strings.Contains(err.Error(), "--postgres") || !strings.Contains(err.Error(), "unreachable") {
		t.Fatalf("error does not say what is wrong: %v", err)
	}
}
