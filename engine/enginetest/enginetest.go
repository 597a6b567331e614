// Package enginetest holds the helpers that every game's playthrough tests
// share: stable JSON renderings of views and events (what noninterference
// and replay checks compare) and bots seated from a seed.
package enginetest

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
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
	st, _, err := engine.StartRecord(g, rec)
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

// Played is a whole game played by bots: its record, every event in order
// (unfiltered), and its result.
type Played struct {
	Record engine.Record
	Events []engine.Event
	Result engine.Result
}

// PlayBots plays a whole game of g with n bots of level, dealt from seed:
// each seat that may act is asked in turn, and when no bot has a move the
// state's timer (if any) is applied as the System move, as a table would.
// It fails the test if the game does not end within maxMoves moves.
func PlayBots(t testing.TB, g engine.Game, opts engine.Options, n int, level string, seed uint64, maxMoves int) Played {
	t.Helper()
	return PlayBotsEach(t, g, opts, n, level, seed, maxMoves, nil)
}

// PlayBotsEach is PlayBots calling each (when not nil) with the state and
// every event so far, after the deal (move 0) and after every move. The
// state is live: each must not keep it, only what it asks of it (views
// are immutable snapshots).
func PlayBotsEach(t testing.TB, g engine.Game, opts engine.Options, n int, level string, seed uint64, maxMoves int,
	each func(move int, st engine.State, events []engine.Event)) Played {
	t.Helper()
	players := Players(n)
	for i := range players {
		players[i].Bot = true
	}
	st, resolved, err := engine.Start(g, opts, players, seed)
	if err != nil {
		t.Fatal(err)
	}
	levels := make(map[engine.Seat]string, n)
	for i := range n {
		levels[engine.Seat(i)] = level
	}
	bots := Bots(t, g, seed, levels)
	p := Played{Record: engine.Record{Game: g.Info().ID, Options: resolved, Players: players, Seed: seed}}
	apply := func(seat engine.Seat, action []byte) {
		t.Helper()
		evs, err := st.Apply(seat, action)
		if err != nil {
			t.Fatalf("%s seed %d move %d by seat %d %s: %v", p.Record.Game, seed, len(p.Record.Moves)+1, seat, action, err)
		}
		p.Record.Moves = append(p.Record.Moves, engine.Move{Seat: seat, Action: action})
		p.Events = append(p.Events, evs...)
		if each != nil {
			each(len(p.Record.Moves), st, p.Events)
		}
	}
	if each != nil {
		each(0, st, nil)
	}
	for len(p.Record.Moves) < maxMoves {
		if res, done := st.Result(); done {
			p.Result = res
			return p
		}
		moved := false
		for _, seat := range st.Status().Active {
			action, err := bots[seat].Act(st.View(engine.SeatViewer(seat)))
			if err != nil {
				t.Fatalf("%s seed %d: bot in seat %d: %v", p.Record.Game, seed, seat, err)
			}
			if action != nil {
				apply(seat, action)
				moved = true
				break // the state changed: ask again from the top
			}
		}
		if moved {
			continue
		}
		tm := st.Timer()
		if tm == nil {
			t.Fatalf("%s seed %d: stuck after %d moves: no bot moves and no timer", p.Record.Game, seed, len(p.Record.Moves))
		}
		apply(engine.System, tm.Action)
	}
	t.Fatalf("%s seed %d: not over after %d moves", p.Record.Game, seed, maxMoves)
	return p
}

// ReadJSON decodes the JSON file at path (a test's testdata) into v,
// failing the test when it cannot.
func ReadJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// SameEnd reports whether two games ended alike: the same winners, draw
// and scores. The summary's wording may change between versions; who won
// may not.
func SameEnd(a, b engine.Result) bool {
	return slices.Equal(a.Winners, b.Winners) && a.Draw == b.Draw && slices.Equal(a.Scores, b.Scores)
}
