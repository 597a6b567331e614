package tui

import (
	"encoding/binary"
	"strings"

	"charm.land/bubbles/v2/key"
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

	ruleW int
	rule  string

	keysOf  []byte // the key bar's inputs, encoded by keysInput
	keys    string
	scratch []byte
}

// titleBar is titleBar(a.st, title, right, w), remembered.
func (a *app) titleBar(title, right string, w int) string {
	p := &a.parts
	if p.bar == "" || title != p.barTitle || right != p.barRight || w != p.barW {
		p.barTitle, p.barRight, p.barW = title, right, w
		p.bar = titleBar(a.st, title, right, w)
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

// keyBar is a.help.ShortHelpView(ks), remembered: it depends only on the
// help's width and, per binding, whether it is enabled and its help text.
func (a *app) keyBar(ks []key.Binding) string {
	p := &a.parts
	in := keysInput(p.scratch[:0], a.help.Width(), ks)
	p.scratch = in
	if p.keysOf == nil || string(in) != string(p.keysOf) {
		p.keysOf = append(p.keysOf[:0], in...)
		p.keys = a.help.ShortHelpView(ks)
	}
	return p.keys
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
