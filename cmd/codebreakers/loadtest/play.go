package loadtest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/internal/seen"
)

// Players' terminals are the size the game board is laid out for.
const playW, playH = 100, 30

var (
	readyRe = regexp.MustCompile(`g\d+\s+(✓ )?ready`)
	botsRe  = regexp.MustCompile(`Bots\s+‹ 1 ›`)
)

// PlayReport holds the figures of the playing phase.
type PlayReport struct {
	Tables     int `json:"tables"`
	Players    int `json:"players"`
	Spectators int `json:"spectators"`
	// SetupSec is how long it took to seat everyone.
	SetupSec float64 `json:"setup_sec"`
	// Actions is how many player actions were timed, over Seconds.
	Actions       int64   `json:"actions"`
	Seconds       float64 `json:"seconds"`
	ActionsPerSec float64 `json:"actions_per_sec"`
	Games         int64   `json:"games_finished"`
	// Latency is keypress to updated screen at every seat and spectator of
	// the table; Actor is the same at the player who pressed the key,
	// which includes the action's durable write to bbolt.
	Latency Latency `json:"latency_every_screen"`
	Actor   Latency `json:"latency_actor"`
	// OverTime is Latency by when the keypress was made, in windows of
	// latencyWindow from the start of play: it tells a burst from a
	// steady tail.
	OverTime []Window `json:"latency_every_screen_over_time,omitempty"`
	// CollectionsAtSec is when the server's garbage collections ended
	// (the count its /metrics gives grows as a cycle's marking ends), in
	// seconds from the start of play, to within half a second. Each
	// cycle's marking ran in the seconds before.
	CollectionsAtSec []float64 `json:"server_collections_at_sec,omitempty"`
	Errors           int       `json:"errors"`
	Samples          []string  `json:"error_samples,omitempty"`
	// Server process figures during play.
	CPUPercent float64 `json:"server_cpu_percent_of_core"`
	RSSMB      float64 `json:"server_rss_mb"`
	// CPUPerMoveMs is the server's CPU per move accepted at any table
	// (people's and bots'), from CPUPercent and the server's own count.
	CPUPerMoveMs float64 `json:"server_cpu_ms_per_move,omitempty"`
	// MachineBusy is how busy all cores were (percent); GeneratorCPU is
	// this load generator's own share (percent of one core).
	MachineBusy  float64 `json:"machine_busy_percent"`
	GeneratorCPU float64 `json:"generator_cpu_percent_of_core"`
	// Server is from the server's /metrics, when it has them.
	Server *ServerMetrics `json:"server_metrics,omitempty"`
	// Finish is what the extra tables of -finish-games did (nil without).
	Finish *FinishReport `json:"finish_games,omitempty"`
}

// FinishReport says how the extra tables that each play one quick game
// (Config.FinishGames) went: their games reach the server's analyst
// through the same path as every finished game.
type FinishReport struct {
	Tables int `json:"tables_seated"`
	// Finished counts games finished within WindowSec of the start of the
	// play; Late those finished after it.
	Finished  int     `json:"finished_in_window"`
	Late      int     `json:"finished_late"`
	WindowSec float64 `json:"window_sec"`
	// FirstSec and LastSec are when the first and last game finished,
	// from the start of the play.
	FirstSec float64 `json:"first_finished_sec"`
	LastSec  float64 `json:"last_finished_sec"`
	// Game is how long one game took, start to finish.
	Game Latency `json:"game_length"`
	// Unfinished counts games still on when the play ended; Errors games
	// that could not be played (the first few in Samples).
	Unfinished int      `json:"unfinished"`
	Errors     int      `json:"errors"`
	Samples    []string `json:"error_samples,omitempty"`
}

// table is one simulated table: a host, a guest who joins by code, a bot
// seated by the host, and maybe a spectator.
type table struct {
	i           int
	rng         *rand.Rand // the table's players' pauses (seeded: Config.Seed)
	host, guest *client
	spectators  []*client
	asks        map[*client]int
	// spliced marks the sessions carried to the table's node from another
	// node of a cluster (the guest of a crossed table).
	spliced map[*client]bool
}

