package rulelang

import "fmt"

// Truth is a three-valued truth: a rule that reads a card the line does not
// have yet is Unknown about it, and a card is rejected only when the rule is
// definitely False.
type Truth int8

// The three truth values, ordered so that Kleene's "and" is the minimum and
// "or" the maximum.
const (
	False Truth = iota
	Unknown
	True
)

// String returns "false", "unknown" or "true".
func (t Truth) String() string {
	switch t {
	case False:
		return "false"
	case True:
		return "true"
	}
	return "unknown"
}

// Rule is a parsed, checked and compiled rule. It is immutable and safe for
// concurrent use.
type Rule struct {
	as    *Attributes
	root  *expr
	text  string
	eval  boolFn
	shape ruleShape
}

// ruleShape is what analysis learns from the syntax alone.
type ruleShape struct {
	lookback  int      // how many previous cards are read (0–3)
	usesN     bool     // whether n is read
	read      [4]uint8 // attributes read per slot, as bit sets (slot 0 is the candidate)
	threshold int      // beyond this position, n matters only modulo period
	period    int      // n matters modulo this (1 when it does not)
}

// Parse parses a rule written in the rule language for the game whose
// attributes are as. Errors are *SyntaxError values naming the column and
// what was expected.
func Parse(as *Attributes, src string) (*Rule, error) {
	root, err := parse(as, src)
	if err != nil {
		return nil, err
	}
	r := &Rule{as: as, root: root}
	r.text = canonical(as, root)
	r.eval = compileBool(as, root)
	r.shape = analyseShape(as, root)
	return r, nil
}

// MustParse is Parse for rules written in code (libraries, tests); it
// panics on an error.
func MustParse(as *Attributes, src string) *Rule {
	r, err := Parse(as, src)
	if err != nil {
		panic(fmt.Sprintf("rulelang: %q: %v", src, err))
	}
	return r
}

// String returns the canonical form of the rule. Parsing it again gives the
// same rule and the same text.
func (r *Rule) String() string { return r.text }

// Attributes returns the attribute set the rule was parsed for.
func (r *Rule) Attributes() *Attributes { return r.as }

// Judge evaluates the rule for card following the valid line (oldest first),
// in three-valued logic.
func (r *Rule) Judge(line []Card, card Card) Truth {
	var e env
	e.set(line, card)
	return r.eval(&e)
}

// Accepts reports whether card may follow the valid line (oldest card
// first): it is rejected only when the rule is definitely false.
func (r *Rule) Accepts(line []Card, card Card) bool {
	var e env
	e.set(line, card)
	return r.eval(&e) != False
}

// env is what a rule sees when judging one card.
type env struct {
	cards [4]Card // 0: the candidate; 1..3: prev, prev2, prev3
	have  int     // how many previous cards exist (0–3)
	n     int     // the position the candidate would take, from 1
}

func (e *env) set(line []Card, card Card) {
	e.cards[0] = card
	e.n = len(line) + 1
	e.have = min(len(line), 3)
	for i := 1; i <= e.have; i++ {
		e.cards[i] = line[len(line)-i]
	}
}

type (
	boolFn func(*env) Truth
	valFn  func(*env) (int, bool)
)

func truthOf(b bool) Truth {
	if b {
		return True
	}
	return False
}

// compileBool turns a condition into a closure tree: the tree is walked once
// here, not on every play.
func compileBool(as *Attributes, e *expr) boolFn {
	switch e.op {
	case xBool:
		t := truthOf(e.num != 0)
		return func(*env) Truth { return t }
	case xAttr:
		slot, a := e.slot, e.attr
		if slot == 0 {
			return func(v *env) Truth { return truthOf(v.cards[0][a] != 0) }
		}
		return func(v *env) Truth {
			if slot > v.have {
				return Unknown
			}
			return truthOf(v.cards[slot][a] != 0)
		}
	case xEven, xOdd:
		f := compileVal(as, e.kids[0])
		want := 0
		if e.op == xOdd {
			want = 1
		}
		return func(v *env) Truth {
			x, ok := f(v)
			if !ok {
				return Unknown
			}
			return truthOf(mod(x, 2) == want)
		}
	case xCmp:
		return compileCmp(as, e)
	case xIn:
		f := compileVal(as, e.kids[0])
		var lo, hi = e.set[0].num, e.set[len(e.set)-1].num
		// A set of plain numbers may span up to 2*maxLiteral+1 values
		// ("n in {1, 70}"), more than one 64-bit mask holds: a shift of 64
		// or more is 0 in Go, which would silently drop the high members.
		var mask [(2*maxLiteral + 1 + 63) / 64]uint64
		for _, s := range e.set {
			d := uint(s.num - lo)
			mask[d/64] |= 1 << (d % 64)
		}
		return func(v *env) Truth {
			x, ok := f(v)
			if !ok {
				return Unknown
			}
			if x < lo || x > hi {
				return False
			}
			d := uint(x - lo)
			return truthOf(mask[d/64]&(1<<(d%64)) != 0)
		}
	case xNot:
		f := compileBool(as, e.kids[0])
		return func(v *env) Truth { return True - f(v) }
	case xAnd:
		fs := compileList(as, e.kids)
		if len(fs) == 2 {
			a, b := fs[0], fs[1]
			return func(v *env) Truth {
				x := a(v)
				if x == False {
					return False
				}
				return min(x, b(v))
			}
		}
		return func(v *env) Truth {
			t := True
			for _, f := range fs {
				if x := f(v); x < t {
					if x == False {
						return False
					}
					t = x
				}
			}
			return t
		}
	case xOr:
		fs := compileList(as, e.kids)
		if len(fs) == 2 {
			a, b := fs[0], fs[1]
			return func(v *env) Truth {
				x := a(v)
				if x == True {
					return True
				}
				return max(x, b(v))
			}
		}
		return func(v *env) Truth {
			t := False
			for _, f := range fs {
				if x := f(v); x > t {
					if x == True {
						return True
					}
					t = x
				}
			}
			return t
		}
	case xIf:
		c := compileBool(as, e.kids[0])
		a := compileBool(as, e.kids[1])
		b := func(*env) Truth { return True } // no else: the rule holds
		if len(e.kids) == 3 {
			b = compileBool(as, e.kids[2])
		}
		return func(v *env) Truth {
			switch c(v) {
			case True:
				return a(v)
			case False:
				return b(v)
			}
			// Unknown condition: known only if both branches agree.
			x, y := a(v), b(v)
			if x == y {
				return x
			}
			return Unknown
		}
	}
	panic("rulelang: compileBool on a value node") // check guarantees conditions here
}

