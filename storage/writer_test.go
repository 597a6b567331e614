package storage

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
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

// pauseWriter stops db's writer goroutine as Close does, without closing
// the file, so a test may call commit itself (the writer's state is the
// writer's alone), and returns the function that starts it again.
func pauseWriter(db *DB) (resume func()) {
	db.mu.Lock()
	db.closed = true
	close(db.requests)
	db.mu.Unlock()
	<-db.writerDone
	return func() {
		db.mu.Lock()
		db.requests = make(chan writeRequest, 256)
		db.writerDone = make(chan struct{})
		db.closed = false
		db.mu.Unlock()
		go db.writeLoop()
	}
}

func TestGroupSurvivesAFailingMember(t *testing.T) {
	db, _ := openTemp(t)
	ids := startGames(t, db, 2)
	appendReq := func(id string, index int) writeRequest {
		return request(db.appendApply(id, index, []byte(`{"seat":0,"action":{}}`)))
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
	resume := pauseWriter(db)
	db.commit(group)
	resume()
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
	// The failed group's moves were counted, dropped and counted again
	// alone: the writer's next indexes must be the file's.
	if err := db.AppendMove(ids[0], 2, move(0, `{}`)); err != nil {
		t.Errorf("the next move after the retried group: %v", err)
	}
	if err := db.AppendMove(ids[1], 2, move(0, `{}`)); !errors.Is(err, ErrMoveOutOfOrder) {
		t.Errorf("a gap after the retried group: %v", err)
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

// logEntries counts the entries of the live log.
func logEntries(t *testing.T, db *DB) int {
	t.Helper()
	n := 0
	err := db.view(func(tx *bolt.Tx) error {
		n = tx.Bucket([]byte(bucketLiveLog)).Stats().KeyN
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// trimCounter counts the commits that carried no caller's write: the
// writer's own trims of the live log.
type trimCounter struct{ n atomic.Int64 }

func (c *trimCounter) Commit(writes int, _ time.Duration, err error) {
	if writes == 0 && err == nil {
		c.n.Add(1)
	}
}

// openCountingTrims opens the file at path with a trimCounter observing
// its commits, and returns the options to open it again alike.
func openCountingTrims(t *testing.T, path string) (*DB, *trimCounter, Options) {
	t.Helper()
	trims := &trimCounter{}
	opt := quietOptions()
	opt.Observer = trims
	db, err := Open(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	return db, trims, opt
}

// reopen closes db and opens the file at path again with opt.
func reopen(t *testing.T, db *DB, path string, opt Options) *DB {
	t.Helper()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// TestTrimmedLogKeepsEveryLiveMove: finished games leave their moves in
// the live log as garbage, and once over half the log is garbage the
// oldest entries are trimmed (by the writer, in transactions of their own),
// live ones among them moved to its end. Long
// games that outlive many trims, appended to between short games finishing
// in the same commits, keep every move in order, also after a reopen, and
// the log stays bounded however many games finished.
func TestTrimmedLogKeepsEveryLiveMove(t *testing.T) {
	path := filepath.Join(t.TempDir(), "codebreakers.db")
	db, trims, _ := openCountingTrims(t, path)
	defer db.Close()
	long := startGames(t, db, 3)
	var longMu [3]sync.Mutex
	var longNext [3]int
	const workers, games, moves = 8, 10, 25
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for range games {
				id := startGames(t, db, 1)[0]
				g := sampleLive(id)
				for i := range moves {
					m := move(i%3, fmt.Sprintf(`{"short":%d}`, i))
					if err := db.AppendMove(id, i, m); err != nil {
						t.Error(err)
						return
					}
					g.Record.Moves = append(g.Record.Moves, m)
				}
				l := w % len(long)
				longMu[l].Lock()
				err := db.AppendMove(long[l], longNext[l], move(l, fmt.Sprintf(`{"long":%d}`, longNext[l])))
				longNext[l]++
				longMu[l].Unlock()
				if err != nil {
					t.Error(err)
					return
				}
				if err := db.FinishGame(FinishedGame{LiveGame: g, Result: engine.Result{Winners: []engine.Seat{0}}}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	liveMoves := longNext[0] + longNext[1] + longNext[2]
	if trims.n.Load() == 0 {
		t.Error("no trim ran in a transaction of its own (a commit of no writes)")
	}
	if n := logEntries(t, db); n >= liveMoves+2*trimMinGarbage {
		t.Errorf("the log holds %d entries after %d short games finished; %d of them live", n, workers*games, liveMoves)
	}
	check := func(db *DB) {
		t.Helper()
		live, err := db.LiveGames()
		if err != nil || len(live) != len(long) {
			t.Fatalf("live games: %d, %v", len(live), err)
		}
		for _, g := range live {
			l := slices.Index(long[:], g.ID)
			if len(g.Record.Moves) != longNext[l] {
				t.Fatalf("long game %d has %d moves, want %d", l, len(g.Record.Moves), longNext[l])
			}
			for i, m := range g.Record.Moves {
				if want := fmt.Sprintf(`{"long":%d}`, i); string(m.Action) != want || m.Seat != engine.Seat(l) {
					t.Fatalf("long game %d move %d = %d %s, want %d %s", l, i, m.Seat, m.Action, l, want)
				}
			}
		}
	}
	check(db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db2, err := Open(path, quietOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	check(db2)
	if err := db2.AppendMove(long[0], longNext[0]-1, move(0, `{}`)); !errors.Is(err, ErrMoveOutOfOrder) {
		t.Errorf("a repeated move after reopening: %v", err)
	}
	if err := db2.AppendMove(long[0], longNext[0], move(0, `{}`)); err != nil {
		t.Errorf("the next move after reopening: %v", err)
	}
	checkConsistent(t, db2)
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

// TestGatherTakesCompanyUntilEnough: the writer's wait for company
// (gather) returns once the group holds as many writes as wanted, taking
// no more than that, or at once when the deadline has passed or the
// requests are closed, keeping what it took.
func TestGatherTakesCompanyUntilEnough(t *testing.T) {
	reqs := make(chan writeRequest, 8)
	for range 5 {
		reqs <- request(nil)
	}
	never := make(chan time.Time)
	group := gather(reqs, []writeRequest{request(nil)}, 4, never)
	if len(group) != 4 || len(reqs) != 2 {
		t.Fatalf("gather for 4 took the group to %d with %d left waiting; want 4 and 2", len(group), len(reqs))
	}
	fired := make(chan time.Time, 1)
	fired <- time.Now()
	group = gather(make(chan writeRequest), group[:1], 4, fired)
	if len(group) != 1 {
		t.Fatalf("gather past its deadline returned %d writes; want the 1 it had", len(group))
	}
	close(reqs)
	group = gather(reqs, group[:1], 100, never)
	if len(group) != 3 {
		t.Fatalf("gather from closed requests returned %d writes; want the 1 it had and the 2 left", len(group))
	}
}

// TestDrainTakesWhatWaitsUpToMaxGroup: one commit carries whatever is
// waiting, but never more than maxGroup.
func TestDrainTakesWhatWaitsUpToMaxGroup(t *testing.T) {
	reqs := make(chan writeRequest, maxGroup+10)
	for range maxGroup + 10 {
		reqs <- request(nil)
	}
	if group := drain(reqs, []writeRequest{request(nil)}); len(group) != maxGroup || len(reqs) != 11 {
		t.Fatalf("drain took %d with %d left; want %d and 11", len(group), len(reqs), maxGroup)
	}
}

// TestLoneWriterIsNeverHeldBack: writes that come one at a time each commit
// alone and at once, whatever the gathering gap: a commit waits for company
// only after one that had some. With a gap of an hour, a wait would hang
// the test.
func TestLoneWriterIsNeverHeldBack(t *testing.T) {
	db, counter := openCounted(t)
	db.gatherGap = time.Hour // before the first write
	ids := startGames(t, db, 1)
	for i := range 20 {
		if err := db.AppendMove(ids[0], i, move(0, `{}`)); err != nil {
			t.Fatal(err)
		}
	}
	if c, w := counter.commits.Load(), counter.writes.Load(); c != w {
		t.Fatalf("%d writes one at a time took %d commits; want one each", w, c)
	}
}

// TestBusyWriterWaitsOutTheGap: after a commit with company, the next one
// waits out the gap even once more writes have come than the previous
// commit carried (waiting only for that many left commits at ~2 writes on
// the floor), and then carries them all. With a gap of an hour, Close is
// what starts it.
func TestBusyWriterWaitsOutTheGap(t *testing.T) {
	db, counter := openCounted(t)
	db.gatherGap = time.Hour // before the first write
	ids := startGames(t, db, 3)
	commitTogether(t, db, ids)
	commits, writes := counter.commits.Load(), counter.writes.Load()
	held := make(chan error, 2*len(ids))
	for _, id := range ids {
		go func() {
			for i := 1; i <= 2; i++ {
				if err := db.AppendMove(id, i, move(0, `{}`)); err != nil {
					held <- err
					return
				}
			}
			held <- nil
		}()
	}
	// Twice as many writes as the previous commit carried cannot all come
	// (each game's second waits for its first), so watch for any answer.
	select {
	case err := <-held:
		t.Fatalf("a write after a commit with company was answered before the gap ended (%v); want it held", err)
	case <-time.After(100 * time.Millisecond):
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	for range ids {
		if err := <-held; !errors.Is(err, ErrClosed) {
			t.Fatalf("a game's second write after Close: %v; want ErrClosed (its first was held to Close)", err)
		}
	}
	if c, w := counter.commits.Load()-commits, counter.writes.Load()-writes; c != 1 || w != int64(len(ids)) {
		t.Fatalf("the held writes took %d commits carrying %d; want 1 carrying all %d", c, w, len(ids))
	}
}

// commitTogether makes the writer's next commit carry move 0 of every game
// of ids, queued before the writer starts again, and waits for it.
func commitTogether(t *testing.T, db *DB, ids []string) {
	t.Helper()
	pauseWriter(db)
	first := make([]writeRequest, len(ids))
	db.requests = make(chan writeRequest, 256)
	for i, id := range ids {
		first[i] = request(db.appendApply(id, 0, []byte(`{"seat":0,"action":{}}`)))
		db.requests <- first[i]
	}
	db.writerDone = make(chan struct{})
	db.closed = false
	go db.writeLoop()
	for _, req := range first {
		if err := <-req.done; err != nil {
			t.Fatal(err)
		}
	}
}

// TestHeldCommitStartsAtClose: a commit held back for company (the previous
// one carried three writes) waits for it, but not past Close: the held
// write is answered, committed, and is in the file.
func TestHeldCommitStartsAtClose(t *testing.T) {
	db, path := openTemp(t)
	db.gatherGap = time.Hour // before the first write
	ids := startGames(t, db, 3)
	// Three moves waiting together when the writer starts make its first
	// commit; so the next write waits for company, for up to an hour.
	commitTogether(t, db, ids)
	held := make(chan error, 1)
	go func() { held <- db.AppendMove(ids[0], 1, move(0, `{}`)) }()
	select {
	case err := <-held:
		t.Fatalf("the write after a commit with company was answered at once (%v); want it held for company", err)
	case <-time.After(50 * time.Millisecond):
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-held; err != nil {
		t.Fatalf("the held write: %v", err)
	}
	db2, err := Open(path, quietOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	games, err := db2.LiveGames()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		if g.ID == ids[0] && len(g.Record.Moves) != 2 {
			t.Fatalf("game %s has %d moves after Close; want 2", g.ID, len(g.Record.Moves))
		}
	}
}