// latencySplit times keypresses apart for sessions on the table's own node
// and sessions spliced from another node (cluster runs only).
type latencySplit struct {
	localActor, splicedActor, localEvery, splicedEvery samples
}

func (tb *table) players() []*client { return []*client{tb.host, tb.guest} }

func (tb *table) observers() []*client {
	return append(tb.players(), tb.spectators...)
}

func (tb *table) close() {
	for _, c := range tb.observers() {
		if c != nil {
			c.close()
		}
	}
}

// startOwnProfile starts this process's CPU profile into path (nothing
// when path is empty) and returns what stops it and closes the file.
func startOwnProfile(path string) (stop func() error, err error) {
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("generator CPU profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("generator CPU profile: %w", err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return fmt.Errorf("generator CPU profile: %w", err)
		}
		return nil
	}, nil
}

// startServerProfile fetches the server's CPU profile over the play into
// cfg.CPUProfile, in the background, when one is asked for and the server
// has a pprof listener (which -heapprofile or -echo-trace alone also give
// it). The returned wait gives the file written, "" when none was asked.
func startServerProfile(ctx context.Context, cfg Config, pprofAddr string) (wait func() (string, error)) {
	if pprofAddr == "" || cfg.CPUProfile == "" {
		return func() (string, error) { return "", nil }
	}
	// The profile covers all of the play but its last few seconds, so it
	// is in hand when the tables stop.
	secs := max(1, int(cfg.PlayTime.Seconds())-5)
	done := make(chan error, 1)
	go func() { done <- saveProfile(ctx, pprofAddr, secs, cfg.CPUProfile) }()
	return func() (string, error) {
		if err := <-done; err != nil {
			return "", err
		}
		return cfg.CPUProfile, nil
	}
}

