package tui

import (
	"testing"

	"github.com/codebreakers/codebreakers/tui/board"
)

// Every board keeps the busy rule itself (SetBusy): while its last move is
// on its way, a key that could make one is held back, the cursor keys pass,
// and once the move is answered nothing is held.
func TestEveryBoardHoldsMovesWhileBusy(t *testing.T) {
	st, km := newStyles(true), newKeys()
	for _, game := range []string{"breakcode", "coding", "ifthen", "whattherule"} {
		b := newBoard(game, &st.board, &km.board)
		if b == nil {
			t.Fatalf("no board for %s", game)
		}
		b.SetBusy(true)
		if act, _ := b.Update(keyMsg("enter")); !board.IsHeld(act) {
			t.Errorf("%s: enter while busy gave %q, want it held", game, act)
		}
		if act, _ := b.Update(keyMsg("down")); act != nil {
			t.Errorf("%s: down while busy gave %q, want nothing", game, act)
		}
		b.SetBusy(false)
		if act, _ := b.Update(keyMsg("enter")); board.IsHeld(act) {
			t.Errorf("%s: enter held after the wait", game)
		}
	}
}
