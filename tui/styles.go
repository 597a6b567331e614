package tui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"

	"github.com/codebreakers/codebreakers/tui/board"
)

// styles is every look of the session UI. Colour is always a second channel:
// each coloured thing is also bold, inverted, underlined or marked with a
// glyph, so screens read the same in monochrome. The program's renderer
// downsamples colours to the client's profile (and drops them for NO_COLOR).
type styles struct {
	title    lipgloss.Style // the title bar's left part
	titleEnd lipgloss.Style // the title bar's right part
	rule     lipgloss.Style // horizontal rules
	selected lipgloss.Style // highlighted menu row (bold, with a ▸ glyph)
	dim      lipgloss.Style
	strong   lipgloss.Style
	errText  lipgloss.Style // errors (also prefixed with "!")
	notice   lipgloss.Style
	help     help.Styles
	board    board.Styles
}

func newStyles() styles {
	accent := lipgloss.Color("#7D9CFF")
	// Grey is the terminal's own bright black (ANSI 8), which every theme
	// makes a readable grey on its background: a fixed #8A8A8A fell to
	// "white" (ANSI 7) on 16-colour terminals, near invisible on a light one.
	grey := lipgloss.Color("8")
	red := lipgloss.Color("#FF6B6B")
	green := lipgloss.Color("#5FD75F")
	// The terminal's own yellow (ANSI 3): #E5C07B fell to bright red on
	// 16-colour terminals, and a notice must not look like an error.
	yellow := lipgloss.Color("3")

	h := help.New().Styles
	h.ShortKey = lipgloss.NewStyle().Bold(true)
	h.FullKey = lipgloss.NewStyle().Bold(true)
	h.ShortDesc = lipgloss.NewStyle().Foreground(grey)
	h.FullDesc = lipgloss.NewStyle().Foreground(grey)
	h.ShortSeparator = lipgloss.NewStyle().Foreground(grey)
	h.FullSeparator = lipgloss.NewStyle().Foreground(grey)
	h.Ellipsis = lipgloss.NewStyle().Foreground(grey)

	return styles{
		title:    lipgloss.NewStyle().Bold(true).Foreground(accent),
		titleEnd: lipgloss.NewStyle().Foreground(grey),
		rule:     lipgloss.NewStyle().Foreground(grey),
		selected: lipgloss.NewStyle().Bold(true).Foreground(accent),
		dim:      lipgloss.NewStyle().Foreground(grey),
		strong:   lipgloss.NewStyle().Bold(true),
		errText:  lipgloss.NewStyle().Bold(true).Foreground(red),
		notice:   lipgloss.NewStyle().Foreground(yellow),
		help:     h,
		board: board.Styles{
			Heading:  lipgloss.NewStyle().Bold(true).Foreground(accent),
			Strong:   lipgloss.NewStyle().Bold(true),
			Dim:      lipgloss.NewStyle().Foreground(grey),
			Selected: lipgloss.NewStyle().Bold(true).Foreground(accent),
			Error:    lipgloss.NewStyle().Bold(true).Foreground(red),
			Good:     lipgloss.NewStyle().Bold(true).Foreground(green),
			// Black tiles are inverted, white tiles bold, green tiles bold and
			// underlined: distinguishable without colour, letters on top.
			TileBlack:  lipgloss.NewStyle().Reverse(true),
			TileWhite:  lipgloss.NewStyle().Bold(true),
			TileGreen:  lipgloss.NewStyle().Bold(true).Underline(true).Foreground(green),
			TileHidden: lipgloss.NewStyle().Foreground(grey),
		},
	}
}
