package whattherule

import (
	"fmt"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/rulelang"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	wtr "github.com/codebreakers/codebreakers/engine/whattherule"
	"github.com/codebreakers/codebreakers/engine/words"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// previewLines show, for a rule being written, every face and whether it
// would fit next on the line as it stands: rows by shape and fill, columns
// by count and colour.
func (b *Board) previewLines(accepts func([]rulelang.Card, rulelang.Card) bool) []string {
	line := make([]rulelang.Card, len(b.v.Line))
	for i, c := range b.v.Line {
		line[i] = c.Face()
	}
	faces := wtr.AllFaces()
	fits := 0
	grid := map[[4]any]bool{}
	for _, f := range faces {
		ok := accepts(line, f.Face())
		grid[[4]any{f.Shape, f.Filled, f.Count, f.Color}] = ok
		if ok {
			fits++
		}
	}
	where := "as the first card"
	if len(line) > 0 {
		where = "next on the line"
	}
	out := []string{" " + b.paint.Heading.Render("Preview") + b.paint.Dim.Render(fmt.Sprintf("  %d of 72 faces would fit %s", fits, where))}
	for _, shape := range []string{"circle", "triangle", "square"} {
		for _, filled := range []bool{true, false} {
			var sb strings.Builder
			sb.WriteString("   ")
			for _, color := range []string{"white", "black"} {
				for count := 1; count <= 6; count++ {
					c := wtr.Card{Shape: shape, Count: count, Filled: filled, Color: color}
					if grid[[4]any{shape, filled, count, color}] {
						sb.WriteString(b.cardText(c) + " ")
					} else {
						sb.WriteString(b.paint.Dim.Render(" · ") + " ")
					}
				}
				sb.WriteString(" ")
			}
			out = append(out, sb.String())
		}
	}
	return out
}

// libraryView lists the rule library for the game master to choose from.
func (b *Board) libraryView(w, h int) []string {
	out := []string{" " + b.paint.Heading.Render("Rule library") + b.paint.Dim.Render(fmt.Sprintf("  %d rules, easiest first · enter uses one · d draws at random", len(b.lib)))}
	rows := max(1, h-3)
	start := min(max(0, b.libCursor-rows/2), max(0, len(b.lib)-rows))
	for i := start; i < min(len(b.lib), start+rows); i++ {
		lr := b.lib[i]
		row := fmt.Sprintf("%2d %-8s %s", i+1, lr.Grade, lr.Title)
		if lr.Starter {
			row += " ·starter"
		}
		if i == b.libCursor {
			out = append(out, " "+b.paint.Selected.Render("▸ "+row))
		} else {
			out = append(out, "   "+row)
		}
	}
	if b.libCursor < len(b.lib) {
		r, err := rulelang.Parse(wtr.Attributes(), b.lib[b.libCursor].Text)
		if err == nil {
			out = append(out, " "+b.paint.Dim.Render("rule: ")+r.String())
		}
	}
	return out
}

// notesView lists what the table knows: this round's hints and guesses and
// every finished round with its rule revealed.
func (b *Board) notesView(w, h int) []string {
	lines := b.notesLines(w)
	scroll := min(b.scroll, max(0, len(lines)-h))
	return lines[scroll:min(len(lines), scroll+h)]
}

// notesLines are all the notes' lines at width w.
func (b *Board) notesLines(w int) []string {
	v := b.v
	var lines []string
	lines = append(lines, " "+b.paint.Heading.Render("Notes")+b.paint.Dim.Render("  this round and every finished round"))
	if v.Phase != wtr.Finished {
		lines = append(lines, " "+b.paint.Strong.Render(fmt.Sprintf("Round %d", v.Round))+b.paint.Dim.Render("  "+words.Count(v.CardsPlayed, "card", "cards")+" played"))
		for i, h := range v.Hints {
			lines = append(lines, wrap(fmt.Sprintf("hint %d: %s", i+1, textsafe.Cut(h, 300)), w-4, "    ")...)
		}
		for _, g := range v.Guesses {
			lines = append(lines, wrap(fmt.Sprintf("%s guessed %q: %s", b.name(g.Seat), textsafe.Cut(g.Text, 300), rightWrong(g.Right)), w-4, "    ")...)
		}
		if len(v.Hints)+len(v.Guesses) == 0 {
			lines = append(lines, "    "+b.paint.Dim.Render("no hints or guesses yet"))
		}
		lines = append(lines, b.missLines(w)...)
		if v.Rule != nil && v.Rule.Mode == wtr.Machine && len(v.Fits) > 0 {
			fits := map[int]bool{}
			for _, c := range v.Fits {
				fits[c.ID%wtr.Faces] = true
			}
			lines = append(lines, b.previewLines(func(_ []rulelang.Card, f rulelang.Card) bool {
				for i, g := range wtr.AllFaces() {
					if g.Face() == f {
						return fits[i]
					}
				}
				return false
			})...)
		}
	}
	for i := len(v.Rounds) - 1; i >= 0; i-- {
		r := v.Rounds[i]
		head := fmt.Sprintf("Round %d · game master %s · %s", r.Round, b.name(r.GM), r.Reason)
		if r.Guesser >= 0 {
			head += " by " + b.name(r.Guesser)
		}
		lines = append(lines, " "+b.paint.Strong.Render(head))
		rule := r.Rule
		if r.English != "" {
			rule = r.English + " (" + r.Rule + ")"
		}
		lines = append(lines, wrap("rule: "+textsafe.Cut(rule, 400), w-4, "    ")...)
		if r.Points != nil {
			var ps []string
			for s, p := range r.Points {
				ps = append(ps, fmt.Sprintf("%s %+d", b.name(engine.Seat(s)), p))
			}
			line := "points: " + strings.Join(ps, ", ")
			if len(r.Halved) > 0 {
				line += " (game master halved: " + strings.Join(r.Halved, "; ") + ")"
			}
			lines = append(lines, wrap(line, w-4, "    ")...)
		}
	}
	return lines
}

// missLines list every card judged not to fit this round (plays and shown
// hands alike), by how long the line was then, so nothing is forgotten
// when a shown hand goes back under the pile.
func (b *Board) missLines(w int) []string {
	byLen := map[int][]string{}
	var order []int
	for _, j := range b.v.Judgements {
		if j.Fits {
			continue
		}
		if _, ok := byLen[j.Line]; !ok {
			order = append(order, j.Line)
		}
		byLen[j.Line] = append(byLen[j.Line], b.cardText(j.Card))
	}
	if len(order) == 0 {
		return nil
	}
	out := []string{"    " + b.paint.Dim.Render("did not fit, by cards on the line:")}
	for _, n := range order {
		out = append(out, wrap(fmt.Sprintf("after %d: %s", n, strings.Join(byLen[n], " ")), w-4, "    ")...)
	}
	return out
}

func rightWrong(ok bool) string {
	if ok {
		return "right"
	}
	return "wrong"
}

// wrap word-wraps s to w cells, indenting every line.
func wrap(s string, w int, indent string) []string {
	return widget.WrapIndent(s, max(10+len(indent), w), indent, indent)
}

// logLines are the newest events that fit in h lines of width w, oldest
// first, under a heading.
func (b *Board) logLines(w, h int) []string {
	if h <= 1 || w < 10 {
		return nil
	}
	out := []string{" " + b.paint.Heading.Render("Log")}
	lines := b.logs.Tail(b.c.Log, w, h-1)
	if len(lines) == 0 {
		return append(out, " "+b.paint.Dim.Render(" nothing yet"))
	}
	for _, l := range lines {
		out = append(out, " "+l)
	}
	return out
}
