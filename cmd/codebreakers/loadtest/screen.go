package loadtest

import (
	"bytes"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/parser"
)

// screen is a simulated player's terminal reduced to what the generator
// reads: the text of each cell and the cursor. It reads the server's output
// as github.com/charmbracelet/x/vt's Emulator does, cell for cell, but keeps
// no styles, links, colours, scrollback or callbacks, and prints a run of
// plain ASCII without taking every byte through the parser: the emulator
// was about half of the generator's CPU (issue 20), most of it spent on
// what nobody here reads. TestScreenMatchesEmulator and
// FuzzScreenMatchesEmulator compare the two on recorded sessions and on
// the edge cases of what the server sends.
//
// Bytes are parsed by x/ansi's Parser, the emulator's own, so every
// sequence, split across writes anywhere, ends where the emulator's does.
// Of what the server sends (server/frame, server's session writes, the
// colour query) it implements every sequence that moves the cursor or
// changes text: printing with autowrap and the pending wrap, grapheme
// clusters and wide characters measured as the emulator measures them, CR,
// LF (scrolling at the bottom), BS, CUP/HVP, CUU/CUD/CUF/CUB/CNL/CPL,
// CHA/HPA/HPR/VPA/VPR, EL, ED, ECH, SU/SD, IND/RI, DECSC/DECRC, the alternate screen
// (1047, 1048, 1049), autowrap (DECAWM) and RIS, and it answers the
// background colour query as the emulator does. It ignores what changes
// no text (SGR, other modes, titles, other OSC, DCS, APC) and what the
// server never sends (tabs, scroll margins, insert/delete of cells and
// lines, charsets, REP): a server that starts sending one of those must
// teach this type first, and the differential tests are where it shows.
type screen struct {
	w, h int
	// grids holds the main (0) and alternate (1) screen's cells, row after
	// row; a nil grid is blank, so the main screen, which the server
	// rarely writes to, costs nothing until it does.
	grids [2][]cell
	alt   int       // which grid is shown
	cur   [2]cursor // each screen's cursor
	saved [2]cursor // each screen's saved cursor (DECSC, 1048, 1049)
	// phantom is the pending wrap: the last column was written and the
	// next character goes to the next line (the emulator's atPhantom).
	phantom bool
	noWrap  bool // DECAWM is reset
	lnm     bool // LF also returns the carriage (ANSI mode 20)

	p *ansi.Parser
	// grapheme holds printed characters that a following one may still
	// join (a base and its combining marks): the emulator's hold-back,
	// flushed by any sequence or control and at the end of every write.
	grapheme []byte
	// names are the contents of cells that are not one ASCII byte, by
	// id-nameBase; ids finds a content's id.
	names []string
	ids   map[string]cell
	// clusters remembers how a held-back run of characters splits into
	// cells (see flush): splitting and measuring clusters was a third of
	// the screen's work, and the server sends the same runs every frame.
	// What a run splits into depends only on its bytes and on ids, which
	// never change once given, so a remembered split is always right.
	clusters map[string][]cell
	// replies are the answers to the server's queries, for the caller to
	// send back as input.
	replies []byte
}

type cursor struct{ x, y int }

// cell is a cell's content and width: content id << 3 | width. Content
// ids below nameBase are one ASCII byte (0 is no content: the blank half
// of a wide character); the others index screen.names.
type cell uint32

const (
	nameBase  = 128
	widthBits = 3
	blank     = cell(' '<<widthBits | 1) // the emulator's EmptyCell
)

func (c cell) width() int { return int(c & (1<<widthBits - 1)) }

