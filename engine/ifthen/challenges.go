package ifthen

import (
	"fmt"
	"slices"

	"github.com/codebreakers/codebreakers/engine/rulelang"
)

// Challenge is one secret Code: a rule in the shared rule language that
// judges a candidate end against the last valid card of the Code Line.
type Challenge struct {
	ID     string // stable id, e.g. "2-17" (level, number)
	Level  int    // 0–3
	Number int    // 1-based place within its level
	Text   string // the rule, in the rule language
}

// Hint is one of the four Hint cards. Each says the Code does not involve one
// attribute.
type Hint int

// The four Hint cards, by symbol.
const (
	HintX        Hint = iota // the Code does not involve number size
	HintSquare               // the Code does not involve the number's value
	HintCircle               // the Code does not involve number colour
	HintTriangle             // the Code does not involve background colour
)

// hintAttribute is the attribute each Hint card rules out, in Hint order.
var hintAttribute = [4]string{"size", "number", "ncolor", "bg"}

// Symbol is the Hint card's symbol as drawn on screen.
func (h Hint) Symbol() string {
	switch h {
	case HintX:
		return "X"
	case HintSquare:
		return "□"
	case HintCircle:
		return "○"
	case HintTriangle:
		return "△"
	}
	return "?"
}

// Attribute is the rule-language attribute the Hint rules out.
func (h Hint) Attribute() string {
	if h < 0 || int(h) >= len(hintAttribute) {
		return ""
	}
	return hintAttribute[h]
}

// Text says what the Hint reveals, in the project's words.
func (h Hint) Text() string {
	nouns := [4]string{"the number's size", "the number's value", "the number's colour", "the background colour"}
	if h < 0 || int(h) >= len(nouns) {
		return ""
	}
	return "The Code ignores " + nouns[h] + "."
}

// Rule parses the Challenge (the texts are fixed data, checked by tests).
func (c Challenge) Rule() *rulelang.Rule {
	return rulelang.MustParse(rulelang.IfThenAttributes(), c.Text)
}

// Hints returns the Challenge's Hint cards, computed from the attributes its
// rule never reads. Every Challenge reads two attributes, so two Hints are
// always true of it: when it reads one, which two of the three rotates with
// the Challenge's place in its level, so every symbol comes up. (A first
// rules Challenge that read three attributes has only one.)
func (c Challenge) Hints() []Hint {
	used := c.Rule().AttributesUsed()
	var unused []Hint
	for h := HintX; h <= HintTriangle; h++ {
		if !slices.Contains(used, h.Attribute()) {
			unused = append(unused, h)
		}
	}
	if len(unused) <= 2 {
		return unused
	}
	start := c.Number % len(unused)
	return []Hint{unused[start], unused[(start+1)%len(unused)]}
}

// ChallengesAt returns the Challenges of one level, in their fixed order.
func ChallengesAt(level int) []Challenge { return challengesAt(level, false) }

// challengesAt is ChallengesAt under the first rules (first) or the current.
func challengesAt(level int, first bool) []Challenge {
	var out []Challenge
	for _, c := range challengeList(first) {
		if c.Level == level {
			out = append(out, c)
		}
	}
	return out
}

// Challenges returns all 124 Challenges: 4 at Level 0 and 40 at each of
// Levels 1 to 3. Level 0 reads one attribute with no condition; Level 1 one
// attribute under a condition; Level 2 two attributes; Level 3 two, with
// arithmetic on numbers that counts round from 9 to 0.
func Challenges() []Challenge { return challengeList(false) }

func challengeList(first bool) []Challenge {
	out := make([]Challenge, 0, 124)
	for level, texts := range challengeTexts {
		for i := range texts {
			out = append(out, challengeOf(level, i, first))
		}
	}
	return out
}

func challengeOf(level, i int, first bool) Challenge {
	c := Challenge{ID: fmt.Sprintf("%d-%02d", level, i+1), Level: level, Number: i + 1, Text: challengeTexts[level][i]}
	if text, ok := firstTexts[c.ID]; ok && first {
		c.Text = text
	}
	return c
}

// challengeAt returns the Challenge at index i of Challenges() (under the
// first rules when first is set) without building the whole list.
func challengeAt(i int, first bool) Challenge {
	for level, texts := range challengeTexts {
		if i < len(texts) {
			return challengeOf(level, i, first)
		}
		i -= len(texts)
	}
	panic(fmt.Sprintf("ifthen: no challenge %d", i)) // indexes come from Challenges(): a bug
}

