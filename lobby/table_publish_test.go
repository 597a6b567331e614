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

// TestEventLogsShareWhatViewersSawAlike: viewers who have read the same
// events share one array (a game whose events are all public keeps one
// log, not one per viewer); a private event parts its seat's log from the
// others for good, and from then on neither writes into the other's. Every
// log reads as if each viewer had a copy of its own, against a plain copy
// per viewer over a long run of public and private events.
func TestEventLogsShareWhatViewersSawAlike(t *testing.T) {
	const seats = 3
	var logs eventLogs
	want := make([][]string, seats+1)
	viewer := func(i int) engine.Viewer {
		if i < seats {
			return engine.SeatViewer(engine.Seat(i))
		}
		return engine.Spectator()
	}
	push := func(evs ...engine.Event) {
		t.Helper()
		logs.push(seats, evs)
		for i := range want {
			for _, e := range evs {
				if e.VisibleTo(viewer(i)) {
					want[i] = append(want[i], e.For(viewer(i)).Text)
				}
			}
			if n := len(want[i]); n > LogLen {
				want[i] = want[i][n-LogLen:]
			}
			var got []string
			for _, e := range logs.last(i) {
				got = append(got, e.Text)
			}
			if !slices.Equal(got, want[i]) {
				t.Fatalf("viewer %d reads %q, want %q", i, got, want[i])
			}
		}
	}
	arrays := func() int { // how many arrays the viewers' logs are in
		n := 0
		for i := range logs {
			if !slices.ContainsFunc(logs[:i], func(l []engine.Event) bool { return sameLog(l, logs[i]) }) {
				n++
			}
		}
		return n
	}
	for i := range 3 * LogLen {
		push(engine.Event{Kind: "ask", Text: fmt.Sprint("public ", i)})
	}
	if n := arrays(); n != 1 {
		t.Fatalf("after public events only the viewers hold %d logs, want 1", n)
	}
	push(engine.Event{Kind: "draw", Text: "You drew 3.", Others: "Ann drew 3.", Seats: []engine.Seat{1}})
	if n := arrays(); n != 2 {
		t.Fatalf("after seat 1's private event the viewers hold %d logs, want 2 (seat 1's, and one for the rest)", n)
	}
	for i := range 3 * LogLen {
		switch i % 7 {
		case 3:
			push(engine.Event{Kind: "draw", Text: fmt.Sprint("private ", i), Seats: []engine.Seat{engine.Seat(i % seats)}})
		case 5:
			push(engine.Event{Kind: "peek", Text: fmt.Sprint("yours ", i), Others: fmt.Sprint("theirs ", i), Seats: []engine.Seat{2}},
				engine.Event{Kind: "ask", Text: fmt.Sprint("public ", i)})
		default:
			push(engine.Event{Kind: "ask", Text: fmt.Sprint("public ", i)})
		}
	}
}