// newScreen returns a blank w×h screen.
func newScreen(w, h int) *screen {
	s := &screen{w: max(w, 1), h: max(h, 1)}
	s.p = ansi.NewParser()
	s.p.SetParamsSize(parser.MaxParamsSize)
	// Long strings (titles) are cut, which changes no cell; the only
	// string read is the short colour query.
	s.p.SetDataSize(256)
	s.p.SetHandler(ansi.Handler{
		Print:     s.print,
		Execute:   s.execute,
		HandleCsi: s.csi,
		HandleEsc: s.esc,
		HandleOsc: s.osc,
		HandleDcs: func(ansi.Cmd, ansi.Params, []byte) { s.flush() },
		HandleApc: func([]byte) { s.flush() },
		HandlePm:  func([]byte) { s.flush() },
		HandleSos: func([]byte) { s.flush() },
	})
	return s
}

// Write reads output from the server. It never fails.
func (s *screen) Write(p []byte) (int, error) {
	for i := 0; i < len(p); {
		if p[i] >= ' ' && p[i] < 0x7f && s.p.State() == parser.GroundState {
			j := i + 1
			for j < len(p) && p[j] >= ' ' && p[j] < 0x7f {
				j++
			}
			s.printASCII(p[i:j])
			i = j
			continue
		}
		// A whole, valid UTF-8 character in the ground state is what the
		// parser would collect byte by byte and hand to print: decode it
		// here at once. Anything else (a character split across writes,
		// invalid bytes) goes through the parser.
		if p[i] >= 0xC2 && p[i] <= 0xF4 && s.p.State() == parser.GroundState {
			if r, n := utf8.DecodeRune(p[i:]); n > 1 {
				s.print(r)
				i += n
				continue
			}
		}
		s.p.Advance(p[i])
		i++
	}
	s.flush() // as the emulator does at the end of every write
	return len(p), nil
}

// takeReplies returns the answers to queries written since the last call.
func (s *screen) takeReplies() []byte {
	r := s.replies
	s.replies = nil
	return r
}

// appendRow appends row y's text to b as client.appendRow reads the
// emulator's: every cell's content, trailing spaces trimmed.
func (s *screen) appendRow(b []byte, y int) []byte {
	g := s.grids[s.alt]
	if g == nil || y < 0 || y >= s.h {
		return b
	}
	start := len(b)
	for _, c := range g[y*s.w : (y+1)*s.w] {
		switch id := c >> widthBits; {
		case id == 0:
		case id < nameBase:
			b = append(b, byte(id))
		default:
			b = append(b, s.names[id-nameBase]...)
		}
	}
	return append(b[:start], bytes.TrimRight(b[start:], " ")...)
}

// String is the whole screen's text, rows joined by newlines.
func (s *screen) String() string {
	var b []byte
	for y := range s.h {
		if y > 0 {
			b = append(b, '\n')
		}
		b = s.appendRow(b, y)
	}
	return string(b)
}

// cursorPosition is where the next character goes (0-based).
func (s *screen) cursorPosition() (x, y int) {
	c := s.cur[s.alt]
	return c.x, c.y
}

// grid returns the shown screen's cells, made blank if it had none.
func (s *screen) grid() []cell {
	g := s.grids[s.alt]
	if g == nil {
		g = make([]cell, s.w*s.h)
		for i := range g {
			g[i] = blank
		}
		s.grids[s.alt] = g
	}
	return g
}

// printASCII prints a run of printable ASCII bytes as the emulator's
// handlePrint would one by one: each byte goes out when the next arrives,
// and the last is held back, since a combining mark may follow it.
func (s *screen) printASCII(run []byte) {
	s.flush()
	for _, b := range run[:len(run)-1] {
		s.put(cell(b)<<widthBits | 1)
	}
	s.grapheme = append(s.grapheme, run[len(run)-1])
}

// print takes one printable rune from the parser (handlePrint).
func (s *screen) print(r rune) {
	if r >= ' ' && r < 0x7f {
		s.printASCII([]byte{byte(r)})
		return
	}
	s.grapheme = utf8.AppendRune(s.grapheme, r)
}

