// Package whattherule draws a What the Rule?! table: the valid line with the
// cards that did not fit below their spots, the viewer's hand, the scores,
// the game master's rule card and live preview, the guess entry and the hint
// votes. It draws only what the engine's View for this viewer holds, and the
// View carries the rule for the game master alone, so the rule cannot reach
// another player's screen before the round ends.
package whattherule

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/rulelang"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	wtr "github.com/codebreakers/codebreakers/engine/whattherule"
	"github.com/codebreakers/codebreakers/tui/board"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// mode is what the board's keys are doing.
type mode int

const (
	modeMain    mode = iota
	modeRule         // the game master types a machine rule, with a live preview
	modeFree         // the game master types a free rule
	modeLibrary      // the game master browses the rule library
	modeGuess        // the player types a guess
	modeHint         // the game master types a hint
	modeNotes        // past rounds, hints and guesses
	modeBuilder      // the game master builds a machine rule (or a player a guess) from clauses
)

// Board is the What the Rule?! board. It implements board.Board.
type Board struct {
	st  *Styles // shared by every board in the same looks: never changed
	km  *KeyMap
	v   wtr.View
	has bool
	c   board.Context

	mode      mode
	input     widget.Field
	cursor    int // selected card of the hand (or of a revealed hand, for the game master)
	libCursor int
	scroll    int
	confirm   bool // call off waits for a second x
	err       string
	// errWhy says err is whyNot's answer: it explains the table as it
	// was, so a view that no longer gives it clears it.
	errWhy bool
	// notesOverflow says the notes, as last laid out (SetSize), are
	// longer than the board, so that scrolling them does something.
	notesOverflow bool
	lib           []wtr.LibraryRule
	bld           builderState
	bldGuess      bool                          // the builder makes a guess (a player's), not a rule (the game master's)
	checked       checkedRule                   // the last rule text checked for the preview
	cards         widget.Memo[wtr.Card, string] // styled card faces by face (ID 0), drawn once

	// What the board remembers between frames besides the card faces:
	// the painters by their text, the log by event and width. Each is
	// bounded.
	paint  widget.Paints
	logs   widget.LogCache
	widths widget.Widths // see width

	// busy says a move is on its way to the table: keys that could make
	// another are held back (SetBusy, holds).
	busy bool
}

// checkedRule caches CheckRule for the text being typed or built, so a
// redraw does not analyse the same rule again.
type checkedRule struct {
	text string
	rule *rulelang.Rule
	err  error
}

// check returns CheckRule(text), remembering the last answer.
func (b *Board) check(text string) (*rulelang.Rule, error) {
	if b.checked.text != text || (b.checked.rule == nil && b.checked.err == nil) {
		r, err := wtr.CheckRule(text)
		b.checked = checkedRule{text: text, rule: r, err: err}
	}
	return b.checked.rule, b.checked.err
}

var _ board.Board = (*Board)(nil)

// New returns an empty board; SetView gives it something to draw.
func New(st *Styles, km *KeyMap) *Board {
	return &Board{st: st, km: km, paint: widget.NewPaints(&st.Styles), input: widget.NewField("› ", "", wtr.MaxRuleText),
		lib: wtr.Library(), bld: newBuilder(km.Builder)}
}

// SetView implements board.Board.
func (b *Board) SetView(view any, c board.Context) {
	if v, err := engine.ViewAs[wtr.View](view); err == nil {
		b.v, b.has = v, true
	}
	b.c = c
	if !b.has {
		return
	}
	b.cursor = min(b.cursor, max(0, len(b.selectable())-1))
	if b.errWhy && b.err != b.whyNot() {
		b.err, b.errWhy = "", false // the refusal explained a table that has moved on
	}
	// Close an entry the game has moved past.
	gmSetup := b.isGM() && b.v.Phase == wtr.Setup
	switch b.mode {
	case modeBuilder:
		if b.bldGuess && (!b.v.CanGuess() || b.c.Replay) || !b.bldGuess && !gmSetup {
			b.closeInput()
		}
	case modeRule, modeFree, modeLibrary:
		if !gmSetup {
			b.closeInput()
		}
	case modeGuess:
		if !b.v.CanGuess() || b.c.Replay {
			b.closeInput()
		}
	case modeHint:
		if !b.isGM() || b.v.Phase != wtr.HintGive {
			b.closeInput()
		}
	}
	if b.confirm && (!b.isGM() || b.v.Mode != wtr.Free) {
		b.confirm = false
	}
}

