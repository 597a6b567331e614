package storage

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/codebreakers/codebreakers/engine"
)

// startGames starts n empty live games and returns their ids.
func startGames(t testing.TB, db *DB, n int) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range ids {
		id, err := db.NewGameID()
		if err != nil {
			t.Fatal(err)
		}
		if err := db.StartGame(sampleLive(id)); err != nil {
			t.Fatal(err)
		}
		ids[i] = id
	}
	return ids
}

func TestConcurrentAppendsAllLandInOrder(t *testing.T) {
	db, _ := openTemp(t)
	const tables, moves = 50, 40
	ids := startGames(t, db, tables)

	var wg sync.WaitGroup
	errs := make(chan error, tables*2)
	for ti, id := range ids {
		wg.Go(func() {
			for i := range moves {
				if err := db.AppendMove(id, i, move(i%3, fmt.Sprintf(`{"t":%d,"i":%d}`, ti, i))); err != nil {
					errs <- fmt.Errorf("table %d move %d: %w", ti, i, err)
					return
				}
				// Every few moves, a stale retry that must be refused
				// without disturbing whatever it is grouped with.
				if i%10 == 5 {
					if err := db.AppendMove(id, i, move(0, `{"dup":true}`)); !errors.Is(err, ErrMoveOutOfOrder) {
						errs <- fmt.Errorf("table %d duplicate %d: got %v", ti, i, err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	live, err := db.LiveGames()
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != tables {
		t.Fatalf("%d live games, want %d", len(live), tables)
	}
	byID := make(map[string]LiveGame)
	for _, g := range live {
		byID[g.ID] = g
	}
	for ti, id := range ids {
		got := byID[id].Record.Moves
		if len(got) != moves {
			t.Errorf("table %d has %d moves, want %d", ti, len(got), moves)
			continue
		}
		for i, m := range got {
			if want := fmt.Sprintf(`{"t":%d,"i":%d}`, ti, i); string(m.Action) != want || m.Seat != engine.Seat(i%3) {
				t.Errorf("table %d move %d = %d %s, want %d %s", ti, i, m.Seat, m.Action, i%3, want)
			}
		}
	}
	checkConsistent(t, db)
}

// request wraps apply in a writeRequest for calling commit directly.
func request(apply func(tx *bolt.Tx) error) writeRequest {
	return writeRequest{apply: apply, done: make(chan error, 1)}
}

func TestGroupSurvivesAFailingMember(t *testing.T) {
	db, _ := openTemp(t)
	ids := startGames(t, db, 2)
	appendReq := func(id string, index int) writeRequest {
		val := []byte(`{"seat":0,"action":{}}`)
		return request(func(tx *bolt.Tx) error {
			mb := tx.Bucket([]byte(bucketLiveMoves))
			if next := nextMoveIndex(mb, []byte(id)); next != index {
				return reject(fmt.Errorf("%w: want %d", ErrMoveOutOfOrder, next))
			}
			return mb.Put(liveMoveKey([]byte(id), index), val)
		})
	}
	boom := errors.New("disk on fire")
	group := []writeRequest{
		appendReq(ids[0], 0),
		// Writes, then fails: its write must vanish, the others must stay.
		request(func(tx *bolt.Tx) error {
			if err := tx.Bucket([]byte(bucketMeta)).Put([]byte("junk"), []byte("x")); err != nil {
				return err
			}
			return boom
		}),
		appendReq(ids[1], 0),
		appendReq(ids[0], 5), // a clean refusal
		request(func(*bolt.Tx) error { panic("engine bug") }),
		appendReq(ids[0], 1), // depends on the first request of the group
	}
	db.commit(group)
	answers := make([]error, len(group))
	for i, req := range group {
		answers[i] = <-req.done
	}
	if answers[0] != nil || answers[2] != nil || answers[5] != nil {
		t.Errorf("good writes failed: %v", answers)
	}
	if !errors.Is(answers[1], boom) {
		t.Errorf("failing write answered %v, want %v", answers[1], boom)
	}
	if !errors.Is(answers[3], ErrMoveOutOfOrder) {
		t.Errorf("refused write answered %v", answers[3])
	}
	if answers[4] == nil {
		t.Error("panicking write answered nil")
	}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		if tx.Bucket([]byte(bucketMeta)).Get([]byte("junk")) != nil {
			t.Error("a failed write left data behind")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	live, _ := db.LiveGames()
	counts := map[string]int{}
	for _, g := range live {
		counts[g.ID] = len(g.Record.Moves)
	}
	if counts[ids[0]] != 2 || counts[ids[1]] != 1 {
		t.Errorf("moves stored = %v, want %s:2 %s:1", counts, ids[0], ids[1])
	}
	checkConsistent(t, db)
}

func TestCloseDrainsPendingWrites(t *testing.T) {
	db, path := openTemp(t)
	ids := startGames(t, db, 20)
	var wg sync.WaitGroup
	var mu sync.Mutex
	acked := map[string]int{}
	for _, id := range ids {
		wg.Go(func() {
			for i := range 30 {
				if err := db.AppendMove(id, i, move(0, `{}`)); err != nil {
					if !errors.Is(err, ErrClosed) {
						t.Errorf("append: %v", err)
					}
					return
				}
				mu.Lock()
				acked[id] = i + 1
				mu.Unlock()
			}
		})
	}
	if err := db.Close(); err != nil { // races the writers on purpose
		t.Fatal(err)
	}
	wg.Wait()

	db2, err := Open(path, quietOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	live, _ := db2.LiveGames()
	for _, g := range live {
		if len(g.Record.Moves) != acked[g.ID] {
			t.Errorf("game %s: %d moves stored, %d acknowledged", g.ID, len(g.Record.Moves), acked[g.ID])
		}
	}
	checkConsistent(t, db2)
}

// TestMovesReadRightAfterDeletesInOneTransaction: one group commit can
// finish games (deleting their moves) and append to others. Every other
// game's moves must still be counted and the next index accepted after each
// delete (bbolt's Seek-then-Prev lost them after such deletes, so a move was
// refused as out of order).
func TestMovesReadRightAfterDeletesInOneTransaction(t *testing.T) {
	db, _ := openTemp(t)
	ids := startGames(t, db, 30)
	const moves = 40
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() {
			for i := range moves {
				if err := db.AppendMove(id, i, move(i%3, `{"note":"padded so that the games fill several pages of livemoves"}`)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		mb := tx.Bucket([]byte(bucketLiveMoves))
		for j, gone := range ids {
			if err := deleteLive(tx, []byte(gone)); err != nil {
				return err
			}
			for _, id := range ids[j+1:] {
				if n := nextMoveIndex(mb, []byte(id)); n != moves || !isNextMove(mb, []byte(id), moves) || isNextMove(mb, []byte(id), moves-1) {
					t.Fatalf("after deleting %d games, %s has %d moves (want %d) or the wrong next index", j+1, id, n, moves)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// gateObserver holds the writer goroutine inside its first commit report
// until released, and records how many writes each commit carried.
type gateObserver struct {
	entered, release chan struct{}
	mu               sync.Mutex
	groups           []int
}

func (g *gateObserver) Commit(writes int, _ time.Duration, _ error) {
	g.mu.Lock()
	g.groups = append(g.groups, writes)
	first := len(g.groups) == 1
	g.mu.Unlock()
	if first {
		close(g.entered)
		<-g.release
	}
}

// TestWritesQueuedDuringACommitShareTheNext: every write that arrives while
// a commit is under way (its fsync, here held open) goes into the one
// next commit, not a commit each.
func TestWritesQueuedDuringACommitShareTheNext(t *testing.T) {
	gate := &gateObserver{entered: make(chan struct{}), release: make(chan struct{})}
	opt := quietOptions()
	opt.Observer = gate
	db, err := Open(filepath.Join(t.TempDir(), "codebreakers.db"), opt)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const waiting = 40
	ids := make([]string, waiting+1)
	for i := range ids {
		ids[i] = fmt.Sprintf("Q%03d", i)
	}
	first := make(chan error, 1)
	go func() { first <- db.StartGame(sampleLive(ids[0])) }()
	<-gate.entered // the writer is inside the first commit
	var wg sync.WaitGroup
	for _, id := range ids[1:] {
		wg.Go(func() {
			if err := db.StartGame(sampleLive(id)); err != nil {
				t.Error(err)
			}
		})
	}
	for len(db.requests) < waiting { // every one queued behind the commit
		time.Sleep(time.Millisecond)
	}
	close(gate.release)
	wg.Wait()
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	gate.mu.Lock()
	defer gate.mu.Unlock()
	if len(gate.groups) != 2 || gate.groups[0] != 1 || gate.groups[1] != waiting {
		t.Fatalf("commits carried %v writes; want [1 %d]", gate.groups, waiting)
	}
}
