package whattherule

import "github.com/codebreakers/codebreakers/engine/rulelang"

// Grade is how hard a library rule is to find, from 1 (one attribute of the
// card itself) to 4 (several cards back, positions, or arithmetic).
type Grade int

// The grades of the rule library.
const (
	Easy     Grade = 1
	Medium   Grade = 2
	Hard     Grade = 3
	Fiendish Grade = 4
)

// String names the grade.
func (g Grade) String() string {
	switch g {
	case Easy:
		return "easy"
	case Medium:
		return "medium"
	case Hard:
		return "hard"
	case Fiendish:
		return "fiendish"
	}
	return "unknown"
}

// LibraryRule is one rule a game master may draw instead of writing one.
type LibraryRule struct {
	Title   string // a short description in the project's own words
	Text    string // the rule in the rule language
	Grade   Grade
	Starter bool // one of the ten rules for first rounds
}

// Library returns the rule library, easiest first. The ten starter rules are
// among them (marked Starter). Every entry parses, can be played (some card
// always fits after the first) and differs from every other entry.
func Library() []LibraryRule {
	starters := rulelang.WhatTheRuleStarters()
	st := func(i int, g Grade) LibraryRule {
		return LibraryRule{Title: starters[i].Title, Text: starters[i].Text, Grade: g, Starter: true}
	}
	return []LibraryRule{
		// Easy: one attribute of the card being played.
		st(5, Easy),
		st(8, Easy),
		{"White cards only", "color == white", Easy, false},
		{"Filled shapes only", "filled", Easy, false},
		{"Three or fewer shapes", "count <= 3", Easy, false},
		{"Even counts only", "even(count)", Easy, false},
		{"No triangles", "shape != triangle", Easy, false},
		{"Squares only", "shape == square", Easy, false},
		{"At least four shapes", "count >= 4", Easy, false},
		{"Odd counts only", "odd(count)", Easy, false},
		{"Black cards only", "color == black", Easy, false},

		// Medium: two attributes of one card, or one attribute against the card before.
		st(0, Medium),
		st(1, Medium),
		st(3, Medium),
		st(6, Medium),
		st(7, Medium),
		st(9, Medium),
		{"Colours take turns", "color != prev.color", Medium, false},
		{"Never the same count twice running", "count != prev.count", Medium, false},
		{"Circles must be filled", "if shape == circle then filled", Medium, false},
		{"Filled cards or circles", "filled or shape == circle", Medium, false},
		{"Black squares are banned", "not (color == black and shape == square)", Medium, false},
		{"Open shapes come in small numbers", "if not filled then count <= 2", Medium, false},
		{"The count never goes down", "count >= prev.count", Medium, false},

		// Hard: two attributes against the card before, or sums.
		st(2, Hard),
		st(4, Hard),
		{"Counts climb by one, 6 back to 1", "count == prev.count % 6 + 1", Hard, false},
		{"Same shape or same colour as the card before", "shape == prev.shape or color == prev.color", Hard, false},
		{"New shape and new count each time", "shape != prev.shape and count != prev.count", Hard, false},
		{"Same colour means a bigger count", "if color == prev.color then count > prev.count", Hard, false},
		{"Triangles odd, everything else even", "if shape == triangle then odd(count) else even(count)", Hard, false},
		{"Filled goes up, open goes down", "if filled then count > prev.count else count < prev.count", Hard, false},
		{"Black means filled, white means open", "if filled then color == black else color == white", Hard, false},
		{"The card before decides: filled copies the shape, open copies the count", "if prev.filled then shape == prev.shape else count == prev.count", Hard, false},
		{"Two cards add up to seven at most", "count + prev.count <= 7", Hard, false},
		{"After a circle play filled, otherwise white", "if prev.shape == circle then filled else color == white", Hard, false},

		// Fiendish: positions, two cards back, or remainders.
		{"Odd places black, even places white", "if odd(n) then color == black else color == white", Fiendish, false},
		{"Every third card a square, and only then", "if n % 3 == 0 then shape == square else shape != square", Fiendish, false},
		{"Colour copies the card two back", "color == prev2.color", Fiendish, false},
		{"Three shapes in a row all differ", "shape != prev.shape and shape != prev2.shape", Fiendish, false},
		{"Counts match the card before modulo three", "count % 3 == prev.count % 3", Fiendish, false},
		{"After white the count may not fall; after black it may not rise", "if prev.color == white then count >= prev.count else count <= prev.count", Fiendish, false},
		{"Same parity as the card before, but a new shape", "even(count) == even(prev.count) and shape != prev.shape", Fiendish, false},
		{"The first three cards are filled, then anything but filled circles", "if n <= 3 then filled else not (filled and shape == circle)", Fiendish, false},
		{"Count differs from the card before by one", "count == prev.count + 1 or count == prev.count - 1", Fiendish, false},
	}
}

// libraryRule parses library entry i.
func libraryRule(i int) (*rulelang.Rule, error) {
	lib := Library()
	return rulelang.Parse(attrs, lib[i].Text)
}
