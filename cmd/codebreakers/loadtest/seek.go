package loadtest

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/internal/seen"
)

// SeekReport holds the figures of the seekers phase: Seekers people, each
// a new key on its own SSH connection, arrive at SeekRate a second, choose
// Play people, a game (the four in turn, two players each but What the
// Rule?!, any number) and wait until they are seated at a table.
type SeekReport struct {
	Seekers int     `json:"seekers"`
	Rate    float64 `json:"arrivals_per_sec_asked"`
	// ArrivalsPerSec is the rate the seeks really began at (the first
	// to the last keypress); Late counts seekers whose session was not on
	// the count menu by their arrival time (they sought as soon as it was).
	ArrivalsPerSec float64 `json:"arrivals_per_sec"`
	Late           int     `json:"late"`
	Seated         int     `json:"seated"`
	// Wait is from the keypress that joins the pool to the first frame of
	// the seeker's table: mostly the time until partners arrive.
	Wait Latency `json:"wait"`
	// Seating is the wait of the last seeker to arrive at each of Tables
	// tables, who waits for nobody: the server's own share (matching,
	// opening the table, dealing the game durably, the first frame).
	Seating Latency `json:"seating"`
	Tables  int     `json:"tables"`
	Seconds float64 `json:"seconds"` // from the first arrival to the last seat
	// Server process figures over Seconds.
	CPUPercent float64 `json:"server_cpu_percent_of_core"`
	RSSMB      float64 `json:"server_rss_mb"`
	// MachineBusy is how busy all cores were (percent); GeneratorCPU is the
	// generator's own share (percent of one core).
	MachineBusy  float64  `json:"machine_busy_percent"`
	GeneratorCPU float64  `json:"generator_cpu_percent_of_core"`
	Errors       int      `json:"errors"`
	Samples      []string `json:"error_samples,omitempty"`
}

// tableRe reads a table's code from its title.
var tableRe = regexp.MustCompile(`table ([A-Z0-9]{3}-[A-Z0-9]{3})`)

// seekChoices are the rows a seeker picks on "which game?" and "how many
// players?" (0: any number, 1: two players), in turn.
var seekChoices = []struct{ game, count int }{{0, 1}, {1, 1}, {2, 1}, {3, 0}}

// seekLead is how long before its arrival a seeker connects, so that the
// seeks themselves, not the handshakes, arrive at the rate asked.
const seekLead = 5 * time.Second

// runSeekers drives the seekers phase against t and adds the server's CPU
// and memory from before the first seeker connects until the last is
// seated (before the sessions close).
func runSeekers(ctx context.Context, cfg Config, t *target) (*SeekReport, error) {
	s1, err := t.stats()
	if err != nil {
		return nil, err
	}
	t1 := time.Now()
	meter := startCPUMeter()
	profiled := make(chan error, 1)
	if cfg.CPUProfile != "" && cfg.NoPlay && t.pprofAddr != "" {
		// The profile covers the connections' lead and the arrivals.
		secs := int((seekLead + time.Duration(float64(cfg.Seekers)/cfg.SeekRate*float64(time.Second))).Seconds())
		go func() { profiled <- saveProfile(ctx, t.pprofAddr, max(1, secs), cfg.CPUProfile) }()
	} else {
		profiled <- nil
	}
	var s2 procStats
	var wall time.Duration
	var machine, generator float64
	r := DriveSeekers(ctx, cfg, t.addr, func() {
		wall = time.Since(t1)
		s2, err = t.stats()
		machine, generator = meter.stop()
	})
	if err != nil {
		return r, err
	}
	if err := <-profiled; err != nil {
		r.Errors++
		r.Samples = append(r.Samples, err.Error())
	} else if cfg.CPUProfile != "" && cfg.NoPlay {
		fmt.Fprintf(cfg.Log, "seek: server CPU profile in %s (go tool pprof -top %s)\n", cfg.CPUProfile, cfg.CPUProfile)
	}
	r.MachineBusy, r.GeneratorCPU = machine, generator
	r.CPUPercent = float64((s2.CPU - s1.CPU).Microseconds()) / wall.Seconds() / 1e4
	r.RSSMB = mb(s2.RSS)
	if r.Errors > 0 {
		fmt.Fprintf(cfg.Log, "seek: %d errors; the server's last log lines:\n%s\n", r.Errors, t.logs.String())
	}
	fmt.Fprintf(cfg.Log, "seek: server CPU %.0f%% of a core over %.1fs, RSS %.0f MB\n", r.CPUPercent, wall.Seconds(), r.RSSMB)
	return r, t.alive()
}

