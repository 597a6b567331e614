package breakcode

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// brute4 counts 4-player marginals by direct enumeration (slow; for checking).
func brute4(k *knowledge) belief {
	b := belief{target: newTargets(nil, len(k.table.masks))}
	for range k.opps {
		b.opp = append(b.opp, make([]float64, 1<<len(k.pool)))
	}
	for _, a := range k.ok[0] {
		forSubsets(k.full&^a, k.handSize, func(bb uint32) {
			if !k.okSet[1][bb] {
				return
			}
			forSubsets(k.full&^a&^bb, k.handSize, func(c uint32) {
				if !k.okSet[2][c] {
					return
				}
				b.opp[0][a]++
				b.opp[1][bb]++
				b.opp[2][c]++
				b.target.add(k.handID[k.full&^a&^bb&^c], 1)
			})
		})
	}
	return b
}

// denseOpp spreads a belief's per-opponent weights over every local set,
// as brute4 and the enumeration count them.
func denseOpp(k *knowledge, b belief) [][]float64 {
	out := make([][]float64, len(b.opp))
	for j := range b.opp {
		out[j] = make([]float64, 1<<len(k.pool))
		for i, m := range k.ok[j] {
			out[j][m] = b.opp[j][i]
		}
	}
	return out
}

func TestMarginals4MatchBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	s := newState(true, make([]engine.Player, 4), 77)
	for range 3 {
		card := s.faceUp[rng.IntN(len(s.faceUp))]
		if NeedsNumber(card) {
			card = 1
		}
		if !slices.Contains(s.faceUp, card) {
			card = s.faceUp[0]
		}
		mustApply(t, s, s.toMove, AskAction(card, firstNumberOr0(card)))
		checkMarginals4(t, s)
	}
}

// checkMarginals4 compares the 4-player belief of seat 0 with brute force.
func checkMarginals4(t *testing.T, s *state) {
	t.Helper()
	k := newKnowledge(s.view(engine.SeatViewer(0)))
	want := brute4(k)
	// Every count by transforms (small 0), and every one added up directly.
	for _, small := range []int{0, 1 << 40} {
		got := belief{target: newTargets(nil, len(k.table.masks))}
		for j := range k.opps {
			got.opp = append(got.opp, make([]float64, len(k.ok[j])))
		}
		k.marginals4(&got, small)
		gotOpp := denseOpp(k, got)
		for j := range k.opps {
			for m := range gotOpp[j] {
				if gotOpp[j][m] != want.opp[j][m] {
					t.Fatalf("small %d: opponent %d set %b: %v, want %v", small, j, m, gotOpp[j][m], want.opp[j][m])
				}
			}
		}
		sameCentre(t, k, fmt.Sprintf("small %d", small), got, want)
	}
	t.Logf("centre sets %d, asked %d", want.target.len(), len(s.asked))
}

func firstNumberOr0(card int) int {
	if n := CardNumbers(card); n != nil {
		return n[0]
	}
	return 0
}

// The 3-player belief, by subset transforms (of both lists, or of one
// when the other opponent has answered nothing) and by testing pairs
// (belief picks one by size), equals direct enumeration of every deal, at
// the start and after some answers, seen from every seat.
func TestMarginals3MatchEnumeration(t *testing.T) {
	s := newState(true, make([]engine.Player, 3), 12)
	freeSeen := map[int]bool{}
	for step := range 18 {
		k := newKnowledge(s.view(engine.SeatViewer(engine.Seat(step % 3))))
		if free := k.freeOpponent(); free >= 0 {
			freeSeen[free] = true
		}
		size := 1 << len(k.pool)
		want := belief{target: newTargets(nil, len(k.table.masks)), opp: [][]float64{make([]float64, size), make([]float64, size)}}
		k.forJoint3(func(a, b uint32) {
			want.opp[0][a]++
			want.opp[1][b]++
			want.target.add(k.handID[k.full&^a&^b], 1)
		})
		ways := map[string]func(*belief){"transforms": k.marginals3Both, "pairs": k.pairs3, "belief's": k.marginals3}
		for name, way := range ways {
			got := belief{target: newTargets(nil, len(k.table.masks)), opp: [][]float64{make([]float64, len(k.ok[0])), make([]float64, len(k.ok[1]))}}
			way(&got)
			if gotOpp := denseOpp(k, got); !slices.Equal(gotOpp[0], want.opp[0]) || !slices.Equal(gotOpp[1], want.opp[1]) {
				t.Fatalf("step %d, %s: opponent marginals differ", step, name)
			}
			sameCentre(t, k, fmt.Sprintf("step %d, %s", step, name), got, want)
		}
		if step%3 == 2 {
			card := s.faceUp[step%len(s.faceUp)]
			mustApply(t, s, s.toMove, AskAction(card, firstNumberOr0(card)))
		}
	}
	if !freeSeen[0] || !freeSeen[1] {
		t.Fatalf("an opponent free to hold any set was seen only as %v: the one-transform way is not checked both ways round", freeSeen)
	}
}

