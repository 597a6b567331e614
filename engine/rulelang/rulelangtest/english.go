// Package rulelangtest reads a rule card's English the way a player does,
// without the rule-language parser, so tests can check that what a card
// says and what the judge decides agree.
//
// ReadEnglish parses the sentences rulelang's English renderer writes ("If
// the background colour is blue, then the number plus the previous card's
// number is odd; otherwise …") into its own small tree and judges cards
// with its own evaluator, written from the language's documented meaning:
// words mean what they say, "plus" and "minus" count round within the range
// of a cyclic attribute they involve (If Then: 9 plus 1 is 0), "the
// remainder of x divided by m" is never negative. Nothing here calls the
// compiled judge, so a sentence that says something other than what the
// rule does, or a judge that errs, makes the two disagree.
package rulelangtest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/codebreakers/codebreakers/engine/rulelang"
)

// Reading is a rule as read from its English.
type Reading struct {
	as   *rulelang.Attributes
	root *node
}

// Judge reports whether the reading accepts card after line (oldest first).
// The line must hold every previous card the sentence mentions.
func (rd *Reading) Judge(line []rulelang.Card, card rulelang.Card) (bool, error) {
	ev := evaluator{as: rd.as, line: line, card: card}
	v, err := ev.truth(rd.root)
	return v, err
}

// SaysWhatItJudges reads r's English and compares its reading with r's
// judge for every card of cards after every line of lines (each long
// enough for every card the rule reads); it returns the first
// disagreement, or nil when they agree throughout.
func SaysWhatItJudges(r *rulelang.Rule, lines [][]rulelang.Card, cards []rulelang.Card) error {
	as := r.Attributes()
	rd, err := ReadEnglish(as, r.English())
	if err != nil {
		return err
	}
	for _, line := range lines {
		for _, c := range cards {
			says, err := rd.Judge(line, c)
			if err != nil {
				return fmt.Errorf("%q: %w", r.English(), err)
			}
			if judged := r.Accepts(line, c); says != judged {
				return fmt.Errorf("%q says %v for %s after %s; the rule judges %v",
					r.English(), says, as.Format(c), as.Format(line[len(line)-1]), judged)
			}
		}
	}
	return nil
}

// ReadEnglish reads a sentence written by rulelang's English renderer for
// attribute set as.
func ReadEnglish(as *rulelang.Attributes, sentence string) (*Reading, error) {
	r := &reader{as: as, toks: tokenize(sentence)}
	if len(r.toks) == 0 {
		return nil, fmt.Errorf("empty sentence")
	}
	r.toks[0] = strings.ToLower(r.toks[0][:1]) + r.toks[0][1:]
	root, err := r.sentence()
	if err != nil {
		return nil, fmt.Errorf("reading %q: %w", sentence, err)
	}
	return &Reading{as: as, root: root}, nil
}

// tokenize splits on spaces and keeps ( ) , ; . as tokens of their own.
func tokenize(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, c := range s {
		switch c {
		case ' ':
			flush()
		case '(', ')', ',', ';', '.':
			flush()
			out = append(out, string(c))
		default:
			cur.WriteRune(c)
		}
	}
	flush()
	return out
}

// kind of a node in the reading.
type kind int

const (
	kConst   kind = iota // truth constant (num 0/1)
	kAnd                 // all kids
	kOr                  // any kid
	kNot                 // not kid
	kIf                  // kids: condition, then, [otherwise]
	kCompare             // kids: left, right; op
	kIn                  // kids: subject; set (raw words); negated by wrapping in kNot
	kEven                // kid even
	kOdd                 // kid odd
	kSame                // two truth-valued nouns agree (op "==" or "!=")
	kNum                 // a number literal
	kName                // a value name, resolved against the other side
	kAttr                // slot, attr
	kPos                 // n
	kNeg                 // minus kid
	kPlus                // kid plus kid
	kMinus               // kid minus kid
	kRem                 // remainder of kid divided by num
	kNext                // the next value of attr after kid
	kWhether             // a condition used as a truth value
)

