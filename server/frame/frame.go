// Package frame draws a session's Bubble Tea view to its SSH channel.
//
// Bubble Tea's own renderer wakes up at its frame rate for every session,
// changed or not, and keeps two full cell buffers per session. On a server
// holding thousands of mostly idle players that is most of the idle cost.
// This renderer does no work at all until the view changes; then it rewrites
// only the lines that differ, at most once per frame interval, and hands the
// bytes to a writer goroutine so the program never blocks on the network. A
// client that stops reading is reported once, so the server can drop it.
//
// A program is bound to its Renderer by a Hook: the program runs without
// Bubble Tea's renderer, and the Hook passes every view it asks for to
// Render, or to RenderLines when the program has its frame as lines
// (LineViewer), as the arcade's sessions do, so that no frame is joined
// into one string only to be cut into lines again.
//
// Of a tea.View the Renderer honours:
//   - Content, cut to the terminal's height and each line to its width,
//     colours reduced to the terminal's profile;
//   - WindowTitle, stripped of escape sequences;
//   - Cursor's position: shown there when set, hidden when nil.
//
// It drops everything else. The screen is always the alternate screen with
// bracketed paste on, whatever AltScreen and DisableBracketedPasteMode say;
// MouseMode and OnMouse, ReportFocus, BackgroundColor and ForegroundColor,
// KeyboardEnhancements, ProgressBar, ProgramStatus and the cursor's shape,
// colour and blink are never written. The arcade's screens use none of
// them; a screen that needs one must teach this package first. A question
// to the terminal (the background colour) is not part of a view: the
// session passes it to Ask, and the answer comes back as input.
package frame

import (
	"bytes"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine/textsafe"
)

// Sequences the renderer writes. The screen is always the alternate one,
// so leaving restores whatever the player's terminal showed before.
const (
	enterScreen = ansi.SetModeAltScreenSaveCursor + ansi.HideCursor + ansi.SetModeBracketedPaste
	leaveScreen = resetStyle + ansi.ResetModeBracketedPaste + ansi.ShowCursor + ansi.ResetModeAltScreenSaveCursor
	clearScreen = ansi.CursorHomePosition + ansi.EraseEntireScreen
	resetStyle  = "\x1b[m"
)

// Options configure a Renderer. Zero values take the defaults below.
type Options struct {
	// Width and Height are the terminal's size in cells.
	Width, Height int
	// Profile is the terminal's colour support; colours in the view are
	// reduced to it (down to none).
	Profile colorprofile.Profile
	// MinInterval is the shortest time between two frames. A change that
	// comes sooner is drawn when the interval is up, together with any
	// later change; one that comes later is drawn at once.
	MinInterval time.Duration
	// MaxPending bounds the bytes waiting for a client. A client that lets
	// more pile up has stopped reading.
	MaxPending int
	// StallTimeout is how long one write may block before the client
	// counts as having stopped reading.
	StallTimeout time.Duration
	// OnStall is called once, from some goroutine, when the client has
	// stopped reading. Output is dropped from then on.
	OnStall func()
	// Colours remembers colour sequences reduced to a profile. A server
	// gives all its renderers one, so that each session does not keep
	// its own copy of the same few dozen; nil gives the renderer its own.
	Colours *Colours
}

// Defaults for Options.
const (
	DefaultMinInterval  = time.Second / 30
	DefaultMaxPending   = 256 << 10
	DefaultStallTimeout = 30 * time.Second
)

// Renderer draws views to one terminal. Its methods are safe to call from
// several goroutines.
type Renderer struct {
	opts Options
	out  *outbox
	conv colorprofile.Writer // reduces colours into buf
	// colours remembers each colour sequence reduced to a profile (see
	// writeColours): Options.Colours, shared with the server's other
	// sessions, or the renderer's own.
	colours *Colours

	mu      sync.Mutex
	width   int
	height  int
	started bool
	closed  bool
	repaint bool // the whole screen must be redrawn (first frame, resize)
	// shown is the content on screen as lines, all of them, and rows how
	// many of them are on screen (it is cut to the screen's height). It is
	// the very slice RenderLines was handed (Render's, cut from its
	// content): the last frame's lines, so a line that stayed the same is
	// the new frame's string, not the one it was first drawn as, or a
	// session would hold pieces of many old frames.
	shown []string
	rows  int
	title string
	// cursor is the cursor on screen.
	cursor *tea.Cursor
	// next is the latest view, not yet drawn when pending, and nextLines
	// its content, as RenderLines was handed them.
	next      tea.View
	nextLines []string
	pending   bool
	lastDraw  time.Time
	// timer draws a view held back by the frame interval; it is made
	// the first time one is, then reset, and armed says it is set.
	timer *time.Timer
	armed bool
	buf   bytes.Buffer // the frame being built
}

