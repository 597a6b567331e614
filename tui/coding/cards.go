package coding

import (
	"fmt"
	"strings"

	cg "github.com/codebreakers/codebreakers/engine/coding"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// The Data and Hack cards on the table drawn as cards: a frame of three
// lines, a label in the top border and a face of cardFace cells, the way
// the viewer's own code is drawn (framedCode). A Data card's face is the
// range its holder's code is not in; a Hack card's top border carries its
// number (the key that picks it) and the position it asks about (L, X1,
// X2), its face the values that answer green:
//
//	╭─────╮ ╭×2───╮   ╭1 L──╮ ┏2 X1━┓
//	│ A–B │ │00–19│   │ B E │ ┃02468┃
//	╰─────╯ ╰─────╯   ╰─────╯ ┗━━━━━┛
//
// The card chosen in the hacking turn has a heavy frame, so the choice
// reads without colour. The cards a seat holds face up are drawn the same
// way under its name (a Data card with "not" in its top border, an
// answered Hack card with ✓ or ✗ in its bottom border) where there is
// room for a row of them per seat (useFramedHeld). Where the board is too
// small (useFramedTable) every one of them falls back to a line of text.

// cardFace is the cells inside a card's frame: the widest face ("00–19",
// "02468") and the widest label ("1 X1").
const cardFace = 5

// card is one framed card: the label in its top border, its face, and a
// mark of one cell in its bottom border (an answered Hack card's ✓ or ✗).
type card struct{ label, face, mark string }

// useFramedTable is the rule for drawing the Data and Hack cards framed
// rather than as text: the Data left, the Hack line and the hacking
// turn's composer. Like useFramed it looks only at the board's size and
// its seats, which stay the same through a game, so the cards keep their
// form from turn to turn. The rows want tableWidth cells (all eight Data
// kinds beside their label), and the height sets aside tableReserve lines
// (status and a notice, the three of Data left and a gap, the seven of the
// composer) besides a head line per seat, the own code's frame and a line
// of hints per opponent. A session at 80×24 gives its board about 19
// lines: two players get framed cards there, three or four the compact
// form; at 120×40 every table is framed.
func useFramedTable(w, h, seats int) bool {
	return w >= tableWidth && h-tableReserve >= seats+2+(seats-1)
}

// useFramedHeld is the rule for drawing the cards each seat holds face up
// (its Data cards and the Hack cards it answered) as a row of framed cards
// under its name rather than as a line of hints: where the table's cards
// are framed and there are, besides them, lines for a head and a row of
// cards for each seat, the own code's frame and a line of hints for each
// opponent. At 120×40 four players have room; at 100×30 three do not.
func useFramedHeld(w, h, seats int) bool {
	return useFramedTable(w, h, seats) && h-tableReserve >= seats*(1+3)+2+(seats-1)
}

// heldCards are the cards a seat holds face up: each Data card ("not" in
// the top border, its range inside), then each Hack card it answered (its
// position, its values, the answer in the bottom border: ✓ green, ✗ red).
func (b *Board) heldCards(sv cg.SeatView) []card {
	cards := make([]card, 0, len(sv.Data)+len(sv.Hacks))
	for _, k := range sv.Data {
		cards = append(cards, card{label: "not", face: b.faces.data(k)})
	}
	for _, h := range sv.Hacks {
		mark := b.paint.Error.Render("✗")
		if h.Green {
			mark = b.paint.Good.Render("✓")
		}
		cards = append(cards, card{label: posShort(cg.Hack(h.Card).Pos), face: b.faces.hack(h.Card), mark: mark})
	}
	return cards
}

// heldTexts are heldCards in their one-line forms, as hintItems writes
// them, for the cards a row has no room for.
func (b *Board) heldTexts(sv cg.SeatView) []string {
	texts := make([]string, 0, len(sv.Data)+len(sv.Hacks))
	for _, k := range sv.Data {
		texts = append(texts, "not "+cg.DataLabel(k))
	}
	for _, h := range sv.Hacks {
		texts = append(texts, b.hackShort(h))
	}
	return texts
}

// cardFaces are the texts on the Data and Hack cards, made once per board
// so that a frame does not format them again.
type cardFaces struct {
	dataFaces [cg.DataKinds]string
	hackFaces [cg.HackCards]string
	// hackLabels[i][p] is the top border of the (i+1)th Hack card on the
	// line when it asks about position p: "1 L", "2 X1".
	hackLabels [cg.HackLine][3]string
}

func newCardFaces() cardFaces {
	var f cardFaces
	for k := range f.dataFaces {
		f.dataFaces[k] = cg.DataLabel(k)
	}
	for id := range f.hackFaces {
		f.hackFaces[id] = hackFace(cg.Hack(id))
	}
	for i := range f.hackLabels {
		for p := range f.hackLabels[i] {
			f.hackLabels[i][p] = fmt.Sprintf("%d %s", i+1, posShort(p))
		}
	}
	return f
}

// data is a Data card's face, its range; hack a Hack card's, its values.
func (f *cardFaces) data(kind int) string {
	if kind < 0 || kind >= len(f.dataFaces) {
		return cg.DataLabel(kind)
	}
	return f.dataFaces[kind]
}

func (f *cardFaces) hack(id int) string {
	if id < 0 || id >= len(f.hackFaces) {
		return hackFace(cg.Hack(id))
	}
	return f.hackFaces[id]
}

// hackLabel is the top border of the Hack card at index i of the line.
func (f *cardFaces) hackLabel(i, pos int) string {
	if i < 0 || i >= len(f.hackLabels) || pos < 0 || pos > 2 {
		return fmt.Sprintf("%d %s", i+1, posShort(pos))
	}
	return f.hackLabels[i][pos]
}

// tableReserve is the lines useFramedTable sets aside around the seats.
const tableReserve = 3 + 3 + 1 + 7

// tableWidth is the cells of the widest framed row: the Data left label
// and eight Data cards.
const tableWidth = 13 + cg.DataKinds*(cardFace+3) - 1

// framedTable says whether this board draws its Data and Hack cards
// framed (useFramedTable).
func (b *Board) framedTable() bool {
	return useFramedTable(b.c.Width, max(4, b.c.Height), len(b.v.Seats))
}

// center pads s with spaces to n cells, the odd space on the right.
func center(s string, n int) string {
	pad := max(0, n-widget.Width(s))
	return strings.Repeat(" ", pad/2) + s + strings.Repeat(" ", pad-pad/2)
}

// hackFace is a Hack card's face: its values, spaced out when they fit
// ("A B C", " B E "), else side by side ("02468", "0369 ").
func hackFace(c cg.HackCard) string {
	vals := values(c.Pos, c.Set)
	if len(vals)*2-1 <= cardFace {
		vals = strings.Join(strings.Split(vals, ""), " ")
	}
	return center(vals, cardFace)
}

// hackCards are the face-up Hack cards, numbered as the keys pick them.
func (b *Board) hackCards() []card {
	cs := make([]card, len(b.v.HackLine))
	for i, id := range b.v.HackLine {
		cs[i] = card{label: b.faces.hackLabel(i, cg.Hack(id).Pos), face: b.faces.hack(id)}
	}
	return cs
}

// cardRow draws cards side by side in three lines, each line starting
// with indent; the one at cur (-1: none) has a heavy frame painted with p.
func (b *Board) cardRow(indent string, cards []card, cur int, p *widget.Painter) [3]string {
	var rows [3]strings.Builder
	for r := range rows {
		rows[r].Grow(len(indent) + len(cards)*(3*(cardFace+2)+1))
		rows[r].WriteString(indent)
	}
	for i, c := range cards {
		if i > 0 {
			for r := range rows {
				rows[r].WriteByte(' ')
			}
		}
		k := cardKey{card: c}
		if i == cur {
			k.heavy = p
		}
		seg, ok := b.cardSegs.Get(k)
		if !ok {
			seg = b.cardSegs.Put(k, drawCard(c, k.heavy))
		}
		for r := range rows {
			rows[r].WriteString(seg[r])
		}
	}
	return [3]string{rows[0].String(), rows[1].String(), rows[2].String()}
}

// cardKey is what a drawn card depends on: the card, and the painter of
// its heavy frame when it is the chosen one.
type cardKey struct {
	card
	heavy *widget.Painter
}

// drawCard is one card's three lines: a heavy frame painted with p, or
// (p nil) a light one with its mark in the bottom border.
func drawCard(c card, p *widget.Painter) [3]string {
	fill := max(0, cardFace-widget.Width(c.label))
	face := center(c.face, cardFace)
	if p != nil {
		return [3]string{
			p.Render("┏" + c.label + strings.Repeat("━", fill) + "┓"),
			p.Render("┃" + face + "┃"),
			p.Render("┗" + strings.Repeat("━", cardFace) + "┛"),
		}
	}
	bottom := "╰" + strings.Repeat("─", cardFace) + "╯"
	if c.mark != "" {
		bottom = "╰──" + c.mark + "──╯"
	}
	return [3]string{"╭" + c.label + strings.Repeat("─", fill) + "╮", "│" + face + "│", bottom}
}

// framedDataLeft is the Data cards left on the table as a row of cards,
// a stack of two marked ×2 in its top border; ok is false when none are
// left (the compact "none" says it in one line).
func (b *Board) framedDataLeft() (lines []string, ok bool) {
	var cs []card
	for k := range cg.DataKinds {
		switch n := b.v.DataField[k]; {
		case n == 1:
			cs = append(cs, card{face: b.faces.data(k)})
		case n == 2:
			cs = append(cs, card{label: "×2", face: b.faces.data(k)})
		case n > 2:
			cs = append(cs, card{label: fmt.Sprintf("×%d", n), face: b.faces.data(k)})
		}
	}
	if len(cs) == 0 {
		return nil, false
	}
	row := b.cardRow(strings.Repeat(" ", 13), cs, -1, nil)
	row[0] = " " + b.paint.Heading.Render("Data left  ") + row[0][12:]
	return row[:], true
}

// composerCards is the hacking turn with framed cards: a row of the Data
// cards that may be taken, a row of the face-up Hack cards, and a line of
// the players who may receive one. The arrows follow the rows: ↑/↓ move
// between them, ←/→ along one (updateComposer). The focused row is marked
// ▸, the card chosen in each row has a heavy frame, the receiver brackets.
//
//	▸ Data    ╭─────╮ ┏━━━━━┓
//	  not in  │ A–B │ ┃00–19┃
//	          ╰─────╯ ┗━━━━━┛
//	  Hack    ┏1 L━━┓ ╭2 X1─╮
//	  deck 10 ┃ B E ┃ │02468│
//	          ┗━━━━━┛ ╰─────╯
//	  To      [Bo]  Kai
func (b *Board) composerCards() []string {
	v := b.v
	focus := b.focusCol()
	label := func(c int, head, sub string) [3]string {
		mark, h := "  ", b.paint.Dim.Render(fmt.Sprintf("%-8s", head))
		if c == focus {
			mark, h = b.paint.Selected.Render("▸")+" ", b.paint.Heading.Render(fmt.Sprintf("%-8s", head))
		}
		return [3]string{" " + mark + h, "   " + b.paint.Dim.Render(fmt.Sprintf("%-8s", sub)), strings.Repeat(" ", 11)}
	}
	chosen := func(c int) *widget.Painter {
		if c == focus {
			return &b.paint.Selected
		}
		return &b.paint.Strong
	}
	var out []string
	add := func(l [3]string, row [3]string) {
		for i := range l {
			out = append(out, strings.TrimRight(l[i]+" "+row[i], " "))
		}
	}
	data := make([]card, len(v.Takeable))
	for i, k := range v.Takeable {
		data[i] = card{face: b.faces.data(k)}
	}
	dataRow := b.cardRow("", data, b.dataCur, chosen(colData))
	if len(data) == 0 {
		dataRow = [3]string{"", b.paint.Dim.Render("none fits"), ""}
	}
	add(label(colData, "Data", "not in"), dataRow)
	add(label(colHack, "Hack", fmt.Sprintf("deck %d", v.HackDeck)), b.cardRow("", b.hackCards(), b.hackCur, chosen(colHack)))
	to := make([]string, len(v.Recipients))
	for i, r := range v.Recipients {
		n := widget.Truncate(b.name(r), 14, "…")
		if i == b.toCur {
			n = chosen(colTo).Render("[" + n + "]")
		}
		to[i] = n
	}
	l := label(colTo, "To", "")
	out = append(out, l[0]+" "+strings.Join(to, "  "))
	return out
}

// composerFramed says the panel is the composer with framed cards, which
// may be wider than the left part of a wide board (see lowerBlock).
func (b *Board) composerFramed() bool {
	return b.canHack() && !b.entry && b.framedTable()
}
