package whattherule

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine/rulelang"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	wtr "github.com/codebreakers/codebreakers/engine/whattherule"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// The builder edits a rule as clauses in three parts (if, then, otherwise)
// without typing: each clause is a card, an attribute, a test and an
// argument, and every field is changed by cycling through its choices.

// builderState is the builder's rule and cursor.
type builderState struct {
	rule  rulelang.Builder
	row   int // index into rows()
	field int // 0 card, 1 attribute, 2 test, 3 argument, 4 offset
	keys  BuilderKeys
}

func newBuilder(keys BuilderKeys) builderState {
	st := builderState{keys: keys}
	st.rule.Then.Clauses = []rulelang.Clause{newClause()}
	return st
}

func newClause() rulelang.Clause {
	return rulelang.Clause{Subject: rulelang.SubjectCard, Attr: "shape", Op: rulelang.OpIsNot, Values: []string{"circle"}, Other: rulelang.SubjectPrev}
}

// rowRef names one clause: its part (0 if, 1 then, 2 otherwise) and index.
type rowRef struct{ part, i int }

func (st *builderState) group(part int) *rulelang.Group {
	switch part {
	case 0:
		return &st.rule.If
	case 2:
		return &st.rule.Else
	}
	return &st.rule.Then
}

func (st *builderState) rows() []rowRef {
	var out []rowRef
	for part := range 3 {
		for i := range st.group(part).Clauses {
			out = append(out, rowRef{part, i})
		}
	}
	return out
}

func (st *builderState) clause() *rulelang.Clause {
	rows := st.rows()
	if len(rows) == 0 {
		return nil
	}
	st.row = min(max(0, st.row), len(rows)-1)
	r := rows[st.row]
	return &st.group(r.part).Clauses[r.i]
}

// fields is how many fields the clause has: the argument and offset only
// where its test takes them.
func fields(c *rulelang.Clause) int {
	switch {
	case c.Op == rulelang.OpPlus:
		return 5
	case c.Op.NeedsValues(), c.Op.NeedsOther():
		return 4
	}
	return 3
}

func attribute(name string) rulelang.Attribute {
	as := wtr.Attributes()
	i, _ := as.Index(name)
	return as.At(i)
}

func cycle[T comparable](list []T, cur T, step int) T {
	i := 0
	for k, x := range list {
		if x == cur {
			i = k
		}
	}
	return list[((i+step)%len(list)+len(list))%len(list)]
}

// change moves the focused field one choice forward (step 1) or back (-1).
func (st *builderState) change(step int) {
	c := st.clause()
	if c == nil {
		return
	}
	switch st.field {
	case 0:
		c.Subject = cycle(rulelang.Subjects(), c.Subject, step)
	case 1:
		var names []string
		as := wtr.Attributes()
		for i := range as.Len() {
			names = append(names, as.At(i).Name)
		}
		c.Attr = cycle(names, c.Attr, step)
		a := attribute(c.Attr)
		c.Op = rulelang.Operators(a)[0]
		c.Values = []string{rulelang.Values(a)[0]}
		c.OtherAttr = ""
	case 2:
		c.Op = cycle(rulelang.Operators(attribute(c.Attr)), c.Op, step)
		if len(c.Values) == 0 {
			c.Values = []string{rulelang.Values(attribute(c.Attr))[0]}
		}
	case 3:
		switch {
		case c.Op.NeedsValues():
			cur := ""
			if len(c.Values) > 0 {
				cur = c.Values[0]
			}
			c.Values = []string{cycle(rulelang.Values(attribute(c.Attr)), cur, step)}
		case c.Op.NeedsOther():
			c.Other = cycle(rulelang.Subjects(), c.Other, step)
		}
	case 4:
		c.Offset = min(5, max(-5, c.Offset+step))
	}
}

func (st *builderState) add(part int) {
	g := st.group(part)
	g.Clauses = append(g.Clauses, newClause())
	for k, r := range st.rows() {
		if r.part == part && r.i == len(g.Clauses)-1 {
			st.row = k
		}
	}
	st.field = 0
}

func (st *builderState) remove() {
	rows := st.rows()
	if len(rows) == 0 {
		return
	}
	r := rows[min(st.row, len(rows)-1)]
	g := st.group(r.part)
	g.Clauses = append(g.Clauses[:r.i:r.i], g.Clauses[r.i+1:]...)
	st.row = max(0, st.row-1)
}

// help lists the builder's keys that do something where its cursor is
// (enter and esc are the board's).
func (st *builderState) help(km *KeyMap) []key.Binding {
	var ks []key.Binding
	if len(st.rows()) > 1 {
		ks = append(ks, widget.Pair(km.Up, km.Down, "↑/↓", "clause"))
	}
	if c := st.clause(); c != nil {
		if fields(c) > 1 {
			ks = append(ks, widget.Pair(km.Left, km.Right, "←/→", "field"))
		}
		ks = append(ks, widget.Pair(st.keys.Next, st.keys.Prev, "space/-", "change"))
	}
	ks = append(ks, key.NewBinding(key.WithKeys(slices.Concat(st.keys.AddIf.Keys(), st.keys.AddThen.Keys(), st.keys.AddElse.Keys())...),
		key.WithHelp("i/t/o", "add if/then/otherwise")))
	if st.clause() != nil {
		ks = append(ks, st.keys.Remove)
		if rows := st.rows(); len(st.group(rows[min(st.row, len(rows)-1)].part).Clauses) > 1 {
			ks = append(ks, st.keys.Join)
		}
	}
	return ks
}