type node struct {
	k     kind
	op    string
	num   int
	name  string
	slot  int
	attr  int
	kids  []*node
	names []*node // kIn: the listed values
}

type reader struct {
	as   *rulelang.Attributes
	toks []string
	pos  int
}

func (r *reader) peek(k int) string {
	if r.pos+k < len(r.toks) {
		return r.toks[r.pos+k]
	}
	return ""
}

func (r *reader) at(words ...string) bool {
	for i, w := range words {
		if r.peek(i) != w {
			return false
		}
	}
	return true
}

func (r *reader) eat(words ...string) bool {
	if !r.at(words...) {
		return false
	}
	r.pos += len(words)
	return true
}

func (r *reader) want(words ...string) error {
	if !r.eat(words...) {
		return r.fail("expected %q", strings.Join(words, " "))
	}
	return nil
}

func (r *reader) fail(format string, args ...any) error {
	return fmt.Errorf("word %d (%q): %s", r.pos+1, r.peek(0), fmt.Sprintf(format, args...))
}

// sentence: "if" C "," "then" C [";" "otherwise" C] "." | C ".".
func (r *reader) sentence() (*node, error) {
	var root *node
	if r.eat("if") {
		c, err := r.clause()
		if err != nil {
			return nil, err
		}
		if err := r.want(",", "then"); err != nil {
			return nil, err
		}
		a, err := r.clause()
		if err != nil {
			return nil, err
		}
		root = &node{k: kIf, kids: []*node{c, a}}
		if r.eat(";", "otherwise") {
			b, err := r.clause()
			if err != nil {
				return nil, err
			}
			root.kids = append(root.kids, b)
		}
	} else {
		c, err := r.clause()
		if err != nil {
			return nil, err
		}
		root = c
	}
	if err := r.want("."); err != nil {
		return nil, err
	}
	if r.pos != len(r.toks) {
		return nil, r.fail("expected the end of the sentence")
	}
	return root, nil
}

// clause: part {"," part} [("and"|"or") part]. A comma followed by "then"
// or "otherwise" ends the clause instead.
func (r *reader) clause() (*node, error) {
	first, err := r.part()
	if err != nil {
		return nil, err
	}
	parts := []*node{first}
	for r.at(",") && r.peek(1) != "then" && r.peek(1) != "otherwise" {
		r.pos++
		p, err := r.part()
		if err != nil {
			return nil, err
		}
		parts = append(parts, p)
	}
	var k kind
	switch {
	case r.eat("and"):
		k = kAnd
	case r.eat("or"):
		k = kOr
	default:
		if len(parts) > 1 {
			return nil, r.fail("a list of conditions must end with 'and' or 'or'")
		}
		return first, nil
	}
	last, err := r.part()
	if err != nil {
		return nil, err
	}
	return &node{k: k, kids: append(parts, last)}, nil
}

// part is one condition: bracketed, a constant, a negation, an if, a card
// that is (not) something, or a noun that is compared.
func (r *reader) part() (*node, error) {
	switch {
	case r.eat("("):
		var n *node
		var err error
		if r.eat("if") {
			n, err = r.innerIf()
		} else {
			n, err = r.clause()
		}
		if err != nil {
			return nil, err
		}
		return n, r.want(")")
	case r.eat("any", "card", "may", "be", "played"):
		return &node{k: kConst, num: 1}, nil
	case r.eat("no", "card", "may", "be", "played"):
		return &node{k: kConst, num: 0}, nil
	case r.eat("it", "is", "not", "the", "case", "that"):
		k, err := r.part()
		if err != nil {
			return nil, err
		}
		return &node{k: kNot, kids: []*node{k}}, nil
	case r.eat("if"):
		return r.innerIf()
	}
	if slot, n, ok := r.subject(); ok && r.at("is") {
		save := r.pos
		r.pos++
		if attr, truth, ok := r.boolWord(); ok {
			var b *node = &node{k: kAttr, slot: slot, attr: attr}
			if !truth {
				b = &node{k: kNot, kids: []*node{b}}
			}
			return b, nil
		}
		r.pos = save - n // not a true/false attribute: read it as a noun
	}
	left, err := r.sum()
	if err != nil {
		return nil, err
	}
	return r.predicate(left)
}