func compileList(as *Attributes, es []*expr) []boolFn {
	fs := make([]boolFn, len(es))
	for i, k := range es {
		fs[i] = compileBool(as, k)
	}
	return fs
}

func compileCmp(as *Attributes, e *expr) boolFn {
	l, r := e.kids[0], e.kids[1]
	if l.isB {
		fa, fb := compileBool(as, l), compileBool(as, r)
		eq := e.cmp == "=="
		return func(v *env) Truth {
			x, y := fa(v), fb(v)
			if x == Unknown || y == Unknown {
				return Unknown
			}
			return truthOf((x == y) == eq)
		}
	}
	fa, fb := compileVal(as, l), compileVal(as, r)
	// Fast paths for the common shapes "attr op const" and "attr op attr".
	if l.op == xAttr && r.op != xAttr && isConst(r) {
		slot, a, k := l.slot, l.attr, r.num
		test := cmpFunc(e.cmp)
		if slot == 0 {
			return func(v *env) Truth { return truthOf(test(int(v.cards[0][a]), k)) }
		}
	}
	if l.op == xAttr && r.op == xAttr {
		s1, a1, s2, a2 := l.slot, l.attr, r.slot, r.attr
		test := cmpFunc(e.cmp)
		return func(v *env) Truth {
			if s1 > v.have || s2 > v.have {
				return Unknown
			}
			return truthOf(test(int(v.cards[s1][a1]), int(v.cards[s2][a2])))
		}
	}
	test := cmpFunc(e.cmp)
	return func(v *env) Truth {
		x, ok := fa(v)
		if !ok {
			return Unknown
		}
		y, ok := fb(v)
		if !ok {
			return Unknown
		}
		return truthOf(test(x, y))
	}
}

func isConst(e *expr) bool { return e.op == xNum || e.op == xName }

func cmpFunc(op string) func(a, b int) bool {
	switch op {
	case "==":
		return func(a, b int) bool { return a == b }
	case "!=":
		return func(a, b int) bool { return a != b }
	case "<":
		return func(a, b int) bool { return a < b }
	case "<=":
		return func(a, b int) bool { return a <= b }
	case ">":
		return func(a, b int) bool { return a > b }
	}
	return func(a, b int) bool { return a >= b }
}

// mod is the mathematical remainder: never negative for m > 0.
func mod(x, m int) int {
	x %= m
	if x < 0 {
		x += m
	}
	return x
}

func compileVal(as *Attributes, e *expr) valFn {
	switch e.op {
	case xNum, xName:
		k := e.num
		return func(*env) (int, bool) { return k, true }
	case xAttr:
		slot, a := e.slot, e.attr
		if slot == 0 {
			return func(v *env) (int, bool) { return int(v.cards[0][a]), true }
		}
		return func(v *env) (int, bool) {
			if slot > v.have {
				return 0, false
			}
			return int(v.cards[slot][a]), true
		}
	case xN:
		return func(v *env) (int, bool) { return v.n, true }
	case xNeg, xAdd, xSub:
		return compileArith(as, e)
	case xMod:
		f, m := compileVal(as, e.kids[0]), e.num
		return func(v *env) (int, bool) {
			x, ok := f(v)
			return mod(x, m), ok
		}
	case xNext:
		f := compileVal(as, e.kids[0])
		attr := &as.list[e.dom]
		lo, size := attr.Min, attr.size()
		return func(v *env) (int, bool) {
			x, ok := f(v)
			return lo + mod(x+1-lo, size), ok
		}
	}
	panic("rulelang: compileVal on a condition node") // check guarantees values here
}

func compileArith(as *Attributes, e *expr) valFn {
	wrap := func(x int) int { return x }
	if e.dom != domPlain {
		attr := &as.list[e.dom]
		lo, size := attr.Min, attr.size()
		wrap = func(x int) int { return lo + mod(x-lo, size) }
	}
	a := compileVal(as, e.kids[0])
	if e.op == xNeg {
		return func(v *env) (int, bool) {
			x, ok := a(v)
			return wrap(-x), ok
		}
	}
	b := compileVal(as, e.kids[1])
	sign := 1
	if e.op == xSub {
		sign = -1
	}
	return func(v *env) (int, bool) {
		x, ok := a(v)
		if !ok {
			return 0, false
		}
		y, ok := b(v)
		if !ok {
			return 0, false
		}
		return wrap(x + sign*y), true
	}
}