// runPlay seats Tables tables, lets them play for PlayTime, and reports.
func runPlay(ctx context.Context, cfg Config, t *target) (*PlayReport, error) {
	r := &PlayReport{Tables: cfg.Tables, Players: 2 * cfg.Tables, Spectators: min(cfg.Spectators, cfg.Tables)}
	errs := &errorLog{}
	var tick <-chan time.Time
	if cfg.Rate > 0 {
		// Each table opens two or three sessions.
		tk := time.NewTicker(time.Duration(float64(2*time.Second) / cfg.Rate))
		defer tk.Stop()
		tick = tk.C
	}
	start := time.Now()
	local := func(int) (string, string) { return t.addr, t.addr }
	// Timings and counts are of the play window only: with PlayAsSeated
	// the tables already play while the others are seated, and what they
	// do before every table is seated is not counted.
	every, actor := &samples{}, &samples{}
	var actions, games atomic.Int64
	var wg sync.WaitGroup
	playAll, stopAll := context.WithCancel(ctx)
	defer stopAll()
	play := func(tb *table) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			playTable(playAll, cfg, tb, every, actor, nil, &actions, &games, errs)
		}()
	}
	var seated func(*table)
	if cfg.PlayAsSeated {
		every.from.Store(math.MaxInt64) // nothing timed until every table is seated
		actor.from.Store(math.MaxInt64)
		seated = play
	}
	tables := seatTables(ctx, cfg, tick, errs, 0, true, local, seated)
	var finishers []*table
	if cfg.FinishGames > 0 {
		// Seated now, started during the play: no spectators, handles
		// numbered after the tables'.
		fcfg := cfg
		fcfg.Tables, fcfg.Spectators = cfg.FinishGames, 0
		finishers = seatTables(ctx, fcfg, tick, errs, cfg.Tables, false, local, nil)
	}
	r.SetupSec = time.Since(start).Seconds()
	fmt.Fprintf(cfg.Log, "play: %d tables (and %d to finish a game each) seated in %.1fs\n", len(tables), len(finishers), r.SetupSec)
	defer func() {
		all := append(tables, finishers...)
		parallel(context.Background(), 64, len(all), func(i int) { all[i].close() })
	}()
	if err := t.alive(); err != nil {
		return r, err
	}

	playCtx, cancel := context.WithTimeout(playAll, cfg.PlayTime)
	defer cancel()
	s1, err := t.stats()
	if err != nil {
		return r, err
	}
	var m1 scrape
	if t.metricsAddr != "" {
		if m1, err = readMetrics(ctx, t.metricsAddr); err != nil {
			errs.add(err)
		}
	}
	t1 := time.Now()
	every.from.Store(t1.UnixNano())
	actor.from.Store(t1.UnixNano())
	actions0, games0 := actions.Load(), games.Load()
	stopAtEnd := context.AfterFunc(playCtx, stopAll) // the early tables play in playAll
	defer stopAtEnd()
	collections := make(chan collectionsSeen, 1)
	if t.metricsAddr != "" {
		go func() { collections <- watchCollections(playCtx, t.metricsAddr, t1, 500*time.Millisecond) }()
	} else {
		collections <- collectionsSeen{}
	}
	meter := startCPUMeter()
	stopProfile, err := startOwnProfile(cfg.GeneratorCPUProfile)
	if err != nil {
		return r, err
	}
	serverProfiled := startServerProfile(ctx, cfg, t.pprofAddr)
	if !cfg.PlayAsSeated {
		for _, tb := range tables {
			play(tb)
		}
	}
	var finished chan finishResult
	if len(finishers) > 0 {
		finished = make(chan finishResult, len(finishers))
		for j, tb := range finishers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				finished <- finishGame(playCtx, cfg, tb, t1, finishStart(cfg, j, len(finishers)))
			}()
		}
	}
	wg.Wait()
	if finished != nil {
		close(finished)
		r.Finish = finishReport(cfg, len(finishers), finished)
		fmt.Fprintf(cfg.Log, "play: %d of %d extra games finished within %s (first at %.1fs, last at %.1fs; a game took p50 %.1fs), %d late, %d errors\n",
			r.Finish.Finished, r.Finish.Tables, cfg.FinishWindow, r.Finish.FirstSec, r.Finish.LastSec, r.Finish.Game.P50/1000, r.Finish.Late+r.Finish.Unfinished, r.Finish.Errors)
	}
	r.MachineBusy, r.GeneratorCPU = meter.stop()
	if err := stopProfile(); err != nil {
		errs.add(err)
	} else if cfg.GeneratorCPUProfile != "" {
		fmt.Fprintf(cfg.Log, "play: generator CPU profile in %s (go tool pprof -top %s)\n", cfg.GeneratorCPUProfile, cfg.GeneratorCPUProfile)
	}
	if t.pprofAddr != "" && cfg.HeapProfile != "" {
		// While every table is still seated: what playing sessions hold.
		path := cfg.HeapProfile + ".play"
		if err := saveHeapProfile(ctx, t.pprofAddr, path); err != nil {
			errs.add(err)
		} else {
			fmt.Fprintf(cfg.Log, "play: heap profile of %d tables in %s\n", len(tables), path)
		}
	}
	if path, err := serverProfiled(); err != nil {
		errs.add(err)
	} else if path != "" {
		fmt.Fprintf(cfg.Log, "play: server CPU profile in %s (go tool pprof -top %s)\n", path, path)
	}
	s2, err := t.stats()
	if err != nil {
		return r, err
	}
	r.Seconds = time.Since(t1).Seconds()
	seen := <-collections // the play has ended: so has the watch
	r.CollectionsAtSec = seen.at
	if m1 != nil {
		if m2, err := readMetrics(ctx, t.metricsAddr); err != nil {
			errs.add(err)
		} else {
			r.Server = serverMetrics(m1, m2, seen.last, r.Seconds)
		}
	}
	r.CPUPercent = float64((s2.CPU - s1.CPU).Microseconds()) / r.Seconds / 1e4
	r.RSSMB = mb(s2.RSS)
	r.Actions, r.Games = actions.Load()-actions0, games.Load()-games0
	r.ActionsPerSec = float64(r.Actions) / r.Seconds
	r.Latency, r.Actor = every.summary(), actor.summary()
	r.OverTime = every.windows(t1, latencyWindow)
	r.Errors, r.Samples = errs.count()
	fmt.Fprintf(cfg.Log, "play: %d actions (%.0f/s), %d games, every screen p50 %.1f p99 %.1f max %.1f ms, %d errors\n",
		r.Actions, r.ActionsPerSec, r.Games, r.Latency.P50, r.Latency.P99, r.Latency.Max, r.Errors)
	for _, w := range r.OverTime {
		fmt.Fprintf(cfg.Log, "play: keys pressed from %3.0fs: every screen p50 %.1f p99 %.1f max %.1f ms (n=%d)\n",
			w.FromSec, w.P50, w.P99, w.Max, w.N)
	}
	if len(r.CollectionsAtSec) > 0 {
		fmt.Fprintf(cfg.Log, "play: the server's collections ended (marking done) at %s s of the play\n", formatSeconds(r.CollectionsAtSec))
	}
	if m := r.Server; m != nil && m.Moves > 0 {
		r.CPUPerMoveMs = r.CPUPercent / 100 * r.Seconds / m.Moves * 1000
		fmt.Fprintf(cfg.Log, "play: server %d moves, %.2f ms CPU, %.0f KB and %.0f allocations per move; %.0f collections, heap %.0f MB\n",
			int64(m.Moves), r.CPUPerMoveMs, m.AllocKBPerMove, m.AllocsPerMove, m.GCs, m.HeapMB)
	}
	if m := r.Server; m != nil && m.GC != nil {
		for _, line := range m.GC.lines(m.GCs, r.CPUPercent/100*r.Seconds) {
			fmt.Fprintf(cfg.Log, "play: %s\n", line)
		}
	}
	return r, t.alive()
}