// flush prints the held-back characters, one cell per grapheme cluster,
// measured as the emulator measures them (flushGrapheme).
func (s *screen) flush() {
	g := s.grapheme
	if len(g) == 0 {
		return
	}
	if len(g) == 1 && g[0] < 0x80 {
		s.put(cell(g[0])<<widthBits | 1)
		s.grapheme = g[:0]
		return
	}
	cells, ok := s.clusters[string(g)] // no copy to look up
	if !ok {
		cells = s.cells(g)
		if len(g) <= maxClusterKey && len(s.clusters) < maxClusters {
			if s.clusters == nil {
				s.clusters = make(map[string][]cell)
			}
			s.clusters[string(g)] = cells
		}
	}
	for _, c := range cells {
		s.put(c)
	}
	s.grapheme = s.grapheme[:0]
}

// Bounds of screen.clusters: the server draws the same few runs of
// non-ASCII characters (borders, marks) again and again.
const (
	maxClusters   = 128
	maxClusterKey = 512
)

// cells splits held-back characters into grapheme clusters, one cell
// each, measured as the emulator measures them.
func (s *screen) cells(g []byte) []cell {
	var cells []cell
	for len(g) > 0 {
		cluster, width := ansi.FirstGraphemeCluster(g, ansi.GraphemeWidth)
		if len(cluster) == 0 {
			break
		}
		cells = append(cells, s.id(cluster)<<widthBits|cell(min(width, 1<<widthBits-1)))
		g = g[len(cluster):]
	}
	return cells
}

// id is content's id, made the first time it is seen.
func (s *screen) id(content []byte) cell {
	if len(content) == 1 && content[0] < 0x80 {
		return cell(content[0])
	}
	if id, ok := s.ids[string(content)]; ok {
		return id
	}
	if s.ids == nil {
		s.ids = make(map[string]cell)
	}
	id := cell(nameBase + len(s.names))
	s.names = append(s.names, string(content))
	s.ids[string(content)] = id
	return id
}

// put writes one cluster at the cursor and moves on (handleGrapheme).
func (s *screen) put(c cell) {
	cur := &s.cur[s.alt]
	if s.phantom && !s.noWrap {
		s.index()
		cur.x = 0
	}
	s.set(cur.x, cur.y, c)
	s.phantom = !s.noWrap && cur.x >= s.w-1
	if !s.phantom {
		cur.x = min(cur.x+c.width(), s.w-1)
	}
}

// set writes c at (x, y) as ultraviolet's Line.Set does: a wide character
// partly overwritten is blanked whole, and a wide character's second cell
// is left with no content (or the character is blanked if it does not fit).
func (s *screen) set(x, y int, c cell) {
	if x < 0 || x >= s.w || y < 0 || y >= s.h {
		return
	}
	row := s.grid()[y*s.w : (y+1)*s.w]
	switch pw := row[x].width(); {
	case pw == 1:
	case pw > 1:
		for j := 0; j < pw && x+j < s.w; j++ {
			row[x+j] = blank
		}
	default: // the second cell of a wide character, or a zero-width one
		for j := 1; x-j >= 0 && j < 1<<widthBits; j++ {
			if ww := row[x-j].width(); ww > 1 && j < ww {
				for k := range ww {
					if x-j+k < s.w {
						row[x-j+k] = blank
					}
				}
				break
			}
		}
	}
	row[x] = c
	cw := c.width()
	if x+cw > s.w {
		for i := 0; i < cw && x+i < s.w; i++ {
			row[x+i] = blank
		}
		return
	}
	for j := 1; j < cw; j++ {
		row[x+j] = 0
	}
}

// erase blanks cells x0 to x1-1 of row y (FillArea with a blank cell).
// Only the two ends can reach a wide character outside the range.
func (s *screen) erase(y, x0, x1 int) {
	x0, x1 = max(x0, 0), min(x1, s.w)
	if x0 >= x1 || y < 0 || y >= s.h || s.grids[s.alt] == nil {
		return
	}
	s.set(x0, y, blank)
	row := s.grids[s.alt][y*s.w : (y+1)*s.w]
	for x := x0 + 1; x < x1-1; x++ {
		row[x] = blank
	}
	if x1-1 > x0 {
		s.set(x1-1, y, blank)
	}
}

