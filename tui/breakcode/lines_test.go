package breakcode

import (
	"slices"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/tui/board"
)

// TestBoardLinesTakeTurnsInTwoSlices: a board draws its lines into two
// slices in turn, so a move's frame makes no new slice of lines; the lines
// it gave last stay as they were through the next draw (the session reads
// them before then); and the questions' rows are written over the last
// ones.
func TestBoardLinesTakeTurnsInTwoSlices(t *testing.T) {
	st := deal(t, 3, 71)
	viewer := engine.SeatViewer(0)
	b := New(new(colourBoardStyles()), testKeys())
	var log []engine.Event
	show := func() []string {
		t.Helper()
		b.SetView(st.View(viewer), board.Context{Viewer: viewer, Names: []string{"ann", "bo", "cy"},
			Bots: make([]bool, 3), Status: st.Status(), Log: engine.FilterEvents(log, viewer), Width: 100, Height: 30})
		b.SetSize(100, 30)
		return b.ViewLines()
	}
	var frames, copies [][]string
	for move := range 5 {
		lines := show()
		frames, copies = append(frames, lines), append(copies, slices.Clone(lines))
		if move > 0 && !slices.Equal(frames[move-1], copies[move-1]) {
			t.Fatalf("move %d: drawing it changed the lines drawn for the move before", move)
		}
		if move >= 2 && &frames[move][0] != &frames[move-2][0] {
			t.Errorf("move %d: the board's lines are in a new slice, not the one of two frames before", move)
		}
		if move >= 1 && &frames[move][0] == &frames[move-1][0] {
			t.Fatalf("move %d: the board drew over the lines it gave last", move)
		}
		log = append(log, ask(t, st, 1)...)
	}
	rows := b.qlist.rows
	b.cursor = (b.cursor + 1) % len(b.v.FaceUp) // another row highlighted: the list drawn again
	_ = b.ViewLines()
	if len(rows) == 0 || &b.qlist.rows[0] != &rows[0] {
		t.Error("the questions' rows were made anew, not written over the last ones")
	}
}
