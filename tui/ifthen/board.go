// Package ifthen draws an If Then table: the Code Line with its Invalid
// piles, the viewer's hand with both ends of every card and the end that
// will go on top, the Market, the penalty, Hints, the Event in force, team
// votes and the log. It only ever draws what the engine's View for this
// viewer holds, so it cannot show the Code to a Code Breaker or a spectator.
package ifthen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	it "github.com/codebreakers/codebreakers/engine/ifthen"
	"github.com/codebreakers/codebreakers/engine/rulelang"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/engine/words"
	"github.com/codebreakers/codebreakers/tui/board"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// Board is the If Then board. It implements board.Board.
type Board struct {
	st  *Styles // shared by every board in the same looks: never changed
	km  *KeyMap
	v   it.View
	has bool
	c   board.Context

	cursor int          // highlighted hand card
	up     map[int]int  // card id → end chosen to go on top
	picked map[int]bool // Market slots chosen for a penalty draw, or the Mastermind's swap slot
	offer  int          // Mastermind setup: the Challenge chosen (0 or 1)
	loyal  bool         // Mastermind setup: loyalty chosen

	guessing bool
	typing   bool // the guess is typed as text rather than built
	builder  guessBuilder
	input    widget.Field
	err      string

	// What the board remembers between frames, so that a frame after a
	// move draws only what changed. Each is bounded and keyed by all its
	// inputs: the painters by their text, the chips by the card end, the
	// log lines by the event's text, the widths by the line.
	paint  widget.Paints
	chips  widget.Memo[it.End, string]
	events widget.Memo[logKey, []string]
	widths widget.Widths

	// busy says a move is on its way to the table: keys that could make
	// another are held back (SetBusy, holds).
	busy bool
}

var _ board.Board = (*Board)(nil)

// New returns an empty board; SetView gives it something to draw.
func New(st *Styles, km *KeyMap) *Board {
	return &Board{st: st, km: km, paint: widget.NewPaints(&st.Styles), up: map[int]int{}, picked: map[int]bool{}, loyal: true,
		input: widget.NewField("rule › ", "e.g. bg != prev.bg", 200)}
}

// SetView implements board.Board.
func (b *Board) SetView(view any, c board.Context) {
	if v, err := engine.ViewAs[it.View](view); err == nil {
		b.v, b.has = v, true
	}
	b.c = c
	if !b.has {
		return
	}
	b.cursor = min(b.cursor, max(0, len(b.v.Hand)-1))
	if b.v.Phase != it.Penalty && b.v.Phase != it.MastermindTurn {
		clear(b.picked)
	}
	if b.guessing && !b.canGuess() {
		b.closeGuess()
	}
}

// SetError implements board.Board.
func (b *Board) SetError(msg string) { b.err = msg }

// SetSize implements board.Board: this board has nothing to lay out.
func (b *Board) SetSize(w, h int) { b.c.Width, b.c.Height = w, h }

// SetTimeLeft implements board.Board: this board shows no countdown.
func (b *Board) SetTimeLeft(time.Duration) {}

// SetBusy implements board.Board.
func (b *Board) SetBusy(busy bool) { b.busy = busy }

// holds reports whether msg could make a move on this board, so that a
// busy board holds it back: while a guess is built or typed, enter (it
// proposes the guess); elsewhere every key but the notes', the arrows and
// the numbers that pick a card (enter plays, d discards, i and u buy hints).
func (b *Board) holds(msg tea.KeyPressMsg) bool {
	if b.guessing {
		return key.Matches(msg, b.km.Submit, b.km.Choose)
	}
	free := key.Matches(msg, b.km.Notes, b.km.Up, b.km.Down, b.km.Left, b.km.Right, b.km.Pick)
	return !free
}

// Overlay implements board.Board: the guess builder takes the arrows and esc.
func (b *Board) Overlay() bool { return b.guessing }

// Capturing implements board.Board.
func (b *Board) Capturing() bool { return b.guessing }

func (b *Board) seat() (engine.Seat, bool) {
	if b.c.Replay || b.v.Viewer.Kind != engine.ViewerSeat {
		return 0, false
	}
	return b.v.Viewer.Seat, true
}

func (b *Board) breaker() bool {
	s, ok := b.seat()
	return ok && slices.Contains(b.v.Breakers, s)
}

func (b *Board) myTurn() bool { _, ok := b.seat(); return ok && b.has && b.v.YourTurn() }

func (b *Board) canGuess() bool {
	return b.breaker() && b.v.CanGuess && b.v.Phase == it.Turn
}