// seatTables sets up cfg.Tables tables numbered from first, table i with
// its host on the first address where(i) gives and its guest on the
// second, paced by tick (nil: as fast as cfg.Concurrency allows), and
// starts their games when start is set. Failures go to errs.
//
// seated, when not nil, is called with each table as soon as it is seated
// (and started), from the goroutine that seated it.
func seatTables(ctx context.Context, cfg Config, tick <-chan time.Time, errs *errorLog, first int, start bool, where func(i int) (host, guest string), seated func(*table)) []*table {
	var mu sync.Mutex
	var tables []*table
	parallelPaced(ctx, cfg.Concurrency, cfg.Tables, tick, func(i int) {
		i += first
		host, guest := where(i)
		tb, err := setUpTable(ctx, cfg, host, guest, i)
		if err == nil && start {
			err = startGame(ctx, cfg, tb)
		}
		if err != nil {
			errs.add(fmt.Errorf("table %d setup: %w", i, err))
			if tb != nil {
				tb.close()
			}
			return
		}
		mu.Lock()
		tables = append(tables, tb)
		mu.Unlock()
		if seated != nil {
			seated(tb)
		}
	})
	return tables
}

// setUpTable has the host create a private Break the Code table of three
// seats with one bot, the guest join by code and get ready, and a
// spectator watch (for the first Spectators tables); startGame starts it.
func setUpTable(ctx context.Context, cfg Config, addr, guestAddr string, i int) (*table, error) {
	lim := cfg.StepTimeout
	o := dialOptions{addr: addr, timeout: lim, w: playW, h: playH, vt: cfg.VTEmulator}
	tb := &table{i: i, asks: map[*client]int{}, spliced: map[*client]bool{},
		rng: rand.New(rand.NewPCG(cfg.Seed, uint64(i)))}
	var err error
	register := func(c *client, handle string) error {
		if _, err := c.waitFor(ctx, lim, "Choose a handle"); err != nil {
			return err
		}
		return c.send(handle, keyEnter)
	}
	if tb.host, err = openClient(ctx, fmt.Sprintf("h%d", i), o); err != nil {
		return tb, err
	}
	if err := register(tb.host, fmt.Sprintf("h%d", i)); err != nil {
		return tb, err
	}
	h := tb.host
	steps := []func() error{
		func() error { _, err := h.waitFor(ctx, lim, "Create a table"); return err },
		func() error { return h.send(keyDown, keyDown, keyEnter) }, // third: under Quick play and Play people
		func() error { _, err := h.waitFor(ctx, lim, "CREATE A TABLE", "Break the Code"); return err },
		func() error { return h.send(keyEnter) },
		func() error { _, err := h.waitFor(ctx, lim, "CREATE A TABLE", "Bots"); return err },
		func() error { return h.send(keyDown, keyRight) },
		func() error { _, err := h.waitUntil(ctx, "one bot", lim, botsRe.MatchString); return err },
		func() error {
			// From Bots: bot level, aid, table, create. The aid (counts of
			// the hands each seat may hold) is the costliest part of a view.
			if cfg.AidOff {
				return h.send(keyDown, keyDown, keyRight, keyDown, keyDown, keyEnter)
			}
			return h.send(keyDown, keyDown, keyDown, keyDown, keyEnter)
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return tb, fmt.Errorf("create: %w", err)
		}
	}
	s, err := h.waitUntil(ctx, "a join code", lim, seen.HasJoinCode)
	if err != nil {
		return tb, err
	}
	code, _ := seen.JoinCode(s)

	o.command = "join " + code
	o.addr = guestAddr // in a cluster, maybe another node: the session is carried to the table
	if tb.guest, err = openClient(ctx, fmt.Sprintf("g%d", i), o); err != nil {
		return tb, err
	}
	tb.spliced[tb.guest] = guestAddr != addr
	o.addr = addr
	if err := register(tb.guest, fmt.Sprintf("g%d", i)); err != nil {
		return tb, err
	}
	if _, err := tb.guest.waitFor(ctx, lim, "waiting for players"); err != nil {
		return tb, err
	}
	if err := tb.guest.send("r"); err != nil {
		return tb, err
	}
	if _, err := h.waitUntil(ctx, "guest ready", lim, readyRe.MatchString); err != nil {
		return tb, err
	}
	if i < cfg.Spectators {
		o.command = "watch " + code
		sp, err := openClient(ctx, fmt.Sprintf("s%d", i), o)
		if err != nil {
			return tb, err
		}
		tb.spectators = append(tb.spectators, sp)
		if err := register(sp, fmt.Sprintf("s%d", i)); err != nil {
			return tb, err
		}
		if _, err := sp.waitFor(ctx, lim, "You are watching"); err != nil {
			return tb, err
		}
	}
	return tb, nil
}

