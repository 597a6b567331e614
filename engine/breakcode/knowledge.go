package breakcode

import (
	"math"
	"math/bits"
	"slices"
	"sync"
)

// knowledge is what one seat can deduce from its View: its own tiles, every
// answer it has heard, and (2 players) its own wrong guesses. Everything is
// counted over physical deals of the tiles the seat cannot see, each deal
// weighing one, so a hand with a lone green 5 weighs twice when both green
// 5s are unseen.
//
// Tile sets here are "local" masks over the pool of unseen tiles (bit i is
// pool[i]), which keeps them at 15 or 16 bits.
type knowledge struct {
	n        int
	handSize int
	table    *handTable
	pool     []int  // physical indices of the unseen tiles, ascending
	full     uint32 // every local bit
	opps     []int  // opponent seats, in seat order
	// ok[j] lists the local sets opponent opps[j] may still hold, in
	// increasing order, and okID[j] their hand ids, side by side.
	ok   [][]uint32
	okID [][]int32
	// okSet[j][mask] is true when mask is in ok[j] (3–4 players only: the
	// 2-player bot never looks sets up).
	okSet [][]bool
	// centreKnown is the centre's hand id once the seat has looked at it, else -1.
	centreKnown int32
	// handID maps a local set of handSize tiles to its hand id (-1 elsewhere).
	handID []int32
	// all lists every local set of handSize tiles in increasing order, and
	// allIDs their hand ids, side by side.
	all    []uint32
	allIDs []int32
	// buf lends the large tables (nil: they are allocated).
	buf *scratch
	// room holds the short per-opponent slices above, so that a decision
	// does not allocate each apart.
	room struct {
		pool  [tileCount]int
		opps  [3]int
		ok    [3][]uint32
		okID  [3][]int32
		okSet [3][]bool
	}
}

// newKnowledge builds the knowledge of the seat viewing v. v must be a seat's view.
func newKnowledge(v View) *knowledge { return newKnowledgeIn(v, nil) }

// newKnowledgeIn is newKnowledge with its large tables lent by buf, for as
// long as buf lends them.
func newKnowledgeIn(v View, buf *scratch) *knowledge {
	me := int(v.Viewer.Seat)
	k := &knowledge{n: v.Players, handSize: v.HandSize, table: handsOfSize(v.HandSize), centreKnown: -1, buf: buf}
	mine, _ := maskOf(v.Hand)
	k.pool = k.room.pool[:0]
	for p := range tileCount {
		if mine&(1<<p) == 0 {
			k.pool = append(k.pool, p)
		}
	}
	k.opps, k.ok, k.okID = k.room.opps[:0], k.room.ok[:0], k.room.okID[:0]
	if v.Players > 2 {
		k.okSet = k.room.okSet[:0]
	}
	k.full = 1<<len(k.pool) - 1
	k.handID = dirtyI32(buf, 1<<len(k.pool)) // filled below
	// -1 everywhere, by doubling copies (memmove) rather than 32,768
	// single stores: this table is rebuilt for every decision.
	k.handID[0] = -1
	for n := 1; n < len(k.handID); n *= 2 {
		copy(k.handID[n:], k.handID[:n])
	}
	// Every local set of handSize tiles, in forSubsets' order, and its
	// hand id beside it, for the filters below.
	nAll := binom(len(k.pool), k.handSize)
	all, allIDs := k.table.appendPoolHands(k.pool, dirtyU32(buf, nAll)[:0], dirtyI32(buf, nAll)[:0])
	for i, m := range all {
		k.handID[m] = allIDs[i]
	}
	k.all, k.allIDs = all, allIDs
	if v.Centre != nil {
		if c, err := maskOf(v.Centre); err == nil {
			k.centreKnown = k.table.id(c)
		}
	}
	// Hands this seat already guessed wrong (2 players) are ruled out.
	var wrong []int32
	if v.Players == 2 {
		for _, g := range v.Seats[me].Guesses {
			if m, err := maskOf(g.Tiles); err == nil && !g.Right && len(g.Tiles) == k.handSize {
				wrong = append(wrong, k.table.id(m))
			}
		}
	}
	for i := range v.Players {
		if i == me {
			continue
		}
		k.opps = append(k.opps, i)
		list, ids := k.table.fitting(all, allIDs, k.heard(v.Seats[i].Notes), wrong,
			dirtyU32(buf, len(all))[:0], dirtyI32(buf, len(all))[:0])
		k.ok, k.okID = append(k.ok, list), append(k.okID, ids)
		if v.Players > 2 {
			set := zeroBools(buf, 1<<len(k.pool))
			for _, m := range list {
				set[m] = true
			}
			k.okSet = append(k.okSet, set)
		}
	}
	return k
}

// heardAnswer is one answer a seat gave: to question variant v, code.
type heardAnswer struct {
	v    int
	code uint8
}

// heard turns notes into answers to check hands against; a note that
// names no question comes out with variant -1, which no hand fits.
func (k *knowledge) heard(notes []Note) []heardAnswer {
	out := make([]heardAnswer, 0, len(notes))
	for _, n := range notes {
		out = append(out, heardAnswer{variantOf(n.Card, n.Number), n.Code})
	}
	return out
}

// fitting appends to sets and ids (returning them) the members of all,
// whose hand ids allIDs holds side by side, that give every answer of
// heard and are none of the hands wrong, in all's order. An answer to no
// question (variant -1) leaves nothing. sets and ids may be all and
// allIDs emptied (all[:0]): a set is written only where one was read.
//
// It narrows answer by answer: the first answer's pass reads every set,
// each later one only what the passes before it left, and every pass is a
// tight loop over one question's answers for all hands (byVariant). Most
// sets fail the first answer, and testing each set against the answers in
// turn cost a call and a loop a set. Which sets are kept, and their order,
// do not depend on the way: a set is kept exactly when it fits every
// answer.
func (t *handTable) fitting(all []uint32, allIDs []int32, heard []heardAnswer, wrong []int32, sets []uint32, ids []int32) ([]uint32, []int32) {
	for _, h := range heard {
		if h.v < 0 {
			return sets, ids
		}
	}
	start := len(sets)
	if len(heard) == 0 {
		sets, ids = append(sets, all...), append(ids, allIDs...)
	} else {
		// Written in place into room for every set (as appends, they were
		// two capacity checks a set and the slices spilled to memory).
		sets, ids = slices.Grow(sets, len(all)), slices.Grow(ids, len(all))
		n := keepAnswering(sets[start:start+len(all)], ids[start:start+len(all)], all, allIDs, t.byVariant[heard[0].v], heard[0].code)
		sets, ids = sets[:start+n], ids[:start+n]
		heard = heard[1:]
	}
	// Later answers and wrong guesses narrow what is kept, in place.
	for _, h := range heard {
		n := keepAnswering(sets[start:], ids[start:], sets[start:], ids[start:], t.byVariant[h.v], h.code)
		sets, ids = sets[:start+n], ids[:start+n]
	}
	if len(wrong) > 0 {
		n := start
		for i := start; i < len(ids); i++ {
			if id := ids[i]; !slices.Contains(wrong, id) {
				sets[n], ids[n] = sets[i], id
				n++
			}
		}
		sets, ids = sets[:n], ids[:n]
	}
	return sets, ids
}

// keepAnswering writes into outSets and outIDs (room for every member;
// they may be sets and ids themselves, as a member is written only where
// one was read) the members of sets, whose hand ids ids holds, that give
// code to the question whose answers col holds by hand id, in order, and
// returns how many. Kept out of line, so that its loop has the registers
// to itself (inside fitting every value it read was reloaded from the
// stack each time).
//
//go:noinline
func keepAnswering(outSets []uint32, outIDs []int32, sets []uint32, ids []int32, col []uint8, code uint8) int {
	sets, outSets, outIDs = sets[:len(ids)], outSets[:len(ids)], outIDs[:len(ids)]
	n := 0
	for i, id := range ids {
		if col[id] == code {
			outSets[n], outIDs[n] = sets[i], id
			n++
		}
	}
	return n
}

// localID returns the hand id of a local set of handSize tiles (see
// handTable.localID).
func (k *knowledge) localID(local uint32) int32 { return k.table.localID(k.pool, local) }

// localID returns the hand id of local, a set of indices into pool (the
// physical index of each unseen tile, ascending): the table's colex
// lookup, reading the pool's physical indices in order.
func (t *handTable) localID(pool []int, local uint32) int32 {
	r := int32(0)
	for i := 0; local != 0; i++ {
		r += t.binom[i][pool[bits.TrailingZeros32(local)]]
		local &= local - 1
	}
	return t.byColex[r]
}