// challengeTexts holds every Challenge by level. Read only.
var challengeTexts = [4][]string{
	0: {
		"bg != prev.bg",
		"ncolor != prev.ncolor",
		"size != prev.size",
		"number != prev.number",
	},
	1: {
		// background alone
		"if prev.bg == yellow then bg == blue else bg != prev.bg",
		"if prev.bg == red then bg == yellow else bg == red",
		"if prev.bg == blue then bg != blue else bg == blue",
		"if prev.bg == yellow then bg != red else bg == yellow",
		"if prev.bg != yellow then bg == yellow else bg != yellow",
		"if prev.bg == blue then bg == red else bg == blue",
		"if prev.bg == red then bg != red else bg == prev.bg",
		"if prev.bg in {yellow, blue} then bg == next(prev.bg) else bg != red",
		// number colour alone
		"if prev.ncolor == yellow then ncolor == blue else ncolor != prev.ncolor",
		"if prev.ncolor == red then ncolor == yellow else ncolor == red",
		"if prev.ncolor == blue then ncolor != blue else ncolor == blue",
		"if prev.ncolor == yellow then ncolor != red else ncolor == yellow",
		"if prev.ncolor != red then ncolor == red else ncolor != red",
		"if prev.ncolor == blue then ncolor == yellow else ncolor == blue",
		"if prev.ncolor == yellow then ncolor != yellow else ncolor == prev.ncolor",
		"if prev.ncolor in {blue, red} then ncolor == next(prev.ncolor) else ncolor != blue",
		// size alone
		"if prev.size == large then size == small else size > prev.size",
		"if prev.size == small then size == large else size < prev.size",
		"if prev.size == medium then size != medium else size == medium",
		"if prev.size == small then size != small else size < prev.size",
		"if prev.size == large then size != large else size == large",
		"if prev.size != small then size == small else size != small",
		"if prev.size == medium then size == large else size != prev.size",
		"if prev.size >= medium then size < prev.size else size == medium",
		// number alone
		"if even(prev.number) then odd(number) else even(number)",
		"if prev.number < 5 then number >= 5 else number < 5",
		"if even(prev.number) then number > prev.number else number < prev.number",
		"if prev.number > 4 then number < prev.number else number > prev.number",
		"if odd(prev.number) then number in {0, 2, 4} else number in {1, 3, 5, 7, 9}",
		"if prev.number <= 3 then number >= 4 else number <= 3",
		"if prev.number == 0 then number != 0 else number < prev.number",
		"if prev.number == 9 then number == 0 else number > prev.number",
		"if even(prev.number) then even(number) else number > 4",
		"if prev.number >= 7 then number <= 2 else number > prev.number",
		"if prev.number in {0, 5} then number not in {0, 5} else number in {0, 5}",
		"if odd(prev.number) then number < 5 else odd(number)",
		"if prev.number < 3 then number > 6 else number < prev.number",
		"if prev.number in {3, 6, 9} then number in {1, 2, 4, 5, 7, 8} else number in {0, 3, 6, 9}",
		"if even(prev.number) then number != prev.number else number == 1 or number == 8",
		"if prev.number > 5 then even(number) else number > 5",
	},
	2: {
		"if bg == yellow then even(number) else odd(number)",
		"if prev.bg == red then size == large else size != large",
		"ncolor == prev.bg",
		"bg == prev.ncolor",
		"if prev.size == small then bg == blue else bg != blue",
		"if even(prev.number) then ncolor != prev.ncolor else ncolor == prev.ncolor",
		"if size == large then number > 4 else number <= 4",
		"if bg == prev.bg then size != prev.size else size == prev.size",
		"if ncolor == prev.ncolor then even(number) else odd(number)",
		"if prev.size == large then ncolor == red else ncolor != red",
		"bg != prev.bg and size != prev.size",
		"if odd(prev.number) then bg == prev.bg else bg != prev.bg",
		"if size > prev.size then bg == red else bg != red",
		"if prev.ncolor == blue then number < 5 else number >= 5",
		"if number > prev.number then ncolor != prev.ncolor else ncolor == prev.ncolor",
		"if prev.bg == yellow then odd(number) else even(number)",
		"if size == small then ncolor == yellow else ncolor != yellow",
		"ncolor != prev.ncolor and bg != prev.bg",
		"if bg == red then size == prev.size else size != prev.size",
		"if prev.size == medium then number in {0, 1, 2, 3} else number in {6, 7, 8, 9}",
		"if even(number) then size != prev.size else size == prev.size",
		"if ncolor == blue then bg == prev.bg else bg != prev.bg",
		"if prev.ncolor == yellow then size == small else size != small",
		"if prev.number > 4 then bg == yellow else bg == red",
		"if bg == blue then number < prev.number else number > prev.number or number == 0",
		"ncolor == prev.ncolor or size == prev.size",
		"if size < prev.size then bg != prev.bg else bg == prev.bg",
		"if prev.bg == blue then ncolor == yellow else ncolor == blue",
		"if odd(number) then ncolor == prev.ncolor else ncolor != prev.ncolor",
		"if prev.size == small then even(number) else odd(number)",
		"bg == prev.ncolor or ncolor == prev.ncolor",
		"if number <= 2 then size == large else size != prev.size",
		"if prev.ncolor == red then bg != red else bg == red",
		"if bg == prev.bg then number != prev.number else number == prev.number",
		"if prev.number in {0, 1, 2} then size == small else size == large",
		"if ncolor == red then size >= prev.size else size < prev.size",
		"if prev.bg == yellow then ncolor == red else ncolor == yellow",
		"number in {1, 4, 7} or bg == prev.bg",
		"if size == large then bg != prev.bg else bg == yellow",
		"if odd(prev.number) then ncolor == blue else ncolor == red",
	},
	3: {
		"number == prev.number + size",
		"if bg == red then number == prev.number + 1 else number == prev.number - 1",
		"even(number + prev.number) and bg != prev.bg",
		"number - prev.number in {1, 2, 3} and ncolor != prev.ncolor",
		"if ncolor == prev.ncolor then number == prev.number + 2 else number == prev.number + 5",
		"number == prev.number + prev.size",
		"if size == large then even(number + prev.number) else odd(number + prev.number)",
		"even(number + size)",
		"if bg == prev.bg then number == prev.number + 3 else number - prev.number in {6, 7}",
		"odd(number + prev.number) and size != prev.size",
		"number + prev.number in {8, 9, 0} or size == prev.size",
		"if ncolor == yellow then number == prev.number + 1 else number == prev.number + 4",
		"number - prev.number in {1, 3, 5, 7, 9} or bg == prev.bg",
		"if size == prev.size then number == prev.number + 5 else number - prev.number in {1, 2}",
		"number == prev.number + prev.size or number == prev.number - prev.size",
		"if even(prev.number) then number == prev.number + 3 and ncolor != prev.ncolor else number == prev.number - 3",
		"odd(number + size + prev.size)",
		"if bg == yellow then number - prev.number in {1, 2, 3, 4} else number - prev.number in {6, 7, 8, 9}",
		"number + prev.number == 9 or size == prev.size",
		"(number - prev.number) % 3 == 0 and ncolor != prev.ncolor",
		"if prev.bg == red then number == prev.number + 2 else number == prev.number + 7",
		"number - prev.number in {2, 4, 6} and bg != prev.bg",
		"if ncolor == red then number + prev.number in {9, 0, 1} else even(number)",
		"number == prev.number + size or number == prev.number - size",
		"if size > prev.size then number == prev.number + 1 else number == prev.number + 9",
		"even(number + prev.number + size)",
		"if ncolor == prev.ncolor then number - prev.number in {1, 2} else number - prev.number in {8, 9}",
		"number - prev.number == size + 1",
		"if bg == blue then odd(number + prev.number) else number - prev.number in {4, 5, 6}",
		"number + prev.number in {3, 6, 9} and bg != prev.bg",
		"if prev.size == large then number == prev.number + 4 else number - prev.number in {1, 2, 3}",
		"(number + prev.number) % 4 == 1 and bg != prev.bg",
		"if even(number) then number == prev.number + 2 else size != prev.size",
		"number - prev.number in {4, 5, 6} and size >= prev.size",
		"if size == small then number == prev.number - 1 else number == prev.number + size",
		"number - prev.number in {3, 5, 7} and bg != prev.bg",
		"if bg == prev.bg then number + prev.number == 0 or number == prev.number else number == prev.number + 6",
		"number - prev.number in {7, 8, 9} and size != prev.size",
		"if ncolor == blue then even(number + prev.number) else number == prev.number + 3",
		"(number + size) % 3 == (prev.number + prev.size) % 3",
	},
}

