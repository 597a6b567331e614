package ifthen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine/rulelang"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// guessBuilder is the on-screen rule builder for the team's guess: an
// optional If part, a Then part and an optional Otherwise part, each a list
// of clauses joined by "all" or "any". The cursor sits on a row (a part's
// join, a clause, an "add" row or "send") and, on a clause, on one field.
// Everything it makes is plain rulelang.Builder data.
type guessBuilder struct {
	km    *KeyMap
	b     rulelang.Builder
	row   int
	field int
}

// Row kinds.
const (
	rowJoin = iota
	rowClause
	rowAdd
	rowSend
)

type builderRow struct {
	kind   int
	part   int // 0 if, 1 then, 2 otherwise
	clause int
}

var partNames = [3]string{"If", "Then", "Otherwise"}

func newGuessBuilder(km *KeyMap) guessBuilder {
	gb := guessBuilder{km: km}
	gb.b.Then.Clauses = []rulelang.Clause{defaultClause()}
	return gb
}

func defaultClause() rulelang.Clause {
	return rulelang.Clause{Subject: rulelang.SubjectCard, Attr: "bg", Op: rulelang.OpDifferentFrom, Other: rulelang.SubjectPrev}
}

func (g *guessBuilder) group(part int) *rulelang.Group {
	return [3]*rulelang.Group{&g.b.If, &g.b.Then, &g.b.Else}[part]
}

func (g *guessBuilder) rows() []builderRow {
	var out []builderRow
	for part := range 3 {
		out = append(out, builderRow{kind: rowJoin, part: part})
		for i := range g.group(part).Clauses {
			out = append(out, builderRow{kind: rowClause, part: part, clause: i})
		}
		out = append(out, builderRow{kind: rowAdd, part: part})
	}
	return append(out, builderRow{kind: rowSend})
}

// fields lists the editable fields of a clause, by name.
func fields(c rulelang.Clause) []string {
	out := []string{"subject", "attr", "op"}
	switch {
	case c.Op.NeedsValues():
		out = append(out, "values")
	case c.Op.NeedsOther():
		out = append(out, "other")
		if c.Attr == "ncolor" || c.Attr == "bg" {
			out = append(out, "otherattr")
		}
		if c.Op == rulelang.OpPlus {
			out = append(out, "offset")
		}
	}
	return out
}

func attribute(name string) rulelang.Attribute {
	as := rulelang.IfThenAttributes()
	i, _ := as.Index(name)
	return as.At(i)
}

var attrNames = []string{"number", "ncolor", "size", "bg"}

// guess subjects: a Code reads only the card played and the last Valid card.
var guessSubjects = []rulelang.Subject{rulelang.SubjectCard, rulelang.SubjectPrev}

func step[T comparable](xs []T, cur T, d int) T {
	i := slices.Index(xs, cur)
	if i < 0 {
		return xs[0]
	}
	return xs[(i+d+len(xs))%len(xs)]
}

// change moves the focused field's value by d (+1 or -1).
func (g *guessBuilder) change(d int) {
	rows := g.rows()
	r := rows[g.row]
	switch r.kind {
	case rowJoin:
		grp := g.group(r.part)
		grp.Join = 1 - grp.Join
		return
	case rowClause:
	default:
		return
	}
	c := &g.group(r.part).Clauses[r.clause]
	fs := fields(*c)
	switch fs[min(g.field, len(fs)-1)] {
	case "subject":
		c.Subject = step(guessSubjects, c.Subject, d)
	case "attr":
		c.Attr = step(attrNames, c.Attr, d)
		c.OtherAttr, c.Values = "", nil
		if !slices.Contains(rulelang.Operators(attribute(c.Attr)), c.Op) {
			c.Op = rulelang.Operators(attribute(c.Attr))[0]
		}
	case "op":
		c.Op = step(rulelang.Operators(attribute(c.Attr)), c.Op, d)
		if c.Op.NeedsValues() && len(c.Values) == 0 {
			c.Values = []string{rulelang.Values(attribute(c.Attr))[0]}
		}
		if c.Op != rulelang.OpIs && c.Op != rulelang.OpIsNot && len(c.Values) > 1 {
			c.Values = c.Values[:1]
		}
		if c.Op.NeedsOther() && c.Other == c.Subject {
			c.Other = step(guessSubjects, c.Subject, 1)
		}
	case "values":
		vals := rulelang.Values(attribute(c.Attr))
		if len(c.Values) == 0 {
			c.Values = []string{vals[0]}
			return
		}
		c.Values[len(c.Values)-1] = step(vals, c.Values[len(c.Values)-1], d)
	case "other":
		c.Other = step(guessSubjects, c.Other, d)
	case "otherattr":
		cur := c.OtherAttr
		if cur == "" {
			cur = c.Attr
		}
		c.OtherAttr = step([]string{"ncolor", "bg"}, cur, d)
	case "offset":
		c.Offset = (c.Offset + d + 10) % 10
	}
	g.field = min(g.field, len(fields(*c))-1)
}