// startGame has the host of a seated table start its game and waits until
// every screen shows the first turn.
func startGame(ctx context.Context, cfg Config, tb *table) error {
	if err := tb.host.send("s"); err != nil {
		return err
	}
	for _, c := range tb.observers() {
		if _, err := c.waitUntil(ctx, "the game to start", cfg.StepTimeout, seen.HasTurn); err != nil {
			return err
		}
	}
	if aid := strings.Contains(tb.host.screen(), "possible"); aid == cfg.AidOff {
		return fmt.Errorf("the board does not show the aid as asked (aid off: %v)", cfg.AidOff)
	}
	return nil
}

// finishThink is the pause of a player at a table that plays one quick game.
const finishThink = 200 * time.Millisecond

// finishStart is when the j-th of n quick games starts, from the start of
// the play: spread evenly over the first half of the window, so that the
// games, each some bot turns long, finish within it.
func finishStart(cfg Config, j, n int) time.Duration {
	return time.Duration(int64(cfg.FinishWindow/2) * int64(j) / int64(n))
}

// finishResult is how one quick game went: when it finished, from the
// start of the play, and how long it took.
type finishResult struct {
	at, took time.Duration
	// unfinished: the play ended first; err: the game could not be played.
	unfinished bool
	err        error
}

// finishGame waits until at after play began, starts tb's game and plays it
// quickly to its end (the players' keypresses are not timed), then leaves
// the table seated until ctx ends.
func finishGame(ctx context.Context, cfg Config, tb *table, began time.Time, at time.Duration) finishResult {
	sleep(ctx, time.Until(began.Add(at)))
	if ctx.Err() != nil {
		return finishResult{unfinished: true}
	}
	fcfg := cfg
	fcfg.Think = finishThink
	fcfg.StepTimeout = max(cfg.StepTimeout, cfg.FinishWindow)
	start := time.Now()
	if err := startGame(ctx, fcfg, tb); err != nil {
		return finishResult{err: fmt.Errorf("table %d start: %w", tb.i, err)}
	}
	untimed := &samples{}
	for {
		p, finished, err := waitTurn(ctx, fcfg, tb)
		switch {
		case ctx.Err() != nil:
			return finishResult{unfinished: true}
		case err != nil:
			return finishResult{err: fmt.Errorf("table %d: %w", tb.i, err)}
		case finished:
			now := time.Now()
			return finishResult{at: now.Sub(began), took: now.Sub(start)}
		}
		sleep(ctx, time.Duration(float64(fcfg.Think)*(0.5+tb.rng.Float64())))
		if err := act(ctx, fcfg, tb, p, untimed, untimed, nil); err != nil && ctx.Err() == nil {
			return finishResult{err: fmt.Errorf("table %d: %w", tb.i, err)}
		}
	}
}

