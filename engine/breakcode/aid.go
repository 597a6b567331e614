package breakcode

import (
	"math/bits"
)

// The aid (View.Seats[i].Possible, View.CentrePossible) says how many
// distinct hands each opponent, and the centre, may still be for the seat
// viewing. It used to be read off the bot's weighted belief (knowledge.go),
// built from scratch for every seat view; the lobby builds a view per seat
// after every move and again on chat and reconnects, so that was most of a
// busy server's work. Here it is (1) remembered per seat until what that
// seat knows changes, and (2) worked out without weights: a hand is
// possible when at least one whole deal of the unseen tiles fits what the
// seat knows, and existence needs only bit sets and, for the larger cases,
// counts modulo 2^32. The numbers are the ones the belief gives (see
// TestAidMatchesBelief).

// aidKey is everything a seat's aid depends on that moves during a game:
// the answers (public, one more per question), the seat's own guesses
// (2 players: a wrong one rules that hand out) and whether the seat has
// seen the centre (3–4 players, after its guess). Hands never change.
type aidKey struct {
	asked   int
	guesses int
	out     bool
}

// aidMemo is one seat's aid as last computed.
type aidMemo struct {
	valid  bool
	key    aidKey
	counts aidCounts
}

// seatAid returns the aid for seat me, whose view (without the aid yet) is
// v. It is computed from v alone, so it holds nothing the seat may not know,
// and remembered until the seat's aidKey moves on.
func (s *state) seatAid(me int, v View) aidCounts {
	key := aidKey{asked: len(s.asked), guesses: len(s.guesses[me]), out: s.out[me]}
	if s.aidMemo == nil {
		s.aidMemo = make([]aidMemo, s.n)
	}
	m := &s.aidMemo[me]
	if !m.valid || m.key != key {
		*m = aidMemo{valid: true, key: key, counts: aidOf(v)}
	}
	return m.counts
}

// bitset is a set of local tile sets (bit m is set m).
type bitset []uint64

func newBitset(poolBits int) bitset { return make(bitset, max(1, (1<<poolBits)/64)) }

func (b bitset) has(m uint32) bool { return b[m>>6]&(1<<(m&63)) != 0 }
func (b bitset) set(m uint32)      { b[m>>6] |= 1 << (m & 63) }

// each calls fn for every member, in ascending order.
func (b bitset) each(fn func(m uint32)) {
	for w, word := range b {
		for word != 0 {
			fn(uint32(w<<6 | bits.TrailingZeros64(word)))
			word &= word - 1
		}
	}
}

// superClosure returns the sets that contain at least one member of b
// (the zeta transform over subsets, in the or-and semiring).
func (b bitset) superClosure() bitset {
	out := make(bitset, len(b))
	copy(out, b)
	// Within a word: bit i of the set index is bit i of the bit position.
	lowHalves := [6]uint64{
		0x5555555555555555, 0x3333333333333333, 0x0f0f0f0f0f0f0f0f,
		0x00ff00ff00ff00ff, 0x0000ffff0000ffff, 0x00000000ffffffff,
	}
	for i, lo := range lowHalves {
		if 1<<i >= len(out)*64 {
			break
		}
		for w := range out {
			out[w] |= (out[w] & lo) << (1 << i)
		}
	}
	for step := 1; step < len(out); step <<= 1 {
		for base := 0; base < len(out); base += 2 * step {
			lo, hi := out[base:base+step], out[base+step:base+2*step]
			hi = hi[:len(lo)]
			for w := range lo {
				hi[w] |= lo[w]
			}
		}
	}
	return out
}

// aidSolver works out the aid for the seat viewing one View.
type aidSolver struct {
	n, handSize int
	table       *handTable
	pool        []int  // physical index of each unseen tile, ascending
	poolBits    int    // len(pool)
	full        uint32 // every local bit
	// g1, g2 are the local bits of the two green 5s when both are unseen:
	// sets that differ only by which 5g they hold are the same hand.
	g1, g2 uint32
	// ok[j] lists the local sets opponent j (in seat order, the viewer left
	// out) may hold given its answers; okSet[j] is the same as a bitset.
	ok    [][]uint32
	okSet []bitset
	// zetas[j] caches the zeta transform of ok[j]'s indicator.
	zetas [][]uint32
	// centre lists the local sets the centre may be once the seat has seen
	// it (one, or two when it holds one 5g and both are unseen); nil before.
	centre     []uint32
	centreSeen bool
}

// aidOf computes the aid for the seat viewing v (which must be a seat's view).
func aidOf(v View) aidCounts {
	s := newAidSolver(v)
	c := aidCounts{hands: make([]int, s.n)}
	me := int(v.Viewer.Seat)
	var possible []bitset
	switch s.n {
	case 2:
		possible = []bitset{s.okSet[0]}
	case 3:
		possible, c.centre = s.solve3()
	default:
		possible, c.centre = s.solve4()
	}
	j := 0
	for seat := range s.n {
		if seat == me {
			continue
		}
		c.hands[seat] = s.distinct(possible[j])
		j++
	}
	return c
}

