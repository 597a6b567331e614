package breakcode

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync"
)

// Color is the colour of a tile's number.
type Color uint8

const (
	// Black numbers stand left of white ones with the same number.
	Black Color = iota
	// White numbers.
	White
	// Green is the colour of both 5s; a green tile is neither black nor white.
	Green
)

// Letter is the one-letter code used in tile names: b, w or g.
func (c Color) Letter() string {
	switch c {
	case Black:
		return "b"
	case White:
		return "w"
	default:
		return "g"
	}
}

// String names the colour in English.
func (c Color) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	default:
		return "green"
	}
}

// Tile is one cipher tile: a number from 0 to 9 and its colour. Tiles are
// written like the screens show them: "3b", "7w", "5g".
type Tile struct {
	Number int
	Color  Color
}

// String writes the tile as "3b", "7w" or "5g".
func (t Tile) String() string { return fmt.Sprintf("%d%s", t.Number, t.Color.Letter()) }

// MarshalText encodes the tile as its short name, so views and actions carry "3b".
func (t Tile) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText decodes a short tile name.
func (t *Tile) UnmarshalText(b []byte) error {
	p, err := ParseTile(string(b))
	if err != nil {
		return err
	}
	*t = p
	return nil
}

// ParseTile reads a tile name such as "3b", "7W" or "5g". A 5 is always green,
// so "5" alone is accepted too; every other number needs b or w.
func ParseTile(s string) (Tile, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) == 0 || len(s) > 2 || s[0] < '0' || s[0] > '9' {
		return Tile{}, fmt.Errorf("%q is not a tile; write a number and a colour, like 3b, 7w or 5g", s)
	}
	n := int(s[0] - '0')
	if n == 5 {
		if len(s) == 1 || s[1] == 'g' {
			return Tile{Number: 5, Color: Green}, nil
		}
		return Tile{}, fmt.Errorf("%q is not a tile; both 5s are green (5g)", s)
	}
	if len(s) == 2 {
		switch s[1] {
		case 'b':
			return Tile{Number: n, Color: Black}, nil
		case 'w':
			return Tile{Number: n, Color: White}, nil
		}
	}
	return Tile{}, fmt.Errorf("%q is not a tile; a %d is black (%db) or white (%dw)", s, n, n, n)
}

// FormatTiles writes tiles separated by spaces: "1b 2w 5g".
func FormatTiles(ts []Tile) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return strings.Join(parts, " ")
}

// The 20 physical tiles are numbered 0..19: index = number*2 + (0 black, 1 white),
// except that 10 and 11 are the two identical green 5s. Sorting by index is
// exactly the order tiles stand behind a screen (black before white).
const tileCount = 20

// tileAt returns the tile with physical index p.
func tileAt(p int) Tile {
	n := p / 2
	switch {
	case n == 5:
		return Tile{Number: 5, Color: Green}
	case p%2 == 0:
		return Tile{Number: n, Color: Black}
	default:
		return Tile{Number: n, Color: White}
	}
}

// indexOf returns the lowest physical index showing tile t (10 for 5g).
func indexOf(t Tile) int {
	if t.Number == 5 {
		return 10
	}
	if t.Color == White {
		return t.Number*2 + 1
	}
	return t.Number * 2
}

// canonical folds a physical set (bit p = tile p) onto the form where a single
// green 5 is always tile 10, so identical hands share one key.
func canonical(mask uint32) uint32 {
	if mask&(1<<11) != 0 && mask&(1<<10) == 0 {
		mask = mask&^(1<<11) | 1<<10
	}
	return mask
}

// tilesOf lists the tiles of a physical set in screen order.
func tilesOf(mask uint32) []Tile {
	n := bits.OnesCount32(mask & (1<<tileCount - 1))
	if n == 0 {
		return nil
	}
	return appendTiles(make([]Tile, 0, n), mask)
}

// appendTiles appends the tiles of a physical set to out, in screen order.
func appendTiles(out []Tile, mask uint32) []Tile {
	for p := 0; p < tileCount; p++ {
		if mask&(1<<p) != 0 {
			out = append(out, tileAt(p))
		}
	}
	return out
}