// addValue adds the next unused value to an "is / is not" set.
func (g *guessBuilder) addValue() {
	r := g.rows()[g.row]
	if r.kind != rowClause {
		return
	}
	c := &g.group(r.part).Clauses[r.clause]
	if c.Op != rulelang.OpIs && c.Op != rulelang.OpIsNot {
		return
	}
	for _, v := range rulelang.Values(attribute(c.Attr)) {
		if !slices.Contains(c.Values, v) {
			c.Values = append(c.Values, v)
			return
		}
	}
}

// removeAt deletes the clause under the cursor (or the last value of a set).
func (g *guessBuilder) remove() {
	r := g.rows()[g.row]
	if r.kind != rowClause {
		return
	}
	grp := g.group(r.part)
	c := &grp.Clauses[r.clause]
	if len(c.Values) > 1 && fields(*c)[min(g.field, len(fields(*c))-1)] == "values" {
		c.Values = c.Values[:len(c.Values)-1]
		return
	}
	grp.Clauses = slices.Delete(grp.Clauses, r.clause, r.clause+1)
	g.row = max(0, g.row-1)
	g.field = 0
}

// help lists the builder's keys that do something where its cursor is.
func (g *guessBuilder) help(km *KeyMap) []key.Binding {
	rows := g.rows()
	r := rows[min(g.row, len(rows)-1)]
	ks := []key.Binding{widget.Pair(km.Up, km.Down, "↑/↓", "row")}
	// space, - and enter all change the field under the cursor.
	change := key.NewBinding(key.WithKeys(slices.Concat(km.Builder.Next.Keys(), km.Builder.Prev.Keys(), km.Choose.Keys())...))
	switch r.kind {
	case rowJoin:
		ks = append(ks, widget.Help(change, "space/enter", "all or any"))
	case rowClause:
		c := g.group(r.part).Clauses[r.clause]
		if len(fields(c)) > 1 {
			ks = append(ks, widget.Pair(km.Left, km.Right, "←/→", "field"))
		}
		ks = append(ks, widget.Help(change, "space/-", "change"))
		if (c.Op == rulelang.OpIs || c.Op == rulelang.OpIsNot) && len(c.Values) < len(rulelang.Values(attribute(c.Attr))) {
			ks = append(ks, km.Builder.AddValue)
		}
		ks = append(ks, km.Builder.Remove)
	case rowAdd:
		ks = append(ks, widget.Help(km.Choose, "enter", "add a clause"))
	case rowSend:
		ks = append(ks, widget.Help(km.Choose, "enter", "send the guess"))
	}
	return ks
}

