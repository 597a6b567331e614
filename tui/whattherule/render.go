package whattherule

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	wtr "github.com/codebreakers/codebreakers/engine/whattherule"
	"github.com/codebreakers/codebreakers/engine/words"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// cellW is the width of one card on screen plus its gap: "3▲b ".
const cellW = 4

// glyph draws a card's shape: filled or hollow.
func glyph(c wtr.Card) string {
	g := map[string][2]string{"circle": {"○", "●"}, "triangle": {"△", "▲"}, "square": {"□", "■"}}[c.Shape]
	if c.Filled {
		return g[1]
	}
	return g[0]
}

// cardText draws a card in three cells: count, shape (solid when filled)
// and the card colour's letter, styled like the arcade's black and white
// tiles so the letter and the look agree even without colour.
func (b *Board) cardText(c wtr.Card) string {
	face := c
	face.ID = 0 // cards with the same face look the same
	if s, ok := b.cards.Get(face); ok {
		return s // drawing is the slow part of a redraw; faces repeat
	}
	key := strconv.Itoa(c.Count) + glyph(c) + string(rune(c.Color[0]))
	s := b.st.CardWhite.Render(key)
	if c.Color == "black" {
		s = b.st.CardBlack.Render(key)
	}
	return b.cards.Put(face, s)
}

// View implements board.Board.
func (b *Board) View() string {
	w, h := max(20, b.c.Width), max(4, b.c.Height)
	if !b.has {
		return "\n  Shuffling the cards…"
	}
	var lines []string
	switch b.mode {
	case modeNotes:
		lines = b.notesView(w, h)
	case modeLibrary:
		lines = b.libraryView(w, h)
	case modeBuilder:
		lines = b.builderView(w, h)
	default:
		lines = b.tableView(w, h)
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = b.fit(l, w)
	}
	return strings.Join(lines, "\n")
}

// tableView is the main screen: header, seats, rule card (game master),
// the line, the hand or an entry, the prompt, and the log in what is left.
func (b *Board) tableView(w, h int) []string {
	top := append([]string{b.header()}, b.lastRound(w)...)
	top = append(top, b.seatLines(w)...)
	top = append(top, b.ruleCard(w)...)
	var bottom []string
	switch b.mode {
	case modeRule, modeFree, modeGuess, modeHint:
		bottom = b.entryLines(w)
	default:
		if b.v.Viewer.Kind == engine.ViewerOmniscient && b.v.Hands != nil {
			bottom = b.allHands(w, max(2, h/2))
		} else {
			bottom = b.handLines(w, h)
		}
		bottom = append(bottom, b.promptLines(w)...)
	}
	if b.err != "" {
		bottom = append(bottom, b.errorLines(b.err, w)...)
	}
	room := h - len(top) - len(bottom)
	lineRows := b.lineRows(w, max(1, min(room, 2+b.maxBelow())))
	room -= len(lineRows)
	if b.builderTyping() && !b.typedReads() {
		// Nothing typed yet, or nothing that reads: the rule language in
		// brief, in the room the log would have had.
		ref := b.referenceLines(w, room)
		bottom = append(bottom, ref...)
		room -= len(ref)
	}
	var log []string
	if room >= 2 {
		log = b.logLines(w-2, room)
	}
	out := append(top, lineRows...)
	out = append(out, bottom...)
	return append(out, log...)
}

