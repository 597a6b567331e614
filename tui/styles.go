package tui

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"

	"github.com/codebreakers/codebreakers/tui/board"
	bcboard "github.com/codebreakers/codebreakers/tui/breakcode"
	ifboard "github.com/codebreakers/codebreakers/tui/ifthen"
	wtrboard "github.com/codebreakers/codebreakers/tui/whattherule"
)

// styles is every look of the session UI. Colour is always a second channel:
// each coloured thing is also bold, inverted, underlined or marked with a
// glyph or letter, so screens read the same in monochrome. The program's
// renderer downsamples colours to the client's profile (and drops them for
// NO_COLOR).
//
// There are two sets, one for dark and one for light terminal backgrounds
// (newStyles(dark)); a session asks its terminal which it has and starts
// with the dark one until the terminal answers (or if it never does). Text
// colours differ between the two so that each reads on its background;
// pieces (tiles, cards) have fills of their own and look the same on both:
// a black tile is a dark block with light ink everywhere, a white one a
// light block with dark ink. TestPaletteContrast checks every pair.
type styles struct {
	dark     bool
	basic    bool           // for terminals of 16 colours (see basicPalette)
	title    lipgloss.Style // the title bar's left part
	titleEnd lipgloss.Style // the title bar's right part
	rule     lipgloss.Style // horizontal rules
	selected lipgloss.Style // highlighted menu row (bold, with a ▸ glyph)
	dim      lipgloss.Style
	strong   lipgloss.Style
	errText  lipgloss.Style // errors (also prefixed with "!")
	notice   lipgloss.Style // news: someone came back, the game began
	help     help.Styles
	board    boardStyles
}

// palette is the text colours for one kind of background.
type palette struct {
	accent color.Color // titles, headings, the selected row
	dim    color.Color // secondary text: dim, never invisible
	err    color.Color // errors only
	good   color.Color // success, a right guess
	notice color.Color // news, never red: on 16 colours it is yellow
}

// darkPalette and lightPalette are the text colours on dark and light
// backgrounds (see backgrounds in styles_test.go for the ones checked).
func darkPalette() palette {
	return palette{
		accent: lipgloss.Color("#7D9CFF"),
		dim:    lipgloss.Color("#949494"),
		err:    lipgloss.Color("#FF6B6B"),
		good:   lipgloss.Color("#5FD75F"),
		notice: lipgloss.Color("#D7C35F"),
	}
}

func lightPalette() palette {
	return palette{
		accent: lipgloss.Color("#2B4FC4"),
		dim:    lipgloss.Color("#5C5C5C"),
		err:    lipgloss.Color("#C01C1C"),
		good:   lipgloss.Color("#17772F"),
		notice: lipgloss.Color("#7A5A00"),
	}
}

// pieces are the colours of tiles and cards: the same on every background.
// Each fill has an ink that reads on it, and a framed piece's border
// (drawn in the terminal's own foreground) sets it off from the
// background, so a black tile on a black terminal is still a tile. A
// compact piece has no frame: its fill alone sets it off, so the black and
// white fills are greys that stand apart from dark and light terminals
// alike (TestPiecesStandOffTheBackground); a white of #EEEEEE read as
// plain text on a white terminal.
type pieces struct {
	inkLight, inkDark               color.Color
	fillBlack, fillWhite, fillGreen color.Color
	// If Then's three colours (yellow, blue, red, in the engine's order).
	// A card end is a number in one colour on a background of another: the
	// background is a pale fill and the number a deep ink of its own
	// colour, so any ink reads on any fill (three saturated hues cannot all
	// read on one another: blue on red is under 2:1).
	ifThenFill, ifThenInk [3]color.Color
}

func pieceColours() pieces {
	c := lipgloss.Color
	return pieces{
		inkLight: c("#FFFFFF"), inkDark: c("#000000"),
		fillBlack: c("#4E4E4E"), fillWhite: c("#C6C6C6"), fillGreen: c("#17702C"),
		ifThenFill: [3]color.Color{c("#FFF3A8"), c("#C6DCFF"), c("#FFCACA")},
		ifThenInk:  [3]color.Color{c("#6E5600"), c("#0B3DB0"), c("#A00000")},
	}
}