func (b *Board) closeGuess() {
	b.guessing = false
	b.input.Blur()
	b.input.SetValue("")
}

func (b *Board) card() (it.Card, bool) {
	if b.cursor < 0 || b.cursor >= len(b.v.Hand) {
		return it.Card{}, false
	}
	return b.v.Hand[b.cursor], true
}

// Update implements board.Board.
func (b *Board) Update(msg tea.KeyPressMsg) ([]byte, tea.Cmd) {
	if b.busy && b.holds(msg) {
		return board.Held(), nil
	}
	if !b.has || b.c.Replay {
		return nil, nil
	}
	if b.v.Phase == it.Finished {
		// Nothing is left to move: no cursor, no proposal, no guess.
		b.err = ""
		b.closeGuess()
		return nil, nil
	}
	if b.guessing {
		return b.updateGuess(msg), nil
	}
	b.err = ""
	v := b.v
	if v.Phase == it.Setup && b.v.IsAllKnowing() {
		switch {
		case key.Matches(msg, b.km.Up), key.Matches(msg, b.km.Down):
			b.offer = 1 - b.offer
		case key.Matches(msg, b.km.Left), key.Matches(msg, b.km.Right):
			b.loyal = !b.loyal
		case key.Matches(msg, b.km.Choose):
			return it.SetupAction(b.offer, b.loyal), nil
		}
		return nil, nil
	}
	switch {
	case key.Matches(msg, b.km.Up):
		b.cursor = max(0, b.cursor-1)
	case key.Matches(msg, b.km.Down):
		b.cursor = min(max(0, len(v.Hand)-1), b.cursor+1)
	case key.Matches(msg, b.km.Left), key.Matches(msg, b.km.Right):
		if c, ok := b.card(); ok {
			b.up[c.ID] = 1 - b.up[c.ID]
		}
	case key.Matches(msg, b.km.Pick):
		i, err := strconv.Atoi(msg.String())
		if err != nil || i < 1 {
			return nil, nil
		}
		if v.Phase == it.Penalty || v.Phase == it.MastermindTurn {
			// Only the player drawing or swapping marks Market cards:
			// a watcher's or a waiting player's marks would be noise.
			if i <= len(v.Market) && b.myTurn() {
				if v.Phase == it.MastermindTurn {
					clear(b.picked)
				}
				b.picked[i-1] = !b.picked[i-1]
			}
		} else if i <= len(v.Hand) {
			b.cursor = i - 1
		}
	case key.Matches(msg, b.km.Choose):
		return b.choose(), nil
	case key.Matches(msg, b.km.Discard):
		if b.silenced() {
			b.err = silenceText
			return nil, nil
		}
		if _, ok := b.card(); ok && b.myTurn() && v.Phase == it.Turn {
			return it.DiscardAction(b.cursor), nil
		}
		b.err = b.whyNot()
	case key.Matches(msg, b.km.Cycle):
		if b.myTurn() && v.Phase == it.MastermindTurn {
			return it.CycleAction(b.cursor), nil
		}
	case key.Matches(msg, b.km.Yes), key.Matches(msg, b.km.No):
		if b.myTurn() && v.Phase == it.Vote {
			return it.VoteAction(key.Matches(msg, b.km.Yes)), nil
		}
		b.err = "There is nothing to vote on."
	case key.Matches(msg, b.km.Hint):
		return b.propose(it.Proposal{Kind: it.ProposeHint}), nil
	case key.Matches(msg, b.km.FreeHint):
		return b.propose(it.Proposal{Kind: it.ProposeFreeHint}), nil
	case key.Matches(msg, b.km.Lucky):
		return b.propose(it.Proposal{Kind: it.ProposeLuckyDraw, Card: b.cursor}), nil
	case key.Matches(msg, b.km.Second):
		return b.propose(it.Proposal{Kind: it.ProposeSecondChance}), nil
	case key.Matches(msg, b.km.Guess):
		if !b.canGuess() {
			b.err = "The team may guess only when one Code Breaker still holds cards."
			return nil, nil
		}
		b.guessing, b.typing = true, false
		b.builder = newGuessBuilder(b.km)
	}
	return nil, nil
}

// propose sends a proposal; the engine explains any refusal.
func (b *Board) propose(p it.Proposal) []byte {
	if !b.breaker() {
		b.err = "Only Code Breakers make proposals."
		return nil
	}
	return it.ProposeAction(p)
}

