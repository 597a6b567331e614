package rulelang

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// opKind is the kind of an expression node.
type opKind uint8

const (
	xNum  opKind = iota // number literal
	xName               // value name such as circle; resolved by check
	xBool               // true or false
	xAttr               // slot.attr
	xN                  // n, the position the candidate would take
	xNeg                // -x
	xAdd                // a + b
	xSub                // a - b
	xMod                // a % m
	xNext               // next(x)
	xEven               // even(x)
	xOdd                // odd(x)
	xCmp                // a op b
	xIn                 // x in {…}
	xNot                // not a
	xAnd                // a and b and …
	xOr                 // a or b or …
	xIf                 // if c then a [else b]
)

// domPlain is the domain of plain numbers (literals, n, arithmetic).
const domPlain = -1

// expr is one node of a rule's syntax tree. After check every node has its
// type: boolean, or a value in a domain (an attribute index or domPlain).
type expr struct {
	op    opKind
	cmp   string // comparison operator for xCmp
	num   int    // literal value (xNum, xName after resolution, xBool 0/1, xMod modulus)
	name  string // value name as written (xName)
	slot  int    // 0 card, 1 prev, 2 prev2, 3 prev3 (xAttr)
	attr  int    // attribute index (xAttr)
	kids  []*expr
	set   []*expr // literals of xIn
	col   int
	isB   bool // boolean-typed
	dom   int  // domain of a value
	known bool // type resolved
}

// parser turns tokens into a syntax tree.
type parser struct {
	as    *Attributes
	toks  []token
	pos   int
	depth int
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tEOF {
		p.pos++
	}
	return t
}

func (p *parser) isWord(w string) bool {
	t := p.peek()
	return t.kind == tIdent && t.text == w
}

func (p *parser) isOp(o string) bool {
	t := p.peek()
	return t.kind == tOp && t.text == o
}

