package whattherule

import "strings"

// The rule language in brief, for whoever writes a rule or a guess: what a
// rule reads, examples, and how to write one. Every example is checked to
// read as a rule by TestReferenceExamplesParse.
const (
	referenceIntro = "A rule reads the card played (shape, count, filled, color) and the cards " +
		"before it on the line (prev.color, prev2.count and so on), and says whether the card may come next."
	referenceHow = "Values: circle triangle square · 1 to 6 · filled or not filled · white black. " +
		"Compare with == != < <= > >= or in {1, 2}; join with and, or, not, if A then B else C."
)

// referenceExamples are rules with what they mean.
var referenceExamples = [][2]string{
	{"shape != circle", "no circles"},
	{"color != prev.color", "colours take turns"},
	{"count in {1, 2}", "only ones and twos"},
	{"if shape == circle then filled", "circles are filled"},
	{"count > prev.count", "each count bigger than the last"},
	{"even(count) or color == black", "even counts, or any black card"},
}

// referenceLines are the reference in at most room lines of w cells: the
// intro, as many examples as fit, then how to write one.
func (b *Board) referenceLines(w, room int) []string {
	if room < 4 {
		return nil
	}
	intro := wrap(referenceIntro, w-1, " ")
	how := wrap(referenceHow, w-1, " ")
	out := []string{" " + b.paint.Heading.Render("The rule language")}
	out = append(out, intro...)
	ruleW := 0
	for _, e := range referenceExamples {
		ruleW = max(ruleW, len(e[0]))
	}
	for _, e := range referenceExamples {
		if len(out) >= room-len(how) && len(out) >= room-1 {
			break
		}
		line := "   " + e[0] + strings.Repeat(" ", ruleW-len(e[0])+3) + b.paint.Dim.Render(e[1])
		if b.width(line) > w {
			line = "   " + e[0] // too narrow for the meaning
		}
		out = append(out, line)
		if len(out)+len(how) >= room {
			break
		}
	}
	if len(out)+len(how) <= room {
		out = append(out, how...)
	}
	return out[:min(len(out), room)]
}
