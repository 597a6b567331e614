// Package rulelang is the small rule language shared by If Then and
// What the Rule?!: a secret rule decides whether a candidate card may follow
// the cards already in the valid line.
//
// A game supplies its card attributes (an *Attributes); the package parses a
// rule against them, prints it back canonically, renders it in English,
// judges cards in three-valued logic, analyses it, and decides exactly
// whether two rules are equivalent, with a counterexample when they are not.
//
// The package is pure: no I/O, no clocks, no goroutines, no global state.
package rulelang

import (
	"fmt"
	"strings"
)

// Kind says what sort of values an attribute takes.
type Kind uint8

const (
	// KindBool attributes are true or false (What the Rule?!'s filled).
	KindBool Kind = iota
	// KindEnum attributes take one of a few named values with no arithmetic
	// (shape, colours). next() steps through them cyclically.
	KindEnum
	// KindNumber attributes are whole numbers: they allow arithmetic,
	// ordering, even() and odd(). They may also have names for their values
	// (If Then's size: small, medium, large are 1, 2, 3).
	KindNumber
)

// MaxAttributes is the most attributes a game may give its cards.
const MaxAttributes = 6

// Card is one card (or, in If Then, one end of a card) as the rule language
// sees it: the value of each attribute, in the order of the game's
// Attributes. Bool attributes hold 0 (false) or 1 (true).
type Card [MaxAttributes]int8

// Attribute describes one property of a card.
type Attribute struct {
	Name    string   // the word used in rules, e.g. "shape", "ncolor"
	Aliases []string // other accepted spellings, e.g. "colour"
	Noun    string   // English noun for rule cards, e.g. "background colour"
	Kind    Kind
	Min     int      // smallest value (bool: 0)
	Max     int      // largest value (bool: 1)
	Names   []string // names of the values Min..Max; for bools the English words for false and true
	Cyclic  bool     // arithmetic wraps around within Min..Max (If Then numbers: 9+1 = 0)
}

func (a *Attribute) size() int { return a.Max - a.Min + 1 }

// valueName returns the name of value v, or its digits when it has none.
func (a *Attribute) valueName(v int) string {
	if a.Kind != KindBool && len(a.Names) == a.size() && v >= a.Min && v <= a.Max {
		return a.Names[v-a.Min]
	}
	if a.Kind == KindBool {
		if v != 0 {
			return "true"
		}
		return "false"
	}
	return fmt.Sprint(v)
}

// lookupValue resolves a value name of this attribute.
func (a *Attribute) lookupValue(name string) (int, bool) {
	if a.Kind == KindBool {
		return 0, false
	}
	for i, n := range a.Names {
		if strings.EqualFold(n, name) {
			return a.Min + i, true
		}
	}
	return 0, false
}

// wrap brings v back into Min..Max for cyclic attributes.
func (a *Attribute) wrap(v int) int {
	r := a.size()
	v = (v - a.Min) % r
	if v < 0 {
		v += r
	}
	return v + a.Min
}

// Attributes is a game's set of card attributes and the universe of all
// distinct cards. It is immutable once built.
type Attributes struct {
	game     string
	list     []Attribute
	universe []Card
}

