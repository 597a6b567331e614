package analyst

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/analysis"
	"github.com/codebreakers/codebreakers/engine/analysis/analysistest"
	"github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/engine/coding"
	"github.com/codebreakers/codebreakers/engine/ifthen"
	"github.com/codebreakers/codebreakers/engine/whattherule"
	"github.com/codebreakers/codebreakers/storage"
)

func registry() *engine.Registry {
	return engine.NewRegistry(breakcode.Game{}, coding.Game{}, ifthen.Game{}, whattherule.Game{})
}

func openDB(t *testing.T) *storage.DB {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "codebreakers.db"), storage.Options{Timeout: time.Second, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// finishBotGame plays a seeded bot game of g and stores it as finished.
func finishBotGame(t *testing.T, db *storage.DB, g engine.Game, seed uint64, levels ...string) storage.FinishedGame {
	t.Helper()
	rec := analysistest.BotRecord(t, g, nil, seed, levels...)
	id, err := db.NewGameID()
	if err != nil {
		t.Fatal(err)
	}
	seats := make([]storage.SeatRecord, len(levels))
	for i := range seats {
		seats[i] = storage.SeatRecord{Handle: fmt.Sprintf("bot%d", i), Bot: true}
	}
	live := storage.LiveGame{ID: id, Public: true, Seats: seats, Record: rec, Started: time.Now()}
	if err := db.StartGame(live); err != nil {
		t.Fatal(err)
	}
	st, _, err := engine.Replay(registry(), rec, -1)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := st.Result()
	fg := storage.FinishedGame{LiveGame: live, Result: res}
	if err := db.FinishGame(fg); err != nil {
		t.Fatal(err)
	}
	stored, err := db.Game(id)
	if err != nil {
		t.Fatal(err)
	}
	return stored
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBackgroundAnalysis: games queued as they finish are analysed by the
// worker and stored, exactly as a direct analysis of their records, and
// after each one the worker rests (1−DefaultShare)/DefaultShare times as
// long as it worked (a tenth of one core at most).
func TestBackgroundAnalysis(t *testing.T) {
	db := openDB(t)
	reg := registry()
	games := []storage.FinishedGame{
		finishBotGame(t, db, breakcode.Game{}, 1, "strong", "easy"),
		finishBotGame(t, db, coding.Game{}, 2, "strong", "easy", "strong"),
		finishBotGame(t, db, ifthen.Game{}, 3, "strong", "strong"),
		finishBotGame(t, db, whattherule.Game{}, 4, "strong", "easy", "strong"),
	}
	var mu sync.Mutex
	var rests []time.Duration
	a := New(Config{Games: reg, Store: db, Sleep: func(_ context.Context, d time.Duration) {
		mu.Lock()
		rests = append(rests, d)
		mu.Unlock()
	}})
	for _, g := range games {
		a.Finished(g.ID)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { a.Run(ctx); close(done) }()
	deadline := time.Now().Add(time.Minute)
	for a.Stats().Analysed+a.Stats().Failed < len(games) {
		if time.Now().After(deadline) {
			t.Fatalf("the worker did not analyse the games: %+v", a.Stats())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	if st := a.Stats(); st.Failed != 0 || st.Queued != len(games) || st.Dropped != 0 {
		t.Fatalf("stats %+v", st)
	}
	for _, g := range games {
		stored, err := db.Analysis(g.ID)
		if err != nil {
			t.Fatalf("%s: %v", g.Record.Game, err)
		}
		direct, err := analysis.Analyze(reg, g.Record)
		if err != nil {
			t.Fatal(err)
		}
		if jsonOf(t, stored) != jsonOf(t, direct) || len(stored.Steps) == 0 {
			t.Errorf("%s: the stored analysis differs from a direct one", g.Record.Game)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(rests) != len(games) {
		t.Fatalf("%d rests for %d games", len(rests), len(games))
	}
	busy := a.Stats().Busy
	total := time.Duration(0)
	for _, r := range rests {
		total += r
	}
	want := time.Duration(float64(busy) * (1 - DefaultShare) / DefaultShare)
	if total < want-time.Millisecond || total > want+time.Millisecond {
		t.Errorf("rested %v after working %v; want %v", total, busy, want)
	}
}

// TestReportOnFirstReplay: a game finished without being queued (before
// analyses existed, or while the queue was full) is analysed on its first
// replay, once; an analysis of another version is made again.
func TestReportOnFirstReplay(t *testing.T) {
	db := openDB(t)
	a := New(Config{Games: registry(), Store: db, Queue: 1})
	g := finishBotGame(t, db, breakcode.Game{}, 7, "strong", "strong", "easy")
	other := finishBotGame(t, db, breakcode.Game{}, 8, "easy", "strong")
	a.Finished(other.ID)
	a.Finished(g.ID) // the queue holds one: this one is left for its replay
	if st := a.Stats(); st.Queued != 1 || st.Dropped != 1 {
		t.Fatalf("stats %+v", st)
	}
	if _, err := db.Analysis(g.ID); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("analysis before the replay: %v", err)
	}
	first, err := a.Report(context.Background(), g)
	if err != nil || len(first.Steps) == 0 {
		t.Fatalf("first replay: %v (%d steps)", err, len(first.Steps))
	}
	again, err := a.Report(context.Background(), g)
	if err != nil || jsonOf(t, again) != jsonOf(t, first) || a.Stats().OnDemand != 1 {
		t.Fatalf("second replay analysed again (%+v) or differs: %v", a.Stats(), err)
	}
	stale := first
	stale.Version = analysis.Version - 1
	stale.Steps = nil
	if err := db.SaveAnalysis(g.ID, stale); err != nil {
		t.Fatal(err)
	}
	fresh, err := a.Report(context.Background(), g)
	if err != nil || jsonOf(t, fresh) != jsonOf(t, first) || a.Stats().OnDemand != 2 {
		t.Fatalf("an outdated analysis was not made again: %+v, %v", a.Stats(), err)
	}
}

// TestReportWaitsItsTurn: first-replay analyses run one at a time; a
// caller whose context ends while another runs gets ErrBusy at once.
func TestReportWaitsItsTurn(t *testing.T) {
	db := openDB(t)
	a := New(Config{Games: registry(), Store: db})
	g := finishBotGame(t, db, breakcode.Game{}, 9, "strong", "easy")
	a.onDemand <- struct{}{} // another analysis is running
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := a.Report(ctx, g); !errors.Is(err, ErrBusy) {
		t.Fatalf("Report while busy: %v, want ErrBusy", err)
	}
	<-a.onDemand
	if _, err := a.Report(context.Background(), g); err != nil {
		t.Fatal(err)
	}
}

// TestUnknownGameFailsQuietly: the worker logs a game it cannot read and
// goes on.
func TestUnknownGameFailsQuietly(t *testing.T) {
	db := openDB(t)
	a := New(Config{Games: registry(), Store: db, Sleep: func(context.Context, time.Duration) {}})
	a.Finished("NOPE1")
	g := finishBotGame(t, db, ifthen.Game{}, 5, "strong", "easy")
	a.Finished(g.ID)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { a.Run(ctx); close(done) }()
	for a.Stats().Analysed == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	if st := a.Stats(); st.Failed != 1 || st.Analysed != 1 {
		t.Fatalf("stats %+v", st)
	}
}

// TestWorkerWaitsWhilePlayIsBusy: while Busy says live play needs the
// cores the worker analyses nothing, holds its game (counted deferred once
// and in the backlog) and asks again every BusyWait; once play is quiet it
// analyses the held game and the rest of the queue.
func TestWorkerWaitsWhilePlayIsBusy(t *testing.T) {
	db := openDB(t)
	games := []storage.FinishedGame{
		finishBotGame(t, db, breakcode.Game{}, 11, "strong", "easy"),
		finishBotGame(t, db, breakcode.Game{}, 12, "easy", "strong"),
	}
	var mu sync.Mutex
	busy := true
	var waits []time.Duration
	waited := make(chan struct{}, 100)
	a := New(Config{Games: registry(), Store: db, BusyWait: 250 * time.Millisecond,
		Busy: func() bool { mu.Lock(); defer mu.Unlock(); return busy },
		Sleep: func(ctx context.Context, d time.Duration) {
			mu.Lock()
			waits = append(waits, d)
			mu.Unlock()
			select {
			case waited <- struct{}{}:
			default:
			}
			time.Sleep(time.Millisecond) // no spinning while the test looks
		}})
	for _, g := range games {
		a.Finished(g.ID)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { a.Run(ctx); close(done) }()
	for range 3 { // three rounds of asking while busy
		<-waited
	}
	st := a.Stats()
	if st.Analysed != 0 || st.Deferred != 1 || st.Backlog != 2 {
		t.Fatalf("while play is busy: %+v; want nothing analysed, 1 deferred, a backlog of 2", st)
	}
	mu.Lock()
	for _, d := range waits {
		if d != 250*time.Millisecond {
			t.Errorf("waited %v while busy; want BusyWait", d)
		}
	}
	busy = false
	mu.Unlock()
	deadline := time.Now().Add(time.Minute)
	for a.Stats().Analysed < len(games) {
		if time.Now().After(deadline) {
			t.Fatalf("the worker did not analyse once play was quiet: %+v", a.Stats())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	if st := a.Stats(); st.Deferred != 1 || st.Backlog != 0 || st.Failed != 0 {
		t.Fatalf("after: %+v", st)
	}
	for _, g := range games {
		if _, err := db.Analysis(g.ID); err != nil {
			t.Errorf("%s not analysed: %v", g.ID, err)
		}
	}
}

// TestStopWhileBusyLeavesGameForReplay: a game the worker held when the
// server stopped is not analysed in the background; its first replay
// analyses it.
func TestStopWhileBusyLeavesGameForReplay(t *testing.T) {
	db := openDB(t)
	g := finishBotGame(t, db, breakcode.Game{}, 13, "strong", "easy")
	ctx, cancel := context.WithCancel(context.Background())
	a := New(Config{Games: registry(), Store: db, Busy: func() bool { return true },
		Sleep: func(ctx context.Context, _ time.Duration) { cancel(); <-ctx.Done() }})
	a.Finished(g.ID)
	a.Run(ctx)
	if _, err := db.Analysis(g.ID); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("analysed in the background while play was busy: %v", err)
	}
	rep, err := a.Report(context.Background(), g)
	if err != nil || len(rep.Steps) == 0 || a.Stats().OnDemand != 1 {
		t.Fatalf("first replay: %v, %+v", err, a.Stats())
	}
}

// TestPaceBusyAboveTheLimit: Busy is decided per full window from the
// moves counted in it, and repeated within a window.
func TestPaceBusyAboveTheLimit(t *testing.T) {
	now := time.Unix(0, 0)
	p := newPace(100, time.Second, func() time.Time { return now })
	for range 150 {
		p.Move()
	}
	if p.Busy() {
		t.Fatal("busy before a full window passed")
	}
	now = now.Add(time.Second)
	if !p.Busy() || p.Rate() != 150 {
		t.Fatalf("150 moves in a second with a limit of 100: busy %v, rate %v", p.Busy(), p.Rate())
	}
	for range 50 {
		p.Move()
	}
	now = now.Add(500 * time.Millisecond)
	if !p.Busy() {
		t.Fatal("the verdict changed within a window")
	}
	now = now.Add(500 * time.Millisecond)
	if p.Busy() || p.Rate() != 50 {
		t.Fatalf("50 moves in the next second: busy %v, rate %v", p.Busy(), p.Rate())
	}
	off := newPace(0, time.Second, func() time.Time { return now })
	for range 1000 {
		off.Move()
	}
	now = now.Add(time.Second)
	if off.Busy() {
		t.Fatal("a pace with no limit said busy")
	}
}