// appendPoolHands appends to sets every local set of the table's size
// over pool (the physical index of each unseen tile, ascending), in
// increasing order as local sets are plain bit patterns (the order of
// forSubsets and Gosper's hack), and to ids its hand id, as localID gives
// it. A bot's decision and a seat's aid start from every hand of the pool
// (3,003 or 1,820 of them).
//
// A set's colex rank among physical sets is the sum of what each of its
// tiles adds at its place (handTable.binom), and increasing order is
// colexicographic order of the tiles' places: the highest tile moves
// slowest. So the placings of all tiles but the two highest are listed
// once, with their bits and shares (455 of them for hands of 5 from 15
// tiles); then for each placing of the two highest, the ones below them
// (the first binom(lower, h-2) of that list) each give a set with one OR
// and one add, where working every set's rank out anew took a few
// lookups and a popcount.
func (t *handTable) appendPoolHands(pool []int, sets []uint32, ids []int32) ([]uint32, []int32) {
	h, n := t.size, len(pool) // hands are of 4 or 5 tiles
	if h > n {
		return sets, ids
	}
	// share[i][c] is what the tile at pool[c] adds as a set's (i+1)-th lowest.
	var share [5][tileCount]int32
	for i := range h {
		for c, p := range pool {
			share[i][c] = t.binom[i][p]
		}
	}
	// Every placing of the lowest q tiles, in colexicographic order, built
	// up a tile at a time: the placings of l tiles are, for each place of
	// the highest in turn, the placings of l-1 tiles below it (the first
	// binom(place, l-1) of the level before) with it added. The levels lie
	// one after another in lowBits and lowRank.
	q := h - 2
	var lowBits [1 + tileCount + 190 + 1140]uint32 // binom(20, 0…3): q is at most 3
	var lowRank [len(lowBits)]int32
	prev, end := 0, 1 // the level before (the empty placing) and where the next begins
	for l := 1; l <= q; l++ {
		start := end
		for top := l - 1; top < n; top++ {
			add, r := uint32(1)<<(top&31), share[l-1][top]
			below := binom(top, l-1)
			for k := prev; k < prev+below; k++ {
				lowBits[end], lowRank[end] = lowBits[k]|add, lowRank[k]+r
				end++
			}
		}
		prev = start
	}
	lowBitsQ, lowRankQ := lowBits[prev:end], lowRank[prev:end]
	at := len(sets)
	sets = slices.Grow(sets, binom(n, h))[:at+binom(n, h)]
	ids = slices.Grow(ids, binom(n, h))[:len(sets)]
	byColex := t.byColex
	for hi := q + 1; hi < n; hi++ {
		for lo := q; lo < hi; lo++ {
			up := uint32(1)<<(lo&31) | 1<<(hi&31)
			rank := share[q][lo] + share[q+1][hi]
			below := binom(lo, q) // the placings of the lowest tiles under lo
			placeHands(sets[at:at+below], ids[at:at+below], lowBitsQ[:below], lowRankQ[:below], up, rank, byColex)
			at += below
		}
	}
	return sets, ids
}

// placeHands writes appendPoolHands' sets for one placing of the two
// highest tiles (their bits up, their share of the rank rank): each
// placing of the lowest tiles (lows, their shares lowRanks) with them,
// and its hand id. A function of its own, kept out of line, so that its
// loop has the registers to itself (inside appendPoolHands, beside its
// tables, every value it reads was reloaded from the stack each time),
// and every slice is cut to one length so that only the rank's index is
// checked.
//
//go:noinline
func placeHands(sets []uint32, ids []int32, lows []uint32, lowRanks []int32, up uint32, rank int32, byColex []int32) {
	lowRanks, sets, ids = lowRanks[:len(lows)], sets[:len(lows)], ids[:len(lows)]
	for j, low := range lows {
		sets[j] = low | up
		ids[j] = byColex[rank+lowRanks[j]]
	}
}

// forSubsets calls fn for every subset of set with exactly size bits, in a
// fixed order.
func forSubsets(set uint32, size int, fn func(uint32)) {
	var pos [32]uint8
	m := 0
	for s := set; s != 0; s &= s - 1 {
		pos[m] = uint8(bits.TrailingZeros32(s))
		m++
	}
	if size > m {
		return
	}
	if size == 0 {
		fn(0)
		return
	}
	limit := uint32(1) << m
	for c := uint32(1)<<size - 1; c < limit; {
		var out uint32
		for x := c; x != 0; x &= x - 1 {
			out |= 1 << pos[bits.TrailingZeros32(x)]
		}
		fn(out)
		// Gosper's hack: the next integer with the same number of bits.
		r := c + c&-c
		c = (r^c)>>(2+bits.TrailingZeros32(c)) | r
	}
}

// belief is a weighting of joint deals reduced to what the bot and the aid use.
type belief struct {
	// opp[j][i] is the weight of opponent opps[j] holding local set
	// ok[j][i] (lists the length of ok, not tables over every set: a
	// decision would otherwise clear up to 1.5 MB).
	opp [][]float64
	// target weighs each possible hand id of the thing to guess (the
	// opponent's hand with 2 players, the centre otherwise).
	target targets
}

// targets holds a weight for each hand id, most of them zero. It is an
// array over every id rather than a map: a decision weighs a few thousand
// centres, and a map that size cost more to build and read than to clear
// the array (lent by the decision's scratch) and list the ids weighed.
type targets struct {
	weight []float64 // by hand id
	ids    []int32   // the ids with a weight, in the order first weighed
}

// newTargets returns targets over ids hand ids, lent by buf (nil: allocated).
func newTargets(buf *scratch, ids int) targets {
	t := targets{weight: zeroF64(buf, ids)}
	if buf != nil {
		t.ids = dirtyI32(buf, ids)[:0]
	}
	return t
}

// add adds w (above zero) to the weight of id.
func (t *targets) add(id int32, w float64) {
	if t.weight[id] == 0 {
		t.ids = append(t.ids, id)
	}
	t.weight[id] += w
}

// len is how many ids have a weight.
func (t *targets) len() int { return len(t.ids) }

// at returns the weight of id (0 for none).
func (t *targets) at(id int32) float64 {
	if id < 0 || int(id) >= len(t.weight) {
		return 0
	}
	return t.weight[id]
}

// aidCounts is the aid: distinct hands still possible per seat and for the
// centre, and those hands themselves (physical tile sets) where there are
// at most ListedMax.
type aidCounts struct {
	hands      []int // per seat; 0 for the viewer
	centre     int
	handSets   [][]uint32 // per seat; nil for the viewer and where more are possible
	centreSets []uint32   // nil once the centre is seen or where more are possible
	// marks[seat][i] is the physical tiles (a green 5 as tile 10) the seat
	// may show at position i of its sorted hand; centreMarks likewise for
	// the centre (nil once it is seen). The pencil marks of the notepad.
	marks       [][]uint32
	centreMarks []uint32
}

// counts computes the aid numbers.
func (k *knowledge) counts() aidCounts { return k.countsFrom(k.belief()) }

// countsFrom reduces a belief to the aid numbers.
func (k *knowledge) countsFrom(b belief) aidCounts {
	c := aidCounts{hands: make([]int, k.n)}
	// Distinct hand ids, marked in a bitset over every id (two sets that
	// differ by which green 5 they hold are one id), unmarked after each
	// opponent: a map per opponent cost more than the review's counting.
	seen := zeroU64(k.buf, (len(k.table.masks)+63)/64)
	for j, seat := range k.opps {
		n := 0
		for i, m := range k.ok[j] {
			if b.opp[j][i] > 0 {
				id := k.handID[m]
				if w, bit := id>>6, uint64(1)<<(id&63); seen[w]&bit == 0 {
					seen[w] |= bit
					n++
				}
			}
		}
		for _, m := range k.ok[j] {
			id := k.handID[m]
			seen[id>>6] &^= 1 << (id & 63)
		}
		c.hands[seat] = n
	}
	if k.n > 2 {
		c.centre = b.target.len()
	}
	return c
}