// NewAttributes builds an attribute set. valid filters the combinations of
// values that exist as cards (nil keeps all of them); the universe is every
// combination that passes, in a fixed order.
func NewAttributes(game string, list []Attribute, valid func(Card) bool) (*Attributes, error) {
	if len(list) == 0 || len(list) > MaxAttributes {
		return nil, fmt.Errorf("rulelang: %s: need 1 to %d attributes, got %d", game, MaxAttributes, len(list))
	}
	seen := map[string]bool{}
	for i := range list {
		a := &list[i]
		if a.Kind == KindBool {
			a.Min, a.Max = 0, 1
		}
		if a.Max < a.Min || a.Min < -100 || a.Max > 100 {
			return nil, fmt.Errorf("rulelang: %s: attribute %q has a bad range %d..%d", game, a.Name, a.Min, a.Max)
		}
		if len(a.Names) != 0 && len(a.Names) != a.size() {
			return nil, fmt.Errorf("rulelang: %s: attribute %q needs %d value names, got %d", game, a.Name, a.size(), len(a.Names))
		}
		if a.Kind == KindEnum && len(a.Names) == 0 {
			return nil, fmt.Errorf("rulelang: %s: attribute %q is an enum without value names", game, a.Name)
		}
		for _, w := range append([]string{a.Name}, a.Aliases...) {
			if seen[w] || isKeyword(w) || isSlot(w) {
				return nil, fmt.Errorf("rulelang: %s: attribute name %q is reserved or used twice", game, w)
			}
			seen[w] = true
		}
	}
	as := &Attributes{game: game, list: append([]Attribute(nil), list...)}
	var c Card
	var fill func(i int)
	fill = func(i int) {
		if i == len(as.list) {
			if valid == nil || valid(c) {
				as.universe = append(as.universe, c)
			}
			return
		}
		for v := as.list[i].Min; v <= as.list[i].Max; v++ {
			c[i] = int8(v)
			fill(i + 1)
		}
	}
	fill(0)
	if len(as.universe) == 0 || len(as.universe) > 250 {
		return nil, fmt.Errorf("rulelang: %s: the universe holds %d cards; it must hold 1 to 250", game, len(as.universe))
	}
	return as, nil
}

// Game names the game these attributes belong to.
func (as *Attributes) Game() string { return as.game }

// Len is the number of attributes.
func (as *Attributes) Len() int { return len(as.list) }

// At returns attribute i (a copy).
func (as *Attributes) At(i int) Attribute { return as.list[i] }

// Index finds an attribute by name or alias.
func (as *Attributes) Index(name string) (int, bool) {
	for i := range as.list {
		if as.list[i].Name == name {
			return i, true
		}
		for _, al := range as.list[i].Aliases {
			if al == name {
				return i, true
			}
		}
	}
	return -1, false
}

// Universe returns every distinct card of the game (a fresh slice).
func (as *Attributes) Universe() []Card { return append([]Card(nil), as.universe...) }

// NewCard builds a card from named values, e.g.
// NewCard(map[string]string{"shape": "circle", "count": "3", "filled": "true", "color": "black"}).
// Every attribute must be given.
func (as *Attributes) NewCard(values map[string]string) (Card, error) {
	var c Card
	if len(values) != len(as.list) {
		return c, fmt.Errorf("rulelang: a %s card needs %d attributes, got %d", as.game, len(as.list), len(values))
	}
	for name, val := range values {
		i, ok := as.Index(name)
		if !ok {
			return c, fmt.Errorf("rulelang: %s cards have no attribute %q", as.game, name)
		}
		v, err := as.list[i].parseValue(val)
		if err != nil {
			return c, err
		}
		c[i] = int8(v)
	}
	for _, u := range as.universe {
		if u == c {
			return c, nil
		}
	}
	return c, fmt.Errorf("rulelang: there is no such %s card: %s", as.game, as.Format(c))
}

func (a *Attribute) parseValue(s string) (int, error) {
	if a.Kind == KindBool {
		switch strings.ToLower(s) {
		case "true", "yes", "1":
			return 1, nil
		case "false", "no", "0":
			return 0, nil
		}
		if len(a.Names) == 2 {
			if strings.EqualFold(s, a.Names[1]) {
				return 1, nil
			}
			if strings.EqualFold(s, a.Names[0]) {
				return 0, nil
			}
		}
		return 0, fmt.Errorf("rulelang: %s must be true or false, not %q", a.Name, s)
	}
	if v, ok := a.lookupValue(s); ok {
		return v, nil
	}
	var v int
	if _, err := fmt.Sscan(s, &v); err == nil && a.Kind == KindNumber && v >= a.Min && v <= a.Max {
		return v, nil
	}
	return 0, fmt.Errorf("rulelang: %q is not a value of %s", s, a.Name)
}

