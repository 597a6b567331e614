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
}
