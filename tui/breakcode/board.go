// Package breakcode draws a Break the Code table: the viewer's tiles, every
// seat's sheet of answers, the face-up question cards, the log, and the
// guess entry. It only ever draws what the engine's View for this viewer
// holds, so it cannot show a tile the viewer may not see.
package breakcode

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	bc "github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/engine/words"
	"github.com/codebreakers/codebreakers/tui/board"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// Board is the Break the Code board. It implements board.Board.
type Board struct {
	// st and km are shared by every board drawn in the same looks (they
	// are some 8 KB): read them, never change them.
	st  *Styles
	km  *KeyMap
	v   bc.View
	has bool
	c   board.Context

	cursor  int         // highlighted face-up card (index into View.FaceUp)
	numPick map[int]int // card → index into CardNumbers(card)

	guessing bool
	confirm  bool // a one-shot guess (3–4 players) waits for a second enter
	input    widget.Field
	notepad  bool // the full notepad replaces the table
	scroll   int  // notepad scroll
	// noteOverflow says the notepad, as last laid out (layoutNotepad), is
	// longer than the board, so that scrolling it does something.
	noteOverflow bool
	err          string
	// errWhy is what the viewer tried ("ask", "guess") when err is
	// whyNot's answer to it, else "": such a refusal explains the table as
	// it was, so a new view that no longer gives it clears it (the turn
	// came back, the game moved on) rather than leave it contradicting
	// the board.
	errWhy string
	// framed is whether the sheets, as last laid out (SetSize), draw
	// framed tiles (useFramed).
	framed bool

	// What the board drew before and will draw again on the next frames:
	// styled strings by text, tiles, the log's wrapped events and the
	// seats' notes. Each depends only on its key (the styles never change),
	// and each is bounded, so none needs clearing when the view changes.
	// (The question rows are not remembered by row beyond the last list,
	// qlist: a move replaces one card in its place, so a map of every row
	// drawn, some 3 KB of strings a board for the collector to scan, was
	// met again only when the cursor came back.)
	paint     paint
	logs      widget.LogCache
	seatNotes []seatNotes // by seat

	// busy says a move is on its way to the table: keys that could make
	// another are held back (SetBusy, holds).
	busy bool

	// shortHelp is each key bar list made so far, with what it shows
	// (at most 2⁹ of them; a game meets a handful): a few, looked
	// through in turn, which cost less than a map's lookup on every
	// frame and its table for the collector to scan.
	shortHelp []helpList
	// gen counts SetView's calls; drawn are the lines last drawn (outside
	// the guess entry), remembered by drawKey.
	gen   uint64
	drawn drawnLines
	// fit is where the lines ViewLines gave last start to be fitted to
	// their width by the board itself, and fitW that width (FittedFrom).
	fit, fitW int
	// heads are the sheets' head lines as last drawn, by seat (the
	// centre's after the seats').
	heads []seatHead
	// frames is each row of framed tiles drawn (framedTiles), in the
	// order drawn: a game draws two or three, which a slice holds in a
	// third of what a map's smallest table takes for the collector.
	frames []framedRows
	// labels is the seats' labels as sheetLabels last made them, with
	// what they were made from.
	labels seatLabels
	// blocks are the sheets' blocks' lines as last drawn, by block.
	blocks []drawnBlock
	// lower is the lower block as last drawn in a wide window, and
	// logScratch the slice the next frame's log lines are gathered in.
	lower      lowerLines
	logScratch []string
	// sheetScratch is the slice the sheets' blocks are laid out in, kept
	// empty from frame to frame.
	sheetScratch []sheetBlock
	// lineRoom is the slice the board's lines are drawn into (drawLines),
	// the lines remembered (drawn) once drawn.
	lineRoom []string
	// statusRoom is the slice the status lines are made in (statusLines).
	statusRoom []string
	// qhead is the questions' heading as last drawn, and qlist the
	// questions' lines.
	qhead questionsHeadLine
	qlist questionList
}

// seatNotes is one seat's notes as the sheets last drew them.
type seatNotes struct {
	// notes are the view's own, not a copy: a view is never changed once
	// made, and the board keeps the view it draws, so after a frame these
	// are the current view's and cost nothing (a copy was a few KB of
	// strings the collector scanned, per seat).
	notes  []bc.Note
	items  []string
	w      int
	packed []string
	lastW  int // the width of packed's last line
}

// tileKey is a tile as drawn: alone, or padded to fill a framed tile.
type tileKey struct {
	t      bc.Tile
	padded bool
}

// paint is the board's styles, each remembering what it drew.
type paint struct {
	widget.Paints
	hidden widget.Painter
	tiles  map[tileKey]string
}

func newPaint(st *Styles) paint {
	return paint{Paints: widget.NewPaints(&st.Styles), hidden: widget.MakePainter(&st.TileHidden)}
}

var (
	_ board.Board = (*Board)(nil)
	_ board.Lines = (*Board)(nil)
)

// New returns an empty board; SetView gives it something to draw. The
// board reads st and km and never changes them: every board drawn in the
// same looks shares them.
func New(st *Styles, km *KeyMap) *Board {
	return &Board{
		st: st, km: km, numPick: map[int]int{}, input: widget.NewField("› ", "", 40),
		paint: newPaint(st),
	}
}

// SetView implements board.Board.
func (b *Board) SetView(view any, c board.Context) {
	b.gen++ // what the board draws is new (drawKey)
	if v, err := engine.ViewAs[bc.View](view); err == nil {
		b.v, b.has = v, true
	}
	b.c = c
	if b.has {
		b.cursor = min(b.cursor, max(0, len(b.v.FaceUp)-1))
		if !b.canGuess() && b.guessing {
			b.closeGuess()
		}
		if b.errWhy != "" && (b.err != b.whyNot(b.errWhy) || b.whyNotGone(b.errWhy)) {
			b.err, b.errWhy = "", ""
		}
	}
}

// whyNotGone reports whether the viewer may now do what was refused.
func (b *Board) whyNotGone(what string) bool {
	if what == "guess" {
		return b.canGuess()
	}
	return b.canAsk()
}

// SetSize implements board.Board.
func (b *Board) SetSize(w, h int) {
	b.c.Width, b.c.Height = w, h
	b.layoutNotepad()
	if b.has && !b.notepad {
		b.framed = b.wantFramed(max(20, w), max(4, h))
	}
}

// SetError implements board.Board.
func (b *Board) SetError(msg string) { b.err, b.errWhy = msg, "" }

// SetTimeLeft implements board.Board: this board shows no countdown.
func (b *Board) SetTimeLeft(time.Duration) {}

// SetBusy implements board.Board.
func (b *Board) SetBusy(busy bool) { b.busy = busy }

// holds reports whether msg could make a move on this board, so that a
// busy board holds it back: in the guess entry, enter (it sends the
// guess); in the notepad, nothing; elsewhere every key but the notepad's,
// the cursor's and the row numbers (enter asks, g opens a guess, p passes).
func (b *Board) holds(msg tea.KeyPressMsg) bool {
	switch {
	case b.guessing:
		return key.Matches(msg, b.km.Submit, b.km.Choose)
	case b.notepad:
		return false
	}
	return !key.Matches(msg, b.km.Notes, b.km.Up, b.km.Down, b.km.Left, b.km.Right, b.km.Pick)
}

// Overlay implements board.Board.
func (b *Board) Overlay() bool { return b.notepad }

// Capturing implements board.Board.
func (b *Board) Capturing() bool { return b.guessing }

func (b *Board) seat() (engine.Seat, bool) {
	if b.c.Replay || b.v.Viewer.Kind != engine.ViewerSeat {
		return 0, false
	}
	return b.v.Viewer.Seat, true
}

func (b *Board) myTurn() bool {
	_, ok := b.seat()
	return ok && b.has && b.v.YourTurn()
}

func (b *Board) canAsk() bool { return b.myTurn() && b.v.Phase == bc.Playing && len(b.v.FaceUp) > 0 }

func (b *Board) canGuess() bool {
	if !b.myTurn() {
		return false
	}
	s, _ := b.seat()
	if int(s) < len(b.v.Seats) && b.v.Seats[s].Out {
		return false
	}
	return b.v.Phase == bc.Playing || b.v.Phase == bc.LastChance
}

// guessSize is how many tiles a guess names: the opponent's hand with 2
// players, the centre with 3 or 4.
func (b *Board) guessSize() int {
	if b.v.CentreSize > 0 {
		return b.v.CentreSize
	}
	return b.v.HandSize
}

func (b *Board) closeGuess() {
	b.guessing, b.confirm = false, false
	b.input.Blur()
	b.input.SetValue("")
}