// lastRound sums up the round just ended while the next one starts: until
// the viewer's own first turn in it (for a player), or its third card (for
// the game master and onlookers). When bots play fast, a whole round can
// pass between two of a person's turns; this says what happened in it.
func (b *Board) lastRound(w int) []string {
	v := b.v
	if v.Phase == wtr.Finished || len(v.Rounds) == 0 {
		return nil
	}
	if s, ok := b.seatShown(); ok && s != v.GM {
		if int(s) < len(v.Seats) && v.Seats[s].Turns > 0 {
			return nil
		}
	} else if v.CardsPlayed >= 3 {
		return nil
	}
	r := v.Rounds[len(v.Rounds)-1]
	var how string
	switch r.Reason {
	case wtr.EndGuessed:
		how = b.name(r.Guesser) + " named the rule"
	case wtr.EndHandEmpty:
		how = "a hand ran out of cards"
	case wtr.EndDeckEmpty:
		how = "the draw pile ran out"
	case wtr.EndCalledOff:
		how = "it was called off"
	default:
		how = string(r.Reason)
	}
	rule := r.English
	if rule == "" {
		rule = r.Rule
	}
	text := fmt.Sprintf("Round %d ended after %s: %s. The rule was: %s", r.Round, words.Count(r.CardsPlayed, "card", "cards"), how,
		textsafe.Cut(rule, 200))
	if r.Points != nil {
		var ps []string
		for s, p := range r.Points {
			ps = append(ps, fmt.Sprintf("%s %+d", b.name(engine.Seat(s)), p))
		}
		text += " Points: " + strings.Join(ps, ", ") + "."
	}
	lines := widget.WrapIndent(text, w, " ", "   ")
	if len(lines) > 3 {
		lines = append(lines[:2:2], widget.Truncate(lines[2], w-1, "")+"…")
	}
	for i, l := range lines {
		lines[i] = b.paint.Dim.Render(l)
	}
	return lines
}

// seatShown is the viewer's seat when the board shows a player's game (not
// a replay or an onlooker).
func (b *Board) seatShown() (engine.Seat, bool) {
	if b.c.Replay || b.v.Viewer.Kind != engine.ViewerSeat {
		return 0, false
	}
	return b.v.Viewer.Seat, true
}

func (b *Board) header() string {
	v := b.v
	if v.Phase == wtr.Finished {
		return " " + b.paint.Heading.Render("What the Rule?!") + "  " + b.paint.Strong.Render("The game is over.")
	}
	parts := []string{fmt.Sprintf("Round %d of %d", v.Round, v.TotalRounds), "game master " + b.name(v.GM)}
	switch v.Mode {
	case wtr.Machine:
		m := "machine rule"
		if v.Library {
			m += " (library)"
		}
		parts = append(parts, m)
	case wtr.Free:
		parts = append(parts, "free rule")
	}
	parts = append(parts, fmt.Sprintf("pile %d", v.DrawPile))
	if v.HintsOn {
		parts = append(parts, "hints on")
	}
	if !v.Points {
		parts = append(parts, "no points")
	}
	return " " + b.paint.Heading.Render(parts[0]) + b.paint.Dim.Render(" · "+strings.Join(parts[1:], " · "))
}