// Get returns the value of the named attribute of c as the language writes it
// (a value name, a number, or true/false).
func (as *Attributes) Get(c Card, name string) string {
	i, ok := as.Index(name)
	if !ok {
		return ""
	}
	return as.list[i].valueName(int(c[i]))
}

// Format writes a card as "name=value" pairs, e.g. "shape=circle count=3 filled=true color=black".
func (as *Attributes) Format(c Card) string {
	var b strings.Builder
	for i := range as.list {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(as.list[i].Name)
		b.WriteByte('=')
		b.WriteString(as.list[i].valueName(int(c[i])))
	}
	return b.String()
}

// Attribute indexes of What the Rule?! cards, in WhatTheRuleAttributes order.
const (
	WTRShape  = 0
	WTRCount  = 1
	WTRFilled = 2
	WTRColor  = 3
)

// WhatTheRuleAttributes returns the attributes of What the Rule?! cards:
// shape (circle, triangle, square, in that cyclic order), count (1–6),
// filled (true/false) and color (white, black). The universe holds the 72
// distinct cards.
func WhatTheRuleAttributes() *Attributes {
	as, err := NewAttributes("What the Rule?!", []Attribute{
		{Name: "shape", Noun: "shape", Kind: KindEnum, Min: 0, Max: 2, Names: []string{"circle", "triangle", "square"}, Cyclic: true},
		{Name: "count", Noun: "count", Kind: KindNumber, Min: 1, Max: 6},
		{Name: "filled", Noun: "filling", Kind: KindBool, Names: []string{"unfilled", "filled"}},
		{Name: "color", Aliases: []string{"colour"}, Noun: "colour", Kind: KindEnum, Min: 0, Max: 1, Names: []string{"white", "black"}, Cyclic: true},
	}, nil)
	if err != nil {
		panic(err) // the table above is fixed; a failure is a bug in this file
	}
	return as
}

// WTRCard builds a What the Rule?! card.
func WTRCard(shape string, count int, filled bool, color string) (Card, error) {
	as := WhatTheRuleAttributes()
	return as.NewCard(map[string]string{"shape": shape, "count": fmt.Sprint(count), "filled": fmt.Sprint(filled), "color": color})
}

// Attribute indexes of If Then ends, in IfThenAttributes order.
const (
	ITNumber = 0
	ITNColor = 1
	ITSize   = 2
	ITBg     = 3
)

// IfThenAttributes returns the attributes of If Then card ends: number
// (0–9, cyclic: 9+1 = 0), ncolor and bg (yellow, blue, red) and size
// (small, medium, large, which are also 1–3). The universe holds the 180
// possible ends: every combination whose number colour differs from its
// background.
func IfThenAttributes() *Attributes {
	colours := []string{"yellow", "blue", "red"}
	as, err := NewAttributes("If Then", []Attribute{
		{Name: "number", Noun: "number", Kind: KindNumber, Min: 0, Max: 9, Cyclic: true},
		{Name: "ncolor", Aliases: []string{"ncolour"}, Noun: "number colour", Kind: KindEnum, Min: 0, Max: 2, Names: colours, Cyclic: true},
		{Name: "size", Noun: "size", Kind: KindNumber, Min: 1, Max: 3, Names: []string{"small", "medium", "large"}},
		{Name: "bg", Aliases: []string{"background"}, Noun: "background colour", Kind: KindEnum, Min: 0, Max: 2, Names: colours, Cyclic: true},
	}, func(c Card) bool { return c[ITNColor] != c[ITBg] })
	if err != nil {
		panic(err) // the table above is fixed; a failure is a bug in this file
	}
	return as
}

// ITEnd builds an If Then end.
func ITEnd(number int, ncolor, size, bg string) (Card, error) {
	as := IfThenAttributes()
	return as.NewCard(map[string]string{"number": fmt.Sprint(number), "ncolor": ncolor, "size": size, "bg": bg})
}