// Update implements board.Board.
func (b *Board) Update(msg tea.KeyPressMsg) ([]byte, tea.Cmd) {
	if b.busy && b.holds(msg) {
		return board.Held(), nil
	}
	if !b.has {
		return nil, nil
	}
	if b.guessing {
		return b.updateGuess(msg)
	}
	b.err, b.errWhy = "", ""
	if b.notepad {
		switch {
		case key.Matches(msg, b.km.Notes), key.Matches(msg, b.km.Cancel):
			b.notepad = false
		case key.Matches(msg, b.km.Up):
			b.scroll = max(0, b.scroll-1)
		case key.Matches(msg, b.km.Down):
			b.scroll++
			b.clampNotepad()
		}
		return nil, nil
	}
	switch {
	case key.Matches(msg, b.km.Notes):
		b.notepad, b.scroll = true, 0
		b.layoutNotepad() // its key bar offers scrolling from the first frame
	case key.Matches(msg, b.km.Up):
		b.cursor = max(0, b.cursor-1)
	case key.Matches(msg, b.km.Down):
		b.cursor = min(max(0, len(b.v.FaceUp)-1), b.cursor+1)
	case key.Matches(msg, b.km.Pick):
		if i, err := strconv.Atoi(msg.String()); err == nil && i >= 1 && i <= len(b.v.FaceUp) {
			b.cursor = i - 1
		}
	case key.Matches(msg, b.km.Left), key.Matches(msg, b.km.Right):
		if card, ok := b.card(); ok && bc.NeedsNumber(card) {
			b.numPick[card] = 1 - b.numPick[card]
		}
	case key.Matches(msg, b.km.Choose):
		if b.c.Replay || !b.has {
			return nil, nil
		}
		if !b.canAsk() {
			b.refuse("ask")
			return nil, nil
		}
		card, _ := b.card()
		return bc.AskAction(card, b.number(card)), nil
	case key.Matches(msg, b.km.Guess):
		if !b.canGuess() {
			b.refuse("guess")
			return nil, nil
		}
		b.guessing = true
		b.input.Focus()
		return nil, nil
	case key.Matches(msg, b.km.Pass):
		if b.myTurn() && b.v.Phase == bc.LastChance {
			return bc.PassAction(), nil
		}
	}
	return nil, nil
}

// refuse shows why the viewer cannot do what right now.
func (b *Board) refuse(what string) { b.err, b.errWhy = b.whyNot(what), what }

// whyNot explains why the viewer cannot act right now.
func (b *Board) whyNot(what string) string {
	if _, ok := b.seat(); !ok {
		return "You are watching; only players " + what + "."
	}
	s, _ := b.seat()
	switch {
	case b.v.Phase == bc.Finished:
		return "The game is over."
	case int(s) < len(b.v.Seats) && b.v.Seats[s].Out:
		return "You have made your guess; you only answer questions now."
	case !b.v.YourTurn():
		return "It is " + b.name(b.v.ToMove) + "'s turn; wait for them."
	case b.v.Phase == bc.LastChance && what == "ask":
		return "No more questions: guess now (g) or pass (p)."
	}
	return "You cannot " + what + " now."
}

func (b *Board) updateGuess(msg tea.KeyPressMsg) ([]byte, tea.Cmd) {
	switch {
	case key.Matches(msg, b.km.Cancel):
		b.closeGuess()
		b.err, b.errWhy = "", ""
		return nil, nil
	case key.Matches(msg, b.km.Submit):
		tiles, err := ParseGuess(b.input.Value(), b.guessSize(), b.v.Hand)
		if err != nil {
			b.err, b.errWhy = err.Error(), ""
			b.confirm = false
			return nil, nil
		}
		if b.v.CentreSize > 0 && !b.confirm {
			b.confirm = true
			b.err, b.errWhy = "", ""
			return nil, nil
		}
		b.closeGuess()
		b.err, b.errWhy = "", ""
		return bc.GuessAction(tiles), nil
	}
	if b.input.Update(msg) {
		b.confirm = false
		b.err, b.errWhy = "", ""
	}
	return nil, nil
}

func (b *Board) card() (int, bool) {
	if b.cursor < 0 || b.cursor >= len(b.v.FaceUp) {
		return 0, false
	}
	return b.v.FaceUp[b.cursor], true
}

// number is the number named for a "which number" card (0 for others).
func (b *Board) number(card int) int {
	ns := bc.CardNumbers(card)
	if len(ns) == 0 {
		return 0
	}
	return ns[min(b.numPick[card], len(ns)-1)]
}

func (b *Board) name(s engine.Seat) string {
	if n := b.c.Name(s); int(s) < len(b.c.Names) && n != "" {
		return n
	}
	if int(s) >= 0 && int(s) < len(b.v.Seats) && b.v.Seats[s].Name != "" {
		return textsafe.Cut(b.v.Seats[s].Name, 16)
	}
	return fmt.Sprintf("seat %d", s+1)
}

// ShortHelp implements board.Board: the keys that work now. The list
// depends only on a few facts about the board (helpState); each list is
// made once and shared, so callers must not change it.
func (b *Board) ShortHelp() []key.Binding { return b.helpFor(b.helpState()) }

// helpFor is the key bar's list for st: the keys' shared one, or one the
// board made and remembers.
func (b *Board) helpFor(st helpState) []key.Binding {
	if ks, ok := b.km.lists[st]; ok {
		return ks
	}
	for _, l := range b.shortHelp {
		if l.st == st {
			return l.keys
		}
	}
	ks := shortHelpFor(b.km, st)
	ks = ks[:len(ks):len(ks)] // a caller's append copies it
	b.shortHelp = append(b.shortHelp, helpList{st: st, keys: ks})
	return ks
}

// helpList is a key bar list ShortHelp made, and what it shows.
type helpList struct {
	st   helpState
	keys []key.Binding
}

// helpState is everything ShortHelp reads from the board, one bit a fact.
type helpState uint16

const (
	helpGuessing helpState = 1 << iota
	helpNotepad
	helpNoteOverflow
	helpNoKeys // a replay, or no view yet
	helpAsk
	helpChoose // more than one question to choose from
	helpNumber // the question chosen names a number
	helpGuess
	helpPass
)

func (b *Board) helpState() helpState {
	var st helpState
	switch {
	case b.guessing:
		return helpGuessing
	case b.notepad:
		if b.noteOverflow {
			return helpNotepad | helpNoteOverflow
		}
		return helpNotepad
	case b.c.Replay || !b.has:
		return helpNoKeys
	}
	if b.canAsk() {
		st |= helpAsk
		if len(b.v.FaceUp) > 1 {
			st |= helpChoose
		}
		if card, ok := b.card(); ok && bc.NeedsNumber(card) {
			st |= helpNumber
		}
	}
	if b.canGuess() {
		st |= helpGuess
	}
	if b.myTurn() && b.v.Phase == bc.LastChance {
		st |= helpPass
	}
	return st
}

// shortHelpFor is the key bar's list for st, made from km.
func shortHelpFor(km *KeyMap, st helpState) []key.Binding {
	switch {
	case st&helpGuessing != 0:
		return []key.Binding{widget.Help(km.Submit, "enter", "send"), widget.Help(km.Cancel, "esc", "cancel")}
	case st&helpNotepad != 0:
		var ks []key.Binding
		if st&helpNoteOverflow != 0 {
			ks = append(ks, widget.Pair(km.Up, km.Down, "↑/↓", "scroll"))
		}
		return append(ks, widget.Help(km.Notes, "n/esc", "close notepad"))
	case st&helpNoKeys != 0:
		return nil
	}
	var ks []key.Binding
	if st&helpAsk != 0 {
		if st&helpChoose != 0 {
			ks = append(ks, widget.Pair(km.Up, km.Down, "↑/↓", "choose"))
		}
		ks = append(ks, widget.Help(km.Choose, "enter", "ask"))
		if st&helpNumber != 0 {
			ks = append(ks, widget.Pair(km.Left, km.Right, "←/→", "number"))
		}
	}
	if st&helpGuess != 0 {
		ks = append(ks, widget.Help(km.Guess, "g", "guess"))
	}
	if st&helpPass != 0 {
		ks = append(ks, widget.Help(km.Pass, "p", "pass"))
	}
	return append(ks, widget.Help(km.Notes, "n", "notepad"))
}

// FullHelp implements board.Board: the key bar's keys and the few more
// that work now.
func (b *Board) FullHelp() [][]key.Binding {
	more := []key.Binding{}
	if !b.guessing && !b.notepad && b.canAsk() && len(b.v.FaceUp) > 1 {
		more = append(more, widget.Help(b.km.Pick, fmt.Sprintf("1-%d", len(b.v.FaceUp)), "that question"))
	}
	return [][]key.Binding{b.ShortHelp(), more}
}

func (b *Board) target() string {
	if b.v.CentreSize > 0 {
		return "centre"
	}
	return "code"
}

// View implements board.Board.
func (b *Board) View() string { return strings.Join(b.ViewLines(), "\n") }

