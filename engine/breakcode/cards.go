package breakcode

import (
	"fmt"
	"strconv"
	"strings"
)

// CardCount is the number of Question cards; cards are numbered 1 to 21.
const CardCount = 21

// FaceUpCards is how many Question cards lie face up at the start.
const FaceUpCards = 6

// Card numbers with a special role.
const (
	cardCAbove4     = 13 // yes/no
	cardSameColour  = 14 // groups of neighbours
	cardConsecutive = 15 // groups of neighbours
	cardZeros       = 16 // positions
	cardFives       = 17 // positions
	firstPickCard   = 18 // cards 18–21: the asker names one of two numbers
)

// variants counts the distinct questions: 17 plain cards plus two numbers for
// each of the four "which number" cards.
const variants = 17 + 2*4

// CardNumbers returns the two numbers the asker may name for a "which
// number" card (18–21), or nil for every other card.
func CardNumbers(card int) []int {
	switch card {
	case 18:
		return []int{1, 2}
	case 19:
		return []int{3, 4}
	case 20:
		return []int{6, 7}
	case 21:
		return []int{8, 9}
	}
	return nil
}

// NeedsNumber reports whether the asker must name a number for card.
func NeedsNumber(card int) bool { return card >= 18 && card <= 21 }

// variantOf maps a card and its named number to a question variant, or -1.
func variantOf(card, number int) int {
	if card < 1 || card > CardCount {
		return -1
	}
	if card < firstPickCard {
		if number != 0 {
			return -1
		}
		return card - 1
	}
	nums := CardNumbers(card)
	for i, n := range nums {
		if n == number {
			return 17 + 2*(card-firstPickCard) + i
		}
	}
	return -1
}

// cardOfVariant is the inverse of variantOf.
func cardOfVariant(v int) (card, number int) {
	if v < 17 {
		return v + 1, 0
	}
	card = firstPickCard + (v-17)/2
	return card, CardNumbers(card)[(v-17)%2]
}

// answerFor computes the answer of a sorted hand to question variant v. The
// encoding depends on the card: an integer for sums and counts, 0/1 for the
// yes/no card, a bit per position (a = bit 0) for "where" cards, and a bit per
// neighbouring pair (bit i links tiles i and i+1) for the group cards.
func answerFor(ts []Tile, v int) uint8 {
	card, number := cardOfVariant(v)
	n := len(ts)
	sum := func(from, to int) uint8 {
		s := 0
		for _, t := range ts[from:to] {
			s += t.Number
		}
		return uint8(s)
	}
	count := func(keep func(Tile) bool) uint8 {
		c := 0
		for _, t := range ts {
			if keep(t) {
				c++
			}
		}
		return uint8(c)
	}
	colourSum := func(c Color) uint8 {
		s := 0
		for _, t := range ts {
			if t.Color == c {
				s += t.Number
			}
		}
		return uint8(s)
	}
	where := func(num int) uint8 {
		var m uint8
		for i, t := range ts {
			if t.Number == num {
				m |= 1 << i
			}
		}
		return m
	}
	links := func(linked func(a, b Tile) bool) uint8 {
		var m uint8
		for i := 0; i+1 < n; i++ {
			if linked(ts[i], ts[i+1]) {
				m |= 1 << i
			}
		}
		return m
	}
	switch card {
	case 1:
		return sum(0, n)
	case 2:
		return sum(0, 3)
	case 3:
		return sum(n-3, n)
	case 4:
		return sum(1, n-1)
	case 5:
		return colourSum(Black)
	case 6:
		return colourSum(White)
	case 7:
		return uint8(ts[n-1].Number - ts[0].Number)
	case 8:
		return count(func(t Tile) bool { return t.Number%2 == 1 })
	case 9:
		return count(func(t Tile) bool { return t.Number%2 == 0 })
	case 10:
		return count(func(t Tile) bool { return t.Color == Black })
	case 11:
		return count(func(t Tile) bool { return t.Color == White })
	case 12:
		pairs := 0
		for i := 0; i+1 < n; i++ {
			if ts[i].Number == ts[i+1].Number {
				pairs++
			}
		}
		return uint8(pairs)
	case cardCAbove4:
		if ts[2].Number > 4 {
			return 1
		}
		return 0
	case cardSameColour:
		return links(func(a, b Tile) bool { return a.Color == b.Color })
	case cardConsecutive:
		return links(func(a, b Tile) bool { return b.Number == a.Number+1 })
	case cardZeros:
		return where(0)
	case cardFives:
		return where(5)
	default:
		return where(number)
	}
}

