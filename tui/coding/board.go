// Package coding draws a table of The Coding: the viewer's code, every
// seat's Data cards and answered Hack cards, the crack sheet, the face-up
// Hack line, the race and its votes, and the moves the viewer can make now.
// It draws only what the engine's View for this viewer holds, so it cannot
// show a code card the viewer may not see, and it turns key presses into
// the engine's own encoded actions.
package coding

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	cg "github.com/codebreakers/codebreakers/engine/coding"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/tui/board"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// Composer columns of a hacking turn.
const (
	colData = iota
	colHack
	colTo
)

// Board is The Coding's board. It implements board.Board.
type Board struct {
	st *board.Styles // shared by every board in the same looks: never changed
	km *KeyMap

	v   cg.View
	has bool
	c   board.Context

	// Selections survive view updates; each is clamped to what is legal.
	orderCur int // setup: 0 keeps the dealt digit order, 1 swaps it
	col      int // hacking turn: the focused column
	dataCur  int // index into View.Takeable
	hackCur  int // index into View.HackLine
	toCur    int // index into View.Recipients
	posCur   int // index into the positions offered for a reveal

	entry     bool // the decode entry is open
	target    int  // index into targets()
	input     widget.Field
	openedFor int // the claim whose answer entry was opened automatically

	notes  bool // the details panel replaces the table
	scroll int

	timeLeft  time.Duration // answer window left, when the session knows it
	timeKnown bool
	timeClaim int // the claim timeLeft belongs to

	err string
	// errWhy is what the viewer tried when err is whyNot's answer to it,
	// else "": such a refusal explains the table as it was, so a view
	// that no longer gives it clears it rather than contradict the board.
	errWhy string
	// notesOverflow says the details, as last laid out (SetSize), are
	// longer than the board, so that scrolling them does something.
	notesOverflow bool

	// What the board remembers between frames, so that a frame after a
	// move draws only what changed. Each is bounded and keyed by all its
	// inputs (the painters by their text, the log by event and width).
	paint  widget.Paints
	logs   widget.LogCache
	widths widget.Widths // see width
	// faces are the cards' texts, cardSegs the cards drawn (cardRow).
	faces    cardFaces
	cardSegs widget.Memo[cardKey, [3]string]

	// busy says a move is on its way to the table: keys that could make
	// another are held back (SetBusy, holds).
	busy bool
}

var _ board.Board = (*Board)(nil)

// New returns an empty board; SetView gives it something to draw.
func New(st *board.Styles, km *KeyMap) *Board {
	return &Board{
		st: st, km: km, paint: widget.NewPaints(st), faces: newCardFaces(),
		input: widget.NewField("code › ", "F98", 8),
	}
}

// SetView implements board.Board.
func (b *Board) SetView(view any, c board.Context) {
	if v, err := engine.ViewAs[cg.View](view); err == nil {
		b.v, b.has = v, true
	}
	b.c = c
	if !b.has {
		return
	}
	if b.timeClaim != b.v.Claim {
		b.timeKnown = false
	}
	b.dataCur = clamp(b.dataCur, len(b.v.Takeable))
	b.hackCur = clamp(b.hackCur, len(b.v.HackLine))
	b.toCur = clamp(b.toCur, len(b.v.Recipients))
	b.target = clamp(b.target, len(b.targets()))
	if b.errWhy != "" && b.err != b.whyNot(b.errWhy) {
		b.err, b.errWhy = "", ""
	}
	if b.entry && !b.canDecode() && !b.canTap() {
		b.closeEntry()
	}
	// The claimant's answer entry opens by itself, once per claim.
	if b.answering() && b.openedFor != b.v.Claim {
		b.openedFor = b.v.Claim
		if !b.entry {
			b.openEntry()
		}
	}
}

// SetSize implements board.Board: it learns, while the details are open,
// whether they are longer than the board and clamps their scroll.
func (b *Board) SetSize(w, h int) {
	b.c.Width, b.c.Height = w, h
	if b.has && b.notes {
		n := len(b.detailsView(max(20, w)))
		b.notesOverflow = n > max(4, h)
		b.clampScroll()
	}
}

// SetTimeLeft tells the board how long the open answer window has left.
// The engine has no clock, so the session calls this on its own ticks when
// the table reports a deadline; until then the board shows the window's
// length. The value is forgotten when a new claim starts.
func (b *Board) SetTimeLeft(left time.Duration) {
	b.timeLeft, b.timeKnown, b.timeClaim = max(0, left), true, b.v.Claim
}

