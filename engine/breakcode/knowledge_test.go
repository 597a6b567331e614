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

// fitting keeps exactly the hands that give every answer heard and were
// not guessed wrong, in their order, with their ids beside them, as
// testing each hand against each answer does: for random lists and
// answers (some a hand of the list gives, so that some hands fit; some
// to no question, which nothing fits), written into new arrays and over
// the list itself.
func TestFittingKeepsExactlyTheHandsThatFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 5))
	kept := 0
	for trial := range 400 {
		table := handsOfSize(4 + trial%2)
		var all []uint32
		var ids []int32
		for id := range table.masks {
			if rng.IntN(3) > 0 {
				all, ids = append(all, uint32(id)*7), append(ids, int32(id)) // sets: any labels
			}
		}
		some := ids[rng.IntN(len(ids))] // answers this hand gives
		heard := make([]heardAnswer, rng.IntN(4))
		for i := range heard {
			v := rng.IntN(variants)
			heard[i] = heardAnswer{v, table.byVariant[v][some]}
			if rng.IntN(4) == 0 {
				heard[i].code = uint8(rng.IntN(64))
			}
		}
		if trial%50 == 7 {
			heard = append(heard, heardAnswer{-1, 0})
		}
		var wrong []int32
		for range rng.IntN(3) {
			wrong = append(wrong, ids[rng.IntN(len(ids))])
		}
		var wantSets []uint32
		var wantIDs []int32
		for i, id := range ids {
			fits := !slices.Contains(wrong, id)
			for _, h := range heard {
				fits = fits && h.v >= 0 && table.answers[id][h.v] == h.code
			}
			if fits {
				wantSets, wantIDs = append(wantSets, all[i]), append(wantIDs, id)
			}
		}
		kept += len(wantSets)
		prefix := []uint32{99}
		gotSets, gotIDs := table.fitting(all, ids, heard, wrong, slices.Clone(prefix), []int32{-9})
		if !slices.Equal(gotSets[1:], wantSets) || !slices.Equal(gotIDs[1:], wantIDs) || gotSets[0] != 99 || gotIDs[0] != -9 {
			t.Fatalf("trial %d, heard %v, wrong %v: kept %v %v, want %v %v", trial, heard, wrong, gotSets, gotIDs, wantSets, wantIDs)
		}
		a, b := slices.Clone(all), slices.Clone(ids)
		gotSets, gotIDs = table.fitting(a, b, heard, wrong, a[:0], b[:0])
		if !slices.Equal(gotSets, wantSets) || !slices.Equal(gotIDs, wantIDs) {
			t.Fatalf("trial %d, in place: kept %v %v, want %v %v", trial, gotSets, gotIDs, wantSets, wantIDs)
		}
	}
	if kept == 0 {
		t.Fatal("no hand ever fitted: the test checks nothing")
	}
}
