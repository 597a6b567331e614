package lobby

import (
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/breakcode"
)

// TestSpectatorBoardOnlyWhileWatched: a table builds the spectators' board
// and log only while someone watches; a spectator's very first view, as
// Watch returns, already has them, and so does every view until it
// leaves. The seats' boards are built either way.
func TestSpectatorBoardOnlyWhileWatched(t *testing.T) {
	h := testHub(t, newMemStore(), nil, breakcode.Game{})
	ann, err := h.Create(ident("ann"), TableSpec{Game: breakcode.ID, Seats: 3, Bots: 2, BotLevel: breakcode.LevelEasy})
	if err != nil {
		t.Fatal(err)
	}
	if err := ann.Start(); err != nil {
		t.Fatal(err)
	}
	helper, _ := breakcode.Game{}.NewBot(0, breakcode.LevelEasy, 1)
	// move plays ann's next move, or nothing once the bots have ended the
	// game (they may break the code first): a finished game's publishes
	// are checked alike.
	move := func() {
		t.Helper()
		v := waitView(t, ann, "ann's turn or the end", func(v TableView) bool {
			return v.Phase != Playing || v.Board.(breakcode.View).YourTurn()
		})
		if v.Phase != Playing {
			return
		}
		act, err := helper.Act(v.Board)
		if err != nil || act == nil {
			t.Fatalf("helper: %s %v", act, err)
		}
		if err := ann.Act(act); err != nil {
			t.Fatal(err)
		}
	}
	unwatched := func(when string) {
		t.Helper()
		snap := ann.t.snap.Load()
		if snap.spectator.board != nil || snap.spectator.log != nil {
			t.Errorf("%s: nobody watches, yet the spectators' board or log was built", when)
		}
		if snap.seats[0].board == nil {
			t.Errorf("%s: ann's board was not built", when)
		}
	}
	move()
	unwatched("after a move")
	code := ann.View().Code
	spy, err := h.Watch(ident("spy"), code)
	if err != nil {
		t.Fatal(err)
	}
	first := spy.View()
	b, ok := first.Board.(breakcode.View)
	if !ok || b.Viewer.Kind != engine.ViewerSpectator || first.Log == nil {
		t.Fatalf("the spectator's first view has board %T (%v) and %d log events", first.Board, b.Viewer, len(first.Log))
	}
	move()
	if v := spy.View(); v.Board == nil || v.Log == nil {
		t.Fatal("a watched table's move left the spectator without a board or log")
	}
	spy.Leave()
	if v := spy.View(); v.Board == nil {
		t.Fatal("the spectator's last view, kept after leaving, lost its board")
	}
	waitView(t, ann, "the spectator gone", func(v TableView) bool { return v.Spectators == 0 })
	move()
	unwatched("after the spectator left")
}
