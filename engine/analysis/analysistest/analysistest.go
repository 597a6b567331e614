// Package analysistest holds what the games' analysis tests and benchmarks
// share.
package analysistest

import (
	"fmt"
	"github.com/codebreakers/codebreakers/engine"
	"slices"
	"testing"
	"time"
)

// ReportPercentiles reports the median and 99th percentile of times, in
// milliseconds, as benchmark metrics p50-ms and p99-ms.
func ReportPercentiles(b *testing.B, times []time.Duration) {
	if len(times) == 0 {
		return
	}
	sorted := slices.Clone(times)
	slices.Sort(sorted)
	at := func(q float64) float64 {
		i := int(q * float64(len(sorted)-1))
		return float64(sorted[i]) / float64(time.Millisecond)
	}
	b.ReportMetric(at(0.5), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}

// BotRecord plays one seeded game of g with a bot of the given level in
// every seat (seeded from seed and the seat) and returns its record. Each
// move goes to the first active seat, in turn from the last mover, whose bot
// acts; when no bot acts and the game has a timer, the timer fires.
func BotRecord(tb testing.TB, g engine.Game, opts engine.Options, seed uint64, levels ...string) engine.Record {
	tb.Helper()
	players := make([]engine.Player, len(levels))
	for i := range players {
		players[i] = engine.Player{Name: fmt.Sprintf("p%d", i), Bot: true}
	}
	st, resolved, err := engine.Start(g, opts, players, seed)
	if err != nil {
		tb.Fatal(err)
	}
	rec := engine.Record{Game: g.Info().ID, Options: resolved, Players: players, Seed: seed}
	bots := make([]engine.Bot, len(levels))
	for i, l := range levels {
		if bots[i], err = g.NewBot(engine.Seat(i), l, seed*8+uint64(i)); err != nil {
			tb.Fatal(err)
		}
	}
	last := 0
	for step := 0; !st.Status().Finished; step++ {
		if step > 5000 {
			tb.Fatalf("%s seed %d: the bots did not finish", g.Info().ID, seed)
		}
		seat, action := engine.System, []byte(nil)
		for k := range len(levels) {
			s := engine.Seat((last + k) % len(levels))
			if !slices.Contains(st.Status().Active, s) {
				continue
			}
			a, err := bots[s].Act(st.View(engine.SeatViewer(s)))
			if err != nil {
				tb.Fatalf("%s seed %d: bot %d: %v", g.Info().ID, seed, s, err)
			}
			if a != nil {
				seat, action = s, a
				break
			}
		}
		if action == nil {
			t := st.Timer()
			if t == nil {
				tb.Fatalf("%s seed %d: no bot acts and nothing is timed", g.Info().ID, seed)
			}
			action = t.Action
		}
		if _, err := st.Apply(seat, action); err != nil {
			tb.Fatalf("%s seed %d: seat %d played %s: %v", g.Info().ID, seed, seat, action, err)
		}
		rec.Moves = append(rec.Moves, engine.Move{Seat: seat, Action: action})
		if seat >= 0 {
			last = (int(seat) + 1) % len(levels)
		}
	}
	return rec
}
