package tui

import (
	"encoding/binary"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine/textsafe"
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
	ruleW              int
	rule               string

	// paint is the session's text styles as Painters (paints), for
	// screens that style the same notices and chat on every frame.
	paint *textPaints

	// Key bars by their inputs (encoded by keysInput): a screen switches
	// among a few of them, such as a seat's bar on and off its turn.
	keys    map[string]string
	scratch []byte
	// The key bars drawn last, the newest first.
	last [lastBars]lastBar
	// keyLines are the key bar lines last fitted (keyLine), the newest
	// first: a seat's bar changes with its turn, and back.
	keyLines [lastBars]keyLineFit
}

// keyLine is the key bar k as the frame's line w cells wide, remembered:
// the bar changes seldom, and the line was made again on every frame. A
// few are kept, as a seat's bar goes from one to another and back with
// its turn, and one kept line was made again on most moves.
func (a *app) keyLine(k string, w int) string {
	p := &a.parts
	for i := range p.keyLines {
		if l := p.keyLines[i]; l.line != "" && l.w == w && l.bar == k {
			if i > 0 {
				copy(p.keyLines[1:i+1], p.keyLines[:i])
				p.keyLines[0] = l
			}
			return l.line
		}
	}
	line := fitLine(" "+k, w)
	copy(p.keyLines[1:], p.keyLines[:len(p.keyLines)-1])
	p.keyLines[0] = keyLineFit{bar: k, w: w, line: line}
	return line
}

// keyLineFit is a key bar line as fitted (keyLine): the bar, the width
// and the line.
type keyLineFit struct {
	bar  string
	w    int
	line string
}

// textPaints are the session's text styles as Painters: each line
// styled once, then remembered, and the styles that only colour text
// drawn without lipgloss's per-call setup (widget.Painter). They are one
// object, not one for each Painter.
type textPaints struct {
	strong, dim, notice, errText widget.Painter
	// The title bar's pieces (the place, the rest of the title, the right
	// part) styled: a move changes only the rest.
	title, titleEnd widget.Painter
	place           titlePlace
}

// paints is the session's text styles as Painters, made on first use and
// again after the styles change (setBackground drops a.parts).
func (a *app) paints() *textPaints {
	p := &a.parts
	if p.paint == nil {
		p.paint = &textPaints{
			strong: widget.MakePainter(&a.st.strong), dim: widget.MakePainter(&a.st.dim),
			notice: widget.MakePainter(&a.st.notice), errText: widget.MakePainter(&a.st.errText),
			title: widget.MakePainter(&a.st.title), titleEnd: widget.MakePainter(&a.st.titleEnd),
		}
	}
	return p.paint
}

// maxKeyBars bounds the key bars remembered.
const maxKeyBars = 16