// SetError implements board.Board.
func (b *Board) SetError(msg string) { b.err, b.errWhy = msg, "" }

// SetBusy implements board.Board.
func (b *Board) SetBusy(busy bool) { b.busy = busy }

// holds reports whether msg could make a move on this board, so that a
// busy board holds it back: in the number entry, enter (it sends the
// answer); in the notes, nothing; elsewhere every key but the notes', the
// cursor's and the row numbers (enter, tap and vote all play).
func (b *Board) holds(msg tea.KeyPressMsg) bool {
	if b.entry {
		return key.Matches(msg, b.km.Submit, b.km.Choose)
	}
	if b.notes {
		return false
	}
	return !key.Matches(msg, b.km.Notes, b.km.Up, b.km.Down, b.km.Left, b.km.Right, b.km.Pick)
}

// Overlay implements board.Board.
func (b *Board) Overlay() bool { return b.notes }

// Capturing implements board.Board.
func (b *Board) Capturing() bool { return b.entry }

func clamp(i, n int) int { return max(0, min(i, n-1)) }

// seat is the viewer's seat, when the viewer plays (not in replays).
func (b *Board) seat() (engine.Seat, bool) {
	if b.c.Replay || b.v.Viewer.Kind != engine.ViewerSeat {
		return 0, false
	}
	s := b.v.Viewer.Seat
	return s, int(s) >= 0 && int(s) < len(b.v.Seats)
}

func (b *Board) active() bool {
	s, ok := b.seat()
	return ok && b.has && slices.Contains(b.v.Active, s)
}

func (b *Board) canOrder() bool   { return b.active() && b.v.Phase == cg.Setup && b.v.Code != nil }
func (b *Board) canRevealX() bool { return b.active() && b.v.Phase == cg.RevealX }
func (b *Board) canRevealOne() bool {
	return b.active() && b.v.Phase == cg.RevealOne
}

// canHack: a hacking turn is possible (rounds, or Counter with a card and a recipient).
func (b *Board) canHack() bool {
	if !b.active() {
		return false
	}
	switch b.v.Phase {
	case cg.Rounds, cg.Counter:
		return len(b.v.HackLine) > 0 && len(b.v.Recipients) > 0
	}
	return false
}

func (b *Board) canDecode() bool {
	return b.active() && (b.v.Phase == cg.Counter || b.v.Phase == cg.Answer)
}

func (b *Board) answering() bool { return b.active() && b.v.Phase == cg.Answer }

func (b *Board) canTap() bool { return b.active() && b.v.Phase == cg.Race }

func (b *Board) canVote() bool {
	s, _ := b.seat()
	return b.canTap() && b.v.More != cg.MoreNone && !b.v.Seats[s].Voted
}

func (b *Board) canStop() bool { return b.active() && b.v.Phase == cg.Counter && b.v.MayStop }

// targets are the seats a decode may name: everyone else still in.
func (b *Board) targets() []engine.Seat {
	me, _ := b.seat()
	var ts []engine.Seat
	for i, sv := range b.v.Seats {
		if engine.Seat(i) != me && !sv.Out {
			ts = append(ts, engine.Seat(i))
		}
	}
	return ts
}

// digitOrders are the two codes the viewer can set in setup: dealt order, swapped.
func (b *Board) digitOrders() [2]cg.Code {
	c := *b.v.Code
	return [2]cg.Code{c, {Letter: c.Letter, X1: c.X2, X2: c.X1}}
}

// revealChoices are the positions the viewer may turn face up now.
func (b *Board) revealChoices() []int {
	s, ok := b.seat()
	if !ok {
		return nil
	}
	if b.v.Phase == cg.RevealX {
		return []int{cg.PosX1, cg.PosX2}
	}
	var ps []int
	for p := range 3 {
		if !b.v.Seats[s].Revealed[p] {
			ps = append(ps, p)
		}
	}
	return ps
}

func (b *Board) openEntry() {
	b.entry = true
	b.err, b.errWhy = "", ""
	b.input.Focus()
	if b.input.Value() == "" {
		b.prefill()
	}
}

// prefill suggests the target's code when the crack sheet leaves one value
// per position, so a sure answer is one key away. It is a suggestion, not
// typed text: enter sends it, and the first character typed replaces it
// (typing the code again gives that code, never the code twice).
func (b *Board) prefill() {
	ts := b.targets()
	if len(ts) == 0 {
		return
	}
	sv := b.v.Seats[ts[b.target]]
	if sv.Sheet == nil || sv.Candidates != 1 {
		return
	}
	var vals [3]int
	for p := range 3 {
		m := sv.Sheet[p]
		if m == 0 || m&(m-1) != 0 {
			return
		}
		for m>>1 != 0 {
			m >>= 1
			vals[p]++
		}
	}
	b.input.Suggest(cg.Code{Letter: vals[0], X1: vals[1], X2: vals[2]}.String())
}

