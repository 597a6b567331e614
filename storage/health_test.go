package storage

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// healthEnv tells a re-executed test binary to act as the failing writer of
// TestWriteHealthFollowsFailingWrites.
const healthEnv = "CODEBREAKERS_STORAGE_HEALTH_DB"

// TestHelperWriteHealth is not a test on its own: it opens a database,
// then forbids itself to write any file (RLIMIT_FSIZE 0, which binds root
// too) so that every write fails as on a full disk, and prints what
// WriteHealth says before, during and after.
func TestHelperWriteHealth(t *testing.T) {
	path := os.Getenv(healthEnv)
	if path == "" {
		t.Skip("helper process for TestWriteHealthFollowsFailingWrites")
	}
	die := func(err error) {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(3)
	}
	report := func(when string, err error) {
		if err == nil {
			fmt.Printf("%s ok\n", when)
		} else {
			fmt.Printf("%s %s\n", when, strings.ReplaceAll(err.Error(), "\n", " "))
		}
	}
	db, err := Open(path, quietOptions())
	if err != nil {
		die(err)
	}
	if _, err := db.ClaimHandle("SHA256:ann", "Ann"); err != nil {
		die(err)
	}
	report("before", db.WriteHealth())

	signal.Ignore(syscall.SIGXFSZ) // get EFBIG from write(2) instead of dying
	var saved syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &saved); err != nil {
		die(err)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 0, Max: saved.Max}); err != nil {
		die(err)
	}
	for i := range 20 {
		_, err := db.ClaimHandle(fmt.Sprintf("SHA256:p%d", i), fmt.Sprintf("P%d", i))
		report("write", err)
	}
	report("failing", db.WriteHealth())
	report("still", db.WriteHealth()) // no probe yet: the same answer, no write

	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &saved); err != nil {
		die(err)
	}
	db.healthMu.Lock()
	db.probedAt = time.Time{} // the next call probes, without waiting for healthProbeEvery
	db.healthMu.Unlock()
	report("recovered", db.WriteHealth())
	if err := db.Close(); err != nil {
		die(err)
	}
}

// /healthz answered 200 while every write failed with "no space left".
func TestWriteHealthFollowsFailingWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "codebreakers.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriteHealth$", "-test.count=1")
	cmd.Env = append(os.Environ(), healthEnv+"="+path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, stderr.String())
	}
	got := map[string]string{}
	failedWrites := 0
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		when, what, _ := strings.Cut(sc.Text(), " ")
		if when == "write" && what != "ok" {
			failedWrites++
		}
		got[when] = what
	}
	if failedWrites == 0 {
		t.Fatalf("no write failed under RLIMIT_FSIZE 0:\n%s", out)
	}
	if got["before"] != "ok" {
		t.Errorf("healthy before: %q", got["before"])
	}
	for _, when := range []string{"failing", "still"} {
		if !strings.Contains(got[when], "writes to") || !strings.Contains(got[when], "file too large") {
			t.Errorf("%s: WriteHealth = %q; want the failing writes and their cause", when, got[when])
		}
	}
	if got["recovered"] != "ok" {
		t.Errorf("after writes work again: %q", got["recovered"])
	}
}