// SetSize implements board.Board: it learns, while the notes are open,
// whether they are longer than the board and clamps their scroll.
func (b *Board) SetSize(w, h int) {
	b.c.Width, b.c.Height = w, h
	if b.has && b.mode == modeNotes {
		b.notesOverflow = len(b.notesLines(max(20, w))) > max(4, h)
		b.clampScroll()
	}
}

// clampScroll keeps the notes' scroll within them (SetSize and the scroll
// keys call it, so View changes nothing).
func (b *Board) clampScroll() {
	w, h := max(20, b.c.Width), max(4, b.c.Height)
	b.scroll = min(b.scroll, max(0, len(b.notesLines(w))-h))
}

// SetError implements board.Board.
func (b *Board) SetError(msg string) { b.err, b.errWhy = msg, false }

// SetTimeLeft implements board.Board: this board shows no countdown.
func (b *Board) SetTimeLeft(time.Duration) {}

// SetBusy implements board.Board.
func (b *Board) SetBusy(busy bool) { b.busy = busy }

// holds reports whether msg could make a move on this board, so that a
// busy board holds it back: in a text entry (a rule, a guess, a hint),
// enter; in the library, the builder and the notes, nothing; on the table
// every key but the notes', the arrows and the card numbers (enter lays or
// plays a card, y and n vote or judge, g guesses, p passes).
func (b *Board) holds(msg tea.KeyPressMsg) bool {
	switch b.mode {
	case modeRule, modeFree, modeGuess, modeHint:
		return key.Matches(msg, b.km.Submit, b.km.Choose)
	case modeLibrary, modeBuilder, modeNotes:
		return false
	}
	return !key.Matches(msg, b.km.Notes, b.km.Up, b.km.Down, b.km.Left, b.km.Right, b.km.Pick)
}

// Capturing implements board.Board: a text entry has the keyboard.
func (b *Board) Capturing() bool {
	switch b.mode {
	case modeRule, modeFree, modeGuess, modeHint:
		return true
	}
	return false
}

// Overlay implements board.Board: the library and the notes take the arrows and esc.
func (b *Board) Overlay() bool {
	return b.mode == modeLibrary || b.mode == modeNotes || b.mode == modeBuilder
}

func (b *Board) seated() bool { return !b.c.Replay && b.v.Viewer.Kind == engine.ViewerSeat }

func (b *Board) isGM() bool { return b.seated() && b.v.IsGM() }

func (b *Board) canPlay() bool  { return b.seated() && b.v.CanPlay() }
func (b *Board) canGuess() bool { return b.seated() && b.v.CanGuess() }
func (b *Board) canVote() bool  { return b.seated() && b.v.CanVote() }

// judging reports whether the viewer is the game master of a free rule with
// a play or guess to judge.
func (b *Board) judging() bool {
	return b.isGM() && (b.v.Phase == wtr.JudgePlay || b.v.Phase == wtr.JudgeGuess)
}

func (b *Board) laying() bool { return b.isGM() && b.v.Phase == wtr.JudgeReveal }

// selectable is the row of cards the arrows move over.
func (b *Board) selectable() []wtr.Card {
	if b.laying() {
		return b.v.Revealed
	}
	return b.v.Hand
}

func (b *Board) open(m mode, prompt string) {
	b.mode = m
	b.input.Prompt = prompt
	b.input.SetValue("")
	b.input.Focus()
	b.err, b.errWhy = "", false
}

func (b *Board) closeInput() {
	b.mode = modeMain
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
	switch b.mode {
	case modeRule, modeFree, modeGuess, modeHint:
		return b.updateInput(msg), nil
	case modeLibrary:
		return b.updateLibrary(msg), nil
	case modeBuilder:
		return b.updateBuilder(msg), nil
	case modeNotes:
		switch {
		case key.Matches(msg, b.km.Cancel), key.Matches(msg, b.km.Notes):
			b.mode = modeMain
		case key.Matches(msg, b.km.Up):
			b.scroll = max(0, b.scroll-1)
		case key.Matches(msg, b.km.Down):
			b.scroll++
			b.clampScroll()
		}
		return nil, nil
	}
	b.err, b.errWhy = "", false
	if b.c.Replay {
		if key.Matches(msg, b.km.Notes) {
			b.mode, b.scroll = modeNotes, 0
		}
		return nil, nil
	}
	if a, ok := b.updateChoice(msg); ok {
		return a, nil
	}
	return b.updateMain(msg), nil
}