// innerIf: C "then" C ["," "otherwise" C], after "if".
func (r *reader) innerIf() (*node, error) {
	c, err := r.part()
	if err != nil {
		return nil, err
	}
	if err := r.want("then"); err != nil {
		return nil, err
	}
	a, err := r.clauseUntilOtherwise()
	if err != nil {
		return nil, err
	}
	n := &node{k: kIf, kids: []*node{c, a}}
	if r.eat(",", "otherwise") {
		b, err := r.clauseUntilOtherwise()
		if err != nil {
			return nil, err
		}
		n.kids = append(n.kids, b)
	}
	return n, nil
}

// clauseUntilOtherwise is a clause that stops before ", otherwise".
func (r *reader) clauseUntilOtherwise() (*node, error) { return r.clause() }

// subject reads "the card", "the previous card", "the card two back" or
// "the card three back": the slot and how many words it took.
func (r *reader) subject() (slot, words int, ok bool) {
	switch {
	case r.at("the", "previous", "card"):
		r.pos += 3
		return 1, 3, true
	case r.at("the", "card", "two", "back"):
		r.pos += 4
		return 2, 4, true
	case r.at("the", "card", "three", "back"):
		r.pos += 4
		return 3, 4, true
	case r.at("the", "card") && r.peek(2) == "is":
		r.pos += 2
		return 0, 2, true
	}
	return 0, 0, false
}

// boolWord reads the word for a true/false attribute's value: its name
// for true or "not" and its name for false, or its two value words.
func (r *reader) boolWord() (attr int, truth, ok bool) {
	for i := range r.as.Len() {
		a := r.as.At(i)
		if a.Kind != rulelang.KindBool {
			continue
		}
		if len(a.Names) == 2 {
			for v, w := range a.Names {
				if r.eat(w) {
					return i, v == 1, true
				}
			}
			continue
		}
		if r.eat(a.Name) {
			return i, true, true
		}
		if r.eat("not", a.Name) {
			return i, false, true
		}
	}
	return 0, false, false
}

// predicate reads what is said of a noun.
func (r *reader) predicate(left *node) (*node, error) {
	switch {
	case r.eat("matches"):
		right, err := r.sum()
		return &node{k: kSame, op: "==", kids: []*node{left, right}}, err
	case r.eat("differs", "from"):
		right, err := r.sum()
		return &node{k: kSame, op: "!=", kids: []*node{left, right}}, err
	}
	if err := r.want("is"); err != nil {
		return nil, err
	}
	cmp := func(op string) (*node, error) {
		right, err := r.sum()
		return &node{k: kCompare, op: op, kids: []*node{left, right}}, err
	}
	switch {
	case r.eat("even"):
		return &node{k: kEven, kids: []*node{left}}, nil
	case r.eat("odd"):
		return &node{k: kOdd, kids: []*node{left}}, nil
	case r.eat("the", "same", "as"):
		return cmp("==")
	case r.eat("different", "from"):
		return cmp("!=")
	case r.eat("less", "than"):
		return cmp("<")
	case r.eat("at", "most"):
		return cmp("<=")
	case r.eat("greater", "than"):
		return cmp(">")
	case r.eat("at", "least"):
		return cmp(">=")
	case r.eat("neither"):
		a, err := r.value()
		if err != nil {
			return nil, err
		}
		if err := r.want("nor"); err != nil {
			return nil, err
		}
		b, err := r.value()
		if err != nil {
			return nil, err
		}
		return &node{k: kNot, kids: []*node{{k: kIn, kids: []*node{left}, names: []*node{a, b}}}}, nil
	case r.eat("none", "of"):
		set, err := r.valueList()
		if err != nil {
			return nil, err
		}
		return &node{k: kNot, kids: []*node{{k: kIn, kids: []*node{left}, names: set}}}, nil
	case r.eat("not"):
		return cmp("!=")
	}
	if r.startsNoun() {
		return cmp("==")
	}
	set, err := r.valueList()
	if err != nil {
		return nil, err
	}
	if len(set) == 1 {
		return &node{k: kCompare, op: "==", kids: []*node{left, set[0]}}, nil
	}
	return &node{k: kIn, kids: []*node{left}, names: set}, nil
}

