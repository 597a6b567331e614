package analysis

import (
	"fmt"

	"github.com/codebreakers/codebreakers/engine"
)

// Turn is one move of a replay as an analyser sees it: through seat views
// only.
type Turn struct {
	// Index is the move's place in the Record (0-based).
	Index int
	Move  engine.Move
	// Before is the mover's view just before the move (nil for System moves).
	Before any
	// Events are the move's events the mover may see.
	Events []engine.Event
	// View returns a seat's view just after the move. It is valid only
	// during the callback.
	View func(engine.Seat) any
}

// Walk replays rec on a fresh game of g and calls fn for every move.
func Walk(g engine.Game, rec engine.Record, fn func(Turn) error) error {
	st, _, err := engine.StartRecord(g, rec)
	if err != nil {
		return fmt.Errorf("analysis: %w", err)
	}
	return WalkState(st, rec.Moves, fn)
}

// WalkState applies moves to st in order, calling fn for each. Analysers
// built on it read nothing of st but seat views, which tests check by
// walking states that differ only in what a seat cannot see.
func WalkState(st engine.State, moves []engine.Move, fn func(Turn) error) error {
	for i, m := range moves {
		t := Turn{Index: i, Move: m}
		mover := engine.SeatViewer(m.Seat)
		if m.Seat != engine.System {
			t.Before = st.View(mover)
		}
		evs, err := st.Apply(m.Seat, m.Action)
		if err != nil {
			return fmt.Errorf("analysis: move %d (seat %d): %w", i+1, m.Seat, err)
		}
		t.Events = engine.FilterEvents(evs, mover)
		t.View = func(s engine.Seat) any { return st.View(engine.SeatViewer(s)) }
		if err := fn(t); err != nil {
			return err
		}
	}
	return nil
}
