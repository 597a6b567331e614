package coding

import (
	"fmt"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
	cg "github.com/codebreakers/codebreakers/engine/coding"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/engine/words"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// wideLayout is the width from which the log sits beside the action panel.
const wideLayout = 72

// logBeside is the fewest cells the log keeps beside the framed composer;
// with less it goes under it.
const logBeside = 24

// View implements board.Board.
func (b *Board) View() string {
	w, h := max(20, b.c.Width), max(4, b.c.Height)
	if !b.has {
		return "\n  Dealing the code cards…"
	}
	if b.notes {
		details := b.detailsView(w)
		return b.fit(details, w, h, min(b.scroll, max(0, len(details)-h)))
	}
	status := b.statusLines(w)
	panel := b.panelLines(w)
	table := b.tableLines(w)
	room := h - len(status) - len(table) - len(panel) - 1
	seats := b.seatLines(w, max(len(b.v.Seats), room))
	out := append(status, seats...)
	out = append(out, table...)
	out = append(out, "")
	out = append(out, b.lowerBlock(panel, w, max(len(panel), h-len(out)))...)
	return b.fit(out, w, h, 0)
}

// clampScroll keeps the details' scroll within them (SetSize and the
// scroll keys call it, so View changes nothing).
func (b *Board) clampScroll() {
	h := max(4, b.c.Height)
	b.scroll = min(b.scroll, max(0, len(b.detailsView(max(20, b.c.Width)))-h))
}

// fit cuts lines to h rows from start and every row to w cells.
func (b *Board) fit(lines []string, w, h, start int) string {
	start = min(start, len(lines))
	lines = lines[start:]
	if len(lines) > h {
		lines = lines[:h]
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if b.width(l) > w {
			l = widget.Truncate(l, w, "…")
		}
		out[i] = l
	}
	return strings.Join(out, "\n")
}

// statusLines: where the game stands, what the viewer may do or who they
// wait for, and the latest refusal.
func (b *Board) statusLines(w int) []string {
	v := b.v
	var head string
	system := "Speed Cracking"
	if v.System == cg.SystemCounter {
		system = "Counter Cracking"
	}
	switch v.Phase {
	case cg.Setup:
		head = "Setup · each player orders their two digits"
	case cg.Rounds:
		head = fmt.Sprintf("Round %d of %d · first player %s · then %s", v.Round, cg.RoundCount, b.name(v.First), system)
	case cg.Race, cg.RevealX:
		head = "Race · " + b.moreText()
	case cg.Answer:
		head = fmt.Sprintf("Speed Cracking · %s tapped (claim %d) · %s", b.name(v.Claimant), v.Claim, b.clockText())
	case cg.Counter, cg.RevealOne:
		head = "Counter Cracking · the last hidden code wins"
	case cg.Finished:
		head = "Game over"
	}
	lines := []string{" " + b.paint.Heading.Render(head)}
	if p := b.prompt(); p != "" {
		lines = append(lines, wrap(p, w, 2)...)
	}
	if b.err != "" {
		lines = append(lines, wrap(b.paint.Error.Render("! "+textsafe.Cut(b.err, 300)), w, 3)...)
	}
	return lines
}

// wrap word-wraps text into at most n lines of w cells, the first
// indented by one space and the others by three.
func wrap(text string, w, n int) []string {
	ls := widget.WrapIndent(text, max(10, w), " ", "   ")
	if len(ls) > n {
		ls = ls[:n]
		if widget.Width(ls[n-1]) >= w {
			ls[n-1] = widget.Truncate(ls[n-1], w-1, "")
		}
		ls[n-1] += "…"
	}
	return ls
}

// clockText is the answer window: time left when the session knows it.
func (b *Board) clockText() string {
	if b.timeKnown && b.timeClaim == b.v.Claim {
		return fmt.Sprintf("%d s left", int(b.timeLeft.Round(1e9).Seconds()))
	}
	return fmt.Sprintf("%d s to answer", b.v.AnswerMillis/1000)
}

// moreText says what a unanimous vote would bring.
func (b *Board) moreText() string {
	switch b.v.More {
	case cg.MoreDeal:
		return "a vote for data turns up spare cards"
	case cg.MoreRevealX:
		return "a vote for data shows an X card each"
	}
	if b.v.Phase == cg.RevealX {
		return "everyone picks an X card to show"
	}
	return "no more data: someone has to tap"
}

// prompt is the one line that says what to do now, or whom we wait for.
func (b *Board) prompt() string {
	v := b.v
	me, seated := b.seat()
	you := b.paint.Strong.Render("▸ Your move:")
	switch {
	case b.c.Replay:
		return ""
	case v.Phase == cg.Finished:
		if v.Result != nil {
			return b.paint.Strong.Render(textsafe.Cut(v.Result.Summary, 200))
		}
		return b.paint.Strong.Render("The game is over.")
	case seated && v.Seats[me].Out:
		return "You are out; your code is shown. Watching the rest."
	}
	waiting := func(what string) string {
		return "Waiting for " + b.paint.Strong.Render(b.names(v.Active)) + " to " + what + "."
	}
	switch v.Phase {
	case cg.Setup:
		if b.canOrder() {
			return you + " choose which digit comes first, then enter."
		}
		return waiting("set their codes")
	case cg.Rounds:
		if b.active() && len(v.Takeable) == 0 {
			return you + " none of the Data cards fits; send a Hack card."
		}
		if b.active() {
			return you + " take a Data card and send a Hack card."
		}
		return waiting("take a Data card and send a Hack card")
	case cg.Counter:
		if b.active() {
			switch {
			case v.MayStop:
				return you + " right! Hack, decode again (g) or stop (s)."
			case b.canHack():
				return you + " hack (enter) or decode a code (g)."
			}
			return you + " no Hack card can go out: decode a code (g)."
		}
		if v.MayStop {
			return waiting("play on or stop")
		}
		return waiting("hack or decode")
	case cg.RevealOne:
		if b.active() {
			return you + " that decode was wrong: turn one of your cards face up."
		}
		return waiting("turn a card face up")
	case cg.Race:
		if !seated {
			return "You are watching. Anyone still in may tap or vote."
		}
		if b.canVote() {
			return you + " tap (t) to name a code, or vote (v) for more data."
		}
		return you + " tap (t) to name a code."
	case cg.Answer:
		if b.active() {
			return you + " you tapped first: name a player's code."
		}
		return waiting("name a code")
	case cg.RevealX:
		if b.active() {
			return you + " choose the X card to show with everyone's."
		}
		return waiting("choose an X card")
	}
	return ""
}

// lowerBlock puts the log beside the panel in wide windows, under it in
// narrow ones; h lines at most.
func (b *Board) lowerBlock(panel []string, w, h int) []string {
	leftW := 0
	for _, l := range panel {
		leftW = max(leftW, b.width(l))
	}
	capW := w * 62 / 100
	if b.composerFramed() {
		// The framed composer may push the log over, not under, while
		// the log keeps logBeside cells.
		capW = max(capW, w-3-logBeside)
	}
	if w < wideLayout || (b.composerFramed() && leftW > capW) {
		out := panel
		if room := h - len(panel) - 1; room > 0 {
			out = append(out, " "+b.paint.Heading.Render("Log"))
			for _, l := range b.logLines(w-2, room) {
				out = append(out, " "+l)
			}
		}
		return out
	}
	leftW = min(max(leftW, 34), capW)
	logW := w - leftW - 3
	logs := append([]string{b.paint.Heading.Render("Log")}, b.logLines(logW, max(len(panel), h)-1)...)
	rows := max(len(panel), len(logs))
	out := make([]string, rows)
	for i := range rows {
		l, r := "", ""
		if i < len(panel) {
			l = panel[i]
		}
		if i < len(logs) {
			r = logs[i]
		}
		if b.width(l) > leftW {
			l = widget.Truncate(l, leftW, "…")
		}
		out[i] = l + strings.Repeat(" ", leftW-b.width(l)) + " " + b.paint.Dim.Render("│") + " " + r
	}
	return out
}

// logLines are the newest events that fit in h lines of width w.
func (b *Board) logLines(w, h int) []string {
	if h <= 0 || w < 8 {
		return nil
	}
	if lines := b.logs.Tail(b.c.Log, w, h); len(lines) > 0 {
		return lines
	}
	return []string{b.paint.Dim.Render("Nothing has happened yet.")}
}

// tableLines: the Data cards left, or in the race the extra cards.
func (b *Board) tableLines(w int) []string {
	v := b.v
	var items []string
	label := "Data left"
	switch v.Phase {
	case cg.Setup, cg.Rounds, cg.Counter, cg.RevealOne:
		if b.framedTable() {
			if f, ok := b.framedDataLeft(); ok {
				return f
			}
		}
		for k := range cg.DataKinds {
			switch n := v.DataField[k]; {
			case n == 1:
				items = append(items, cg.DataLabel(k))
			case n > 1:
				items = append(items, fmt.Sprintf("%s×%d", cg.DataLabel(k), n))
			}
		}
		if len(items) == 0 {
			items = []string{"none"}
		}
	default:
		label = "Extra cards"
		for _, c := range v.Extras {
			items = append(items, cg.CardName(c))
		}
		if len(items) == 0 {
			items = []string{"none yet"}
		}
		items = append(items, b.paint.Dim.Render(fmt.Sprintf("(%d face down)", v.Leftover)))
	}
	var out []string
	for i, l := range b.pack(items, w-14, "  ") {
		head := strings.Repeat(" ", 13)
		if i == 0 {
			head = " " + b.paint.Heading.Render(fmt.Sprintf("%-11s", label)) + " "
		}
		out = append(out, head+l)
	}
	return out
}

// panelLines is what the viewer can do now (or the face-up Hack line).
func (b *Board) panelLines(w int) []string {
	v := b.v
	panelW := w
	if w >= wideLayout {
		panelW = w * 62 / 100
	}
	switch {
	case b.entry:
		return b.entryLines(panelW)
	case b.c.Replay:
		return b.hackLineLines(false)
	case b.canOrder():
		var rows []string
		for i, c := range b.digitOrders() {
			rows = append(rows, fmt.Sprintf("%d  %s   number %02d", i+1, spaced(c), c.Number()))
		}
		return b.choiceLines("Set your code", rows, b.orderCur)
	case b.canRevealX(), b.canRevealOne():
		var rows []string
		for i, p := range b.revealChoices() {
			rows = append(rows, fmt.Sprintf("%d  %-6s %s", i+1, cg.PosName(p), cg.ValueName(p, v.Code.At(p))))
		}
		head := "Turn one card face up"
		if v.Phase == cg.RevealX {
			head = "Show one X card (all are shown together)"
		}
		return b.choiceLines(head, rows, b.posCur)
	case b.canHack():
		return b.composerLines()
	case v.Phase == cg.Race || v.Phase == cg.Answer || v.Phase == cg.RevealX:
		return b.raceLines()
	case v.Phase == cg.Finished:
		return []string{" " + b.paint.Dim.Render("Press n for every hint given in this game.")}
	}
	return b.hackLineLines(b.active() && (v.Phase == cg.Counter))
}

func (b *Board) choiceLines(head string, rows []string, cur int) []string {
	out := []string{" " + b.paint.Heading.Render(head)}
	for i, r := range rows {
		if i == cur {
			out = append(out, " "+b.paint.Selected.Render("▸ "+r))
		} else {
			out = append(out, "   "+r)
		}
	}
	return out
}

// hackLineLines lists the face-up Hack cards for reading.
func (b *Board) hackLineLines(decodeHint bool) []string {
	v := b.v
	out := []string{" " + b.paint.Heading.Render("Hack line") + b.paint.Dim.Render(fmt.Sprintf("  (%d in the deck)", v.HackDeck))}
	switch {
	case len(v.HackLine) == 0:
		out = append(out, "   No Hack cards are left.")
	case b.framedTable():
		row := b.cardRow(" ", b.hackCards(), -1, nil)
		out = append(out, row[:]...)
	default:
		for i, id := range v.HackLine {
			out = append(out, fmt.Sprintf("   %d %s", i+1, cg.Hack(id).Label()))
		}
	}
	if decodeHint {
		out = append(out, " "+b.paint.Dim.Render("g decodes a player's code."))
	}
	return out
}

// composerLines are the three columns of a hacking turn.
func (b *Board) composerLines() []string {
	if b.framedTable() {
		return b.composerCards()
	}
	v := b.v
	focus := b.focusCol()
	col := func(c int, head string, rows []string, cur int) []string {
		h := head
		if c == focus {
			h = b.paint.Heading.Render(head)
		} else {
			h = b.paint.Dim.Render(head)
		}
		out := []string{h}
		for i, r := range rows {
			switch {
			case i == cur && c == focus:
				out = append(out, b.paint.Selected.Render("▸ "+r))
			case i == cur:
				out = append(out, b.paint.Strong.Render("• "+r))
			default:
				out = append(out, "  "+r)
			}
		}
		return out
	}
	var data []string
	for _, k := range v.Takeable {
		data = append(data, "not "+cg.DataLabel(k))
	}
	if len(data) == 0 {
		data = []string{"none fits"}
	}
	var hacks []string
	for i, id := range v.HackLine {
		hacks = append(hacks, fmt.Sprintf("%d %s", i+1, cg.Hack(id).Label()))
	}
	var to []string
	for _, r := range v.Recipients {
		to = append(to, b.name(r))
	}
	cols := [][]string{
		col(colData, "Data card", data, b.dataCur),
		col(colHack, fmt.Sprintf("Hack card (deck %d)", v.HackDeck), hacks, b.hackCur),
		col(colTo, "To", to, b.toCur),
	}
	widths := make([]int, 3)
	rows := 0
	for i, c := range cols {
		for _, l := range c {
			widths[i] = max(widths[i], b.width(l))
		}
		rows = max(rows, len(c))
	}
	widths[colTo] = min(widths[colTo], 14)
	out := make([]string, rows)
	for r := range rows {
		line := " "
		for i, c := range cols {
			cell := ""
			if r < len(c) {
				cell = c[r]
			}
			if b.width(cell) > widths[i] {
				cell = widget.Truncate(cell, widths[i], "…")
			}
			if i < 2 {
				cell += strings.Repeat(" ", widths[i]-b.width(cell)+2)
			}
			line += cell
		}
		out[r] = line
	}
	return out
}

// raceLines: votes, and who may act in the race.
func (b *Board) raceLines() []string {
	v := b.v
	out := []string{" " + b.paint.Heading.Render("The race")}
	var voted, chosen []string
	in := 0
	for i, sv := range v.Seats {
		if sv.Out {
			continue
		}
		in++
		if sv.Voted {
			voted = append(voted, b.names([]engine.Seat{engine.Seat(i)}))
		}
		if sv.Chosen {
			chosen = append(chosen, b.names([]engine.Seat{engine.Seat(i)}))
		}
	}
	switch v.Phase {
	case cg.Race:
		if v.More != cg.MoreNone {
			line := fmt.Sprintf("   Votes for more data: %d of %d", len(voted), in)
			if len(voted) > 0 {
				line += " (" + strings.Join(voted, ", ") + ")"
			}
			out = append(out, line)
		}
		out = append(out, fmt.Sprintf("   A tap gives %d s to name a full code.", v.AnswerMillis/1000),
			"   Right wins; wrong or slow: out.")
	case cg.Answer:
		out = append(out, fmt.Sprintf("   %s is naming a code: %s.", b.name(v.Claimant), b.clockText()))
	case cg.RevealX:
		out = append(out, fmt.Sprintf("   Chosen: %d of %d", len(chosen), in))
		if s, ok := b.seat(); ok && v.Seats[s].Choice != 0 {
			out = append(out, fmt.Sprintf("   You will show your %s (%s).", cg.PosName(v.Seats[s].Choice),
				cg.ValueName(v.Seats[s].Choice, v.Code.At(v.Seats[s].Choice))))
		}
	}
	return out
}

// entryLines is the decode entry: whose code, and the code typed.
func (b *Board) entryLines(w int) []string {
	ts := b.targets()
	head := "Decode a code"
	if b.canTap() {
		head = "Ready an answer: enter taps, then enter again sends it"
	} else if b.answering() {
		head = "Name a code: " + b.clockText()
	}
	out := []string{" " + b.paint.Heading.Render(head)}
	who := ""
	for i, t := range ts {
		n := b.name(t)
		if i == b.target {
			n = b.paint.Selected.Render("[" + n + "]")
		}
		who += " " + n
	}
	out = append(out, "   whose:"+who)
	input := b.input // drawn in the width there is, without changing the field
	input.Width = max(6, min(12, w-12))
	out = append(out, "   "+input.View()+b.paint.Dim.Render("   letter A–F, then X1 and X2"))
	if len(ts) > 0 {
		if sv := b.v.Seats[ts[clamp(b.target, len(ts))]]; sv.Sheet != nil {
			out = append(out, "   "+b.paint.Dim.Render(b.sheetText(sv)))
		}
	}
	return out
}

// seatLines draws one block per seat in at most room lines: a head line
// each, then the hints heard, shared out fairly.
func (b *Board) seatLines(w, room int) []string {
	v := b.v
	labelW := 4
	labels := make([]string, len(v.Seats))
	for i, sv := range v.Seats {
		s := engine.Seat(i)
		l := b.name(s)
		if v.Viewer.IsSeat(s) && !b.c.Replay {
			l = "You (" + l + ")"
		} else if (b.c.IsBot(s) || sv.Bot) && !strings.Contains(strings.ToLower(l), "bot") {
			l += " (bot)"
		}
		labels[i] = l
		labelW = max(labelW, b.width(l))
	}
	labelW = min(labelW, 18, w/4)
	indent := strings.Repeat(" ", labelW+4)
	noteW := max(10, w-labelW-4)

	type block struct {
		head  string
		frame []string // a framed code's top and bottom borders
		cards []string // the framed cards the seat holds, three lines
		lines []string
		alloc int
	}
	// The viewer's own code is drawn as framed cards when the board has
	// room (useFramed), else as one line like everyone else's.
	framed := v.Code != nil && !b.c.Replay && useFramed(w, max(4, b.c.Height), len(v.Seats))
	held := useFramedHeld(w, max(4, b.c.Height), len(v.Seats))
	blocks := make([]block, len(v.Seats))
	withCards := 0
	for i, sv := range v.Seats {
		s := engine.Seat(i)
		mark := "  "
		if v.Phase != cg.Finished && len(v.Active) == 1 && v.Active[0] == s {
			mark = "▸ "
		}
		label := widget.Truncate(labels[i], labelW, "…")
		label += strings.Repeat(" ", labelW-b.width(label))
		var bl block
		code := b.codeText(s)
		if framed && v.Viewer.IsSeat(s) {
			f := b.framedCode(s)
			code = f[1]
			bl.frame = []string{indent + f[0], indent + f[2]}
			if v.Phase == cg.Setup && !sv.Ordered {
				code += b.paint.Dim.Render(" unset")
			}
		}
		head := mark + label + "  " + code + "  " + strings.Join(b.flags(s), "  ")
		items := b.hintItems(sv)
		if held {
			// The cards that fit in a row are drawn, the rest stay text.
			cs := b.heldCards(sv)
			n := min(len(cs), (noteW+1)/(cardFace+3))
			if n > 0 {
				row := b.cardRow(indent, cs[:n], -1, nil)
				bl.cards = row[:]
				withCards++
			}
			items = append(b.noDataItems(sv), wrongItems(sv)...)
			if n < len(cs) {
				items = append(b.heldTexts(sv)[n:], items...)
			}
		}
		bl.lines = b.pack(items, noteW, " · ")
		if sv.Sheet != nil && !sv.Out {
			bl.lines = append(bl.lines, b.pack([]string{b.paint.Dim.Render(b.sheetText(sv))}, noteW, "")...)
		}
		bl.head = strings.TrimRight(head, " ")
		blocks[i] = bl
	}
	// Lines left over go round the table one at a time, opponents before
	// the viewer, so no seat's hints crowd out another's.
	order := make([]int, 0, len(blocks))
	for i := range blocks {
		if !v.Viewer.IsSeat(engine.Seat(i)) {
			order = append(order, i)
		}
	}
	for i := range blocks {
		if v.Viewer.IsSeat(engine.Seat(i)) {
			order = append(order, i)
		}
	}
	extra := room - len(blocks) - 3*withCards
	if framed {
		extra -= 2
	}
	for extra > 0 {
		gave := false
		for _, i := range order {
			if extra > 0 && blocks[i].alloc < len(blocks[i].lines) {
				blocks[i].alloc++
				extra--
				gave = true
			}
		}
		if !gave {
			break
		}
	}
	var out []string
	for _, bl := range blocks {
		if bl.frame != nil {
			out = append(out, bl.frame[0], bl.head, bl.frame[1])
		} else {
			out = append(out, bl.head)
		}
		out = append(out, bl.cards...)
		if bl.alloc == 0 {
			continue
		}
		// The sheet (last) stays; older hints give way first.
		ls := bl.lines
		if len(ls) > bl.alloc {
			ls = append([]string{}, ls[len(ls)-bl.alloc:]...)
			ls[0] = b.paint.Dim.Render("…") + ls[0]
		}
		for _, l := range ls {
			out = append(out, indent+l)
		}
	}
	return out
}

// useFramed is the rule for drawing the viewer's own code as framed
// cards (three lines) rather than as one line. It looks only at the
// board's size and its seats, which stay the same through a game, so the
// code keeps its form from turn to turn: it sets aside the lines around
// the seats (two of status and a notice, the Data left and a gap, and
// seven for the panel: framedReserve) and wants a head line per seat, the
// frame's two more lines and a line of hints for each opponent. So at
// 80×24 every table frames it; at 60×20 three players do, four do not.
func useFramed(w, h, seats int) bool {
	return w >= 40 && h-framedReserve >= seats+2+(seats-1)
}

// framedReserve is the lines useFramed sets aside around the seats.
const framedReserve = 3 + 2 + 7

// framedCode draws the viewer's code as three framed cards, three lines:
// the top border with each card's position (L, X1, X2), the values, the
// bottom border. A card shown to everyone keeps its ˙ mark and is bold,
// as in the one-line form.
//
//	╭L──╮ ╭X1─╮ ╭X2─╮
//	│ E │ │ 9˙│ │ 2 │
//	╰───╯ ╰───╯ ╰───╯
func (b *Board) framedCode(s engine.Seat) [3]string {
	v := b.v
	sv := v.Seats[s]
	var top, mid, bottom []string
	for p := range 3 {
		val := v.Code.At(p)
		face := " " + cg.ValueName(p, val) + " "
		if sv.Revealed[p] {
			face = " " + b.paint.Strong.Render(cg.ValueName(p, val)+"˙")
		}
		name := posShort(p)
		top = append(top, "╭"+name+strings.Repeat("─", 3-len(name))+"╮")
		mid = append(mid, "│"+face+"│")
		bottom = append(bottom, "╰───╯")
	}
	return [3]string{strings.Join(top, " "), strings.Join(mid, " "), strings.Join(bottom, " ")}
}

// codeText draws a seat's three code cards: values the viewer may see,
// "?" for the others. Cards shown to everyone are marked with ˙ after
// them on the viewer's own code, since there the value alone says nothing.
func (b *Board) codeText(s engine.Seat) string {
	v := b.v
	sv := v.Seats[s]
	own := v.Viewer.IsSeat(s) && v.Code != nil
	cells := make([]string, 3)
	for p := range 3 {
		val := sv.Known[p]
		if own {
			val = v.Code.At(p)
		}
		switch {
		case val < 0:
			cells[p] = b.paint.Dim.Render("?")
		case own && sv.Revealed[p]:
			cells[p] = b.paint.Strong.Render(cg.ValueName(p, val) + "˙")
		case sv.Revealed[p] || !own:
			cells[p] = b.paint.Strong.Render(cg.ValueName(p, val))
		default:
			cells[p] = cg.ValueName(p, val)
		}
	}
	text := "[" + strings.Join(cells, " ") + "]"
	if own && v.Phase == cg.Setup && !sv.Ordered {
		text += b.paint.Dim.Render(" unset")
	}
	return text
}

// flags are short states beside a seat.
func (b *Board) flags(s engine.Seat) []string {
	v := b.v
	sv := v.Seats[s]
	var f []string
	switch {
	case sv.Out:
		f = append(f, b.paint.Error.Render("✗ out"))
	case v.Phase == cg.Setup && sv.Ordered:
		f = append(f, b.paint.Good.Render("✓ set"))
	case sv.Voted:
		f = append(f, b.paint.Good.Render("✓ voted"))
	case sv.Chosen:
		f = append(f, b.paint.Good.Render("✓ chosen"))
	case sv.Acted && v.Phase == cg.Rounds:
		f = append(f, b.paint.Dim.Render("played"))
	}
	if v.Result != nil && v.Result.Won(s) {
		f = append(f, b.paint.Good.Render("★ won"))
	}
	if sv.WrongDecodes > 0 {
		f = append(f, b.paint.Dim.Render(fmt.Sprintf("%d/3 wrong", sv.WrongDecodes)))
	}
	if sv.Sheet != nil && !sv.Out {
		f = append(f, b.paint.Dim.Render(fmt.Sprintf("%d %s left", sv.Candidates, plural(sv.Candidates, "code", "codes"))))
	}
	return f
}

// hintItems are the public hints about a seat: Data cards (ranges its code
// is not in), "no card" announcements, answered Hack cards, wrong decodes.
func (b *Board) hintItems(sv cg.SeatView) []string {
	var items []string
	for _, k := range sv.Data {
		items = append(items, "not "+cg.DataLabel(k))
	}
	items = append(items, b.noDataItems(sv)...)
	for _, h := range sv.Hacks {
		items = append(items, b.hackShort(h))
	}
	return append(items, wrongItems(sv)...)
}

// noDataItems are a seat's "no Data card fits" announcements: "in A–B & C–D".
func (b *Board) noDataItems(sv cg.SeatView) []string {
	var items []string
	for _, nd := range sv.NoData {
		ls := make([]string, len(nd.Kinds))
		for i, k := range nd.Kinds {
			ls[i] = cg.DataLabel(k)
		}
		items = append(items, "in "+strings.Join(ls, " & "))
	}
	return items
}

// wrongItems are the codes a seat's code is not, by wrong decodes.
func wrongItems(sv cg.SeatView) []string {
	items := make([]string, len(sv.Wrong))
	for i, g := range sv.Wrong {
		items[i] = "not " + g.Code.String()
	}
	return items
}

// hackShort draws an answered Hack card: "X1:02468 ✓" (green, yes) or
// "L:ABC ✗" (red, no). The glyph carries the answer without colour.
func (b *Board) hackShort(h cg.Held) string {
	c := cg.Hack(h.Card)
	s := posShort(c.Pos) + ":" + values(c.Pos, c.Set)
	if h.Green {
		return s + " " + b.paint.Good.Render("✓")
	}
	return s + " " + b.paint.Error.Render("✗")
}

// sheetText is the crack sheet: the values still possible per position,
// or, when few codes are left (cg.ListedCodes), the codes themselves.
func (b *Board) sheetText(sv cg.SeatView) string {
	switch {
	case sv.Sheet == nil:
		return ""
	case len(sv.Possible) == 1:
		return "must be " + sv.Possible[0].String()
	case len(sv.Possible) > 1:
		codes := make([]string, len(sv.Possible))
		for i, c := range sv.Possible {
			codes[i] = c.String()
		}
		return "could be " + strings.Join(codes, " · ")
	}
	return fmt.Sprintf("may be L %s · X1 %s · X2 %s", values(0, sv.Sheet[0]), values(1, sv.Sheet[1]), values(2, sv.Sheet[2]))
}

func posShort(p int) string {
	if p == cg.PosLetter {
		return "L"
	}
	return cg.PosName(p)
}

// values writes the set bits of m as letters or digits: "ABE", "02468".
func values(p int, m uint16) string {
	var sb strings.Builder
	for v := range 10 {
		if m&(1<<v) != 0 {
			sb.WriteString(cg.ValueName(p, v))
		}
	}
	if sb.Len() == 0 {
		return "–"
	}
	return sb.String()
}

// spaced writes a code with gaps: "F 9 8".
func spaced(c cg.Code) string {
	s := c.String()
	return s[:1] + " " + s[1:2] + " " + s[2:]
}

// width is widget.Width(s), remembered.
func (b *Board) width(s string) int { return b.widths.Of(s) }

// pack joins items with sep into lines of at most w cells.
func (b *Board) pack(items []string, w int, sep string) []string {
	var lines []string
	cur, curW := "", 0
	sepW := b.width(sep)
	for _, it := range items {
		if b.width(it) > w {
			it = widget.Truncate(it, w, "…")
		}
		itW := b.width(it)
		switch {
		case cur == "":
			cur, curW = it, itW
		case curW+sepW+itW <= w:
			cur += sep + it
			curW += sepW + itW
		default:
			lines = append(lines, cur)
			cur, curW = it, itW
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// detailsView lists every public hint per seat, unabridged, with who sent
// each Hack card and when.
func (b *Board) detailsView(w int) []string {
	v := b.v
	lines := []string{" " + b.paint.Heading.Render("Details") + b.paint.Dim.Render("  every hint given, per player")}
	for i, sv := range v.Seats {
		s := engine.Seat(i)
		name := b.name(s)
		if v.Viewer.IsSeat(s) && !b.c.Replay {
			name = "You (" + name + ")"
		}
		lines = append(lines, " "+b.paint.Strong.Render(name)+"  "+b.codeText(s))
		var items []string
		for _, k := range sv.Data {
			items = append(items, "not "+cg.DataLabel(k))
		}
		for _, nd := range sv.NoData {
			ls := make([]string, len(nd.Kinds))
			for j, k := range nd.Kinds {
				ls[j] = cg.DataLabel(k)
			}
			items = append(items, fmt.Sprintf("round %d, no Data card fit: in %s", nd.Round, strings.Join(ls, " & ")))
		}
		if len(items) > 0 {
			for _, l := range b.pack(items, w-6, " · ") {
				lines = append(lines, "    "+l)
			}
		}
		for _, h := range sv.Hacks {
			when := "counter"
			if h.Round > 0 {
				when = fmt.Sprintf("round %d", h.Round)
			}
			ans := b.paint.Error.Render("✗ red, no")
			if h.Green {
				ans = b.paint.Good.Render("✓ green, yes")
			}
			lines = append(lines, "    "+fmt.Sprintf("%s %s (from %s, %s)", cg.Hack(h.Card).Label(), ans, b.name(h.From), when))
		}
		for _, g := range sv.Wrong {
			lines = append(lines, "    "+fmt.Sprintf("not %s (wrong decode by %s)", g.Code, b.name(g.By)))
		}
		if sv.Sheet != nil {
			lines = append(lines, "    "+b.paint.Dim.Render(fmt.Sprintf("%s · %d %s", b.sheetText(sv), sv.Candidates, plural(sv.Candidates, "code", "codes"))))
		}
		if len(sv.Data)+len(sv.NoData)+len(sv.Hacks)+len(sv.Wrong) == 0 {
			lines = append(lines, "    "+b.paint.Dim.Render("no hints yet"))
		}
	}
	return lines
}

// plural is words.Plural, the one plural rule of the arcade.
func plural(n int, one, many string) string { return words.Plural(n, one, many) }