// startsNoun reports whether a noun phrase (not a bare value) starts here.
func (r *reader) startsNoun() bool {
	switch r.peek(0) {
	case "the", "minus", "whether":
		return true
	}
	return false
}

// valueList: v {"," v} ["or" v], where a bare value follows each separator.
func (r *reader) valueList() ([]*node, error) {
	v, err := r.value()
	if err != nil {
		return nil, err
	}
	set := []*node{v}
	for r.at(",") && r.isValue(r.peek(1)) {
		r.pos++
		v, err := r.value()
		if err != nil {
			return nil, err
		}
		set = append(set, v)
	}
	if r.at("or") && r.isValue(r.peek(1)) {
		r.pos++
		v, err := r.value()
		if err != nil {
			return nil, err
		}
		set = append(set, v)
	}
	return set, nil
}

func (r *reader) isValue(w string) bool {
	if _, err := strconv.Atoi(w); err == nil {
		return true
	}
	return r.isName(w)
}

func (r *reader) isName(w string) bool {
	for i := range r.as.Len() {
		a := r.as.At(i)
		if a.Kind == rulelang.KindBool {
			continue
		}
		for _, n := range a.Names {
			if n == w {
				return true
			}
		}
	}
	return false
}

// value: a number or a value name.
func (r *reader) value() (*node, error) {
	w := r.peek(0)
	if n, err := strconv.Atoi(w); err == nil {
		r.pos++
		return &node{k: kNum, num: n}, nil
	}
	if r.isName(w) {
		r.pos++
		return &node{k: kName, name: w}, nil
	}
	return nil, r.fail("expected a value")
}

// sum: noun {("plus"|"minus") noun}, read left to right.
func (r *reader) sum() (*node, error) {
	n, err := r.noun()
	if err != nil {
		return nil, err
	}
	for {
		var k kind
		switch {
		case r.eat("plus"):
			k = kPlus
		case r.eat("minus"):
			k = kMinus
		default:
			return n, nil
		}
		m, err := r.noun()
		if err != nil {
			return nil, err
		}
		n = &node{k: k, kids: []*node{n, m}}
	}
}