// finishReport sums up the quick games of n tables.
func finishReport(cfg Config, n int, results <-chan finishResult) *FinishReport {
	r := &FinishReport{Tables: n, WindowSec: cfg.FinishWindow.Seconds()}
	took := &samples{}
	first, last := time.Duration(-1), time.Duration(0)
	for res := range results {
		switch {
		case res.unfinished:
			r.Unfinished++
			continue
		case res.err != nil:
			r.Errors++
			if len(r.Samples) < 5 {
				r.Samples = append(r.Samples, res.err.Error())
			}
			continue
		case res.at <= cfg.FinishWindow:
			r.Finished++
		default:
			r.Late++
		}
		took.add(res.took)
		if first < 0 || res.at < first {
			first = res.at
		}
		last = max(last, res.at)
	}
	r.FirstSec, r.LastSec = max(first, 0).Seconds(), last.Seconds()
	r.Game = took.summary()
	return r
}

// latencyWindow is the width of the windows the play's latency is also
// reported in.
const latencyWindow = 10 * time.Second

// playTable plays the humans' turns until ctx ends: each player asks
// AsksBeforeGuess questions and then guesses; finished games are
// rematched. Every timed keypress is measured at every screen.
func playTable(ctx context.Context, cfg Config, tb *table, every, actor *samples, split *latencySplit, actions, games *atomic.Int64, errs *errorLog) {
	for ctx.Err() == nil {
		p, finished, err := waitTurn(ctx, cfg, tb)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			errs.add(fmt.Errorf("table %d: %w", tb.i, err))
			return
		case finished:
			games.Add(1)
			if err := rematch(ctx, cfg, tb); err != nil {
				if ctx.Err() == nil {
					errs.add(fmt.Errorf("table %d rematch: %w", tb.i, err))
				}
				return
			}
			continue
		}
		// People take different times to think: uniform over 0.5–1.5×Think,
		// so tables that sat down together do not all move in step.
		sleep(ctx, time.Duration(float64(cfg.Think)*(0.5+tb.rng.Float64())))
		if ctx.Err() != nil {
			return
		}
		if err := act(ctx, cfg, tb, p, every, actor, split); err != nil {
			if ctx.Err() == nil {
				errs.add(fmt.Errorf("table %d: %w", tb.i, err))
			}
			return
		}
		actions.Add(1)
	}
}

// waitTurn waits until one of the players may act, or the game is over
// for both. It reads only the players' title bars, when they change.
func waitTurn(ctx context.Context, cfg Config, tb *table) (*client, bool, error) {
	timer := time.NewTimer(cfg.StepTimeout + 2*cfg.BotDelay)
	defer timer.Stop()
	players := tb.players()
	for ctx.Err() == nil {
		finished := 0
		titles := make([]string, len(players))
		for i, p := range players {
			titles[i] = p.title()
			if strings.Contains(titles[i], "your turn") {
				return p, false, nil
			}
			if strings.Contains(titles[i], "finished") {
				finished++
			}
		}
		if finished == len(players) {
			return nil, true, nil
		}
		// Wait for either title bar to change.
		changed := make([]chan time.Duration, len(players))
		for i, p := range players {
			was := titles[i]
			changed[i] = p.armTitle(func(t string) bool { return t != was }, time.Now())
		}
		select {
		case <-changed[0]:
		case <-changed[1]:
		case <-ctx.Done():
		case <-timer.C:
			return nil, false, fmt.Errorf("nobody's turn: %q / %q", titles[0], titles[1])
		}
		for _, p := range players {
			p.disarm()
		}
	}
	return nil, false, ctx.Err()
}

