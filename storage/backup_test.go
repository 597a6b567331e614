package storage

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
)

// countingObserver records what the writer reports.
type countingObserver struct {
	mu      sync.Mutex
	commits int
	writes  int
	failed  int
}

func (o *countingObserver) Commit(writes int, _ time.Duration, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.commits++
	o.writes += writes
	if err != nil {
		o.failed++
	}
}

func TestBackupWhileOpenRestoresIntoFreshDB(t *testing.T) {
	db, _ := openTemp(t)
	g := sampleLive("ABCDE")
	g.Record.Moves = []engine.Move{move(0, `{"ask":1}`), move(1, `{"ask":2}`)}
	res := engine.Result{Winners: []engine.Seat{0}, Summary: "Ann broke the code."}
	if err := db.FinishGame(finish(g, res, time.Date(2026, 11, 25, 22, 0, 0, 0, time.UTC))); err != nil {
		t.Fatalf("FinishGame: %v", err)
	}
	live := sampleLive("FGHJK")
	if err := db.StartGame(live); err != nil {
		t.Fatalf("StartGame: %v", err)
	}
	if err := db.AppendMove("FGHJK", 0, move(2, `{"x":1}`)); err != nil {
		t.Fatalf("AppendMove: %v", err)
	}

	// The copy is taken while the DB stays open and keeps taking writes.
	var buf bytes.Buffer
	n, err := db.Backup(&buf)
	if err != nil {
		t.Fatalf("Backup: %v", err)
	}
	if n != int64(buf.Len()) || n == 0 {
		t.Fatalf("Backup reported %d bytes, wrote %d", n, buf.Len())
	}
	if err := db.AppendMove("FGHJK", 1, move(0, `{"after":"backup"}`)); err != nil {
		t.Fatalf("AppendMove after backup: %v", err)
	}

	restored := filepath.Join(t.TempDir(), "restored", "codebreakers.db")
	if err := os.MkdirAll(filepath.Dir(restored), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(restored, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	db2, err := Open(restored, quietOptions())
	if err != nil {
		t.Fatalf("open restored copy: %v", err)
	}
	defer db2.Close()
	checkConsistent(t, db2)

	got, err := db2.Game("ABCDE")
	if err != nil {
		t.Fatalf("restored Game: %v", err)
	}
	if !reflect.DeepEqual(got.Record.Moves, g.Record.Moves) || got.Result.Summary != res.Summary {
		t.Fatalf("restored game differs: %+v", got)
	}
	hist, err := db2.History("SHA256:ann", 0)
	if err != nil || len(hist) != 1 || hist[0].ID != "ABCDE" {
		t.Fatalf("restored history = %+v, %v", hist, err)
	}
	lives, err := db2.LiveGames()
	if err != nil || len(lives) != 1 {
		t.Fatalf("restored live games = %+v, %v", lives, err)
	}
	// The copy is the state when Backup began: the later move is not in it.
	if moves := lives[0].Record.Moves; len(moves) != 1 {
		t.Fatalf("restored live game has %d moves, want the 1 made before the backup", len(moves))
	}
}

func TestBackupFileRefusedWhileServerHoldsLock(t *testing.T) {
	db, path := openTemp(t)
	var buf bytes.Buffer
	_, err := BackupFile(path, &buf, 50*time.Millisecond)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("BackupFile on a held file: err = %v, want ErrLocked", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := BackupFile(path, &buf, time.Second); err != nil {
		t.Fatalf("BackupFile on a closed file: %v", err)
	}
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(copyPath, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	db2, err := Open(copyPath, quietOptions())
	if err != nil {
		t.Fatalf("open offline copy: %v", err)
	}
	_ = db2.Close()
}

func TestEachFinishedGamePagesThroughEverything(t *testing.T) {
	obs := &countingObserver{}
	opt := quietOptions()
	opt.Observer = obs
	db, err := Open(filepath.Join(t.TempDir(), "codebreakers.db"), opt)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	const games = exportPage + 7 // more than one page
	var wg sync.WaitGroup
	errs := make(chan error, games)
	for i := range games {
		wg.Go(func() {
			g := sampleLive(fmt.Sprintf("G%04d", i))
			g.Record.Moves = []engine.Move{move(0, fmt.Sprintf(`{"n":%d}`, i))}
			errs <- db.FinishGame(finish(g, engine.Result{Draw: true, Summary: "tie"}, time.Time{}))
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("FinishGame: %v", err)
		}
	}

	seen := map[string]bool{}
	var last string
	err = db.EachFinishedGame(func(g FinishedGame) error {
		if g.ID <= last {
			t.Errorf("game %s after %s: not in id order", g.ID, last)
		}
		last = g.ID
		if seen[g.ID] || len(g.Record.Moves) != 1 {
			t.Errorf("game %s: repeated or missing moves", g.ID)
		}
		seen[g.ID] = true
		return nil
	})
	if err != nil {
		t.Fatalf("EachFinishedGame: %v", err)
	}
	if len(seen) != games {
		t.Fatalf("walked %d games, want %d", len(seen), games)
	}

	stop := errors.New("stop")
	calls := 0
	err = db.EachFinishedGame(func(FinishedGame) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Fatalf("an error from fn should stop the walk: err=%v calls=%d", err, calls)
	}

	obs.mu.Lock()
	defer obs.mu.Unlock()
	if obs.writes < games || obs.commits == 0 || obs.failed != 0 {
		t.Fatalf("observer saw %d commits carrying %d writes (%d failed); want at least %d writes",
			obs.commits, obs.writes, obs.failed, games)
	}
}

func TestVerifyFileAndPing(t *testing.T) {
	db, _ := openTemp(t)
	if err := db.Ping(); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	if err := db.FinishGame(finish(sampleLive("ABCDE"), engine.Result{Draw: true}, time.Time{})); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := db.Backup(&buf); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	if err := os.WriteFile(good, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := VerifyFile(good); err != nil {
		t.Fatalf("VerifyFile on a good copy: %v", err)
	}
	for _, n := range []int{0, 100, 4096, 8192, buf.Len() / 2, buf.Len() - 1} {
		truncated := filepath.Join(dir, fmt.Sprintf("truncated-%d.db", n))
		if err := os.WriteFile(truncated, buf.Bytes()[:n], 0o600); err != nil {
			t.Fatal(err)
		}
		if err := VerifyFile(truncated); err == nil {
			t.Fatalf("VerifyFile accepted a copy cut to %d of %d bytes", n, buf.Len())
		}
	}
	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, bytes.Repeat([]byte("not a database "), 1000), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := VerifyFile(junk); err == nil {
		t.Fatal("VerifyFile accepted junk")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Ping(); !errors.Is(err, ErrClosed) {
		t.Fatalf("Ping after Close: %v, want ErrClosed", err)
	}
}
