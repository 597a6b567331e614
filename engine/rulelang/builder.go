package rulelang

import (
	"fmt"
	"strings"
)

// This file is the rule builder: plain data that the screens of both games
// draw as menus (pick a card, an attribute, an operator, values; combine
// clauses), and that turns into rule-language text. It holds no UI code.

// Subject is the card of the line a clause looks at.
type Subject int

// The cards a clause can look at.
const (
	SubjectCard  Subject = iota // the card being played
	SubjectPrev                 // the last card of the valid line
	SubjectPrev2                // the one before it
	SubjectPrev3                // the one before that
)

// Subjects lists the subjects in menu order.
func Subjects() []Subject { return []Subject{SubjectCard, SubjectPrev, SubjectPrev2, SubjectPrev3} }

// Label is the subject's menu text.
func (s Subject) Label() string {
	switch s {
	case SubjectPrev:
		return "previous card"
	case SubjectPrev2:
		return "card two back"
	case SubjectPrev3:
		return "card three back"
	}
	return "this card"
}

func (s Subject) prefix() string { return slotPrefix(int(s)) }

func (s Subject) valid() bool { return s >= SubjectCard && s <= SubjectPrev3 }

// Operator is what a clause says about an attribute.
type Operator int

// The operators of the builder.
const (
	OpIs            Operator = iota // is one of Values
	OpIsNot                         // is none of Values
	OpSameAs                        // equals the attribute of Other
	OpDifferentFrom                 // differs from the attribute of Other
	OpNextAfter                     // is the next value after Other's (cyclic)
	OpPlus                          // equals Other's plus Offset (numbers)
	OpLess                          // is less than Values[0]
	OpAtMost                        // is at most Values[0]
	OpGreater                       // is greater than Values[0]
	OpAtLeast                       // is at least Values[0]
	OpEven                          // is even
	OpOdd                           // is odd
	OpYes                           // a true/false attribute holds (e.g. filled)
	OpNo                            // a true/false attribute does not hold (unfilled)
)

// Label is the operator's menu text.
func (o Operator) Label() string {
	switch o {
	case OpIs:
		return "is"
	case OpIsNot:
		return "is not"
	case OpSameAs:
		return "is the same as on"
	case OpDifferentFrom:
		return "is different from"
	case OpNextAfter:
		return "is the next after"
	case OpPlus:
		return "equals, plus an offset,"
	case OpLess:
		return "is less than"
	case OpAtMost:
		return "is at most"
	case OpGreater:
		return "is greater than"
	case OpAtLeast:
		return "is at least"
	case OpEven:
		return "is even"
	case OpOdd:
		return "is odd"
	case OpYes:
		return "is true"
	case OpNo:
		return "is false"
	}
	return "?"
}

// NeedsValues reports whether the operator takes values (Values: one or
// more for OpIs and OpIsNot, exactly one for the order operators).
func (o Operator) NeedsValues() bool {
	switch o {
	case OpIs, OpIsNot, OpLess, OpAtMost, OpGreater, OpAtLeast:
		return true
	}
	return false
}

// NeedsOther reports whether the operator compares with another card.
func (o Operator) NeedsOther() bool {
	switch o {
	case OpSameAs, OpDifferentFrom, OpNextAfter, OpPlus:
		return true
	}
	return false
}

// Operators lists the operators that make sense for attribute a, in menu order.
func Operators(a Attribute) []Operator {
	switch a.Kind {
	case KindBool:
		return []Operator{OpYes, OpNo, OpSameAs, OpDifferentFrom}
	case KindEnum:
		return []Operator{OpIs, OpIsNot, OpSameAs, OpDifferentFrom, OpNextAfter}
	}
	return []Operator{OpIs, OpIsNot, OpLess, OpAtMost, OpGreater, OpAtLeast, OpEven, OpOdd,
		OpSameAs, OpDifferentFrom, OpNextAfter, OpPlus}
}

// Values lists the values of attribute a as the language writes them, in
// order: names where it has them, otherwise numbers.
func Values(a Attribute) []string {
	if a.Kind == KindBool {
		return []string{"false", "true"}
	}
	out := make([]string, 0, a.size())
	for v := a.Min; v <= a.Max; v++ {
		out = append(out, a.valueName(v))
	}
	return out
}

// Clause is one statement about one attribute of one card.
type Clause struct {
	Subject Subject
	Attr    string   // attribute name
	Op      Operator //
	Values  []string // for operators that take values
	Other   Subject  // for operators that compare with another card
	// OtherAttr is the attribute of Other to compare with; empty means Attr.
	// Only like with like: "ncolor" with "bg", "count" with "count".
	OtherAttr string
	Offset    int // for OpPlus
}

// Join says how the clauses of a group combine.
type Join int

// The two ways to combine clauses.
const (
	JoinAll Join = iota // every clause holds
	JoinAny             // at least one clause holds
)

// Group is clauses combined one way.
type Group struct {
	Join    Join
	Clauses []Clause
}

// Builder is a rule as the builder screens edit it: an optional condition,
// what must hold when it does (or always, without a condition), and
// optionally what must hold otherwise.
type Builder struct {
	If   Group
	Then Group
	Else Group
}