// DriveSeekers has cfg.Seekers people arrive at the server on addr at
// cfg.SeekRate a second, each on its own new key: it connects seekLead
// before its arrival, picks a handle and goes to Play people's count menu;
// at its arrival it joins the pool; it is seated once its table's first
// frame is drawn. Every session stays open until all are seated or have
// waited StepTimeout in vain; then measured (when not nil) is called and
// all close.
func DriveSeekers(ctx context.Context, cfg Config, addr string, measured func()) *SeekReport {
	cfg = cfg.withDefaults()
	r := &SeekReport{Seekers: cfg.Seekers, Rate: cfg.SeekRate}
	if cfg.Seekers <= 0 {
		return r
	}
	errs := &errorLog{}
	waits := &samples{}
	type seat struct{ arrived, seated time.Time }
	tables := map[string][]seat{}
	var late, seated atomic.Int64
	var mu sync.Mutex
	var clients []*client
	var firstSeek, lastSeek, lastSeat time.Time
	gap := time.Duration(float64(time.Second) / cfg.SeekRate)
	begin := time.Now().Add(seekLead)
	var wg sync.WaitGroup
	for i := range cfg.Seekers {
		arrival := begin.Add(time.Duration(i) * gap)
		sleep(ctx, time.Until(arrival.Add(-seekLead)))
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := openClient(ctx, fmt.Sprintf("k%d", i), dialOptions{addr: addr, timeout: cfg.StepTimeout, w: playW, h: playH, vt: cfg.VTEmulator})
			if err != nil {
				errs.add(fmt.Errorf("seeker %d: %w", i, err))
				return
			}
			mu.Lock()
			clients = append(clients, c)
			mu.Unlock()
			choice := seekChoices[i%len(seekChoices)]
			if err := toCountMenu(ctx, cfg, c, fmt.Sprintf("k%d", i), choice.game, choice.count); err != nil {
				errs.add(fmt.Errorf("seeker %d: %w", i, err))
				return
			}
			if d := time.Until(arrival); d > 0 {
				sleep(ctx, d)
			} else {
				late.Add(1)
			}
			at := time.Now()
			mu.Lock()
			if firstSeek.IsZero() {
				firstSeek = at
			}
			if at.After(lastSeek) {
				lastSeek = at
			}
			mu.Unlock()
			got := c.arm(seen.HasTurn, at, true)
			if err := c.send(keyEnter); err != nil {
				errs.add(err)
				return
			}
			d, err := c.await(ctx, got, cfg.StepTimeout)
			if err != nil {
				errs.add(fmt.Errorf("seeker %d never seated (screen %q): %w", i, seen.Title(c.screen()), err))
				return
			}
			waits.add(d)
			seated.Add(1)
			code := ""
			if m := tableRe.FindStringSubmatch(seen.Title(c.screen())); m != nil {
				code = m[1]
			}
			mu.Lock()
			tables[code] = append(tables[code], seat{at, at.Add(d)})
			if end := at.Add(d); end.After(lastSeat) {
				lastSeat = end
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if measured != nil {
		measured()
	}
	closeAll(clients)
	r.Late, r.Seated = int(late.Load()), int(seated.Load())
	r.Wait = waits.summary()
	seating := &samples{}
	for code, seats := range tables {
		if code == "" {
			continue // a table whose code was not read: its last arrival is unknown
		}
		last := seats[0]
		for _, st := range seats[1:] {
			if st.arrived.After(last.arrived) {
				last = st
			}
		}
		seating.add(last.seated.Sub(last.arrived))
	}
	r.Seating, r.Tables = seating.summary(), len(tables)
	r.Errors, r.Samples = errs.count()
	if !firstSeek.IsZero() {
		if span := lastSeek.Sub(firstSeek).Seconds(); span > 0 {
			r.ArrivalsPerSec = float64(cfg.Seekers-1) / span
		}
		r.Seconds = lastSeat.Sub(firstSeek).Seconds()
	}
	fmt.Fprintf(cfg.Log, "seek: %d of %d seated (%d late) at %.1f/s; wait p50 %.1f p99 %.1f max %.1f ms; seating p50 %.1f p99 %.1f ms; %d errors\n",
		r.Seated, r.Seekers, r.Late, r.ArrivalsPerSec, r.Wait.P50, r.Wait.P99, r.Wait.Max, r.Seating.P50, r.Seating.P99, r.Errors)
	return r
}

// toCountMenu takes a new session through the handle to Play people's
// count menu with the cursor on count's row of game's menu.
func toCountMenu(ctx context.Context, cfg Config, c *client, handle string, game, count int) error {
	lim := cfg.StepTimeout
	steps := []func() error{
		func() error { _, err := c.waitFor(ctx, lim, "Choose a handle"); return err },
		func() error { return c.send(handle, keyEnter) },
		func() error { _, err := c.waitFor(ctx, lim, "Quick play", "Play people"); return err },
		func() error { return c.send(keyDown, keyEnter) }, // Play people: second, under Quick play
		func() error { _, err := c.waitFor(ctx, lim, "which game?"); return err },
		func() error { return c.send(strings.Repeat(keyDown, game) + keyEnter) },
		func() error { _, err := c.waitFor(ctx, lim, "how many players?", "Any number"); return err },
		func() error { return c.send(strings.Repeat(keyDown, count)) },
		func() error {
			_, err := c.waitUntil(ctx, "the count chosen", lim, func(s string) bool { return cursorOn(s, count) })
			return err
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return fmt.Errorf("to Play people: %w", err)
		}
	}
	return nil
}

// cursorOn reports whether the count menu's cursor is on row (0: any
// number, n: n+1 players).
func cursorOn(screen string, row int) bool {
	want := "▸ Any number"
	if row > 0 {
		want = fmt.Sprintf("▸ %d players", row+1)
	}
	return strings.Contains(screen, want)
}