// belief weighs every deal of the unseen tiles consistent with what is known.
// 2 players: the opponent's hand alone. 3 players: every (A, B, centre) deal,
// counted exactly (pairs3 or marginals3, whichever is cheaper). 4 players:
// exact marginals per opponent and for the centre by counting over subsets
// (see marginals4). All weights are whole numbers of deals.
func (k *knowledge) belief() belief {
	b := belief{target: newTargets(k.buf, len(k.table.masks))}
	for j := range k.opps {
		b.opp = append(b.opp, zeroF64(k.buf, len(k.ok[j])))
	}
	switch k.n {
	case 2:
		for i, m := range k.ok[0] {
			b.opp[0][i] = 1
			b.target.add(k.handID[m], 1)
		}
	case 3:
		if k.centreKnown < 0 {
			if len(k.ok[0])*len(k.ok[1]) < smallJoint3 {
				k.pairs3(&b)
			} else {
				k.marginals3(&b)
			}
			break
		}
		size := 1 << len(k.pool)
		oppA, oppB, centre := make([]float64, size), make([]float64, size), make([]float64, size)
		k.forJoint3(func(a, bb uint32) {
			oppA[a]++
			oppB[bb]++
			centre[k.full&^a&^bb]++
		})
		for j, opp := range [][]float64{oppA, oppB} {
			for i, m := range k.ok[j] {
				b.opp[j][i] = opp[m]
			}
		}
		forSubsets(k.full, k.handSize, func(c uint32) {
			if w := centre[c]; w > 0 {
				b.target.add(k.handID[c], w)
			}
		})
	default:
		k.marginals4(&b, smallJoint4)
	}
	return b
}

// smallJoint3 is the number of (A, B) pairs of possible hands below which
// testing every pair (pairs3) costs less than marginals3's transforms over
// every set of the 15 unseen tiles.
const smallJoint3 = 100_000

// pairs3 is the 3-player belief, centre unseen, from every pair of A's
// and B's possible sets that do not overlap: each is one deal. B's sets
// beside each of A's are found a word of 64 at a time (see setsWithout).
func (k *knowledge) pairs3(b *belief) {
	centre := zeroU32(k.buf, 1<<len(k.pool))
	okB := k.ok[1]
	without := newSetsWithout(k.buf, okB, len(k.pool))
	beside := dirtyU64(k.buf, without.words)
	for i, a := range k.ok[0] {
		n := 0
		for w, x := range without.disjoint(a, beside) {
			n += bits.OnesCount64(x)
			for ; x != 0; x &= x - 1 {
				j := w*64 + bits.TrailingZeros64(x)
				b.opp[1][j]++
				centre[k.full&^a&^okB[j]]++
			}
		}
		b.opp[0][i] = float64(n)
	}
	k.addTargetsAt(b, centre)
}

// setsWithout holds, for a list of local sets, one bitset over the list's
// places for each tile of the pool: bit j of row t is set when list[j]
// lacks tile t. The members that do not overlap a set a are the AND of
// the rows of a's tiles, a word for 64 members at a time, where testing
// every member against a took a step each, and nearly all fail: one pair
// of 5-tile hands from 15 tiles in twelve is disjoint.
type setsWithout struct {
	words int      // a row's length: a bit for each member
	rows  []uint64 // row t is rows[t*words : (t+1)*words]
}

// newSetsWithout makes the rows for list over a pool of tiles tiles, lent
// by buf.
func newSetsWithout(buf *scratch, list []uint32, tiles int) setsWithout {
	words := (len(list) + 63) / 64
	s := setsWithout{words: words, rows: dirtyU64(buf, tiles*words)}
	for t := range tiles {
		row := s.rows[t*words : (t+1)*words]
		for w := range row {
			row[w] = ^uint64(0)
		}
		if r := len(list) % 64; r != 0 {
			row[words-1] = 1<<r - 1 // no member beyond the list
		}
	}
	for j, m := range list {
		for ; m != 0; m &= m - 1 {
			s.rows[bits.TrailingZeros32(m)*words+j/64] &^= 1 << (j % 64)
		}
	}
	return s
}

// disjoint writes into out (at least words long) the bitset of the
// members that share no tile with a (not empty) and returns it.
func (s setsWithout) disjoint(a uint32, out []uint64) []uint64 {
	out = out[:s.words]
	t := bits.TrailingZeros32(a)
	copy(out, s.rows[t*s.words:(t+1)*s.words])
	for a &= a - 1; a != 0; a &= a - 1 {
		t := bits.TrailingZeros32(a)
		row := s.rows[t*s.words : (t+1)*s.words]
		row = row[:len(out)]
		for w := range out {
			out[w] &= row[w]
		}
	}
	return out
}

// deals3 lists every 3-player deal consistent with the answers, as
// forJoint3 visits them, each as the places of its two sets in their
// lists (A's in the high 16 bits, B's in the low: a list holds at most
// 3,003 sets); b must be the belief, whose weights say how many there
// are. The list is lent by the decision's scratch.
func (k *knowledge) deals3(b belief) []uint32 {
	total := 0.0
	for _, w := range b.opp[0] {
		total += w
	}
	deals := dirtyU32(k.buf, int(total))[:0]
	okA, okB := k.ok[0], k.ok[1]
	if k.centreKnown >= 0 {
		// Few deals (A's set fixes B's): visited one by one, and each
		// set's place looked up.
		placeA, placeB := dirtyI32(k.buf, int(k.full)+1), dirtyI32(k.buf, int(k.full)+1) // read only at members
		for j, m := range okA {
			placeA[m] = int32(j)
		}
		for j, m := range okB {
			placeB[m] = int32(j)
		}
		k.forJoint3(func(a, bb uint32) {
			deals = append(deals, uint32(placeA[a])<<16|uint32(placeB[bb]))
		})
		return deals
	}
	without := newSetsWithout(k.buf, okB, len(k.pool))
	beside := dirtyU64(k.buf, without.words)
	for ja, a := range okA {
		for w, x := range without.disjoint(a, beside) {
			for ; x != 0; x &= x - 1 {
				deals = append(deals, uint32(ja)<<16|uint32(w*64+bits.TrailingZeros64(x)))
			}
		}
	}
	return deals
}

// addTargets adds weight(c) to b.target for every local set c of a
// hand's size whose weight is not zero.
func (k *knowledge) addTargets(b *belief, weight func(c uint32) uint32) {
	for i, c := range k.all {
		if w := weight(c); w > 0 {
			b.target.add(k.allIDs[i], float64(w))
		}
	}
}

// addTargetsBeside is addTargets with weight(c) = narrowAt(f, full&^c),
// the count in f (four 16-bit lanes a word) of the tiles c leaves: the
// 3-player belief's case, written out rather than called through a
// function value for each of the 3,003 sets.
func (k *knowledge) addTargetsBeside(b *belief, f []uint64) {
	full := k.full
	for i, c := range k.all {
		if w := narrowAt(f, full&^c); w > 0 {
			b.target.add(k.allIDs[i], float64(w))
		}
	}
}

// addTargetsAt is addTargets with weight(c) = table[c].
func (k *knowledge) addTargetsAt(b *belief, table []uint32) {
	for i, c := range k.all {
		if w := table[c]; w > 0 {
			b.target.add(k.allIDs[i], float64(w))
		}
	}
}

// marginals3 is the 3-player belief counted with subset transforms; it
// gives the same numbers as enumerating every (A, B, centre) deal with
// forJoint3, in a fraction of the time.
func (k *knowledge) marginals3(b *belief) {
	if free := k.freeOpponent(); free >= 0 {
		k.marginals3Free(b, free)
		return
	}
	k.marginals3Both(b)
}

// marginals3Both is marginals3 by transforms of both opponents' lists,
// kept in four 16-bit lanes a word throughout (see pairCounts).
func (k *knowledge) marginals3Both(b *belief) {
	zA := k.zetaNarrow(k.ok[0])
	zB := zA
	if !slices.Equal(k.ok[0], k.ok[1]) { // equal at the start of a game: once
		zB = k.zetaNarrow(k.ok[1])
	}
	// A's weight: B's consistent sets among the tiles A leaves (the centre takes the rest).
	for i, a := range k.ok[0] {
		b.opp[0][i] = float64(narrowAt(zB, k.full&^a))
	}
	for i, m := range k.ok[1] {
		b.opp[1][i] = float64(narrowAt(zA, k.full&^m))
	}
	pairs := pairCounts(k.buf, zA, zB)
	k.addTargetsBeside(b, pairs)
}

