package breakcode

import (
	"encoding/json"
	"fmt"
	"math/bits"
)

// TileSets is a list of sets of tiles (a seat's pencil marks, position by
// position, or the hands its aid lists), each set held as the bits of its
// physical tiles: bit p is the tile tileAt(p), so the two green 5s are bits
// 10 and 11. A view's aid is read from the seat's aid as worked out, with
// no tiles written out for each view: the lobby builds a view for every
// seat after every move, and the notepad, the one screen that draws these
// sets, is seldom open. Len, Set and Sets read it as tiles; in JSON it is
// the list of tile lists it stands for, exactly as a [][]Tile encodes.
// Like the rest of a view it is read-only: the same sets may be shared by
// several views of one seat.
type TileSets []uint32

// tileSetsOf is masks as TileSets, nil when there are none (a view's
// lists are nil when not computed), capped at its end.
func tileSetsOf(masks []uint32) TileSets {
	if len(masks) == 0 {
		return nil
	}
	return TileSets(masks[:len(masks):len(masks)])
}

// Len is the number of sets.
func (ts TileSets) Len() int { return len(ts) }

// Set returns set i's tiles in screen order (nil for an empty set).
func (ts TileSets) Set(i int) []Tile { return tilesOf(ts[i]) }

// Sets returns every set's tiles in screen order, nil for none (and a nil
// set for an empty one).
func (ts TileSets) Sets() [][]Tile { return tileSets(ts) }

// MarshalJSON writes the sets as [][]Tile encodes them (a list of lists
// of tile names, null for an empty set): it encodes Sets. Views are
// encoded only to compare them in tests, never on the way to a screen.
func (ts TileSets) MarshalJSON() ([]byte, error) {
	sets := ts.Sets()
	if sets == nil && ts != nil {
		sets = [][]Tile{} // no sets, as an empty list encodes: []
	}
	return json.Marshal(sets)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (ts *TileSets) UnmarshalJSON(data []byte) error {
	var sets [][]Tile
	if err := json.Unmarshal(data, &sets); err != nil {
		return err
	}
	if sets == nil {
		*ts = nil
		return nil
	}
	out := make(TileSets, len(sets))
	for i, set := range sets {
		m, err := maskOf(set)
		if err != nil {
			return fmt.Errorf("tile set %d: %w", i+1, err)
		}
		out[i] = m
	}
	*ts = out
	return nil
}

// tileSets writes physical tile sets as tiles (nil for none), every set
// and its tiles in one array each. Each set is capped at its own end, so
// appending to one never writes over the next.
func tileSets(masks []uint32) [][]Tile {
	if len(masks) == 0 {
		return nil
	}
	n := 0
	for _, m := range masks {
		n += bits.OnesCount32(m & (1<<tileCount - 1))
	}
	tiles, sets := make([]Tile, 0, n), make([][]Tile, 0, len(masks))
	for _, m := range masks {
		from := len(tiles)
		tiles = appendTiles(tiles, m)
		var set []Tile
		if len(tiles) > from {
			set = tiles[from:len(tiles):len(tiles)]
		}
		sets = append(sets, set)
	}
	return sets
}
