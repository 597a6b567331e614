package breakcode

import (
	"math/rand/v2"
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

// TestPoolRanksMatchLocalID: the two-table rank gives every set of a
// hand's size the hand id handTable.localID gives it, for random pools of
// 15 and 16 unseen tiles (hands of 5 and 4, the green 5s seen, unseen or
// split), and for the pool of 16 the sets of 5 too (the table of 5s read
// with a 4-tile hand's pool cannot happen in play, but the ranks must not
// depend on the pool's size); and so does one scratch's table, written
// over for each pool and size in turn.
func TestPoolRanksMatchLocalID(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 16))
	buf := getScratch() // one table written over for every pool and size
	defer putScratch(buf)
	for trial := range 60 {
		handSize := 5 - trial%2
		own := rng.Perm(tileCount)[:handSize]
		if trial%6 == 0 {
			own[0] = 10 // one green 5 held
		}
		var mine uint32
		for _, p := range own {
			mine |= 1 << p
		}
		var pool []int
		for p := range tileCount {
			if mine&(1<<p) == 0 {
				pool = append(pool, p)
			}
		}
		for _, size := range []int{4, 5} {
			table := handsOfSize(size)
			ranks, lent := table.poolRanks(pool), table.poolRanksIn(pool, buf)
			forSubsets(1<<len(pool)-1, size, func(m uint32) {
				if got, want := ranks.id(table, m), table.localID(pool, m); got != want {
					t.Fatalf("pool %v, set %016b: id %d, localID %d", pool, m, got, want)
				}
				if got, want := lent.id(table, m), table.localID(pool, m); got != want {
					t.Fatalf("pool %v, set %016b: id %d from the lent table, localID %d", pool, m, got, want)
				}
			})
		}
	}
}

// A scratch's rank table is written over, not allocated: every seat's aid
// and every bot decision makes one, 7 KB each.
func TestPoolRanksInAllocatesNothing(t *testing.T) {
	buf := getScratch()
	defer putScratch(buf)
	pool := make([]int, 0, tileCount)
	for p := 5; p < tileCount; p++ {
		pool = append(pool, p)
	}
	table := handsOfSize(5)
	if n := testing.AllocsPerRun(10, func() { table.poolRanksIn(pool, buf) }); n != 0 {
		t.Fatalf("poolRanksIn with a scratch: %v allocations, want none", n)
	}
}
