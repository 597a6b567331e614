package storage

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/codebreakers/codebreakers/engine"
)

// BenchmarkAppendMove measures durable moves per second when 1 or 64 tables
// append at once; the writer groups concurrent appends into one commit.
func BenchmarkAppendMove(b *testing.B) {
	for _, tables := range []int{1, 64} {
		b.Run(fmt.Sprintf("tables=%d", tables), func(b *testing.B) {
			db, _ := openTemp(b)
			ids := startGames(b, db, tables)
			m := move(1, `{"guess":[3,1,4,1],"note":"a typical small action"}`)
			b.ResetTimer()
			start := time.Now()
			appendAll(b, db, ids, m)
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "moves/s")
		})
	}
}

// appendAll appends b.N moves m, one writer per game of ids, each game's
// moves in order, and returns once all are durable.
func appendAll(b *testing.B, db *DB, ids []string, m engine.Move) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() {
			for i := 0; next.Add(1) <= int64(b.N); i++ {
				if err := db.AppendMove(id, i, m); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// finishedSample is a finished game of the given number of moves.
func finishedSample(id string, moves int) FinishedGame {
	g := sampleLive(id)
	for i := range moves {
		g.Record.Moves = append(g.Record.Moves, move(i%3, `{"guess":[3,1,4,1]}`))
	}
	return FinishedGame{LiveGame: g, Result: engine.Result{Winners: []engine.Seat{0}, Summary: "Ann won."},
		Finished: time.Now()}
}

// BenchmarkFinishGame measures storing a 60-move game (record, live-log
// delete, two index entries and stats) from one caller at a time.
func BenchmarkFinishGame(b *testing.B) {
	db, _ := openTemp(b)
	games := make([]FinishedGame, b.N)
	for i := range games {
		games[i] = finishedSample(fmt.Sprintf("G%07d", i), 60)
	}
	b.ResetTimer()
	for i := range b.N {
		if err := db.FinishGame(games[i]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHistory reads the 20 newest of an account's 500 finished games.
func BenchmarkHistory(b *testing.B) {
	db, _ := openTemp(b)
	var wg sync.WaitGroup
	for w := range 50 { // concurrent so setup shares commits
		wg.Go(func() {
			for i := range 10 {
				if err := db.FinishGame(finishedSample(fmt.Sprintf("H%02d%02d", w, i), 60)); err != nil {
					b.Error(err)
				}
			}
		})
	}
	wg.Wait()
	b.ResetTimer()
	for b.Loop() {
		hist, err := db.History("SHA256:ann", 20)
		if err != nil || len(hist) != 20 {
			b.Fatalf("History: %d, %v", len(hist), err)
		}
	}
}

// yearOfGames writes a closed database of 20,000 finished 60-move games
// with their accounts (about the history of a busy year), 200 writers at a
// time, and returns its path and size.
func yearOfGames(b *testing.B) (string, os.FileInfo) {
	b.Helper()
	db, path := openTemp(b)
	const games, batch = 20000, 200
	for i := 0; i < games; i += batch {
		var wg sync.WaitGroup
		for j := range batch {
			wg.Go(func() {
				g := finishedSample(fmt.Sprintf("G%07d", i+j), 60)
				g.Seats[0].AccountID = fmt.Sprintf("SHA256:acct%05d", (i+j)%5000)
				if err := db.FinishGame(g); err != nil {
					b.Error(err)
				}
			})
		}
		wg.Wait()
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return path, info
}

// BenchmarkCheckFile measures the consistency check Open runs on an
// existing file, on a database of 20,000 finished 60-move games with their
// accounts (about the history of a busy year), and reports its speed in
// MB/s, which is what DefaultCheckTime is sized from.
func BenchmarkCheckFile(b *testing.B) {
	path, info := yearOfGames(b)
	var res checkResult
	var err error
	n := 0
	for b.Loop() { // b.Loop builds the file once, however long the run
		if res, err = checkFile(path, time.Hour); err != nil || !res.complete {
			b.Fatalf("check: %+v, %v", res, err)
		}
		n++
	}
	b.ReportMetric(float64(info.Size())/1e6, "MB")
	b.ReportMetric(float64(res.pages), "pages")
	b.ReportMetric(float64(info.Size())/1e6*float64(n)/b.Elapsed().Seconds(), "MB/s")
}

// commitCounter is an Observer counting commits, the writes they carried
// and the time they took.
type commitCounter struct{ commits, writes, nanos atomic.Int64 }

// openCounted opens a new file whose commits counter counts, closed when
// the test or benchmark ends.
func openCounted(tb testing.TB) (*DB, *commitCounter) {
	tb.Helper()
	counter := &commitCounter{}
	opt := quietOptions()
	opt.Observer = counter
	db, err := Open(filepath.Join(tb.TempDir(), "codebreakers.db"), opt)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = db.Close() })
	return db, counter
}

func (c *commitCounter) Commit(writes int, took time.Duration, _ error) {
	c.commits.Add(1)
	c.writes.Add(int64(writes))
	c.nanos.Add(int64(took))
}

// cpuTime is the process's user and system CPU so far (the fsyncs' kernel
// work included).
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkAppendMoveContended measures one durable move's cost when
// writers tables append at once to a file shaped like a busy server's: 2,000
// live games of 20 moves and 2,000 finished ones (whose live logs were
// deleted, so the file has free pages). It reports the process's CPU per
// move (fsyncs included), the writes each commit carried, and the pages
// each commit wrote (meta and free-page list included).
func BenchmarkAppendMoveContended(b *testing.B) {
	for _, writers := range []int{1, 16, 256} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			db, counter := openCounted(b)
			busyFile(b, db, 2000, 2000, 20)
			ids := startGames(b, db, writers)
			m := move(1, `{"ask":3,"answer":"2 (b, d)"}`)
			commits0, writes0 := counter.commits.Load(), counter.writes.Load()
			st0 := db.bolt.Stats()
			pages0 := st0.TxStats.GetWrite()
			b.ResetTimer()
			cpu0 := cpuTime(b)
			appendAll(b, db, ids, m)
			cpu := cpuTime(b) - cpu0
			b.StopTimer()
			commits := counter.commits.Load() - commits0
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/move")
			b.ReportMetric(float64(counter.writes.Load()-writes0)/float64(commits), "writes/commit")
			st := db.bolt.Stats()
			b.ReportMetric(float64(st.TxStats.GetWrite()-pages0)/float64(commits), "pages/commit")
		})
	}
}

// busyFile fills db with live games of moves moves each and finished games
// (started live, then finished), 64 writers at a time so the setup shares
// commits.
func busyFile(b *testing.B, db *DB, live, finished, moves int) {
	b.Helper()
	var wg sync.WaitGroup
	var n atomic.Int64
	for range 64 {
		wg.Go(func() {
			for {
				i := int(n.Add(1)) - 1
				if i >= live+finished {
					return
				}
				id := fmt.Sprintf("B%07d", i)
				g := sampleLive(id)
				if err := db.StartGame(g); err != nil {
					b.Error(err)
					return
				}
				for j := range moves {
					if err := db.AppendMove(id, j, move(j%3, `{"ask":3,"answer":"2 (b, d)"}`)); err != nil {
						b.Error(err)
						return
					}
				}
				if i >= live {
					if err := db.FinishGame(finishedSample(id, moves)); err != nil {
						b.Error(err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
}

// BenchmarkOpenFreelist weighs bbolt's NoFreelistSync, which spares every
// commit writing the free-page list, by its price: without a stored list,
// every Open walks every page of the file to rebuild it. The file is the
// one BenchmarkCheckFile checks (20,000 finished 60-move games); "synced"
// opens it with its list stored (how this package writes), "rebuilt" with
// none.
func BenchmarkOpenFreelist(b *testing.B) {
	path, info := yearOfGames(b)
	for _, noSync := range []bool{false, true} {
		name := map[bool]string{false: "synced", true: "rebuilt"}[noSync]
		b.Run(name, func(b *testing.B) {
			opt := &bolt.Options{NoFreelistSync: noSync}
			if noSync { // drop the stored list once, as a NoFreelistSync commit does
				bdb, err := bolt.Open(path, 0o600, opt)
				if err != nil {
					b.Fatal(err)
				}
				if err := bdb.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte(bucketMeta)).Put([]byte("x"), nil) }); err != nil {
					b.Fatal(err)
				}
				if err := bdb.Close(); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				bdb, err := bolt.Open(path, 0o600, opt)
				if err != nil {
					b.Fatal(err)
				}
				if err := bdb.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(info.Size())/1e6, "MB")
		})
	}
}

// floorGame is one table's game in BenchmarkFloorMoves: its id, the moves
// stored so far and the length at which it finishes. mu keeps one table's
// writes in order, as its goroutine does.
type floorGame struct {
	mu     sync.Mutex
	live   LiveGame
	next   int
	length int
}

// floor is the 2,000-table floor's games over one file (newFloor).
type floor struct {
	db      *DB
	games   []floorGame
	started atomic.Int64
	moves   []engine.Move
}

// newFloor starts the floor's 2,000 games in db, beside 2,000 finished
// ones, each live game part way through so that finishes come spread out.
func newFloor(b *testing.B, db *DB) *floor {
	const tables = 2000
	busyFile(b, db, 0, 2000, 20)
	f := &floor{db: db, games: make([]floorGame, tables), moves: make([]engine.Move, 60)}
	for i := range f.moves {
		f.moves[i] = move(i%3, `{"ask":3,"answer":"2 (b, d)"}`)
	}
	var wg sync.WaitGroup
	var n atomic.Int64
	for range 64 {
		wg.Go(func() {
			for i := int(n.Add(1)) - 1; i < tables; i = int(n.Add(1)) - 1 {
				g := &f.games[i]
				f.start(b, g)
				for range i * 7 % g.length {
					f.turn(b, g)
				}
			}
		})
	}
	wg.Wait()
	return f
}

// start puts a new game with a fresh random id at g's table, seating two
// of 4,000 accounts.
func (f *floor) start(b *testing.B, g *floorGame) {
	const accounts = 4000
	id, err := f.db.NewGameID()
	if err != nil {
		b.Fatal(err)
	}
	n := f.started.Add(1)
	lg := sampleLive(id)
	lg.Seats[0].AccountID = fmt.Sprintf("SHA256:acct%05d", n%accounts)
	lg.Seats[2].AccountID = fmt.Sprintf("SHA256:acct%05d", (n+accounts/2+1)%accounts)
	if err := f.db.StartGame(lg); err != nil {
		b.Fatal(err)
	}
	g.live, g.next, g.length = lg, 0, 30+int(n*7919%31)
}

// turn is one table's turn: a move, or once its game is long enough a
// finish (its whole record, stats and index) and a new game in its place.
func (f *floor) turn(b *testing.B, g *floorGame) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.next < g.length {
		if err := f.db.AppendMove(g.live.ID, g.next, f.moves[1]); err != nil {
			b.Error(err)
		}
		g.next++
		return
	}
	fg := FinishedGame{LiveGame: g.live, Result: engine.Result{Winners: []engine.Seat{0}, Summary: "Ann won."}}
	fg.Record.Moves = f.moves[:g.length]
	if err := f.db.FinishGame(fg); err != nil {
		b.Error(err)
	}
	f.start(b, g)
}

// floorMetrics measures the file's commits over a part of a benchmark.
type floorMetrics struct {
	db                            *DB
	counter                       *commitCounter
	commits, writes, nanos, pages int64
	cpu                           time.Duration
}

func measureFloor(b *testing.B, db *DB, counter *commitCounter) *floorMetrics {
	st := db.bolt.Stats()
	return &floorMetrics{db: db, counter: counter, commits: counter.commits.Load(), writes: counter.writes.Load(),
		nanos: counter.nanos.Load(), pages: int64(st.TxStats.GetWrite()), cpu: cpuTime(b)}
}

// report reports the process's CPU per op (fsyncs included), writes and
// pages per commit, and the mean commit's duration since m was taken.
func (m *floorMetrics) report(b *testing.B, ops int) {
	cpu := cpuTime(b) - m.cpu
	commits := m.counter.commits.Load() - m.commits
	st := m.db.bolt.Stats()
	b.ReportMetric(float64(cpu.Microseconds())/float64(ops), "cpu-µs/op")
	b.ReportMetric(float64(m.counter.writes.Load()-m.writes)/float64(commits), "writes/commit")
	b.ReportMetric(float64(int64(st.TxStats.GetWrite())-m.pages)/float64(commits), "pages/commit")
	b.ReportMetric(float64(m.counter.nanos.Load()-m.nanos)/1e6/float64(commits), "ms/commit")
}

// benchFloor runs b.N ops on a fresh floor, writers callers at once, op
// doing the i-th, and reports what measureFloor measured.
func benchFloor(b *testing.B, writers int, op func(f *floor, i int64)) {
	db, counter := openCounted(b)
	f := newFloor(b, db)
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	m := measureFloor(b, db, counter)
	for range writers {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(b.N); i = next.Add(1) - 1 {
				op(f, i)
			}
		})
	}
	wg.Wait()
	m.report(b, b.N)
	b.StopTimer()
}

// BenchmarkFloorMoves models the 2,000-table floor's writes: 2,000 live
// games each appending in turn (every game's moves interleaved with all the
// others'), each game finishing after 30 to 60 moves (FinishGame with its
// whole record, stats and index under two of 4,000 accounts) and a new game
// with a fresh random id starting in its place, with writers callers in
// flight at once. The file starts as a busy server's: 2,000 finished games
// beside the live ones, each live game part way through. One op is one
// table's turn: a move, or a finish and a start. It reports the process's
// CPU per op (fsyncs included), writes and pages per commit, and the mean
// commit's duration.
func BenchmarkFloorMoves(b *testing.B) {
	for _, writers := range []int{4, 16} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			benchFloor(b, writers, func(f *floor, i int64) {
				f.turn(b, &f.games[i%int64(len(f.games))])
			})
		})
	}
}

