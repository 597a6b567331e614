package storage

import (
	"fmt"
	"os"
	"path/filepath"
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

// openCounted opens a new file whose commits counter counts, closed when b ends.
func openCounted(b *testing.B) (*DB, *commitCounter) {
	b.Helper()
	counter := &commitCounter{}
	opt := quietOptions()
	opt.Observer = counter
	db, err := Open(filepath.Join(b.TempDir(), "codebreakers.db"), opt)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
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

// BenchmarkFloorMoves models the 2,000-table floor's writes: 2,000 live
// games each appending in turn (every game's moves interleaved with all the
// others'), each game finishing after 30 to 60 moves (FinishGame with its
// whole record, stats and index under two of 4,000 accounts) and a new game
// with a fresh random id starting in its place, with writers callers in
// flight at once (the floor's ~3.3 writes a commit). The file starts as a
// busy server's: 2,000 finished games beside the live ones, each live game
// part way through. One op is one table's turn: a move, or a finish and a
// start. It reports the process's CPU per op (fsyncs included), writes and
// pages per commit, and the mean commit's duration.
func BenchmarkFloorMoves(b *testing.B) {
	const tables, accounts = 2000, 4000
	for _, writers := range []int{4, 16} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			db, counter := openCounted(b)
			busyFile(b, db, 0, 2000, 20)
			m := move(1, `{"ask":3,"answer":"2 (b, d)"}`)
			moves := make([]engine.Move, 60)
			for i := range moves {
				moves[i] = move(i%3, `{"ask":3,"answer":"2 (b, d)"}`)
			}
			games := make([]floorGame, tables)
			var started atomic.Int64
			start := func(g *floorGame) {
				id, err := db.NewGameID()
				if err != nil {
					b.Fatal(err)
				}
				n := started.Add(1)
				lg := sampleLive(id)
				lg.Seats[0].AccountID = fmt.Sprintf("SHA256:acct%05d", n%accounts)
				lg.Seats[2].AccountID = fmt.Sprintf("SHA256:acct%05d", (n+accounts/2+1)%accounts)
				if err := db.StartGame(lg); err != nil {
					b.Fatal(err)
				}
				g.live, g.next, g.length = lg, 0, 30+int(n*7919%31)
			}
			turn := func(g *floorGame) {
				g.mu.Lock()
				defer g.mu.Unlock()
				if g.next < g.length {
					if err := db.AppendMove(g.live.ID, g.next, m); err != nil {
						b.Error(err)
					}
					g.next++
					return
				}
				fg := FinishedGame{LiveGame: g.live, Result: engine.Result{Winners: []engine.Seat{0}, Summary: "Ann won."}}
				fg.Record.Moves = moves[:g.length]
				if err := db.FinishGame(fg); err != nil {
					b.Error(err)
				}
				start(g)
			}
			// Every game part way through, so finishes come spread out.
			var wg sync.WaitGroup
			var n atomic.Int64
			for range 64 {
				wg.Go(func() {
					for i := int(n.Add(1)) - 1; i < tables; i = int(n.Add(1)) - 1 {
						g := &games[i]
						start(g)
						for range i * 7 % g.length {
							turn(g)
						}
					}
				})
			}
			wg.Wait()
			commits0, writes0, nanos0 := counter.commits.Load(), counter.writes.Load(), counter.nanos.Load()
			st0 := db.bolt.Stats()
			pages0 := st0.TxStats.GetWrite()
			var op atomic.Int64
			b.ResetTimer()
			cpu0 := cpuTime(b)
			for range writers {
				wg.Go(func() {
					for i := op.Add(1) - 1; i < int64(b.N); i = op.Add(1) - 1 {
						turn(&games[i%tables])
					}
				})
			}
			wg.Wait()
			cpu := cpuTime(b) - cpu0
			b.StopTimer()
			commits := counter.commits.Load() - commits0
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
			b.ReportMetric(float64(counter.writes.Load()-writes0)/float64(commits), "writes/commit")
			st := db.bolt.Stats()
			b.ReportMetric(float64(st.TxStats.GetWrite()-pages0)/float64(commits), "pages/commit")
			b.ReportMetric(float64(counter.nanos.Load()-nanos0)/1e6/float64(commits), "ms/commit")
		})
	}
}
