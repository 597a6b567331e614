package rulelang

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// FixedComparison is a comparison in a rule whose outcome the cards can
// never change, because one side can never take a value the other names:
// a sum of If Then numbers (which wraps round from 9 to 0) compared with
// 10, a set listing a value its subject never takes, or an order such as
// "size < 4" that holds whatever is played. A rule card that says such a
// thing reads one way in English and judges another, so content tests
// refuse them.
type FixedComparison struct {
	Col  int    // column of the comparison in the rule's source
	Text string // the comparison, in canonical form
	Why  string // what cannot happen, in plain words
}

// String writes the finding for a test failure.
func (f FixedComparison) String() string {
	return fmt.Sprintf("column %d: %s: %s", f.Col, f.Text, f.Why)
}

// FixedComparisons lists the comparisons of the rule whose outcome is fixed
// by the values their sides can take, and every value of a set that its
// subject can never take. The values a side can take are worked out from
// the language's types and operators alone, not from any card: an
// attribute takes its range, arithmetic on a cyclic attribute wraps within
// it, "% m" gives 0 to m-1, next() stays within its attribute, literals are
// themselves. The two sides are taken as independent, so what is reported
// is impossible for certain; n (unbounded) is never judged.
func (r *Rule) FixedComparisons() []FixedComparison {
	var out []FixedComparison
	r.walkFixed(r.root, &out)
	return out
}

func (r *Rule) walkFixed(e *expr, out *[]FixedComparison) {
	switch e.op {
	case xCmp:
		if !e.kids[0].isB {
			r.checkCmpRange(e, out)
		}
	case xIn:
		r.checkInRange(e, out)
	}
	for _, k := range e.kids {
		r.walkFixed(k, out)
	}
}

func (r *Rule) checkCmpRange(e *expr, out *[]FixedComparison) {
	l, okL := r.values(e.kids[0])
	rv, okR := r.values(e.kids[1])
	if !okL || !okR {
		return
	}
	can := [2]bool{} // can[0]: the comparison can be false; can[1]: true
	for _, x := range l {
		for _, y := range rv {
			can[truthIndex(cmpFunc(e.cmp)(x, y))] = true
		}
		if can[0] && can[1] {
			return
		}
	}
	f := FixedComparison{Col: e.col, Text: canonical(r.as, e)}
	switch {
	case (e.cmp == "==" || e.cmp == "!=") && !can[truthIndex(e.cmp == "==")] && isConst(e.kids[1]):
		f.Why = fmt.Sprintf("%s takes %s, never %s: they are never equal",
			canonical(r.as, e.kids[0]), valuesText(l), canonical(r.as, e.kids[1]))
	case (e.cmp == "==" || e.cmp == "!=") && !can[truthIndex(e.cmp == "==")]:
		f.Why = fmt.Sprintf("%s takes %s and %s takes %s: they are never equal",
			canonical(r.as, e.kids[0]), valuesText(l), canonical(r.as, e.kids[1]), valuesText(rv))
	case can[1]:
		f.Why = fmt.Sprintf("always true: %s takes %s, %s takes %s",
			canonical(r.as, e.kids[0]), valuesText(l), canonical(r.as, e.kids[1]), valuesText(rv))
	default:
		f.Why = fmt.Sprintf("never true: %s takes %s, %s takes %s",
			canonical(r.as, e.kids[0]), valuesText(l), canonical(r.as, e.kids[1]), valuesText(rv))
	}
	*out = append(*out, f)
}

func truthIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (r *Rule) checkInRange(e *expr, out *[]FixedComparison) {
	vals, ok := r.values(e.kids[0])
	if !ok {
		return
	}
	var dead []string
	for _, s := range e.set {
		if _, found := slices.BinarySearch(vals, s.num); !found {
			dead = append(dead, literalText(s))
		}
	}
	if len(dead) == 0 {
		return
	}
	*out = append(*out, FixedComparison{Col: e.col, Text: canonical(r.as, e),
		Why: fmt.Sprintf("%s takes %s, never %s", canonical(r.as, e.kids[0]), valuesText(vals), strings.Join(dead, ", "))})
}

// valuesCap bounds the value sets worked out; a larger set (deeply nested
// plain arithmetic) is not judged.
const valuesCap = 4096

// values returns, sorted and without repeats, every value e can take as the
// language's types allow, or false when that is unbounded (n) or too large.
func (r *Rule) values(e *expr) ([]int, bool) {
	switch e.op {
	case xNum, xName:
		return []int{e.num}, true
	case xAttr:
		a := &r.as.list[e.attr]
		return span(a.Min, a.Max), true
	case xN:
		return nil, false
	case xNext:
		a := &r.as.list[e.dom]
		return span(a.Min, a.Max), true
	case xMod:
		x, ok := r.values(e.kids[0])
		if !ok {
			return span(0, e.num-1), true
		}
		return r.mapValues(x, nil, func(v, _ int) int { return mod(v, e.num) })
	case xNeg:
		x, ok := r.values(e.kids[0])
		if !ok {
			return nil, false
		}
		return r.mapValues(x, nil, func(v, _ int) int { return r.wrapIn(e.dom, -v) })
	case xAdd, xSub:
		x, okX := r.values(e.kids[0])
		y, okY := r.values(e.kids[1])
		if !okX || !okY {
			if e.dom != domPlain {
				a := &r.as.list[e.dom]
				return span(a.Min, a.Max), true // wrapping keeps even n within range
			}
			return nil, false
		}
		sign := 1
		if e.op == xSub {
			sign = -1
		}
		return r.mapValues(x, y, func(v, w int) int { return r.wrapIn(e.dom, v+sign*w) })
	}
	return nil, false
}

// wrapIn brings v into the range of domain dom when it is a cyclic
// attribute's, as compiled arithmetic does.
func (r *Rule) wrapIn(dom, v int) int {
	if dom == domPlain {
		return v
	}
	return r.as.list[dom].wrap(v)
}

// mapValues applies f to every value of xs (and every pair with ys when ys
// is not nil), returning the sorted distinct results.
func (r *Rule) mapValues(xs, ys []int, f func(x, y int) int) ([]int, bool) {
	seen := map[int]bool{}
	for _, x := range xs {
		if ys == nil {
			seen[f(x, 0)] = true
			continue
		}
		for _, y := range ys {
			seen[f(x, y)] = true
			if len(seen) > valuesCap {
				return nil, false
			}
		}
	}
	out := make([]int, 0, len(seen))
	for v := range seen {
		out = append(out, v)
	}
	slices.Sort(out)
	return out, true
}

func span(lo, hi int) []int {
	out := make([]int, 0, hi-lo+1)
	for v := lo; v <= hi; v++ {
		out = append(out, v)
	}
	return out
}

// valuesText writes a value set briefly: "0 to 9", "2, 3 or 4", "7".
func valuesText(vs []int) string {
	if len(vs) > 3 && vs[len(vs)-1]-vs[0] == len(vs)-1 {
		return strconv.Itoa(vs[0]) + " to " + strconv.Itoa(vs[len(vs)-1])
	}
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = strconv.Itoa(v)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}