// seatLines list every seat: ★ game master, ▸ to move, score and cards held.
func (b *Board) seatLines(w int) []string {
	v := b.v
	var items []string
	for i, sv := range v.Seats {
		s := engine.Seat(i)
		mark := " "
		switch {
		case s == v.GM && v.Phase != wtr.Finished:
			mark = "★"
		case s == v.ToMove && (v.Phase == wtr.Turn || v.Phase == wtr.GuessOffer):
			mark = "▸"
		}
		name := b.name(s)
		if v.Viewer.IsSeat(s) && !b.c.Replay {
			name = "You"
		} else if b.c.IsBot(s) || sv.Bot {
			name += "(bot)"
		}
		item := mark + name
		if v.Points {
			item += fmt.Sprintf(" %dpt", sv.Score)
		}
		if s != v.GM || v.Phase == wtr.Finished {
			item += fmt.Sprintf(" %d▯", sv.HandSize)
		}
		if sv.Voted && (v.Phase == wtr.HintVote || v.Phase == wtr.HintCheck) {
			item += " ✓"
		}
		if v.Viewer.IsSeat(s) && !b.c.Replay {
			item = b.paint.Strong.Render(item)
		}
		items = append(items, item)
	}
	var lines []string
	cur := ""
	for _, it := range items {
		if cur != "" && b.width(cur)+2+b.width(it) > w-1 {
			lines = append(lines, cur)
			cur = ""
		}
		if cur == "" {
			cur = " " + it
		} else {
			cur += "  " + it
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	if len(lines) > 3 { // ten players fit in three lines from 60 columns up
		lines = lines[:3]
	}
	return lines
}

// ruleCard is the game master's secret, on their screen only. The engine
// puts it in the View for the game master (and replays) and nobody else.
func (b *Board) ruleCard(w int) []string {
	r := b.v.Rule
	if r == nil || b.v.Phase == wtr.Finished {
		return nil
	}
	text := r.English
	if text == "" {
		text = r.Text
	}
	who := "Your rule: "
	if !b.v.Viewer.IsSeat(b.v.GM) || b.c.Replay {
		who = "The rule: "
	}
	body := wrap(textsafe.Cut(text, 300), w-len(who)-2, "")
	if len(body) > 2 {
		body = []string{body[0], b.fit(strings.Join(body[1:], " "), w-len(who)-2)}
	}
	lines := []string{" " + b.paint.Good.Render(who) + body[0]}
	for _, l := range body[1:] {
		lines = append(lines, " "+strings.Repeat(" ", len(who))+l)
	}
	if r.Mode == wtr.Machine {
		note := fmt.Sprintf("   %d of 72 faces fit next · %s", len(b.v.Fits), textsafe.Cut(r.Text, 200))
		lines = append(lines, b.paint.Dim.Render(note))
	}
	return lines
}

func (b *Board) maxBelow() int {
	m := 0
	for _, col := range b.v.Below {
		m = max(m, len(col))
	}
	return m
}

// lineRows draw the valid line left to right with the cards that did not
// fit stacked below the spot that was free when they were played. The spot
// the next card will take is marked ·. Narrow screens show the newest spots.
func (b *Board) lineRows(w, rows int) []string {
	v := b.v
	label := " Line "
	cols := len(v.Line) + 1
	fitCols := max(1, (w-len(label)-2)/cellW)
	first := max(0, cols-fitCols)
	lead := "  "
	if first > 0 {
		lead = b.paint.Dim.Render("… ")
	}
	row := func(get func(col int) string) string {
		var sb strings.Builder
		for c := first; c < cols; c++ {
			sb.WriteString(get(c))
		}
		return sb.String()
	}
	top := row(func(c int) string {
		if c < len(v.Line) {
			return b.cardText(v.Line[c]) + " "
		}
		if v.PendingCard != nil {
			return b.paint.Strong.Render(fmt.Sprintf("%d%s%c", v.PendingCard.Count, glyph(*v.PendingCard), v.PendingCard.Color[0])) + "?"
		}
		return b.paint.Dim.Render(" · ") + " "
	})
	out := []string{b.paint.Heading.Render(label) + lead + top}
	pad := strings.Repeat(" ", len(label)) + "  "
	deep := b.maxBelow()
	show := min(deep, rows-1)
	for r := 0; r < show; r++ {
		last := r == show-1 && deep > show
		out = append(out, pad+row(func(c int) string {
			if c >= len(v.Below) || r >= len(v.Below[c]) {
				return strings.Repeat(" ", cellW)
			}
			if last {
				return b.paint.Dim.Render(fmt.Sprintf("+%-2d", len(v.Below[c])-r)) + " "
			}
			return b.cardText(v.Below[c][r]) + " "
		}))
	}
	return out
}

// allHands lists every hand, for a view that sees them all (a replay, or a
// finished table), in at most room lines.
func (b *Board) allHands(w, room int) []string {
	out := []string{" " + b.paint.Heading.Render("Hands") + b.paint.Dim.Render("  every player's cards, all shown")}
	nameW := 0
	for i := range b.v.Seats {
		nameW = max(nameW, b.width(b.name(engine.Seat(i))))
	}
	for i, hand := range b.v.Hands {
		s := engine.Seat(i)
		if s == b.v.GM && len(hand) == 0 {
			continue
		}
		name := b.name(s)
		row := b.paint.Dim.Render("no cards")
		if len(hand) > 0 {
			cards := make([]string, len(hand))
			for k, c := range hand {
				cards[k] = b.cardText(c)
			}
			row = strings.Join(cards, " ")
		}
		out = append(out, widget.WrapIndent(row, w, "   "+name+strings.Repeat(" ", nameW-b.width(name))+"  ", strings.Repeat(" ", nameW+5))...)
	}
	if len(out) > room {
		out = append(out[:room-1], "   "+b.paint.Dim.Render(fmt.Sprintf("… and %s more", words.Count(len(out)-room+1, "line", "lines"))))
	}
	return out
}

// handLines show the viewer's hand (or, for a game master laying a card,
// the hand on show) with the selected card marked: framed
// cards where the board has room (useFramed), else one line of codes.
func (b *Board) handLines(w, h int) []string {
	v := b.v
	row := b.cardRow
	if useFramed(w, h, len(v.Seats)) {
		row = b.framedRow
	}
	cards, label := v.Hand, " Your hand "
	switch {
	case b.laying():
		cards, label = v.Revealed, " Shown hand "
	case len(v.Revealed) > 0:
		return row(" "+b.paint.Heading.Render(b.name(v.ToMove)+" shows "), v.Revealed, -1, w)
	case !b.seated() || b.isGM() && v.Phase != wtr.Finished || v.Phase == wtr.Finished && len(cards) == 0:
		return nil
	}
	if len(cards) == 0 {
		return []string{b.paint.Heading.Render(label) + b.paint.Dim.Render("(no cards)")}
	}
	sel := -1
	if b.canPlay() || b.laying() {
		sel = b.cursor
	}
	return row(b.paint.Heading.Render(label), cards, sel, w)
}

// perRow is how many cards of cellW cells fit beside a label in w cells:
// a hand grows past the ten dealt (every card that does not fit draws
// one), and a row wider than the board was cut at its edge, hiding the
// last cards or the colour of the one chosen.
func perRow(w, labelW, cellW int) int { return max(1, (w-labelW)/cellW) }

// useFramed is the rule for drawing a hand as framed cards (three lines)
// rather than as one line of codes. It looks only at the board's size and
// its seats, which stay the same through a game, so the hand keeps its
// form from turn to turn. The board wants, besides the framed hand's three
// lines, the header, a round's summary (two), the seats (four to a line),
// the line with two cards below it, the prompt (two) and four lines of
// log; and a width that holds the ten cards dealt beside the label. So at
// 80×24 every table frames its hands, at 60 columns or 15 lines none does.
func useFramed(w, h, seats int) bool {
	seatRows := min(3, (seats+3)/4)
	return w >= framedMinWidth && h >= 1+2+seatRows+3+3+2+4
}

// framedMinWidth is the width useFramed wants: the label and the ten cards
// dealt at the start of a round, each framedCellW wide, and a spare cell.
const framedMinWidth = len(" Shown hand ") + wtr.HandStart*framedCellW + 1

// framedCellW is the width of one framed card: a border each side of the
// three cells cardText draws.
const framedCellW = 5

// framedRow draws cards as framed cards, label before the middle line (the
// faces, where a reader looks for the label's cards), the selected card
// in a heavy frame, so the selection reads without colour too.
//
//	           ╭───╮┏━━━┓╭───╮
//	Your hand  │1□w│┃4●w┃│3▲b│
//	           ╰───╯┗━━━┛╰───╯
func (b *Board) framedRow(label string, cards []wtr.Card, sel int, w int) []string {
	pad := strings.Repeat(" ", b.width(label))
	var out []string
	for n := perRow(w, b.width(label), framedCellW); len(cards) > n; cards, sel = cards[n:], sel-n {
		out = append(out, b.framedRow1(label, cards[:n], sel)...)
		label = pad
	}
	return append(out, b.framedRow1(label, cards, sel)...)
}

// framedRow1 is one row of framedRow, as wide as its cards.
func (b *Board) framedRow1(label string, cards []wtr.Card, sel int) []string {
	var top, mid, bottom strings.Builder
	for i, c := range cards {
		face := b.cardText(c)
		if i == sel {
			top.WriteString(b.paint.Selected.Render("┏━━━┓"))
			mid.WriteString(b.paint.Selected.Render("┃") + face + b.paint.Selected.Render("┃"))
			bottom.WriteString(b.paint.Selected.Render("┗━━━┛"))
			continue
		}
		top.WriteString("╭───╮")
		mid.WriteString("│" + face + "│")
		bottom.WriteString("╰───╯")
	}
	pad := strings.Repeat(" ", b.width(label))
	return []string{pad + top.String(), label + mid.String(), pad + bottom.String()}
}

// cardRow draws cards on one line after label, the selected one in
// brackets: the compact form of framedRow.
func (b *Board) cardRow(label string, cards []wtr.Card, sel int, w int) []string {
	parts := make([]string, len(cards))
	for i, c := range cards {
		t := b.cardText(c)
		if i == sel {
			t = b.paint.Selected.Render("[") + t + b.paint.Selected.Render("]")
		} else {
			t = " " + t + " "
		}
		parts[i] = t
	}
	// A card is its three cells and a bracket or space each side: five
	// cells, the last of a row's last card dropped when it is a space.
	var out []string
	row, inRow := label, 0
	for i, p := range parts {
		last := 5
		if i != sel {
			last = 4
		}
		if inRow > 0 && b.width(row)+last > w {
			out = append(out, strings.TrimRight(row, " "))
			row, inRow = strings.Repeat(" ", b.width(label)), 0
		}
		row += p
		inRow++
	}
	return append(out, strings.TrimRight(row, " "))
}

// promptLines say what the table waits for and what the viewer can do.
func (b *Board) promptLines(w int) []string {
	v := b.v
	you := b.seated()
	var s string
	switch {
	case v.Phase == wtr.Finished:
		if v.Result != nil {
			s = b.paint.Strong.Render(textsafe.Cut(v.Result.Summary, 200))
		}
	case b.canVote() && v.Phase == wtr.HintVote:
		s = b.paint.Strong.Render(b.name(v.Proposer)+" proposes hints.") + " A right guess then earns 2, not 5. Agree? (y/n)"
	case b.canVote():
		s = b.paint.Strong.Render("A hint is announced.") + " Let it come (y) or object (n)?"
	case v.Phase == wtr.HintVote:
		s = "The table is voting on hints; every player must agree."
	case v.Phase == wtr.HintCheck:
		s = "A hint is announced; anyone may object."
	case b.isGM() && v.Phase == wtr.Setup:
		s = b.paint.Strong.Render("You are the game master.") + " Write a rule (w), build one (u), pick from the library (b), draw one (d) or write a free rule (f)."
	case v.Phase == wtr.Setup:
		s = "Waiting for " + b.name(v.GM) + " to choose a rule."
	case b.judging() && v.Phase == wtr.JudgePlay && v.PendingCard != nil:
		s = b.paint.Strong.Render("Judge: does "+v.PendingCard.String()+" fit?") + " (y/n)"
	case b.judging():
		s = b.paint.Strong.Render("Judge the guess:") + " \"" + textsafe.Cut(v.PendingGuess, 200) + "\" (y right / n wrong)"
	case b.laying():
		s = b.paint.Strong.Render("Some of the shown hand fits:") + " choose one to lay (←/→, enter)."
		if v.Mode == wtr.Free {
			s = b.paint.Strong.Render("Judge the shown hand:") + " lay a card that fits (enter) or say none fits (n)."
		}
	case v.Phase == wtr.JudgeGuess:
		s = b.name(v.ToMove) + " guesses \"" + textsafe.Cut(v.PendingGuess, 200) + "\"; waiting for the verdict."
	case v.Phase == wtr.JudgePlay, v.Phase == wtr.JudgeReveal:
		s = "Waiting for " + b.name(v.GM) + " to judge."
	case b.isGM() && v.Phase == wtr.HintGive:
		s = b.paint.Strong.Render("Give your hint:") + " type it (t)"
		if v.Mode == wtr.Machine {
			s += " or let the machine write the next graded hint (enter)"
		}
		s += "."
	case v.Phase == wtr.HintGive:
		s = "Waiting for " + b.name(v.GM) + "'s hint."
	case b.canGuess():
		s = b.paint.Good.Render("It fits!") + " Guess the rule (g), or end your turn (p)."
		if v.Mode == wtr.Machine {
			s = b.paint.Good.Render("It fits!") + " Guess the rule: type it (g) or build it (u); or end your turn (p)."
		}
	case v.Phase == wtr.GuessOffer:
		s = b.name(v.ToMove) + " may guess the rule."
	case b.canPlay():
		s = b.paint.Strong.Render("▸ Your turn:") + " play a card (←/→, enter) or reveal a hand with no fit (r)."
	case b.isGM():
		s = "Your rule is in play; " + b.name(v.ToMove) + " is to move."
		if v.HintDue {
			s += " You may announce a hint (a)."
		}
	case you:
		s = "Waiting for " + b.paint.Strong.Render(b.name(v.ToMove)) + "."
	default:
		s = "You are watching. " + b.name(v.ToMove) + " is to move."
	}
	if b.confirm {
		s = b.paint.Error.Render("Call the round off? It scores nothing. Press x again to confirm.")
	}
	if t := v.TimerMillis; t > 0 && v.Phase != wtr.Finished && s != "" {
		s += b.paint.Dim.Render(" ⏱ " + duration(t))
	}
	var out []string
	if s != "" {
		out = wrap(s, w-1, " ")
		if len(out) > 3 {
			out = out[:3]
		}
	}
	if n := len(v.Hints); n > 0 && v.Phase != wtr.Finished {
		out = append(out, widget.WrapIndent(b.paint.Dim.Render(fmt.Sprintf("Hint %d: ", n))+textsafe.Cut(v.Hints[n-1], 300), w, " ", "   ")...)
	}
	return out
}

func duration(ms int) string {
	if ms%60000 == 0 {
		return fmt.Sprintf("%dm", ms/60000)
	}
	return fmt.Sprintf("%ds", ms/1000)
}

// errorLines are a refusal or a reading error, wrapped by words to w cells:
// never cut off, since they say what to do.
func (b *Board) errorLines(msg string, w int) []string {
	lines := widget.WrapIndent("! "+textsafe.Cut(msg, 300), w, " ", "   ")
	for i, l := range lines {
		lines[i] = b.paint.Error.Render(l)
	}
	return lines
}

// entryLines are a text entry and what the board can say about it as it is
// typed: for a machine rule, whether it reads, its English and which faces
// it lets start the line; for a guess, whether it reads.
func (b *Board) entryLines(w int) []string {
	var head, tip string
	switch b.mode {
	case modeRule:
		head, tip = "Write your rule", "in the rule language (tab: the builder)"
	case modeFree:
		head, tip = "Write a free rule", "in plain words; you will judge every card and guess yourself"
	case modeGuess:
		head, tip = "Guess the rule", "in the rule language (tab: the builder)"
		if b.v.Mode == wtr.Free {
			tip = "in plain words; the game master judges it"
		}
	case modeHint:
		head, tip = "Your hint", "say something true that helps"
	}
	input := b.input // drawn in the width there is, without changing the field
	input.Width = max(10, min(60, w-12))
	lines := []string{
		" " + b.paint.Heading.Render(head) + "  " + b.paint.Dim.Render(tip),
		" " + input.View(),
	}
	text := strings.TrimSpace(b.input.Value())
	switch {
	case text == "":
	case b.mode == modeRule:
		rule, err := b.check(text)
		if err != nil {
			return append(lines, b.errorLines(err.Error(), w)...)
		}
		eng := wrap(b.paint.Good.Render("✓ ")+textsafe.Cut(rule.English(), 300), w-1, " ")
		lines = append(lines, eng[:min(2, len(eng))]...)
		return append(lines, b.previewLines(rule.Accepts)...)
	case b.mode == modeGuess && b.v.Mode == wtr.Machine:
		g, err := wtr.ParseGuess(text)
		if err != nil {
			return append(lines, b.errorLines(err.Error(), w)...)
		}
		return append(lines, wrap(b.paint.Dim.Render("reads as: ")+textsafe.Cut(g.English(), 300), w-1, " ")...)
	}
	return lines
}
