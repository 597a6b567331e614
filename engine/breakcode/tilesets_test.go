package breakcode

import (
	"fmt"
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

// A tileSheet carves several lists (a view's marks and listed hands) from
// one array each, with the tiles tileSets gives each list alone, and
// keeps the lists apart: appending to one list, or to its last set, never
// changes the next list.
func TestTileSheetKeepsListsApart(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for range 200 {
		lists := make([][]uint32, 1+rng.IntN(5))
		var sheet tileSheet
		for i := range lists {
			lists[i] = make([]uint32, rng.IntN(4))
			for j := range lists[i] {
				lists[i][j] = rng.Uint32() & (1<<tileCount - 1) & rng.Uint32()
			}
			sheet.reserve(lists[i])
		}
		got := make([][][]Tile, len(lists))
		for i, l := range lists {
			got[i] = sheet.carve(l)
		}
		for i, l := range lists {
			if want := tileSets(l); !reflect.DeepEqual(got[i], want) {
				t.Fatalf("list %d %b: %v, want %v", i, l, got[i], want)
			}
		}
		for i := 0; i+1 < len(lists); i++ {
			next := fmt.Sprint(got[i+1])
			_ = append(got[i], []Tile{{Number: 99}})
			if n := len(got[i]); n > 0 {
				_ = append(got[i][n-1], Tile{Number: 99})
			}
			if fmt.Sprint(got[i+1]) != next {
				t.Fatalf("appending to list %d changed list %d", i, i+1)
			}
		}
	}
}
