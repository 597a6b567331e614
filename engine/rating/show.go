package rating

import (
	"math"
	"strconv"
	"strings"
)

// String is the rating as players read it: rounded, thousands grouped, and
// a "?" while provisional ("1,412", "1,530?").
func (r Rating) String() string {
	s := group(int(math.Round(r.R)))
	if r.Provisional() {
		s += "?"
	}
	return s
}

// Deviation is the rating's deviation as shown beside it ("±48").
func (r Rating) Deviation() string { return "±" + strconv.Itoa(int(math.Round(r.RD))) }

// group writes n with commas between thousands.
func group(n int) string {
	neg := n < 0
	if neg {
		n = -n
	}
	s := strconv.Itoa(n)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// sparks are the eight block heights of a trend chart, lowest first.
var sparks = []rune("▁▂▃▄▅▆▇█")

// Spark draws a rating trend in at most width cells, one block per point
// (the last width points), scaled between the lowest and highest shown. A
// flat trend is drawn at mid height; no points draw nothing.
func Spark(points []float64, width int) string {
	if width <= 0 || len(points) == 0 {
		return ""
	}
	if len(points) > width {
		points = points[len(points)-width:]
	}
	lo, hi := points[0], points[0]
	for _, p := range points {
		lo, hi = min(lo, p), max(hi, p)
	}
	var b strings.Builder
	for _, p := range points {
		i := len(sparks) / 2
		if hi > lo {
			i = int(math.Round((p - lo) / (hi - lo) * float64(len(sparks)-1)))
		}
		b.WriteRune(sparks[i])
	}
	return b.String()
}