// choose is enter: the move the phase calls for.
func (b *Board) choose() []byte {
	v := b.v
	if !b.myTurn() {
		b.err = b.whyNot()
		return nil
	}
	switch v.Phase {
	case it.Turn:
		if c, ok := b.card(); ok {
			return it.PlayAction(b.cursor, b.up[c.ID])
		}
	case it.Penalty:
		var m []int
		for i := range v.Market {
			if b.picked[i] {
				m = append(m, i)
			}
		}
		return it.DrawAction(m...)
	case it.PassLeft:
		return it.PassAction(b.cursor)
	case it.RevealEvent:
		return it.RevealAction("event")
	case it.RevealHint:
		return it.RevealAction("hint")
	case it.Vote:
		return it.VoteAction(true)
	case it.MastermindTurn:
		if v.AKDrew { // the drawn card is seen: enter sends the chosen one under the pile
			return it.CycleAction(b.cursor)
		}
		for i := range v.Market {
			if b.picked[i] {
				c, _ := b.card()
				return it.SwapAction(b.cursor, i, b.up[c.ID])
			}
		}
		b.err = "Pick a Market card to swap with (1–3), or cycle a card (x)."
	}
	return nil
}

// silenceText is why d does nothing while Silence is in force.
const silenceText = "Silence is in force: no discarding until the next Event; play a card (enter)."

// silenced reports whether the Event in force forbids discarding.
func (b *Board) silenced() bool { return b.v.Event != nil && b.v.Event.Kind == it.EventSilence }

func (b *Board) whyNot() string {
	if _, ok := b.seat(); !ok {
		return "You are watching; only players move."
	}
	if b.v.Phase == it.Finished {
		return "The game is over."
	}
	if !b.v.YourTurn() {
		return "Wait: " + b.waitingFor() + "."
	}
	return "That move does not fit now."
}

func (b *Board) updateGuess(msg tea.KeyPressMsg) []byte {
	switch {
	case key.Matches(msg, b.km.Cancel):
		b.closeGuess()
		b.err = ""
		return nil
	case key.Matches(msg, b.km.ToBuilder):
		b.typing = !b.typing
		if b.typing {
			if text, err := b.builder.text(); err == nil && b.input.Value() == "" {
				b.input.SetValue(text)
			}
			b.input.Focus()
		} else {
			b.input.Blur()
		}
		return nil
	case !b.typing:
		b.err = ""
		if !b.builder.key(msg) {
			return nil
		}
		text, err := b.builder.text()
		if err != nil {
			b.err = err.Error()
			return nil
		}
		b.closeGuess()
		return it.ProposeAction(it.Proposal{Kind: it.ProposeGuess, Text: text})
	case key.Matches(msg, b.km.Submit):
		text := strings.TrimSpace(b.input.Value())
		if _, err := rulelang.Parse(rulelang.IfThenAttributes(), text); err != nil {
			b.err = err.Error()
			return nil
		}
		b.closeGuess()
		return it.ProposeAction(it.Proposal{Kind: it.ProposeGuess, Text: text})
	}
	if b.input.Update(msg) {
		b.err = ""
	}
	return nil
}

func (b *Board) name(s engine.Seat) string {
	if s == engine.System {
		return "the All Knowing"
	}
	if int(s) >= 0 && int(s) < len(b.c.Names) && b.c.Names[s] != "" {
		return b.c.Names[s]
	}
	if int(s) >= 0 && int(s) < len(b.v.Seats) && b.v.Seats[s].Name != "" {
		return textsafe.Cut(b.v.Seats[s].Name, 16)
	}
	return fmt.Sprintf("seat %d", s+1)
}

