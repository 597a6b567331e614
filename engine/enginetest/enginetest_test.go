package enginetest

import (
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

func TestEventsJSONFiltersByViewer(t *testing.T) {
	evs := []engine.Event{{Kind: "a", Text: "public"}, {Kind: "b", Text: "secret", Seats: []engine.Seat{1}}}
	if got := EventsJSON(t, evs, engine.SeatViewer(0)); got != `[{"kind":"a","text":"public"}]` {
		t.Errorf("seat 0 sees %s, want only the public event", got)
	}
	if a, b := EventsJSON(t, evs, engine.SeatViewer(1)), EventsJSON(t, evs, engine.Omniscient()); a != b {
		t.Errorf("seat 1 (%s) must see what a replay sees (%s)", a, b)
	}
}
