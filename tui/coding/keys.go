package coding

import (
	"charm.land/bubbles/v2/key"

	"github.com/codebreakers/codebreakers/tui/board"
)

// KeyMap is every key of The Coding's board: the shared board keys and its
// own. It is built in tui/keys.go.
type KeyMap struct {
	board.Keys
	Tap  key.Binding // claim the answer in the race
	Vote key.Binding // vote for more data
	Stop key.Binding // stop after a right decode
}
