package ifthen

import (
	"slices"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine/rulelang"
)

func TestDeckBalance(t *testing.T) {
	deck := Deck()
	if len(deck) != CardCount {
		t.Fatalf("deck has %d cards, want %d", len(deck), CardCount)
	}
	numbers := map[int]int{}
	ncolors, sizes, bgs := map[int]int{}, map[int]int{}, map[int]int{}
	seen := map[End]bool{}
	for i, c := range deck {
		if c.ID != i {
			t.Fatalf("card %d has id %d", i, c.ID)
		}
		if c.A == c.B {
			t.Errorf("card %d has two equal ends %v", i, c.A)
		}
		for _, e := range []End{c.A, c.B} {
			if e.NColor == e.BG {
				t.Errorf("card %d: number colour equals background: %v", i, e)
			}
			if seen[e] {
				t.Errorf("end %v appears twice", e)
			}
			seen[e] = true
			numbers[e.Number]++
			ncolors[e.NColor]++
			sizes[e.Size]++
			bgs[e.BG]++
		}
	}
	for n := range 10 {
		if numbers[n] != 12 {
			t.Errorf("number %d on %d ends, want 12", n, numbers[n])
		}
	}
	for v := range 3 {
		if ncolors[v] != 40 || bgs[v] != 40 || sizes[v+1] != 40 {
			t.Errorf("value %d: ncolor %d, size %d, bg %d ends, want 40 each", v, ncolors[v], sizes[v+1], bgs[v])
		}
	}
	// Every end is a legal rule-language end.
	as := rulelang.IfThenAttributes()
	univ := as.Universe()
	for _, e := range deckEnds(deck) {
		if !slices.Contains(univ, e) {
			t.Errorf("end %s is not in the If Then universe", as.Format(e))
		}
	}
}

// difficulty is a Challenge's measured difficulty: how many attributes a
// Code Breaker must track, plus how rare a valid end is (1 - the average
// share of deck ends valid after a deck end).
func difficulty(r *rulelang.Rule, ends []rulelang.Card) (float64, float64) {
	valid := 0
	for _, p := range ends {
		for _, e := range ends {
			if r.Accepts([]rulelang.Card{p}, e) {
				valid++
			}
		}
	}
	share := float64(valid) / float64(len(ends)*len(ends))
	return float64(len(r.AttributesUsed())) + 1 - share, share
}

func TestChallengesContent(t *testing.T) {
	as := rulelang.IfThenAttributes()
	ends := deckEnds(Deck())
	all := Challenges()
	counts := map[int]int{}
	sums := map[int]float64{}
	texts := map[string]string{}
	for _, c := range all {
		counts[c.Level]++
		r, err := rulelang.Parse(as, c.Text)
		if err != nil {
			t.Errorf("challenge %s does not parse: %v", c.ID, err)
			continue
		}
		if other, dup := texts[r.String()]; dup {
			t.Errorf("challenges %s and %s are the same rule", other, c.ID)
		}
		texts[r.String()] = c.ID
		if r.Lookback() > 1 || r.UsesPosition() {
			t.Errorf("challenge %s reads more than the last valid card", c.ID)
		}
		// From every possible last card, some end is valid and some invalid.
		for _, p := range ends {
			valid := 0
			for _, e := range ends {
				if r.Accepts([]rulelang.Card{p}, e) {
					valid++
				}
			}
			if valid == 0 || valid == len(ends) {
				t.Errorf("challenge %s after %s: %d of %d ends valid", c.ID, as.Format(p), valid, len(ends))
				break
			}
		}
		attrs := len(r.AttributesUsed())
		isIf := strings.HasPrefix(r.String(), "if ")
		arith := strings.ContainsAny(c.Text, "+-")
		switch c.Level {
		case 0:
			if attrs != 1 || isIf {
				t.Errorf("level 0 challenge %s: %d attributes, condition %v", c.ID, attrs, isIf)
			}
		case 1:
			if attrs != 1 || !isIf {
				t.Errorf("level 1 challenge %s: %d attributes, condition %v", c.ID, attrs, isIf)
			}
		case 2:
			if attrs != 2 || arith {
				t.Errorf("level 2 challenge %s: %d attributes, arithmetic %v", c.ID, attrs, arith)
			}
		case 3:
			if attrs < 2 || attrs > 3 || !arith {
				t.Errorf("level 3 challenge %s: %d attributes, arithmetic %v", c.ID, attrs, arith)
			}
		}
		d, _ := difficulty(r, ends)
		sums[c.Level] += d
		// Hints: computed from the unused attributes, two where possible.
		hints := c.Hints()
		used := r.AttributesUsed()
		want := min(2, 4-len(used))
		if len(hints) != want {
			t.Errorf("challenge %s has %d hints, want %d", c.ID, len(hints), want)
		}
		for _, h := range hints {
			if slices.Contains(used, h.Attribute()) {
				t.Errorf("challenge %s: hint %s names an attribute it uses", c.ID, h.Symbol())
			}
		}
		if len(hints) == 2 && hints[0] == hints[1] {
			t.Errorf("challenge %s: the same hint twice", c.ID)
		}
	}
	if counts[0] != 4 || counts[1] != 40 || counts[2] != 40 || counts[3] != 40 || len(all) != 124 {
		t.Fatalf("challenge counts %v (total %d)", counts, len(all))
	}
	prev := 0.0
	for level := range 4 {
		mean := sums[level] / float64(counts[level])
		t.Logf("level %d: mean measured difficulty %.2f", level, mean)
		if mean <= prev {
			t.Errorf("level %d mean difficulty %.2f does not exceed level %d's %.2f", level, mean, level-1, prev)
		}
		prev = mean
	}
}

func TestHintSymbolsExamples(t *testing.T) {
	for i, c := range Challenges() {
		if challengeAt(i) != c {
			t.Fatalf("challengeAt(%d) = %+v, want %+v", i, challengeAt(i), c)
		}
	}
	c := Challenge{ID: "0-01", Level: 0, Number: 1, Text: "bg != prev.bg"}
	for _, h := range c.Hints() {
		if h == HintTriangle {
			t.Fatalf("a background Code got the background hint")
		}
	}
	c = Challenge{ID: "3-01", Level: 3, Number: 1, Text: "number == prev.number + size and bg != prev.bg"}
	if got := c.Hints(); !slices.Equal(got, []Hint{HintCircle}) {
		t.Fatalf("three-attribute Code hints %v, want only the number-colour hint", got)
	}
	seen := map[Hint]bool{}
	for _, c := range Challenges() {
		for _, h := range c.Hints() {
			seen[h] = true
		}
	}
	if len(seen) != 4 {
		t.Fatalf("only hints %v are ever used", seen)
	}
}