func (b *Board) closeEntry() {
	b.entry = false
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
	if b.entry {
		return b.updateEntry(msg), nil
	}
	b.err, b.errWhy = "", ""
	if b.notes {
		switch {
		case key.Matches(msg, b.km.Notes), key.Matches(msg, b.km.Cancel):
			b.notes = false
		case key.Matches(msg, b.km.Up):
			b.scroll = max(0, b.scroll-1)
		case key.Matches(msg, b.km.Down):
			b.scroll++
			b.clampScroll()
		}
		return nil, nil
	}
	if key.Matches(msg, b.km.Notes) {
		b.notes, b.scroll = true, 0
		return nil, nil
	}
	if b.c.Replay {
		return nil, nil
	}
	switch {
	case b.canOrder():
		return b.updateChoice(msg, &b.orderCur, 2, func(i int) []byte { return cg.OrderAction(b.digitOrders()[i].X1) }), nil
	case b.canRevealX(), b.canRevealOne():
		ps := b.revealChoices()
		return b.updateChoice(msg, &b.posCur, len(ps), func(i int) []byte { return cg.RevealAction(ps[i]) }), nil
	}
	switch {
	case key.Matches(msg, b.km.Tap):
		if !b.canTap() {
			b.refuse("tap")
			return nil, nil
		}
		return cg.TapAction(), nil
	case key.Matches(msg, b.km.Vote):
		if !b.canVote() {
			b.refuse("vote")
			return nil, nil
		}
		return cg.VoteAction(), nil
	case key.Matches(msg, b.km.Stop):
		if !b.canStop() {
			b.refuse("stop")
			return nil, nil
		}
		return cg.StopAction(), nil
	case key.Matches(msg, b.km.Guess):
		if !b.canDecode() && !b.canTap() {
			b.refuse("decode")
			return nil, nil
		}
		b.openEntry()
		return nil, nil
	}
	if !b.canHack() {
		if key.Matches(msg, b.km.Choose) {
			b.refuse("hack")
		}
		return nil, nil
	}
	return b.updateComposer(msg), nil
}

// updateChoice moves a cursor over n rows (or picks row k with key k) and
// sends the row's action on enter.
func (b *Board) updateChoice(msg tea.KeyPressMsg, cur *int, n int, act func(int) []byte) []byte {
	*cur = clamp(*cur, n)
	switch {
	case key.Matches(msg, b.km.Up):
		*cur = max(0, *cur-1)
	case key.Matches(msg, b.km.Down):
		*cur = min(n-1, *cur+1)
	case key.Matches(msg, b.km.Pick):
		if i, err := strconv.Atoi(msg.String()); err == nil && i >= 1 && i <= n {
			*cur = i - 1
		}
	case key.Matches(msg, b.km.Choose):
		if n > 0 {
			return act(*cur)
		}
	}
	return nil
}

// updateComposer handles a hacking turn: ←/→ pick the column, ↑/↓ the
// row, 1–5 a Hack card, enter sends the three choices together. With
// framed cards (useFramedTable) the choices lie in rows rather than
// columns, and the arrows follow them: ↑/↓ pick the row, ←/→ the card.
func (b *Board) updateComposer(msg tea.KeyPressMsg) []byte {
	v := b.v
	rows := [3]int{len(v.Takeable), len(v.HackLine), len(v.Recipients)}
	curs := [3]*int{&b.dataCur, &b.hackCur, &b.toCur}
	prevCol, nextCol, prev, next := b.km.Left, b.km.Right, b.km.Up, b.km.Down
	if b.framedTable() {
		prevCol, nextCol, prev, next = b.km.Up, b.km.Down, b.km.Left, b.km.Right
	}
	switch {
	case key.Matches(msg, prevCol):
		for c := b.col - 1; c >= 0; c-- {
			if rows[c] > 1 {
				b.col = c
				break
			}
		}
	case key.Matches(msg, nextCol):
		for c := b.col + 1; c < 3; c++ {
			if rows[c] > 1 {
				b.col = c
				break
			}
		}
	case key.Matches(msg, prev):
		c := b.focusCol() // the column drawn as chosen
		b.col, *curs[c] = c, max(0, *curs[c]-1)
	case key.Matches(msg, next):
		c := b.focusCol()
		b.col, *curs[c] = c, clamp(*curs[c]+1, rows[c])
	case key.Matches(msg, b.km.Pick):
		if i, err := strconv.Atoi(msg.String()); err == nil && i >= 1 && i <= rows[colHack] {
			b.hackCur, b.col = i-1, colHack
		}
	case key.Matches(msg, b.km.Choose):
		data := -1
		if len(v.Takeable) > 0 {
			data = v.Takeable[clamp(b.dataCur, len(v.Takeable))]
		}
		return cg.PlayAction(data, v.HackLine[clamp(b.hackCur, rows[colHack])], v.Recipients[clamp(b.toCur, rows[colTo])])
	}
	return nil
}