// firstTexts are the Challenges as the game was first played (rules
// revision RulesFirst) where they differ from challengeTexts: eleven Level
// 3 Challenges read three attributes (so they had one true Hint, not two),
// 3-37 compared a sum, which wraps, with 10, and 2-27, 2-31 and 3-35 were
// 2-08, 2-18 and 3-01 in other words. Kept only so that games recorded then
// replay as they were played.
var firstTexts = map[string]string{
	"2-27": "if size == prev.size then bg != prev.bg else bg == prev.bg",
	"2-31": "bg == prev.ncolor or ncolor == prev.bg",
	"3-05": "if ncolor == prev.bg then number == prev.number + 2 else number == prev.number + 5",
	"3-24": "number == prev.number + size or bg == prev.bg and size == prev.size",
	"3-29": "if bg == blue then odd(number + prev.number) else size != prev.size",
	"3-31": "if prev.size == large then number == prev.number + 4 else number - prev.number in {1, 2, 3} and ncolor != prev.ncolor",
	"3-32": "(number + prev.number) % 4 == 1 or ncolor == prev.bg",
	"3-33": "if even(number) then number == prev.number + 2 else bg != prev.bg and size == large",
	"3-34": "number - prev.number in {4, 5, 6} and size >= prev.size or bg == prev.bg",
	"3-35": "if size == small then number == prev.number + 1 else number == prev.number + size",
	"3-36": "odd(number - prev.number) and ncolor != prev.ncolor and bg != prev.bg",
	"3-37": "if bg == prev.ncolor then number + prev.number == 10 or number == prev.number else number == prev.number + 6",
	"3-38": "number - prev.number in {7, 8, 9} or size == prev.size and bg != prev.bg",
	"3-39": "if ncolor == blue then even(number + prev.number) else number == prev.number + prev.size",
}
