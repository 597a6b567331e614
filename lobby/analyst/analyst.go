// Package analyst analyses finished games off the tables and keeps the
// analyses with the games.
//
// After a game finishes, Finished queues its id; one worker goroutine
// replays it, analyses it (engine/analysis) and stores the report, then
// rests for a multiple of the time it worked, so analysis never takes more
// than a fixed share of one core (Config.Share) whatever the rate of
// finished games, and live tables keep the rest. The queue is bounded: a
// game that does not fit, a game finished while the server was down, or one
// finished before analyses existed is analysed when it is first replayed
// (Report), by at most one such request at a time.
//
// Live play comes first: while Config.Busy says the tables are busy (a
// Pace over the moves played, say), the worker holds its next game and
// waits instead of analysing, so the games wait in the queue (counted as
// deferred; the queue's length is the backlog) and, once it is full, are
// left for their first replay. A game still queued when the server stops
// is likewise analysed on its first replay.
package analyst

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/analysis"
	"github.com/codebreakers/codebreakers/storage"
)

// Store is what the analyst reads and writes (*storage.DB satisfies it).
type Store interface {
	Game(id string) (storage.FinishedGame, error)
	Analysis(id string) (analysis.Report, error)
	SaveAnalysis(id string, rep analysis.Report) error
}

// DefaultShare is the background worker's share of one core unless
// configured: a tenth, which analyses 200–300 finished games a minute
// beside 500 busy tables while leaving their p99 keypress-to-screen where
// it is without analysis; a quarter kept up with 450–550 a minute but
// raised that p99 by a third (BENCHMARKS.md, "Analysis beside live tables").
const DefaultShare = 0.10

// Config configures an Analyst. Games and Store are required.
type Config struct {
	Games  *engine.Registry
	Store  Store
	Logger *slog.Logger
	// Share is the most of one core the background worker uses, between 0
	// and 1 (default DefaultShare): after each analysis it rests (1−Share)/Share
	// times as long as the analysis took.
	Share float64
	// Queue is how many finished games may wait for the worker (default
	// 1,024); more are left to be analysed on first replay.
	Queue int
	// Work is the budget of one analysis (default analysis.DefaultWork).
	Work int64
	// Sleep waits d or until ctx ends (tests replace it).
	Sleep func(ctx context.Context, d time.Duration)
	// Busy, when set, says live play needs the cores now: the worker does
	// not start an analysis while it returns true, and asks again every
	// BusyWait. Nil: never busy.
	Busy func() bool
	// BusyWait is how long the worker waits before asking Busy again
	// (default 1s).
	BusyWait time.Duration
}

// Analyst is the background analysis worker and the one way to get a
// finished game's analysis.
type Analyst struct {
	cfg   Config
	queue chan string
	// onDemand lets one first-replay analysis run at a time.
	onDemand chan struct{}
	mu       sync.Mutex
	stats    Stats
	// holding says the worker holds a game while play is busy (guarded
	// by mu, like stats).
	holding bool
}

// Stats counts what the analyst did (for tests and metrics).
type Stats struct {
	Queued, Dropped, Analysed, OnDemand, Failed int
	// Deferred counts games whose background analysis waited because live
	// play was busy (each game once, however long it waited).
	Deferred int
	// Backlog is how many queued games wait for the worker now, the one
	// it holds while play is busy included.
	Backlog int
	// Busy is the time spent analysing, in the background and on demand.
	Busy time.Duration
}

// New returns an analyst; call Run to start its background worker.
func New(cfg Config) *Analyst {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Share <= 0 || cfg.Share > 1 {
		cfg.Share = DefaultShare
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 1024
	}
	if cfg.Work <= 0 {
		cfg.Work = analysis.DefaultWork
	}
	if cfg.BusyWait <= 0 {
		cfg.BusyWait = time.Second
	}
	if cfg.Sleep == nil {
		cfg.Sleep = func(ctx context.Context, d time.Duration) {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-ctx.Done():
			case <-t.C:
			}
		}
	}
	return &Analyst{cfg: cfg, queue: make(chan string, cfg.Queue), onDemand: make(chan struct{}, 1)}
}

// Finished queues a finished game for analysis without ever blocking: when
// the queue is full the game is left for its first replay.
func (a *Analyst) Finished(id string) {
	select {
	case a.queue <- id:
		a.count(func(s *Stats) { s.Queued++ })
	default:
		a.count(func(s *Stats) { s.Dropped++ })
	}
}

