package rulelang

import (
	"strconv"
	"strings"
)

// English renders the rule in plain English for an on-screen rule card, e.g.
// "If the previous card's background colour is yellow, blue or red, then the
// background colour is different from the previous card's background colour."
// "The card" is the card being played.
func (r *Rule) English() string {
	w := englishWriter{as: r.as}
	e := r.root
	if e.op == xIf {
		s := "If " + w.clause(e.kids[0], true) + ", then " + w.clause(e.kids[1], true)
		if len(e.kids) == 3 {
			s += "; otherwise " + w.clause(e.kids[2], true)
		}
		return s + "."
	}
	s := w.clause(e, true)
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

type englishWriter struct{ as *Attributes }

func subject(slot int) string {
	switch slot {
	case 1:
		return "the previous card"
	case 2:
		return "the card two back"
	case 3:
		return "the card three back"
	}
	return "the card"
}

// clause renders a condition. top is false inside and/or, where a nested
// and/or/if gets brackets so the sentence stays unambiguous.
func (w englishWriter) clause(e *expr, top bool) string {
	switch e.op {
	case xBool:
		if e.num != 0 {
			return "any card may be played"
		}
		return "no card may be played"
	case xAttr:
		return subject(e.slot) + " is " + w.boolWord(e.attr, true)
	case xEven:
		return w.noun(e.kids[0]) + " is even"
	case xOdd:
		return w.noun(e.kids[0]) + " is odd"
	case xCmp:
		return w.comparison(e, top)
	case xIn:
		return w.noun(e.kids[0]) + " is " + w.list(e)
	case xNot:
		k := e.kids[0]
		switch k.op {
		case xAttr:
			return subject(k.slot) + " is " + w.boolWord(k.attr, false)
		case xIn:
			return w.noun(k.kids[0]) + " is " + w.noneOf(k)
		case xCmp:
			neg := map[string]string{"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}[k.cmp]
			return w.comparison(&expr{op: xCmp, cmp: neg, kids: k.kids, isB: true}, top)
		case xEven:
			return w.noun(k.kids[0]) + " is odd"
		case xOdd:
			return w.noun(k.kids[0]) + " is even"
		}
		return "it is not the case that " + w.clause(k, false)
	case xAnd, xOr:
		parts := make([]string, len(e.kids))
		for i, k := range e.kids {
			parts[i] = w.clause(k, false)
		}
		word := " and "
		if e.op == xOr {
			word = " or "
		}
		s := strings.Join(parts[:len(parts)-1], ", ") + word + parts[len(parts)-1]
		if !top {
			s = "(" + s + ")"
		}
		return s
	case xIf:
		s := "if " + w.clause(e.kids[0], false) + " then " + w.clause(e.kids[1], false)
		if len(e.kids) == 3 {
			s += ", otherwise " + w.clause(e.kids[2], false)
		}
		if !top {
			s = "(" + s + ")"
		}
		return s
	}
	return w.noun(e)
}

func (w englishWriter) boolWord(attr int, v bool) string {
	a := &w.as.list[attr]
	if len(a.Names) == 2 {
		if v {
			return a.Names[1]
		}
		return a.Names[0]
	}
	if v {
		return a.Name
	}
	return "not " + a.Name
}

func (w englishWriter) comparison(e *expr, top bool) string {
	l, r := e.kids[0], e.kids[1]
	if l.isB {
		if (l.op == xBool) != (r.op == xBool) {
			// "filled == true" says "the card is filled", not "the filling
			// matches true"; "== false" and "!= true" say its opposite.
			other, lit := l, r
			if l.op == xBool {
				other, lit = r, l
			}
			if (e.cmp == "==") == (lit.num != 0) {
				return w.clause(other, top)
			}
			return w.clause(&expr{op: xNot, kids: []*expr{other}, isB: true}, top)
		}
		same := e.cmp == "=="
		verb := " matches "
		if !same {
			verb = " differs from "
		}
		return w.boolNoun(l) + verb + w.boolNoun(r)
	}
	constant := isConst(r) || r.op == xNext
	var verb string
	switch e.cmp {
	case "==":
		verb = " is the same as "
		if constant {
			verb = " is "
		}
	case "!=":
		verb = " is different from "
		if constant {
			verb = " is not "
		}
	case "<":
		verb = " is less than "
	case "<=":
		verb = " is at most "
	case ">":
		verb = " is greater than "
	default:
		verb = " is at least "
	}
	return w.noun(l) + verb + w.noun(r)
}

// boolNoun names a condition used as a value ("the filling", "whether the count is even").
func (w englishWriter) boolNoun(e *expr) string {
	switch e.op {
	case xAttr:
		return w.attrNoun(e.slot, e.attr)
	case xBool:
		if e.num != 0 {
			return "true"
		}
		return "false"
	}
	return "whether " + w.clause(e, false)
}

func (w englishWriter) attrNoun(slot, attr int) string {
	noun := w.as.list[attr].Noun
	switch slot {
	case 1:
		return "the previous card's " + noun
	case 2:
		return "the " + noun + " two cards back"
	case 3:
		return "the " + noun + " three cards back"
	}
	return "the " + noun
}

func (w englishWriter) noun(e *expr) string {
	switch e.op {
	case xNum:
		return strconv.Itoa(e.num)
	case xName:
		return e.name
	case xAttr:
		return w.attrNoun(e.slot, e.attr)
	case xN:
		return "the card's position in the line"
	case xNeg:
		return "minus " + w.operand(e.kids[0])
	case xAdd:
		return w.noun(e.kids[0]) + " plus " + w.operand(e.kids[1])
	case xSub:
		return w.noun(e.kids[0]) + " minus " + w.operand(e.kids[1])
	case xMod:
		return "the remainder of " + w.noun(e.kids[0]) + " divided by " + strconv.Itoa(e.num)
	case xNext:
		return "the next " + w.as.list[e.dom].Noun + " after " + w.noun(e.kids[0])
	}
	return w.boolNoun(e)
}

// operand names a value that follows "plus", "minus" or "minus" as a
// sign. Sums read left to right, so a sum there is bracketed: "the number
// minus (the size plus 1)" is not "the number minus the size plus 1".
func (w englishWriter) operand(e *expr) string {
	if e.op == xAdd || e.op == xSub {
		return "(" + w.noun(e) + ")"
	}
	return w.noun(e)
}

// list writes the values of a set: "yellow, blue or red".
func (w englishWriter) list(e *expr) string {
	parts := make([]string, len(e.set))
	for i, s := range e.set {
		parts[i] = literalText(s)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// noneOf writes a set negated: "not 1", "neither 1 nor 2", "none of 1, 2 or 3".
func (w englishWriter) noneOf(e *expr) string {
	switch len(e.set) {
	case 1:
		return "not " + w.list(e)
	case 2:
		return "neither " + literalText(e.set[0]) + " nor " + literalText(e.set[1])
	}
	return "none of " + w.list(e)
}
