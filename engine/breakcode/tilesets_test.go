package breakcode

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestTileSetsListEverySetApart: tilesOf and tileSets list the same tiles
// as one append per tile did (nil for an empty set), and the lists
// tileSets carves from one array stay apart: appending to one never
// changes the next.
func TestTileSetsListEverySetApart(t *testing.T) {
	naive := func(mask uint32) []Tile {
		var out []Tile
		for p := range tileCount {
			if mask&(1<<p) != 0 {
				out = append(out, tileAt(p))
			}
		}
		return out
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for range 200 {
		masks := make([]uint32, 1+rng.IntN(6))
		for i := range masks {
			if rng.IntN(5) > 0 {
				masks[i] = rng.Uint32() & (1<<tileCount - 1) & rng.Uint32()
			}
		}
		sets := tileSets(masks)
		for i, m := range masks {
			if want := naive(m); !reflect.DeepEqual(tilesOf(m), want) || !reflect.DeepEqual(sets[i], want) {
				t.Fatalf("mask %b: tilesOf %v, tileSets %v, want %v", m, tilesOf(m), sets[i], want)
			}
		}
		if len(sets) > 1 && len(sets[0]) > 0 && len(sets[1]) > 0 {
			next := sets[1][0]
			_ = append(sets[0], Tile{Number: 99})
			if sets[1][0] != next {
				t.Fatal("appending to one listed set changed the next")
			}
		}
	}
}