// ShortHelp implements board.Board: the keys that work now.
func (b *Board) ShortHelp() []key.Binding {
	km := b.km
	switch {
	case b.guessing && b.typing:
		return []key.Binding{widget.Help(km.Submit, "enter", "send"), b.km.ToBuilder, widget.Help(km.Cancel, "esc", "cancel")}
	case b.guessing:
		return append(b.builder.help(km), b.km.TypeIt, widget.Help(km.Cancel, "esc", "cancel"))
	case !b.has || b.c.Replay:
		return nil
	}
	cards := widget.Pair(km.Up, km.Down, "↑/↓", "card")
	var ks []key.Binding
	if b.myTurn() {
		switch b.v.Phase {
		case it.Setup:
			if b.v.IsAllKnowing() && len(b.v.Offered) == 2 {
				ks = append(ks, widget.Pair(km.Up, km.Down, "↑/↓", "challenge"))
				if b.v.Mode == it.ModeMastermind {
					ks = append(ks, widget.Pair(km.Left, km.Right, "←/→", "loyalty"))
				}
				ks = append(ks, widget.Help(km.Choose, "enter", "confirm"))
			}
		case it.Turn:
			if len(b.v.Hand) > 1 {
				ks = append(ks, cards)
			}
			if len(b.v.Hand) > 0 {
				ks = append(ks, widget.Pair(km.Left, km.Right, "←/→", "turn"), widget.Help(km.Choose, "enter", "play"))
				if !b.silenced() {
					ks = append(ks, b.km.Discard)
				}
			}
		case it.Penalty:
			if len(b.v.Market) > 0 {
				ks = append(ks, widget.Help(km.Pick, fmt.Sprintf("1-%d", len(b.v.Market)), "take from Market"))
			}
			ks = append(ks, widget.Help(km.Choose, "enter", "draw"))
		case it.Vote:
			ks = append(ks, b.km.Yes, b.km.No)
		case it.PassLeft:
			if len(b.v.Hand) > 1 {
				ks = append(ks, cards)
			}
			ks = append(ks, widget.Help(km.Choose, "enter", "pass it"))
		case it.RevealEvent:
			ks = append(ks, widget.Help(km.Choose, "enter", "reveal Event"))
		case it.RevealHint:
			ks = append(ks, widget.Help(km.Choose, "enter", "reveal Hint"))
		case it.MastermindTurn:
			if len(b.v.Hand) > 1 {
				ks = append(ks, cards)
			}
			if b.v.AKDrew {
				ks = append(ks, widget.Help(km.Choose, "enter", "send under pile"))
				break
			}
			if len(b.v.Market) > 0 {
				ks = append(ks, widget.Help(km.Pick, fmt.Sprintf("1-%d", len(b.v.Market)), "Market card"))
			}
			ks = append(ks, widget.Help(km.Choose, "enter", "swap"), b.km.Cycle)
		}
	}
	return append(ks, b.proposals()...)
}

// proposals are the team decisions the viewer may put to the team now.
func (b *Board) proposals() []key.Binding {
	v := b.v
	if !b.breaker() || v.Proposal != nil {
		return nil
	}
	may := func(kind string) bool {
		if slices.Contains(v.Declined, kind) {
			return false
		}
		return v.Phase == it.Turn || (v.Phase == it.Penalty && kind == it.ProposeSecondChance)
	}
	kept := func(k it.EventKind) bool {
		return slices.ContainsFunc(v.Keeps, func(e it.EventView) bool { return e.Kind == k })
	}
	var ks []key.Binding
	if may(it.ProposeHint) && v.HintCost > 0 && v.HintsOut < 2 && v.Deck >= v.HintCost {
		ks = append(ks, b.km.Hint)
	}
	if may(it.ProposeFreeHint) && kept(it.EventFreeHint) && v.HintsOut < 2 {
		ks = append(ks, b.km.FreeHint)
	}
	if may(it.ProposeLuckyDraw) && kept(it.EventLuckyDraw) && len(v.Hand) > 0 {
		ks = append(ks, b.km.Lucky)
	}
	if may(it.ProposeSecondChance) && kept(it.EventSecondChance) && v.Phase == it.Penalty && v.TakeBack {
		ks = append(ks, b.km.Second)
	}
	if may(it.ProposeGuess) && b.canGuess() {
		ks = append(ks, widget.Help(b.km.Guess, "g", "guess the Code"))
	}
	return ks
}

// FullHelp implements board.Board: the key bar's keys and the few more
// that work now.
func (b *Board) FullHelp() [][]key.Binding {
	var more []key.Binding
	if !b.guessing && b.myTurn() && len(b.v.Hand) > 1 {
		switch b.v.Phase {
		case it.Turn, it.PassLeft:
			more = append(more, widget.Help(b.km.Pick, fmt.Sprintf("1-%d", min(9, len(b.v.Hand))), "that card"))
		}
	}
	return [][]key.Binding{b.ShortHelp(), more}
}

// waitingFor says who or what the table waits for.
func (b *Board) waitingFor() string {
	v := b.v
	switch v.Phase {
	case it.Setup:
		return "the All Knowing is choosing the Code"
	case it.Vote:
		return "the team is voting"
	case it.PassLeft:
		return "everyone is picking a card to pass"
	case it.RevealEvent:
		return "the All Knowing reveals the Event"
	case it.RevealHint:
		return "the All Knowing reveals the Hint"
	case it.MastermindTurn:
		return "the All Knowing is taking a turn"
	case it.Penalty:
		return b.name(v.ToMove) + " is drawing a penalty"
	}
	return b.name(v.ToMove) + " is playing"
}

