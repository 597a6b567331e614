package storage

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
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

func TestAccountsAndHandles(t *testing.T) {
	db, _ := openTemp(t)
	if _, err := db.Account("SHA256:ann"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Account of new id: %v, want ErrNotFound", err)
	}
	before := time.Now().UTC().Add(-time.Second)
	ann, err := db.ClaimHandle("SHA256:ann", "Ann")
	if err != nil {
		t.Fatal(err)
	}
	if ann.ID != "SHA256:ann" || ann.Handle != "Ann" || ann.Created.Before(before) || ann.LastSeen.Before(before) {
		t.Fatalf("claimed = %+v", ann)
	}
	got, err := db.Account("SHA256:ann")
	if err != nil || !got.Created.Equal(ann.Created) || got.Handle != "Ann" {
		t.Fatalf("Account = %+v, %v; want %+v", got, err, ann)
	}

	// Uniqueness ignores case.
	for _, h := range []string{"Ann", "ann", "ANN"} {
		if _, err := db.ClaimHandle("SHA256:bo", h); !errors.Is(err, ErrHandleTaken) {
			t.Errorf("Bo claims %q: %v, want ErrHandleTaken", h, err)
		}
	}
	if _, err := db.Account("SHA256:bo"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a refused claim must not create the account: %v", err)
	}
	for _, h := range []string{"ann", "ANN", "Ann"} {
		if owner, err := db.HandleOwner(h); err != nil || owner != "SHA256:ann" {
			t.Errorf("HandleOwner(%q) = %q, %v", h, owner, err)
		}
	}

	// Re-claiming your own handle in another case is a rename, not a clash.
	if a, err := db.ClaimHandle("SHA256:ann", "ANN"); err != nil || a.Handle != "ANN" || !a.Created.Equal(ann.Created) {
		t.Fatalf("re-case own handle: %+v, %v", a, err)
	}

	// Renaming frees the old handle.
	if _, err := db.ClaimHandle("SHA256:ann", "Annie"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.HandleOwner("ann"); !errors.Is(err, ErrNotFound) {
		t.Errorf("old handle still owned: %v", err)
	}
	if owner, err := db.HandleOwner("annie"); err != nil || owner != "SHA256:ann" {
		t.Errorf("HandleOwner(annie) = %q, %v", owner, err)
	}
	if _, err := db.ClaimHandle("SHA256:bo", "ann"); err != nil {
		t.Errorf("Bo takes the freed handle: %v", err)
	}

	if err := db.Touch("SHA256:bo"); err != nil {
		t.Errorf("Touch: %v", err)
	}
	if err := db.Touch("SHA256:nobody"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Touch unknown: %v", err)
	}
	if _, err := db.HandleOwner("nobody"); !errors.Is(err, ErrNotFound) {
		t.Errorf("HandleOwner unknown: %v", err)
	}
	for _, bad := range [][2]string{{"", "x"}, {"id", ""}, {"id", strings.Repeat("x", 65)}} {
		if _, err := db.ClaimHandle(bad[0], bad[1]); err == nil {
			t.Errorf("ClaimHandle(%q, %q) accepted", bad[0], bad[1])
		}
	}
	checkConsistent(t, db)
}

func TestNewGameID(t *testing.T) {
	db, _ := openTemp(t)
	seen := make(map[string]bool)
	for range 500 {
		id, err := db.NewGameID()
		if err != nil {
			t.Fatal(err)
		}
		if len(id) != GameIDLen {
			t.Fatalf("id %q: want %d characters", id, GameIDLen)
		}
		for _, c := range id {
			if !strings.ContainsRune(gameIDAlphabet, c) {
				t.Fatalf("id %q has %q outside the alphabet", id, c)
			}
		}
		if seen[id] {
			t.Fatalf("id %q handed out twice", id)
		}
		seen[id] = true
	}
	if strings.ContainsAny(gameIDAlphabet, "01OIL") {
		t.Error("alphabet has ambiguous characters")
	}
}

func TestLiveGameRoundTrip(t *testing.T) {
	db, _ := openTemp(t)
	id, err := db.NewGameID()
	if err != nil {
		t.Fatal(err)
	}
	g := sampleLive(id)
	g.Record.Moves = []engine.Move{move(0, `{"ask":"sum"}`)}
	if err := db.StartGame(g); err != nil {
		t.Fatal(err)
	}
	if err := db.StartGame(g); !errors.Is(err, ErrGameExists) {
		t.Errorf("StartGame twice: %v, want ErrGameExists", err)
	}
	for i, a := range []string{`{"guess":[1,2,3]}`, `{"pass":true}`} {
		if err := db.AppendMove(id, i+1, move(i%3, a)); err != nil {
			t.Fatal(err)
		}
	}
	for _, idx := range []int{1, 2, 4, -1} { // duplicates, a gap, nonsense
		if err := db.AppendMove(id, idx, move(0, `{}`)); !errors.Is(err, ErrMoveOutOfOrder) {
			t.Errorf("AppendMove index %d: %v, want ErrMoveOutOfOrder", idx, err)
		}
	}
	if err := db.AppendMove("NOPE9", 0, move(0, `{}`)); !errors.Is(err, ErrNotFound) {
		t.Errorf("AppendMove unknown game: %v", err)
	}

	live, err := db.LiveGames()
	if err != nil {
		t.Fatal(err)
	}
	want := g
	want.Record.Moves = append(want.Record.Moves, move(0, `{"guess":[1,2,3]}`), move(1, `{"pass":true}`))
	if len(live) != 1 || !reflect.DeepEqual(live[0], want) {
		t.Fatalf("LiveGames =\n%+v\nwant\n%+v", live, want)
	}

	// Abandon keeps the log aside and frees nothing for reuse.
	if err := db.AbandonGame(id); err != nil {
		t.Fatal(err)
	}
	if err := db.AbandonGame(id); !errors.Is(err, ErrNotFound) {
		t.Errorf("AbandonGame twice: %v", err)
	}
	if live, _ := db.LiveGames(); len(live) != 0 {
		t.Errorf("abandoned game still live: %+v", live)
	}
	if err := db.StartGame(g); !errors.Is(err, ErrGameExists) {
		t.Errorf("restart an abandoned id: %v", err)
	}
	var abandoned abandonedRecord
	err = db.bolt.View(func(tx *bolt.Tx) error {
		return json.Unmarshal(tx.Bucket([]byte(bucketAbandoned)).Get([]byte(id)), &abandoned)
	})
	if err != nil || len(abandoned.Moves) != 3 || abandoned.Header == nil {
		t.Errorf("abandoned record = %+v, %v", abandoned, err)
	}
	checkConsistent(t, db)
}

func finish(g LiveGame, res engine.Result, at time.Time) FinishedGame {
	return FinishedGame{LiveGame: g, Result: res, Finished: at}
}

func TestFinishedGamesHistoryAndStats(t *testing.T) {
	db, _ := openTemp(t)
	base := time.Date(2026, 11, 25, 21, 0, 0, 0, time.UTC)
	results := []engine.Result{
		{Winners: []engine.Seat{0}, Summary: "Ann broke the code."},
		{Winners: []engine.Seat{2}, Summary: "Kai broke the code."},
		{Winners: []engine.Seat{0, 2}, Draw: true, Summary: "Ann and Kai tie."},
		{Draw: true, Summary: "Nobody broke the code."},
		{Winners: []engine.Seat{1}, Summary: "The bot won."},
	}
	var ids []string
	for i, res := range results {
		id, err := db.NewGameID()
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
		g := sampleLive(id)
		if i == 4 {
			g.Record.Game = "other"
		}
		if err := db.StartGame(g); err != nil {
			t.Fatal(err)
		}
		for m := range i + 1 {
			if err := db.AppendMove(id, m, move(m%3, fmt.Sprintf(`{"n":%d}`, m))); err != nil {
				t.Fatal(err)
			}
		}
		live, _ := db.LiveGames()
		fg := finish(live[0], res, base.Add(time.Duration(i)*time.Minute))
		if err := db.FinishGame(fg); err != nil {
			t.Fatal(err)
		}
		if err := db.FinishGame(fg); !errors.Is(err, ErrGameExists) {
			t.Errorf("FinishGame twice: %v", err)
		}
		got, err := db.Game(id)
		if err != nil || !reflect.DeepEqual(got, fg) {
			t.Fatalf("Game(%s) =\n%+v, %v\nwant\n%+v", id, got, err, fg)
		}
	}
	if live, _ := db.LiveGames(); len(live) != 0 {
		t.Errorf("finished games still live: %d", len(live))
	}
	if _, err := db.Game("NOPE9"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Game unknown: %v", err)
	}

	hist, err := db.History("SHA256:ann", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 5 {
		t.Fatalf("history has %d games, want 5", len(hist))
	}
	for i, h := range hist { // newest first
		j := len(ids) - 1 - i
		if h.ID != ids[j] || h.Moves != j+1 || h.Result.Summary != results[j].Summary ||
			!h.Finished.Equal(base.Add(time.Duration(j)*time.Minute)) || len(h.Seats) != 3 {
			t.Errorf("history[%d] = %+v", i, h)
		}
	}
	if hist, _ := db.History("SHA256:ann", 2); len(hist) != 2 || hist[0].ID != ids[4] || hist[1].ID != ids[3] {
		t.Errorf("History limit 2 = %+v", hist)
	}
	if hist, err := db.History("SHA256:nobody", 10); err != nil || len(hist) != 0 {
		t.Errorf("History of unknown = %+v, %v", hist, err)
	}

	// One vocabulary: a shared win is counted as one (not as a draw), a game
	// nobody won as no winner, and Kai, whose seat a bot took over, left.
	wantOutcomes := []Outcome{Lost, NoWinner, SharedWin, Lost, Won} // newest first
	for i, h := range hist {
		if h.Outcome != wantOutcomes[i] {
			t.Errorf("history[%d] outcome = %v, want %v", i, h.Outcome, wantOutcomes[i])
		}
	}
	ann, _ := db.Stats("SHA256:ann")
	wantAnn := Stats{Totals: Totals{Played: 5, Won: 1, SharedWins: 1, Lost: 2, NoWinner: 1}, ByGame: map[string]Totals{
		"breakcode": {Played: 4, Won: 1, SharedWins: 1, Lost: 1, NoWinner: 1}, "other": {Played: 1, Lost: 1}}}
	if !reflect.DeepEqual(ann, wantAnn) {
		t.Errorf("Ann's stats = %+v, want %+v", ann, wantAnn)
	}
	kai, _ := db.Stats("SHA256:kai")
	wantKai := Stats{Totals: Totals{Played: 5, Left: 5}, ByGame: map[string]Totals{
		"breakcode": {Played: 4, Left: 4}, "other": {Played: 1, Left: 1}}}
	if !reflect.DeepEqual(kai, wantKai) {
		t.Errorf("Kai's stats = %+v, want %+v", kai, wantKai)
	}
	if none, err := db.Stats("SHA256:nobody"); err != nil || none.Played != 0 || none.ByGame == nil {
		t.Errorf("Stats of unknown = %+v, %v", none, err)
	}
	checkConsistent(t, db)
}

func TestHistoryOrderWithEqualTimesAndGuests(t *testing.T) {
	db, _ := openTemp(t)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var ids []string
	for range 3 {
		id, _ := db.NewGameID()
		ids = append(ids, id)
		g := sampleLive(id)
		g.Seats = append(g.Seats, SeatRecord{AccountID: "guest:7k3", Handle: "guest-7k3"},
			SeatRecord{AccountID: "SHA256:ann", Handle: "Ann again"}) // same account twice: counted once
		if err := db.FinishGame(finish(g, engine.Result{Winners: []engine.Seat{4}}, at)); err != nil {
			t.Fatal(err)
		}
	}
	hist, _ := db.History("SHA256:ann", 0)
	if len(hist) != 3 || hist[0].ID != ids[2] || hist[2].ID != ids[0] {
		t.Errorf("equal finish times should keep finishing order, newest first: %+v", hist)
	}
	if st, _ := db.Stats("SHA256:ann"); st.Played != 3 || st.Won != 0 {
		t.Errorf("Ann's stats = %+v (first seat counts)", st)
	}
	if hist, _ := db.History("guest:7k3", 0); len(hist) != 0 {
		t.Errorf("guests are not indexed: %+v", hist)
	}
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