// updateBuilder handles keys in the builder; enter sends the rule.
func (b *Board) updateBuilder(msg tea.KeyPressMsg) []byte {
	st := &b.bld
	switch {
	case key.Matches(msg, b.km.Cancel):
		b.mode, b.err = modeMain, ""
	case key.Matches(msg, b.km.ToTyping):
		// Type it instead, starting from what the clauses say.
		text, _ := st.rule.Text(wtr.Attributes())
		if b.bldGuess {
			b.open(modeGuess, "guess › ")
		} else {
			b.open(modeRule, "rule › ")
		}
		b.input.SetValue(text)
		return nil
	case key.Matches(msg, b.km.Up):
		st.row = max(0, st.row-1)
	case key.Matches(msg, b.km.Down):
		st.row = min(max(0, len(st.rows())-1), st.row+1)
	case key.Matches(msg, b.km.Left):
		st.field = max(0, st.field-1)
	case key.Matches(msg, b.km.Right):
		if c := st.clause(); c != nil {
			st.field = min(fields(c)-1, st.field+1)
		}
	case key.Matches(msg, st.keys.Next):
		st.change(1)
	case key.Matches(msg, st.keys.Prev):
		st.change(-1)
	case key.Matches(msg, st.keys.AddIf):
		st.add(0)
	case key.Matches(msg, st.keys.AddThen):
		st.add(1)
	case key.Matches(msg, st.keys.AddElse):
		st.add(2)
	case key.Matches(msg, st.keys.Remove):
		st.remove()
	case key.Matches(msg, st.keys.Join):
		if rows := st.rows(); len(rows) > 0 {
			g := st.group(rows[min(st.row, len(rows)-1)].part)
			g.Join = 1 - g.Join
		}
	case key.Matches(msg, b.km.Choose):
		text, err := st.rule.Text(wtr.Attributes())
		if err != nil {
			b.err = err.Error()
			return nil
		}
		if b.bldGuess {
			if _, err := wtr.ParseGuess(text); err != nil {
				b.err = err.Error()
				return nil
			}
			b.mode, b.err = modeMain, ""
			return wtr.GuessAction(text)
		}
		if _, err := b.check(text); err != nil {
			b.err = err.Error()
			return nil
		}
		b.mode, b.err = modeMain, ""
		return wtr.RuleAction(text)
	}
	if c := st.clause(); c != nil {
		st.field = min(st.field, fields(c)-1)
	}
	return nil
}

// builderView draws the clauses, the rule they make and its preview.
func (b *Board) builderView(w, h int) []string {
	st := &b.bld
	title := "Rule builder"
	if b.bldGuess {
		title = "Guess builder"
	}
	out := []string{" " + b.paint.Heading.Render(title) + b.paint.Dim.Render("  space/- change · i/t/o add · x remove · a and/or · tab type it")}
	rows := st.rows()
	st.clause() // clamps the row
	names := []string{"if", "then", "otherwise"}
	for k, r := range rows {
		c := st.group(r.part).Clauses[r.i]
		label := "    "
		if r.i == 0 {
			label = fmt.Sprintf("%-4s", names[r.part])
		} else if st.group(r.part).Join == rulelang.JoinAny {
			label = "  or"
		} else {
			label = " and"
		}
		parts := []string{c.Subject.Label() + "'s", c.Attr, c.Op.Label()}
		switch {
		case c.Op.NeedsValues():
			parts = append(parts, strings.Join(c.Values, ", "))
		case c.Op.NeedsOther():
			parts = append(parts, c.Other.Label()+"'s")
		}
		if c.Op == rulelang.OpPlus {
			parts = append(parts, fmt.Sprintf("%+d", c.Offset))
		}
		for i := range parts {
			if k == st.row && i == st.field {
				parts[i] = b.paint.Selected.Render("[" + parts[i] + "]")
			} else {
				parts[i] = " " + parts[i] + " "
			}
		}
		mark := "  "
		if k == st.row {
			mark = b.paint.Selected.Render("▸ ")
		}
		out = append(out, " "+mark+b.paint.Strong.Render(label)+" "+strings.Join(parts, ""))
	}
	if len(rows) == 0 {
		out = append(out, "   "+b.paint.Dim.Render("no clauses: add one with t"))
	}
	if b.err != "" {
		out = append(out, b.errorLines(b.err, w)...)
	}
	text, err := st.rule.Text(wtr.Attributes())
	if err != nil {
		return append(out, b.errorLines(err.Error(), w)...)
	}
	out = append(out, " "+b.paint.Dim.Render("→ ")+textsafe.Cut(text, 300))
	var rule *rulelang.Rule
	if b.bldGuess {
		rule, err = wtr.ParseGuess(text)
	} else {
		rule, err = b.check(text)
	}
	if err != nil {
		return append(out, b.errorLines(err.Error(), w)...)
	}
	eng := wrap(b.paint.Good.Render("✓ ")+textsafe.Cut(rule.English(), 300), w-1, " ")
	out = append(out, eng[:min(2, len(eng))]...)
	if len(out)+7 <= h {
		out = append(out, b.previewLines(rule.Accepts)...)
	}
	return out
}