// twoEnds draws a two-ended card with both ends in their colours, the end
// on top first: "[4BMr│9YMb]". Each end's code says it all without colour
// (number, colour letter, size letter, background letter).
func (b *Board) twoEnds(top, bottom it.End) string {
	return "[" + b.chip(top) + "│" + b.chip(bottom) + "]"
}

// chip is drawChip(e), remembered.
func (b *Board) chip(e it.End) string {
	if c, ok := b.chips.Get(e); ok {
		return c
	}
	return b.chips.Put(e, drawChip(b.st, e))
}

// drawChip draws an end in its colours; the code text says it all without colour too.
func drawChip(st *Styles, e it.End) string {
	if e.NColor < 0 || e.NColor > 2 || e.BG < 0 || e.BG > 2 {
		return "?"
	}
	return st.End[e.NColor][e.BG].Render(e.Code())
}

// fit cuts s to w cells.
func (b *Board) fit(s string, w int) string {
	if b.width(s) > w {
		return widget.Truncate(s, w, "…")
	}
	return s
}

// width is widget.Width(s), remembered.
func (b *Board) width(s string) int { return b.widths.Of(s) }

// View implements board.Board.
func (b *Board) View() string {
	w, h := max(30, b.c.Width), max(6, b.c.Height)
	if !b.has {
		return "\n  Dealing the cards…"
	}
	var top []string
	top = append(top, b.statusLines()...)
	top = append(top, b.infoLines(w)...)
	top = append(top, b.lineRows(w)...)
	top = append(top, b.marketLine())
	switch {
	case b.guessing && b.typing:
		top = append(top, " "+b.paint.Heading.Render("Guess the Code")+b.paint.Dim.Render("  (tab: back to the builder)"),
			" "+b.input.View())
		top = append(top, b.dimWrapped(b.guessPreview(), w)...)
	case b.guessing:
		top = append(top, " "+b.paint.Heading.Render("Guess the Code")+b.paint.Dim.Render("  (tab: type it instead)"))
		preview := b.dimWrapped(b.builder.preview(), w)
		top = append(top, b.builder.lines(b, w, max(3, h-len(top)-2-len(preview)))...)
		top = append(top, preview...)
	case b.v.Viewer.Kind == engine.ViewerOmniscient:
		top = append(top, b.allHands(w)...)
	default:
		top = append(top, b.handLines(max(1, h-len(top)-3))...)
	}
	top = append(top, b.teamLine()...)
	if room := h - len(top); room > 0 {
		top = append(top, b.logLines(w, room)...)
	}
	if len(top) > h {
		top = top[:h]
	}
	for i := range top {
		top[i] = b.fit(top[i], w)
	}
	return strings.Join(top, "\n")
}

func (b *Board) guessPreview() string {
	text := strings.TrimSpace(b.input.Value())
	if text == "" {
		return "Write the Code in the rule language: number, ncolor, size, bg; prev.bg is the last Valid card's."
	}
	r, err := rulelang.Parse(rulelang.IfThenAttributes(), text)
	if err != nil {
		return err.Error()
	}
	return "Reads: " + r.English()
}

func (b *Board) statusLines() []string {
	v := b.v
	var s string
	me, seated := b.seat()
	switch {
	case b.c.Replay:
	case v.Phase == it.Finished:
		s = b.paint.Strong.Render("The game is over.")
		if v.Result != nil {
			s += " " + v.Result.Summary
		}
	case !seated:
		s = "You are watching: " + b.waitingFor() + "."
	case v.YourTurn():
		s = b.paint.Strong.Render("▸ " + b.yourMove())
	case v.Phase == it.Turn && me == v.ToMove:
		s = "Your turn is waiting on the team."
	default:
		s = "Waiting: " + b.waitingFor() + "."
	}
	var out []string
	if s != "" {
		out = append(out, widget.WrapIndent(s, max(20, b.c.Width), " ", "   ")...)
	}
	if b.err != "" {
		for _, l := range widget.WrapIndent("! "+textsafe.Cut(b.err, 300), max(20, b.c.Width), " ", "   ") {
			out = append(out, b.paint.Error.Render(l))
		}
	}
	return out
}

// dimWrapped is text in the dim style, wrapped by words to w cells.
func (b *Board) dimWrapped(text string, w int) []string {
	lines := widget.WrapIndent(textsafe.Cut(text, 400), w, " ", "   ")
	for i, l := range lines {
		lines[i] = b.paint.Dim.Render(l)
	}
	return lines
}