// ViewLines implements board.Lines. Outside the guess entry the lines are
// remembered with what they were drawn from (drawKey), so a frame drawn
// again for a key that changed nothing on the board (the enter that asks,
// which only sends the move) costs a comparison.
func (b *Board) ViewLines() []string {
	if b.guessing {
		lines, fit := b.drawLines()
		b.fit, b.fitW = fit, b.c.Width
		return lines
	}
	k := b.drawKey()
	if !b.drawn.ok || b.drawn.key != k {
		lines, fit := b.drawLines()
		b.drawn = drawnLines{ok: true, key: k, lines: slices.Clip(lines), fit: fit}
	}
	b.fit, b.fitW = b.drawn.fit, b.c.Width
	// Shared, not a copy for every frame: the table reads the lines and
	// fits them into a slice of its own.
	return b.drawn.lines
}

// FittedFrom implements board.Fitted: in a wide window the lower block
// (the questions beside the log), the last of the lines, is laid out to
// the width cell by cell (lowerBlock), and measuring its rows again, a
// new set with every move as the log moves on, was most of what the
// session spent fitting a frame.
func (b *Board) FittedFrom(w int) int {
	if w != b.fitW {
		return math.MaxInt
	}
	return b.fit
}

// drawKey is everything drawLines reads from the board outside the guess
// entry: the view and context by generation (SetView), the size, the
// cursor and its card's number, the notepad and its scroll, the error and
// the layout chosen.
type drawKey struct {
	gen          uint64
	w, h         int
	cursor, pick int
	notepad      bool
	scroll       int
	err          string
	framed       bool
}

// drawnLines are the lines drawn last and what they were drawn from, and
// where the lines fitted by the board begin (FittedFrom).
type drawnLines struct {
	ok    bool
	key   drawKey
	lines []string
	fit   int
}

func (b *Board) drawKey() drawKey {
	k := drawKey{gen: b.gen, w: b.c.Width, h: b.c.Height, cursor: b.cursor, pick: -1,
		notepad: b.notepad, scroll: b.scroll, err: b.err, framed: b.framed}
	if card, ok := b.card(); ok {
		k.pick = b.numPick[card]
	}
	return k
}

// drawLines draws the board's lines (ViewLines), and says from which of
// them on each is at most the board's width wide as drawn (FittedFrom):
// the lower block's rows in a wide window, which lowerBlock lays out
// cell by cell (the questions padded or cut to their column, the log's
// lines wrapped to its own); none of them otherwise.
func (b *Board) drawLines() ([]string, int) {
	w, h := max(20, b.c.Width), max(4, b.c.Height)
	if !b.has {
		return []string{"", "  Dealing the tiles…"}, math.MaxInt
	}
	if b.notepad {
		return oneLineEach(b.notepadView(w, h)), math.MaxInt
	}
	status := b.statusLines(w)
	leftH := 1 + max(1, len(b.v.FaceUp))
	if b.guessing {
		leftH = len(b.guessLines(leftWidth(w)))
	}
	// The lines are written over the last ones drawn: the session reads
	// a board's lines before it draws the next frame (board.Lines), and a
	// slice of lines was made anew for every board drawn. What was drawn
	// there is no longer remembered as drawn.
	b.drawn = drawnLines{}
	sheets := b.sheets(w, h, max(1, h-len(status)-leftH-1), b.lineRoom[:0])
	out := append(sheets, "")
	out = append(out, status...)
	fit := math.MaxInt
	if w >= wideLayout && w == b.c.Width {
		fit = len(out)
	}
	out = append(out, b.lowerBlock(w, max(leftH, h-len(out)))...)
	clear(out[len(out):cap(out)]) // lines of an older frame, which they would keep alive
	b.lineRoom = out[:0]
	if lines := oneLineEach(out); len(lines) != len(out) {
		return lines, math.MaxInt // a line was split: the rows moved
	}
	return out, fit
}

// oneLineEach is lines with any line that holds a newline (such as an
// error's text) split at it, as splitting the joined lines would.
func oneLineEach(lines []string) []string {
	for _, l := range lines {
		if strings.IndexByte(l, '\n') >= 0 {
			return strings.Split(strings.Join(lines, "\n"), "\n")
		}
	}
	return lines
}

// wideLayout is the width from which the log sits beside the questions.
const wideLayout = 72

// leftWidth is the width of the questions (or the guess entry) in a board
// w cells wide: all of it in narrow windows, beside the log in wide ones.
func leftWidth(w int) int {
	if w >= wideLayout {
		return min(50, w*55/100)
	}
	return w
}

// lowerBlock is the questions (or the guess entry) and the log: side by
// side in wide windows, the log underneath in narrow ones; h rows at most.
// The slice is shared (lower): callers must not change it.
func (b *Board) lowerBlock(w, h int) []string {
	leftW := leftWidth(w)
	var left []string
	if b.guessing {
		left = b.guessLines(leftW)
	} else {
		left = b.questionLines(leftW)
	}
	if w < wideLayout {
		if room := h - len(left) - 1; room > 0 {
			left = append(left, " "+b.paint.Heading.Render("Log"))
			for _, l := range b.logLines(w-2, room) {
				left = append(left, " "+l)
			}
		}
		return left
	}
	logW := w - leftW - 2
	logs := append(b.logScratch[:0], b.paint.Heading.Render("Log"))
	logs = b.appendLogLines(logs, logW, max(len(left), h)-1)
	m := &b.lower
	if m.lines != nil && m.w == w && slices.Equal(m.left, left) && slices.Equal(m.logs, logs) {
		b.logScratch = logs
		return m.lines // a frame that changed neither the questions nor the log
	}
	// The log's lines are kept in the memory and its old ones are the
	// next frame's scratch: no slice is made for them.
	m.logs, b.logScratch = logs, m.logs
	rows := max(len(left), len(logs))
	// The rows are written into one buffer and cut out of it, so the block
	// costs one string rather than one per row. The left column's widths
	// are the last frame's where its lines are the same (most of them: the
	// question cards stay while the log moves on). The widths and the
	// rows are written over the last frame's slices, which nothing else
	// holds (drawLines copies the rows): index i only reads index i.
	widths := slices.Grow(m.widths[:0], len(left))[:len(left)]
	size := 0 // the block's bytes, to make its string at its size
	for i := range rows {
		if i < len(left) {
			l := left[i]
			if i < len(m.left) && i < len(m.widths) && m.left[i] == l {
				widths[i] = m.widths[i]
			} else {
				widths[i] = widget.Width(l)
			}
			size += len(l) + max(0, leftW-widths[i])
		} else {
			size += leftW
		}
		size += 2
		if i < len(logs) {
			size += len(logs[i])
		}
	}
	var sb strings.Builder
	sb.Grow(size + 8) // a cut line may gain a few bytes of "…" and its style's end
	var endsRoom [48]int
	ends := endsRoom[:0]
	for i := range rows {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(logs) {
			r = logs[i]
		}
		pad := leftW
		if i < len(left) {
			pad -= widths[i]
		}
		if pad < 0 {
			l = ansi.Truncate(l, leftW, "…")
			pad = 0
		}
		sb.WriteString(l)
		widget.WriteSpaces(&sb, pad+2)
		sb.WriteString(r)
		ends = append(ends, sb.Len())
	}
	all, start := sb.String(), 0
	out := slices.Grow(m.lines[:0], rows)[:rows]
	clear(out[rows:cap(out)]) // rows of an older block, which they would keep alive
	for i, end := range ends {
		out[i], start = all[start:end], end
	}
	m.w, m.left, m.widths, m.lines = w, left, widths, out
	return out
}

// lowerLines is the lower block of a wide board as last drawn (lowerBlock),
// with what it was drawn from: the width, the left column's lines (and
// their widths) and the log's lines with its heading.
type lowerLines struct {
	w      int
	left   []string
	widths []int
	logs   []string
	lines  []string
}

// statusLines say whose turn it is and what the viewer can do.
func (b *Board) statusLines(w int) []string {
	v := b.v
	var s string
	me, seated := b.seat()
	switch {
	case b.c.Replay:
		s = ""
	case v.Phase == bc.Finished:
		s = " " + b.paint.Strong.Render("The game is over.")
	case !seated:
		s = " You are watching. " + b.name(v.ToMove) + " is to move."
	case int(me) < len(v.Seats) && v.Seats[me].GotIt && v.Phase == bc.LastChance:
		// Two players: the starter broke the code and the other player
		// now has one guess to tie; there is no round to finish.
		s = " " + b.paint.Good.Render("✓ You broke the code!") + " " + b.name(v.ToMove) + " has a last chance to tie."
	case int(me) < len(v.Seats) && v.Seats[me].GotIt:
		s = " " + b.paint.Good.Render("✓ You broke the code!") + " Waiting for the round to finish."
	case int(me) < len(v.Seats) && v.Seats[me].Out:
		s = " You have guessed and are out; you still answer questions."
	case v.Phase == bc.LastChance && v.YourTurn():
		s = " " + b.paint.Strong.Render("Your last chance:") + " guess the code to tie (g), or pass (p)."
	case v.Phase == bc.LastChance:
		s = " " + b.name(v.ToMove) + " has a last chance to tie."
	case v.YourTurn():
		s = " " + b.paint.Strong.Render("▸ Your turn:") + " ask a question (enter) or guess the " + b.target() + " (g)."
	default:
		s = " Waiting for " + b.paint.Strong.Render(b.name(v.ToMove)) + " to ask or guess."
	}
	// Each line is made with its leading space in the one concatenation,
	// in the board's slice for them: drawLines copies the lines out.
	lines := b.statusRoom[:0]
	defer func() { b.statusRoom = lines[:0] }()
	if s != "" {
		lines = append(lines, s)
	}
	if v.RoundClosing && v.Phase != bc.Finished {
		lines = append(lines, " "+b.paint.Dim.Render("Someone broke the code: this is the last round."))
	}
	if b.err != "" {
		lines = append(lines, " "+b.paint.Error.Render("! "+b.err))
	}
	return lines
}

