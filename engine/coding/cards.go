package coding

import (
	"fmt"
	"strings"
)

// Code card counts: six Alphabet cards (A–F) and ten X Code cards (0–9).
// Every card exists once, so no two players share a letter or a digit.
const (
	Letters   = 6
	Digits    = 10
	CodeCards = Letters + Digits
)

// Positions of a code, left to right.
const (
	PosLetter = 0 // the Alphabet card
	PosX1     = 1 // the tens digit
	PosX2     = 2 // the ones digit
)

// PosName names a position for narration: "letter", "X1" or "X2".
func PosName(p int) string {
	switch p {
	case PosLetter:
		return "letter"
	case PosX1:
		return "X1"
	case PosX2:
		return "X2"
	}
	return "?"
}

// Code is a player's secret: a letter (0–5 for A–F) and two different digits.
type Code struct {
	Letter int `json:"letter"`
	X1     int `json:"x1"`
	X2     int `json:"x2"`
}

// At returns the code's value at position p (a letter index or a digit).
func (c Code) At(p int) int {
	switch p {
	case PosLetter:
		return c.Letter
	case PosX1:
		return c.X1
	default:
		return c.X2
	}
}

// Number is the two-digit value X1X2 (F98 → 98, D05 → 5).
func (c Code) Number() int { return c.X1*10 + c.X2 }

// String writes the code as "F98".
func (c Code) String() string { return fmt.Sprintf("%c%d%d", 'A'+c.Letter, c.X1, c.X2) }

// Valid reports whether c could be a dealt code.
func (c Code) Valid() bool {
	return c.Letter >= 0 && c.Letter < Letters && c.X1 >= 0 && c.X1 < Digits &&
		c.X2 >= 0 && c.X2 < Digits && c.X1 != c.X2
}

// mask is the set of code cards c uses (bits 0–5 letters, 6–15 digits);
// order does not matter to it.
func (c Code) mask() uint16 {
	return 1<<c.Letter | 1<<(Letters+c.X1) | 1<<(Letters+c.X2)
}

// ParseCode reads a code such as "F98" or "f 9 8".
func ParseCode(s string) (Code, error) {
	t := strings.ToUpper(strings.Join(strings.Fields(s), ""))
	if len(t) != 3 || t[0] < 'A' || t[0] > 'F' || t[1] < '0' || t[1] > '9' || t[2] < '0' || t[2] > '9' {
		return Code{}, fmt.Errorf("a code is a letter A–F and two digits, like F98, not %q", s)
	}
	c := Code{Letter: int(t[0] - 'A'), X1: int(t[1] - '0'), X2: int(t[2] - '0')}
	if c.X1 == c.X2 {
		return Code{}, fmt.Errorf("the two digits of a code always differ, so %q cannot be one", s)
	}
	return c, nil
}

// CardName names a code card by its index: "A"–"F" for 0–5, "0"–"9" for 6–15.
func CardName(card int) string {
	if card < Letters {
		return string(rune('A' + card))
	}
	return string(rune('0' + card - Letters))
}

// ValueName names the value v at position p: a letter or a digit.
func ValueName(p, v int) string {
	if p == PosLetter {
		return string(rune('A' + v))
	}
	return string(rune('0' + v))
}

// cardAt is the code-card index of position p's value in c.
func cardAt(c Code, p int) int {
	if p == PosLetter {
		return c.Letter
	}
	return Letters + c.At(p)
}

// Data card kinds. Each says "my code is not in this range": the first
// three are about the letter, the rest about the two-digit number.
const (
	DataAB = iota
	DataCD
	DataEF
	Data00to19
	Data20to39
	Data40to59
	Data60to79
	Data80to99
	DataKinds
)

// DataLabel names a Data card kind by its range, e.g. "20–39".
func DataLabel(kind int) string {
	switch {
	case kind < 0 || kind >= DataKinds:
		return "?"
	case kind < 3:
		return fmt.Sprintf("%c–%c", 'A'+2*kind, 'A'+2*kind+1)
	default:
		lo := (kind - 3) * 20
		return fmt.Sprintf("%02d–%02d", lo, lo+19)
	}
}

// inDataRange reports whether c falls in the range of a Data card kind,
// which is exactly when its holder could not take that card.
func inDataRange(kind int, c Code) bool {
	if kind < 3 {
		return c.Letter/2 == kind
	}
	return c.X1/2 == kind-3
}

// HackCards is the number of Hack cards; HackLine is how many lie face up.
const (
	HackCards = 20
	HackLine  = 5
	// MaxHacksHeld is how many Hack cards a player may hold in Counter Cracking.
	MaxHacksHeld = 5
)

// letterHackSets are the four Alphabet Hack cards, as sets of letters.
var letterHackSets = [4]uint16{
	1<<0 | 1<<1 | 1<<2, // A B C
	1<<0 | 1<<2 | 1<<4, // A C E
	1<<0 | 1<<3,        // A D
	1<<1 | 1<<4,        // B E
}

// digitHackSets are the eight sets printed on both the X1 and X2 Hack cards.
var digitHackSets = [8]uint16{
	1<<0 | 1<<2 | 1<<4 | 1<<6 | 1<<8, // even
	1<<0 | 1<<1 | 1<<2 | 1<<3 | 1<<4, // low
	1<<0 | 1<<3 | 1<<6 | 1<<9,        // multiples of 3
	1<<2 | 1<<3 | 1<<5 | 1<<7,        // primes
	1<<7 | 1<<8 | 1<<9,
	1<<0 | 1<<1 | 1<<2,
	1<<4 | 1<<5 | 1<<6,
	1<<1 | 1<<5 | 1<<9,
}

// HackCard is one Hack card: the position it asks about and the values
// that turn it green.
type HackCard struct {
	ID  int    `json:"id"`
	Pos int    `json:"pos"`
	Set uint16 `json:"set"` // bit v set: value v answers green
}

// Hack returns Hack card id (0–3 letter cards, 4–11 X1, 12–19 X2).
func Hack(id int) HackCard {
	switch {
	case id < 4:
		return HackCard{ID: id, Pos: PosLetter, Set: letterHackSets[id]}
	case id < 12:
		return HackCard{ID: id, Pos: PosX1, Set: digitHackSets[id-4]}
	default:
		return HackCard{ID: id, Pos: PosX2, Set: digitHackSets[(id-12)%8]}
	}
}

// Green reports whether code c turns the card green.
func (h HackCard) Green(c Code) bool { return h.Set&(1<<c.At(h.Pos)) != 0 }

// Label phrases the card as a question, e.g. "X1 in 0 2 4 6 8?".
func (h HackCard) Label() string {
	var vals []string
	for v := range 10 {
		if h.Set&(1<<v) != 0 {
			vals = append(vals, ValueName(h.Pos, v))
		}
	}
	return fmt.Sprintf("%s in %s?", PosName(h.Pos), strings.Join(vals, " "))
}

// validHack reports whether id names a Hack card.
func validHack(id int) bool { return id >= 0 && id < HackCards }
