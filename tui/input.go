package tui

import "github.com/codebreakers/codebreakers/tui/board"

// newInput returns a focused one-line text field.
func newInput(placeholder string, limit int) board.Field {
	f := board.NewField("› ", placeholder, limit)
	f.Focus()
	return f
}
