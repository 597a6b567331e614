package whattherule

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/enginetest"
	wtr "github.com/codebreakers/codebreakers/engine/whattherule"
	"github.com/codebreakers/codebreakers/tui/board"
)

// TestRoundSummaryBetweenRounds: once a round ends, a player's board sums
// it up (who named the rule, the rule, the points) until that player's own
// first turn of the next round, so a round bots played fast is not missed.
func TestRoundSummaryBetweenRounds(t *testing.T) {
	seen, gone := false, false
	enginetest.PlayBotsEach(t, wtr.Game{}, engine.Options{wtr.OptRounds: "2"}, 4, wtr.LevelStrong, 5, 4000,
		func(move int, st engine.State, events []engine.Event) {
			v := st.View(engine.SeatViewer(0)).(wtr.View)
			if v.Phase == wtr.Finished || len(v.Rounds) != 1 || v.GM == 0 {
				return
			}
			b := New(new(plainStyles()), new(testKeys()))
			b.SetView(v, board.Context{Viewer: engine.SeatViewer(0), Names: []string{"ann", "bo", "cy", "di"},
				Status: st.Status(), Log: events, Width: 80, Height: 24})
			out := ansi.Strip(b.View())
			summary := strings.Contains(out, "Round 1 ended after") && strings.Contains(out, "The rule was:")
			myTurns := v.Seats[0].Turns
			switch {
			case myTurns == 0 && !summary:
				t.Fatalf("move %d: seat 0 has not played in round 2, but round 1 is not summed up:\n%s", move, out)
			case myTurns == 0:
				seen = true
				for _, l := range strings.Split(out, "\n") {
					if ansi.StringWidth(l) > 80 {
						t.Errorf("a summary line is wider than the board: %q", l)
					}
				}
			case summary:
				t.Fatalf("move %d: the summary stays after seat 0's first turn of round 2:\n%s", move, out)
			default:
				gone = true
			}
		})
	if !seen || !gone {
		t.Errorf("the game never showed the summary (%v) and then round 2's play without it (%v)", seen, gone)
	}
}