// BuildError is a builder state that does not make a rule yet. Part names
// the place ("then, clause 2") so a screen can point at it.
type BuildError struct {
	Part string
	Msg  string
}

// Error says which part of the builder is incomplete and why.
func (e *BuildError) Error() string { return e.Part + ": " + e.Msg }

// Text writes the builder's rule in the rule language.
func (b Builder) Text(as *Attributes) (string, error) {
	if len(b.Then.Clauses) == 0 {
		return "", &BuildError{Part: "then", Msg: "choose at least one clause"}
	}
	then, err := b.Then.text(as, "then")
	if err != nil {
		return "", err
	}
	if len(b.If.Clauses) == 0 {
		if len(b.Else.Clauses) != 0 {
			return "", &BuildError{Part: "otherwise", Msg: "an otherwise part needs an if part"}
		}
		return then, nil
	}
	cond, err := b.If.text(as, "if")
	if err != nil {
		return "", err
	}
	s := "if " + cond + " then " + parenIfAny(b.Then, then)
	if len(b.Else.Clauses) != 0 {
		els, err := b.Else.text(as, "otherwise")
		if err != nil {
			return "", err
		}
		s += " else " + els
	}
	return s, nil
}

// parenIfAny brackets an "or" group used as a then-branch, which keeps the
// text readable (the language would not need it).
func parenIfAny(g Group, s string) string {
	if g.Join == JoinAny && len(g.Clauses) > 1 {
		return "(" + s + ")"
	}
	return s
}

// Rule builds and parses the rule.
func (b Builder) Rule(as *Attributes) (*Rule, error) {
	s, err := b.Text(as)
	if err != nil {
		return nil, err
	}
	r, err := Parse(as, s)
	if err != nil {
		return nil, fmt.Errorf("rulelang: builder made %q: %w", s, err)
	}
	return r, nil
}

func (g Group) text(as *Attributes, part string) (string, error) {
	parts := make([]string, len(g.Clauses))
	for i, c := range g.Clauses {
		s, err := c.text(as)
		if err != nil {
			return "", &BuildError{Part: fmt.Sprintf("%s, clause %d", part, i+1), Msg: err.Error()}
		}
		parts[i] = s
	}
	join := " and "
	if g.Join == JoinAny {
		join = " or "
	}
	return strings.Join(parts, join), nil
}

func (c Clause) text(as *Attributes) (string, error) {
	i, ok := as.Index(c.Attr)
	if !ok {
		return "", fmt.Errorf("choose an attribute")
	}
	a := &as.list[i]
	if !c.Subject.valid() {
		return "", fmt.Errorf("choose a card")
	}
	allowed := false
	for _, o := range Operators(*a) {
		allowed = allowed || o == c.Op
	}
	if !allowed {
		return "", fmt.Errorf("%q does not apply to %s", c.Op.Label(), a.Name)
	}
	lhs := c.Subject.prefix() + a.Name
	otherAttr := a.Name
	if c.Op.NeedsOther() {
		if c.OtherAttr != "" {
			j, ok := as.Index(c.OtherAttr)
			if !ok {
				return "", fmt.Errorf("choose an attribute to compare with")
			}
			otherAttr = as.list[j].Name
		}
		if !c.Other.valid() || (c.Other == c.Subject && otherAttr == a.Name) {
			return "", fmt.Errorf("choose another card to compare with")
		}
	}
	if c.Op.NeedsValues() {
		if len(c.Values) == 0 {
			return "", fmt.Errorf("choose a value")
		}
		for _, v := range c.Values {
			if _, err := a.parseValue(v); err != nil {
				return "", fmt.Errorf("%q is not a value of %s", v, a.Name)
			}
		}
		if c.Op != OpIs && c.Op != OpIsNot && len(c.Values) != 1 {
			return "", fmt.Errorf("choose exactly one value")
		}
	}
	other := c.Other.prefix() + otherAttr
	switch c.Op {
	case OpIs, OpIsNot:
		if len(c.Values) == 1 {
			return lhs + map[Operator]string{OpIs: " == ", OpIsNot: " != "}[c.Op] + c.Values[0], nil
		}
		word := " in {"
		if c.Op == OpIsNot {
			word = " not in {"
		}
		return lhs + word + strings.Join(c.Values, ", ") + "}", nil
	case OpLess, OpAtMost, OpGreater, OpAtLeast:
		op := map[Operator]string{OpLess: " < ", OpAtMost: " <= ", OpGreater: " > ", OpAtLeast: " >= "}[c.Op]
		return lhs + op + c.Values[0], nil
	case OpSameAs:
		return lhs + " == " + other, nil
	case OpDifferentFrom:
		return lhs + " != " + other, nil
	case OpNextAfter:
		return lhs + " == next(" + other + ")", nil
	case OpPlus:
		if c.Offset < -maxLiteral || c.Offset > maxLiteral {
			return "", fmt.Errorf("the offset must be between %d and %d", -maxLiteral, maxLiteral)
		}
		switch {
		case c.Offset > 0:
			return fmt.Sprintf("%s == %s + %d", lhs, other, c.Offset), nil
		case c.Offset < 0:
			return fmt.Sprintf("%s == %s - %d", lhs, other, -c.Offset), nil
		}
		return lhs + " == " + other, nil
	case OpEven:
		return "even(" + lhs + ")", nil
	case OpOdd:
		return "odd(" + lhs + ")", nil
	case OpYes:
		return lhs, nil
	case OpNo:
		return "not " + lhs, nil
	}
	return "", fmt.Errorf("choose an operator")
}

