package ifthen

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/enginetest"
	it "github.com/codebreakers/codebreakers/engine/ifthen"
	"github.com/codebreakers/codebreakers/tui/board"
)

// TestEventIsSaidInFull: the Event in force is shown whole, wrapped by
// words, at 60 and 80 columns: it changes what a move does.
func TestEventIsSaidInFull(t *testing.T) {
	shown := 0
	enginetest.PlayBotsEach(t, it.Game{}, engine.Options{"level": "1"}, 3, it.LevelStrong, 9, 4000,
		func(move int, st engine.State, events []engine.Event) {
			v := st.View(engine.SeatViewer(0)).(it.View)
			if v.Event == nil || v.Phase == it.Finished {
				return
			}
			for _, w := range []int{60, 80} {
				b := New(new(plainStyles()), new(testKeys()))
				b.SetView(v, board.Context{Viewer: engine.SeatViewer(0), Names: []string{"mara", "Bo", "Kai"},
					Status: st.Status(), Log: events, Width: w, Height: 24})
				out := ansi.Strip(b.View())
				flat := strings.Join(strings.Fields(out), " ")
				want := strings.Join(strings.Fields(v.Event.Title+" — "+v.Event.Text), " ")
				if !strings.Contains(flat, want) {
					t.Fatalf("move %d, %d wide: the Event is not said in full (%q):\n%s", move, w, want, out)
				}
				shown++
			}
		})
	if shown == 0 {
		t.Fatal("no Event came up in the game")
	}
}