// updateChoice handles y and n where they answer something: votes, a free
// rule's verdicts, and "none of it fits".
func (b *Board) updateChoice(msg tea.KeyPressMsg) ([]byte, bool) {
	yes, no := key.Matches(msg, b.km.Yes), key.Matches(msg, b.km.No)
	if !yes && !no {
		return nil, false
	}
	switch {
	case b.canVote():
		return wtr.VoteAction(yes), true
	case b.judging():
		return wtr.JudgeAction(yes), true
	case b.laying() && no && b.v.Mode == wtr.Free:
		return wtr.NoFitAction(), true
	}
	return nil, false
}

func (b *Board) updateMain(msg tea.KeyPressMsg) []byte {
	v := b.v
	sel := b.selectable()
	switch {
	case key.Matches(msg, b.km.Notes):
		b.mode, b.scroll = modeNotes, 0
	case key.Matches(msg, b.km.Left), key.Matches(msg, b.km.Up):
		b.cursor = max(0, b.cursor-1)
	case key.Matches(msg, b.km.Right), key.Matches(msg, b.km.Down):
		b.cursor = min(max(0, len(sel)-1), b.cursor+1)
	case key.Matches(msg, b.km.Pick):
		if i, err := strconv.Atoi(msg.String()); err == nil && i >= 1 && i <= len(sel) {
			b.cursor = i - 1
		}
	case key.Matches(msg, b.km.Choose):
		switch {
		case b.canPlay() && b.cursor < len(v.Hand):
			return wtr.PlayAction(v.Hand[b.cursor].ID)
		case b.laying() && b.cursor < len(v.Revealed):
			return wtr.LayAction(v.Revealed[b.cursor].ID)
		case b.isGM() && v.Phase == wtr.HintGive && v.Mode == wtr.Machine:
			return wtr.AutoHintAction()
		case b.isGM() && v.Phase == wtr.Setup:
			b.open(modeRule, "rule › ")
		default:
			b.refuse()
		}
	case key.Matches(msg, b.km.Reveal):
		if b.canPlay() {
			return wtr.RevealAction()
		}
		b.refuse()
	case key.Matches(msg, b.km.Guess):
		if b.canGuess() {
			b.open(modeGuess, "guess › ")
			return nil
		}
		b.err, b.errWhy = "You may guess right after a card of yours fits, or after showing a hand where none fits.", false
	case key.Matches(msg, b.km.Pass):
		if b.canGuess() {
			return wtr.NoGuessAction()
		}
	case key.Matches(msg, b.km.Propose):
		if b.seated() && v.CanPropose() {
			return wtr.ProposeHintsAction()
		}
		b.err, b.errWhy = "Hints can be proposed between turns, once per player each round.", false
	case key.Matches(msg, b.km.Announce):
		if b.seated() && v.CanAnnounce() {
			return wtr.AnnounceAction()
		}
	case key.Matches(msg, b.km.TypeHint):
		if b.isGM() && v.Phase == wtr.HintGive {
			b.open(modeHint, "hint › ")
		}
	case key.Matches(msg, b.km.Write):
		if b.isGM() && v.Phase == wtr.Setup {
			b.open(modeRule, "rule › ")
		}
	case key.Matches(msg, b.km.Build):
		switch {
		case b.isGM() && v.Phase == wtr.Setup:
			b.openBuilder(false)
		case b.canGuess() && v.Mode == wtr.Machine:
			b.openBuilder(true)
		}
	case key.Matches(msg, b.km.Free):
		if b.isGM() && v.Phase == wtr.Setup {
			b.open(modeFree, "free rule › ")
		}
	case key.Matches(msg, b.km.Library):
		if b.isGM() && v.Phase == wtr.Setup {
			b.mode, b.err, b.errWhy = modeLibrary, "", false
		}
	case key.Matches(msg, b.km.Draw):
		if b.isGM() && v.Phase == wtr.Setup {
			return wtr.DrawAction(0)
		}
	case key.Matches(msg, b.km.CallOff):
		if b.isGM() && v.Mode == wtr.Free && v.Phase != wtr.Setup {
			if b.confirm {
				b.confirm = false
				return wtr.CallOffAction()
			}
			b.confirm = true
		}
	}
	return nil
}