// focusCol is the composer column drawn as focused: the chosen one when it
// offers a choice, else the first that does.
func (b *Board) focusCol() int {
	rows := [3]int{len(b.v.Takeable), len(b.v.HackLine), len(b.v.Recipients)}
	if rows[b.col] > 1 {
		return b.col
	}
	for c := range 3 {
		if rows[c] > 1 {
			return c
		}
	}
	return colHack
}

func (b *Board) updateEntry(msg tea.KeyPressMsg) []byte {
	ts := b.targets()
	switch {
	case key.Matches(msg, b.km.Cancel):
		b.closeEntry()
		b.err, b.errWhy = "", ""
		return nil
	case msg.String() == "up" || msg.String() == "down" || msg.String() == "tab":
		if len(ts) > 1 {
			d := 1
			if msg.String() == "up" {
				d = len(ts) - 1
			}
			b.target = (b.target + d) % len(ts)
			b.err, b.errWhy = "", ""
			if b.input.Value() == "" || b.input.Suggested() {
				// Whatever was suggested was for the other player.
				b.input.SetValue("")
				b.prefill()
			}
		}
		return nil
	case key.Matches(msg, b.km.Submit):
		if len(ts) == 0 {
			b.err, b.errWhy = "Nobody is left to decode.", ""
			return nil
		}
		code, err := cg.ParseCode(b.input.Value())
		if err != nil {
			b.err, b.errWhy = sentence(err.Error())+".", ""
			return nil
		}
		switch {
		case b.canTap():
			// The answer is ready: tap now and keep it for the claim.
			b.err, b.errWhy = "", ""
			return cg.TapAction()
		case b.canDecode():
			b.closeEntry()
			b.err, b.errWhy = "", ""
			return cg.DecodeAction(ts[clamp(b.target, len(ts))], code)
		}
		b.refuse("decode")
		return nil
	}
	if b.input.Update(msg) {
		b.err, b.errWhy = "", ""
	}
	return nil
}

// refuse shows why the viewer cannot do what right now.
func (b *Board) refuse(what string) { b.err, b.errWhy = b.whyNot(what), what }

// whyNot explains why the viewer cannot do what they asked.
func (b *Board) whyNot(what string) string {
	s, ok := b.seat()
	v := b.v
	switch {
	case !ok:
		return "You are watching; only players " + what + "."
	case v.Phase == cg.Finished:
		return "The game is over."
	case v.Seats[s].Out:
		return "You are out of this game; you can watch the rest."
	}
	switch what {
	case "tap", "vote":
		if v.Phase == cg.Answer {
			return b.name(v.Claimant) + " tapped first and is answering; wait."
		}
		if v.Phase != cg.Race {
			return "Tapping and voting come in the Speed Cracking race, after round 4."
		}
		if what == "vote" && v.More == cg.MoreNone {
			return "No more data can be shown; someone has to tap."
		}
		if what == "vote" {
			return "You have voted; waiting for the others."
		}
	case "stop":
		return "You may stop only right after a right decode."
	case "decode":
		if v.Phase == cg.Rounds || v.Phase == cg.Setup {
			return "Decoding starts after round 4."
		}
	case "hack":
		if b.active() && (v.Phase == cg.Rounds || v.Phase == cg.Counter) {
			return "No Hack card can be sent now; decode someone (g)."
		}
	}
	if len(v.Active) == 1 {
		return "It is " + b.name(v.Active[0]) + "'s move; wait for them."
	}
	return "You cannot " + what + " now."
}

func (b *Board) name(s engine.Seat) string {
	if int(s) >= 0 && int(s) < len(b.c.Names) && b.c.Names[s] != "" {
		return b.c.Names[s]
	}
	if int(s) >= 0 && int(s) < len(b.v.Seats) && b.v.Seats[s].Name != "" {
		return textsafe.Cut(b.v.Seats[s].Name, 16)
	}
	return fmt.Sprintf("seat %d", s+1)
}