// pairCounts returns, for every set S, how many pairs of a set a of A's
// list and a set b of B's have a ∪ b = S (on the sets of twice a hand's
// size, the disjoint pairs: the deals leaving the centre the rest),
// given the zeta transforms of the two lists in four 16-bit lanes a word
// (zetaNarrow); the counts come in the same lanes.
//
// The lanes need no widening to 32 bits, as orConv's do: every count is
// small — a and b of h tiles each make up S in C(|S|,h)·C(h,2h-|S|) ways
// at most, 630 for hands of 5 — and the transform is worked out on whole
// words, exactly modulo 2^64, so lanes may carry into and borrow from each
// other on the way and still end as their counts, the last word being the
// counts' own. The products are up to 3,003² and the first two tiles'
// Möbius steps (the lanes) are taken on them as whole numbers before
// packing; the other tiles index words (subWords), half as many as two
// lanes a word would need.
func pairCounts(buf *scratch, za, zb []uint64) []uint64 {
	g := dirtyU64(buf, len(za)) // every word written below
	for w := range g {
		x, y := za[w], zb[w]
		p0 := (x & 0xffff) * (y & 0xffff)
		p1 := (x >> 16 & 0xffff) * (y >> 16 & 0xffff)
		p2 := (x >> 32 & 0xffff) * (y >> 32 & 0xffff)
		p3 := (x >> 48) * (y >> 48)
		g[w] = p0 + (p1-p0)<<16 + (p2-p0)<<32 + (p3-p2-p1+p0)<<48
	}
	subWords(g)
	return g
}

// marginals3Free is marginals3 when opponent free (0 or 1) has answered
// nothing, so that it may hold any set of the tiles the other leaves, and
// the centre takes the rest: one transform does, instead of two and a
// convolution. The free opponent holds a in as many deals as the other's
// sets fit in what a leaves; the other holds m in as many as there are
// hands among the tiles m leaves (C(|pool|-h, h), the centre then being
// fixed); and the centre is c in as many deals as the other's sets fit in
// what c leaves (the free one takes the rest). The numbers are the ones
// the transforms give.
//
// When the other has answered nothing too (the first question of a
// game), every count is the number of hands among the tiles a hand
// leaves, and no transform is needed.
func (k *knowledge) marginals3Free(b *belief, free int) {
	other := 1 - free
	beside := float64(binom(len(k.pool)-k.handSize, k.handSize))
	if len(k.ok[other]) == len(k.all) {
		for j := range 2 {
			for i := range k.ok[j] {
				b.opp[j][i] = beside
			}
		}
		for _, id := range k.allIDs {
			b.target.add(id, beside)
		}
		return
	}
	z := k.zetaNarrow(k.ok[other])
	for i, a := range k.ok[free] {
		b.opp[free][i] = float64(narrowAt(z, k.full&^a))
	}
	for i := range k.ok[other] {
		b.opp[other][i] = beside
	}
	k.addTargetsBeside(b, z)
}

// forJoint3 visits every 3-player deal (opponent A's set, opponent B's set;
// the centre is the rest) consistent with the answers, driving the loop from
// whichever side is cheaper.
func (k *knowledge) forJoint3(fn func(a, b uint32)) {
	okA, okB := k.ok[0], k.ok[1]
	if k.centreKnown >= 0 {
		// The centre is one of at most two local sets (there are two green
		// 5s): A's set fixes B's.
		forSubsets(k.full, k.handSize, func(c uint32) {
			if k.handID[c] != k.centreKnown {
				return
			}
			rest := k.full &^ c
			for _, a := range okA {
				if a&c == 0 && k.okSet[1][rest&^a] {
					fn(a, rest&^a)
				}
			}
		})
		return
	}
	restSize := len(k.pool) - k.handSize
	perA := binom(restSize, k.handSize)
	if len(okA)*len(okB) <= len(okA)*perA {
		for _, a := range okA {
			for _, b := range okB {
				if a&b == 0 && k.centreFits(a|b) {
					fn(a, b)
				}
			}
		}
		return
	}
	setB := k.okSet[1]
	for _, a := range okA {
		forSubsets(k.full&^a, k.handSize, func(b uint32) {
			if setB[b] && k.centreFits(a|b) {
				fn(a, b)
			}
		})
	}
}

// centreFits checks the centre (the tiles outside taken) against a centre
// the seat has seen.
func (k *knowledge) centreFits(taken uint32) bool {
	return k.centreKnown < 0 || k.handID[k.full&^taken] == k.centreKnown
}

func binom(n, r int) int {
	if r < 0 || r > n {
		return 0
	}
	c := 1
	for i := 1; i <= r; i++ {
		c = c * (n - r + i) / i
	}
	return c
}

// marginals4 is the 4-player belief. The joint of three opponents and the
// centre (up to 63,063,000 deals) is too large to enumerate per move, so it
// is factored: for each opponent, the exact number of joint deals in which
// they hold a given set is counted with subset transforms (zeta/Möbius over
// the 16 unseen tiles; a union of a 4-tile and an 8-tile set that has 12
// tiles is a disjoint union), and likewise for the centre. The bot's
// question score then treats the three answers as independent: the sum of
// each answer's entropy under its exact marginal (see questionInfo).
//
// Below small pairs of possible sets (see smallJoint4), a count is added
// up directly from one zeta transform instead of another transform.
func (k *knowledge) marginals4(b *belief, small int) {
	h := k.handSize
	z := k.zetasOf(k.ok)
	// Opponent j holds m in as many deals as the other two opponents can
	// split two hands' worth of the rest. Counting x's sets inside the
	// 8-tile sets within S gives z[x](S)·C(|S|-h, h) (each of x's sets in S
	// lies in that many of them), so no transform is needed for that side.
	spread := make([]uint64, len(k.pool)+2)
	for r := range spread {
		spread[r] = uint64(binom(r-h, h))
	}
	var outers [3]subsetCounts
	for j := range k.opps {
		y, x := (j+1)%3, (j+2)%3
		// The count is symmetric in the two others: reuse it when an earlier
		// opponent had the same two (as at the start, when no one has answered).
		for i := range j {
			yi, xi := (i+1)%3, (i+2)%3
			if (z[y].same(z[yi]) && z[x].same(z[xi])) || (z[y].same(z[xi]) && z[x].same(z[yi])) {
				outers[j] = outers[i]
				break
			}
		}
		if len(k.ok[y]) > len(k.ok[x]) {
			x, y = y, x // y is the shorter list
		}
		if outers[j] == nil && len(k.ok[j])*len(k.ok[y]) < small {
			// Few hands left: for each of j's sets, y's sets beside it, and
			// x's sets inside what remains.
			for i, m := range k.ok[j] {
				w := uint32(0)
				for _, yy := range k.ok[y] {
					if yy&m == 0 {
						w += z[x].at(k.full &^ m &^ yy)
					}
				}
				b.opp[j][i] = float64(w)
			}
			continue
		}
		if outers[j] == nil {
			// At most 1,820 · 1,820 · 495 < 2^32 per set.
			g := subsetCounts(dirtyU64(k.buf, len(z[x]))) // every word written
			for w := range g {
				r := bits.OnesCount(uint(w)) // tiles of set 2w; set 2w+1 has one more
				a, b := z[y][w], z[x][w]
				lo := (a & lowLane) * (b & lowLane) * spread[r]
				hi := (a >> 32) * (b >> 32) * spread[r+1]
				g[w] = lo | hi<<32
			}
			g.mobius()
			outers[j] = g
		}
		for i, m := range k.ok[j] {
			b.opp[j][i] = float64(outers[j].at(k.full &^ m))
		}
	}
	if free := k.freeOpponent(); free >= 0 {
		// An opponent who has answered nothing may hold any set, just like
		// the centre: either holds a set in as many deals as the other two
		// opponents can split the rest (the last hand being what remains),
		// so the centre's weights are that opponent's.
		for i, m := range k.ok[free] {
			if w := b.opp[free][i]; w > 0 {
				b.target.add(k.handID[m], w)
			}
		}
	} else {
		k.centre4(b, z, small)
	}
	if k.centreKnown >= 0 {
		b.target = newTargets(k.buf, len(k.table.masks))
		b.target.add(k.centreKnown, 1)
	}
}

// freeOpponent returns an opponent (index into opps) who may still hold
// any set of the unseen tiles, or -1.
func (k *knowledge) freeOpponent() int {
	for j, list := range k.ok {
		if len(list) == binom(len(k.pool), k.handSize) {
			return j
		}
	}
	return -1
}

// centre4 adds the centre's weights to b.target (4 players), given the
// zeta transforms z of the opponents' lists.
func (k *knowledge) centre4(b *belief, z []subsetCounts, small int) {
	h := k.handSize
	// Two opponents split a 2-hand set exactly; the third (r, the one with
	// fewest possible sets) takes a hand beside them.
	r := 0
	for j := range k.ok {
		if len(k.ok[j]) < len(k.ok[r]) {
			r = j
		}
	}
	pairs := orConvIn(k.buf, z[(r+1)%3], z[(r+2)%3])
	if len(k.ok[r])*binom(len(k.pool), h) < small {
		// Few hands left for r: add up its sets beside each centre.
		forSubsets(k.full, h, func(c uint32) {
			w := uint32(0)
			for _, a := range k.ok[r] {
				if a&c == 0 {
					w += pairs.at(k.full &^ c &^ a)
				}
			}
			if w > 0 {
				b.target.add(k.handID[c], float64(w))
			}
		})
		return
	}
	triples := orConvIn(k.buf, z[r], pairs.rankZeta(2*h))
	k.addTargets(b, func(c uint32) uint32 { return triples.at(k.full &^ c) })
}

