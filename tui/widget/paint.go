package widget

import (
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/tui/board"
)

// Width is lipgloss.Width(s): the cells of the widest line of s. Screens
// measure the same few kinds of line on every frame, so the common case is
// counted here byte by byte: printable ASCII, the CSI escapes styles emit,
// the symbols the UI draws, and the letters most handles are written in
// (see runeCells). Anything else (emoji, combining marks, other scripts,
// control characters, other escapes) goes to lipgloss.Width, which
// segments graphemes.
func Width(s string) int {
	if w, ok := simpleWidth(s); ok {
		return w
	}
	return lipgloss.Width(s)
}

// Truncate is ansi.Truncate(s, w, tail), which returns s itself when it
// fits: that is checked here first, without segmenting graphemes when
// simpleWidth can count s.
func Truncate(s string, w int, tail string) string {
	if sw, ok := simpleWidth(s); ok && sw <= w {
		return s
	}
	return ansi.Truncate(s, w, tail)
}

// simpleWidth counts the cells of a single-line s made only of printable
// ASCII, CSI sequences and runes runeCells knows; ok is false for anything
// else.
func simpleWidth(s string) (w int, ok bool) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			w++
			i++
		case c == 0x1b:
			n, ok := csiLen(s[i:])
			if !ok {
				return 0, false
			}
			i += n
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			n := runeCells(r)
			if n == 0 {
				return 0, false
			}
			w += n
			i += size
		default:
			return 0, false // a control character: leave it to the parser
		}
	}
	return w, true
}

// csiLen is the length of the CSI sequence (ESC [, digits, ';' and ':'
// parameters, a final byte) that s starts with, which is what styles emit;
// ok is false for anything else, such as other escapes, intermediate or
// private bytes, or a sequence cut short.
func csiLen(s string) (int, bool) {
	if len(s) < 3 || s[1] != '[' {
		return 0, false
	}
	for i := 2; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c == ';', c == ':':
		case c >= 0x40 && c <= 0x7e:
			return i + 1, true
		default:
			return 0, false
		}
	}
	return 0, false
}

// runeCells is the width of r when r is one of the runes simpleWidth
// counts itself, and 0 for any other. Each of them is a grapheme on its own
// (no segmentation rule joins it to a neighbour that is also counted here:
// none is a combining mark, joiner, prepend, spacing mark, regional
// indicator, Hangul jamo or control), so a string of them has the sum of
// their widths. TestWidthMatchesLipgloss checks every one against
// ansi.StringWidth.
func runeCells(r rune) int {
	switch {
	case r >= 0xa0 && r <= 0x24f && r != 0xad: // Latin-1 and Latin Extended-A/B, not the soft hyphen
		return 1
	case r >= 0x391 && r <= 0x3c9 && r != 0x3a2: // Greek letters
		return 1
	case r >= 0x410 && r <= 0x44f: // Cyrillic letters
		return 1
	case r >= 0x4e00 && r <= 0x9fff: // CJK unified ideographs
		return 2
	}
	switch r {
	case '─', '│', '╭', '╮', '╰', '╯', '▸', '▶', '◂', '…', '·', '•', '✓', '✗', '›', '‹',
		'→', '←', '↑', '↓', '—', '‘', '’', '“', '”':
		return 1
	}
	return 0
}

// Painter renders text in one style and remembers what it drew, so the
// labels, names and counts a board repeats on every frame are styled once.
// A Painter belongs to one board (it is not safe for concurrent use); the
// memory is dropped whenever it grows past a few hundred strings, so a long
// game cannot make it grow without bound.
type Painter struct {
	style lipgloss.Style
	// line is set when the style only colours text (see wrapsLine): then
	// styling one line is putting prefix before it and suffix after it,
	// which is all lipgloss would do, without its per-call setup. It is
	// learnt on the first miss (checked), so a board's painters that never
	// draw cost nothing to make.
	checked, line  bool
	prefix, suffix string
	memo           Memo[string, string]
}

// painterMemo bounds the strings a Painter remembers.
const painterMemo = 256

// NewPainter returns a Painter for st.
func NewPainter(st lipgloss.Style) *Painter {
	return &Painter{style: st, memo: Memo[string, string]{Max: painterMemo}}
}

// Render is st.Render(s), remembered.
func (p *Painter) Render(s string) string {
	if out, ok := p.memo.Get(s); ok {
		return out
	}
	return p.memo.Put(s, p.render(s))
}

// render is st.Render(s): the style's prefix and suffix around a single
// line when the style allows it, else lipgloss.
func (p *Painter) render(s string) string {
	if !p.checked {
		p.checked = true
		p.prefix, p.suffix, p.line = wrapsLine(p.style)
	}
	if p.line && strings.IndexAny(s, "\n\r\t") < 0 {
		return p.prefix + s + p.suffix
	}
	return p.style.Render(s)
}

// wrapsLine reports whether st renders any one line (no newline, carriage
// return or tab) as prefix + line + suffix: true for a style of colours
// and whole-text attributes (bold, faint, italic, blink), false for one
// that sizes, pads, borders, transforms or aligns text, or styles spaces
// apart (underline, strikethrough, reverse). The probes check the rule
// against lipgloss itself; TestPainterRendersLikeTheStyle checks every
// style of the arcade.
func wrapsLine(st lipgloss.Style) (prefix, suffix string, ok bool) {
	if st.GetWidth() != 0 || st.GetHeight() != 0 || st.GetMaxWidth() != 0 || st.GetMaxHeight() != 0 ||
		st.GetHorizontalPadding() != 0 || st.GetVerticalPadding() != 0 ||
		st.GetHorizontalMargins() != 0 || st.GetVerticalMargins() != 0 ||
		st.GetHorizontalBorderSize() != 0 || st.GetVerticalBorderSize() != 0 ||
		st.GetTransform() != nil || st.Value() != "" ||
		st.GetUnderline() || st.GetStrikethrough() || st.GetReverse() ||
		st.GetUnderlineSpaces() || st.GetStrikethroughSpaces() {
		return "", "", false
	}
	prefix, suffix, found := strings.Cut(st.Render("x"), "x")
	if !found {
		return "", "", false
	}
	for _, probe := range []string{"", " a b ", "\x1b[1mé\x1b[m 李…"} {
		if st.Render(probe) != prefix+probe+suffix {
			return "", "", false
		}
	}
	return prefix, suffix, true
}

// Paints are a board's text styles, each remembering what it drew.
type Paints struct {
	Heading, Strong, Dim, Selected, Error, Good *Painter
}

// NewPaints returns a Painter for each of st's text styles.
func NewPaints(st board.Styles) Paints {
	return Paints{
		Heading: NewPainter(st.Heading), Strong: NewPainter(st.Strong),
		Dim: NewPainter(st.Dim), Selected: NewPainter(st.Selected),
		Error: NewPainter(st.Error), Good: NewPainter(st.Good),
	}
}
