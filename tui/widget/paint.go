package widget

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/tui/board"
)

// Width is lipgloss.Width(s): the cells of the widest line of s. Screens
// measure the same few kinds of line on every frame, so the common case is
// counted here byte by byte: printable ASCII, the CSI escapes styles emit,
// the symbols the UI draws, and the letters most handles are written in
// (see textsafe.SimpleWidth). Anything else (emoji, combining marks, other scripts,
// control characters, other escapes) goes to lipgloss.Width, which
// segments graphemes.
func Width(s string) int {
	if w, ok := textsafe.SimpleWidth(s); ok {
		return w
	}
	return lipgloss.Width(s)
}

// Truncate is ansi.Truncate(s, w, tail), which returns s itself when it
// fits: that is checked here first, without segmenting graphemes when
// textsafe.SimpleWidth can count s.
func Truncate(s string, w int, tail string) string {
	if sw, ok := textsafe.SimpleWidth(s); ok && sw <= w {
		return s
	}
	return ansi.Truncate(s, w, tail)
}

// Painter renders text in one style and remembers what it drew, so the
// labels, names and counts a board repeats on every frame are styled once.
// A Painter belongs to one board (it is not safe for concurrent use); the
// memory is dropped whenever it grows past a few hundred strings, so a long
// game cannot make it grow without bound.
//
// A session holds a dozen painters or more for as long as it lasts, so a
// Painter is kept small (painterSize), its pointers first: for a style
// that only colours text it keeps each text's styled form alone (the text
// is the middle of it), and no copy of the text it was given.
type Painter struct {
	// style is read, never changed: it is one of the looks every session
	// shares (a copy of a style is some 650 bytes, and a session's
	// painters held a dozen).
	style *lipgloss.Style
	// few are the first texts drawn, kept in the Painter itself; texts
	// beyond them go to memo. Most painters draw a handful of texts over
	// and over (headings, names, a prompt), and a map for those was two
	// more objects of some 300 bytes each for the collector to scan, in
	// every painter of every session. When line is set each is a styled
	// text alone (wrap around the text); else they are pairs, a text and
	// its styled form.
	few [painterFew]string
	// memo maps a text to its styled form. When the form is wrap around
	// the text, the key is the text within the form, so the caller's
	// string (often made for the call) is not kept alive.
	memo Memo[string, string]
	// wrap is the style's prefix and suffix, one after the other (cut is
	// where the suffix starts), when the style only colours text (see
	// wrapsLine): then styling one line is putting the prefix before it
	// and the suffix after it, which is all lipgloss would do, without
	// its per-call setup. It is learnt on the first Render or Fresh
	// (checked), so a board's painters that never draw cost nothing to
	// make.
	wrap          string
	cut           int32
	nFew          uint8
	checked, line bool
}

// painterFew is how many strings a Painter keeps in itself: as many texts
// for a style that only colours text, half as many for others.
const painterFew = 4

// painterMemo bounds the strings a Painter remembers.
const painterMemo = 256

// painterSize is the most a Painter may take (TestPainterIsSmall), a size
// class of the allocator.
const painterSize = 112

// NewPainter returns a Painter for *st, which must not change while the
// Painter is used: a style of the looks all sessions share, so that their
// painters do not each hold a copy.
func NewPainter(st *lipgloss.Style) *Painter {
	p := MakePainter(st)
	return &p
}

// MakePainter is NewPainter as a value, to be kept inside the struct that
// uses it (one object fewer) and used there in place, never copied once
// it has drawn.
func MakePainter(st *lipgloss.Style) Painter {
	return Painter{style: st, memo: Memo[string, string]{Max: painterMemo}}
}

// Render is st.Render(s), remembered.
func (p *Painter) Render(s string) string {
	p.check()
	if p.line {
		for _, out := range p.few[:p.nFew] {
			if p.wraps(out, s) {
				return out
			}
		}
	} else {
		for i := 0; i+1 < int(p.nFew); i += 2 {
			if p.few[i] == s {
				return p.few[i+1]
			}
		}
	}
	if out, ok := p.memo.Get(s); ok {
		return out
	}
	out := p.render(s)
	wrapped := p.line && p.wraps(out, s) // else lipgloss drew it (see render)
	switch {
	case wrapped && int(p.nFew) < len(p.few):
		p.few[p.nFew] = out
		p.nFew++
		return out
	case !p.line && int(p.nFew)+1 < len(p.few):
		p.few[p.nFew], p.few[p.nFew+1] = s, out
		p.nFew += 2
		return out
	case wrapped:
		s = out[p.cut : len(out)-(len(p.wrap)-int(p.cut))]
	}
	return p.memo.Put(s, out)
}