// BenchmarkFloorPaced is BenchmarkFloorMoves with the turns coming as the
// floor's do, not as fast as the file takes them: at random (Poisson)
// times, rate a second on average (the 2,000-table play stores ~560 writes
// a second), each from a table whose previous turn is long done. Besides
// the CPU per op and the commits' fill it reports the writer goroutine's
// own CPU per write (writer-µs/write: bbolt's commits, fsyncs included,
// without the benchmark's callers) and each turn's latency from its
// arrival to its durable answer (p50, p99), which the writer's gathering
// (gatherGap; gap=0 turns it off) trades against fuller commits.
func BenchmarkFloorPaced(b *testing.B) {
	const rate = 560.0
	for _, gap := range []time.Duration{0, gatherGap} {
		b.Run(fmt.Sprintf("gap=%v", gap), func(b *testing.B) {
			db, counter := openCounted(b)
			f := newFloor(b, db)
			onWriter(b, db, func() { db.gatherGap = gap })
			writerCPU := func() (cpu time.Duration, ok bool) {
				onWriter(b, db, func() { cpu, ok = threadCPU() })
				return cpu, ok
			}
			rng := rand.New(rand.NewPCG(1, 2))
			lat := make([]time.Duration, b.N)
			var wg sync.WaitGroup
			b.ResetTimer()
			m := measureFloor(b, db, counter)
			writer0, _ := writerCPU()
			at := time.Now()
			for i := range b.N {
				at = at.Add(time.Duration(rng.ExpFloat64() / rate * float64(time.Second)))
				time.Sleep(time.Until(at))
				arrived := time.Now()
				g := &f.games[rng.IntN(len(f.games))]
				wg.Go(func() {
					f.turn(b, g)
					lat[i] = time.Since(arrived)
				})
			}
			wg.Wait()
			m.report(b, b.N)
			if writer, ok := writerCPU(); ok {
				b.ReportMetric(float64((writer-writer0).Microseconds())/float64(counter.writes.Load()-m.writes), "writer-µs/write")
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1e3, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1e3, "p99-ms")
		})
	}
}