// eraseRows blanks rows y0 to y1-1.
func (s *screen) eraseRows(y0, y1 int) {
	g := s.grids[s.alt]
	y0, y1 = max(y0, 0), min(y1, s.h)
	if g == nil || y0 >= y1 {
		return
	}
	for i := y0 * s.w; i < y1*s.w; i++ {
		g[i] = blank
	}
}

// scroll moves the rows up by n (down if n < 0), blanking the rows that
// come in.
func (s *screen) scroll(n int) {
	g := s.grids[s.alt]
	if g == nil || n == 0 {
		return
	}
	if n >= s.h || -n >= s.h {
		s.eraseRows(0, s.h)
		return
	}
	if n > 0 {
		copy(g, g[n*s.w:])
		s.eraseRows(s.h-n, s.h)
	} else {
		copy(g[-n*s.w:], g)
		s.eraseRows(0, -n)
	}
}

// index moves the cursor down, scrolling at the bottom; it ends the
// pending wrap.
func (s *screen) index() {
	cur := &s.cur[s.alt]
	if cur.y == s.h-1 {
		s.scroll(1)
	} else {
		cur.y++
	}
	s.phantom = false
}

// moveTo puts the cursor at (x, y), clamped to the screen, and ends the
// pending wrap.
func (s *screen) moveTo(x, y int) {
	s.cur[s.alt] = cursor{min(max(x, 0), s.w-1), min(max(y, 0), s.h-1)}
	s.phantom = false
}

// moveBy moves the cursor by (dx, dy), clamped to the screen.
func (s *screen) moveBy(dx, dy int) {
	c := s.cur[s.alt]
	s.moveTo(c.x+dx, c.y+dy)
}

// execute handles a C0 or C1 control.
func (s *screen) execute(b byte) {
	s.flush()
	switch b {
	case ansi.BS:
		s.moveBy(-1, 0)
	case ansi.LF, ansi.VT, ansi.FF:
		s.index()
		if s.lnm {
			s.moveTo(0, s.cur[s.alt].y)
		}
	case ansi.CR:
		s.moveTo(0, s.cur[s.alt].y)
	case ansi.IND:
		s.index()
	case ansi.RI:
		s.reverseIndex()
	}
}

// reverseIndex moves the cursor up, scrolling down at the top; unlike
// the other moves it keeps the pending wrap, as the emulator's does.
func (s *screen) reverseIndex() {
	if c := &s.cur[s.alt]; c.y == 0 {
		s.scroll(-1)
	} else {
		c.y--
	}
}

// esc handles an ESC sequence.
func (s *screen) esc(cmd ansi.Cmd) {
	s.flush()
	switch cmd {
	case '7': // DECSC
		s.saved[s.alt] = s.cur[s.alt]
	case '8': // DECRC
		s.cur[s.alt] = s.saved[s.alt]
	case 'D': // IND
		s.index()
	case 'M': // RI
		s.reverseIndex()
	case 'c': // RIS
		s.reset()
	}
}

// reset is RIS: both screens blank, cursors home, default modes, the
// main screen shown.
func (s *screen) reset() {
	for i := range s.grids {
		if s.grids[i] != nil {
			s.alt = i
			s.eraseRows(0, s.h)
		}
	}
	s.alt = 0
	s.cur, s.saved = [2]cursor{}, [2]cursor{}
	s.phantom, s.noWrap, s.lnm = false, false, false
	s.grapheme = s.grapheme[:0]
}

// Commands of the CSI sequences with a private marker that screen reads
// (ansi.Command('?', 0, 'h') and 'l').
const (
	decSet   = '?'<<parser.PrefixShift | 'h'
	decReset = '?'<<parser.PrefixShift | 'l'
)