// With 4 players, an opponent who has answered nothing (before the first
// question: with 4 players the asker answers too) gives the centre's
// weights directly; they equal the centre counted by transforms and by
// adding up.
func TestCentre4FromFreeOpponent(t *testing.T) {
	for seed := range uint64(2) {
		s := newState(true, make([]engine.Player, 4), seed)
		k := newKnowledge(s.view(engine.SeatViewer(s.toMove)))
		if k.freeOpponent() < 0 {
			t.Fatal("no opponent free to hold any set at the start")
		}
		got := k.belief()
		for _, small := range []int{0, 1 << 40} {
			want := belief{target: newTargets(nil, len(k.table.masks))}
			k.centre4(&want, k.zetasOf(k.ok), small)
			sameCentre(t, k, fmt.Sprintf("seed %d small %d", seed, small), got, want)
		}
	}
}

// sameCentre fails the test, its message led by what, unless got weighs
// the same centre sets as want, each exactly as much.
func sameCentre(t *testing.T, k *knowledge, what string, got, want belief) {
	t.Helper()
	if got.target.len() != want.target.len() {
		t.Fatalf("%s: %d centre sets, want %d", what, got.target.len(), want.target.len())
	}
	for _, id := range want.target.ids {
		if w := want.target.at(id); got.target.at(id) != w {
			t.Fatalf("%s: centre %v weighs %v, want %v", what, k.table.tiles[id], got.target.at(id), w)
		}
	}
}

// pairCounts, kept in 16-bit lanes, counts for every set the pairs whose
// union it is, as pair by pair, when both lists hold every set of five of
// 15 tiles (the largest counts: 630 on sets of 9) and on random halves.
func TestPairCountsInNarrowLanes(t *testing.T) {
	k := newKnowledge(newState(true, make([]engine.Player, 3), 5).view(engine.SeatViewer(0)))
	rng := rand.New(rand.NewPCG(20, 630))
	var all, halfA, halfB []uint32
	forSubsets(k.full, k.handSize, func(m uint32) {
		all = append(all, m)
		if rng.IntN(2) == 0 {
			halfA = append(halfA, m)
		}
		if rng.IntN(2) == 0 {
			halfB = append(halfB, m)
		}
	})
	for _, lists := range [][2][]uint32{{all, all}, {halfA, halfB}, {halfA, all}} {
		want := make([]uint32, k.full+1)
		for _, a := range lists[0] {
			for _, b := range lists[1] {
				want[a|b]++
			}
		}
		got := pairCounts(nil, k.zetaNarrow(lists[0]), k.zetaNarrow(lists[1]))
		most := uint32(0)
		for m := range k.full + 1 {
			if c := narrowAt(got, m); c != want[m] {
				t.Fatalf("%d×%d sets: set %015b counted %d, pair by pair %d", len(lists[0]), len(lists[1]), m, c, want[m])
			}
			most = max(most, want[m])
		}
		if len(lists[0]) == len(all) && len(lists[1]) == len(all) && most != 630 {
			t.Fatalf("every set with every set: the largest count is %d, want 630", most)
		}
	}
}

// deals3 lists every deal forJoint3 visits, once each, as the places of
// its sets in the opponents' lists, and as many as the belief's weights
// add up to (the room it takes for them): from every seat after every
// move of random 3-player games, seats that have seen the centre among
// them.
func TestDeals3ListsEveryDealOnce(t *testing.T) {
	games := 3
	if testing.Short() || raceEnabled {
		games = 1
	}
	centreSeen, compared := 0, 0
	for g := range games {
		seed := uint64(4_400 + g)
		rng := rand.New(rand.NewPCG(seed, 3))
		s := newState(false, make([]engine.Player, 3), seed)
		for s.phase != Finished {
			for seat := range 3 {
				k := newKnowledge(s.view(engine.SeatViewer(engine.Seat(seat))))
				bel := k.belief()
				var want, got [][2]uint32
				k.forJoint3(func(a, b uint32) { want = append(want, [2]uint32{a, b}) })
				deals := k.deals3(bel)
				for _, d := range deals {
					got = append(got, [2]uint32{k.ok[0][d>>16], k.ok[1][d&0xffff]})
				}
				cmp := func(x, y [2]uint32) int {
					if x[0] != y[0] {
						return int(x[0]) - int(y[0])
					}
					return int(x[1]) - int(y[1])
				}
				slices.SortFunc(want, cmp)
				slices.SortFunc(got, cmp)
				if !slices.Equal(got, want) {
					t.Fatalf("seed %d turn %d seat %d: deals3 lists %d deals, forJoint3 visits %d (or others)", seed, s.turns, seat, len(got), len(want))
				}
				total := 0.0
				for _, w := range bel.opp[0] {
					total += w
				}
				if int(total) != len(deals) {
					t.Fatalf("seed %d turn %d seat %d: %d deals, the belief weighs %v", seed, s.turns, seat, len(deals), total)
				}
				if k.centreKnown >= 0 {
					centreSeen++
				}
				compared++
			}
			if _, err := s.Apply(s.toMove, randomAction(rng, s)); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
	}
	if centreSeen == 0 {
		t.Fatal("no seat had seen the centre: its way of listing is not checked")
	}
	t.Logf("%d positions, %d with the centre seen", compared, centreSeen)
}
