package breakcode

import (
	"slices"
	"testing"
	"unsafe"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/tui/board"
)

// TestBoardLinesAreDrawnOverTheLast: a board draws a move's lines over
// the lines it drew before (the session has read those by then), so a
// move's frame makes no new slice of lines and keeps no second one; the
// lines are what a board that never drew before draws; and the questions'
// rows are written over the last ones.
func TestBoardLinesAreDrawnOverTheLast(t *testing.T) {
	st := deal(t, 3, 71)
	viewer := engine.SeatViewer(0)
	b := New(new(colourBoardStyles()), testKeys())
	var log []engine.Event
	var first *string
	for move := range 5 {
		b.SetView(st.View(viewer), board.Context{Viewer: viewer, Names: []string{"ann", "bo", "cy"},
			Bots: make([]bool, 3), Status: st.Status(), Log: engine.FilterEvents(log, viewer), Width: 100, Height: 30})
		b.SetSize(100, 30)
		lines := b.ViewLines()
		if want := cold(b).ViewLines(); !slices.Equal(lines, want) {
			t.Fatalf("move %d: the board drew\n%q\nwhere a fresh one draws\n%q", move, lines, want)
		}
		if move == 0 {
			first = &lines[0]
		} else if &lines[0] != first {
			t.Errorf("move %d: the board's lines are in a new slice, not the one drawn before", move)
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

// TestBlockLinesKeepTheirRows: when a move redraws a seat's block (its
// head's turn mark, its aid count, a new answer), a line of it that reads
// as the line drawn in the same row before is that very string, not one
// made again; and at least one move keeps some that way.
func TestBlockLinesKeepTheirRows(t *testing.T) {
	kept := 0
	for _, n := range []int{2, 3, 4} {
		st := deal(t, n, 90+uint64(n))
		viewer := engine.SeatViewer(0)
		b := New(new(colourBoardStyles()), testKeys())
		var log []engine.Event
		var before [][]string
		for move := 0; move < 12 && !st.Status().Finished; move++ {
			b.SetView(st.View(viewer), board.Context{Viewer: viewer, Names: []string{"ann", "bo", "cy", "di"}[:n],
				Bots: make([]bool, n), Status: st.Status(), Log: engine.FilterEvents(log, viewer), Width: 100, Height: 30})
			b.SetSize(100, 30)
			_ = b.ViewLines()
			for i, d := range b.blocks {
				if i >= len(before) {
					continue
				}
				for r, l := range d.lines {
					if r < len(before[i]) && l == before[i][r] {
						if unsafe.StringData(l) != unsafe.StringData(before[i][r]) && r > 0 {
							t.Fatalf("%dp move %d: block %d's row %d %q was made again", n, move, i, r, l)
						}
						if r > 0 && len(d.lines) > 1 && &d.lines[0] != &before[i][0] {
							kept++
						}
					}
				}
			}
			before = before[:0]
			for _, d := range b.blocks {
				before = append(before, d.lines)
			}
			log = append(log, ask(t, st, 1)...)
		}
	}
	if kept == 0 {
		t.Error("no block was redrawn with a row it kept")
	}
}