func (b *Board) yourMove() string {
	v := b.v
	switch v.Phase {
	case it.Setup:
		return "Choose the Code and your loyalty."
	case it.Turn:
		if b.silenced() {
			return "Your turn: play a card (enter); Silence: no discarding until the next Event."
		}
		return "Your turn: play a card (enter) or discard one (d)."
	case it.Penalty:
		return fmt.Sprintf("Penalty: draw %d (enter); pick Market cards first with 1–3 if you like.", v.Owed)
	case it.Vote:
		return "Team vote: " + b.proposalText() + " Agree (y) or decline (n)?"
	case it.PassLeft:
		return "Pass Left: pick a card to hand on (enter)."
	case it.RevealEvent:
		return "The round is over: reveal the next Event (enter)."
	case it.RevealHint:
		return "The team paid for a Hint: reveal it (enter)."
	case it.MastermindTurn:
		if v.AKDrew {
			return "You drew from your pile: pick a card to send under it (enter or x)."
		}
		return "Your turn: swap a card with the Market (1–3, enter) or cycle one (x)."
	}
	return ""
}

func (b *Board) proposalText() string {
	p := b.v.Proposal
	if p == nil {
		return ""
	}
	who := b.name(p.By)
	switch p.Kind {
	case it.ProposeHint:
		return fmt.Sprintf("%s wants to buy a Hint for %s.", who, words.Count(b.v.HintCost, "card", "cards"))
	case it.ProposeFreeHint:
		return who + " wants to use the Free Hint."
	case it.ProposeLuckyDraw:
		return fmt.Sprintf("%s wants to use Lucky Draw on their card %d.", who, p.Card+1)
	case it.ProposeSecondChance:
		return who + " wants to use Second Chance."
	case it.ProposeGuess:
		if r, err := rulelang.Parse(rulelang.IfThenAttributes(), p.Text); err == nil {
			return who + " guesses: " + r.English()
		}
		return who + " guesses: " + p.Text + "."
	}
	return who + " proposes something."
}

func (b *Board) infoLines(w int) []string {
	v := b.v
	mode := "server judges"
	switch v.Mode {
	case it.ModePlayer:
		mode = b.name(v.AllKnowing) + " is All Knowing"
	case it.ModeMastermind:
		mode = b.name(v.AllKnowing) + " is Mastermind"
	}
	line := fmt.Sprintf("Level %d · round %d · %s · deck %d · penalty: draw %d (%d Invalid)", v.Level, v.Round, mode, v.Deck, v.Penalty, v.Invalid)
	var out []string
	if v.Phase == it.Finished || b.c.Replay {
		out = append(out, b.codeLines(w, true)...)
	}
	for _, l := range widget.WrapIndent(line, w, " ", "   ") {
		out = append(out, b.paint.Dim.Render(l))
	}
	var hints []string
	for _, h := range v.Hints {
		hints = append(hints, h.Symbol+" "+h.Text)
	}
	hl := " Hints: "
	switch {
	case len(hints) > 0:
		hl += strings.Join(hints, " ")
	case v.HintCost > 0:
		hl += "none yet"
	default:
		hl += "none (a Hint needs 3 Invalid cards)"
	}
	if v.HintCost > 0 {
		hl += fmt.Sprintf(" · next costs %d (i)", v.HintCost)
	}
	out = append(out, widget.WrapIndent(strings.TrimPrefix(hl, " "), w, " ", "   ")...)
	ev := "Event: none"
	if v.Event != nil {
		ev = "Event: " + b.paint.Strong.Render(v.Event.Title) + " — " + v.Event.Text
	}
	if len(v.Keeps) > 0 {
		var ks []string
		for _, k := range v.Keeps {
			ks = append(ks, k.Title)
		}
		ev += " · kept: " + strings.Join(ks, ", ")
	}
	// Said in full, wrapped: an Event changes what a move does.
	out = append(out, widget.WrapIndent(ev, w, " ", "   ")...)
	// Once the game is over (and in a replay) the Code is what everyone
	// wants to read: it comes first, said in full, so a short window cuts
	// the round's details rather than the answer.
	over := v.Phase == it.Finished || b.c.Replay
	if !over {
		out = append(out, b.codeLines(w, false)...)
	}
	if v.Phase == it.Setup && len(v.Offered) == 2 {
		for i, o := range v.Offered {
			mark := "  "
			if i == b.offer {
				mark = "› "
			}
			out = append(out, widget.WrapIndent(o.English, w, " "+mark, "   ")...)
		}
		out = append(out, fmt.Sprintf("   loyalty: %s (←/→)", map[bool]string{true: "True — win with the team", false: "False — win if they lose"}[b.loyal]))
	}
	return out
}