// BuilderFromRule loads a rule into the builder so a screen can show or edit
// it. It reports false when the rule uses more than the builder can express
// (nested conditions, arithmetic beyond an offset, n); such rules are still
// shown as text.
func BuilderFromRule(r *Rule) (Builder, bool) {
	var b Builder
	e := r.root
	ok := true
	if e.op == xIf {
		b.If, ok = groupFrom(r.as, e.kids[0])
		if !ok {
			return Builder{}, false
		}
		b.Then, ok = groupFrom(r.as, e.kids[1])
		if ok && len(e.kids) == 3 {
			b.Else, ok = groupFrom(r.as, e.kids[2])
		}
	} else {
		b.Then, ok = groupFrom(r.as, e)
	}
	if !ok {
		return Builder{}, false
	}
	return b, true
}

func groupFrom(as *Attributes, e *expr) (Group, bool) {
	g := Group{}
	kids := []*expr{e}
	switch e.op {
	case xAnd:
		kids = e.kids
	case xOr:
		g.Join, kids = JoinAny, e.kids
	}
	for _, k := range kids {
		c, ok := clauseFrom(as, k)
		if !ok {
			return Group{}, false
		}
		g.Clauses = append(g.Clauses, c)
	}
	return g, true
}

func literalText(e *expr) string {
	if e.op == xName {
		return e.name
	}
	return fmt.Sprint(e.num)
}

func setValues(e *expr) []string {
	out := make([]string, len(e.set))
	for i, s := range e.set {
		out[i] = literalText(s)
	}
	return out
}

func clauseFrom(as *Attributes, e *expr) (Clause, bool) {
	switch e.op {
	case xAttr:
		return Clause{Subject: Subject(e.slot), Attr: as.list[e.attr].Name, Op: OpYes}, true
	case xIn:
		if l := e.kids[0]; l.op == xAttr {
			return Clause{Subject: Subject(l.slot), Attr: as.list[l.attr].Name, Op: OpIs, Values: setValues(e)}, true
		}
	case xNot:
		k := e.kids[0]
		if k.op == xAttr {
			return Clause{Subject: Subject(k.slot), Attr: as.list[k.attr].Name, Op: OpNo}, true
		}
		if k.op == xIn && k.kids[0].op == xAttr {
			l := k.kids[0]
			return Clause{Subject: Subject(l.slot), Attr: as.list[l.attr].Name, Op: OpIsNot, Values: setValues(k)}, true
		}
	case xEven, xOdd:
		if k := e.kids[0]; k.op == xAttr {
			op := OpEven
			if e.op == xOdd {
				op = OpOdd
			}
			return Clause{Subject: Subject(k.slot), Attr: as.list[k.attr].Name, Op: op}, true
		}
	case xCmp:
		return cmpClauseFrom(as, e)
	}
	return Clause{}, false
}

func cmpClauseFrom(as *Attributes, e *expr) (Clause, bool) {
	l, r := e.kids[0], e.kids[1]
	if l.op != xAttr {
		return Clause{}, false
	}
	c := Clause{Subject: Subject(l.slot), Attr: as.list[l.attr].Name}
	sameAttr := func(x *expr) bool {
		if x.op != xAttr || (x.attr == l.attr && x.slot == l.slot) {
			return false
		}
		if x.attr != l.attr {
			c.OtherAttr = as.list[x.attr].Name
		}
		return true
	}
	switch {
	case isConst(r):
		ops := map[string]Operator{"==": OpIs, "!=": OpIsNot, "<": OpLess, "<=": OpAtMost, ">": OpGreater, ">=": OpAtLeast}
		c.Op, c.Values = ops[e.cmp], []string{literalText(r)}
		return c, true
	case sameAttr(r) && (e.cmp == "==" || e.cmp == "!="):
		c.Op, c.Other = OpSameAs, Subject(r.slot)
		if e.cmp == "!=" {
			c.Op = OpDifferentFrom
		}
		return c, true
	case e.cmp == "==" && r.op == xNext && sameAttr(r.kids[0]):
		c.Op, c.Other = OpNextAfter, Subject(r.kids[0].slot)
		return c, true
	case e.cmp == "==" && (r.op == xAdd || r.op == xSub) && sameAttr(r.kids[0]) && r.kids[1].op == xNum:
		c.Op, c.Other, c.Offset = OpPlus, Subject(r.kids[0].slot), r.kids[1].num
		if r.op == xSub {
			c.Offset = -c.Offset
		}
		return c, true
	}
	return Clause{}, false
}
