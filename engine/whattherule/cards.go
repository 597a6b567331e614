package whattherule

import (
	"fmt"
	"strings"

	"github.com/codebreakers/codebreakers/engine/rulelang"
)

// Deck size: each of the 72 distinct faces is printed twice.
const (
	Faces     = 72
	DeckSize  = 2 * Faces
	HandStart = 10 // cards dealt to each player at the start of a round
)

// Card is one physical card as views show it. ID is 0..143; cards ID and
// ID+72 look the same. Shape is circle, triangle or square; Color is white
// or black.
type Card struct {
	ID     int    `json:"id"`
	Shape  string `json:"shape"`
	Count  int    `json:"count"`
	Filled bool   `json:"filled"`
	Color  string `json:"color"`
}

// attrs is the What the Rule?! attribute set; it is immutable.
var attrs = rulelang.WhatTheRuleAttributes()

// faces lists the 72 distinct faces in a fixed order: physical card id is
// face id%72. The slice is never written after start-up.
var faces = attrs.Universe()

// Attributes returns the attribute set rules are written over.
func Attributes() *rulelang.Attributes { return attrs }

// faceOf returns the rule-language card for physical card id.
func faceOf(id int) rulelang.Card { return faces[id%Faces] }

// CardOf describes physical card id (0..143).
func CardOf(id int) Card {
	f := faceOf(id)
	return Card{
		ID:     id,
		Shape:  attrs.Get(f, "shape"),
		Count:  int(f[rulelang.WTRCount]),
		Filled: f[rulelang.WTRFilled] != 0,
		Color:  attrs.Get(f, "color"),
	}
}

// Face returns the card as the rule language sees it.
func (c Card) Face() rulelang.Card { return faceOf(c.ID) }

// String writes a card compactly, e.g. "3 filled black circles".
func (c Card) String() string {
	fill := "open"
	if c.Filled {
		fill = "filled"
	}
	noun := c.Shape
	if c.Count != 1 {
		noun += "s"
	}
	return fmt.Sprintf("%d %s %s %s", c.Count, fill, c.Color, noun)
}

// Short writes a card in four characters for logs and tests: count, shape
// letter, fill (f or o) and colour letter, e.g. "3tfb" is three filled
// triangles on a black card. Boards draw their own glyphs.
func (c Card) Short() string {
	f := "o"
	if c.Filled {
		f = "f"
	}
	return fmt.Sprintf("%d%c%s%c", c.Count, c.Shape[0], f, c.Color[0])
}

func cardsOf(ids []int) []Card {
	out := make([]Card, len(ids))
	for i, id := range ids {
		out[i] = CardOf(id)
	}
	return out
}

func facesOf(ids []int) []rulelang.Card {
	out := make([]rulelang.Card, len(ids))
	for i, id := range ids {
		out[i] = faceOf(id)
	}
	return out
}

// listCards writes cards for narration: "2 open white squares, 5 filled black circles".
func listCards(ids []int) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = CardOf(id).String()
	}
	return strings.Join(parts, ", ")
}

// AllFaces returns one card of each of the 72 faces (ids 0..71).
func AllFaces() []Card {
	out := make([]Card, Faces)
	for i := range out {
		out[i] = CardOf(i)
	}
	return out
}
