package storage

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// fullDiskEnv tells a re-executed test binary to act as the full-disk writer.
const fullDiskEnv = "CODEBREAKERS_STORAGE_FULL_DB"

// fullDiskLimit is the file size the writer may not grow past (RLIMIT_FSIZE).
const fullDiskLimit = 512 << 10

// TestHelperFullDisk is not a test on its own: TestFullDiskFailsCleanly runs
// the test binary again with fullDiskEnv set. It caps its own file size
// with RLIMIT_FSIZE (which binds root too, unlike directory permissions),
// then appends until a write fails, printing "ack ID INDEX" per
// acknowledged move, then "err MESSAGE" for the first failure and
// "after ok" or "after MESSAGE" for a small write attempted after it.
func TestHelperFullDisk(t *testing.T) {
	path := os.Getenv(fullDiskEnv)
	if path == "" {
		t.Skip("helper process for TestFullDiskFailsCleanly")
	}
	die := func(err error) {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(3)
	}
	db, err := Open(path, quietOptions())
	if err != nil {
		die(err)
	}
	ids := make([]string, 4)
	for i := range ids {
		if ids[i], err = db.NewGameID(); err != nil {
			die(err)
		}
		if err := db.StartGame(sampleLive(ids[i])); err != nil {
			die(err)
		}
	}
	signal.Ignore(syscall.SIGXFSZ) // get EFBIG from write(2) instead of dying
	limit := &syscall.Rlimit{Cur: fullDiskLimit, Max: fullDiskLimit}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, limit); err != nil {
		die(err)
	}
	big := fmt.Sprintf(`{"pad":%q}`, strings.Repeat("x", 900)) // fill the file quickly
	for i := 0; ; i++ {
		id := ids[i%len(ids)]
		if err := db.AppendMove(id, i/len(ids), move(0, big)); err != nil {
			fmt.Printf("err %s\n", err)
			break
		}
		fmt.Printf("ack %s %d\n", id, i/len(ids))
	}
	// A small write may still fit in pages the file already has; either
	// way it must be all-or-nothing.
	if _, err := db.ClaimHandle("SHA256:late", "Late"); err != nil {
		fmt.Printf("after %s\n", err)
	} else {
		fmt.Println("after ok")
	}
	if err := db.Close(); err != nil {
		die(err)
	}
}

func TestFullDiskFailsCleanly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "codebreakers.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperFullDisk$", "-test.count=1")
	cmd.Env = append(os.Environ(), fullDiskEnv+"="+path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, stderr.String())
	}
	acked := map[string]int{}
	var firstErr, afterErr string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		kind, rest, _ := strings.Cut(sc.Text(), " ")
		switch kind {
		case "ack":
			f := strings.Fields(rest)
			n, _ := strconv.Atoi(f[1])
			acked[f[0]] = max(acked[f[0]], n+1)
		case "err":
			firstErr = rest
		case "after":
			afterErr = rest
		}
	}
	if len(acked) == 0 {
		t.Fatalf("no write succeeded before the limit:\n%s", out)
	}
	if !strings.Contains(firstErr, path) || !strings.Contains(firstErr, "file too large") {
		t.Errorf("first failure = %q; want it to name %s and the cause", firstErr, path)
	}
	t.Logf("first failure: %s; a small write after it: %s", firstErr, afterErr)

	// With room again, everything acknowledged is there, intact, and the
	// store takes writes.
	db, err := Open(path, quietOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	checkConsistent(t, db)
	live, err := db.LiveGames()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range live {
		if len(g.Record.Moves) != acked[g.ID] {
			t.Errorf("game %s: %d moves stored, %d acknowledged", g.ID, len(g.Record.Moves), acked[g.ID])
		}
		if err := db.AppendMove(g.ID, len(g.Record.Moves), engine.Move{Action: []byte(`{}`)}); err != nil {
			t.Errorf("append after recovery: %v", err)
		}
	}
	_, err = db.Account("SHA256:late")
	if afterErr == "ok" && err != nil {
		t.Errorf("acknowledged account lost: %v", err)
	}
	if afterErr != "ok" && err == nil {
		t.Errorf("refused account was stored anyway")
	}
	if len(live) != len(acked) {
		t.Errorf("%d live games, %d had moves acknowledged", len(live), len(acked))
	}
}
