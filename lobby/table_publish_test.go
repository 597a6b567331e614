package lobby

import (
	"fmt"
	"slices"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// TestEventLogsShowEachViewerItsOwn: a private event reaches only its seat's
// log, an event for everyone every log; past twice LogLen a log keeps its
// last LogLen, and a view taken before the trim still reads what it showed.
func TestEventLogsShowEachViewerItsOwn(t *testing.T) {
	var logs eventLogs
	logs.push(2, []engine.Event{
		{Kind: "deal", Text: "The cards are dealt."},
		{Kind: "draw", Text: "You drew 3.", Seats: []engine.Seat{1}},
	})
	texts := func(evs []engine.Event) []string {
		var out []string
		for _, e := range evs {
			out = append(out, e.Text)
		}
		return out
	}
	if got := texts(logs.last(0)); !slices.Equal(got, []string{"The cards are dealt."}) {
		t.Errorf("seat 0 reads %q", got)
	}
	if got := texts(logs.last(1)); !slices.Equal(got, []string{"The cards are dealt.", "You drew 3."}) {
		t.Errorf("seat 1 reads %q", got)
	}
	if got := texts(logs.last(2)); !slices.Equal(got, []string{"The cards are dealt."}) {
		t.Errorf("spectators read %q", got)
	}
	if got := logs.last(3); got != nil {
		t.Errorf("a viewer past the spectators reads %q", texts(got))
	}

	// A log with room to grow: a reader appending to its view must not
	// write where the log's next event goes.
	logs.push(2, []engine.Event{{Kind: "move", Text: "second"}})
	logs.push(2, []engine.Event{{Kind: "move", Text: "third"}})
	shown := logs.last(0)
	logs.push(2, []engine.Event{{Kind: "move", Text: "fourth"}})
	_ = append(shown, engine.Event{Text: "a reader's own"})
	if got := texts(logs.last(0)); got[len(got)-1] != "fourth" {
		t.Errorf("a reader's append overwrote the log: %q", got)
	}
	for i := range 2 * LogLen {
		logs.push(2, []engine.Event{{Kind: "move", Text: fmt.Sprint("move ", i)}})
	}
	got := logs.last(2)
	if len(got) != LogLen || got[LogLen-1].Text != fmt.Sprint("move ", 2*LogLen-1) {
		t.Errorf("after %d moves spectators read %d events ending %q", 2*LogLen, len(got), got[len(got)-1].Text)
	}
	if len(logs[2]) > 2*LogLen {
		t.Errorf("the spectators' log holds %d events, more than twice LogLen", len(logs[2]))
	}
	if shown[0].Text != "The cards are dealt." {
		t.Errorf("a view taken before the trim now reads %q", shown[0].Text)
	}
}