// noun is one value: a literal, an attribute of a card, the position, the
// remainder of a sum, the next value after one, minus a noun, or whether a
// condition holds.
func (r *reader) noun() (*node, error) {
	switch {
	case r.eat("("):
		k, err := r.sum()
		if err != nil {
			return nil, err
		}
		return k, r.want(")")
	case r.eat("minus"):
		k, err := r.noun()
		return &node{k: kNeg, kids: []*node{k}}, err
	case r.eat("whether"):
		k, err := r.part()
		return &node{k: kWhether, kids: []*node{k}}, err
	case r.eat("true"):
		return &node{k: kConst, num: 1}, nil
	case r.eat("false"):
		return &node{k: kConst, num: 0}, nil
	case r.eat("the", "card's", "position", "in", "the", "line"):
		return &node{k: kPos}, nil
	case r.eat("the", "remainder", "of"):
		k, err := r.sum()
		if err != nil {
			return nil, err
		}
		if err := r.want("divided", "by"); err != nil {
			return nil, err
		}
		m, err := strconv.Atoi(r.peek(0))
		if err != nil || m < 1 {
			return nil, r.fail("expected a whole number to divide by")
		}
		r.pos++
		return &node{k: kRem, num: m, kids: []*node{k}}, nil
	case r.eat("the", "next"):
		attr, ok := r.attrNoun()
		if !ok {
			return nil, r.fail("expected an attribute after 'the next'")
		}
		if err := r.want("after"); err != nil {
			return nil, err
		}
		k, err := r.noun()
		return &node{k: kNext, attr: attr, kids: []*node{k}}, err
	case r.eat("the", "previous", "card's"):
		attr, ok := r.attrNoun()
		if !ok {
			return nil, r.fail("expected an attribute of the previous card")
		}
		return &node{k: kAttr, slot: 1, attr: attr}, nil
	case r.eat("the"):
		attr, ok := r.attrNoun()
		if !ok {
			return nil, r.fail("expected an attribute")
		}
		slot := 0
		switch {
		case r.eat("two", "cards", "back"):
			slot = 2
		case r.eat("three", "cards", "back"):
			slot = 3
		}
		return &node{k: kAttr, slot: slot, attr: attr}, nil
	}
	return r.value()
}

// attrNoun reads an attribute's English noun, the longest that fits.
func (r *reader) attrNoun() (int, bool) {
	best, bestLen := -1, 0
	for i := range r.as.Len() {
		words := strings.Fields(r.as.At(i).Noun)
		if len(words) > bestLen && r.at(words...) {
			best, bestLen = i, len(words)
		}
	}
	if best < 0 {
		return 0, false
	}
	r.pos += bestLen
	return best, true
}

// evaluator judges one card after a line by the reading's own rules.
type evaluator struct {
	as   *rulelang.Attributes
	line []rulelang.Card
	card rulelang.Card
}

// domPlain is the domain of plain numbers; others are attribute indexes.
const domPlain = -1

func (ev *evaluator) truth(n *node) (bool, error) {
	switch n.k {
	case kConst:
		return n.num != 0, nil
	case kAnd, kOr:
		for _, k := range n.kids {
			v, err := ev.truth(k)
			if err != nil {
				return false, err
			}
			if v == (n.k == kOr) {
				return v, nil
			}
		}
		return n.k == kAnd, nil
	case kNot:
		v, err := ev.truth(n.kids[0])
		return !v, err
	case kIf:
		c, err := ev.truth(n.kids[0])
		if err != nil {
			return false, err
		}
		if c {
			return ev.truth(n.kids[1])
		}
		if len(n.kids) == 3 {
			return ev.truth(n.kids[2])
		}
		return true, nil
	case kEven, kOdd:
		v, _, err := ev.value(n.kids[0], domPlain)
		if err != nil {
			return false, err
		}
		return (((v%2)+2)%2 == 0) == (n.k == kEven), nil
	case kAttr:
		v, _, err := ev.value(n, domPlain)
		return v != 0, err
	case kSame:
		a, _, err := ev.value(n.kids[0], domPlain)
		if err != nil {
			return false, err
		}
		b, _, err := ev.value(n.kids[1], domPlain)
		if err != nil {
			return false, err
		}
		return (a == b) == (n.op == "=="), nil
	case kCompare:
		return ev.compare(n)
	case kIn:
		x, dom, err := ev.value(n.kids[0], domPlain)
		if err != nil {
			return false, err
		}
		for _, s := range n.names {
			v, _, err := ev.value(s, dom)
			if err != nil {
				return false, err
			}
			if v == x {
				return true, nil
			}
		}
		return false, nil
	}
	return false, fmt.Errorf("a value where a condition belongs")
}