// New returns a renderer writing to w. Nothing is written until the first
// Render.
func New(w io.Writer, opts Options) *Renderer {
	if opts.MinInterval <= 0 {
		opts.MinInterval = DefaultMinInterval
	}
	if opts.MaxPending <= 0 {
		opts.MaxPending = DefaultMaxPending
	}
	if opts.StallTimeout <= 0 {
		opts.StallTimeout = DefaultStallTimeout
	}
	if opts.OnStall == nil {
		opts.OnStall = func() {}
	}
	if opts.Colours == nil {
		opts.Colours = &Colours{}
	}
	r := &Renderer{
		opts:    opts,
		colours: opts.Colours,
		out:     newOutbox(w, opts.MaxPending, opts.StallTimeout, opts.OnStall),
		width:   max(opts.Width, 1),
		height:  max(opts.Height, 1),
		repaint: true,
	}
	r.conv = colorprofile.Writer{Forward: &r.buf, Profile: opts.Profile}
	return r
}

// Resize tells the renderer the terminal's new size. The next frame
// repaints the whole screen.
func (r *Renderer) Resize(width, height int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	width, height = max(width, 1), max(height, 1)
	if width != r.width || height != r.height {
		r.width, r.height = width, height
		r.repaint = true
	}
}

// Render takes the program's latest view. It is drawn now, or at the end of
// the current frame interval if the last frame was drawn less than one
// interval ago. It is RenderLines of the content's lines; a program that
// has its frame as lines already hands them to RenderLines (LineViewer).
func (r *Renderer) Render(v tea.View) {
	r.RenderLines(v, strings.Split(v.Content, "\n"))
}

// RenderLines is Render of v with lines as its content, as if v.Content
// were strings.Join(lines, "\n"); v.Content is not read. It is for a
// program that has its frame as lines already, which would otherwise be
// joined into one string only to be cut into lines again here. A line must
// hold no newline. The renderer keeps lines, to draw them later or as the
// lines on screen, so the caller must not change them once handed over: a
// new frame is a new slice (the same slice again is the same frame).
func (r *Renderer) RenderLines(v tea.View, lines []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	if r.started && !r.repaint && r.onScreen(v) && linesShown(lines, r.shown) {
		r.drop()
		return
	}
	r.take(v, lines)
}

// drop forgets a view waiting to be drawn: the one now rendered is what is
// on screen already, so the change was undone before it was drawn. It
// holds r.mu.
func (r *Renderer) drop() {
	r.next, r.nextLines, r.pending = tea.View{}, nil, false
}

// take makes v, whose content is lines, the view to draw next: now, or
// when the frame interval is up. It holds r.mu.
func (r *Renderer) take(v tea.View, lines []string) {
	v.Content = "" // the content is lines
	r.next, r.pending = v, true
	r.nextLines = lines
	if r.armed {
		return // a frame is already due; it will draw this view
	}
	if wait := r.opts.MinInterval - time.Since(r.lastDraw); wait > 0 && r.started {
		r.armed = true
		if r.timer == nil {
			r.timer = time.AfterFunc(wait, r.drawDue)
		} else {
			r.timer.Reset(wait)
		}
		return
	}
	r.draw(lines)
}

// onScreen reports whether v's title and cursor are what the terminal
// shows already.
func (r *Renderer) onScreen(v tea.View) bool {
	if v.WindowTitle != r.title || (v.Cursor == nil) != (r.cursor == nil) {
		return false
	}
	return v.Cursor == nil || (v.Cursor.X == r.cursor.X && v.Cursor.Y == r.cursor.Y)
}

// linesShown reports whether lines are shown, as RenderLines reads them.
func linesShown(lines, shown []string) bool {
	if len(lines) == 0 {
		return len(shown) == 1 && shown[0] == ""
	}
	return slices.Equal(lines, shown)
}

// drawDue draws the view that waited for the frame interval.
func (r *Renderer) drawDue() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.armed = false
	if !r.closed && r.pending {
		r.draw(r.nextLines)
	}
}

