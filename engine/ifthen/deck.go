package ifthen

import (
	"fmt"
	"strings"

	"github.com/codebreakers/codebreakers/engine/rulelang"
)

// CardCount is the number of Number cards: the deck is the same in every game.
const CardCount = 60

// Colours, in the rule language's order (yellow 0, blue 1, red 2).
var colourNames = [3]string{"yellow", "blue", "red"}

// Sizes, 1 to 3 as the rule language counts them.
var sizeNames = [4]string{"", "small", "medium", "large"}

// End is one end of a Number card: the part that counts when it is on top
// in the Code Line.
type End struct {
	Number int `json:"number"` // 0–9
	NColor int `json:"ncolor"` // 0 yellow, 1 blue, 2 red
	Size   int `json:"size"`   // 1 small, 2 medium, 3 large
	BG     int `json:"bg"`     // 0 yellow, 1 blue, 2 red; never NColor
}

// Rule returns the end as the rule language's card.
func (e End) Rule() rulelang.Card {
	var c rulelang.Card
	c[rulelang.ITNumber] = int8(e.Number)
	c[rulelang.ITNColor] = int8(e.NColor)
	c[rulelang.ITSize] = int8(e.Size)
	c[rulelang.ITBg] = int8(e.BG)
	return c
}

// Code is the end's compact form, e.g. "7RLb": the number, the number colour
// (Y, B, R), the size (S, M, L) and the background (y, b, r).
func (e End) Code() string {
	return fmt.Sprintf("%d%c%c%c", e.Number, "YBR"[e.NColor], " SML"[e.Size], "ybr"[e.BG])
}

// String describes the end in words: "large red 7 on blue".
func (e End) String() string {
	return fmt.Sprintf("%s %s %d on %s", sizeNames[e.Size], colourNames[e.NColor], e.Number, colourNames[e.BG])
}

// ColourName names colour index c (0 yellow, 1 blue, 2 red).
func ColourName(c int) string {
	if c < 0 || c > 2 {
		return "?"
	}
	return colourNames[c]
}

// SizeName names size s (1 small, 2 medium, 3 large).
func SizeName(s int) string {
	if s < 1 || s > 3 {
		return "?"
	}
	return sizeNames[s]
}

// parseEnd reads an end's Code.
func parseEnd(code string) (End, error) {
	if len(code) != 4 || code[0] < '0' || code[0] > '9' {
		return End{}, fmt.Errorf("ifthen: bad end code %q", code)
	}
	e := End{Number: int(code[0] - '0')}
	e.NColor = strings.IndexByte("YBR", code[1])
	e.Size = strings.IndexByte(" SML", code[2])
	e.BG = strings.IndexByte("ybr", code[3])
	if e.NColor < 0 || e.Size < 1 || e.BG < 0 || e.NColor == e.BG {
		return End{}, fmt.Errorf("ifthen: bad end code %q", code)
	}
	return e, nil
}

// Card is a Number card: two ends, A and B. Which one is on top depends on
// how it is played.
type Card struct {
	ID int `json:"id"` // 0–59
	A  End `json:"a"`
	B  End `json:"b"`
}

// End returns the end on top when the card is played with up (0: A, 1: B).
func (c Card) End(up int) End {
	if up == 1 {
		return c.B
	}
	return c.A
}

// deckCodes is the fixed deck. It was laid out so that every number is on
// 12 ends, every number colour, size and background on 40, each of the six
// colour pairs on 20, and no card has two equal ends (deck_test.go checks).
// It is read only.
var deckCodes = [CardCount][2]string{
	{"0YSb", "1YSr"}, {"1YMb", "8RMy"}, {"2YLb", "5BLy"}, {"3YSb", "2YSb"}, {"4YMb", "9BMr"},
	{"5YLb", "6YLr"}, {"6YSb", "3RSb"}, {"7YMb", "0BMr"}, {"8YLb", "7YLb"}, {"9YSb", "4RSy"},
	{"0YMr", "1BMy"}, {"1YLr", "8RLb"}, {"2YSr", "5BSr"}, {"3YMr", "2YMr"}, {"4YLr", "9RLy"},
	{"5YSr", "6BSy"}, {"6YMr", "3YMb"}, {"7YLr", "0RLy"}, {"8YSr", "7YSr"}, {"9YMr", "4RMb"},
	{"0BLy", "1BLr"}, {"1BSy", "8YSb"}, {"2BMy", "5RMy"}, {"3BLy", "2BLy"}, {"4BSy", "9RSb"},
	{"5BMy", "6BMr"}, {"6BLy", "3YLr"}, {"7BSy", "0RSb"}, {"8BMy", "7BMy"}, {"9BLy", "4YLb"},
	{"0BSr", "1RSy"}, {"1BMr", "8YMr"}, {"2BLr", "5RLb"}, {"3BSr", "2BSr"}, {"4BMr", "9YMb"},
	{"5BLr", "6RLy"}, {"6BSr", "3BSy"}, {"7BMr", "0YMb"}, {"8BLr", "7BLr"}, {"9BSr", "4YSr"},
	{"0RMy", "1RMb"}, {"1RLy", "8BLy"}, {"2RSy", "5YSb"}, {"3RMy", "2RMy"}, {"4RLy", "9YLr"},
	{"5RSy", "6RSb"}, {"6RMy", "3BMr"}, {"7RLy", "0YLr"}, {"8RSy", "7RSy"}, {"9RMy", "4BMy"},
	{"0RLb", "1YLb"}, {"1RSb", "8BSr"}, {"2RMb", "5YMr"}, {"3RLb", "2RLb"}, {"4RSb", "9BSy"},
	{"5RMb", "6YMb"}, {"6RLb", "3RLy"}, {"7RSb", "0BSy"}, {"8RMb", "7RMb"}, {"9RLb", "4BLr"},
}

// Deck returns the 60 Number cards in their fixed order (a fresh slice).
func Deck() []Card {
	out := make([]Card, CardCount)
	for i, pair := range deckCodes {
		a, err := parseEnd(pair[0])
		if err != nil {
			panic(err) // the table above is fixed; a failure is a bug in this file
		}
		b, err := parseEnd(pair[1])
		if err != nil {
			panic(err)
		}
		out[i] = Card{ID: i, A: a, B: b}
	}
	return out
}

// deckEnds returns the 120 ends of the deck as rule-language cards.
func deckEnds(deck []Card) []rulelang.Card {
	out := make([]rulelang.Card, 0, 2*len(deck))
	for _, c := range deck {
		out = append(out, c.A.Rule(), c.B.Rule())
	}
	return out
}