// questionLines is the questions' heading and the face-up cards, one row
// each, remembered with what they show (questionList): the same cards lie
// face up for many turns. The slice is shared: callers must not change it
// (it is clipped, so appending to it copies).
func (b *Board) questionLines(w int) []string {
	v := b.v
	// Only a seat in play has a cursor to choose with: a spectator's and a
	// finished game's list is just the cards.
	sel, pick := -1, -1
	if !b.c.Replay && v.Viewer.Kind == engine.ViewerSeat && !b.c.Status.Finished && b.cursor < len(v.FaceUp) {
		sel, pick = b.cursor, min(b.numPick[v.FaceUp[b.cursor]], 1)
	}
	head := b.questionsHead()
	m := &b.qlist
	if m.lines != nil && m.head == head && m.handSize == v.HandSize && m.w == w && m.sel == sel && m.pick == pick &&
		slices.Equal(m.faceUp, v.FaceUp) {
		return m.lines
	}
	lines, rows := b.drawQuestionLines(head, w, sel, pick)
	*m = questionList{head: head, faceUp: append(m.faceUp[:0], v.FaceUp...), handSize: v.HandSize, w: w, sel: sel, pick: pick,
		lines: slices.Clip(lines), rows: rows}
	return m.lines
}

// questionList is the questions' lines as last drawn and what they show:
// the heading, the cards face up (a copy), the hand size their questions
// name, the width, and the highlighted row (-1: none) with its number.
type questionList struct {
	head        string
	faceUp      []int
	handSize, w int
	sel, pick   int
	lines       []string
	rows        []questionRow // what lines[1:] are drawn from (none without cards)
}

// drawQuestionLines draws what questionLines remembers, and says what each
// card's row is drawn from. A row drawn last time as it is now is taken
// from there (a move changes one card: the rest stay); another is drawn.
func (b *Board) drawQuestionLines(head string, w, sel, pick int) ([]string, []questionRow) {
	v := b.v
	lines := append(make([]string, 0, 1+max(1, len(v.FaceUp))), head)
	if len(v.FaceUp) == 0 {
		return append(lines, "   No question cards are left."), nil
	}
	last := &b.qlist
	// The rows are written over the last ones (pointer-free, and only
	// qlist holds them): row i is read before it is written.
	rows := slices.Grow(last.rows[:0], len(v.FaceUp))
	for i, card := range v.FaceUp {
		k := questionRow{i: i, card: card, handSize: v.HandSize, w: w, pick: -1}
		if i == sel {
			k.pick = pick
		}
		same := i < len(last.rows) && last.rows[i] == k && i+1 < len(last.lines)
		rows = append(rows, k)
		if same {
			lines = append(lines, last.lines[i+1])
			continue
		}
		lines = append(lines, k.draw(&b.paint.Selected))
	}
	return lines, rows
}

// questionsHead is the questions' heading, remembered with what it says:
// whether the viewer may ask, and the cards left in the deck.
func (b *Board) questionsHead() string {
	k := headOfQuestions{ask: b.canAsk(), pile: b.v.DrawPile}
	if m := &b.qhead; m.line == "" || m.key != k {
		head := "Questions on the table"
		if k.ask {
			head = "Ask a question"
		}
		m.key, m.line = k, " "+b.paint.Heading.Render(head)+b.paint.Dim.FreshOf("  (deck: ", strconv.Itoa(k.pile), ")")
	}
	return b.qhead.line
}

// headOfQuestions is what the questions' heading says.
type headOfQuestions struct {
	ask  bool
	pile int
}

// questionsHeadLine is the questions' heading as last drawn.
type questionsHeadLine struct {
	key  headOfQuestions
	line string
}

// questionRow is everything one row of the questions list is drawn from;
// the board keeps the last list's rows by it, as the same cards lie face
// up for many turns.
type questionRow struct {
	i, card, handSize, w int
	pick                 int // the number picked on the highlighted row; -1 on the others
}

func (k questionRow) draw(selected *widget.Painter) string {
	sel := k.pick >= 0
	q := bc.Question(k.card, 0, k.handSize)
	if ns := bc.CardNumbers(k.card); len(ns) == 2 && sel {
		opts := [2]string{strconv.Itoa(ns[0]), strconv.Itoa(ns[1])}
		opts[k.pick] = "[" + opts[k.pick] + "]"
		q += "  ‹ " + opts[0] + " " + opts[1] + " ›"
	}
	// Each made in one concatenation: a move draws the row of the card
	// that replaced the one asked.
	var row string
	if sel {
		row = " " + selected.Fresh("▸ "+strconv.Itoa(k.i+1)+" "+q)
	} else {
		row = "   " + strconv.Itoa(k.i+1) + " " + q
	}
	return widget.Truncate(row, k.w, "…")
}

func (b *Board) guessLines(w int) []string {
	n := b.guessSize()
	what := "your opponent's tiles"
	if b.v.CentreSize > 0 {
		what = "the centre tiles"
	}
	lines := []string{" " + b.paint.Heading.Render(fmt.Sprintf("Guess %s: %d tiles", what, n))}
	say := func(p *widget.Painter, text string) {
		for _, l := range widget.WrapIndent(text, w, " ", " ") {
			lines = append(lines, p.Render(l))
		}
	}
	// Wrapped, not cut: at 80 columns the pane is half the width, and the
	// cut fell on the part that explains the bare 5.
	say(&b.paint.Dim, "like "+example(n)+" (a bare 5 is the green 5)")
	input := b.input // drawn in the width there is, without changing the field
	input.Width = max(8, min(30, w-6))
	lines = append(lines, " "+input.View())
	switch {
	case b.confirm:
		say(&b.paint.Strong, "You get one guess. Press enter again to send it, esc to think more.")
	case b.v.CentreSize == 0:
		say(&b.paint.Dim, "A wrong guess costs only this turn.")
	default:
		say(&b.paint.Dim, "Right wins; wrong puts you out.")
	}
	return lines
}

// logLines are the last events that fit in h lines of width w.
func (b *Board) logLines(w, h int) []string {
	return b.appendLogLines(nil, w, h)
}

// appendLogLines appends logLines(w, h) to dst.
func (b *Board) appendLogLines(dst []string, w, h int) []string {
	if h <= 0 || w < 8 {
		return dst
	}
	if out := b.logs.AppendTail(dst, b.c.Log, w, h); len(out) > len(dst) {
		return out
	}
	return append(dst, b.paint.Dim.Render("Nothing asked yet."))
}

// sheetLabels are the seats' labels on the sheets and the width of the
// label column. They are remembered with what they were made from (the
// names, who is a bot, who is looking), which changes seldom in a game,
// and a frame asks for them three times. The slice is shared: callers
// must not change it.
func (b *Board) sheetLabels() ([]string, int) {
	m := &b.labels
	if !m.made || !m.same(b) {
		m.remember(b)
		m.labels, m.w = b.makeSheetLabels()
	}
	return m.labels, m.w
}

// seatLabels are the sheets' labels and what they were made from. The
// names the labels are made from are kept in one slice and the bots in
// another (the context's first, then the view's): a board keeps them for
// as long as the session lasts, two objects fewer than a slice each.
type seatLabels struct {
	made bool
	// names are the context's names, then the view's (used when the
	// context has none); nNames is how many are the context's.
	names  []string
	nNames int
	// bots are the context's bots, then the view's; nBots is how many
	// are the context's.
	bots   []bool
	nBots  int
	viewer engine.Viewer
	replay bool
	labels []string
	w      int
}

// same reports whether b's labels are made from what m's were.
func (m *seatLabels) same(b *Board) bool {
	seatNames, seatBots := m.names[m.nNames:], m.bots[m.nBots:]
	if m.viewer != b.v.Viewer || m.replay != b.c.Replay || len(seatNames) != len(b.v.Seats) || len(seatBots) != len(b.v.Seats) ||
		!slices.Equal(m.names[:m.nNames], b.c.Names) || !slices.Equal(m.bots[:m.nBots], b.c.Bots) {
		return false
	}
	for i, sv := range b.v.Seats {
		if seatNames[i] != sv.Name || seatBots[i] != sv.Bot {
			return false
		}
	}
	return true
}

