package whattherule

import (
	"charm.land/bubbles/v2/key"

	"github.com/codebreakers/codebreakers/tui/board"
)

// KeyMap is every key of the What the Rule?! board: the shared board keys
// and its own. It is built in tui/keys.go.
type KeyMap struct {
	board.Keys
	Pass                                                 key.Binding // make no guess
	Reveal, Propose, Yes, No, Announce                   key.Binding
	Write, Build, Free, Library, Draw, CallOff, TypeHint key.Binding // the game master's
	BuildGuess                                           key.Binding // a player builds a guess as the game master a rule
	ToBuilder, ToTyping                                  key.Binding
	Builder                                              BuilderKeys
}

// BuilderKeys are the rule builder's own keys.
type BuilderKeys struct {
	Next, Prev, AddIf, AddThen, AddElse, Remove, Join key.Binding
}
