package tui

import "github.com/codebreakers/codebreakers/tui/widget"

// newInput returns a focused one-line text field.
func newInput(placeholder string, limit int) widget.Field {
	f := widget.NewField("› ", placeholder, limit)
	f.Focus()
	return f
}
