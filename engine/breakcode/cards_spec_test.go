package breakcode

import (
	"fmt"
	"strings"
	"testing"
)

// specAnswer is a second, deliberately plain reading of the card table in
// the shared spec (break-the-code.spec.md), written apart from answerFor:
// it works on numbers and colour names, never on the encoded answers, and
// phrases the answer as the board shows it.
func specAnswer(hand []Tile, card, number int) string {
	n := len(hand)
	num := func(i int) int { return hand[i].Number }
	sumOf := func(idx ...int) string {
		s := 0
		for _, i := range idx {
			s += num(i)
		}
		return fmt.Sprint(s)
	}
	countIf := func(ok func(Tile) bool) string {
		c := 0
		for _, t := range hand {
			if ok(t) {
				c++
			}
		}
		return fmt.Sprint(c)
	}
	colourSum := func(c Color) string {
		s := 0
		for _, t := range hand {
			if t.Color == c {
				s += t.Number
			}
		}
		return fmt.Sprint(s)
	}
	letters := []string{"a", "b", "c", "d", "e"}
	where := func(want int) string {
		var at []string
		for i, t := range hand {
			if t.Number == want {
				at = append(at, letters[i])
			}
		}
		if len(at) == 0 {
			return "none"
		}
		return strings.Join(at, ", ")
	}
	// groups lists each maximal run of two or more neighbours in which every
	// neighbouring pair is linked.
	groups := func(linked func(x, y Tile) bool) string {
		var out []string
		for i := 0; i < n; {
			j := i
			for j+1 < n && linked(hand[j], hand[j+1]) {
				j++
			}
			if j > i {
				out = append(out, strings.Join(letters[i:j+1], " "))
			}
			i = j + 1
		}
		if len(out) == 0 {
			return "none"
		}
		return strings.Join(out, " | ")
	}
	switch card {
	case 1:
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		return sumOf(all...)
	case 2:
		return sumOf(0, 1, 2)
	case 3:
		if n == 4 {
			return sumOf(1, 2, 3) // b c d
		}
		return sumOf(2, 3, 4) // c d e
	case 4:
		if n == 4 {
			return sumOf(1, 2) // b c
		}
		return sumOf(1, 2, 3) // b c d
	case 5:
		return colourSum(Black)
	case 6:
		return colourSum(White)
	case 7:
		hi, lo := 0, 9
		for _, t := range hand {
			hi, lo = max(hi, t.Number), min(lo, t.Number)
		}
		return fmt.Sprint(hi - lo)
	case 8:
		return countIf(func(t Tile) bool { return t.Number%2 == 1 })
	case 9:
		return countIf(func(t Tile) bool { return t.Number%2 == 0 })
	case 10:
		return countIf(func(t Tile) bool { return t.Color == Black })
	case 11:
		return countIf(func(t Tile) bool { return t.Color == White })
	case 12:
		// Pairs of tiles showing the same number, anywhere in the hand.
		pairs := 0
		for i := range n {
			for j := i + 1; j < n; j++ {
				if num(i) == num(j) {
					pairs++
				}
			}
		}
		return fmt.Sprint(pairs)
	case 13:
		if num(2) > 4 {
			return "yes"
		}
		return "no"
	case 14:
		return groups(func(x, y Tile) bool { return x.Color == y.Color })
	case 15:
		return groups(func(x, y Tile) bool { return y.Number == x.Number+1 })
	case 16:
		return where(0)
	case 17:
		return where(5)
	default:
		return where(number)
	}
}

// TestEveryCardMatchesTheSpecTable asks every question variant of the 21
// cards of every distinct hand of 5 tiles (2 and 3 players) and of 4 tiles
// (4 players) and compares the phrased answer with specAnswer.
func TestEveryCardMatchesTheSpecTable(t *testing.T) {
	for _, size := range []int{5, 4} {
		table := handsOfSize(size)
		bad := 0
		for id, hand := range table.tiles {
			for card := 1; card <= CardCount; card++ {
				numbers := CardNumbers(card)
				if numbers == nil {
					numbers = []int{0}
				}
				for _, number := range numbers {
					v := variantOf(card, number)
					got := FormatAnswer(card, table.answers[id][v])
					if want := specAnswer(hand, card, number); got != want {
						if bad++; bad <= 10 {
							t.Errorf("%s asked %q: %q, want %q", FormatTiles(hand), Question(card, number, size), got, want)
						}
					}
				}
			}
		}
		if bad > 0 {
			t.Errorf("%d-tile hands: %d wrong answers", size, bad)
		}
	}
}

// TestChooseOneCardsTakeOnlyTheirNumbers: cards 18–21 are asked about one
// of their two printed numbers, named by the asker; every other number, and
// a number on any other card, is refused.
func TestChooseOneCardsTakeOnlyTheirNumbers(t *testing.T) {
	want := map[int][2]int{18: {1, 2}, 19: {3, 4}, 20: {6, 7}, 21: {8, 9}}
	for card := 1; card <= CardCount; card++ {
		for number := 0; number <= 9; number++ {
			pair, choose := want[card]
			legal := (!choose && number == 0) || (choose && (number == pair[0] || number == pair[1]))
			if got := variantOf(card, number) >= 0; got != legal {
				t.Errorf("card %d naming %d: accepted %v, want %v", card, number, got, legal)
			}
		}
	}
}