// maskOf turns tiles into a canonical physical set, reporting tiles that are
// named more often than the box holds them.
func maskOf(ts []Tile) (uint32, error) {
	var m uint32
	for _, t := range ts {
		p := indexOf(t)
		switch {
		case m&(1<<p) == 0:
			m |= 1 << p
		case p == 10 && m&(1<<11) == 0:
			m |= 1 << 11
		case p == 10:
			return 0, fmt.Errorf("there are only two 5g tiles")
		default:
			return 0, fmt.Errorf("there is only one %s", t)
		}
	}
	return m, nil
}

// handTable lists every distinct sorted hand of one size, with each hand's
// answer to every question variant precomputed.
type handTable struct {
	size    int
	masks   []uint32          // canonical physical set of each hand
	ids     map[uint32]int32  // canonical set → hand id
	answers [][variants]uint8 // per hand id, per question variant
	// byVariant[v][id] is answers[id][v]: one question's answers for every
	// hand side by side (12 KB for hands of 5), for the filters that test
	// thousands of hands against the answers heard. Read by hand, a
	// hand's row is a fresh cache line each time.
	byVariant [variants][]uint8
	tiles     [][]Tile // per hand id, in screen order
	// byColex maps the colex rank of every physical set of the table's size
	// (see colex) to its hand id: the same answer as ids, without hashing,
	// for the loops that look up thousands of hands per view.
	byColex []int32
	// binom[i][p] is binom(p, i+1): what the (i+1)-th lowest tile of a set
	// adds to its colex rank when it stands at physical index p.
	binom [5][tileCount]int32
}

// id returns the hand id of any physical set of the table's size.
func (h *handTable) id(mask uint32) int32 {
	if bits.OnesCount32(mask) != h.size || mask >= 1<<tileCount {
		return h.ids[canonical(mask)]
	}
	return h.byColex[h.colex(mask)]
}

// colex returns the rank of a set of size tiles among all physical sets of
// that size in colexicographic order: 0 to binom(20, size)-1.
func (h *handTable) colex(mask uint32) int32 {
	r := int32(0)
	for i := 0; mask != 0; i++ {
		r += h.binom[i][bits.TrailingZeros32(mask)]
		mask &= mask - 1
	}
	return r
}

func buildHandTable(size int) *handTable {
	h := &handTable{size: size, ids: map[uint32]int32{}}
	var rec func(start int, mask uint32, left int)
	rec = func(start int, mask uint32, left int) {
		if left == 0 {
			c := canonical(mask)
			if _, ok := h.ids[c]; ok {
				return
			}
			h.ids[c] = int32(len(h.masks))
			h.masks = append(h.masks, c)
			ts := tilesOf(c)
			h.tiles = append(h.tiles, ts)
			var a [variants]uint8
			for v := range variants {
				a[v] = answerFor(ts, v)
			}
			h.answers = append(h.answers, a)
			return
		}
		for p := start; p <= tileCount-left; p++ {
			rec(p+1, mask|1<<p, left-1)
		}
	}
	rec(0, 0, size)
	for i := range h.binom {
		for p := range tileCount {
			h.binom[i][p] = int32(binom(p, i+1))
		}
	}
	for v := range variants {
		h.byVariant[v] = make([]uint8, len(h.answers))
		for id, a := range h.answers {
			h.byVariant[v][id] = a[v]
		}
	}
	h.byColex = make([]int32, binom(tileCount, size))
	forSubsets(1<<tileCount-1, size, func(m uint32) {
		h.byColex[h.colex(m)] = h.ids[canonical(m)]
	})
	return h
}

// tables holds the two hand tables (4 and 5 tiles). They are built once on
// first use and never change afterwards.
var tables = sync.OnceValue(func() [2]*handTable {
	return [2]*handTable{buildHandTable(4), buildHandTable(5)}
})

// handsOfSize returns the table for hands of 4 or 5 tiles.
func handsOfSize(size int) *handTable {
	if size == 4 {
		return tables()[0]
	}
	return tables()[1]
}

// sortTiles puts tiles in screen order.
func sortTiles(ts []Tile) {
	slices.SortFunc(ts, func(a, b Tile) int { return indexOf(a) - indexOf(b) })
}