// remember copies what b's labels are made from into m.
func (m *seatLabels) remember(b *Board) {
	m.made = true
	m.viewer, m.replay = b.v.Viewer, b.c.Replay
	m.names = slices.Grow(m.names[:0], len(b.c.Names)+len(b.v.Seats))
	m.bots = slices.Grow(m.bots[:0], len(b.c.Bots)+len(b.v.Seats))
	m.names, m.nNames = append(m.names, b.c.Names...), len(b.c.Names)
	m.bots, m.nBots = append(m.bots, b.c.Bots...), len(b.c.Bots)
	for _, sv := range b.v.Seats {
		m.names = append(m.names, sv.Name)
		m.bots = append(m.bots, sv.Bot)
	}
}

// makeSheetLabels makes the labels sheetLabels remembers.
func (b *Board) makeSheetLabels() ([]string, int) {
	v := b.v
	labelW := 6
	labels := make([]string, len(v.Seats))
	for i := range v.Seats {
		s := engine.Seat(i)
		l := b.name(s)
		if v.Viewer.IsSeat(s) && !b.c.Replay {
			l = "You (" + l + ")"
		} else if (b.c.IsBot(s) || v.Seats[i].Bot) && !strings.Contains(strings.ToLower(l), "bot") {
			l += " (bot)"
		}
		labels[i] = l
		labelW = max(labelW, widget.Width(l))
	}
	return labels, min(labelW, 22)
}

// framedRows says which seat's tiles are the viewer's own (-1: none), how
// many rows of tiles could be framed (the viewer's and the centre), and
// how many blocks the sheets have.
func (b *Board) framedRows() (own, rows, blocks int) {
	v := b.v
	own = -1
	if s := v.Viewer.Seat; v.Viewer.IsSeat(s) && !b.c.Replay && int(s) >= 0 && int(s) < len(v.Seats) && (v.Seats[s].Hand != nil || v.Hand != nil) {
		own = int(s)
		rows++
	}
	if v.CentreSize > 0 {
		rows++
	}
	blocks = len(v.Seats)
	if v.CentreSize > 0 || v.Unused != nil {
		blocks++
	}
	return own, rows, blocks
}

// wantFramed is useFramed for the sheets drawn w×h, from b.framed, the
// choice of the last layout (SetSize): View reads it, SetSize keeps it.
func (b *Board) wantFramed(w, h int) bool {
	_, labelW := b.sheetLabels()
	_, rows, blocks := b.framedRows()
	return useFramed(h, blocks, len(b.v.Seats), rows, w-labelW-4, b.framed)
}

// sheets are one block per seat (and the centre): tiles the viewer may see,
// and the answers heard, squeezed into at most room lines, appended to dst.
func (b *Board) sheets(w, h, room int, dst []string) []string {
	v := b.v
	labels, labelW := b.sheetLabels()
	noteW := max(10, w-labelW-4)

	// The viewer's own tiles and the centre are drawn as framed tiles
	// when there is room (framedTiles), else as one line of codes.
	own, _, nBlocks := b.framedRows()
	framed := b.wantFramed(w, h)
	blocks := slices.Grow(b.sheetScratch[:0], nBlocks)
	defer func() { clear(blocks); b.sheetScratch = blocks[:0] }() // kept for the next frame, holding nothing
	for i, sv := range v.Seats {
		s := engine.Seat(i)
		hand := sv.Hand
		if v.Viewer.IsSeat(s) && hand == nil {
			hand = v.Hand
		}
		k := headKey{toMove: v.Phase != bc.Finished && v.ToMove == s, label: labels[i], labelW: labelW,
			framed: framed && i == own, hasHand: hand != nil, flags: b.flagsOf(sv)}
		var bl sheetBlock
		bl.head, bl.frame, bl.hasParts = b.seatHead(i, k, hand)
		bl.items, bl.packed = b.packedNotes(i, sv.Notes, noteW)
		bl.need = len(bl.packed)
		if !bl.hasParts && bl.need > 0 {
			bl.need-- // the first line of notes sits on the head line
		}
		blocks = append(blocks, bl)
	}
	if v.CentreSize > 0 {
		possible := 0
		if v.Aid {
			possible = v.CentrePossible
		}
		k := headKey{centre: true, hidden: v.CentreSize, labelW: labelW, framed: framed, hasHand: v.Centre != nil, flags: flagKey{possible: possible}}
		head, frame, _ := b.seatHead(len(v.Seats), k, v.Centre)
		blocks = append(blocks, sheetBlock{head: head, frame: frame, hasParts: true})
	} else if v.Unused != nil {
		label := "Unused" + strings.Repeat(" ", max(0, labelW-6))
		blocks = append(blocks, sheetBlock{head: "  " + label + "  " + b.paint.Dim.Render(bc.FormatTiles(v.Unused)), hasParts: true})
	}

	// Every block has its head line; the lines left are shared out one at a
	// time, round the table, so no seat's answers crowd out another's.
	extra := room - len(blocks)
	for _, bl := range blocks {
		extra -= len(bl.frame)
	}
	for extra > 0 {
		gave := false
		for i := range blocks {
			if extra > 0 && blocks[i].alloc < blocks[i].need {
				blocks[i].alloc++
				extra--
				gave = true
			}
		}
		if !gave {
			break
		}
	}
	indent := strings.Repeat(" ", labelW+4)
	n := 0
	for i := range blocks {
		blocks[i].lines = b.blockLines(i, &blocks[i], w, labelW, indent)
		n += len(blocks[i].lines)
	}
	// Room for the whole board: the status and the lower block follow
	// (drawLines), and would otherwise grow a copy.
	out := slices.Grow(dst, max(n+1, h))
	for _, bl := range blocks {
		out = append(out, bl.lines...)
	}
	return out
}

// sheetBlock is one block of the sheets (a seat's, or the centre's) as
// it is laid out: its head line, its framed rows, its notes (as items and
// packed into lines) and the lines of them it was given, which are all
// its lines depend on besides the width and the label column.
type sheetBlock struct {
	head     string
	hasParts bool     // tiles or flags on the head line: notes start below
	frame    []string // a framed row's lines under the head (its top border)
	items    []string
	packed   []string
	need     int // lines wanted beyond the head line and the frame
	alloc    int
	lines    []string // drawn by blockLines
}

// drawnBlock is a block's lines as last drawn, with what they were drawn
// from: the packed notes are the items packed at a width made of w and
// labelW (sheets), so they are not compared; hasParts and labelW show in
// the head line too, and are compared only because that costs nothing.
// The slices it keeps are shared and never changed (seatHead,
// packedNotes), so comparing them costs little when they are the same.
type drawnBlock struct {
	head     string
	hasParts bool
	frame    []string
	items    []string
	alloc    int
	w        int
	labelW   int
	lines    []string
}

// same reports whether bl, at w with a label column labelW wide, draws
// the lines d remembers.
func (d *drawnBlock) same(bl *sheetBlock, w, labelW int) bool {
	return d.lines != nil && d.head == bl.head && d.hasParts == bl.hasParts && d.alloc == bl.alloc &&
		d.w == w && d.labelW == labelW && slices.Equal(d.frame, bl.frame) &&
		slices.Equal(d.items, bl.items)
}

// blockLines is block i's lines, remembered (blocks): a move changes the
// blocks of the seats it touched (the seat to move, the answers heard),
// and the others are drawn as before. The slice is shared: callers must
// not change it.
func (b *Board) blockLines(i int, bl *sheetBlock, w, labelW int, indent string) []string {
	if i >= len(b.blocks) {
		b.blocks = append(b.blocks, make([]drawnBlock, i+1-len(b.blocks))...)
	}
	d := &b.blocks[i]
	if !d.same(bl, w, labelW) {
		*d = drawnBlock{head: bl.head, hasParts: bl.hasParts, frame: bl.frame, items: bl.items,
			alloc: bl.alloc, w: w, labelW: labelW, lines: slices.Clip(b.drawBlock(bl, w, indent, d.lines))}
	}
	return d.lines
}

// drawBlock draws a block's lines (blockLines).
func (b *Board) drawBlock(bl *sheetBlock, w int, indent string, was []string) []string {
	var out []string
	if len(bl.frame) > 0 {
		out = make([]string, 0, 1+len(bl.frame)+bl.alloc)
		out = append(out, bl.head)
		out = append(out, bl.frame...)
		if bl.alloc > 0 {
			out = b.appendTail(out, indent, "", bl.packed, bl.alloc, was)
		}
		return out
	}
	switch {
	case len(bl.packed) == 0:
		return []string{bl.head}
	case !bl.hasParts:
		return b.appendTail(make([]string, 0, bl.alloc+1), indent, bl.head, bl.packed, bl.alloc+1, was)
	case bl.alloc > 0:
		out = append(make([]string, 0, 1+bl.alloc), bl.head)
		return b.appendTail(out, indent, "", bl.packed, bl.alloc, was)
	default:
		// No room below: the newest answers that fit beside the head.
		room := w - widget.Width(bl.head) - 4
		if room < 8 {
			return []string{bl.head}
		}
		last := pack(bl.items, room)
		return []string{bl.head + "   " + b.paint.Dim.Render("…") + last[len(last)-1]}
	}
}