// codeLines are the Code, for those who may see it: two lines in play,
// leaving room for the hand, or all of it when full is set.
func (b *Board) codeLines(w int, full bool) []string {
	v := b.v
	if v.Challenge == nil {
		return nil
	}
	var out []string
	c := "Code: " + v.Challenge.English
	if v.Loyal != nil {
		c += " Your loyalty: " + map[bool]string{true: "True", false: "False"}[*v.Loyal] + "."
	}
	wrapped := widget.Wrap(c, w-2)
	keep := 2
	if full {
		keep = len(wrapped)
	}
	for i, l := range wrapped[:min(keep, len(wrapped))] {
		if i == keep-1 && len(wrapped) > keep {
			l = b.fit(l+" "+wrapped[keep], w-2)
		}
		out = append(out, " "+b.paint.Good.Render(l))
	}
	return out
}

// lineRows draws the newest Valid cards of the Code Line that fit, with up to
// three Invalid cards of each pile beneath (newest first) and a count of the rest.
func (b *Board) lineRows(w int) []string {
	const cell = 6
	cards := b.v.Line
	// col is where the first card starts, on the Code Line and the Invalid
	// rows under it alike. With cards left out, "+N" takes room beside the
	// heading and the cards move right, a space after it: they were glued
	// ("+10" then "4BMy" read "+104BMy") and stood off their Invalid cards.
	col := 12
	skipped := 0
	for range 2 { // a second pass when "+N" widened the heading
		skipped = max(0, len(cards)-max(1, (w-col-1)/cell))
		if skipped > 0 {
			col = max(col, len(" Code Line")+len(fmt.Sprintf("+%d", skipped))+1)
		}
	}
	cards = cards[skipped:]
	head := " " + b.paint.Heading.Render("Code Line") + " "
	if skipped > 0 {
		head = " " + b.paint.Heading.Render("Code Line") + b.paint.Dim.Render(fmt.Sprintf("+%d", skipped))
	}
	row := head + strings.Repeat(" ", max(1, col-b.width(head)))
	deep := 0
	for _, c := range cards {
		row += b.chip(c.Top) + "  "
		deep = max(deep, len(c.Invalid))
	}
	out := []string{row}
	for d := range min(deep, 3) {
		r := " " + b.paint.Dim.Render(map[bool]string{true: "Invalid", false: ""}[d == 0])
		r += strings.Repeat(" ", max(0, col-b.width(r)))
		for _, c := range cards {
			k := len(c.Invalid) - 1 - d
			switch {
			case k >= 0 && d == 2 && len(c.Invalid) > 3:
				r += fmt.Sprintf("%-6s", fmt.Sprintf("+%d", len(c.Invalid)-2))
			case k >= 0:
				r += b.chip(c.Invalid[k].Top) + "  "
			default:
				r += strings.Repeat(" ", cell)
			}
		}
		out = append(out, strings.TrimRight(r, " "))
	}
	return out
}