// act makes p's move: a question, or after AsksBeforeGuess questions a
// guess. The final key of the move is timed until every screen at the
// table shows the next turn (or the end).
func act(ctx context.Context, cfg Config, tb *table, p *client, every, actor *samples, split *latencySplit) error {
	// The turn is in the title bar; the whole board is read only to guess
	// (the player's own hand), not for every question.
	title := p.title()
	turn, ok := seen.Turn(title)
	if !ok {
		return fmt.Errorf("no turn number in %q", title)
	}
	if tb.asks[p] >= cfg.AsksBeforeGuess {
		hand := seen.OwnHand(p.screen())
		if hand == nil {
			return errors.New("own hand not on the board")
		}
		if err := p.send("g"); err != nil {
			return err
		}
		if _, err := p.waitFor(ctx, cfg.StepTimeout, "Guess the centre"); err != nil {
			return err
		}
		if err := p.send(seen.GuessFor(hand), keyEnter); err != nil {
			return err
		}
		if _, err := p.waitFor(ctx, cfg.StepTimeout, "Press enter again"); err != nil {
			return err
		}
	}
	tb.asks[p]++
	moved := func(s string) bool {
		if strings.Contains(seen.Title(s), "finished") {
			return true
		}
		n, ok := seen.Turn(s)
		return ok && n > turn
	}
	obs := tb.observers()
	got := make([]chan time.Duration, len(obs))
	start := time.Now()
	for i, c := range obs {
		got[i] = c.armTitle(moved, start)
	}
	if err := p.send(keyEnter); err != nil {
		return err
	}
	var errs []error
	for i, c := range obs {
		d, err := c.await(ctx, got[i], cfg.StepTimeout)
		if err != nil {
			errs = append(errs, fmt.Errorf("turn %d reaching %s (shows %q): %w", turn, c.name, seen.Title(c.screen()), err))
			continue
		}
		every.addAt(start, d)
		if c == p {
			actor.addAt(start, d)
		}
		if split != nil {
			switch {
			case tb.spliced[c] && c == p:
				split.splicedActor.add(d)
			case c == p:
				split.localActor.add(d)
			}
			if tb.spliced[c] {
				split.splicedEvery.add(d)
			} else {
				split.localEvery.add(d)
			}
		}
	}
	return errors.Join(errs...)
}

// rematch starts the next game at a finished table: the host asks for a
// rematch, the guest gets ready, the host starts.
func rematch(ctx context.Context, cfg Config, tb *table) error {
	lim := cfg.StepTimeout
	clear(tb.asks)
	if err := tb.host.send("R"); err != nil { // the end screen's rematch (a capital: no move key)
		return err
	}
	if _, err := tb.guest.waitFor(ctx, lim, "waiting for players"); err != nil {
		return err
	}
	if err := tb.guest.send("r"); err != nil {
		return err
	}
	// Everyone ready may start the game at once; otherwise the host starts it.
	started := seen.HasTurn
	s, err := tb.host.waitUntil(ctx, "guest ready", lim, func(s string) bool { return readyRe.MatchString(s) || started(s) })
	if err != nil {
		return fmt.Errorf("%w; host sees %q, guest sees %q", err, seen.Title(tb.host.screen()), seen.Title(tb.guest.screen()))
	}
	if !started(s) {
		if err := tb.host.send("s"); err != nil {
			return err
		}
	}
	for _, c := range tb.observers() {
		if _, err := c.waitUntil(ctx, "the next game", lim, seen.HasTurn); err != nil {
			return err
		}
	}
	return nil
}

// formatSeconds lists times in seconds, one decimal each.
func formatSeconds(at []float64) string {
	parts := make([]string, len(at))
	for i, s := range at {
		parts[i] = strconv.FormatFloat(s, 'f', 1, 64)
	}
	return strings.Join(parts, ", ")
}
