package rulelang

// This file learns from a rule's syntax which cards it reads and how the
// position n enters it, which is what exact equivalence needs to bound the
// states it explores.
//
// How n enters: every number a rule computes is, as a function of n, of the
// form c·n + r(n) where c is a whole number and r is bounded and periodic
// (r comes from attributes, literals and remainders such as n % 4, even(n)
// or cyclic If Then arithmetic). A comparison whose two sides have different
// coefficients of n is decided by the sign of the difference once n exceeds
// the sum of the bounds; a comparison whose coefficients cancel depends on n
// only through the periodic parts. So beyond a threshold T, positions n and
// n+P behave the same, where P is the least common multiple of the periods.

// linear describes a number as a function of n: coef·n plus a part bounded by
// bound in absolute value, periodic with period per.
type linear struct {
	coef  int
	bound int
	per   int
}

func (l linear) involvesN() bool { return l.coef != 0 || l.per > 1 }

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// lcmCap is where lcm saturates: far beyond anything exploration accepts,
// and far below overflow.
const lcmCap = 1 << 30

// lcm is the least common multiple of two positive numbers, saturating at
// lcmCap so that hostile rules cannot overflow it.
func lcm(a, b int) int {
	if a == 0 || b == 0 {
		return max(a, b)
	}
	l := a / gcd(a, b) * b
	if l > lcmCap || l < 0 {
		return lcmCap
	}
	return l
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// shapeWalker collects a ruleShape.
type shapeWalker struct {
	as *Attributes
	s  ruleShape
}

func analyseShape(as *Attributes, root *expr) ruleShape {
	w := shapeWalker{as: as, s: ruleShape{period: 1}}
	w.cond(root)
	return w.s
}

// reduce is what "x mod m" (or wrapping into an attribute's range) does to
// the description of x.
func reduce(x linear, m, bound int) linear {
	per := x.per
	if x.coef != 0 {
		per = lcm(per, m)
	}
	return linear{coef: 0, bound: bound, per: per}
}

func (w *shapeWalker) val(e *expr) linear {
	switch e.op {
	case xNum, xName:
		return linear{bound: abs(e.num), per: 1}
	case xAttr:
		w.attr(e)
		a := &w.as.list[e.attr]
		return linear{bound: max(abs(a.Min), abs(a.Max)), per: 1}
	case xN:
		w.s.usesN = true
		return linear{coef: 1, per: 1}
	case xNeg, xAdd, xSub:
		x := w.val(e.kids[0])
		var l linear
		switch e.op {
		case xNeg:
			l = linear{coef: -x.coef, bound: x.bound, per: x.per}
		case xAdd, xSub:
			y := w.val(e.kids[1])
			sign := 1
			if e.op == xSub {
				sign = -1
			}
			l = linear{coef: x.coef + sign*y.coef, bound: x.bound + y.bound, per: lcm(x.per, y.per)}
		}
		if e.dom != domPlain {
			a := &w.as.list[e.dom]
			l = reduce(l, a.size(), max(abs(a.Min), abs(a.Max)))
		}
		return l
	case xMod:
		return reduce(w.val(e.kids[0]), e.num, e.num)
	case xNext:
		a := &w.as.list[e.dom]
		return reduce(w.val(e.kids[0]), a.size(), max(abs(a.Min), abs(a.Max)))
	}
	return linear{per: 1}
}

func (w *shapeWalker) attr(e *expr) {
	w.s.read[e.slot] |= 1 << uint(e.attr)
	w.s.lookback = max(w.s.lookback, e.slot)
}

// compare records what comparing x with y means for n.
func (w *shapeWalker) compare(x, y linear) {
	if x.coef != y.coef {
		w.s.threshold = max(w.s.threshold, x.bound+y.bound+1)
	}
	w.s.period = lcm(w.s.period, lcm(x.per, y.per))
}

func (w *shapeWalker) cond(e *expr) {
	switch e.op {
	case xAttr:
		w.attr(e)
	case xEven, xOdd:
		x := w.val(e.kids[0])
		x = reduce(x, 2, 1)
		w.s.period = lcm(w.s.period, x.per)
	case xCmp:
		if e.kids[0].isB {
			w.cond(e.kids[0])
			w.cond(e.kids[1])
			return
		}
		w.compare(w.val(e.kids[0]), w.val(e.kids[1]))
	case xIn:
		x := w.val(e.kids[0])
		b := 0
		for _, s := range e.set {
			b = max(b, abs(s.num))
		}
		w.compare(x, linear{bound: b, per: 1})
	case xNot, xAnd, xOr, xIf:
		for _, k := range e.kids {
			w.cond(k)
		}
	}
}