// wraps reports whether out is the style's prefix, s and its suffix.
func (p *Painter) wraps(out, s string) bool {
	return len(out) == len(s)+len(p.wrap) && out[p.cut:len(out)-(len(p.wrap)-int(p.cut))] == s
}

// Fresh is st.Render(s), not remembered: for text that is new on most
// frames (a title that names the turn), which would only fill the memory
// with strings never drawn again.
func (p *Painter) Fresh(s string) string {
	p.check()
	return p.render(s)
}

// FreshOf is Fresh(a + b + c), made as one string: a text put together
// for the call (a count between words, a turn in a title) is not made
// first and then made again between the style's prefix and suffix.
func (p *Painter) FreshOf(a, b, c string) string {
	p.check()
	if p.line && oneLine(a) && oneLine(b) && oneLine(c) {
		return p.wrap[:p.cut] + a + b + c + p.wrap[p.cut:]
	}
	return p.style.Render(a + b + c)
}

// oneLine reports whether s has no newline, carriage return or tab (as
// strings.IndexAny(s, "\n\r\t") < 0, byte by byte: the texts are short).
func oneLine(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n', '\r', '\t':
			return false
		}
	}
	return true
}

// Len is how many texts the Painter remembers now.
func (p *Painter) Len() int {
	if p.line {
		return int(p.nFew) + p.memo.Len()
	}
	return int(p.nFew)/2 + p.memo.Len()
}

// check learns, once, whether the style only colours text.
func (p *Painter) check() {
	if !p.checked {
		p.checked = true
		prefix, suffix, line := wrapsLine(*p.style)
		p.wrap, p.cut, p.line = prefix+suffix, int32(len(prefix)), line
	}
}

// render is st.Render(s): the style's prefix and suffix around a single
// line when the style allows it, else lipgloss.
func (p *Painter) render(s string) string {
	if p.line && strings.IndexAny(s, "\n\r\t") < 0 {
		return p.wrap[:p.cut] + s + p.wrap[p.cut:]
	}
	return p.style.Render(s)
}

// WrapsLine reports whether st renders any one line (no newline, carriage
// return or tab) as prefix + line + suffix, and those (see wrapsLine): for
// callers that style the same few pieces of text with a style shared by
// every session, where a Painter's memory could not be shared.
func WrapsLine(st lipgloss.Style) (prefix, suffix string, ok bool) { return wrapsLine(st) }

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

// Paints are a board's text styles, each remembering what it drew. The
// Painters are part of the Paints (and so of the board that holds them),
// not objects of their own: six fewer for the collector in every session.
// Use them in place (b.paint.Dim.Render); a copy of Paints remembers
// apart from the original.
type Paints struct {
	Heading, Strong, Dim, Selected, Error, Good Painter
}

// NewPaints returns a Painter for each of st's text styles, which must
// not change while the Painters are used (see NewPainter).
func NewPaints(st *board.Styles) Paints {
	return Paints{
		Heading: MakePainter(&st.Heading), Strong: MakePainter(&st.Strong),
		Dim: MakePainter(&st.Dim), Selected: MakePainter(&st.Selected),
		Error: MakePainter(&st.Error), Good: MakePainter(&st.Good),
	}
}

// spaces is a run of spaces that WriteSpaces writes from.
const spaces = "                                                                " // 64

// WriteSpaces writes n spaces (none when n ≤ 0) to sb, a run at a time:
// a frame pads many lines by dozens of cells (the questions beside the
// log, the title bar's gap), and writing them a byte at a time was a
// tenth of laying out the board's lower block.
func WriteSpaces(sb *strings.Builder, n int) {
	for n > 0 {
		k := min(n, len(spaces))
		sb.WriteString(spaces[:k])
		n -= k
	}
}
