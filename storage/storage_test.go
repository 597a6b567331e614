package storage

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/codebreakers/codebreakers/engine"
)

func quietOptions() Options {
	return Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// openTemp opens a fresh DB in a temp dir and closes it when the test ends.
func openTemp(t testing.TB) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data", "codebreakers.db")
	db, err := Open(path, quietOptions())
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db, path
}

// checkConsistent runs bbolt's own consistency check over the whole file.
func checkConsistent(t testing.TB, db *DB) {
	t.Helper()
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var problems []string
		for err := range tx.Check() {
			problems = append(problems, err.Error())
		}
		if len(problems) > 0 {
			return errors.New(strings.Join(problems, "; "))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("consistency check: %v", err)
	}
}

func move(seat int, action string) engine.Move {
	return engine.Move{Seat: engine.Seat(seat), Action: json.RawMessage(action)}
}

func sampleLive(id string) LiveGame {
	return LiveGame{
		ID: id, Code: "KQ7M4X", Public: true,
		Seats: []SeatRecord{
			{AccountID: "SHA256:ann", Handle: "Ann"},
			{Handle: "Bot Bo", Bot: true, BotLevel: "hard"},
			{AccountID: "SHA256:kai", Handle: "Kai", Replaced: true},
		},
		Record: engine.Record{
			Game: "breakcode", Options: engine.Options{"rounds": "3"},
			Players: []engine.Player{{Name: "Ann"}, {Name: "Bot Bo", Bot: true}, {Name: "Kai"}},
			Seed:    1<<63 + 12345, // above 2^53: must survive JSON exactly
		},
		Started: time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC),
	}
}

func TestOpenCreatesPrivateDirAndSchema(t *testing.T) {
	db, path := openTemp(t)
	info, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o700 {
		t.Errorf("data dir mode = %o, want 700", perm)
	}
	err = db.bolt.View(func(tx *bolt.Tx) error {
		for _, name := range topBuckets() {
			if tx.Bucket([]byte(name)) == nil {
				t.Errorf("bucket %s missing", name)
			}
		}
		raw := tx.Bucket([]byte(bucketMeta)).Get([]byte(keySchema))
		if got := binary.BigEndian.Uint64(raw); got != schemaVersion {
			t.Errorf("schema = %d, want %d", got, schemaVersion)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestReopenKeepsData(t *testing.T) {
	db, path := openTemp(t)
	if _, err := db.ClaimHandle("SHA256:ann", "Ann"); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db2, err := Open(path, quietOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if a, err := db2.Account("SHA256:ann"); err != nil || a.Handle != "Ann" {
		t.Fatalf("after reopen: %+v, %v", a, err)
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	db, path := openTemp(t)
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketMeta)).Put([]byte(keySchema), binary.BigEndian.AppendUint64(nil, schemaVersion+1))
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = Open(path, quietOptions())
	if !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("Open newer schema: %v, want ErrSchemaTooNew", err)
	}
	if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "newer codebreakers") {
		t.Errorf("message should name the file and the fix: %v", err)
	}
}

func TestOpenMigratesOlderSchema(t *testing.T) {
	db, path := openTemp(t)
	db.Close()
	var calls []int
	plan := schemaPlan{version: schemaVersion + 2, migrate: func(tx *bolt.Tx, from int) error {
		calls = append(calls, from)
		return nil
	}}
	db2, err := open(path, quietOptions(), plan)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{schemaVersion, schemaVersion + 1}; !reflect.DeepEqual(calls, want) {
		t.Errorf("migrations ran from %v, want %v", calls, want)
	}
	db2.Close()

	// A failing migration leaves the file at its old version.
	plan = schemaPlan{version: schemaVersion + 5, migrate: func(*bolt.Tx, int) error { return errors.New("nope") }}
	if _, err := open(path, quietOptions(), plan); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("failing migration: %v", err)
	}
	db3, err := open(path, quietOptions(), schemaPlan{version: schemaVersion + 2, migrate: migrate})
	if err != nil {
		t.Fatalf("reopen at the migrated version: %v", err)
	}
	db3.Close()
}

func TestSecondOpenIsLocked(t *testing.T) {
	// bbolt takes flock on its own file descriptor; a second open() is a new
	// open file description, so even in one process the second Open waits
	// and must time out rather than hang.
	_, path := openTemp(t)
	opt := quietOptions()
	opt.Timeout = 50 * time.Millisecond
	db2, err := Open(path, opt)
	if err == nil {
		db2.Close()
		t.Fatal("second Open succeeded; want ErrLocked")
	}
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second Open: %v, want ErrLocked", err)
	}
	want := path + " is in use by another process; stop it or use --data-dir"
	if err.Error() != want {
		t.Errorf("message = %q, want %q", err.Error(), want)
	}
}

func TestOpenUnwritablePlaces(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plain-file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A data dir under a regular file can never be created, even by root.
	_, err := Open(filepath.Join(file, "data", "codebreakers.db"), quietOptions())
	if err == nil || !strings.Contains(err.Error(), "create data directory") {
		t.Fatalf("Open under a file: %v", err)
	}
	// A file that is not a database is refused without being changed.
	junk := filepath.Join(dir, "junk.db")
	content := []byte(strings.Repeat("not a database ", 1000))
	if err := os.WriteFile(junk, content, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(junk, quietOptions()); err == nil || !strings.Contains(err.Error(), junk) {
		t.Fatalf("Open junk: %v", err)
	}
	if got, _ := os.ReadFile(junk); string(got) != string(content) {
		t.Error("Open changed a file that is not a database")
	}
}

func finish(g LiveGame, res engine.Result, at time.Time) FinishedGame {
	return FinishedGame{LiveGame: g, Result: res, Finished: at}
}

func TestClosedDB(t *testing.T) {
	db, _ := openTemp(t)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := db.ClaimHandle("a", "b"); !errors.Is(err, ErrClosed) {
		t.Errorf("write after Close: %v", err)
	}
	if _, err := db.Account("a"); !errors.Is(err, ErrClosed) {
		t.Errorf("read after Close: %v", err)
	}
}

func TestNewerRecordRefused(t *testing.T) {
	db, _ := openTemp(t)
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketAccounts)).Put([]byte("future"), []byte(`{"v":99,"id":"future"}`))
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Account("future"); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("Account with a newer record: %v", err)
	}
	if _, err := db.ClaimHandle("future", "Fut"); err == nil {
		t.Error("ClaimHandle over a newer record must refuse rather than overwrite it")
	}
}

// TestAbandonKeepsLog: an abandoned game's header and moves are kept aside
// in the file for a post-mortem.
func TestAbandonKeepsLog(t *testing.T) {
	db, _ := openTemp(t)
	g := sampleLive("ABCDE")
	g.Record.Moves = []engine.Move{move(0, `{"ask":"sum"}`), move(1, `{"pass":true}`)}
	if err := db.StartGame(g); err != nil {
		t.Fatal(err)
	}
	if err := db.AbandonGame("ABCDE"); err != nil {
		t.Fatal(err)
	}
	var abandoned abandonedRecord
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return json.Unmarshal(tx.Bucket([]byte(bucketAbandoned)).Get([]byte("ABCDE")), &abandoned)
	})
	if err != nil || len(abandoned.Moves) != 2 || abandoned.Header == nil {
		t.Errorf("abandoned record = %+v, %v", abandoned, err)
	}
	checkConsistent(t, db)
}