// Close draws any waiting view, restores the terminal (main screen, cursor,
// paste mode) and waits until the client has taken it all, for at most
// wait. It returns false if the output could not be delivered in time.
func (r *Renderer) Close(wait time.Duration) bool {
	r.mu.Lock()
	if r.armed {
		r.timer.Stop()
		r.armed = false
	}
	if !r.closed {
		if r.pending {
			r.draw(r.nextLines)
		}
		r.closed = true
		if r.started {
			r.buf.Reset()
			if r.title != "" {
				r.buf.WriteString(ansi.SetWindowTitle(""))
			}
			r.buf.WriteString(leaveScreen)
			r.out.enqueue(r.buf.Bytes())
		}
	}
	r.mu.Unlock()
	return r.out.close(wait)
}

// Ask writes a query to the terminal, such as ansi.RequestBackgroundColor;
// the terminal's answer comes back as input. It goes out in order with the
// frames, and is dropped once the renderer is closed.
func (r *Renderer) Ask(query string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.closed {
		r.out.enqueue([]byte(query))
	}
}

// draw writes the difference between the screen and r.next, whose content
// is lines (none: one empty line). It holds r.mu.
func (r *Renderer) draw(lines []string) {
	v := r.next
	r.next, r.nextLines, r.pending = tea.View{}, nil, false
	r.buf.Reset()

	if !r.started {
		r.buf.WriteString(enterScreen)
		r.started = true
	}
	if r.repaint {
		r.buf.WriteString(clearScreen)
		r.rows = 0
		r.repaint = false
	}
	if v.WindowTitle != r.title {
		r.writeTitle(v.WindowTitle)
		r.title = v.WindowTitle
	}
	if r.cursor != nil {
		r.buf.WriteString(ansi.HideCursor) // no flicker while lines change
	}

	// Each line of the content is written where it is on screen (the
	// first r.rows lines shown are) and differs from the line there.
	if len(lines) == 0 {
		lines = []string{""} // as the content "" is one empty line
	}
	was := r.rows
	for i, line := range lines[:min(len(lines), r.height)] {
		if i >= was || r.shown[i] != line {
			r.writeLine(i, line)
		}
	}
	n := len(lines)
	r.shown = lines
	r.rows = min(n, r.height)
	for i := r.rows; i < was; i++ {
		r.moveTo(1, i+1)
		r.buf.WriteString(ansi.EraseEntireLine)
	}

	r.cursor = v.Cursor
	if c := v.Cursor; c != nil {
		r.moveTo(c.X+1, c.Y+1)
		r.buf.WriteString(ansi.ShowCursor)
	}
	if r.buf.Len() > 0 {
		r.out.enqueue(r.buf.Bytes())
	}
	r.lastDraw = time.Now()
}

// writeTitle writes ansi.SetWindowTitle(ansi.Strip(title)) into r.buf. A
// title of printable text (as the arcade's are; a table's changes with
// every move) is what Strip would return, so it is written as it is
// instead of through Strip's byte-by-byte parser and three new strings.
func (r *Renderer) writeTitle(title string) {
	if !plainText(title) {
		title = ansi.Strip(title)
	}
	r.buf.WriteString("\x1b]2;")
	r.buf.WriteString(title)
	r.buf.WriteByte('\a')
}

// plainText reports whether s is valid UTF-8 without control characters
// (C0, DEL, or C1 written as a rune), which ansi.Strip returns unchanged.
func plainText(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || r < 0xa0 {
			return false
		}
		i += size
	}
	return true
}

// moveTo writes ansi.CursorPosition(col, row) into r.buf, byte for byte,
// without making a string: that one is made for every changed line of
// every frame.
func (r *Renderer) moveTo(col, row int) {
	if row <= 1 && col <= 1 {
		r.buf.WriteString(ansi.CursorHomePosition)
		return
	}
	b := append(r.buf.AvailableBuffer(), "\x1b["...)
	if row > 0 {
		b = strconv.AppendInt(b, int64(row), 10)
	}
	b = append(b, ';')
	if col > 0 {
		b = strconv.AppendInt(b, int64(col), 10)
	}
	r.buf.Write(append(b, 'H'))
}