func (p *parser) expect(o, what string) error {
	if p.isOp(o) {
		p.next()
		return nil
	}
	t := p.peek()
	return errAt(t.col, "expected %s, found %s", what, t.describe())
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return errAt(p.peek().col, "the rule is nested too deeply")
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// parseIf: if c then a [else b] | or-expression.
func (p *parser) parseIf() (*expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	if !p.isWord("if") {
		return p.parseOr()
	}
	col := p.next().col
	cond, err := p.parseIf()
	if err != nil {
		return nil, err
	}
	p.skipComma()
	if !p.isWord("then") {
		t := p.peek()
		return nil, errAt(t.col, "expected 'then' after the condition of 'if', found %s", t.describe())
	}
	p.next()
	then, err := p.parseIf()
	if err != nil {
		return nil, err
	}
	e := &expr{op: xIf, kids: []*expr{cond, then}, col: col}
	p.skipComma()
	if p.isWord("else") || p.isWord("otherwise") {
		p.next()
		els, err := p.parseIf()
		if err != nil {
			return nil, err
		}
		e.kids = append(e.kids, els)
	}
	return e, nil
}

// skipComma allows "if x, then y, else z".
func (p *parser) skipComma() {
	if p.isOp(",") {
		p.next()
	}
}

func (p *parser) parseOr() (*expr, error) {
	first, err := p.parseAnd()
	if err != nil {
		return nil, err
	}
	if !p.isWord("or") {
		return first, nil
	}
	e := &expr{op: xOr, kids: []*expr{first}, col: first.col}
	for p.isWord("or") {
		p.next()
		k, err := p.parseAnd()
		if err != nil {
			return nil, err
		}
		e.kids = append(e.kids, k)
	}
	return e, nil
}

func (p *parser) parseAnd() (*expr, error) {
	first, err := p.parseNot()
	if err != nil {
		return nil, err
	}
	if !p.isWord("and") {
		return first, nil
	}
	e := &expr{op: xAnd, kids: []*expr{first}, col: first.col}
	for p.isWord("and") {
		p.next()
		k, err := p.parseNot()
		if err != nil {
			return nil, err
		}
		e.kids = append(e.kids, k)
	}
	return e, nil
}

func (p *parser) parseNot() (*expr, error) {
	if !p.isWord("not") {
		return p.parseCmp()
	}
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	col := p.next().col
	k, err := p.parseNot()
	if err != nil {
		return nil, err
	}
	return &expr{op: xNot, kids: []*expr{k}, col: col}, nil
}

func isCmpOp(s string) bool {
	switch s {
	case "==", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

func (p *parser) parseCmp() (*expr, error) {
	l, err := p.parseSum()
	if err != nil {
		return nil, err
	}
	t := p.peek()
	switch {
	case t.kind == tOp && isCmpOp(t.text):
		p.next()
		r, err := p.parseSum()
		if err != nil {
			return nil, err
		}
		return &expr{op: xCmp, cmp: t.text, kids: []*expr{l, r}, col: t.col}, nil
	case p.isWord("in"):
		p.next()
		return p.parseSet(l, t.col)
	case p.isWord("not"):
		p.next()
		if !p.isWord("in") {
			t2 := p.peek()
			return nil, errAt(t2.col, "expected 'in' after 'not' here, found %s", t2.describe())
		}
		p.next()
		in, err := p.parseSet(l, t.col)
		if err != nil {
			return nil, err
		}
		return &expr{op: xNot, kids: []*expr{in}, col: t.col}, nil
	}
	return l, nil
}

func (p *parser) parseSet(l *expr, col int) (*expr, error) {
	if err := p.expect("{", "'{' to start a set of values"); err != nil {
		return nil, err
	}
	e := &expr{op: xIn, kids: []*expr{l}, col: col}
	for {
		t := p.next()
		switch {
		case t.kind == tNumber:
			e.set = append(e.set, &expr{op: xNum, num: t.num, col: t.col})
		case t.kind == tOp && t.text == "-" && p.peek().kind == tNumber:
			nt := p.next()
			e.set = append(e.set, &expr{op: xNum, num: -nt.num, col: t.col})
		case t.kind == tIdent && !isKeyword(t.text) && !isSlot(t.text):
			e.set = append(e.set, &expr{op: xName, name: t.text, col: t.col})
		default:
			return nil, errAt(t.col, "expected a value in the set, found %s", t.describe())
		}
		if len(e.set) > 64 {
			return nil, errAt(t.col, "a set may hold at most 64 values")
		}
		if p.isOp(",") {
			p.next()
			continue
		}
		if err := p.expect("}", "',' or '}' in the set"); err != nil {
			return nil, err
		}
		return e, nil
	}
}

func (p *parser) parseSum() (*expr, error) {
	l, err := p.parseTerm()
	if err != nil {
		return nil, err
	}
	for p.isOp("+") || p.isOp("-") {
		t := p.next()
		r, err := p.parseTerm()
		if err != nil {
			return nil, err
		}
		op := xAdd
		if t.text == "-" {
			op = xSub
		}
		l = &expr{op: op, kids: []*expr{l, r}, col: t.col}
	}
	return l, nil
}

func (p *parser) parseTerm() (*expr, error) {
	l, err := p.parseUnary()
	if err != nil {
		return nil, err
	}
	for p.isOp("%") {
		t := p.next()
		m := p.peek()
		if m.kind != tNumber || m.num < 1 {
			return nil, errAt(m.col, "expected a whole number from 1 to %d after '%%', found %s", maxLiteral, m.describe())
		}
		p.next()
		l = &expr{op: xMod, num: m.num, kids: []*expr{l}, col: t.col}
	}
	return l, nil
}

func (p *parser) parseUnary() (*expr, error) {
	if !p.isOp("-") {
		return p.parsePrimary()
	}
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	col := p.next().col
	if t := p.peek(); t.kind == tNumber {
		p.next()
		return &expr{op: xNum, num: -t.num, col: col}, nil
	}
	k, err := p.parseUnary()
	if err != nil {
		return nil, err
	}
	if k.op == xNum { // "--3" is the literal 3, so printing stays stable
		return &expr{op: xNum, num: -k.num, col: col}, nil
	}
	return &expr{op: xNeg, kids: []*expr{k}, col: col}, nil
}

func (p *parser) attrList() string {
	names := make([]string, len(p.as.list))
	for i := range p.as.list {
		names[i] = p.as.list[i].Name
	}
	return strings.Join(names, ", ")
}

func (p *parser) parsePrimary() (*expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	t := p.next()
	switch t.kind {
	case tNumber:
		return &expr{op: xNum, num: t.num, col: t.col}, nil
	case tOp:
		if t.text == "(" {
			e, err := p.parseIf()
			if err != nil {
				return nil, err
			}
			if err := p.expect(")", "')'"); err != nil {
				return nil, err
			}
			return e, nil
		}
		return nil, errAt(t.col, "expected a value or a condition, found %s", t.describe())
	case tEOF:
		return nil, errAt(t.col, "expected a value or a condition, found the end of the rule")
	}
	w := t.text
	switch w {
	case "true", "false":
		e := &expr{op: xBool, col: t.col}
		if w == "true" {
			e.num = 1
		}
		return e, nil
	case "n":
		return &expr{op: xN, col: t.col}, nil
	case "even", "odd", "next":
		if err := p.expect("(", fmt.Sprintf("'(' after %s", w)); err != nil {
			return nil, err
		}
		k, err := p.parseIf()
		if err != nil {
			return nil, err
		}
		if err := p.expect(")", "')'"); err != nil {
			return nil, err
		}
		op := map[string]opKind{"even": xEven, "odd": xOdd, "next": xNext}[w]
		return &expr{op: op, kids: []*expr{k}, col: t.col}, nil
	}
	if slot, ok := slotOf(w); ok {
		if err := p.expect(".", fmt.Sprintf("'.' and an attribute after %s (such as %s.%s)", w, w, p.as.list[0].Name)); err != nil {
			return nil, err
		}
		a := p.next()
		i, ok := p.as.Index(a.text)
		if a.kind != tIdent || !ok {
			return nil, errAt(a.col, "expected an attribute (%s) after '%s.', found %s", p.attrList(), w, a.describe())
		}
		return &expr{op: xAttr, slot: slot, attr: i, col: t.col}, nil
	}
	if isKeyword(w) {
		return nil, errAt(t.col, "expected a value or a condition, found %q", w)
	}
	if i, ok := p.as.Index(w); ok {
		return &expr{op: xAttr, slot: 0, attr: i, col: t.col}, nil
	}
	for i := range p.as.list {
		if _, ok := p.as.list[i].lookupValue(w); ok {
			return &expr{op: xName, name: w, col: t.col}, nil
		}
	}
	return nil, errAt(t.col, "unknown word %q: expected an attribute (%s), a value, n, or a keyword", w, p.attrList())
}

// parse parses and checks a rule.
func parse(as *Attributes, src string) (*expr, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{as: as, toks: toks}
	if p.peek().kind == tEOF {
		return nil, errAt(1, "the rule is empty: expected a condition such as %s", exampleFor(as))
	}
	e, err := p.parseIf()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, errAt(t.col, "expected 'and', 'or' or the end of the rule, found %s", t.describe())
	}
	c := checker{as: as}
	if err := c.cond(e); err != nil {
		return nil, err
	}
	return e, nil
}

func exampleFor(as *Attributes) string {
	a := &as.list[0]
	return fmt.Sprintf("%q", a.Name+" != prev."+a.Name)
}

// checker gives every node its type and resolves value names.
type checker struct{ as *Attributes }

func (c *checker) attr(dom int) *Attribute { return &c.as.list[dom] }

func (c *checker) domName(dom int) string {
	if dom == domPlain {
		return "a number"
	}
	return c.attr(dom).Name
}

// cond checks that e is a condition (boolean).
func (c *checker) cond(e *expr) error {
	if err := c.check(e); err != nil {
		return err
	}
	if !e.isB {
		return errAt(e.col, "expected a condition here, but this is %s", c.describeVal(e))
	}
	return nil
}

func (c *checker) describeVal(e *expr) string {
	if e.op == xName {
		return fmt.Sprintf("the value %q", e.name)
	}
	if e.dom == domPlain {
		return "a number"
	}
	return "a " + c.attr(e.dom).Name
}

// numeric reports whether a value of domain dom allows arithmetic and order.
func (c *checker) numeric(dom int) bool {
	return dom == domPlain || c.attr(dom).Kind == KindNumber
}

// value checks that e is a value (not a condition); names stay unresolved.
func (c *checker) value(e *expr) error {
	if err := c.check(e); err != nil {
		return err
	}
	if e.isB {
		return errAt(e.col, "expected a value here, but this is a condition")
	}
	return nil
}

// number checks that e is a number one can do arithmetic with.
func (c *checker) number(e *expr) error {
	if err := c.value(e); err != nil {
		return err
	}
	if !e.known {
		return errAt(e.col, "expected a number here, found the name %q", e.name)
	}
	if !c.numeric(e.dom) {
		return errAt(e.col, "%s is not a number: it has no arithmetic or order", c.attr(e.dom).Name)
	}
	return nil
}

// resolve gives a literal the domain dom, checking that it belongs there.
func (c *checker) resolve(e *expr, dom int) error {
	switch e.op {
	case xName:
		if dom == domPlain {
			return errAt(e.col, "%q is a name, but a number is expected here", e.name)
		}
		a := c.attr(dom)
		v, ok := a.lookupValue(e.name)
		if !ok {
			return errAt(e.col, "%s has no value %q (it has %s)", a.Name, e.name, c.valueList(a))
		}
		e.num, e.dom, e.known = v, dom, true
	case xNum:
		if dom != domPlain && !c.numeric(dom) {
			a := c.attr(dom)
			return errAt(e.col, "%s takes names (%s), not numbers", a.Name, c.valueList(a))
		}
		e.dom, e.known = domPlain, true
	}
	return nil
}

func (c *checker) valueList(a *Attribute) string {
	if len(a.Names) > 0 && a.Kind != KindBool {
		return strings.Join(a.Names, ", ")
	}
	return fmt.Sprintf("%d to %d", a.Min, a.Max)
}

// compatible reports whether values of domains a and b may be compared.
func (c *checker) compatible(a, b int) bool {
	if a == b || (c.numeric(a) && c.numeric(b)) {
		return true
	}
	if a == domPlain || b == domPlain {
		return false
	}
	x, y := c.attr(a), c.attr(b)
	if x.Kind != y.Kind || len(x.Names) != len(y.Names) {
		return false
	}
	for i := range x.Names {
		if x.Names[i] != y.Names[i] {
			return false
		}
	}
	return true
}

func (c *checker) check(e *expr) error {
	switch e.op {
	case xNum:
		e.dom, e.known = domPlain, true
	case xName:
		e.known = false // resolved by the comparison that uses it
	case xBool:
		e.isB = true
	case xAttr:
		a := c.attr(e.attr)
		e.isB = a.Kind == KindBool
		e.dom, e.known = e.attr, true
	case xN:
		e.dom, e.known = domPlain, true
	case xNeg:
		if err := c.number(e.kids[0]); err != nil {
			return err
		}
		e.dom, e.known = domPlain, true
		if d := e.kids[0].dom; d != domPlain && c.attr(d).Cyclic {
			e.dom = d
		}
	case xAdd, xSub:
		for _, k := range e.kids {
			if err := c.number(k); err != nil {
				return err
			}
		}
		e.dom, e.known = domPlain, true
		for _, k := range e.kids {
			if d := k.dom; d != domPlain && c.attr(d).Cyclic {
				e.dom = d
				break
			}
		}
	case xMod:
		if err := c.number(e.kids[0]); err != nil {
			return err
		}
		e.dom, e.known = domPlain, true
	case xNext:
		k := e.kids[0]
		if err := c.value(k); err != nil {
			return err
		}
		if !k.known || k.dom == domPlain {
			return errAt(e.col, "next() needs an attribute, such as next(prev.%s)", c.as.list[0].Name)
		}
		e.dom, e.known = k.dom, true
	case xEven, xOdd:
		if err := c.number(e.kids[0]); err != nil {
			return err
		}
		e.isB = true
	case xCmp:
		return c.checkCmp(e)
	case xIn:
		return c.checkIn(e)
	case xNot, xAnd, xOr, xIf:
		for _, k := range e.kids {
			if err := c.cond(k); err != nil {
				return err
			}
		}
		e.isB = true
		if e.op == xAnd || e.op == xOr {
			// "a and (b and c)" is "a and b and c": keep one flat list.
			var flat []*expr
			for _, k := range e.kids {
				if k.op == e.op {
					flat = append(flat, k.kids...)
				} else {
					flat = append(flat, k)
				}
			}
			e.kids = flat
		}
	default:
		return errAt(e.col, "internal: unknown node")
	}
	return nil
}

func (c *checker) checkCmp(e *expr) error {
	l, r := e.kids[0], e.kids[1]
	if err := c.check(l); err != nil {
		return err
	}
	if err := c.check(r); err != nil {
		return err
	}
	e.isB = true
	if l.isB || r.isB {
		if !l.isB || !r.isB {
			return errAt(e.col, "cannot compare a condition with a value")
		}
		if e.cmp != "==" && e.cmp != "!=" {
			return errAt(e.col, "conditions can only be compared with == or !=")
		}
		return nil
	}
	switch {
	case !l.known && !r.known:
		return errAt(e.col, "cannot compare two names; compare an attribute with a value")
	case !l.known:
		if err := c.resolve(l, r.dom); err != nil {
			return err
		}
	case !r.known:
		if err := c.resolve(r, l.dom); err != nil {
			return err
		}
	}
	if !c.compatible(l.dom, r.dom) {
		for _, pair := range [][2]int{{l.dom, r.dom}, {r.dom, l.dom}} {
			if pair[0] != domPlain && pair[1] == domPlain && !c.numeric(pair[0]) {
				a := c.attr(pair[0])
				return errAt(e.col, "%s takes names (%s), not numbers", a.Name, c.valueList(a))
			}
		}
		return errAt(e.col, "cannot compare %s with %s", c.domName(l.dom), c.domName(r.dom))
	}
	if e.cmp != "==" && e.cmp != "!=" && (!c.numeric(l.dom) || !c.numeric(r.dom)) {
		d := l.dom
		if c.numeric(d) {
			d = r.dom
		}
		return errAt(e.col, "%s has no order: use ==, != or in", c.domName(d))
	}
	return nil
}

func (c *checker) checkIn(e *expr) error {
	l := e.kids[0]
	if err := c.value(l); err != nil {
		return err
	}
	if !l.known {
		return errAt(l.col, "expected an attribute before 'in', found the name %q", l.name)
	}
	for _, s := range e.set {
		if err := c.resolve(s, l.dom); err != nil {
			return err
		}
	}
	// Canonical order: by value, without repeats.
	sort.SliceStable(e.set, func(i, j int) bool { return e.set[i].num < e.set[j].num })
	out := e.set[:0]
	for i, s := range e.set {
		if i > 0 && s.num == out[len(out)-1].num {
			continue
		}
		out = append(out, s)
	}
	e.set = out
	e.isB = true
	return nil
}

// errorColumn extracts the column of a parse error, or 0.
func errorColumn(err error) int {
	var se *SyntaxError
	if errors.As(err, &se) {
		return se.Col
	}
	return 0
}
