package tui

import (
	"encoding/binary"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// frameParts remembers the pieces drawn around every screen's body (the
// title bar, the rule and the key bar) with what they were drawn from, so a
// frame in which they did not change reuses them instead of styling and
// measuring them again. Each is renewed as soon as its inputs differ; the
// styles and the key bar's separator never change during a session.
type frameParts struct {
	barTitle, barRight string
	barW               int
	bar                string
	// The title bar's pieces (the place, the rest of the title, the right
	// part) styled: a move changes only the rest.
	title, titleEnd *widget.Painter

	ruleW int
	rule  string

	// Key bars by their inputs (encoded by keysInput): a screen switches
	// among a few of them, such as a seat's bar on and off its turn.
	keys    map[string]string
	scratch []byte
}

// maxKeyBars bounds the key bars remembered.
const maxKeyBars = 16

// titleBar is the title bar for title and right in w cells, remembered.
func (a *app) titleBar(title, right string, w int) string {
	p := &a.parts
	if p.bar == "" || title != p.barTitle || right != p.barRight || w != p.barW {
		if p.title == nil {
			p.title, p.titleEnd = widget.NewPainter(a.st.title), widget.NewPainter(a.st.titleEnd)
		}
		p.barTitle, p.barRight, p.barW = title, right, w
		p.bar = titleBar(p.title, p.titleEnd, title, right, w)
	}
	return p.bar
}

// rule is a horizontal rule w cells wide, remembered.
func (a *app) rule(w int) string {
	p := &a.parts
	if p.rule == "" || w != p.ruleW {
		p.ruleW = w
		p.rule = a.st.rule.Render(strings.Repeat("─", w))
	}
	return p.rule
}

// keyBarLines is the key bar for ks: one line, or two when the keys do not
// fit in one (the bar is never cut short: every key that works is shown).
func (a *app) keyBarLines(ks []key.Binding) []string {
	return strings.Split(a.keyBar(ks), "\n")
}

// keyBar is the help bar's ShortHelpView(ks), remembered: it depends only on the
// help's width and, per binding, whether it is enabled and its help text.
// When the keys do not fit on one line, the rest go on a second ("\n").
func (a *app) keyBar(ks []key.Binding) string {
	p := &a.parts
	in := keysInput(p.scratch[:0], a.helpWidth(), ks)
	p.scratch = in
	if bar, ok := p.keys[string(in)]; ok {
		return bar
	}
	if p.keys == nil || len(p.keys) >= maxKeyBars {
		p.keys = make(map[string]string, 4)
	}
	h := a.helpModel()
	bar := h.ShortHelpView(ks)
	if cut := h.Ellipsis; cut != "" && strings.HasSuffix(ansi.Strip(bar), cut) && len(ks) > 1 {
		// As many keys as fit on each line, on as many lines as it takes
		// (three at most: past that the screen has more keys than sense).
		var lines []string
		for rest := ks; len(rest) > 0; {
			n := len(rest)
			for n > 1 && strings.HasSuffix(ansi.Strip(h.ShortHelpView(rest[:n])), cut) {
				n--
			}
			if len(lines) == 2 {
				n = len(rest)
			}
			lines = append(lines, h.ShortHelpView(rest[:n]))
			rest = rest[n:]
		}
		bar = strings.Join(lines, "\n")
	}
	p.keys[string(in)] = bar
	return bar
}

// keysInput appends everything ShortHelpView reads from w and ks to buf,
// each text prefixed with its length so that no two inputs look alike.
func keysInput(buf []byte, w int, ks []key.Binding) []byte {
	buf = binary.AppendUvarint(buf, uint64(max(0, w)))
	buf = binary.AppendUvarint(buf, uint64(len(ks)))
	for _, k := range ks {
		h := k.Help()
		if k.Enabled() {
			buf = append(buf, 1)
		} else {
			buf = append(buf, 0)
		}
		buf = binary.AppendUvarint(buf, uint64(len(h.Key)))
		buf = append(buf, h.Key...)
		buf = binary.AppendUvarint(buf, uint64(len(h.Desc)))
		buf = append(buf, h.Desc...)
	}
	return buf
}
