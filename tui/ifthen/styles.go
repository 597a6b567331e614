package ifthen

import (
	"charm.land/lipgloss/v2"

	"github.com/codebreakers/codebreakers/tui/board"
)

// Styles are the If Then board's looks: the shared text styles and its
// card ends. They are built in tui/styles.go.
type Styles struct {
	board.Styles
	// End is a card end, by [number colour][background colour] (yellow,
	// blue, red, in the engine's order): the number's colour as ink on the
	// background colour as fill.
	End [3][3]lipgloss.Style
}
