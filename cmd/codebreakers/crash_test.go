package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/internal/seen"
)

// buildBinary compiles the server once for this test.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "codebreakers")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// process is a server binary running on a data directory.
type process struct {
	cmd  *exec.Cmd
	addr string
	logs chan string
}

var listeningRe = regexp.MustCompile(`msg=listening addr=(\S+)`)

// startProcess runs the binary and waits until it listens. Extra flags
// are added to the test defaults.
func startProcess(t *testing.T, bin, dir string, extra ...string) *process {
	t.Helper()
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--data-dir", dir, "--bot-delay", "-1ms", "--grace", "1m"}, extra...)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "CODEBREAKERS_LOG_LEVEL=info")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start server: %v", err)
	}
	p := &process{cmd: cmd, logs: make(chan string, 1024)}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			if m := listeningRe.FindStringSubmatch(line); m != nil {
				addr <- m[1]
			}
			select {
			case p.logs <- line:
			default:
			}
		}
	}()
	select {
	case p.addr = <-addr:
	case <-time.After(waitLimit):
		t.Fatal("server did not start listening")
	}
	return p
}

// TestCrashMidGameResumesFromLastShownMove kills the server with SIGKILL in
// the middle of a game, starts it again on the same data directory, and
// checks that the players come back to the very position they last saw,
// then finish the game.
func TestCrashMidGameResumesFromLastShownMove(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	dir := dataDir(t)
	annKey, bobKey := newKey(t), newKey(t)

	first := startProcess(t, bin, dir)

	// A second server on the same data directory refuses to start, clearly.
	out, err := exec.Command(bin, "--addr", "127.0.0.1:0", "--data-dir", dir).CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(string(out), "in use by another process") {
		t.Fatalf("second server on the same data: err %v, output:\n%s", err, out)
	}

	ann := openTerm(t, dial(t, first.addr, withKey(annKey)), "ann", termW, termH, "")
	register(ann, "ann")
	code := createTable(ann)
	bob := openTerm(t, dial(t, first.addr, withKey(bobKey)), "bob", termW, termH, "join "+code)
	register(bob, "bob")
	bob.waitFor("waiting for players")
	bob.send("r")
	ann.waitUntil("bob ready", func(s string) bool { return regexp.MustCompile(`bob\s+(✓ )?ready`).MatchString(s) })
	ann.send("s")
	waitGame(ann)

	// A few turns each, so the log holds questions and bot moves.
	d := newDriver(t, 100, ann, bob)
	for range 3 {
		if !d.step() {
			t.Fatal("the game ended before the crash")
		}
	}
	// Crash at a moment when a human is to move: the position is then stable.
	actor := d.waitTurn()
	if actor == nil {
		t.Fatal("the game ended before the crash")
	}
	shown := actor.screen()
	shownTitle := seen.Title(shown)
	shownHand := seen.OwnHand(shown)
	lastAsk := lastAsked(shown)
	if lastAsk == "" {
		t.Fatalf("no question in the log before the crash:\n%s", shown)
	}
	t.Logf("before the crash: %q, last question %q", shownTitle, lastAsk)
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.cmd.Wait()

	second := startProcess(t, bin, dir)
	var again *term
	var otherKey = bobKey
	if actor == bob {
		otherKey = annKey
	}
	actorKey := annKey
	if actor == bob {
		actorKey = bobKey
	}
	again = openTerm(t, dial(t, second.addr, withKey(actorKey)), actor.name+"-again", termW, termH, "")
	s := again.waitUntil("the same position as before the crash", func(s string) bool {
		now, _ := seen.Turn(s)
		then, _ := seen.Turn(shownTitle)
		return now == then && strings.Contains(seen.Title(s), "your turn")
	})
	if got := seen.OwnHand(s); strings.Join(got, " ") != strings.Join(shownHand, " ") {
		t.Errorf("hand after restart = %v, want %v", got, shownHand)
	}
	if !strings.Contains(flatten(s), lastAsk) {
		t.Errorf("the last question shown before the crash (%q) is missing after it:\n%s", lastAsk, s)
	}

	// Both players carry on to the end.
	other := openTerm(t, dial(t, second.addr, withKey(otherKey)), "other-again", termW, termH, "")
	other.waitFor(code)
	newDriver(t, 1, again, other).playToEnd()

	// SIGTERM is a gentle stop: players are told, the process exits 0.
	if err := second.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	again.waitFor("server is restarting")
	if err := second.cmd.Wait(); err != nil {
		t.Errorf("exit after SIGTERM: %v, want status 0", err)
	}
}

// lastAsked is the last "X asked: question" line of the log, unwrapped.
func lastAsked(screen string) string {
	m := regexp.MustCompile(`(\S+ asked: [^→]+)→`).FindAllStringSubmatch(flatten(screen), -1)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(m[len(m)-1][1])
}

// flatten joins the log column's wrapped lines so sentences can be found
// whole: runs of spaces and newlines become one space.
func flatten(screen string) string {
	return strings.Join(strings.Fields(screen), " ")
}