// onWriter runs fn on db's writer goroutine, between two commits: there it
// may change what the writer reads (gatherGap) without a race.
func onWriter(b *testing.B, db *DB, fn func()) {
	b.Helper()
	if err := db.write(func(*bolt.Tx) error { fn(); return nil }); err != nil {
		b.Fatal(err)
	}
}

// threadCPU locks the calling goroutine to its thread (for good: called on
// the writer, whose goroutine ends with the DB) and returns the thread's
// CPU time so far; ok is false where the system cannot tell (not Linux).
func threadCPU() (cpu time.Duration, ok bool) {
	const rusageThread = 1 // RUSAGE_THREAD (Linux)
	runtime.LockOSThread()
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

// BenchmarkFloorGameEnds models the floor's game-end burst: the 2,000
// tables' games end close together, writers at a time, each table storing
// its finished game (record with every move, stats and index under two
// accounts, listing, live header and log dropped) and starting the next
// (a new live header). One op is one table's game end and restart. It
// reports the process's CPU per op (fsyncs included), writes and pages per
// commit, and the mean commit's duration.
func BenchmarkFloorGameEnds(b *testing.B) {
	for _, writers := range []int{64} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			benchFloor(b, writers, func(f *floor, i int64) {
				g := &f.games[i%int64(len(f.games))]
				g.mu.Lock()
				g.length = g.next // ends at its next turn
				g.mu.Unlock()
				f.turn(b, g)
			})
		})
	}
}
