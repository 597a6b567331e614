package ifthen

import (
	"charm.land/bubbles/v2/key"

	"github.com/codebreakers/codebreakers/tui/board"
)

// KeyMap is every key of the If Then board: the shared board keys and its
// own. It is built in tui/keys.go.
type KeyMap struct {
	board.Keys
	Discard, Hint, FreeHint, Lucky, Second key.Binding
	Yes, No                                key.Binding // agree or decline a vote
	Cycle                                  key.Binding // the Mastermind cycles a card
	ToBuilder, TypeIt                      key.Binding // the guess: back to the builder, or type it
	Builder                                BuilderKeys
}

// BuilderKeys are the guess builder's own keys; it moves with the board's
// arrows and enter.
type BuilderKeys struct {
	Next, Prev key.Binding // the field's next or previous choice
	AddValue   key.Binding // one more value in an "is / is not" set
	Remove     key.Binding // the clause (or a set's last value)
}