// csi handles a CSI sequence.
func (s *screen) csi(cmd ansi.Cmd, params ansi.Params) {
	s.flush()
	n, _, _ := params.Param(0, 1) // the count, for those that take one
	x, y := s.cursorPosition()
	switch int(cmd) {
	case 'A': // CUU
		s.moveBy(0, -n)
	case 'B': // CUD
		s.moveBy(0, n)
	case 'C': // CUF
		s.moveBy(n, 0)
	case 'D': // CUB
		s.moveBy(-n, 0)
	case 'E': // CNL
		s.moveBy(0, n)
		s.moveTo(0, s.cur[s.alt].y)
	case 'F': // CPL
		s.moveBy(0, -n)
		s.moveTo(0, s.cur[s.alt].y)
	case 'G': // CHA
		s.moveTo(n-1, y)
	case '`': // HPA
		s.moveTo(min(s.w-1, n-1), y)
	case 'a': // HPR
		s.moveTo(min(s.w-1, x+n), y)
	case 'd': // VPA
		s.moveTo(x, min(s.h-1, n-1))
	case 'e': // VPR
		s.moveTo(x, min(s.h-1, y+n))
	case 'S': // SU: the cursor and the pending wrap stay
		if n > 0 {
			s.scroll(min(n, s.h))
		}
	case 'T': // SD
		if n > 0 {
			s.scroll(-min(n, s.h))
		}
	case 'H', 'f': // CUP, HVP
		col, _, _ := params.Param(1, 1)
		s.moveTo(col-1, n-1)
	case 'J': // ED
		switch m, _, _ := params.Param(0, 0); m {
		case 0:
			s.erase(y, x, s.w)
			s.eraseRows(y+1, s.h)
		case 1:
			s.eraseRows(0, y+1)
		case 2, 3:
			s.eraseRows(0, s.h)
		}
	case 'K': // EL
		switch m, _, _ := params.Param(0, 0); m {
		case 0:
			s.erase(y, x, s.w)
			s.phantom = false
		case 1:
			s.erase(y, 0, x+1)
		case 2:
			s.erase(y, 0, s.w)
		}
	case 'X': // ECH
		s.erase(y, x, x+max(n, 1))
		s.phantom = false
	case 'h', 'l': // SM, RM
		s.modes(params, false, cmd == 'h')
	case decSet, decReset:
		s.modes(params, true, cmd == decSet)
	}
}

// modes sets or resets the modes that change where text goes.
func (s *screen) modes(params ansi.Params, dec, set bool) {
	for _, p := range params {
		m := p.Param(-1)
		switch {
		case !dec && m == 20:
			s.lnm = set
		case dec && m == 7:
			s.noWrap = !set
		case dec && m == 1047:
			s.altScreen(set)
		case dec && m == 1048:
			if set {
				s.saved[s.alt] = s.cur[s.alt]
			} else {
				s.cur[s.alt] = s.saved[s.alt]
			}
		case dec && m == 1049:
			if set {
				s.saved[s.alt] = s.cur[s.alt]
			}
			s.altScreen(set)
		}
	}
}

// altScreen shows the alternate screen, blank with the cursor home, or the
// main screen as it was left.
func (s *screen) altScreen(on bool) {
	want := 0
	if on {
		want = 1
	}
	if s.alt == want {
		return
	}
	s.alt = want
	if on {
		s.eraseRows(0, s.h)
		s.moveTo(0, 0)
	}
}

// bgReply is the emulator's answer to the background colour query: its
// default background, black, as
// ansi.SetBackgroundColor(ansi.XRGBColor{Color: color.Black}.String()).
const bgReply = "\x1b]11;rgb:0000/0000/0000\x07"

// osc handles an OSC sequence: only the background colour query needs an
// answer; titles and the rest change no cell.
func (s *screen) osc(cmd int, data []byte) {
	s.flush()
	if cmd == 11 && string(data) == "11;?" {
		s.replies = append(s.replies, bgReply...)
	}
}