// smallJoint4 is the number of pairs of sets below which marginals4 adds
// up lookups in a zeta transform instead of running one more transform
// over every set of the 16 unseen tiles.
const smallJoint4 = 200_000

// zetasOf returns zetaOf of each list, computing it once for lists that
// are equal (all of them, before anyone has answered); equal lists share
// one slice, which callers only read.
func (k *knowledge) zetasOf(lists [][]uint32) []subsetCounts {
	out := make([]subsetCounts, len(lists))
	for j, list := range lists {
		for i := range j {
			if slices.Equal(list, lists[i]) {
				out[j] = out[i]
				break
			}
		}
		if out[j] == nil {
			out[j] = k.zetaOf(list)
		}
	}
	return out
}

// subsetCounts holds a count for every local set in two 32-bit lanes a
// word: set m in word m/2, the low lane for even m. One 64-bit add or
// subtract then does two sets' work, halving the subset transforms.
//
// A lane never carries into or borrows from its neighbour because every
// count here stays within 0 and 2^32-1 at every step: each transform's
// input is a zeta transform of nonnegative counts whose largest value is
// below 2^32 (bounds at each use), so each step of zeta is a partial sum
// of the final value, and each step of Möbius a partial sum of nonnegative
// counts that ends at the final one.
type subsetCounts []uint64

const lowLane = 1<<32 - 1

// at returns the count of set m.
func (f subsetCounts) at(m uint32) uint32 { return uint32(f[m>>1] >> (32 * (m & 1))) }

// same reports whether f and g are the very same slice.
func (f subsetCounts) same(g subsetCounts) bool {
	return len(f) == len(g) && (len(f) == 0 || &f[0] == &g[0])
}

// zetaOf returns the zeta transform of the indicator of list: for every
// set S, how many sets of list lie inside S. Those counts (at most 3,003)
// fit 16 bits, so the transform runs on four 16-bit lanes a word (set m in
// word m/4, lane m%4), twice as fast again, before widening to two lanes.
func (k *knowledge) zetaOf(list []uint32) subsetCounts {
	narrow := k.zetaNarrow(list)
	// Every word of f is written below.
	f := subsetCounts(dirtyU64(k.buf, max(1, 1<<len(k.pool)/2)))
	for w := range f {
		x := narrow[w>>1] >> (32 * (w & 1)) // sets 2w and 2w+1
		f[w] = x&0xffff | (x>>16&0xffff)<<32
	}
	return f
}

// zetaNarrow is the zeta transform of list's indicator in four 16-bit
// lanes a word, set m in lane m%4 of word m/4 (see narrowAt): the counts,
// at most 3,003, fit.
func (k *knowledge) zetaNarrow(list []uint32) []uint64 {
	narrow := zeroU64(k.buf, max(1, 1<<len(k.pool)/4))
	for _, m := range list {
		narrow[m>>2] |= 1 << (16 * (m & 3))
	}
	for w, x := range narrow {
		x += (x & 0x0000ffff0000ffff) << 16 // tile 0: lanes 1 and 3 take 0 and 2
		x += x << 32                        // tile 1: lanes 2 and 3 take 0 and 1
		narrow[w] = x
	}
	addWords(narrow) // tiles 2 and up: the bits of the word index
	return narrow
}

// narrowAt returns the count of set m in a table of four 16-bit lanes a word.
func narrowAt(f []uint64, m uint32) uint32 { return uint32(f[m>>2]>>(16*(m&3))) & 0xffff }

// orConv returns, for every set S, the sum over A ∪ B = S of fa(A)·fb(B),
// given the zeta transforms of fa and fb; each product must stay below
// 2^32. On sets whose size is the sum of the two parts' sizes, A and B are
// disjoint.
func orConv(za, zb subsetCounts) subsetCounts { return orConvIn(nil, za, zb) }

// orConvIn is orConv with its result lent by buf.
func orConvIn(buf *scratch, za, zb subsetCounts) subsetCounts {
	g := subsetCounts(dirtyU64(buf, len(za))) // every word written
	for w := range g {
		a, b := za[w], zb[w]
		g[w] = (a&lowLane)*(b&lowLane) | (a>>32)*(b>>32)<<32
	}
	g.mobius()
	return g
}

// rankZeta keeps f on sets of exactly r tiles and returns the zeta
// transform of that.
func (f subsetCounts) rankZeta(r int) subsetCounts {
	g := make(subsetCounts, len(f))
	for w := range g {
		switch bits.OnesCount(uint(w)) { // set 2w; set 2w+1 has one tile more
		case r:
			g[w] = f[w] & lowLane
		case r - 1:
			g[w] = f[w] &^ lowLane
		}
	}
	g.zeta()
	return g
}

// zeta replaces f by its sum over subsets: f(S) = Σ_{T ⊆ S} f(T).
func (f subsetCounts) zeta() {
	for w := range f {
		f[w] += (f[w] & lowLane) << 32 // tile 0: odd sets take the even ones
	}
	addWords(f) // tile i+1 is bit i of the word index
}

// mobius inverts zeta.
func (f subsetCounts) mobius() {
	for w := range f {
		f[w] -= (f[w] & lowLane) << 32
	}
	subWords(f) // tile i+1 is bit i of the word index
}

// entropy returns the Shannon entropy in bits of a weighted distribution.
func entropy(weights []float64) float64 {
	total := 0.0
	for _, w := range weights {
		total += w
	}
	if total <= 0 {
		return 0
	}
	h := 0.0
	for _, w := range weights {
		if w > 0 {
			p := w / total
			h -= p * math.Log2(p)
		}
	}
	return h
}

// questionInfo is the expected information, in bits, of asking variant v
// given belief b: the entropy of the answers the seat would hear. 2 and 3
// players: exact (3 players over the joint of both answers, see
// jointAnswers3); 4 players: the sum of the three answers' entropies under
// their marginals.
func (k *knowledge) questionInfo(b belief, vs []int) []float64 { return k.questionInfos(b, vs, false) }

// questionInfos is questionInfo; with prune set, a question that cannot
// change the strong bot's choice may be left out, its entry -Inf (see
// bestQuestion).
func (k *knowledge) questionInfos(b belief, vs []int, prune bool) []float64 {
	out := make([]float64, len(vs))
	switch k.n {
	case 3:
		for i, hist := range k.jointAnswers3(b, vs, prune) {
			if prune && hist == nil {
				out[i] = math.Inf(-1) // left out: see bestQuestion
				continue
			}
			out[i] = entropy(hist)
		}
	default:
		// One pass over each opponent's hands for all questions; the weights
		// are whole numbers, so the sums do not depend on the order.
		dist := make([][64]float64, len(vs))
		for j := range k.opps {
			clear(dist)
			for idx, m := range k.ok[j] {
				w := b.opp[j][idx]
				if w <= 0 {
					continue
				}
				ans := &k.table.answers[k.handID[m]]
				for i, v := range vs {
					dist[i][ans[v]] += w
				}
			}
			for i := range vs {
				out[i] += entropy(dist[i][:])
			}
		}
	}
	return out
}

// bestQuestion returns the index in vs of the question the strong bot
// asks: going through vs in order, a question replaces the one chosen so
// far when it carries more than 1e-9 bits more.
//
// With 3 players, what a question carries (the entropy of the pair of
// answers) is at most the sum of each answer's own entropy, which costs
// next to nothing to reckon; questions whose sums fall well below what
// another question was found to carry are not counted in full (see
// pruneGap), and that leaves the choice as it was.
func (k *knowledge) bestQuestion(b belief, vs []int) int {
	info := k.questionInfos(b, vs, true)
	best := 0
	for i := range info {
		if info[i] > info[best]+1e-9 {
			best = i
		}
	}
	return best
}

// pruneGap is how far below the most a question of n carries another's
// bound must fall for bestQuestion to leave that one out (as -Inf).
//
// Why the choice stays the same: let M be the most any of the n questions
// carries, ε = 1e-9, and leave out only questions carrying less than
// L = M - 2(n+1)ε. Cut [L, M) into n+1 slices 2ε wide: the n questions
// cannot fill them all, so one, [g, g+2ε), holds none. Going through vs,
// take the first question h carrying at least g+2ε (one carrying M does).
// Before h, every question, left out or not, carries less than g, so
// whatever was chosen then, with or without the ones left out, h carries
// more than 1e-9 bits more and is chosen in both. From h on the two
// choices run alike: the ones left out carry less than L < g, never more
// than what is chosen by then. The bounds and figures are sums of a few
// thousand rounded terms, off by far less than the extra ε added here.
func pruneGap(n int) float64 { return float64(2*(n+1)+1) * 1e-9 }

