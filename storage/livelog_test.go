package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/codebreakers/codebreakers/engine"
)

// againAction is move i of a game's second start: unlike anything its
// first start logged.
func againAction(i int) string { return fmt.Sprintf(`{"again":%d}`, i) }

// idEntries counts the entries of game id in the live log, whichever start
// of the game they belong to.
func idEntries(t *testing.T, db *DB, id string) int {
	t.Helper()
	n := 0
	err := db.view(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(bucketLiveLog)).Cursor()
		for _, v := c.First(); v != nil; _, v = c.Next() {
			if gid, _, _, ok := parseLogValue(v); ok && string(gid) == id {
				n++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// readLiveGame returns the live game id as LiveGames reads it.
func readLiveGame(t *testing.T, db *DB, id string) LiveGame {
	t.Helper()
	live, err := db.LiveGames()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range live {
		if g.ID == id {
			return g
		}
	}
	t.Fatalf("game %s is not among the live games", id)
	return LiveGame{}
}

// checkRestarted checks that live game id holds exactly moves moves of its
// latest start (againAction) and takes move number moves next, not another.
// It appends that move, so the game has moves+1 afterwards.
func checkRestarted(t *testing.T, db *DB, id string, moves int) {
	t.Helper()
	g := readLiveGame(t, db, id)
	if len(g.Record.Moves) != moves {
		t.Fatalf("game %s reads back %d moves, want the %d of its latest start", id, len(g.Record.Moves), moves)
	}
	for i, m := range g.Record.Moves {
		if string(m.Action) != againAction(i) || m.Seat != engine.Seat(i%3) {
			t.Fatalf("game %s move %d = %d %s, want %d %s", id, i, m.Seat, m.Action, i%3, againAction(i))
		}
	}
	for _, wrong := range []int{moves + 1, moves - 1} {
		if wrong < 0 {
			continue
		}
		if err := db.AppendMove(id, wrong, move(0, `{}`)); !errors.Is(err, ErrMoveOutOfOrder) {
			t.Fatalf("game %s took move %d with %d stored: %v", id, wrong, moves, err)
		}
	}
	if err := db.AppendMove(id, moves, move(moves%3, againAction(moves))); err != nil {
		t.Fatalf("game %s refused its next move %d: %v", id, moves, err)
	}
}

// startAgain starts live game id afresh with moves moves (againAction).
func startAgain(t *testing.T, db *DB, id string, moves int) {
	t.Helper()
	g := sampleLive(id)
	for i := range moves {
		g.Record.Moves = append(g.Record.Moves, move(i%3, againAction(i)))
	}
	if err := db.StartGame(g); err != nil {
		t.Fatalf("start %s again: %v", id, err)
	}
}

// makeGarbage starts a game of n moves and forgets it, then makes a few
// writes, each followed by the writer's look at whether to trim, so the
// log is trimmed until under half of it is garbage.
func makeGarbage(t *testing.T, db *DB, id string, n int) {
	t.Helper()
	g := sampleLive(id)
	for range n {
		g.Record.Moves = append(g.Record.Moves, move(0, `{"ask":1}`))
	}
	if err := db.StartGame(g); err != nil {
		t.Fatal(err)
	}
	if err := db.ForgetLive(id); err != nil {
		t.Fatal(err)
	}
	for range n/trimBatch + 4 {
		if err := db.write(func(tx *bolt.Tx) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
}

// TestForgottenIDStartsAfresh: a game forgotten (ForgetLive) leaves its
// moves in the live log as garbage; started again under the same id before
// they are trimmed, it reads back only the moves of its new start and takes
// the next index of those — also after a reopen (the writer's next indexes
// read from the file) and after trims (which delete the old moves rather
// than moving them to the end as the live game's).
func TestForgottenIDStartsAfresh(t *testing.T) {
	path := filepath.Join(t.TempDir(), "codebreakers.db")
	db, trims, opt := openCountingTrims(t, path)
	defer func() { _ = db.Close() }()

	// X: 2 moves at the start and 3 appended, then forgotten and started
	// again with 1 move, then one appended.
	g := sampleLive("REUSEX")
	g.Record.Moves = []engine.Move{move(0, v5Action(0)), move(1, v5Action(1))}
	if err := db.StartGame(g); err != nil {
		t.Fatal(err)
	}
	for i := 2; i < 5; i++ {
		if err := db.AppendMove("REUSEX", i, move(i%3, v5Action(i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.ForgetLive("REUSEX"); err != nil {
		t.Fatal(err)
	}
	startAgain(t, db, "REUSEX", 1)
	checkRestarted(t, db, "REUSEX", 1)
	// Y: started empty, 4 moves, forgotten, started again empty.
	if err := db.StartGame(sampleLive("REUSEY")); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if err := db.AppendMove("REUSEY", i, move(i%3, v5Action(i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.ForgetLive("REUSEY"); err != nil {
		t.Fatal(err)
	}
	startAgain(t, db, "REUSEY", 0)
	checkRestarted(t, db, "REUSEY", 0)
	// An abandon keeps only the latest start's moves.
	if err := db.AbandonGame("REUSEY"); err != nil {
		t.Fatal(err)
	}
	var abandoned abandonedRecord
	err := db.view(func(tx *bolt.Tx) error {
		return json.Unmarshal(tx.Bucket([]byte(bucketAbandoned)).Get([]byte("REUSEY")), &abandoned)
	})
	if err != nil || len(abandoned.Moves) != 1 || string(abandoned.Moves[0]) != fmt.Sprintf(`{"seat":0,"action":%s}`, againAction(0)) {
		t.Fatalf("abandoned record of a game started again = %d moves %s, %v", len(abandoned.Moves), abandoned.Moves, err)
	}
	if trims.n.Load() != 0 {
		t.Fatal("the log was trimmed before the checks of an untrimmed log")
	}

	db = reopen(t, db, path, opt)
	checkRestarted(t, db, "REUSEX", 2)

	// Forgotten again with its old moves still there; started a third time.
	if err := db.ForgetLive("REUSEX"); err != nil {
		t.Fatal(err)
	}
	startAgain(t, db, "REUSEX", 2)
	checkRestarted(t, db, "REUSEX", 2)
	if n := idEntries(t, db, "REUSEX"); n != 5+3+3 {
		t.Fatalf("the log holds %d entries of REUSEX before any trim, want 11", n)
	}

	// Trims: the old starts' moves are garbage, deleted; the live ones are
	// kept (moved to the end).
	makeGarbage(t, db, "GARBAGE", 4*trimBatch)
	if trims.n.Load() == 0 {
		t.Fatal("no trim ran")
	}
	if n := idEntries(t, db, "REUSEX"); n != 3 {
		t.Errorf("the log holds %d entries of REUSEX after trims, want the 3 of its latest start", n)
	}
	checkRestarted(t, db, "REUSEX", 3)
	db = reopen(t, db, path, opt)
	checkRestarted(t, db, "REUSEX", 4)
	// The garbage game's id too starts afresh, after trims kept part of
	// its old moves.
	startAgain(t, db, "GARBAGE", 2)
	checkRestarted(t, db, "GARBAGE", 2)
	db = reopen(t, db, path, opt)
	checkRestarted(t, db, "GARBAGE", 3)
	checkConsistent(t, db)
}

// TestForgetAndStartInOneCommit: a forget and a start again of the same id
// carried by one group commit leave the game with the new start's moves.
func TestForgetAndStartInOneCommit(t *testing.T) {
	gate := &gateObserver{entered: make(chan struct{}), release: make(chan struct{})}
	opt := quietOptions()
	opt.Observer = gate
	path := filepath.Join(t.TempDir(), "codebreakers.db")
	db, err := Open(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	g := sampleLive("REUSEZ")
	for i := range 6 {
		g.Record.Moves = append(g.Record.Moves, move(i%3, v5Action(i)))
	}
	first := make(chan error, 1)
	go func() { first <- db.StartGame(g) }()
	<-gate.entered // the writer is inside the first commit
	forgot, started := make(chan error, 1), make(chan error, 1)
	go func() { forgot <- db.ForgetLive("REUSEZ") }()
	for len(db.requests) < 1 {
		time.Sleep(time.Millisecond)
	}
	again := sampleLive("REUSEZ")
	again.Record.Moves = []engine.Move{move(0, againAction(0)), move(1, againAction(1))}
	go func() { started <- db.StartGame(again) }()
	for len(db.requests) < 2 {
		time.Sleep(time.Millisecond)
	}
	close(gate.release)
	for _, c := range []chan error{first, forgot, started} {
		if err := <-c; err != nil {
			t.Fatal(err)
		}
	}
	gate.mu.Lock()
	groups := gate.groups
	gate.mu.Unlock()
	if len(groups) != 2 || groups[1] != 2 {
		t.Fatalf("commits carried %v writes; want [1 2]", groups)
	}
	checkRestarted(t, db, "REUSEZ", 2)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if db, err = Open(path, quietOptions()); err != nil {
		t.Fatal(err)
	}
	checkRestarted(t, db, "REUSEZ", 3)
}