// openBuilder opens the builder for a guess or for the round's rule,
// keeping the clauses built so far for the same purpose.
func (b *Board) openBuilder(guess bool) {
	if len(b.bld.rows()) == 0 || b.bldGuess != guess {
		b.bld = newBuilder(b.km.Builder)
	}
	b.bldGuess = guess
	b.input.Blur()
	b.mode, b.err, b.errWhy = modeBuilder, "", false
}

// builderTyping reports whether the entry open is a machine rule or guess,
// which the builder can make too (tab switches between them).
func (b *Board) builderTyping() bool {
	return b.mode == modeRule || b.mode == modeGuess && b.v.Mode == wtr.Machine
}

// typedReads reports whether the rule or guess typed so far reads as a
// rule of the language (false while nothing is typed).
func (b *Board) typedReads() bool {
	text := strings.TrimSpace(b.input.Value())
	switch {
	case text == "":
		return false
	case b.mode == modeRule:
		_, err := b.check(text)
		return err == nil
	}
	_, err := wtr.ParseGuess(text)
	return err == nil
}

func (b *Board) updateInput(msg tea.KeyPressMsg) []byte {
	switch {
	case key.Matches(msg, b.km.Cancel):
		b.closeInput()
		b.err, b.errWhy = "", false
		return nil
	case b.builderTyping() && key.Matches(msg, b.km.ToBuilder):
		b.openBuilder(b.mode == modeGuess)
		return nil
	case key.Matches(msg, b.km.Submit):
		text := strings.TrimSpace(b.input.Value())
		if text == "" {
			b.err, b.errWhy = "Type something first, or esc to go back.", false
			return nil
		}
		var a []byte
		switch b.mode {
		case modeRule:
			if _, err := b.check(text); err != nil {
				b.err, b.errWhy = err.Error(), false
				return nil
			}
			a = wtr.RuleAction(text)
		case modeFree:
			a = wtr.FreeAction(text)
		case modeGuess:
			if b.v.Mode == wtr.Machine {
				if _, err := wtr.ParseGuess(text); err != nil {
					b.err, b.errWhy = err.Error(), false
					return nil
				}
			}
			a = wtr.GuessAction(text)
		case modeHint:
			a = wtr.HintAction(text)
		}
		b.closeInput()
		b.err, b.errWhy = "", false
		return a
	}
	if b.input.Update(msg) {
		b.err, b.errWhy = "", false
	}
	return nil
}

func (b *Board) updateLibrary(msg tea.KeyPressMsg) []byte {
	switch {
	case key.Matches(msg, b.km.Cancel), key.Matches(msg, b.km.Library):
		b.mode = modeMain
	case key.Matches(msg, b.km.Up):
		b.libCursor = max(0, b.libCursor-1)
	case key.Matches(msg, b.km.Down):
		b.libCursor = min(len(b.lib)-1, b.libCursor+1)
	case key.Matches(msg, b.km.Choose):
		b.mode = modeMain
		return wtr.LibraryAction(b.libCursor)
	case key.Matches(msg, b.km.Draw):
		b.mode = modeMain
		return wtr.DrawAction(0)
	}
	return nil
}

// refuse shows why enter or r did nothing.
func (b *Board) refuse() { b.err, b.errWhy = b.whyNot(), true }

// whyNot explains why enter or r did nothing.
func (b *Board) whyNot() string {
	v := b.v
	switch {
	case !b.seated():
		return "You are watching; only players move."
	case v.Phase == wtr.Finished:
		return "The game is over."
	case b.isGM():
		return "You are the game master: the others play; you judge and may give hints."
	case v.Phase == wtr.GuessOffer && v.Viewer.IsSeat(v.ToMove):
		return "Your card fitted: guess the rule (g) or end your turn (p)."
	case v.Phase != wtr.Turn:
		return "Wait a moment: " + phaseWait(v.Phase) + "."
	}
	return "It is " + b.name(v.ToMove) + "'s turn."
}