// jointAnswers3 returns, for each variant vs[i], how many 3-player deals
// give each pair of answers (A's answer x, B's answer y), in the order of
// x*64+y; pairs no deal gives may be left out. The counts are whole
// numbers, so however they are summed the entropy of each histogram comes
// out bit for bit the same.
//
// Enumerating the deals (756,756 at the start) is what a strong bot's move
// used to cost. Instead, while the centre is unseen, the deals are counted
// by inclusion–exclusion over the tiles A and B would share: A's set a and
// B's set b are disjoint exactly when Σ_{S ⊆ a∩b} (-1)^|S| is 1 (else it is
// 0), so the number of disjoint pairs answering (x, y) is
//
//	Σ_S (-1)^|S| · #{a answering x, S ⊆ a} · #{b answering y, S ⊆ b}
//
// over the sets S of at most a hand's size: about 32 subsets per hand on
// each side instead of every pair of hands.
//
// With prune set, a question may be left out (nil) when it cannot change
// the strong bot's choice: see bestQuestion.
func (k *knowledge) jointAnswers3(b belief, vs []int, prune bool) [][]float64 {
	if k.centreKnown >= 0 {
		return k.enumeratedAnswers3(b, vs, prune) // few deals are left: the centre is fixed
	}
	// Once answers have thinned the opponents' hands, visiting the deals is
	// cheaper than the fixed costs of counting by subsets. Estimated
	// times, in tenths of a nanosecond, measured on the first six moves of
	// seeded games; either way gives the same counts.
	na, nb := len(k.ok[0]), len(k.ok[1])
	perA := binom(len(k.pool)-k.handSize, k.handSize)
	enumCost := 180 * na * perA // a subset walk per set of A (see forJoint3)
	if na*nb <= na*perA {
		enumCost = 20 * na * nb // a bitwise test per pair, most of them failing
	}
	subsetCost := 2_500_000 + 6*len(vs)*(2*(1<<k.handSize)*(na+nb)+2*binom(len(k.pool), k.handSize))
	if enumCost < subsetCost {
		return k.enumeratedAnswers3(b, vs, prune)
	}
	return k.subsetAnswers3(b, vs, prune)
}

// enumeratedAnswers3 is jointAnswers3 by visiting every deal; b must be
// the belief (its weights bound what each question carries when
// pruning). Like subsetAnswers3 it numbers each question's answers
// densely (in order) and returns only the nonzero counts.
//
// With prune set, questions are counted one at a time, the one whose
// answers' own entropies add up to the most first, and a question whose
// sum falls more than pruneGap below the most information counted so far
// is left out (nil), as subsetAnswers3 does: see bestQuestion. Either
// way the deals are listed once (deals3) and counted from the list.
func (k *knowledge) enumeratedAnswers3(b belief, vs []int, prune bool) [][]float64 {
	bound, codes := k.answerStats(b, vs)
	index := make([][64]uint8, len(vs))
	counts := make([][]uint32, len(vs))
	cells := 0
	for _, c := range codes {
		cells += len(c) * len(c)
	}
	table := zeroU32(k.buf, cells)   // every question's counts, lent by the decision
	base := dirtyI32(k.buf, len(vs)) // where each question's counts start in table (every entry written)
	at := 0
	for i, c := range codes {
		for x, code := range c {
			index[i][code] = uint8(x)
		}
		base[i] = int32(at)
		counts[i] = table[at : at+len(c)*len(c)]
		at += len(c) * len(c)
	}
	nq := len(vs)
	deals := k.deals3(b)
	if !prune {
		// Each set's numbered answers to all the questions, side by side:
		// a deal then reads two short rows instead of two rows of the
		// answer table and an index per question. Side A's row holds the
		// cell offset into table itself (question's base plus its answer
		// times the width), so a deal adds side B's answer and counts: one
		// add and one increment a question, no per-question slice.
		rowsA := dirtyU32(k.buf, len(k.ok[0])*nq) // every entry written
		for j, id := range k.okID[0] {
			ans := &k.table.answers[id]
			for i, v := range vs {
				rowsA[j*nq+i] = uint32(int(base[i]) + int(index[i][ans[v]])*len(codes[i]))
			}
		}
		rowsB := dirtyU8(k.buf, len(k.ok[1])*nq) // every entry written
		for j, id := range k.okID[1] {
			ans := &k.table.answers[id]
			for i, v := range vs {
				rowsB[j*nq+i] = index[i][ans[v]]
			}
		}
		for _, d := range deals {
			ja, jb := int(d>>16)*nq, int(d&0xffff)*nq
			ra, rb := rowsA[ja:ja+nq], rowsB[jb:jb+nq]
			rb = rb[:len(ra)]
			for i, o := range ra {
				table[o+uint32(rb[i])]++
			}
		}
		return nonzero(k.buf, counts)
	}
	// Pruning, a question is counted alone: each set's cell offset (A's)
	// or numbered answer (B's) to it, in one column a side, made only for
	// the questions counted, a few of them.
	colA, colB := dirtyU32(k.buf, len(k.ok[0])), dirtyU32(k.buf, len(k.ok[1])) // written for each question
	hist := make([][]float64, nq)
	most := math.Inf(-1) // the most information of a question counted so far
	for _, i := range boundOrder(bound) {
		if bound[i] < most-pruneGap(nq) {
			continue
		}
		answers, width := &k.table.byVariant[vs[i]], uint32(len(codes[i]))
		for j, id := range k.okID[0] {
			colA[j] = uint32(base[i]) + uint32(index[i][(*answers)[id]])*width
		}
		for j, id := range k.okID[1] {
			colB[j] = uint32(index[i][(*answers)[id]])
		}
		for _, d := range deals {
			table[colA[d>>16]+colB[d&0xffff]]++
		}
		// Counted, even if no deal is left: not nil, which means left out.
		hist[i] = nonzeroRow(k.buf, counts[i])
		if hist[i] == nil {
			hist[i] = []float64{}
		}
		most = max(most, entropy(hist[i]))
	}
	return hist
}

// answerStats returns, for each question vs[i], the answers (codes below
// 64) the opponents' possible sets give, ascending, and the sum of the
// entropies of each opponent's own answer over the deals (weighed by b):
// no less than the entropy of the pair of answers, so no less than what
// the question carries (see bestQuestion). One pass over both lists does
// both: a set's row of the answer table is one cache line, read once.
func (k *knowledge) answerStats(b belief, vs []int) (bound []float64, codes [][]uint8) {
	bound = make([]float64, len(vs))
	seen := make([]uint64, len(vs))
	dist := dirtyF64(k.buf, 64*len(vs)) // question i's answers at 64i (cleared below)
	for j := range k.opps {
		clear(dist)
		for idx, id := range k.okID[j] {
			w := b.opp[j][idx]
			ans := &k.table.answers[id]
			if w == 0 { // in no deal: its answers are seen all the same
				for i, v := range vs {
					seen[i] |= 1 << (ans[v] & 63)
				}
				continue
			}
			for i, v := range vs {
				dist[64*i+int(ans[v]&63)] += w
			}
		}
		for i := range vs {
			row := dist[64*i : 64*(i+1)]
			bound[i] += entropy(row)
			for c, w := range row {
				if w > 0 { // weights are whole numbers of deals, at least 0
					seen[i] |= 1 << c
				}
			}
		}
	}
	codes = make([][]uint8, len(vs))
	all := make([]uint8, 0, len(vs)*8)
	for i, m := range seen {
		start := len(all)
		for ; m != 0; m &= m - 1 {
			all = append(all, uint8(bits.TrailingZeros64(m)))
		}
		codes[i] = all[start:len(all):len(all)]
	}
	return bound, codes
}

// boundOrder returns the order in which pruning counts questions: the one
// with the highest bound first (the first of equals), the likeliest best,
// so that its figure can rule out the rest; then the others in order.
func boundOrder(bound []float64) []int {
	top := 0
	for i := range bound {
		if bound[i] > bound[top] {
			top = i
		}
	}
	order := make([]int, 0, len(bound))
	order = append(order, top)
	for i := range bound {
		if i != top {
			order = append(order, i)
		}
	}
	return order
}