// titleBar is the title bar for title and right in w cells, remembered.
func (a *app) titleBar(title, right string, w int) string {
	p := &a.parts
	if p.bar == "" || title != p.barTitle || right != p.barRight || w != p.barW {
		paint := a.paints()
		p.barTitle, p.barRight, p.barW = title, right, w
		p.bar = titleBar(&paint.title, &paint.titleEnd, &paint.place, title, right, w)
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

// keyBarHeight is how many lines the key bar takes: always one (keyBar
// leaves keys out rather than wrap), so a screen's layout never needs the
// bar itself.
const keyBarHeight = 1

// keyBarLines is the key bar for ks as lines: always keyBarHeight.
func (a *app) keyBarLines(ks []key.Binding) []string {
	return []string{a.keyBar(ks)}
}

// keyBar is the help bar's ShortHelpView of ks, on one line and never cut
// short: when the keys do not fit, keys are left out by priority until
// they do (keptKeys), and "?" says "more". Every key left out is listed in
// the ? help, which shows all of the screen's keys. It is remembered: it
// depends only on the help's width and, per binding, whether it is
// enabled and its help text.
func (a *app) keyBar(ks []key.Binding) string {
	p := &a.parts
	// A frame asks for its bar once, and a screen switches among a few
	// bars (a seat's on its turn, as the cursor meets a card that names a
	// number, while its move is on its way, off its turn): the last ones
	// are checked first, key by key, without encoding them (keysInput),
	// the one found moved to the front.
	w := a.helpWidth()
	for i := range p.last {
		if l := &p.last[i]; l.bar != "" && sameInput(l.in, w, ks) {
			bar := l.bar
			if i > 0 {
				hit := *l
				copy(p.last[1:i+1], p.last[:i])
				p.last[0] = hit
			}
			return bar
		}
	}
	bar := a.keyBarFor(ks) // leaves the keys' input in p.scratch
	// The oldest makes room, its bytes reused for the newest.
	oldest := p.last[len(p.last)-1]
	copy(p.last[1:], p.last[:len(p.last)-1])
	p.last[0] = lastBar{bar: bar, in: append(oldest.in[:0], p.scratch...)}
	return bar
}

// lastBars is how many key bars keyBar checks before the map: a seat in
// a game meets three or four in turn. With two remembered, a fifth of a
// busy server's bars (BenchmarkTablesPlay) were looked up in the map,
// every key encoded for it first (keysInput).
const lastBars = 4

// lastBar is a key bar drawn, with what it was drawn from: its keys'
// input as keysInput encodes it. Bytes, which the collector does not
// scan, where a copy of each key's texts was strings it did.
type lastBar struct {
	bar string
	in  []byte
}

// sameInput reports whether w and ks are what in encodes (keysInput),
// reading it key by key without encoding them.
func sameInput(in []byte, w int, ks []key.Binding) bool {
	n, in, ok := readUvarint(in)
	if !ok || n != uint64(max(0, w)) {
		return false
	}
	if n, in, ok = readUvarint(in); !ok || n != uint64(len(ks)) {
		return false
	}
	for _, k := range ks {
		if len(in) == 0 || (in[0] == 1) != k.Enabled() {
			return false
		}
		in = in[1:]
		h := k.Help()
		for _, text := range [2]string{h.Key, h.Desc} {
			if n, in, ok = readUvarint(in); !ok || n != uint64(len(text)) || len(in) < len(text) || string(in[:len(text)]) != text {
				return false
			}
			in = in[len(text):]
		}
	}
	return len(in) == 0
}

// readUvarint reads a uvarint off the front of b.
func readUvarint(b []byte) (uint64, []byte, bool) {
	n, size := binary.Uvarint(b)
	if size <= 0 {
		return 0, b, false
	}
	return n, b[size:], true
}

// keyBarFor is keyBar from the bars remembered by their inputs.
func (a *app) keyBarFor(ks []key.Binding) string {
	p := &a.parts
	in := keysInput(p.scratch[:0], a.helpWidth(), ks)
	p.scratch = in
	if bar, ok := p.keys[string(in)]; ok {
		return bar
	}
	if p.keys == nil || len(p.keys) >= maxKeyBars {
		p.keys = make(map[string]string, 4)
	}
	h, bl := a.helpModel(), &looksFor(a.st.dark, a.st.basic).bar
	if bl.plain(ks) {
		// Whether keys fit is known from their texts' widths: no bar is
		// drawn until the keys kept are known, and then once.
		width := h.Width()
		kept := keptKeys(ks, func(ks []key.Binding) bool { return bl.layout(width, ks).fits(h.Ellipsis) })
		bar := bl.draw(kept, bl.layout(width, kept))
		p.keys[string(in)] = bar
		return bar
	}
	// Most bars fit whole: the bar drawn to see whether the keys fit is
	// the bar, not drawn a second time. drawn is the bar of the keys fits
	// saw last; keptKeys's answer is as long as ks only when it is ks
	// (nothing was left out), the keys fits saw last.
	var drawn string
	kept := keptKeys(ks, func(ks []key.Binding) bool {
		drawn = bl.shortHelpView(h, ks)
		return h.Ellipsis == "" || !strings.HasSuffix(ansi.Strip(drawn), h.Ellipsis)
	})
	bar := drawn
	if len(kept) != len(ks) {
		bar = bl.shortHelpView(h, kept)
	}
	p.keys[string(in)] = bar
	return bar
}

// keptKeys is ks without the keys of lowest priority, as few as it takes
// for fits to hold. A screen lists its keys most important first, so keys
// are left out from the end of the list, except the two that must always
// be seen: "?" (where every key is listed) and esc (the way out). Once
// keys are left out, "?" says "more".
func keptKeys(ks []key.Binding, fits func([]key.Binding) bool) []key.Binding {
	if fits(ks) {
		return ks
	}
	kept := slices.Clone(ks)
	dropped := false
	for !fits(kept) {
		i := len(kept) - 1
		for i >= 0 && mustShow(kept[i]) {
			i--
		}
		if i < 0 {
			break // only the keys that must show are left: the bar is cut
		}
		kept = slices.Delete(kept, i, i+1)
		dropped = true
	}
	for j, k := range kept {
		if dropped && k.Help().Key == "?" {
			kept[j] = withHelp(k, "?", "more") // as wide as "help": it still fits
		}
	}
	return kept
}

// mustShow reports whether k stays in the key bar however narrow: the ?
// help and esc.
func mustShow(k key.Binding) bool {
	h := k.Help().Key
	return h == "?" || h == "?/esc" || h == "esc" || strings.HasPrefix(h, "esc")
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

// barLooks is a help bar's short styles as the text each puts around a
// line (widget.WrapsLine), made once for the looks all sessions share: a
// session's first bars (all of them, in a short session) were most of the
// key bar's cost, each key and description styled by lipgloss.
type barLooks struct {
	keyPre, keySuf   string
	descPre, descSuf string
	sep, tail        string // the separator and the ellipsis after a space, styled
	ok               bool   // every style only wraps a line
	// measured says the styles' texts are counted by textsafe.SimpleWidth
	// (the prefixes and suffixes no cells at all), so an item's width is
	// the sum of its parts' (layout): sepW and tailW are sep's and tail's.
	measured    bool
	sepW, tailW int
}

func newBarLooks(h help.Model) barLooks {
	var b barLooks
	var okKey, okDesc bool
	b.keyPre, b.keySuf, okKey = widget.WrapsLine(h.Styles.ShortKey.Inline(true))
	b.descPre, b.descSuf, okDesc = widget.WrapsLine(h.Styles.ShortDesc.Inline(true))
	b.sep = h.Styles.ShortSeparator.Inline(true).Render(h.ShortSeparator)
	b.tail = " " + h.Styles.Ellipsis.Inline(true).Render(h.Ellipsis)
	b.ok = okKey && okDesc
	b.measured = b.ok
	for _, s := range []string{b.keyPre, b.keySuf, b.descPre, b.descSuf} {
		if w, ok := textsafe.SimpleWidth(s); !ok || w != 0 {
			b.measured = false
		}
	}
	var okSep, okTail bool
	b.sepW, okSep = textsafe.SimpleWidth(b.sep)
	b.tailW, okTail = textsafe.SimpleWidth(b.tail)
	b.measured = b.measured && okSep && okTail
	return b
}

// plain reports whether the bar of ks can be laid out from its texts'
// widths (layout): the looks are measured and every key's text is plain
// (plainHelp).
func (b *barLooks) plain(ks []key.Binding) bool {
	if !b.measured {
		return false
	}
	for _, k := range ks {
		if kh := k.Help(); !plainHelp(kh.Key) || !plainHelp(kh.Desc) {
			return false
		}
	}
	return true
}

// plainHelp reports whether s is text textsafe.SimpleWidth counts without
// any escape sequence: its width adds up with its neighbours', and
// stripping the bar of its styles leaves it as it is (barLayout.fits).
func plainHelp(s string) bool {
	_, ok := textsafe.SimpleWidth(s)
	return ok && strings.IndexByte(s, '\x1b') < 0
}

// barLayout is how help.Model.ShortHelpView lays out a bar of keys: the
// keys before end are drawn (the disabled ones drawing nothing), then the
// ellipsis when tail; size is the bar's bytes, and last the last key
// drawn, if any.
type barLayout struct {
	end     int
	tail    bool
	size    int
	last    key.Help
	hasLast bool
}

// layout lays out ks within width as ShortHelpView would, each item (the
// separator, the key and its description) measured as the sum of its
// parts' widths instead of made as a string and measured: keys are left
// out one by one until a bar fits (keptKeys), which measured and threw
// away a bar per try. ks must be plain (b.plain).
func (b *barLooks) layout(width int, ks []key.Binding) barLayout {
	var l barLayout
	total := 0
	for i, k := range ks {
		if !k.Enabled() {
			continue
		}
		kh := k.Help()
		kw, _ := textsafe.SimpleWidth(kh.Key)
		dw, _ := textsafe.SimpleWidth(kh.Desc)
		w := kw + 1 + dw
		n := len(b.keyPre) + len(kh.Key) + len(b.keySuf) + 1 + len(b.descPre) + len(kh.Desc) + len(b.descSuf)
		if total > 0 {
			w += b.sepW
			n += len(b.sep)
		}
		// As help.Model.shouldAddItem: past the width the ellipsis ends
		// the bar if it has room, and the item is drawn if it has not.
		if width > 0 && total+w > width && total+b.tailW < width {
			l.end, l.tail, l.size = i, true, l.size+len(b.tail)
			return l
		}
		total += w
		l.size += n
		l.last, l.hasLast = kh, true
	}
	l.end = len(ks)
	return l
}

// fits reports whether the bar laid out is whole: it does not end with
// ellipsis, unstyled (keyBarFor's test for a bar drawn).
func (l barLayout) fits(ellipsis string) bool {
	switch {
	case ellipsis == "":
		return true
	case l.tail:
		return false
	case !l.hasLast:
		return true // an empty bar
	}
	return !endsWith(ellipsis, l.last.Key, " ", l.last.Desc)
}

// endsWith reports whether the parts, one after another, end with suffix.
func endsWith(suffix string, parts ...string) bool {
	for i := len(parts) - 1; i >= 0 && suffix != ""; i-- {
		p := parts[i]
		if len(p) >= len(suffix) {
			return strings.HasSuffix(p, suffix)
		}
		if !strings.HasSuffix(suffix, p) {
			return false
		}
		suffix = suffix[:len(suffix)-len(p)]
	}
	return suffix == ""
}

// draw writes the bar of ks laid out as l, into one string of its size.
func (b *barLooks) draw(ks []key.Binding, l barLayout) string {
	var sb strings.Builder
	sb.Grow(l.size)
	for _, k := range ks[:l.end] {
		if !k.Enabled() {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteString(b.sep)
		}
		kh := k.Help()
		sb.WriteString(b.keyPre)
		sb.WriteString(kh.Key)
		sb.WriteString(b.keySuf)
		sb.WriteByte(' ')
		sb.WriteString(b.descPre)
		sb.WriteString(kh.Desc)
		sb.WriteString(b.descSuf)
	}
	if l.tail {
		sb.WriteString(b.tail)
	}
	return sb.String()
}

// shortHelpView is h.ShortHelpView(ks) for h of these looks, byte for
// byte (TestKeyBarIsTheKeysKeptDrawn, TestShortHelpViewIsTheHelpModels),
// each key and description put between its style's prefix and suffix.
// Text that is not one plain line is left to h.
func (b *barLooks) shortHelpView(h help.Model, ks []key.Binding) string {
	if b.plain(ks) {
		return b.draw(ks, b.layout(h.Width(), ks))
	}
	if !b.ok {
		return h.ShortHelpView(ks)
	}
	for _, k := range ks {
		if kh := k.Help(); strings.ContainsAny(kh.Key, "\n\r\t") || strings.ContainsAny(kh.Desc, "\n\r\t") {
			return h.ShortHelpView(ks)
		}
	}
	width := h.Width()
	var sb strings.Builder
	total := 0
	for i, k := range ks {
		if !k.Enabled() {
			continue
		}
		sep := ""
		if total > 0 && i < len(ks) {
			sep = b.sep
		}
		kh := k.Help()
		item := sep + b.keyPre + kh.Key + b.keySuf + " " + b.descPre + kh.Desc + b.descSuf
		w := widget.Width(item)
		// As help.Model.shouldAddItem: past the width the ellipsis ends
		// the bar if it has room, and the item is drawn if it has not.
		if width > 0 && total+w > width && total+widget.Width(b.tail) < width {
			sb.WriteString(b.tail)
			break
		}
		total += w
		sb.WriteString(item)
	}
	return sb.String()
}
