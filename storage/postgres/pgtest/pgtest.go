// Package pgtest starts a throwaway PostgreSQL server for tests: a cluster of
// its own in a temporary directory (initdb, then the postgres binary as a
// child process on a free loopback port), removed when the tests end. Run as
// root, the server runs as an unprivileged user (postgres, else nobody), as
// PostgreSQL refuses to run as root.
//
// Where no PostgreSQL binaries are installed the tests that need them skip,
// saying how to install them, except under CI (the CI variable set), where
// they fail: CI never skips the cluster tests (.ci/run installs PostgreSQL).
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// InstallHint says how to get the binaries.
const InstallHint = "PostgreSQL is not installed: `apt-get install postgresql` (Debian/Ubuntu) " +
	"puts initdb and postgres in /usr/lib/postgresql/*/bin"

// Binaries finds the directory holding initdb and postgres: the newest
// /usr/lib/postgresql/*/bin, else the directory of initdb on PATH.
func Binaries() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if isFile(filepath.Join(d, "initdb")) && isFile(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		d := filepath.Dir(p)
		if isFile(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	return "", errors.New(InstallHint)
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func isFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && !info.IsDir()
}

// Server is one running (or stopped) throwaway PostgreSQL server.
type Server struct {
	bin  string
	dir  string // the cluster's data directory
	root string // removed on Close
	port int
	cred *syscall.Credential // nil: run as ourselves

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
	dbs  int
}

// Start initialises a cluster in a new temporary directory and starts it.
// It skips t when PostgreSQL is missing (fails under CI) and stops and
// removes the cluster when t's tests end.
func Start(t testing.TB) *Server {
	t.Helper()
	s, err := New()
	if errors.Is(err, errMissing) {
		if os.Getenv("CI") != "" {
			t.Fatalf("cluster tests cannot be skipped in CI: %v", err)
		}
		t.Skip(err.Error())
	}
	if err != nil {
		t.Fatalf("start PostgreSQL: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

var errMissing = errors.New(InstallHint)

// New is Start without a test: the caller must Close the server.
func New() (*Server, error) {
	bin, err := Binaries()
	if err != nil {
		return nil, errMissing
	}
	root, err := os.MkdirTemp("", "codebreakers-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{bin: bin, root: root, dir: filepath.Join(root, "data")}
	if os.Geteuid() == 0 {
		if s.cred, err = unprivileged(); err != nil {
			_ = os.RemoveAll(root)
			return nil, err
		}
		if err := os.Chown(root, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
			_ = os.RemoveAll(root)
			return nil, fmt.Errorf("hand the cluster directory to uid %d: %w", s.cred.Uid, err)
		}
	}
	initdb := s.command("initdb", "-D", s.dir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")
	if out, err := initdb.CombinedOutput(); err != nil {
		_ = os.RemoveAll(root)
		return nil, fmt.Errorf("initdb: %w\n%s", err, out)
	}
	if s.port, err = freePort(); err != nil {
		_ = os.RemoveAll(root)
		return nil, err
	}
	if err := s.Resume(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// unprivileged is the user a root test runs PostgreSQL as.
func unprivileged() (*syscall.Credential, error) {
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if uid == 0 {
			continue
		}
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
	}
	return nil, errors.New("running as root and no unprivileged user (postgres or nobody) to run PostgreSQL as")
}

func (s *Server) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.root
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if s.cred != nil {
		cmd.SysProcAttr.Credential = s.cred
	}
	return cmd
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// Port is the loopback port the server listens on.
func (s *Server) Port() int { return s.port }

// URL is the address of database db on this server.
func (s *Server) URL(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.port, db)
}

// Resume starts the server (again, after Stop) and waits until it takes
// connections.
func (s *Server) Resume() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return nil
	}
	cmd := s.command("postgres", "-D", s.dir, "-p", strconv.Itoa(s.port), "-k", s.dir,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "full_page_writes=off",
		"-c", "max_connections=200", "-c", "shared_buffers=32MB")
	log, err := os.Create(filepath.Join(s.root, "postgres.log"))
	if err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		_ = log.Close()
		return fmt.Errorf("start postgres: %w", err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		_ = log.Close()
		close(done)
	}()
	s.cmd, s.done = cmd, done
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, s.URL("postgres"))
		cancel()
		if err == nil {
			_ = conn.Close(context.Background())
			return nil
		}
		select {
		case <-done:
			out, _ := os.ReadFile(filepath.Join(s.root, "postgres.log"))
			s.cmd = nil
			return fmt.Errorf("postgres exited while starting:\n%s", out)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres did not take connections within a minute: %w", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop shuts the server down (fast shutdown: open connections are cut) and
// waits for it to exit. Resume starts it again on the same port and data.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
	s.cmd = nil
}

// Close stops the server and removes its directory.
func (s *Server) Close() {
	s.Stop()
	_ = os.RemoveAll(s.root)
}

// NewDatabase creates an empty database and returns its URL; every test
// gets its own, so tests never see each other's rows.
func (s *Server) NewDatabase(t testing.TB) string {
	t.Helper()
	s.mu.Lock()
	s.dbs++
	name := fmt.Sprintf("test_%d", s.dbs)
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		t.Fatalf("connect to PostgreSQL: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	return s.URL(name)
}

// Shared is one server for all the tests of a test binary, started by the
// first test that asks for it. Declare one beside TestMain and Close it
// after m.Run.
type Shared struct {
	once sync.Once
	srv  *Server
	err  error
}

// Get returns the shared server, starting it on first use. It skips t when
// PostgreSQL is missing (fails under CI).
func (sh *Shared) Get(t testing.TB) *Server {
	t.Helper()
	sh.once.Do(func() { sh.srv, sh.err = New() })
	if errors.Is(sh.err, errMissing) {
		if os.Getenv("CI") != "" {
			t.Fatalf("cluster tests cannot be skipped in CI: %v", sh.err)
		}
		t.Skip(sh.err.Error())
	}
	if sh.err != nil {
		t.Fatalf("start PostgreSQL: %v", sh.err)
	}
	return sh.srv
}

// Close stops and removes the shared server, if one was started.
func (sh *Shared) Close() {
	if sh.srv != nil {
		sh.srv.Close()
	}
}

// ReadOnlySwitch returns a switch that makes the database at url refuse
// writes in every session that starts from then on (on), or take them
// again (off): how the tests make "the shared database stopped taking
// writes" happen. It keeps an admin session of its own (whose setting does
// not change, so it can turn writes back on), closed when the test ends;
// after each change it calls reset, which should reset the caller's pools
// so their new sessions take the change.
func ReadOnlySwitch(t testing.TB, url string, reset func()) func(on bool) {
	t.Helper()
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect to switch the database read-only: %v", err)
	}
	t.Cleanup(func() { _ = admin.Close(ctx) })
	return func(on bool) {
		t.Helper()
		q := `DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET default_transaction_read_only = on', current_database()); END $$`
		if !on {
			q = `DO $$ BEGIN EXECUTE format('ALTER DATABASE %I RESET default_transaction_read_only', current_database()); END $$`
		}
		if _, err := admin.Exec(ctx, q); err != nil {
			t.Fatalf("set the database read-only %v: %v", on, err)
		}
		reset()
	}
}
