package breakcode

import (
	"charm.land/bubbles/v2/key"

	"github.com/codebreakers/codebreakers/tui/board"
)

// KeyMap is every key of the Break the Code board: the shared board keys
// and its own. It is built in tui/keys.go.
type KeyMap struct {
	board.Keys
	Pass key.Binding // decline a last-chance guess
	// lists are the key bar's lists for every state a board can be in,
	// made once by Shared and never changed after, so every board (every
	// session) drawn with these keys reads the same ones instead of
	// making and keeping its own. Nil for keys not made Shared, whose
	// boards each remember the lists they made.
	lists map[helpState][]key.Binding
}

// Shared returns km with the key bar's lists made once, for all boards
// that use it to share. It must be called before km is given to a board.
func (km KeyMap) Shared() KeyMap {
	km.lists = nil
	lists := map[helpState][]key.Binding{}
	for _, st := range helpStates() {
		ks := shortHelpFor(&km, st)
		lists[st] = ks[:len(ks):len(ks)] // a caller's append copies it
	}
	km.lists = lists
	return km
}

// helpStates is every state Board.helpState returns.
func helpStates() []helpState {
	sts := []helpState{helpGuessing, helpNotepad, helpNotepad | helpNoteOverflow, helpNoKeys}
	const play = helpAsk | helpChoose | helpNumber | helpGuess | helpPass
	for st := helpState(0); st <= play; st++ {
		if st&^play == 0 {
			sts = append(sts, st)
		}
	}
	return sts
}