func newAidSolver(v View) *aidSolver {
	me := int(v.Viewer.Seat)
	s := &aidSolver{n: v.Players, handSize: v.HandSize, table: handsOfSize(v.HandSize)}
	mine, _ := maskOf(v.Hand)
	var local [tileCount]int
	for p := range tileCount {
		local[p] = -1
		if mine&(1<<p) == 0 {
			local[p] = len(s.pool)
			s.pool = append(s.pool, p)
		}
	}
	s.poolBits = len(s.pool)
	s.full = 1<<s.poolBits - 1
	if local[10] >= 0 && local[11] >= 0 {
		s.g1, s.g2 = 1<<local[10], 1<<local[11]
	}
	if v.Centre != nil {
		if c, err := maskOf(v.Centre); err == nil {
			s.centreSeen = true
			s.centre = s.localForms(c, local)
		}
	}
	// Hands this seat already guessed wrong (2 players) are ruled out.
	var wrong []int32
	if v.Players == 2 {
		for _, g := range v.Seats[me].Guesses {
			if m, err := maskOf(g.Tiles); err == nil && !g.Right && len(g.Tiles) == s.handSize {
				wrong = append(wrong, s.table.id(m))
			}
		}
	}
	type heard struct {
		variant int
		code    uint8
	}
	var notes [][]heard
	for seat := range s.n {
		if seat == me {
			continue
		}
		var hs []heard
		for _, n := range v.Seats[seat].Notes {
			hs = append(hs, heard{variantOf(n.Card, n.Number), n.Code})
		}
		notes = append(notes, hs)
		s.okSet = append(s.okSet, newBitset(s.poolBits))
	}
	s.ok = make([][]uint32, len(notes))
	s.zetas = make([][]uint32, len(notes))
	forSubsets(s.full, s.handSize, func(m uint32) {
		id := s.table.id(s.physical(m))
		for _, w := range wrong {
			if w == id {
				return
			}
		}
		ans := &s.table.answers[id]
	opponents:
		for j, hs := range notes {
			for _, h := range hs {
				if h.variant < 0 || ans[h.variant] != h.code {
					continue opponents
				}
			}
			s.ok[j] = append(s.ok[j], m)
			s.okSet[j].set(m)
		}
	})
	return s
}

// localForms lists the local sets that are the canonical physical set c:
// one, or two when c holds a single 5g and both 5gs are unseen; none when
// c holds a tile the viewer holds.
func (s *aidSolver) localForms(c uint32, local [tileCount]int) []uint32 {
	const fives = 1<<10 | 1<<11
	var base uint32
	for rest := c &^ fives; rest != 0; rest &= rest - 1 {
		p := bits.TrailingZeros32(rest)
		if local[p] < 0 {
			return nil
		}
		base |= 1 << local[p]
	}
	var unseen []uint32
	for _, p := range []int{10, 11} {
		if local[p] >= 0 {
			unseen = append(unseen, 1<<local[p])
		}
	}
	switch k := bits.OnesCount32(c & fives); {
	case k == 0:
		return []uint32{base}
	case k > len(unseen):
		return nil
	case k == 2:
		return []uint32{base | unseen[0] | unseen[1]}
	case len(unseen) == 1:
		return []uint32{base | unseen[0]}
	default:
		return []uint32{base | unseen[0], base | unseen[1]}
	}
}

// physical converts a local set to a physical one.
func (s *aidSolver) physical(local uint32) uint32 {
	var m uint32
	for local != 0 {
		m |= 1 << s.pool[bits.TrailingZeros32(local)]
		local &= local - 1
	}
	return m
}

// distinct counts the hands among the sets in b: two sets that differ
// only by which green 5 they hold count once.
func (s *aidSolver) distinct(b bitset) int {
	n := 0
	b.each(func(m uint32) {
		if m&s.g2 != 0 && m&s.g1 == 0 && b.has(m^s.g1^s.g2) {
			return // its twin holding the other 5g is counted
		}
		n++
	})
	return n
}

// complements returns the sets full \ m for m in b.
func (s *aidSolver) complements(b bitset) bitset {
	out := newBitset(s.poolBits)
	b.each(func(m uint32) { out.set(s.full &^ m) })
	return out
}

// fitting returns the members m of list whose complement lies in room.
func (s *aidSolver) fitting(list []uint32, room bitset) bitset {
	out := newBitset(s.poolBits)
	for _, m := range list {
		if room.has(s.full &^ m) {
			out.set(m)
		}
	}
	return out
}

// solve3 is the 3-player aid: per opponent, the sets that are part of a
// deal fitting every answer (and the centre, once seen); and the number of
// centre hands possible.
func (s *aidSolver) solve3() ([]bitset, int) {
	if s.centreSeen {
		pa, pb := newBitset(s.poolBits), newBitset(s.poolBits)
		any := false
		for _, c := range s.centre {
			for _, a := range s.ok[0] {
				if a&c != 0 {
					continue
				}
				if b := s.full &^ c &^ a; s.okSet[1].has(b) {
					pa.set(a)
					pb.set(b)
					any = true
				}
			}
		}
		if any {
			return []bitset{pa, pb}, 1
		}
		return []bitset{pa, pb}, 0
	}
	// A may hold a when some B set fits in what a leaves; the centre takes the rest.
	pa := s.fitting(s.ok[0], s.okSet[1].superClosure())
	pb := s.fitting(s.ok[1], s.okSet[0].superClosure())
	pairs := s.unions(listOf(pa), listOf(pb), -1, -1)
	return []bitset{pa, pb}, s.distinct(s.complements(pairs))
}