// Run analyses queued games until ctx ends.
func (a *Analyst) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case id := <-a.queue:
			if !a.waitForQuiet(ctx) {
				return // id stays unanalysed: its first replay analyses it
			}
			took, err := a.analyse(id)
			if err != nil {
				a.count(func(s *Stats) { s.Failed++ })
				a.cfg.Logger.Warn("analysis", "game", id, "err", err)
			} else {
				a.count(func(s *Stats) { s.Analysed++ })
			}
			a.cfg.Sleep(ctx, time.Duration(float64(took)*(1-a.cfg.Share)/a.cfg.Share))
		}
	}
}

// waitForQuiet holds the game the worker took while live play is busy,
// counting it deferred once and in the backlog meanwhile. It reports false
// when ctx ended first.
func (a *Analyst) waitForQuiet(ctx context.Context) bool {
	if a.cfg.Busy == nil || !a.cfg.Busy() {
		return ctx.Err() == nil
	}
	a.mu.Lock()
	a.stats.Deferred++
	a.holding = true
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.holding = false
		a.mu.Unlock()
	}()
	for ctx.Err() == nil {
		a.cfg.Sleep(ctx, a.cfg.BusyWait)
		if !a.cfg.Busy() {
			break
		}
	}
	return ctx.Err() == nil
}

// analyse makes and stores the analysis of game id unless a current one is
// stored, and says how long the work took.
func (a *Analyst) analyse(id string) (time.Duration, error) {
	if rep, err := a.cfg.Store.Analysis(id); err == nil && rep.Version == analysis.Version {
		return 0, nil
	}
	g, err := a.cfg.Store.Game(id)
	if err != nil {
		return 0, fmt.Errorf("analyse %s: %w", id, err)
	}
	_, took, err := a.compute(g)
	return took, err
}

// compute analyses g and stores the report.
func (a *Analyst) compute(g storage.FinishedGame) (analysis.Report, time.Duration, error) {
	start := time.Now()
	an, err := analysis.Of(a.cfg.Games, g.Record)
	if err != nil {
		return analysis.Report{}, 0, err
	}
	rep, err := an.Analyze(g.Record, analysis.NewBudget(a.cfg.Work))
	took := time.Since(start)
	a.count(func(s *Stats) { s.Busy += took })
	if err != nil {
		return analysis.Report{}, took, fmt.Errorf("analyse %s: %w", g.ID, err)
	}
	if err := a.cfg.Store.SaveAnalysis(g.ID, rep); err != nil {
		return rep, took, fmt.Errorf("store analysis %s: %w", g.ID, err)
	}
	return rep, took, nil
}

// ErrBusy means another first-replay analysis is running and ctx ended
// before it finished.
var ErrBusy = errors.New("analysis busy")

// Report returns the analysis of finished game g: the stored one, or one
// made now (and stored) when it has none or an outdated one. Analyses made
// now run one at a time; a caller whose ctx ends while waiting gets ErrBusy.
func (a *Analyst) Report(ctx context.Context, g storage.FinishedGame) (analysis.Report, error) {
	if rep, err := a.cfg.Store.Analysis(g.ID); err == nil && rep.Version == analysis.Version {
		return rep, nil
	} else if err != nil && !errors.Is(err, storage.ErrNotFound) {
		a.cfg.Logger.Warn("read analysis", "game", g.ID, "err", err)
	}
	select {
	case a.onDemand <- struct{}{}:
	case <-ctx.Done():
		return analysis.Report{}, ErrBusy
	}
	defer func() { <-a.onDemand }()
	// Another request may have made it while this one waited.
	if rep, err := a.cfg.Store.Analysis(g.ID); err == nil && rep.Version == analysis.Version {
		return rep, nil
	}
	rep, _, err := a.compute(g)
	a.count(func(s *Stats) { s.OnDemand++ })
	if err != nil && rep.Version == analysis.Version {
		// Made but not stored (a full disk, say): still worth showing.
		a.cfg.Logger.Warn("analysis", "game", g.ID, "err", err)
		return rep, nil
	}
	return rep, err
}

// Stats returns what the analyst has done so far.
func (a *Analyst) Stats() Stats {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.stats
	s.Backlog = len(a.queue)
	if a.holding {
		s.Backlog++
	}
	return s
}

func (a *Analyst) count(f func(*Stats)) {
	a.mu.Lock()
	f(&a.stats)
	a.mu.Unlock()
}
