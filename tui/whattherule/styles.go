package whattherule

import (
	"charm.land/lipgloss/v2"

	"github.com/codebreakers/codebreakers/tui/board"
)

// Styles are the What the Rule?! board's looks: the shared text styles and
// its black and white cards, drawn like the arcade's black and white tiles
// so the card's letter and its look agree even without colour. They are
// built in tui/styles.go.
type Styles struct {
	board.Styles
	CardBlack, CardWhite lipgloss.Style
}
