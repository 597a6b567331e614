// Package enginetest holds the helpers that every game's playthrough tests
// share: stable JSON renderings of views and events (what noninterference
// and replay checks compare) and bots seated from a seed.
package enginetest

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// ViewJSON renders what viewer v sees of st, for comparing two views byte for byte.
func ViewJSON(t testing.TB, st engine.State, v engine.Viewer) string {
	t.Helper()
	b, err := json.Marshal(st.View(v))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// EventsJSON renders the events of evs that viewer v may see.
func EventsJSON(t testing.TB, evs []engine.Event, v engine.Viewer) string {
	t.Helper()
	b, err := json.Marshal(engine.FilterEvents(evs, v))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Bots seats a bot of the given level at each seat of levels, each seeded
// from seed and its seat so that a playthrough is reproducible.
func Bots(t testing.TB, g engine.Game, seed uint64, levels map[engine.Seat]string) map[engine.Seat]engine.Bot {
	t.Helper()
	bots := make(map[engine.Seat]engine.Bot, len(levels))
	for seat, level := range levels {
		b, err := g.NewBot(seat, level, seed+uint64(seat))
		if err != nil {
			t.Fatal(err)
		}
		bots[seat] = b
	}
	return bots
}

// ReplayPrefixes plays rec's moves on a fresh game and checks, after every
// every-th move and the last, that replaying that prefix of the record
// rebuilds the same state (as same judges it).
func ReplayPrefixes(t testing.TB, g engine.Game, rec engine.Record, every int, same func(replayed, played engine.State) bool) {
	t.Helper()
	reg := engine.NewRegistry(g)
	st, _, err := engine.Start(g, rec.Options, rec.Players, rec.Seed)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range rec.Moves {
		if _, err := st.Apply(m.Seat, m.Action); err != nil {
			t.Fatal(err)
		}
		if i%every != 0 && i != len(rec.Moves)-1 {
			continue
		}
		prefix, _, err := engine.Replay(reg, rec, i+1)
		if err != nil {
			t.Fatal(err)
		}
		if !same(prefix, st) {
			t.Fatalf("state after move %d differs on replay", i+1)
		}
	}
}

// Players returns n players named p0, p1, …, none of them bots.
func Players(n int) []engine.Player {
	out := make([]engine.Player, n)
	for i := range out {
		out[i].Name = fmt.Sprintf("p%d", i)
	}
	return out
}
