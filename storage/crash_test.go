package storage

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
)

// crashDBEnv tells a re-executed test binary to act as the crash-test writer.
const crashDBEnv = "CODEBREAKERS_STORAGE_CRASH_DB"

const (
	crashTables      = 8  // games the writer plays at once
	crashMovesToWin  = 60 // moves after which the writer finishes a game and starts another
	crashRoundLimit  = 2 * time.Minute
	crashRounds      = 5
	crashAcksPerKill = 120
)

func crashAction(id string, index int) string { return fmt.Sprintf(`{"g":%q,"i":%d}`, id, index) }

// TestHelperWriter is not a test on its own: TestSIGKILLLosesNoAcknowledgedWrite
// runs the test binary again with crashDBEnv set, and this then appends
// moves forever, printing one line per acknowledged write:
//
//	ack ID INDEX   AppendMove(ID, INDEX) returned nil
//	fin ID MOVES   FinishGame(ID) with MOVES moves returned nil
func TestHelperWriter(t *testing.T) {
	path := os.Getenv(crashDBEnv)
	if path == "" {
		t.Skip("helper process for TestSIGKILLLosesNoAcknowledgedWrite")
	}
	db, err := Open(path, quietOptions())
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(2)
	}
	var outMu sync.Mutex
	say := func(format string, args ...any) {
		outMu.Lock()
		defer outMu.Unlock()
		fmt.Fprintf(os.Stdout, format+"\n", args...) // unbuffered: one write per line
	}
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(3)
	}

	live, err := db.LiveGames()
	if err != nil {
		fail(err)
	}
	var wg sync.WaitGroup
	for slot := range crashTables {
		var g LiveGame
		if slot < len(live) {
			g = live[slot] // carry on where the killed writer stopped
		}
		wg.Go(func() {
			for {
				if g.ID == "" {
					id, err := db.NewGameID()
					if err != nil {
						fail(err)
					}
					g = sampleLive(id)
					if err := db.StartGame(g); err != nil {
						fail(err)
					}
				}
				for i := len(g.Record.Moves); i < crashMovesToWin; i++ {
					m := engine.Move{Seat: engine.Seat(i % 3), Action: []byte(crashAction(g.ID, i))}
					if err := db.AppendMove(g.ID, i, m); err != nil {
						fail(err)
					}
					g.Record.Moves = append(g.Record.Moves, m)
					say("ack %s %d", g.ID, i)
				}
				fg := FinishedGame{LiveGame: g, Result: engine.Result{Winners: []engine.Seat{0}}, Finished: time.Now()}
				if err := db.FinishGame(fg); err != nil {
					fail(err)
				}
				say("fin %s %d", g.ID, len(g.Record.Moves))
				g = LiveGame{}
			}
		})
	}
	wg.Wait()
}

// crashAcks is what the killed writer acknowledged, all rounds together.
type crashAcks struct {
	moves    map[string]int // game id → highest acknowledged index + 1
	finished map[string]int // game id → moves at finish
}

// runCrashRound starts the writer, kills it with SIGKILL after killAfter
// acknowledgements and records every acknowledgement it printed.
func runCrashRound(t *testing.T, path string, killAfter int, acks *crashAcks) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashDBEnv+"="+path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.AfterFunc(crashRoundLimit, func() { _ = cmd.Process.Kill() })
	defer deadline.Stop()

	seen := 0
	killed := false
	sc := bufio.NewScanner(out)
	for sc.Scan() { // runs until the pipe closes, so lines written just before death count too
		fields := strings.Fields(sc.Text())
		if len(fields) != 3 || (fields[0] != "ack" && fields[0] != "fin") {
			continue
		}
		n, err := strconv.Atoi(fields[2])
		if err != nil {
			t.Fatalf("bad helper line %q", sc.Text())
		}
		switch fields[0] {
		case "ack":
			acks.moves[fields[1]] = max(acks.moves[fields[1]], n+1)
		case "fin":
			acks.finished[fields[1]] = n
		}
		if seen++; seen == killAfter && !killed {
			killed = true
			if err := cmd.Process.Kill(); err != nil { // SIGKILL on Unix
				t.Fatal(err)
			}
		}
	}
	err = cmd.Wait()
	if !killed {
		t.Fatalf("writer stopped after %d acknowledgements (want %d): %v\n%s", seen, killAfter, err, stderr.String())
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != -1 {
		t.Fatalf("writer did not die by signal: %v\n%s", err, stderr.String())
	}
}

func TestSIGKILLLosesNoAcknowledgedWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary several times")
	}
	path := filepath.Join(t.TempDir(), "data", "codebreakers.db")
	acks := &crashAcks{moves: map[string]int{}, finished: map[string]int{}}
	for round := range crashRounds {
		// Kill at a different point each round: after a different number
		// of acknowledgements, so inside different groups and phases.
		runCrashRound(t, path, crashAcksPerKill+round*45, acks)

		db, err := Open(path, quietOptions())
		if err != nil {
			t.Fatalf("round %d: reopen after SIGKILL: %v", round, err)
		}
		checkConsistent(t, db)
		live, err := db.LiveGames()
		if err != nil {
			t.Fatal(err)
		}
		stored := map[string][]engine.Move{}
		for _, g := range live {
			stored[g.ID] = g.Record.Moves
		}
		for id, want := range acks.finished {
			g, err := db.Game(id)
			if err != nil || len(g.Record.Moves) != want {
				t.Errorf("round %d: finished game %s: %d moves, %v; want %d", round, id, len(g.Record.Moves), err, want)
			}
			if _, ok := stored[id]; ok {
				t.Errorf("round %d: finished game %s is still live", round, id)
			}
		}
		for id, n := range acks.moves {
			moves, ok := stored[id]
			if !ok {
				g, err := db.Game(id)
				if err != nil {
					t.Errorf("round %d: game %s with %d acknowledged moves is gone: %v", round, id, n, err)
					continue
				}
				moves = g.Record.Moves
			}
			if len(moves) < n {
				t.Errorf("round %d: game %s has %d moves, %d were acknowledged", round, id, len(moves), n)
				continue
			}
			for i, m := range moves { // complete and in order, acknowledged or not
				if string(m.Action) != crashAction(id, i) {
					t.Errorf("round %d: game %s move %d = %s", round, id, i, m.Action)
					break
				}
			}
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if t.Failed() {
			return
		}
	}
	if len(acks.finished) == 0 {
		t.Error("no game finished during the crash rounds; the test exercised only appends")
	}
}