// appendTail appends the last keep of lines (at least one), the first
// marked with … when some were cut, to out: the first after first (a
// head line) when first is not empty, every other after indent. A line
// the same as the one in its row of was (the block's lines drawn before)
// is that string.
func (b *Board) appendTail(out []string, indent, first string, lines []string, keep int, was []string) []string {
	keep = min(max(keep, 1), len(lines))
	start := len(lines) - keep
	for j, l := range lines[start:] {
		mark := ""
		if j == 0 && start > 0 {
			mark = b.paint.Dim.Render("…")
		}
		lead := indent
		if j == 0 && first != "" {
			lead = first
		}
		// The block drawn before (was) most often holds this very line
		// in the same row: a move redraws a block for its head (the turn
		// mark, the aid's count) and leaves its answers be.
		if i := len(out); i < len(was) && isJoin(was[i], lead, mark, l) {
			out = append(out, was[i])
			continue
		}
		out = append(out, lead+mark+l)
	}
	return out
}

// isJoin reports whether s is a+b+c, without making it.
func isJoin(s, a, b, c string) bool {
	return len(s) == len(a)+len(b)+len(c) && s[:len(a)] == a && s[len(a):len(a)+len(b)] == b && s[len(a)+len(b):] == c
}

// headKey is everything a sheet's head line (and its framed rows) is
// drawn from but the tiles: whether the seat is to move, its label and
// the label column's width, whether its tiles are framed, and its flags.
// The centre's head has the label "Centre" and the centre's tiles.
type headKey struct {
	centre  bool
	hidden  int // the centre's tiles, face down
	toMove  bool
	label   string
	labelW  int
	framed  bool
	hasHand bool
	flags   flagKey
}

// flagKey is what a seat's flags say (flags).
type flagKey struct {
	possible   int // 0: the aid says nothing
	gotIt, out bool
	guesses    int
}

// seatHead remembers a sheet's head line and framed rows: the same on
// most frames (the seat to move and the aid's counts change them).
type seatHead struct {
	key    headKey
	tiles  []bc.Tile
	made   bool
	head   string
	frame  []string
	hasAny bool
	// flags says where the flags are on the line that shows them (the
	// head line, or the first framed row when framed): after its first
	// at bytes, two spaces apart, with two spaces before the first when
	// sep. A move changes the aid's counts of most seats and of the
	// centre, and only that part is made again (withFlags).
	flags flagsAt
}

// flagsAt is where a line's flags begin (seatHead.flags).
type flagsAt struct {
	at  int
	sep bool
}

// flagsOf is what flags says of sv.
func (b *Board) flagsOf(sv bc.SeatView) flagKey {
	k := flagKey{gotIt: sv.GotIt, out: sv.Out, guesses: len(sv.Guesses)}
	if b.v.Aid {
		k.possible = sv.Possible
	}
	return k
}

// seatHead is the head line of seat i's sheet (i = len(Seats) for the
// centre), its framed rows under it when framed, and whether the head
// line holds tiles or flags; remembered while k and tiles stay the same.
// The frame slice is shared: callers must not change it.
func (b *Board) seatHead(i int, k headKey, tiles []bc.Tile) (head string, frame []string, hasParts bool) {
	if i >= len(b.heads) {
		b.heads = append(b.heads, make([]seatHead, i+1-len(b.heads))...)
	}
	m := &b.heads[i]
	sameTiles := slices.Equal(m.tiles, tiles) && (m.tiles == nil) == (tiles == nil)
	if m.made && m.key == k && sameTiles {
		return m.head, m.frame, m.hasAny
	}
	if was := m.key; m.made && sameTiles {
		// Only whose turn it is changed (every move does this to two
		// seats), or the flags did (the aid's counts move with most
		// answers, the centre's too), or both: the head line is the new
		// mark and then the rest as before, and the line that shows the
		// flags (the head, or a framed row) is what it held before them
		// followed by the new flags. The rest is kept.
		turn, flags := was.toMove != k.toMove, was.flags != k.flags
		was.toMove, was.flags = k.toMove, k.flags
		if was == k && (turn || flags) {
			oldMark, mark := "", ""
			if turn {
				oldMark, mark = headMark(!k.toMove), headMark(k.toMove)
			}
			var room [3]string // at most three flags, on the stack
			switch {
			case flags && k.framed:
				// A new slice: the old one is compared as a block's
				// (drawnBlock), so it must not change.
				row := m.frame[0]
				m.frame = []string{withFlags("", row[:m.flags.at], m.flags.sep, b.headFlags(room[:0], k)), m.frame[1]}
			case flags:
				fl := b.headFlags(room[:0], k)
				m.head = withFlags(mark, m.head[len(oldMark):m.flags.at], m.flags.sep, fl)
				m.flags.at += len(mark) - len(oldMark)
				m.hasAny = k.centre || k.hasHand || len(fl) > 0
				turn = false // the mark is in
			}
			if turn {
				m.head = mark + m.head[len(oldMark):]
				if !k.framed {
					m.flags.at += len(mark) - len(oldMark)
				}
			}
			m.key = k
			return m.head, m.frame, m.hasAny
		}
	}
	m.made, m.key = true, k
	m.tiles = append(m.tiles[:0], tiles...)
	if tiles == nil {
		m.tiles = nil
	}
	m.head, m.frame, m.hasAny, m.flags = b.drawHead(k, tiles)
	return m.head, m.frame, m.hasAny
}

// headFlags appends the flags of the head k to f: a seat's (appendFlags),
// or the centre's count of possible sets.
func (b *Board) headFlags(f []string, k headKey) []string {
	if !k.centre {
		return b.appendFlags(f, k.flags)
	}
	if n := k.flags.possible; n > 0 {
		f = append(f, b.paint.Dim.FreshOf("[", strconv.Itoa(n), plural(n, " possible set]", " possible sets]")))
	}
	return f
}

// withFlags is mark and base followed by the flags, two spaces apart (and
// two spaces before the first when sep), made as one string.
func withFlags(mark, base string, sep bool, flags []string) string {
	n := len(mark) + len(base)
	for _, f := range flags {
		n += 2 + len(f)
	}
	var sb strings.Builder
	sb.Grow(n)
	sb.WriteString(mark)
	sb.WriteString(base)
	for i, f := range flags {
		if i > 0 || sep {
			sb.WriteString("  ")
		}
		sb.WriteString(f)
	}
	return sb.String()
}

// drawHead draws what seatHead remembers.
func (b *Board) drawHead(k headKey, tiles []bc.Tile) (head string, frame []string, hasParts bool, at flagsAt) {
	var room [4]string // the tiles and at most three flags, on the stack
	if k.centre {
		label := "Centre" + strings.Repeat(" ", max(0, k.labelW-6))
		aid := b.headFlags(room[:0], k)
		if k.framed {
			rows := b.framedTiles(tiles, k.hidden)
			indent := strings.Repeat(" ", k.labelW+4)
			return "  " + label + "  " + rows[0], []string{joinParts(indent, rows[1], aid), indent + rows[2]}, true,
				flagsAt{at: len(indent) + len(rows[1]), sep: true}
		}
		text := b.hiddenText(k.hidden)
		if tiles != nil {
			text = b.handText(tiles)
		}
		lead := "  " + label + "  "
		return joinParts(lead, text, aid), nil, true, flagsAt{at: len(lead) + len(text), sep: true}
	}
	mark := headMark(k.toMove)
	label := widget.Truncate(k.label, k.labelW, "…")
	pad := k.labelW - widget.Width(label)
	if k.framed {
		flags := b.appendFlags(room[:0], k.flags)
		rows := b.framedTiles(tiles, 0)
		indent := strings.Repeat(" ", k.labelW+4)
		return headLine(mark, label, pad, rows[:1]), []string{joinParts(indent, rows[1], flags), indent + rows[2]}, true,
			flagsAt{at: len(indent) + len(rows[1]), sep: true}
	}
	parts := room[:0]
	at = flagsAt{at: len(mark) + len(label) + max(0, pad) + 2}
	if tiles != nil {
		parts = append(parts, b.handText(tiles))
		at = flagsAt{at: at.at + len(parts[0]), sep: true}
	}
	parts = b.appendFlags(parts, k.flags)
	return headLine(mark, label, pad, parts), nil, len(parts) > 0, at
}

// headMark is what a seat's head line starts with: the mark of the seat
// to move, or as many cells of space.
func headMark(toMove bool) string {
	if toMove {
		return "▸ "
	}
	return "  "
}