func phaseWait(p wtr.Phase) string {
	switch p {
	case wtr.Setup:
		return "the game master is choosing a rule"
	case wtr.JudgePlay, wtr.JudgeGuess, wtr.JudgeReveal:
		return "the game master is judging"
	case wtr.HintVote:
		return "the table is voting on hints"
	case wtr.HintCheck, wtr.HintGive:
		return "a hint is on its way"
	}
	return p.String()
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

// ShortHelp implements board.Board: the keys that work now.
func (b *Board) ShortHelp() []key.Binding {
	v, km := b.v, b.km
	cancel := widget.Help(km.Cancel, "esc", "cancel")
	switch b.mode {
	case modeRule:
		return []key.Binding{widget.Help(km.Submit, "enter", "set the rule"), b.km.ToBuilder, cancel}
	case modeFree:
		return []key.Binding{widget.Help(km.Submit, "enter", "set the free rule"), cancel}
	case modeGuess:
		if b.v.Mode == wtr.Machine {
			return []key.Binding{widget.Help(km.Submit, "enter", "guess"), b.km.ToBuilder, cancel}
		}
		return []key.Binding{widget.Help(km.Submit, "enter", "guess"), cancel}
	case modeHint:
		return []key.Binding{widget.Help(km.Submit, "enter", "give the hint"), cancel}
	case modeLibrary:
		return []key.Binding{widget.Pair(km.Up, km.Down, "↑/↓", "browse"), widget.Help(km.Choose, "enter", "use rule"), b.km.Draw,
			widget.Help(km.Cancel, "esc", "close")}
	case modeNotes:
		var ks []key.Binding
		if b.notesOverflow {
			ks = append(ks, widget.Pair(km.Up, km.Down, "↑/↓", "scroll"))
		}
		return append(ks, widget.Help(km.Notes, "n/esc", "close"))
	case modeBuilder:
		use := "use rule"
		if b.bldGuess {
			use = "guess it"
		}
		return append(b.bld.help(km), widget.Help(km.Choose, "enter", use), b.km.ToTyping, cancel)
	}
	rounds := widget.Help(km.Notes, "n", "rounds")
	if b.c.Replay || !b.has {
		return []key.Binding{rounds}
	}
	cards := widget.Pair(km.Left, km.Right, "←/→", "card")
	var ks []key.Binding
	switch {
	case b.canVote():
		ks = append(ks, b.km.Yes, b.km.No)
	case b.judging():
		ks = append(ks, widget.Help(b.km.Yes, "y", "fits"), widget.Help(b.km.No, "n", "does not fit"))
	case b.laying():
		if len(v.Revealed) > 1 {
			ks = append(ks, cards)
		}
		ks = append(ks, widget.Help(km.Choose, "enter", "lay it"))
		if v.Mode == wtr.Free {
			ks = append(ks, widget.Help(b.km.No, "n", "none fits"))
		}
	case b.isGM() && v.Phase == wtr.Setup:
		ks = append(ks, b.km.Write, b.km.Build, b.km.Library, b.km.Draw, b.km.Free)
	case b.isGM() && v.Phase == wtr.HintGive:
		if v.Mode == wtr.Machine {
			ks = append(ks, widget.Help(km.Choose, "enter", "graded hint"))
		}
		ks = append(ks, b.km.TypeHint)
	case b.canPlay():
		if len(v.Hand) > 1 {
			ks = append(ks, cards)
		}
		ks = append(ks, widget.Help(km.Choose, "enter", "play"), b.km.Reveal)
	case b.canGuess():
		ks = append(ks, widget.Help(km.Guess, "g", "guess"))
		if v.Mode == wtr.Machine {
			ks = append(ks, b.km.BuildGuess)
		}
		ks = append(ks, widget.Help(km.Pass, "p", "no guess"))
	}
	if b.seated() && v.CanPropose() {
		ks = append(ks, b.km.Propose)
	}
	if b.seated() && v.CanAnnounce() {
		ks = append(ks, b.km.Announce)
	}
	if b.isGM() && v.Mode == wtr.Free && v.Phase != wtr.Setup {
		ks = append(ks, b.km.CallOff)
	}
	if !b.canVote() && !b.judging() && !(b.laying() && v.Mode == wtr.Free) {
		ks = append(ks, rounds)
	}
	return ks
}

// FullHelp implements board.Board: the key bar's keys and the few more
// that work now.
func (b *Board) FullHelp() [][]key.Binding {
	var more []key.Binding
	if b.mode == modeMain && !b.c.Replay && b.has && (b.canPlay() || b.laying()) {
		if n := len(b.selectable()); n > 1 {
			more = append(more, widget.Help(b.km.Pick, fmt.Sprintf("1-%d", min(9, n)), "that card"))
		}
	}
	return [][]key.Binding{b.ShortHelp(), more}
}

// fit cuts a line to w cells.
func (b *Board) fit(s string, w int) string {
	if b.width(s) <= w {
		return s
	}
	return widget.Truncate(s, w, "…")
}

// width is widget.Width(s), remembered.
func (b *Board) width(s string) int { return b.widths.Of(s) }
