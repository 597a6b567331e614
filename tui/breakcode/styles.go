package breakcode

import (
	"charm.land/lipgloss/v2"

	"github.com/codebreakers/codebreakers/tui/board"
)

// Styles are the Break the Code board's looks: the shared text styles and
// its tiles. A tile is a fill of its colour with an ink that reads on it,
// the same on every background, and always carries its letter (b, w, g)
// too. They are built in tui/styles.go.
type Styles struct {
	board.Styles
	TileBlack, TileWhite, TileGreen lipgloss.Style
	TileHidden                      lipgloss.Style // a tile the viewer may not see
}