func (b *Board) marketLine() string {
	var parts []string
	for i, m := range b.v.Market {
		mark := ""
		if b.picked[i] {
			mark = "✓"
		}
		p := fmt.Sprintf("%s%d %s", mark, i+1, b.twoEnds(m.Card.End(m.Up), m.Card.End(1-m.Up)))
		if m.Spotlight {
			p += b.paint.Good.Render(" ★" + m.Card.End(m.SpotUp).Code())
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		parts = []string{b.paint.Dim.Render("empty")}
	}
	return " " + b.paint.Heading.Render("Market") + "    " + strings.Join(parts, "  ")
}

// handLines lists the viewer's cards: the end that would go on top first.
func (b *Board) handLines(room int) []string {
	v := b.v
	if v.Viewer.Kind != engine.ViewerSeat || (len(v.Hand) == 0 && !v.IsAllKnowing()) {
		if v.Viewer.Kind == engine.ViewerSeat && b.breaker() {
			return []string{" " + b.paint.Dim.Render("Your hand is empty: you are inactive, but you still vote and advise.")}
		}
		return nil
	}
	title := "Your hand"
	if v.IsAllKnowing() && v.Mode == it.ModeMastermind {
		title = fmt.Sprintf("Your hand (deck %d)", v.AKDeck)
	} else if v.IsAllKnowing() {
		return nil
	}
	// Once the game is over the hand is only what was left: no cursor and
	// no word of turning cards.
	over := v.Phase == it.Finished
	hint := "  top end first; ←/→ turns the card"
	if over {
		hint = "  left at the end"
	}
	start := 0
	if n := room - 1; n > 0 && b.cursor >= n {
		start = b.cursor - n + 1
	}
	end := min(len(v.Hand), start+max(1, room-1))
	if start > 0 || end < len(v.Hand) {
		// A short window shows some of the hand: say so, and how to reach
		// the rest (the cards out of sight were not mentioned at all).
		hint = fmt.Sprintf("  cards %d–%d of %d, ↑/↓ for the rest", start+1, end, len(v.Hand))
	}
	out := []string{" " + b.paint.Heading.Render(title) + b.paint.Dim.Render(hint)}
	for i := start; i < end; i++ {
		c := v.Hand[i]
		up := b.up[c.ID]
		cur := i == b.cursor && !over
		mark := "  "
		if cur {
			mark = "› "
		}
		line := fmt.Sprintf(" %s%d %s  %s", mark, i+1, b.twoEnds(c.End(up), c.End(1-up)), b.paint.Dim.Render(c.End(up).String()))
		if cur {
			line = b.paint.Selected.Render(line)
		}
		out = append(out, line)
	}
	return out
}

// allHands lists every seat's cards, for a view that sees them all (a
// replay, or a finished table): each card as its top end over the other.
func (b *Board) allHands(w int) []string {
	out := []string{" " + b.paint.Heading.Render("Hands") + b.paint.Dim.Render("  every seat's cards, all shown")}
	nameW := 0
	for i := range b.v.Seats {
		nameW = max(nameW, b.width(b.name(engine.Seat(i))))
	}
	for i, sv := range b.v.Seats {
		if sv.Role == it.RoleAllKnowing && len(sv.Hand) == 0 {
			continue
		}
		name := b.name(engine.Seat(i))
		cards := make([]string, 0, len(sv.Hand))
		for _, c := range sv.Hand {
			cards = append(cards, b.twoEnds(c.End(0), c.End(1)))
		}
		text := strings.Join(cards, " ")
		if len(cards) == 0 {
			text = b.paint.Dim.Render("no cards")
		}
		pad := strings.Repeat(" ", nameW-b.width(name))
		out = append(out, widget.WrapIndent(text, w, "   "+name+pad+"  ", strings.Repeat(" ", nameW+5))...)
	}
	return out
}

func (b *Board) teamLine() []string {
	var parts []string
	for i, s := range b.v.Seats {
		seat := engine.Seat(i)
		p := b.name(seat)
		if s.Role == it.RoleAllKnowing {
			p += " (All Knowing)"
		} else {
			p += fmt.Sprintf(" %d", s.HandSize)
		}
		if b.v.Proposal != nil && s.Role == it.RoleBreaker {
			p += map[bool]string{true: " ✓", false: " …"}[s.Voted]
		}
		if b.v.Phase != it.Finished && slices.Contains(b.v.Active, seat) {
			p = b.paint.Strong.Render("▸" + p)
		}
		parts = append(parts, p)
	}
	line := "Team: " + strings.Join(parts, " · ")
	if b.v.Proposal != nil {
		line += fmt.Sprintf("  [vote %d/%d]", b.v.Proposal.Yes, b.v.Proposal.Need)
	}
	return widget.WrapIndent(line, max(20, b.c.Width), " ", "   ")
}

// logKey is one event wrapped at one width.
type logKey struct {
	text string
	w    int
}

// logLines are the newest events that fit in room lines of w cells, each
// wrapped by words under its bullet, oldest first.
func (b *Board) logLines(w, room int) []string {
	log := b.c.Log
	var blocks [][]string
	used := 0
	for i := len(log) - 1; i >= 0 && used < room; i-- {
		k := logKey{log[i].Text, w}
		ls, ok := b.events.Get(k)
		if !ok {
			ls = b.events.Put(k, widget.WrapIndent(textsafe.Cut(log[i].Text, 300), w, " "+b.paint.Dim.Render("· "), "   "))
		}
		if used+len(ls) > room {
			if used == 0 {
				return widget.CutTail(ls, room, w)
			}
			break
		}
		blocks = append(blocks, ls)
		used += len(ls)
	}
	out := make([]string, 0, used)
	for i := len(blocks) - 1; i >= 0; i-- {
		out = append(out, blocks[i]...)
	}
	return out
}
