package breakcode

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/enginetest"
)

// aidGames is how many seeded random games TestAidMatchesBelief walks per
// player count; the reference (the weighted belief) costs up to ~10 ms a
// seat with 4 players, so the race detector gets fewer.
func aidGames(n int) int {
	games := map[int]int{2: 120, 3: 40, 4: 10}[n]
	if testing.Short() || raceEnabled {
		games = max(1, games/8)
	}
	return games
}

// Every seat's aid in the view (remembered and worked out without
// weights) is exactly what the bot's belief from that seat's view says,
// at every step of random games: before and after answers, wrong guesses
// (2 players) and a look at the centre (3–4 players).
func TestAidMatchesBelief(t *testing.T) {
	for n := 2; n <= 4; n++ {
		t.Run(fmt.Sprintf("%dp", n), func(t *testing.T) {
			checked, seen := 0, 0
			for g := range aidGames(n) {
				seed := uint64(7_000_000 + n*10_000 + g)
				rng := rand.New(rand.NewPCG(seed, 3))
				s := newState(true, make([]engine.Player, n), seed)
				for s.phase != Finished {
					for seat := range n {
						checkAid(t, seed, s, seat)
						checked++
						if s.n > 2 && s.out[seat] {
							seen++
						}
					}
					if _, err := s.Apply(s.toMove, randomAction(rng, s)); err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
				}
				for seat := range n {
					checkAid(t, seed, s, seat)
				}
			}
			t.Logf("%d seat views checked, %d after a look at the centre", checked, seen)
		})
	}
}

// checkAid compares seat's aid in its view, twice (the second is
// remembered), with the counts from the belief.
func checkAid(t *testing.T, seed uint64, s *state, seat int) {
	t.Helper()
	var want aidCounts
	for i := range 2 {
		v := s.view(engine.SeatViewer(engine.Seat(seat)))
		if i == 0 {
			want = newKnowledge(v).counts()
		}
		got := aidCounts{hands: make([]int, s.n), centre: v.CentrePossible}
		for i, sv := range v.Seats {
			got.hands[i] = sv.Possible
		}
		if !slices.Equal(got.hands, want.hands) || got.centre != want.centre {
			t.Fatalf("seed %d, turn %d, seat %d: aid %+v, belief says %+v", seed, s.turns, seat, got, want)
		}
		checkListed(t, seed, s, seat, v)
	}
}

// checkListed compares the hands and centre sets the aid lists with the
// ones the belief gives weight to, where at most ListedMax are possible,
// and checks each list holds the truth.
func checkListed(t *testing.T, seed uint64, s *state, seat int, v View) {
	t.Helper()
	k := newKnowledge(v)
	bel := k.belief()
	ids := func(sets [][]Tile) []int32 {
		var out []int32
		for _, ts := range sets {
			m, err := maskOf(ts)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, k.table.id(m))
		}
		slices.Sort(out)
		return out
	}
	for j, opp := range k.opps {
		sv := v.Seats[opp]
		if sv.Possible > ListedMax {
			if sv.PossibleHands != nil {
				t.Fatalf("seed %d, seat %d: %d hands of seat %d listed", seed, seat, sv.Possible, opp)
			}
			continue
		}
		var want []int32
		for i, m := range k.ok[j] {
			if bel.opp[j][i] > 0 && !slices.Contains(want, k.handID[m]) {
				want = append(want, k.handID[m])
			}
		}
		slices.Sort(want)
		if got := ids(sv.PossibleHands.Sets()); !slices.Equal(got, want) || len(got) != sv.Possible {
			t.Fatalf("seed %d, turn %d, seat %d: seat %d's hands listed %v (ids %v), belief says %v", seed, s.turns, seat, opp, sv.PossibleHands, got, want)
		}
		if truth := k.table.id(s.hands[opp]); len(want) > 0 && !slices.Contains(want, truth) {
			t.Fatalf("seed %d, seat %d: seat %d's real hand is not listed", seed, seat, opp)
		}
	}
	if v.CentreSize == 0 {
		return
	}
	if v.CentrePossible > ListedMax || v.Centre != nil {
		if v.CentreSets != nil {
			t.Fatalf("seed %d, seat %d: %d centre sets listed (centre seen %v)", seed, seat, v.CentrePossible, v.Centre != nil)
		}
		return
	}
	var want []int32
	for _, id := range bel.target.ids {
		if bel.target.at(id) > 0 {
			want = append(want, id)
		}
	}
	slices.Sort(want)
	if got := ids(v.CentreSets.Sets()); !slices.Equal(got, want) {
		t.Fatalf("seed %d, turn %d, seat %d: centre sets listed %v, belief says %v", seed, s.turns, seat, v.CentreSets, want)
	}
	if truth := k.table.id(s.centre); !slices.Contains(want, truth) {
		t.Fatalf("seed %d, seat %d: the real centre is not listed", seed, seat)
	}
}

