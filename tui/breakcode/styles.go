package breakcode

import (
	"charm.land/lipgloss/v2"

	bc "github.com/codebreakers/codebreakers/engine/breakcode"
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

	// faces are every tile drawn in these styles (WithFaces), shared by
	// every board drawn with them and never changed once made.
	faces map[tileKey]string
}

// WithFaces returns st with every tile (each number in each colour, alone
// and padded for a framed tile) drawn once, ahead: the styles of a
// session are shared by all sessions, so no board styles a tile itself.
// Each player sees only a game or two, so a board's own memory of its
// tiles was mostly first draws.
func (st Styles) WithFaces() Styles {
	st.faces = make(map[tileKey]string, 60)
	for n := range 10 {
		for _, c := range []bc.Color{bc.Black, bc.White, bc.Green} {
			for _, padded := range []bool{false, true} {
				k := tileKey{bc.Tile{Number: n, Color: c}, padded}
				st.faces[k] = st.drawTile(k)
			}
		}
	}
	return st
}

// drawTile draws one tile: always its number and letter, plus a look per
// colour.
func (st Styles) drawTile(k tileKey) string {
	style := st.TileGreen
	switch k.t.Color {
	case bc.Black:
		style = st.TileBlack
	case bc.White:
		style = st.TileWhite
	}
	text := k.t.String()
	if k.padded {
		text = " " + text + " "
	}
	return style.Render(text)
}