// headLine is a seat's head line: mark, label and pad spaces, then the
// parts two spaces apart, made as one string (a move redraws the heads of
// the seats whose turn it was and is).
func headLine(mark, label string, pad int, parts []string) string {
	n := len(mark) + len(label) + max(0, pad) + 2
	for _, p := range parts {
		n += len(p) + 2
	}
	var sb strings.Builder
	sb.Grow(n)
	sb.WriteString(mark)
	sb.WriteString(label)
	widget.WriteSpaces(&sb, max(0, pad)+2)
	for i, p := range parts {
		if i > 0 {
			sb.WriteString("  ")
		}
		sb.WriteString(p)
	}
	return sb.String()
}

// framedWidth is the width of a row of five framed tiles.
const framedWidth = 5*6 + 4

// useFramed is the rule for drawing the viewer's tiles and the centre as
// framed tiles (three lines each) rather than as one line of codes. h is
// the board's height and w the cells beside the labels; the sheets are
// nBlocks rows (seats of them players), framedRows of which would be
// framed. The rule looks only at what stays the same through a game (not
// at this moment's status lines), so the board does not switch forms as
// the game goes: it sets aside the lines under the sheets (two of status,
// the questions, a gap: sheetsReserve) and wants a head line per row, two
// more per framed row and a line of answers per two players beyond the
// second. So at 80×24 two or three players see framed tiles, four or five
// the compact codes. wasFramed is the last decision: a board keeps its
// frames while the room shrinks by a line (a notice comes and goes under
// it), as long as the frames themselves still fit.
func useFramed(h, nBlocks, seats, framedRows, w int, wasFramed bool) bool {
	if framedRows == 0 || w < framedWidth {
		return false
	}
	room := h - sheetsReserve
	need := nBlocks + 2*framedRows + max(1, seats-2)
	if wasFramed {
		return room >= need-1
	}
	return room >= need
}

// sheetsReserve is the lines useFramed sets aside under the sheets: two
// status lines, the questions' heading and six cards, and the gap.
const sheetsReserve = 2 + 1 + 6 + 1

// joinParts is lead and first followed by the parts, two spaces apart,
// made as one string (a seat's flags change with most moves, and each
// time this line is made again).
func joinParts(lead, first string, parts []string) string {
	if len(parts) == 0 && lead == "" {
		return first
	}
	return withFlags(lead, first, true, parts)
}

// framedTiles draws tiles as a row of framed tiles, three lines: the top
// border with each tile's position letter, the tiles (number and colour
// letter on the colour's fill), the bottom border.
//
//	╭a───╮ ╭b───╮ ╭c───╮
//	│ 0b │ │ 3w │ │ 5g │
//	╰────╯ ╰────╯ ╰────╯
//
// With tiles nil, hidden face-down tiles are drawn ("??").
func (b *Board) framedTiles(tiles []bc.Tile, hidden int) [3]string {
	k := framedKey{n: len(tiles), hidden: tiles == nil}
	if k.hidden {
		k.n = hidden
	}
	if k.n > len(k.tiles) {
		return b.drawFramedTiles(tiles, k.n)
	}
	copy(k.tiles[:], tiles)
	for i := range b.frames {
		if b.frames[i].key == k {
			return b.frames[i].rows
		}
	}
	rows := b.drawFramedTiles(tiles, k.n)
	if len(b.frames) >= maxFramed {
		b.frames = nil // forget them all, as a memo does: the next game's are new
	}
	b.frames = append(b.frames, framedRows{key: k, rows: rows})
	return rows
}

// framedRows is a row of framed tiles drawn, with what it shows.
type framedRows struct {
	key  framedKey
	rows [3]string
}

// framedKey is a row of framed tiles as drawn: its tiles, or how many
// hidden ones. A seat's own tiles and the centre stay the same all game,
// so their rows are drawn once.
type framedKey struct {
	tiles  [6]bc.Tile
	n      int
	hidden bool
}

// maxFramed bounds the rows of framed tiles a board remembers: a game
// draws two or three.
const maxFramed = 16

// drawFramedTiles draws n framed tiles (framedTiles), hidden when tiles
// is nil.
func (b *Board) drawFramedTiles(tiles []bc.Tile, n int) [3]string {
	// Written piece by piece into builders sized ahead: every seat's
	// screen draws these rows after every move.
	var top, mid, bottom strings.Builder
	top.Grow(n * len("╭a───╮ "))
	bottom.Grow(n * len("╰────╯ "))
	back := "" // the back of a hidden tile
	if tiles == nil {
		back = b.paint.hidden.Render(" ?? ")
	}
	for i := range n {
		if i > 0 {
			top.WriteByte(' ')
			mid.WriteByte(' ')
			bottom.WriteByte(' ')
		}
		top.WriteString("╭")
		top.WriteByte(byte('a' + i))
		top.WriteString("───╮")
		face := back
		if tiles != nil {
			face = b.tile(tiles[i], true)
		}
		if i == 0 {
			mid.Grow(n * (len("││ ") + len(face)))
		}
		mid.WriteString("│")
		mid.WriteString(face)
		mid.WriteString("│")
		bottom.WriteString("╰────╯")
	}
	return [3]string{top.String(), mid.String(), bottom.String()}
}

// packedNotes is noteItems and pack(items, w) for seat i's notes,
// remembered while the seat's notes and w stay the same. The slices are
// shared with the memory: callers must not change them.
func (b *Board) packedNotes(i int, notes []bc.Note, w int) (items, packed []string) {
	if i >= len(b.seatNotes) {
		b.seatNotes = append(b.seatNotes, make([]seatNotes, i+1-len(b.seatNotes))...)
	}
	m := &b.seatNotes[i]
	switch {
	case m.items != nil && slices.Equal(m.notes, notes):
		m.notes = notes // the newer view's: the older one may go
	case m.items != nil && len(notes) > len(m.notes) && slices.Equal(m.notes, notes[:len(m.notes)]):
		// A seat's notes grow by a move's answers: only the new ones are
		// phrased, and packed on after the lines packed before.
		// (items and packed are fresh slices: the old ones may be shared.)
		old := len(m.items)
		items := make([]string, old, len(notes))
		copy(items, m.items)
		for _, n := range notes[len(m.notes):] {
			items = append(items, b.noteItem(n))
		}
		m.notes = notes
		m.items = items
		if m.packed != nil && m.w == w {
			m.packed, m.lastW = packOnto(m.packed, m.lastW, items[old:], w)
		} else {
			m.packed = nil
		}
	default:
		m.notes = notes
		m.items = b.noteItems(notes)
		m.packed = nil
	}
	if m.packed == nil || m.w != w {
		m.w = w
		m.packed, m.lastW = packOnto(nil, 0, m.items, w)
	}
	return m.items, m.packed
}

// tail keeps the last keep lines, marking the first with … when some were cut.
func tail(lines []string, keep int, dim *widget.Painter) []string {
	keep = min(max(keep, 1), len(lines))
	start := len(lines) - keep
	out := append([]string(nil), lines[start:]...)
	if start > 0 {
		out[0] = dim.Render("…") + out[0]
	}
	return out
}

// pack joins note items with " · " into lines of at most w cells.
func pack(items []string, w int) []string {
	lines, _ := packOnto(nil, 0, items, w)
	return lines
}