// All ways of listing disjoint unions agree, on opponents' sets from
// random 3- and 4-player positions seen from every seat (from the first
// moves, where some opponent may still hold any set, to later ones), and
// with 4 players on one opponent's sets beside two others' unions.
func TestUnionsBothWays(t *testing.T) {
	for n := 3; n <= 4; n++ {
		for g := range 6 {
			seed := uint64(n*100 + g)
			rng := rand.New(rand.NewPCG(seed, 4))
			s := newState(true, make([]engine.Player, n), seed)
			for range g {
				card := s.faceUp[rng.IntN(len(s.faceUp))]
				mustApply(t, s, s.toMove, AskAction(card, firstNumberOr0(card)))
			}
			for viewer := range n {
				a := newAidSolver(s.view(engine.SeatViewer(engine.Seat(viewer))), nil)
				for x := range a.ok {
					for y := range a.ok {
						if x == y {
							continue
						}
						byPairs := a.unionsByPairs(a.ok[x], a.ok[y])
						if len(a.ok[x]) == 0 || len(a.ok[y]) == 0 {
							continue
						}
						byTransform := a.unionsByTransform(a.ok[x], a.ok[y], x, y)
						byWords := a.unionsByWords(a.ok[x], a.okSet[y])
						byWordsSwapped := a.unionsByWords(a.ok[y], a.okSet[x])
						// unions picks one of those, or (when a side may be
						// any set) the closure of the other side.
						chosen := a.unions(a.ok[x], a.ok[y], a.okSet[x], a.okSet[y], -1, -1)
						if !slices.Equal(byPairs, byTransform) || !slices.Equal(byPairs, byWords) ||
							!slices.Equal(byPairs, byWordsSwapped) || !slices.Equal(byPairs, chosen) {
							t.Fatalf("%d players, seed %d, seat %d: unions of opponents %d and %d differ", n, seed, viewer, x, y)
						}
						// With 4 players the third opponent's sets are also
						// joined to those unions (sets of two sizes).
						for z := range a.ok {
							if z == x || z == y || len(a.ok[z]) == 0 || slices.Max(byPairs) == 0 {
								continue
							}
							pairs := a.listOf(byPairs)
							want := a.unionsByPairs(a.ok[z], pairs)
							if !slices.Equal(want, a.unionsByWords(a.ok[z], byPairs)) ||
								!slices.Equal(want, a.unionsByWords(pairs, a.okSet[z])) ||
								!slices.Equal(want, a.unionsByTransform(a.ok[z], pairs, -1, -1)) ||
								!slices.Equal(want, a.unions(a.ok[z], pairs, a.okSet[z], byPairs, -1, -1)) {
								t.Fatalf("%d players, seed %d, seat %d: unions of opponent %d with %d∪%d differ", n, seed, viewer, z, x, y)
							}
						}
					}
				}
			}
		}
	}
}

// withoutAidMemo returns a shallow copy of s without its remembered aid
// counts, which views leave behind and a replay does not: they are derived
// from the game, not part of it.
func withoutAidMemo(s *state) *state {
	c := *s
	c.aidMemo = nil
	return &c
}