// nonzeroRow returns row's nonzero entries as weights, in order (nil for
// none), in an array lent by buf.
func nonzeroRow[T uint32 | int64](buf *scratch, row []T) []float64 {
	n := 0
	for _, w := range row {
		if w != 0 {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := dirtyF64(buf, n)[:0]
	for _, w := range row {
		if w != 0 {
			out = append(out, float64(w))
		}
	}
	return out
}

// nonzero returns each row's nonzero entries as weights, in order (nil for
// a row with none), in one array lent by buf.
func nonzero[T uint32 | int64](buf *scratch, rows [][]T) [][]float64 {
	n := 0
	for _, row := range rows {
		for _, w := range row {
			if w != 0 {
				n++
			}
		}
	}
	all := dirtyF64(buf, n)[:0]
	hist := make([][]float64, len(rows))
	for i, row := range rows {
		start := len(all)
		for _, w := range row {
			if w != 0 {
				all = append(all, float64(w))
			}
		}
		if len(all) > start {
			hist[i] = all[start:len(all):len(all)]
		}
	}
	return hist
}

// answerCodes returns, for each variant vs[i], the answers (codes below
// 64) the sets of lists give, ascending.
func (k *knowledge) answerCodes(vs []int, lists ...[]uint32) [][]uint8 {
	codes := make([][]uint8, len(vs))
	for i, v := range vs {
		var seen [64]bool
		for _, list := range lists {
			for _, m := range list {
				seen[k.table.answers[k.handID[m]][v]] = true
			}
		}
		for c, ok := range seen {
			if ok {
				codes[i] = append(codes[i], uint8(c))
			}
		}
	}
	return codes
}

// subsetAnswers3 is jointAnswers3 by inclusion–exclusion; the centre must
// be unseen and b must be its belief. Each histogram holds only the nonzero
// counts, in the order of their answer pairs: the zeros change neither the
// total nor the sum in entropy, so the entropy is the same, without 4,096
// entries per question.
//
// Each side's commonest answer is not counted by subsets: b already says
// how many deals give A each answer (the sum of its sets' weights), so the
// pairs with A's commonest answer are that number less the pairs counted
// with A's other answers; likewise for B.
//
// With prune set, the question whose answers' own entropies add up to the
// most is counted first, and a question whose sum falls more than pruneGap
// below the most information counted so far is left out (nil): see
// bestQuestion.
func (k *knowledge) subsetAnswers3(b belief, vs []int, prune bool) [][]float64 {
	okA, okB := k.ok[0], k.ok[1]
	numbering := smallSets(len(k.pool), k.handSize)
	slot, layer := numbering.slot, numbering.layer
	slots := int(layer[len(layer)-1])
	sideA := newSubsetSide(k.buf, okA, b.opp[0], slot, k.handSize)
	sideA.ids = k.okID[0]
	sideB := sideA
	same := slices.Equal(okA, okB) // so at the start of a game: count once
	if !same {
		sideB = newSubsetSide(k.buf, okB, b.opp[1], slot, k.handSize)
		sideB.ids = k.okID[1]
	}
	// The answers each question may get, and (pruning) a bound on what it
	// carries, from one pass over both lists.
	bound, codes := k.answerStats(b, vs)
	widest := 0
	for _, c := range codes {
		widest = max(widest, len(c))
	}
	sideA.grow(k.buf, widest, slots)
	if !same {
		sideB.grow(k.buf, widest, slots)
	}
	hist := make([][]float64, len(vs))
	// Each question's answers numbered densely, keeping their order.
	index := make([][64]uint8, len(vs))
	for i, c := range codes {
		for x, code := range c {
			index[i][code] = uint8(x)
		}
	}
	tally := func(i int) {
		col := &k.table.byVariant[vs[i]]
		sideA.tally(*col, &index[i])
		if !same {
			sideB.tally(*col, &index[i])
		}
	}
	// The questions in the order they are counted: pruning, the likeliest
	// best first, so that its figure can rule out the rest.
	order := make([]int, len(vs))
	for i := range order {
		order[i] = i
	}
	if prune {
		order = boundOrder(bound)
	}
	most := math.Inf(-1)                       // the most information of a question counted so far
	pairsOf := make([]int64, widest*widest+64) // room for addPairProducts' rows of 64
	for _, i := range order {
		if prune && bound[i] < most-pruneGap(len(vs)) {
			continue
		}
		nx := len(codes[i])
		tally(i)
		sideA.clean(nx, slots)
		sideA.spread(slots)
		if !same {
			sideB.clean(nx, slots)
			sideB.spread(slots)
		}
		pairs := pairsOf[:nx*nx]
		clear(pairs)
		for r := 0; r < k.handSize; r++ { // the sets smaller than a hand
			sign := int64(1 - 2*(r%2))
			from, to := int(layer[r]), int(layer[r+1])
			addPairProducts(pairs, nx, sign, sideA.nz[from:to], sideB.nz[from:to], sideA.cnt[from:], sideB.cnt[from:], slots, same)
		}
		// The sets of a hand's size, which spread leaves out: such a set
		// S lies in a and in b only when S = a = b, a set both lists hold,
		// and both then give S's answer. So each set of A's (but the
		// commonest answers') that B holds too adds its sign once, at its
		// answer's place on the diagonal; two-thirds of the small sets,
		// with no product to add up.
		sign := int64(1 - 2*(k.handSize%2))
		inB := k.okSet[1]
		for j, x := range sideA.ans {
			if int(x) != sideA.skip && int(x) != sideB.skip && (same || inB[okA[j]]) {
				pairs[int(x)*nx+int(x)] += sign
			}
		}
		if same {
			for x := range nx {
				for y := x + 1; y < nx; y++ {
					pairs[y*nx+x] = pairs[x*nx+y]
				}
			}
		}
		// The commonest answers' pairs, from each side's totals.
		xs, ys := sideA.skip, sideB.skip
		for x := range nx {
			if x == xs {
				continue
			}
			pairs[x*nx+ys] = sideA.total[x]
			for y := range nx {
				if y != ys {
					pairs[x*nx+ys] -= pairs[x*nx+y]
				}
			}
		}
		for y := range nx {
			if y == ys {
				continue
			}
			pairs[xs*nx+y] = sideB.total[y]
			for x := range nx {
				if x != xs {
					pairs[xs*nx+y] -= pairs[x*nx+y]
				}
			}
		}
		pairs[xs*nx+ys] = sideA.total[xs]
		for y := range nx {
			if y != ys {
				pairs[xs*nx+ys] -= pairs[xs*nx+y]
			}
		}
		// Counted, even if no deal is left: not nil, which means left out.
		hist[i] = nonzeroRow(k.buf, pairs)
		if hist[i] == nil {
			hist[i] = []float64{}
		}
		sideA.reset(nx, slots)
		if !same {
			sideB.reset(nx, slots)
		}
		most = max(most, entropy(hist[i]))
	}
	return hist
}

// addPairProducts adds to pairs[x*nx+y], for the small sets S of one
// layer (one size), sign · #{A's sets answering x that hold S} · #{B's
// sets answering y that hold S}: nzA[i] and nzB[i] are the answers with a
// count for the layer's i-th set, whose counts for answer x are at
// cntA[x*slots+i] (cntA starts at the layer's first set). With same (A's
// lists are B's) only y ≥ x is added: the rest is the mirror image.
//
// A function of its own, over plain slices, so that the compiler keeps
// the loop's values in registers instead of reloading the sides' fields.
func addPairProducts(pairs []int64, nx int, sign int64, nzA, nzB []uint64, cntA, cntB []uint16, slots int, same bool) {
	nzB = nzB[:len(nzA)]
	var vb [64]int64 // B's counts at the current set, by answer: only those in mb are read
	for i, ma := range nzA {
		mb := nzB[i]
		if ma == 0 || mb == 0 {
			continue
		}
		for m := mb; m != 0; m &= m - 1 {
			y := bits.TrailingZeros64(m) & 63
			vb[y] = int64(cntB[y*slots+i])
		}
		for ; ma != 0; ma &= ma - 1 {
			x := bits.TrailingZeros64(ma)
			wa := sign * int64(cntA[x*slots+i])
			out := pairs[x*nx : x*nx+64] // pairs has room past its last row
			m := mb
			if same {
				m &^= 1<<x - 1 // symmetric: y ≥ x only, mirrored by the caller
			}
			for ; m != 0; m &= m - 1 {
				y := bits.TrailingZeros64(m) & 63
				out[y] += wa * vb[y]
			}
		}
	}
}

// setNumbering numbers the sets of at most some size among n tiles,
// smallest first: slot[m] is set m's number and layer[r] where those of r
// tiles begin (layer[size+1] is how many there are).
type setNumbering struct {
	slot  []int32
	layer []int32
}

// smallSets returns the numbering of the sets of at most size of n tiles.
// With 3 players it is always the same one (15 unseen tiles, hands of 5),
// built on first use and never changed; other sizes are built each time.
func smallSets(n, size int) setNumbering {
	if n == 15 && size == 5 {
		return smallSets15x5()
	}
	return numberSmallSets(n, size)
}

var smallSets15x5 = sync.OnceValue(func() setNumbering { return numberSmallSets(15, 5) })

func numberSmallSets(n, size int) setNumbering {
	num := setNumbering{slot: make([]int32, 1<<n)}
	slots := int32(0)
	for r := 0; r <= size; r++ {
		num.layer = append(num.layer, slots)
		forSubsets(1<<n-1, r, func(m uint32) {
			num.slot[m] = slots
			slots++
		})
	}
	num.layer = append(num.layer, slots)
	return num
}

// subsetSide is one opponent's side of subsetAnswers3: the sets it may
// hold and, per question, how many of them contain each small set S and
// give each answer but the commonest.
type subsetSide struct {
	list []uint32
	// weight[j] is how many deals give this opponent list[j].
	weight []float64
	// subs[at[j] : at[j]+per] are the slots of every subset of list[j]
	// (per = 2^handSize): from the table shared by every 3-player decision
	// (see subsetSlots15x5), or worked out once for all questions.
	subs []int32
	at   []int32
	per  int
	// ids[j] is list[j]'s hand id.
	ids []int32
	// ans[j] is list[j]'s answer to the current question, numbered densely.
	ans []uint8
	// skip is the commonest answer, which cnt leaves out; total[x] is the
	// number of deals in which this opponent answers x.
	skip  int
	total []int64
	// cnt[x*slots+slot[S]] counts the members containing S that answer x
	// (at most 3,003); answer-major, so one member's subsets all land in
	// one row.
	cnt []uint16
	// nz[slot[S]] has bit x set when cnt for S and x is not zero.
	nz []uint64
	// zeroed is how much of cnt, from its start, is known to be zero
	// between questions (see clean).
	zeroed int
}

func newSubsetSide(buf *scratch, list []uint32, weight []float64, slot []int32, handSize int) *subsetSide {
	per := 1 << handSize
	side := &subsetSide{list: list, weight: weight, per: per, at: dirtyI32(buf, len(list)), ans: dirtyU8(buf, len(list))}
	if len(slot) == 1<<15 && handSize == 5 {
		// 15 unseen tiles and hands of 5: every set's row is in the table.
		side.subs = subsetSlots15x5()
		for j, m := range list {
			side.at[j] = int32(colex15x5(m) * 32)
		}
		return side
	}
	side.subs = dirtyI32(buf, len(list)*per)[:0]
	for j, m := range list {
		side.at[j] = int32(len(side.subs))
		for s := m; ; s = (s - 1) & m {
			side.subs = append(side.subs, slot[s])
			if s == 0 {
				break
			}
		}
	}
	return side
}

// subsOf returns the slots of every subset of list[j], list[j] itself
// first.
func (side *subsetSide) subsOf(j int) []int32 {
	at := side.at[j]
	return side.subs[at : at+int32(side.per)]
}

// smallerSubsOf returns the slots of the subsets of list[j] smaller than
// it: all but the first of subsOf's.
func (side *subsetSide) smallerSubsOf(j int) []int32 {
	at := side.at[j]
	return side.subs[at+1 : at+int32(side.per)]
}

// subsetSlots15x5 holds, for every set of 5 of 15 tiles in colex order
// (see colex15x5), the slots (smallSets(15, 5)) of its 32 subsets: 384 KB
// made once and only read, where every 3-player decision used to work out
// a row per hand each opponent may hold, a few thousand of them.
var subsetSlots15x5 = sync.OnceValue(func() []int32 {
	slot := smallSets15x5().slot
	out := make([]int32, 0, binom(15, 5)*32)
	forSubsets(1<<15-1, 5, func(m uint32) {
		for s := m; ; s = (s - 1) & m {
			out = append(out, slot[s])
			if s == 0 {
				break
			}
		}
	})
	return out
})

// colex15x5 returns the rank of a set of 5 of 15 tiles in colexicographic
// order (the order of the sets as numbers): the sum of binom(b, i+1) over
// its tiles b, the lowest first; read as the shares of its low eight tiles
// and those of its high ones given how many low tiles come before them.
func colex15x5(m uint32) int {
	low := m & 255
	return int(colexLow[low] + colexHigh[bits.OnesCount32(low)&7][m>>8&127])
}

// colexLow[m] is the colex share of the tiles of m (below 8), and
// colexHigh[c][m] that of tiles 8+b for the bits b of m, when c tiles come
// before them; read only, made once. Shares of sets of more than 5 tiles
// are never read.
var colexLow, colexHigh = func() (low [256]int32, high [8][128]int32) {
	share := func(i, b int) int32 { return int32(binom(b, i+1)) }
	for m := range 256 {
		i := 0
		for b := range 8 {
			if m&(1<<b) != 0 {
				low[m] += share(i, b)
				i++
			}
		}
	}
	for c := range high {
		for m := range 128 {
			i := c
			for b := range 7 {
				if m&(1<<b) != 0 {
					high[c][m] += share(i, 8+b)
					i++
				}
			}
		}
	}
	return
}()

// grow makes room for questions with up to nx answers. cnt is zeroed
// only as far as the questions counted need it (see clean): pruning
// leaves most questions uncounted, and the widest may be one of them.
func (side *subsetSide) grow(buf *scratch, nx, slots int) {
	side.cnt = dirtyU16(buf, nx*slots)
	side.zeroed = 0
	side.nz = zeroU64(buf, slots)
	side.total = make([]int64, nx)
}

// clean makes sure cnt is zero for answers below nx before a spread;
// reset keeps what was zeroed so.
func (side *subsetSide) clean(nx, slots int) {
	if n := nx * slots; n > side.zeroed {
		clear(side.cnt[side.zeroed:n])
		side.zeroed = n
	}
}

// tally numbers each member's answer to a question (col holds every
// hand's answer to it, by hand id; index maps answers to their numbers),
// adds up total and picks skip.
func (side *subsetSide) tally(col []uint8, index *[64]uint8) {
	clear(side.total)
	var members [64]int
	for j, id := range side.ids {
		x := index[col[id]]
		side.ans[j] = x
		members[x]++
		side.total[x] += int64(side.weight[j])
	}
	side.skip = 0
	for x, n := range members {
		if n > members[side.skip] {
			side.skip = x
		}
	}
}

// spread fills cnt and nz for the answers tallied but the commonest, on
// the sets smaller than a hand (subsetAnswers3 counts those of a hand's
// size apart). Between questions cnt and nz are all zero (see reset), so
// that the cost follows the number of hands, not the 4,944 small sets
// times the answers.
//
// The side's fields are read into locals first, nz cut to a row's length:
// the compiler then keeps them in registers and checks each slot once,
// where it reloaded nz for every subset (a write to cnt might have
// changed it, for all it knew).
func (side *subsetSide) spread(slots int) {
	cnt, nz, skip := side.cnt, side.nz[:slots], side.skip
	for j, x := range side.ans {
		if int(x) == skip {
			continue
		}
		row := cnt[int(x)*slots : int(x+1)*slots]
		row = row[:len(nz)]
		bit := uint64(1) << (x & 63)
		for _, sl := range side.smallerSubsOf(j) {
			row[sl]++
			nz[sl] |= bit
		}
	}
}

// reset zeroes what spread set: by clearing all of it when that is less
// work (many hands, few answers), else by undoing each hand's subsets.
func (side *subsetSide) reset(nx, slots int) {
	if nx*slots < 8*len(side.list)*side.per {
		clear(side.cnt[:nx*slots])
		clear(side.nz)
		return
	}
	for j, x := range side.ans {
		if int(x) == side.skip {
			continue
		}
		row := side.cnt[int(x)*slots : int(x+1)*slots]
		for _, sl := range side.smallerSubsOf(j) {
			row[sl] = 0
			side.nz[sl] = 0
		}
	}
}

// best returns the hand id with the highest weight (lowest id on ties) and its probability.
// The weights are whole numbers of deals, so their float sum is exact in
// any order and the ids can be read as they come, without sorting.
func (b belief) best() (int32, float64) {
	bestID, bestW := int32(-1), -1.0
	total := 0.0
	for _, id := range b.target.ids {
		w := b.target.weight[id]
		total += w
		if w > bestW || (w == bestW && id < bestID) {
			bestID, bestW = id, w
		}
	}
	if total <= 0 {
		return bestID, 0
	}
	return bestID, bestW / total
}
