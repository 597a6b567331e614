package rulelang

import (
	"strconv"
	"strings"
)

// Precedence levels, loosest first. A node printed where a tighter level is
// required gets parentheses.
const (
	precIf = iota + 1
	precOr
	precAnd
	precNot
	precCmp
	precSum
	precMod
	precUnary
	precPrimary
)

func prec(e *expr) int {
	switch e.op {
	case xIf:
		return precIf
	case xOr:
		return precOr
	case xAnd:
		return precAnd
	case xNot:
		if e.kids[0].op == xIn {
			return precCmp // printed as "x not in {…}"
		}
		return precNot
	case xCmp, xIn:
		return precCmp
	case xAdd, xSub:
		return precSum
	case xMod:
		return precMod
	case xNeg:
		return precUnary
	case xNum:
		if e.num < 0 {
			return precUnary
		}
	}
	return precPrimary
}

// printer writes the canonical form of a rule: lower case, single spaces,
// card. left out, sets sorted, only the parentheses that are needed.
type printer struct {
	as *Attributes
	b  strings.Builder
}

func (p *printer) print(e *expr, need int) {
	if prec(e) < need {
		p.b.WriteByte('(')
		p.print(e, precIf)
		p.b.WriteByte(')')
		return
	}
	switch e.op {
	case xNum:
		p.b.WriteString(strconv.Itoa(e.num))
	case xName:
		p.b.WriteString(e.name)
	case xBool:
		if e.num != 0 {
			p.b.WriteString("true")
		} else {
			p.b.WriteString("false")
		}
	case xAttr:
		p.b.WriteString(slotPrefix(e.slot))
		p.b.WriteString(p.as.list[e.attr].Name)
	case xN:
		p.b.WriteString("n")
	case xNeg:
		p.b.WriteByte('-')
		p.print(e.kids[0], precUnary)
	case xAdd, xSub:
		p.print(e.kids[0], precSum)
		if e.op == xAdd {
			p.b.WriteString(" + ")
		} else {
			p.b.WriteString(" - ")
		}
		p.print(e.kids[1], precMod)
	case xMod:
		p.print(e.kids[0], precMod)
		p.b.WriteString(" % ")
		p.b.WriteString(strconv.Itoa(e.num))
	case xNext, xEven, xOdd:
		p.b.WriteString(map[opKind]string{xNext: "next", xEven: "even", xOdd: "odd"}[e.op])
		p.b.WriteByte('(')
		p.print(e.kids[0], precIf)
		p.b.WriteByte(')')
	case xCmp:
		p.print(e.kids[0], precSum)
		p.b.WriteString(" " + e.cmp + " ")
		p.print(e.kids[1], precSum)
	case xIn:
		p.printIn(e, " in ")
	case xNot:
		if e.kids[0].op == xIn {
			p.printIn(e.kids[0], " not in ")
			return
		}
		p.b.WriteString("not ")
		p.print(e.kids[0], precNot)
	case xAnd, xOr:
		sep := " and "
		if e.op == xOr {
			sep = " or "
		}
		for i, k := range e.kids {
			if i > 0 {
				p.b.WriteString(sep)
			}
			p.print(k, prec(e)+1)
		}
	case xIf:
		p.b.WriteString("if ")
		p.print(e.kids[0], precOr)
		p.b.WriteString(" then ")
		p.print(e.kids[1], precOr)
		if len(e.kids) == 3 {
			p.b.WriteString(" else ")
			p.print(e.kids[2], precIf)
		}
	}
}

func (p *printer) printIn(e *expr, word string) {
	p.print(e.kids[0], precSum)
	p.b.WriteString(word)
	p.b.WriteByte('{')
	for i, s := range e.set {
		if i > 0 {
			p.b.WriteString(", ")
		}
		p.print(s, precUnary)
	}
	p.b.WriteByte('}')
}

func slotPrefix(slot int) string {
	switch slot {
	case 1:
		return "prev."
	case 2:
		return "prev2."
	case 3:
		return "prev3."
	}
	return ""
}

func canonical(as *Attributes, e *expr) string {
	p := printer{as: as}
	p.print(e, precIf)
	return p.b.String()
}
