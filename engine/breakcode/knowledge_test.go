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

// appendPoolHands lists every set of a hand's size over a pool, in
// forSubsets' order, each with the hand id handTable.localID gives it:
// for random pools of 15 and 16 unseen tiles (hands of 5 and 4, the green
// 5s seen, unseen or split), every size of hand over each (a table of 5s
// read with a 4-tile hand's pool cannot happen in play, but the listing
// must not depend on the pool's size), and small and whole pools too.
func TestPoolHandsMatchLocalID(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 16))
	for trial := range 60 {
		held := 5 - trial%2
		switch trial {
		case 0:
			held = 0 // every tile unseen (a pool of 20)
		case 1:
			held = 15 // a pool of 5: one set of 5
		case 2:
			held = 17 // a pool of 3: no set at all
		}
		own := rng.Perm(tileCount)[:held]
		if trial%6 == 3 {
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
			var wantSets []uint32
			var wantIDs []int32
			forSubsets(1<<len(pool)-1, size, func(m uint32) {
				wantSets, wantIDs = append(wantSets, m), append(wantIDs, table.localID(pool, m))
			})
			sets, ids := table.appendPoolHands(pool, []uint32{7}, []int32{-7})
			if sets[0] != 7 || ids[0] != -7 || !slices.Equal(sets[1:], wantSets) || !slices.Equal(ids[1:], wantIDs) {
				t.Fatalf("pool %v, hands of %d: listed %d sets (%v…), want %d (%v…)", pool, size, len(sets)-1, sets[1:min(len(sets), 6)], len(wantSets), wantSets[:min(len(wantSets), 5)])
			}
		}
	}
}

// Listing a pool's hands into room already made allocates nothing: every
// seat's aid and every bot decision lists them.
func TestPoolHandsAllocateNothing(t *testing.T) {
	pool := make([]int, 0, tileCount)
	for p := 5; p < tileCount; p++ {
		pool = append(pool, p)
	}
	table := handsOfSize(5)
	sets, ids := make([]uint32, 0, 3003), make([]int32, 0, 3003)
	if n := testing.AllocsPerRun(10, func() { table.appendPoolHands(pool, sets, ids) }); n != 0 {
		t.Fatalf("appendPoolHands with room: %v allocations, want none", n)
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
