package storage

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Environment variables of TestReadOnlyDataDir.
const (
	// readOnlyChildEnv tells a re-executed test binary, running as an
	// unprivileged user, which read-only directory to check.
	readOnlyChildEnv = "CODEBREAKERS_STORAGE_READONLY_DIR"
	// readOnlyUnavailableEnv, set to a reason, lets TestReadOnlyDataDir
	// skip on a machine that has no way to be refused a write (root that
	// cannot drop privileges). Without it the test fails there: it must
	// never skip quietly where CI runs.
	readOnlyUnavailableEnv = "CODEBREAKERS_NO_READONLY_TEST"
	// nobody is the user the root run drops to. Any unprivileged id
	// works; it needs no passwd entry.
	nobody = 65534
)

// TestReadOnlyDataDir checks that Open refuses, clearly and without
// creating anything, a data dir it may not write to, and a missing data
// dir under one. Directory permissions do not bind root, and CI runs as
// root, so as root the check runs in a copy of the test binary that has
// dropped to an unprivileged user.
func TestReadOnlyDataDir(t *testing.T) {
	if dir := os.Getenv(readOnlyChildEnv); dir != "" {
		checkReadOnlyOpen(t, dir)
		return
	}
	// A directory the unprivileged child can reach: t.TempDir's parents
	// are private to the user that made them.
	base, err := os.MkdirTemp("", "codebreakers-readonly-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	ro := filepath.Join(base, "ro")
	if err := os.Mkdir(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ro, 0o555); err != nil { // readable by all, writable by none
		t.Fatal(err)
	}

	if os.Geteuid() != 0 {
		checkReadOnlyOpen(t, ro)
		return
	}
	// /proc/self/exe reaches the binary even where its directory is
	// closed to the unprivileged user.
	cmd := exec.Command("/proc/self/exe", "-test.run=^TestReadOnlyDataDir$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), readOnlyChildEnv+"="+ro)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	if err != nil && errors.As(err, new(*exec.ExitError)) {
		t.Fatalf("the check as uid %d failed: %v\n%s", nobody, err, out)
	}
	if err != nil || !strings.Contains(string(out), "--- PASS: TestReadOnlyDataDir") {
		unavailable(t, "cannot run the check as uid %d: %v\n%s", nobody, err, out)
	}
	t.Logf("as uid %d:\n%s", nobody, out)
}

// checkReadOnlyOpen opens a database in dir, which this process may read
// but not write, and in a missing directory under it.
func checkReadOnlyOpen(t *testing.T, dir string) {
	if _, err := os.ReadDir(dir); err != nil {
		unavailable(t, "uid %d cannot read %s, so a refusal would prove nothing: %v", os.Geteuid(), dir, err)
	}
	if f, err := os.Create(filepath.Join(dir, "probe")); err == nil {
		f.Close()
		unavailable(t, "uid %d may write into %s despite its mode 0555", os.Geteuid(), dir)
	}
	for _, path := range []string{
		filepath.Join(dir, "codebreakers.db"),
		filepath.Join(dir, "data", "codebreakers.db"),
	} {
		db, err := Open(path, quietOptions())
		if err == nil {
			db.Close()
			t.Errorf("Open(%s) as uid %d succeeded in a read-only dir", path, os.Geteuid())
			continue
		}
		if !errors.Is(err, os.ErrPermission) || !strings.Contains(err.Error(), "permission denied") || !strings.Contains(err.Error(), dir) {
			t.Errorf("Open(%s) as uid %d: %v; want a permission error naming the place", path, os.Geteuid(), err)
		} else {
			t.Logf("uid %d refused: %v", os.Geteuid(), err)
		}
	}
	if left, err := os.ReadDir(dir); err != nil || len(left) != 0 {
		t.Errorf("Open left %d entries in the read-only dir (%v)", len(left), err)
	}
}

// unavailable fails the test: this machine cannot make a write fail. Only
// readOnlyUnavailableEnv, saying why, turns that into a skip.
func unavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	if why := os.Getenv(readOnlyUnavailableEnv); why != "" {
		t.Skipf("%s=%q; "+format, append([]any{readOnlyUnavailableEnv, why}, args...)...)
	}
	t.Fatalf("set %s=<reason> if this machine cannot refuse a write; "+format, append([]any{readOnlyUnavailableEnv}, args...)...)
}