// basicPalette is p for terminals of 16 colours, whose colours are the
// terminal theme's own: grey is the terminal's bright black (ANSI 8),
// which every theme makes a readable grey on its background (any grey that
// reads on dark backgrounds becomes white, ANSI 7, near invisible on a
// light one), and news its yellow (ANSI 3), never red.
func basicPalette(p palette) palette {
	p.dim, p.notice = lipgloss.ANSIColor(8), lipgloss.ANSIColor(3)
	return p
}

// newStyles is the styles for a dark or a light background.
func newStyles(dark bool) styles { return stylesFor(dark, false) }

// stylesFor is the styles for a dark or light background, on a terminal of
// 16 colours (basic) or more.
func stylesFor(dark, basic bool) styles {
	p := lightPalette()
	if dark {
		p = darkPalette()
	}
	if basic {
		p = basicPalette(p)
	}

	h := help.New().Styles
	h.ShortKey = lipgloss.NewStyle().Bold(true)
	h.FullKey = lipgloss.NewStyle().Bold(true)
	h.ShortDesc = lipgloss.NewStyle().Foreground(p.dim)
	h.FullDesc = lipgloss.NewStyle().Foreground(p.dim)
	h.ShortSeparator = lipgloss.NewStyle().Foreground(p.dim)
	h.FullSeparator = lipgloss.NewStyle().Foreground(p.dim)
	h.Ellipsis = lipgloss.NewStyle().Foreground(p.dim)

	pc := pieceColours()
	var ends [3][3]lipgloss.Style
	for n := range ends {
		for bg := range ends[n] {
			// Not bold: many terminals brighten a bold colour of the 16,
			// and a brightened ink can be its fill (blue on blue).
			ends[n][bg] = lipgloss.NewStyle().Foreground(pc.ifThenInk[n]).Background(pc.ifThenFill[bg])
		}
	}
	return styles{
		dark:     dark,
		basic:    basic,
		title:    lipgloss.NewStyle().Bold(true).Foreground(p.accent),
		titleEnd: lipgloss.NewStyle().Foreground(p.dim),
		rule:     lipgloss.NewStyle().Foreground(p.dim),
		selected: lipgloss.NewStyle().Bold(true).Foreground(p.accent),
		dim:      lipgloss.NewStyle().Foreground(p.dim),
		strong:   lipgloss.NewStyle().Bold(true),
		errText:  lipgloss.NewStyle().Bold(true).Foreground(p.err),
		notice:   lipgloss.NewStyle().Foreground(p.notice),
		help:     h,
		board:    boardStylesFor(p, pc, ends),
	}
}

// boardStyles are the game boards' looks: the text styles they share
// (embedded, so a screen can read a.st.board.Dim) and each game's own.
type boardStyles struct {
	board.Styles
	breakcode   bcboard.Styles
	ifthen      ifboard.Styles
	whattherule wtrboard.Styles
}

// boardStylesFor is the boards' looks in palette p, with pieces pc and If
// Then's card ends.
func boardStylesFor(p palette, pc pieces, ends [3][3]lipgloss.Style) boardStyles {
	text := board.Styles{
		Heading:  lipgloss.NewStyle().Bold(true).Foreground(p.accent),
		Strong:   lipgloss.NewStyle().Bold(true),
		Dim:      lipgloss.NewStyle().Foreground(p.dim),
		Selected: lipgloss.NewStyle().Bold(true).Foreground(p.accent),
		Error:    lipgloss.NewStyle().Bold(true).Foreground(p.err),
		Good:     lipgloss.NewStyle().Bold(true).Foreground(p.good),
		Notice:   lipgloss.NewStyle().Foreground(p.notice),
	}
	// Tiles and cards: a fill of the piece's colour, an ink that reads on
	// it, and always the letter (b, w, g) too. In monochrome the letter
	// alone says the colour.
	black := lipgloss.NewStyle().Bold(true).Foreground(pc.inkLight).Background(pc.fillBlack)
	// Not bold: many terminals draw bold black as grey.
	white := lipgloss.NewStyle().Foreground(pc.inkDark).Background(pc.fillWhite)
	return boardStyles{
		Styles: text,
		breakcode: bcboard.Styles{Styles: text, TileBlack: black, TileWhite: white,
			TileGreen:  lipgloss.NewStyle().Bold(true).Foreground(pc.inkLight).Background(pc.fillGreen),
			TileHidden: lipgloss.NewStyle().Foreground(p.dim)}.WithFaces(),
		ifthen:      ifboard.Styles{Styles: text, End: ends},
		whattherule: wtrboard.Styles{Styles: text, CardBlack: black, CardWhite: white},
	}
}