// key handles one key press; it reports whether the guess should be sent.
func (g *guessBuilder) key(msg tea.KeyPressMsg) (send bool) {
	rows := g.rows()
	km := g.km
	switch {
	case key.Matches(msg, km.Up):
		g.row = max(0, g.row-1)
	case key.Matches(msg, km.Down):
		g.row = min(len(rows)-1, g.row+1)
	case key.Matches(msg, km.Left):
		g.field = max(0, g.field-1)
	case key.Matches(msg, km.Right):
		if r := rows[g.row]; r.kind == rowClause {
			g.field = min(len(fields(g.group(r.part).Clauses[r.clause]))-1, g.field+1)
		}
	case key.Matches(msg, km.Builder.Next):
		g.change(1)
	case key.Matches(msg, km.Builder.Prev):
		g.change(-1)
	case key.Matches(msg, km.Builder.AddValue):
		g.addValue()
	case key.Matches(msg, km.Builder.Remove):
		g.remove()
	case key.Matches(msg, km.Choose):
		switch r := rows[g.row]; r.kind {
		case rowAdd:
			grp := g.group(r.part)
			grp.Clauses = append(grp.Clauses, defaultClause())
		case rowSend:
			return true
		default:
			g.change(1)
		}
	}
	if r := g.rows()[g.row]; r.kind != rowClause {
		g.field = 0
	}
	return false
}

// text is the rule the builder makes, or why it makes none yet.
func (g *guessBuilder) text() (string, error) {
	return g.b.Text(rulelang.IfThenAttributes())
}

func subjectWord(s rulelang.Subject) string {
	if s == rulelang.SubjectPrev {
		return "the last Valid card"
	}
	return "the card played"
}

// lines draws the builder; focus marks the focused field with brackets and
// the selected style so it shows without colour too.
func (g *guessBuilder) lines(b *Board, w, room int) []string {
	rows := g.rows()
	var out []string
	selAt, selLen := 0, 1 // the cursor row's first line and its height
	for i, r := range rows {
		sel := i == g.row
		mark := "  "
		if sel {
			mark = "› "
		}
		var s string
		switch r.kind {
		case rowJoin:
			grp := g.group(r.part)
			join := "all of"
			if grp.Join == rulelang.JoinAny {
				join = "any of"
			}
			s = b.paint.Heading.Render(partNames[r.part]) + " " + join + ":"
			if r.part != 1 && len(grp.Clauses) == 0 {
				s = b.paint.Heading.Render(partNames[r.part]) + b.paint.Dim.Render(" (none)")
			}
		case rowClause:
			c := g.group(r.part).Clauses[r.clause]
			var parts []string
			for fi, f := range fields(c) {
				var v string
				switch f {
				case "subject":
					v = subjectWord(c.Subject) + "'s"
				case "attr":
					v = attribute(c.Attr).Noun
				case "op":
					v = c.Op.Label()
				case "values":
					v = strings.Join(c.Values, " or ")
				case "other":
					v = subjectWord(c.Other) + "'s"
				case "otherattr":
					oa := c.OtherAttr
					if oa == "" {
						oa = c.Attr
					}
					v = attribute(oa).Noun
				case "offset":
					v = "+" + strconv.Itoa(c.Offset)
				}
				if sel && fi == min(g.field, len(fields(c))-1) {
					v = b.paint.Selected.Render("[" + v + "]")
				}
				parts = append(parts, v)
			}
			if c.Op.NeedsOther() && !slices.Contains(fields(c), "otherattr") {
				parts = append(parts, attribute(c.Attr).Noun)
			}
			s = "   " + strings.Join(parts, " ")
		case rowAdd:
			s = "   " + b.paint.Dim.Render("+ add a clause to "+partNames[r.part])
		case rowSend:
			s = b.paint.Strong.Render("Send the guess to the team")
		}
		// A clause too long for the row wraps under itself.
		lines := widget.WrapIndent(s, w, " "+mark, "      ")
		if i == g.row {
			selAt, selLen = len(out), len(lines)
		}
		out = append(out, lines...)
	}
	// Keep the cursor's row in view.
	if len(out) > room && room > 0 {
		start := min(max(0, selAt+selLen/2-room/2), len(out)-room)
		out = out[start : start+room]
	}
	return out
}

func (g *guessBuilder) preview() string {
	text, err := g.text()
	if err != nil {
		return "Not a rule yet: " + err.Error()
	}
	r, err := rulelang.Parse(rulelang.IfThenAttributes(), text)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Reads: %s", r.English())
}