// packOnto packs more items on after lines, items packed at w whose last
// line is lastW cells wide: the lines pack would make of those items and
// then more, and the width of the last. lines is not changed.
func packOnto(lines []string, lastW int, more []string, w int) ([]string, int) {
	var cur strings.Builder
	curW := 0
	if n := len(lines); n > 0 {
		// Packing goes item by item and only ever adds to the last line,
		// so it carries on from the last line as it was left.
		cur.Grow(len(lines[n-1]) + w)
		cur.WriteString(lines[n-1])
		curW = lastW
		lines = append(make([]string, 0, n+len(more)/2+1), lines[:n-1]...)
	}
	for _, it := range more {
		// Items are single lines (sanitised), so Width is their StringWidth.
		it = widget.Truncate(it, w, "…")
		itW := widget.Width(it)
		switch {
		case cur.Len() == 0:
			cur.WriteString(it)
			curW = itW
		case curW+3+itW <= w:
			cur.WriteString(" · ")
			cur.WriteString(it)
			curW += 3 + itW
		default:
			lines = append(lines, cur.String())
			cur = strings.Builder{}
			cur.Grow(w + 8)
			cur.WriteString(it)
			curW = itW
		}
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines, curW
}

// noteItems phrases a seat's notepad: "sum 27", "8s/9s (8): d, e".
func (b *Board) noteItems(notes []bc.Note) []string {
	items := make([]string, 0, len(notes))
	for _, n := range notes {
		items = append(items, b.noteItem(n))
	}
	return items
}

// seatNoteItems is noteItems(notes) for seat i: the items the sheets keep
// with the seat's notes (seatNotes) when those are notes, else made anew
// (the notepad, open, after a move the sheets have not drawn).
func (b *Board) seatNoteItems(i int, notes []bc.Note) []string {
	if i < len(b.seatNotes) {
		if m := &b.seatNotes[i]; m.items != nil && slices.Equal(m.notes, notes) {
			return m.items
		}
	}
	return b.noteItems(notes)
}

// noteItem phrases one note.
func (b *Board) noteItem(n bc.Note) string {
	// Not remembered by note: a seat's notes only grow during a game, and
	// the items made for them are kept with them (seatNotes); a map of
	// every note seen held some KB a board for the rare full redraw.
	sep := " "
	if n.Text != "yes" && n.Text != "no" && strings.IndexFunc(n.Text, unicode.IsLetter) >= 0 {
		sep = ": "
	}
	return textsafe.Cut(n.Label, 30) + sep + textsafe.Cut(n.Text, 30)
}

// flags are the short states beside a seat: possible hands, guesses.
func (b *Board) flags(k flagKey) []string {
	return b.appendFlags(nil, k)
}

// appendFlags appends flags(k) to f.
func (b *Board) appendFlags(f []string, k flagKey) []string {
	if k.possible > 0 {
		f = append(f, b.paint.Dim.FreshOf("[", strconv.Itoa(k.possible), " possible]"))
	}
	switch {
	case k.gotIt:
		f = append(f, b.paint.Good.Render("✓ got it"))
	case k.out:
		f = append(f, b.paint.Error.Render("✗ out"))
	}
	if n := k.guesses; n > 0 && !k.gotIt && !k.out {
		f = append(f, b.paint.Dim.FreshOf(strconv.Itoa(n), " wrong ", plural(n, "guess", "guesses")))
	}
	return f
}

// handText draws tiles with their positions: "a 0b  b 3w  c 5g".
func (b *Board) handText(ts []bc.Tile) string {
	var sb strings.Builder
	for i, t := range ts {
		if i > 0 {
			sb.WriteString("  ")
		}
		sb.WriteByte(byte('a' + i))
		sb.WriteByte(' ')
		sb.WriteString(b.tile(t, false))
	}
	return sb.String()
}

func (b *Board) hiddenText(n int) string {
	hidden := b.paint.hidden.Render("??")
	var sb strings.Builder
	for i := range n {
		if i > 0 {
			sb.WriteString("  ")
		}
		sb.WriteByte(byte('a' + i))
		sb.WriteByte(' ')
		sb.WriteString(hidden)
	}
	return sb.String()
}

// tile draws one tile: always its number and letter, plus a look per
// colour. There are twenty tiles, so each is styled once per board.
func (b *Board) tile(t bc.Tile, padded bool) string {
	key := tileKey{t, padded}
	if s, ok := b.st.faces[key]; ok {
		return s // drawn ahead with the styles (WithFaces)
	}
	if s, ok := b.paint.tiles[key]; ok {
		return s
	}
	s := b.st.drawTile(key)
	if b.paint.tiles == nil {
		b.paint.tiles = map[tileKey]string{}
	}
	if len(b.paint.tiles) < 64 { // tiles come from the engine: bounded anyway
		b.paint.tiles[key] = s
	}
	return s
}

// notepadView shows every answer of every seat, and every question asked,
// from the scroll position (clamped by layoutNotepad; here only read).
func (b *Board) notepadView(w, h int) []string {
	lines := b.notepadLines(w)
	scroll := min(b.scroll, max(0, len(lines)-h))
	return lines[scroll:min(len(lines), scroll+h)]
}

// layoutNotepad learns, while the notepad is open, what drawing it would:
// whether it is longer than the board (so that scrolling does something),
// and the scroll clamped to it. SetSize calls it, so View changes nothing.
func (b *Board) layoutNotepad() {
	if !b.has || !b.notepad {
		return
	}
	w, h := max(20, b.c.Width), max(4, b.c.Height)
	n := len(b.notepadLines(w))
	b.noteOverflow = n > h
	b.scroll = min(b.scroll, max(0, n-h))
}

// clampNotepad keeps a scroll moved by a key within the notepad.
func (b *Board) clampNotepad() {
	w, h := max(20, b.c.Width), max(4, b.c.Height)
	b.scroll = min(b.scroll, max(0, len(b.notepadLines(w))-h))
}

// notepadLines are all the notepad's lines at width w.
func (b *Board) notepadLines(w int) []string {
	v := b.v
	var lines []string
	lines = append(lines, " "+b.paint.Heading.Render("Notepad")+b.paint.Dim.Render("  every answer heard, per seat"))
	if v.Aid && ((v.CentreMarks != nil && v.CentrePossible > 1) ||
		slices.ContainsFunc(v.Seats, func(sv bc.SeatView) bool { return sv.Marks != nil && sv.Possible > 1 })) {
		lines = append(lines, b.paint.Dim.Render(marksHeader))
	}
	// The centre first: with 3–4 players it is what a guess names.
	if v.CentreSize > 0 && v.Aid && v.CentrePossible > 0 {
		lines = append(lines, " "+b.paint.Strong.Render("Centre")+b.paint.Dim.Fresh(fmt.Sprintf("  %d possible %s", v.CentrePossible, plural(v.CentrePossible, "set", "sets"))))
		lines = append(lines, b.possibleLines(v.CentreSets, w)...)
		lines = append(lines, b.marksLines(v.CentreMarks, v.CentrePossible)...)
	}
	for i, sv := range v.Seats {
		s := engine.Seat(i)
		name := b.name(s)
		if v.Viewer.IsSeat(s) && !b.c.Replay {
			name = "You (" + name + ")"
		}
		head := " " + b.paint.Strong.Render(name)
		if v.Aid && sv.Possible > 0 {
			head += b.paint.Dim.Fresh(fmt.Sprintf("  %d possible %s", sv.Possible, plural(sv.Possible, "hand", "hands")))
		}
		lines = append(lines, head)
		if v.Aid {
			lines = append(lines, b.possibleLines(sv.PossibleHands, w)...)
			lines = append(lines, b.marksLines(sv.Marks, sv.Possible)...)
		}
		items := b.seatNoteItems(i, sv.Notes)
		if len(items) == 0 {
			lines = append(lines, "    "+b.paint.Dim.Render("no answers yet"))
		}
		for _, l := range pack(items, w-6) {
			lines = append(lines, "    "+l)
		}
		for _, g := range sv.Guesses {
			lines = append(lines, "    "+b.paint.Dim.Fresh(guessNote(g)))
		}
	}
	return lines
}

// possibleLines names the hands (or centre sets) the aid still allows, when
// it lists them (at most bc.ListedMax): "could be 0b 3w 5g 7b 9w · …", or
// "must be …" for the last one, tiles drawn as on the board. They come from
// the seat's own view.
func (b *Board) possibleLines(sets bc.TileSets, w int) []string {
	if sets.Len() == 0 {
		return nil
	}
	lead := "    could be "
	if sets.Len() == 1 {
		lead = "    must be "
	}
	items := make([]string, sets.Len())
	for i := range sets.Len() {
		set := sets.Set(i)
		tiles := make([]string, len(set))
		for j, t := range set {
			tiles[j] = b.tile(t, false)
		}
		items[i] = strings.Join(tiles, " ")
	}
	packed := pack(items, max(w-len(lead)-1, 12))
	out := make([]string, len(packed))
	for i, l := range packed {
		if i == 0 {
			out[i] = b.paint.Dim.Render(lead) + l
		} else {
			out[i] = strings.Repeat(" ", len(lead)) + l
		}
	}
	return out
}

// marksHeader heads the pencil marks: numbers across, then what a cell says.
const marksHeader = "         0  1  2  3  4  5  6  7  8  9   pencil marks: colours left"

// marksLines draws pencil marks, one row per position of a hand (a, b, …):
// under each number the colours a tile of that number may still have
// there (b, w, bw, g), "·" for none, as a strong player keeps them on
// paper. Nothing is drawn once one hand is left (the notepad names it) or
// when the aid gave no marks.
func (b *Board) marksLines(marks bc.TileSets, possible int) []string {
	if marks.Len() == 0 || possible <= 1 {
		return nil
	}
	out := make([]string, 0, marks.Len())
	for i := range marks.Len() {
		var cell [10]string
		for _, t := range marks.Set(i) {
			cell[t.Number] += t.Color.Letter()
		}
		var line strings.Builder
		line.WriteString("      " + string(rune('a'+i)) + "  ")
		for n := range 10 {
			c := cell[n]
			if c == "" {
				line.WriteString(b.paint.Dim.Render("·  "))
				continue
			}
			line.WriteString(fmt.Sprintf("%-3s", c))
		}
		out = append(out, strings.TrimRight(line.String(), " "))
	}
	return out
}

// plural is words.Plural, the one plural rule of the arcade.
func plural(n int, one, many string) string { return words.Plural(n, one, many) }

// guessNote says how one of a seat's guesses went, as the notepad lists it.
func guessNote(g bc.GuessOutcome) string {
	res := "wrong"
	if g.Right {
		res = "right"
	}
	if len(g.Tiles) == 0 {
		return fmt.Sprintf("Turn %d: made a guess, which was %s.", g.Turn, res)
	}
	return fmt.Sprintf("Turn %d: guessed %s, which was %s.", g.Turn, bc.FormatTiles(g.Tiles), res)
}
