package ifthen

import (
	"slices"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine/rulelang"
	"github.com/codebreakers/codebreakers/engine/rulelang/rulelangtest"
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
		// Numbers count round (9 + 1 is 0): no comparison may name a value
		// its side can never take, as a sum compared with 10 would.
		for _, f := range r.FixedComparisons() {
			t.Errorf("challenge %s: %v", c.ID, f)
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
			if attrs != 2 || !arith {
				t.Errorf("level 3 challenge %s: %d attributes, arithmetic %v; want 2 attributes and arithmetic", c.ID, attrs, arith)
			}
		}
		d, _ := difficulty(r, ends)
		sums[c.Level] += d
		// Hints: computed from the unused attributes. Every Challenge card
		// shows two Hint symbols and the second Hint costs six cards, so
		// both must be true of the Code.
		hints := c.Hints()
		used := r.AttributesUsed()
		if len(hints) != 2 {
			t.Errorf("challenge %s (%s) has %d true hints, want exactly 2", c.ID, strings.Join(used, ", "), len(hints))
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
	// No two Challenges are the same Code in other words.
	for level := range 4 {
		cs := ChallengesAt(level)
		for i := range cs {
			for j := range i {
				if same, _, err := rulelang.Equivalent(cs[i].Rule(), cs[j].Rule()); err != nil || same {
					t.Errorf("challenges %s and %s are the same Code (%v)", cs[j].ID, cs[i].ID, err)
				}
			}
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

// Each Challenge's English, read on its own (rulelangtest), judges every
// pair of deck ends as the Challenge does.
func TestChallengesSayWhatTheyJudge(t *testing.T) {
	ends := deckEnds(Deck())
	lines := make([][]rulelang.Card, len(ends))
	for i, e := range ends {
		lines[i] = []rulelang.Card{e}
	}
	for _, c := range Challenges() {
		if err := rulelangtest.SaysWhatItJudges(c.Rule(), lines, ends); err != nil {
			t.Errorf("challenge %s: %v", c.ID, err)
		}
	}
}

func TestHintSymbolsExamples(t *testing.T) {
	for i, c := range Challenges() {
		if challengeAt(i, false) != c {
			t.Fatalf("challengeAt(%d) = %+v, want %+v", i, challengeAt(i, false), c)
		}
	}
	c := Challenge{ID: "0-01", Level: 0, Number: 1, Text: "bg != prev.bg"}
	for _, h := range c.Hints() {
		if h == HintTriangle {
			t.Fatalf("a background Code got the background hint")
		}
	}
	c = Challenge{ID: "3-01", Level: 3, Number: 1, Text: "number == prev.number + size"}
	if got := c.Hints(); !slices.Equal(got, []Hint{HintCircle, HintTriangle}) {
		t.Fatalf("number-and-size Code hints %v, want the number-colour and background hints", got)
	}
	// A first-rules Code that read three attributes had one true Hint.
	c = challengeAt(slices.IndexFunc(Challenges(), func(c Challenge) bool { return c.ID == "3-05" }), true)
	if got := c.Hints(); !slices.Equal(got, []Hint{HintX}) {
		t.Fatalf("first-rules 3-05 (%s) hints %v, want only the size hint", c.Text, got)
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