func (ev *evaluator) compare(n *node) (bool, error) {
	l, r := n.kids[0], n.kids[1]
	var a, b int
	var err error
	// A name takes its meaning from the other side.
	if l.k == kName {
		var dom int
		if b, dom, err = ev.value(r, domPlain); err != nil {
			return false, err
		}
		a, _, err = ev.value(l, dom)
	} else {
		var dom int
		if a, dom, err = ev.value(l, domPlain); err != nil {
			return false, err
		}
		b, _, err = ev.value(r, dom)
	}
	if err != nil {
		return false, err
	}
	switch n.op {
	case "==":
		return a == b, nil
	case "!=":
		return a != b, nil
	case "<":
		return a < b, nil
	case "<=":
		return a <= b, nil
	case ">":
		return a > b, nil
	}
	return a >= b, nil
}

// value computes a noun, with the domain it belongs to; hint is the domain
// a bare name is read in.
func (ev *evaluator) value(n *node, hint int) (int, int, error) {
	switch n.k {
	case kNum:
		return n.num, domPlain, nil
	case kName:
		return ev.name(n.name, hint)
	case kConst:
		return n.num, domPlain, nil
	case kWhether:
		t, err := ev.truth(n.kids[0])
		if t {
			return 1, domPlain, err
		}
		return 0, domPlain, err
	case kAttr:
		c := ev.card
		if n.slot > 0 {
			if n.slot > len(ev.line) {
				return 0, 0, fmt.Errorf("the line has no card %d back", n.slot)
			}
			c = ev.line[len(ev.line)-n.slot]
		}
		return int(c[n.attr]), n.attr, nil
	case kPos:
		return len(ev.line) + 1, domPlain, nil
	case kNeg:
		x, dom, err := ev.value(n.kids[0], domPlain)
		dom = ev.cyclicOr(dom, domPlain)
		return ev.wrap(dom, -x), dom, err
	case kPlus, kMinus:
		x, dx, err := ev.value(n.kids[0], domPlain)
		if err != nil {
			return 0, 0, err
		}
		y, dy, err := ev.value(n.kids[1], domPlain)
		if err != nil {
			return 0, 0, err
		}
		// Counting round: the sum wraps in a cyclic attribute it involves.
		dom := ev.cyclicOr(dx, ev.cyclicOr(dy, domPlain))
		if n.k == kMinus {
			y = -y
		}
		return ev.wrap(dom, x+y), dom, nil
	case kRem:
		x, _, err := ev.value(n.kids[0], domPlain)
		return ((x % n.num) + n.num) % n.num, domPlain, err
	case kNext:
		x, _, err := ev.value(n.kids[0], n.attr)
		a := ev.as.At(n.attr)
		size := a.Max - a.Min + 1
		return a.Min + ((x+1-a.Min)%size+size)%size, n.attr, err
	}
	return 0, 0, fmt.Errorf("a condition where a value belongs")
}

// cyclicOr is dom when it is a cyclic attribute, otherwise other.
func (ev *evaluator) cyclicOr(dom, other int) int {
	if dom != domPlain && ev.as.At(dom).Cyclic {
		return dom
	}
	return other
}

func (ev *evaluator) wrap(dom, v int) int {
	if dom == domPlain {
		return v
	}
	a := ev.as.At(dom)
	size := a.Max - a.Min + 1
	return a.Min + ((v-a.Min)%size+size)%size
}

// name resolves a value name in domain dom, or in any attribute with that
// name when dom is plain.
func (ev *evaluator) name(w string, dom int) (int, int, error) {
	try := func(i int) (int, bool) {
		a := ev.as.At(i)
		if a.Kind == rulelang.KindBool {
			return 0, false
		}
		for j, n := range a.Names {
			if n == w {
				return a.Min + j, true
			}
		}
		return 0, false
	}
	if dom != domPlain {
		if v, ok := try(dom); ok {
			return v, dom, nil
		}
	}
	for i := range ev.as.Len() {
		if v, ok := try(i); ok {
			return v, i, nil
		}
	}
	return 0, 0, fmt.Errorf("no value is called %q", w)
}
