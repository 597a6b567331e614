package breakcode

import (
	"slices"
	"testing"
)

// The shared table of subset slots gives every 5-set of 15 tiles the row
// a 3-player decision used to work out for it: colex15x5 ranks the sets
// in the order Gosper's hack lists them, and a side built on the table
// reads, for each member, the slots of its own 32 subsets, as a side
// built without it does.
func TestSubsetSlotsTableMatchesWorkedOut(t *testing.T) {
	slot := smallSets15x5().slot
	var list []uint32
	rank := 0
	forSubsets(1<<15-1, 5, func(m uint32) {
		if got := colex15x5(m); got != rank {
			t.Fatalf("set %015b: rank %d, listed %d", m, got, rank)
		}
		rank++
		list = append(list, m)
	})
	// Every other set, backwards: a list in no particular order.
	var some []uint32
	for i := len(list) - 1; i >= 0; i -= 2 {
		some = append(some, list[i])
	}
	shared := newSubsetSide(nil, some, nil, slot, 5)
	// The same numbering cut short of the last set (of 15 tiles, never a
	// subset of a hand), which makes a side work its rows out.
	own := newSubsetSide(nil, some, nil, slices.Clone(slot)[:len(slot)-1:len(slot)-1], 5)
	for j, m := range some {
		var want []int32
		for s := m; ; s = (s - 1) & m {
			want = append(want, slot[s])
			if s == 0 {
				break
			}
		}
		if got := shared.subsOf(j); !slices.Equal(got, want) {
			t.Fatalf("set %015b: shared row %v, want %v", m, got, want)
		}
		if got := own.subsOf(j); !slices.Equal(got, want) {
			t.Fatalf("set %015b: worked-out row %v, want %v", m, got, want)
		}
	}
}