// names joins seat names: "Bo", "Bo and Kai", "Bo, Kai and Ana".
func (b *Board) names(ss []engine.Seat) string {
	ns := make([]string, len(ss))
	for i, s := range ss {
		ns[i] = b.name(s)
		if b.v.Viewer.IsSeat(s) && !b.c.Replay {
			ns[i] = "you"
		}
	}
	if len(ns) <= 1 {
		return strings.Join(ns, "")
	}
	return strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1]
}

// ShortHelp implements board.Board: the keys that work now.
func (b *Board) ShortHelp() []key.Binding {
	km := b.km
	switch {
	case b.entry:
		send := "send"
		if b.canTap() {
			send = "tap and answer"
		}
		ks := []key.Binding{widget.Help(km.Submit, "enter", send)}
		if len(b.targets()) > 1 {
			ks = append(ks, widget.Pair(km.Up, km.Down, "↑/↓", "whose code"))
		}
		return append(ks, widget.Help(km.Cancel, "esc", "cancel"))
	case b.notes:
		var ks []key.Binding
		if b.notesOverflow {
			ks = append(ks, widget.Pair(km.Up, km.Down, "↑/↓", "scroll"))
		}
		return append(ks, widget.Help(km.Notes, "n/esc", "close details"))
	case b.c.Replay || !b.has:
		return nil
	}
	details := widget.Help(km.Notes, "n", "details")
	switch {
	case b.canOrder():
		return []key.Binding{widget.Pair(km.Up, km.Down, "↑/↓", "order"), widget.Help(km.Choose, "enter", "set code"), details}
	case b.canRevealX(), b.canRevealOne():
		var ks []key.Binding
		if len(b.revealChoices()) > 1 {
			ks = append(ks, widget.Pair(km.Up, km.Down, "↑/↓", "card"))
		}
		return append(ks, widget.Help(km.Choose, "enter", "show it"), details)
	}
	var ks []key.Binding
	if b.canHack() {
		// Framed, the choices lie in rows (composerCards).
		across, along := widget.Pair(km.Left, km.Right, "←/→", "column"), widget.Pair(km.Up, km.Down, "↑/↓", "choose")
		if b.framedTable() {
			across, along = widget.Pair(km.Up, km.Down, "↑/↓", "row"), widget.Pair(km.Left, km.Right, "←/→", "choose")
		}
		if b.choiceColumns() > 1 {
			ks = append(ks, across)
		}
		if b.choiceColumns() > 0 {
			ks = append(ks, along)
		}
		ks = append(ks, widget.Help(km.Choose, "enter", "hack"))
	}
	if b.canTap() {
		ks = append(ks, b.km.Tap)
	}
	if b.canVote() {
		ks = append(ks, b.km.Vote)
	}
	if b.canDecode() || b.canTap() {
		label := "decode"
		if b.canTap() {
			label = "ready an answer"
		}
		ks = append(ks, widget.Help(km.Guess, "g", label))
	}
	if b.canStop() {
		ks = append(ks, b.km.Stop)
	}
	return append(ks, details)
}

// choiceColumns counts the hacking turn's columns (Data, Hack, To) that
// offer more than one choice.
func (b *Board) choiceColumns() int {
	n := 0
	for _, rows := range []int{len(b.v.Takeable), len(b.v.HackLine), len(b.v.Recipients)} {
		if rows > 1 {
			n++
		}
	}
	return n
}

// FullHelp implements board.Board: the key bar's keys and the few more
// that work now.
func (b *Board) FullHelp() [][]key.Binding {
	var more []key.Binding
	switch {
	case b.entry || b.notes || b.c.Replay || !b.has:
	case b.canOrder():
		more = append(more, widget.Help(b.km.Pick, "1-2", "that order"))
	case b.canRevealX(), b.canRevealOne():
		if n := len(b.revealChoices()); n > 1 {
			more = append(more, widget.Help(b.km.Pick, fmt.Sprintf("1-%d", n), "that card"))
		}
	case b.canHack() && len(b.v.HackLine) > 1:
		more = append(more, widget.Help(b.km.Pick, fmt.Sprintf("1-%d", len(b.v.HackLine)), "that Hack card"))
	}
	return [][]key.Binding{b.ShortHelp(), more}
}

// sentence capitalises the first letter of an engine message.
func sentence(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}