// writeLine writes line as row i (from 0): cut to the terminal's width, its
// colours reduced to the profile, and the rest of the row erased.
func (r *Renderer) writeLine(i int, line string) {
	r.moveTo(1, i+1)
	// textsafe.Width is ansi.StringWidth, counting the common
	// case (ASCII, styles' colour sequences, the board's glyphs) byte by
	// byte instead of segmenting graphemes: measuring every changed line
	// was most of this renderer's time.
	w := textsafe.Width(line)
	if w > r.width {
		// A wide character that does not fit is dropped whole, so the
		// cut line may be a column short.
		line = ansi.Truncate(line, r.width, "")
		w = textsafe.Width(line)
	}
	switch {
	case r.opts.Profile == colorprofile.TrueColor || !strings.Contains(line, "\x1b"):
		r.buf.WriteString(line)
	case r.opts.Profile == colorprofile.ANSI256 || r.opts.Profile == colorprofile.ANSI || r.opts.Profile == colorprofile.ASCII:
		r.writeColours(line)
	default:
		_, _ = r.conv.Write([]byte(line)) // into r.buf, which cannot fail
	}
	r.buf.WriteString(resetStyle)
	// A line that fills the row leaves the cursor on its last cell, where
	// erasing to the right would wipe that cell; nothing is left to erase.
	if w < r.width {
		r.buf.WriteString(ansi.EraseLineRight)
	}
}

// writeColours writes line into r.buf with its colours reduced to the
// profile, byte for byte as colorprofile.Writer would: that writer turns
// each SGR sequence (ESC [ params m) into its reduced form on its own and
// copies everything else, so each sequence is reduced once and then
// looked up. Reducing every changed line afresh was a tenth of the objects
// a busy server allocated per move. A line holding any other escape
// sequence goes through colorprofile.Writer whole.
func (r *Renderer) writeColours(line string) {
	start := r.buf.Len()
	rest := line
	for {
		i := strings.IndexByte(rest, '\x1b')
		if i < 0 {
			r.buf.WriteString(rest)
			return
		}
		r.buf.WriteString(rest[:i])
		n := sgrLen(rest[i:])
		if n == 0 {
			r.buf.Truncate(start)
			_, _ = r.conv.Write([]byte(line)) // into r.buf, which cannot fail
			return
		}
		r.buf.WriteString(r.colours.reduced(r.opts.Profile, rest[i:i+n]))
		rest = rest[i+n:]
	}
}

// sgrLen is the length of the SGR sequence s starts with (ESC [, digits,
// semicolons and colons, m), or 0 when s starts with anything else.
func sgrLen(s string) int {
	if len(s) < 3 || s[0] != '\x1b' || s[1] != '[' {
		return 0
	}
	for j := 2; j < len(s); j++ {
		switch c := s[j]; {
		case c >= '0' && c <= '9', c == ';', c == ':':
		case c == 'm':
			return j + 1
		default:
			return 0
		}
	}
	return 0
}

// maxColours bounds the colour sequences a Colours remembers, over all
// profiles. The arcade's styles make a few dozen; the bound only matters
// if something drew ever new colours, which are then reduced every time.
const maxColours = 1024

// Colours remembers SGR colour sequences reduced to a terminal's profile:
// a pure function of the two, so one Colours serves every session of a
// server. Kept per session it was a map and two strings a sequence, a few
// dozen sequences in each session for the collector to scan. Reading
// takes no lock: the table is never changed, only replaced by a copy with
// one more entry, which happens a few dozen times in a server's life. The
// zero value is ready to use; it is safe for concurrent use.
type Colours struct {
	table atomic.Pointer[map[colourKey]string]
	mu    sync.Mutex // orders the copies that add entries
}

// colourKey is a sequence and the profile it is reduced to.
type colourKey struct {
	profile colorprofile.Profile
	seq     string
}

// Len is how many reduced sequences c remembers.
func (c *Colours) Len() int {
	if t := c.table.Load(); t != nil {
		return len(*t)
	}
	return 0
}

// reduced is the SGR sequence seq reduced to profile.
func (c *Colours) reduced(profile colorprofile.Profile, seq string) string {
	if t := c.table.Load(); t != nil {
		if out, ok := (*t)[colourKey{profile, seq}]; ok {
			return out
		}
	}
	var b bytes.Buffer
	w := colorprofile.Writer{Forward: &b, Profile: profile}
	_, _ = w.Write([]byte(seq))
	out := b.String()
	c.add(profile, seq, out)
	return out
}

// add remembers out for seq at profile, unless it is known already or c
// is full.
func (c *Colours) add(profile colorprofile.Profile, seq, out string) {
	k := colourKey{profile, seq}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.table.Load()
	var n int
	if old != nil {
		if _, ok := (*old)[k]; ok {
			return // another session added it meanwhile
		}
		n = len(*old)
	}
	if n >= maxColours {
		return
	}
	k.seq = strings.Clone(seq) // a key of its own, not a piece of the whole view
	t := make(map[colourKey]string, n+1)
	if old != nil {
		maps.Copy(t, *old)
	}
	t[k] = out
	c.table.Store(&t)
}