// The hands and centre sets a seat's notepad lists come from that seat's
// view alone: dealing every tile it cannot see again (and rewriting others'
// private guesses) leaves them, and the whole view, unchanged.
func TestListedSetsNoninterference(t *testing.T) {
	checked := 0
	for n := 2; n <= 4; n++ {
		for g := range 12 {
			seed := uint64(9_000 + n*100 + g)
			rng := rand.New(rand.NewPCG(seed, 5))
			s := newState(true, make([]engine.Player, n), seed)
			for s.phase != Finished {
				for seat := range n {
					viewer := engine.SeatViewer(engine.Seat(seat))
					v := s.view(viewer)
					listed := v.CentreSets != nil
					for _, sv := range v.Seats {
						listed = listed || sv.PossibleHands != nil
					}
					if !listed {
						continue
					}
					checked++
					other := reshuffleHidden(rng, s, viewer)
					other.aidMemo = nil
					if a, b := enginetest.ViewJSON(t, s, viewer), enginetest.ViewJSON(t, other, viewer); a != b {
						t.Fatalf("seed %d: seat %d's listed sets depend on hidden tiles:\n%s\n%s", seed, seat, a, b)
					}
				}
				if _, err := s.Apply(s.toMove, randomAction(rng, s)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d views listed sets: the test checks too little", checked)
	}
	t.Logf("%d views with listed sets checked", checked)
}

// marksBySets is the pencil marks read set by set, as aidSolver.marks
// did before it read whole words: the reference it must match.
func (s *aidSolver) marksBySets(b bitset) []uint32 {
	out := make([]uint32, s.handSize)
	for w, word := range b {
		for ; word != 0; word &= word - 1 {
			m := uint32(w<<6 | bits.TrailingZeros64(word))
			i := 0
			for rest := m; rest != 0 && i < len(out); rest &= rest - 1 {
				p := s.pool[bits.TrailingZeros32(rest)]
				if p == 11 {
					p = 10
				}
				out[i] |= 1 << p
				i++
			}
		}
	}
	return out
}

// The word-at-a-time pencil marks equal the set-by-set ones on random
// bitsets of every density, for every seat's pool of 2–4-player deals,
// including sets of other sizes than a hand's.
func TestMarksMatchSetBySet(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for n := 2; n <= 4; n++ {
		for seed := range uint64(6) {
			s := newState(true, make([]engine.Player, n), seed)
			for seat := range n {
				solver := newAidSolver(s.viewAid(engine.SeatViewer(engine.Seat(seat)), false), nil)
				for _, density := range []int{1, 8, 64, 512, 4096, 1 << 15} {
					b := newBitset(solver.poolBits)
					for m := uint32(0); m <= solver.full; m++ {
						size := bits.OnesCount32(m)
						if (size == solver.handSize || density < 64 && size == solver.handSize+1) && rng.IntN(1<<15) < density {
							b.set(m)
						}
					}
					if got, want := solver.marks(b), solver.marksBySets(b); !slices.Equal(got, want) {
						t.Fatalf("%dp seed %d seat %d density %d: marks %v, want %v", n, seed, seat, density, got, want)
					}
				}
			}
		}
	}
}

// The remembered aid (seatAid's memo, with the lists it starts the next
// computation from) is never stale and never another seat's: seats look
// at the game in a random order, some several times a move and some not
// for several moves (so a memo starts from lists many answers old), and
// every view equals the one a fresh copy of the game, remembering
// nothing, gives the same seat. A memo keyed by less than the seat and
// all it knows fails here.
func TestAidMemoIsNeverStaleNorAnotherSeats(t *testing.T) {
	for n := 2; n <= 4; n++ {
		games := 12
		if testing.Short() || raceEnabled {
			games = 3
		}
		for g := range games {
			seed := uint64(9_100_000 + n*1_000 + g)
			rng := rand.New(rand.NewPCG(seed, 9))
			s := newState(true, make([]engine.Player, n), seed)
			for s.phase != Finished {
				for range rng.IntN(2 * n) {
					seat := engine.Seat(rng.IntN(n))
					got := s.View(engine.SeatViewer(seat))
					want := withoutAidMemo(s).View(engine.SeatViewer(seat))
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%dp seed %d turn %d: seat %d's remembered view differs from a fresh one:\n got %+v\nwant %+v",
							n, seed, s.turns, seat, got, want)
					}
				}
				if _, err := s.Apply(s.toMove, randomAction(rng, s)); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
			}
		}
	}
}

// appendHands lists every local set of a hand's size once, in increasing
// order, each with the id of the physical hand it is; for every seat of
// 2–4-player deals.
func TestAppendHandsListsEveryHand(t *testing.T) {
	for n := 2; n <= 4; n++ {
		s := newState(true, make([]engine.Player, n), uint64(n))
		for seat := range n {
			a := newAidSolver(s.viewAid(engine.SeatViewer(engine.Seat(seat)), false), nil)
			sets, ids := a.appendHands(nil, nil)
			var want []uint32
			for m := uint32(0); m <= a.full; m++ {
				if bits.OnesCount32(m) == a.handSize {
					want = append(want, m)
				}
			}
			if !slices.Equal(sets, want) {
				t.Fatalf("%dp seat %d: %d sets listed, want %d in order", n, seat, len(sets), len(want))
			}
			for i, m := range sets {
				var phys uint32
				for rest := m; rest != 0; rest &= rest - 1 {
					phys |= 1 << a.pool[bits.TrailingZeros32(rest)]
				}
				if ids[i] != a.table.id(phys) {
					t.Fatalf("%dp seat %d: set %b has id %d, want %d", n, seat, m, ids[i], a.table.id(phys))
				}
			}
		}
	}
}

// From the first answer on, every seat of 2–4-player games keeps its
// opponents' lists between views (within keptListsMax), so the next aid
// filters them by the new answers instead of listing every hand again;
// a list of every hand (an opponent who has not answered) is only marked.
// (That the aid worked out from them is the fresh one is
// TestAidMemoIsNeverStaleNorAnotherSeats.)
func TestAidKeepsListsFromTheFirstAnswer(t *testing.T) {
	for n := 2; n <= 4; n++ {
		for seed, asks := range [...]int{1, 1, 1, 3, 3, 3} {
			s := askedPosition(t, n, asks, uint64(seed))
			for seat := range n {
				s.View(engine.SeatViewer(engine.Seat(seat)))
				l := s.aidMemo[seat].lists
				if l == nil {
					t.Fatalf("%dp seed %d: seat %d kept no lists after %d questions", n, seed, seat, asks)
				}
				kept := 0
				for j, set := range l.sets {
					switch {
					case l.whole[j] && (l.heard[j] > 0 || len(set) > 0):
						t.Fatalf("%dp seed %d: seat %d: opponent %d marked whole after %d answers, %d sets", n, seed, seat, j, l.heard[j], len(set))
					case !l.whole[j] && l.heard[j] > 0 && len(set) == 0:
						t.Fatalf("%dp seed %d: seat %d: opponent %d kept no sets", n, seed, seat, j)
					}
					kept += len(set)
					if l.ids == nil {
						continue
					}
					// Kept ids are the hands the kept sets are.
					var pool []int
					for p := range tileCount {
						if s.hands[seat]&(1<<p) == 0 {
							pool = append(pool, p)
						}
					}
					table := handsOfSize(s.handSize)
					for i, m := range set {
						var phys uint32
						for rest := uint32(m); rest != 0; rest &= rest - 1 {
							phys |= 1 << pool[bits.TrailingZeros32(rest)]
						}
						if got, want := l.ids[j][i], table.id(phys); got != want {
							t.Fatalf("%dp seed %d: seat %d: opponent %d's set %b kept with id %d, is %d", n, seed, seat, j, m, got, want)
						}
					}
				}
				if kept > keptListsMax {
					t.Fatalf("%dp seed %d: seat %d kept %d sets", n, seed, seat, kept)
				}
			}
		}
	}
}

// Setting up a seat's aid with a scratch allocates nothing once the
// scratch has lent its tables before: the solver, its per-opponent slices
// and the answers heard all live in the scratch (a server sets one up
// for every seat after every move).
func TestAidSetUpAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops scratches at random")
	}
	for n := 2; n <= 4; n++ {
		s := askedPosition(t, n, 3, 1)
		v := s.viewAid(engine.SeatViewer(0), false)
		allocs := testing.AllocsPerRun(20, func() {
			buf := getScratch()
			newAidSolverIn(v, nil, buf)
			putScratch(buf)
		})
		// Below one on average: a collection may empty the pool once.
		if allocs >= 1 {
			t.Errorf("%dp: setting up the aid allocates %v times", n, allocs)
		}
	}
}