// solve4 is the 4-player aid. Opponent j may hold m when the two other
// opponents can take disjoint fitting sets from what m leaves (the centre
// takes the rest, whatever it is: as in marginals4, a seen centre does not
// narrow the opponents). The centre, once seen, counts one.
func (s *aidSolver) solve4() ([]bitset, int) {
	possible := make([]bitset, 3)
	var pairs12 bitset
	for j := range 3 {
		y, x := (j+1)%3, (j+2)%3
		pairs := s.unions(s.ok[y], s.ok[x], y, x)
		if j == 0 {
			pairs12 = pairs
		}
		possible[j] = s.fitting(s.ok[j], pairs.superClosure())
	}
	if s.centreSeen {
		return possible, 1
	}
	triples := s.unions(listOf(possible[0]), listOf(pairs12), -1, -1)
	return possible, s.distinct(s.complements(triples))
}

// listOf lists the members of b.
func listOf(b bitset) []uint32 {
	var out []uint32
	b.each(func(m uint32) { out = append(out, m) })
	return out
}

// unions returns every x ∪ y over disjoint x in xs and y in ys. Small
// lists are paired directly; large ones through subset transforms, where
// the number of ways to write S as x ∪ y with |S| = |x| + |y| counts
// disjoint pairs only and is positive exactly when S is a union. xi and yi
// name opponent lists whose transforms are cached (-1: not a cached list).
func (s *aidSolver) unions(xs, ys []uint32, xi, yi int) bitset {
	if len(xs) == 0 || len(ys) == 0 {
		return newBitset(s.poolBits)
	}
	transforms := 1
	if xi < 0 || s.zetas[xi] == nil {
		transforms++
	}
	if yi < 0 || s.zetas[yi] == nil {
		transforms++
	}
	// A step of either loop costs about the same (a nanosecond or so).
	if len(xs)*len(ys) <= transforms*s.poolBits<<(s.poolBits-1) {
		return s.unionsByPairs(xs, ys)
	}
	return s.unionsByTransform(xs, ys, xi, yi)
}

// unionsByPairs is unions by trying every pair.
func (s *aidSolver) unionsByPairs(xs, ys []uint32) bitset {
	out := newBitset(s.poolBits)
	for _, x := range xs {
		for _, y := range ys {
			if x&y == 0 {
				out.set(x | y)
			}
		}
	}
	return out
}

// unionsByTransform is unions through subset transforms; xs and ys must
// be non-empty and each hold sets of one size.
func (s *aidSolver) unionsByTransform(xs, ys []uint32, xi, yi int) bitset {
	out := newBitset(s.poolBits)
	size := bits.OnesCount32(xs[0]) + bits.OnesCount32(ys[0])
	zx, zy := s.zetaOf(xs, xi), s.zetaOf(ys, yi)
	g := make([]uint32, len(zx))
	for m := range g {
		g[m] = zx[m] * zy[m] // counts modulo 2^32: exact, as every count is below 2^32
	}
	mobius32(g)
	for m, w := range g {
		if w != 0 && bits.OnesCount32(uint32(m)) == size {
			out.set(uint32(m))
		}
	}
	return out
}

// zetaOf returns the zeta transform of list's indicator, cached for opponent lists.
func (s *aidSolver) zetaOf(list []uint32, cache int) []uint32 {
	if cache >= 0 && s.zetas[cache] != nil {
		return s.zetas[cache]
	}
	f := make([]uint32, 1<<s.poolBits)
	for _, m := range list {
		f[m] = 1
	}
	zeta32(f)
	if cache >= 0 {
		s.zetas[cache] = f
	}
	return f
}

// zeta32 replaces f by its sums over subsets, modulo 2^32.
func zeta32(f []uint32) {
	for i := 0; i+1 < len(f); i += 2 {
		f[i+1] += f[i]
	}
	for bit := 2; bit < len(f); bit <<= 1 {
		for base := 0; base < len(f); base += 2 * bit {
			lo, hi := f[base:base+bit], f[base+bit:base+2*bit]
			hi = hi[:len(lo)]
			for m := range lo {
				hi[m] += lo[m]
			}
		}
	}
}

// mobius32 inverts zeta32.
func mobius32(f []uint32) {
	for i := 0; i+1 < len(f); i += 2 {
		f[i+1] -= f[i]
	}
	for bit := 2; bit < len(f); bit <<= 1 {
		for base := 0; base < len(f); base += 2 * bit {
			lo, hi := f[base:base+bit], f[base+bit:base+2*bit]
			hi = hi[:len(lo)]
			for m := range lo {
				hi[m] -= lo[m]
			}
		}
	}
}