// Question phrases a card's question in short English, as the asker reads
// it out: "sum of your tiles", "where are your 8s or 9s? (8)". number is the
// number named for cards 18–21 (0 to leave it out, e.g. on a card in the
// row before it is picked). handSize changes which tiles some sums cover.
func Question(card, number, handSize int) string {
	var q string
	switch card {
	case 1:
		q = "sum of your tiles"
	case 2:
		q = "sum of your three left tiles (a b c)"
	case 3:
		if handSize == 4 {
			q = "sum of your three right tiles (b c d)"
		} else {
			q = "sum of your three right tiles (c d e)"
		}
	case 4:
		if handSize == 4 {
			q = "sum of your middle tiles (b c)"
		} else {
			q = "sum of your middle tiles (b c d)"
		}
	case 5:
		q = "sum of your black numbers"
	case 6:
		q = "sum of your white numbers"
	case 7:
		q = "highest minus lowest number"
	case 8:
		q = "how many odd tiles?"
	case 9:
		q = "how many even tiles?"
	case 10:
		q = "how many black tiles?"
	case 11:
		q = "how many white tiles?"
	case 12:
		q = "how many pairs of equal numbers?"
	case cardCAbove4:
		q = "is your c tile above 4?"
	case cardSameColour:
		q = "which neighbours share a colour?"
	case cardConsecutive:
		q = "which neighbours are consecutive?"
	case cardZeros:
		q = "where are your 0s?"
	case cardFives:
		q = "where are your 5s?"
	default:
		nums := CardNumbers(card)
		if nums == nil {
			return fmt.Sprintf("card %d", card)
		}
		q = fmt.Sprintf("where are your %ds or %ds?", nums[0], nums[1])
		if number != 0 {
			q += fmt.Sprintf(" (%d)", number)
		}
	}
	return q
}

// ShortQuestion is a compact label for the notepad: "sum", "c>4", "8s/9s (8)".
func ShortQuestion(card, number int) string {
	// A switch, not a table built per call: the notepad asks for a label
	// for every answer of every view.
	l := ""
	switch card {
	case 1:
		l = "sum"
	case 2:
		l = "sum abc"
	case 3:
		l = "sum right"
	case 4:
		l = "sum middle"
	case 5:
		l = "black sum"
	case 6:
		l = "white sum"
	case 7:
		l = "high-low"
	case 8:
		l = "odd"
	case 9:
		l = "even"
	case 10:
		l = "black"
	case 11:
		l = "white"
	case 12:
		l = "pairs"
	case cardCAbove4:
		l = "c>4"
	case cardSameColour:
		l = "same colour"
	case cardConsecutive:
		l = "consecutive"
	case cardZeros:
		l = "0s"
	case cardFives:
		l = "5s"
	case 18:
		l = "1s/2s"
	case 19:
		l = "3s/4s"
	case 20:
		l = "6s/7s"
	case 21:
		l = "8s/9s"
	default:
		return fmt.Sprintf("card %d", card)
	}
	if number != 0 && NeedsNumber(card) {
		return l + " (" + strconv.Itoa(number) + ")"
	}
	return l
}

// positionLetters names tile positions from the left.
const positionLetters = "abcde"

// FormatAnswer phrases an encoded answer to card: "27", "yes", "d, e",
// "a b | c d e" or "none".
func FormatAnswer(card int, answer uint8) string {
	switch {
	case card == cardCAbove4:
		if answer != 0 {
			return "yes"
		}
		return "no"
	case card == cardSameColour || card == cardConsecutive:
		var groups []string
		var run []string
		for i := 0; i <= 4; i++ {
			if answer&(1<<i) != 0 {
				if len(run) == 0 {
					run = append(run, string(positionLetters[i]))
				}
				run = append(run, string(positionLetters[i+1]))
				continue
			}
			if len(run) > 0 {
				groups = append(groups, strings.Join(run, " "))
				run = nil
			}
		}
		if len(groups) == 0 {
			return "none"
		}
		return strings.Join(groups, " | ")
	case card >= cardZeros:
		var pos []string
		for i := range 5 {
			if answer&(1<<i) != 0 {
				pos = append(pos, string(positionLetters[i]))
			}
		}
		if len(pos) == 0 {
			return "none"
		}
		return strings.Join(pos, ", ")
	default:
		return strconv.Itoa(int(answer))
	}
}
