package breakcode

import (
	"math/bits"
	"slices"
)

// The aid (View.Seats[i].Possible, View.CentrePossible) says how many
// distinct hands each opponent, and the centre, may still be for the seat
// viewing. It used to be read off the bot's weighted belief (knowledge.go),
// built from scratch for every seat view; the lobby builds a view per seat
// after every move and again on chat and reconnects, so that was most of a
// busy server's work. Here it is (1) remembered per seat until what that
// seat knows changes; (2) worked out without weights: a hand is possible
// when at least one whole deal of the unseen tiles fits what the seat
// knows, and existence needs only bit sets, direct pairing, witness
// searches and, for the larger cases, lane-packed subset transforms; and
// (3) started from the sets the seat's previous aid allowed, filtered by
// the answers heard since. The numbers are the ones the belief gives (see
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
	lists  *aidLists // where the next computation may start (nil: from scratch)
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
		counts, lists := aidOf(v, m.lists)
		*m = aidMemo{valid: true, key: key, counts: counts, lists: lists}
	}
	return m.counts
}

// bitset is a set of local tile sets (bit m is set m).
type bitset []uint64

func newBitset(poolBits int) bitset { return make(bitset, max(1, (1<<poolBits)/64)) }

// bitset returns an empty bitset over the solver's pool, lent by its
// scratch when it has one.
func (s *aidSolver) bitset() bitset { return bitset(zeroU64(s.buf, max(1, (1<<s.poolBits)/64))) }

func (b bitset) has(m uint32) bool { return b[m>>6]&(1<<(m&63)) != 0 }
func (b bitset) set(m uint32)      { b[m>>6] |= 1 << (m & 63) }

// superClosure returns the sets that contain at least one member of b
// (the zeta transform over subsets, in the or-and semiring).
func (b bitset) superClosure(buf *scratch) bitset {
	out := bitset(dirtyU64(buf, len(b))) // every word written below
	// Within a word, tile bits 0–5 are bit positions: spread each set to
	// its supersets over those tiles (pools always have more than 6 tiles).
	for w, x := range b {
		x |= (x & 0x5555555555555555) << 1
		x |= (x & 0x3333333333333333) << 2
		x |= (x & 0x0f0f0f0f0f0f0f0f) << 4
		x |= (x & 0x00ff00ff00ff00ff) << 8
		x |= (x & 0x0000ffff0000ffff) << 16
		x |= (x & 0x00000000ffffffff) << 32
		out[w] = x
	}
	orWords(out) // the other tile bits index words
	return out
}

// aidSolver works out the aid for the seat viewing one View.
type aidSolver struct {
	n, handSize int
	table       *handTable
	pool        []int  // physical index of each unseen tile, ascending
	poolBits    int    // len(pool)
	mine        uint32 // the viewer's own tiles (physical)
	full        uint32 // every local bit
	// g1, g2 are the local bits of the two green 5s when both are unseen:
	// sets that differ only by which 5g they hold are the same hand.
	g1, g2 uint32
	// ok[j] lists the local sets opponent j (in seat order, the viewer left
	// out) may hold given its answers; okSet[j] is the same as a bitset.
	ok    [][]uint32
	okSet []bitset
	ids   [][]int32 // the hand id of each set in ok
	// whole[j] is set when ok[j] is every set of a hand's size, shared.
	whole []bool
	heard []int // answers heard from each opponent
	// zetas[j] caches the zeta transform of ok[j]'s indicator (see zetaOf).
	zetas [][]uint64
	// product is unionsByTransform's scratch, reused between calls.
	product []uint64
	// centre lists the local sets the centre may be once the seat has seen
	// it (one, or two when it holds one 5g and both are unseen); nil before.
	centre     []uint32
	centreSeen bool
	// buf lends the bitsets and transforms (nil: they are allocated).
	buf *scratch
	// room holds the short per-opponent slices above (at most three
	// opponents), the answers heard and the pool: with the solver itself
	// lent by a scratch, setting up a seat's aid allocates none of them.
	room struct {
		ok    [3][]uint32
		okSet [3]bitset
		ids   [3][]int32
		zetas [3][]uint64
		// Each opponent's share of answers, below.
		notes [3][]heardAnswer
		// The sets each opponent may hold (see possible).
		possible [3]bitset
		// The rest holds no pointers: last, so that a collection scanning
		// a scratch stops before it.
		answers [64]heardAnswer // every answer heard
		pool    [tileCount]int
		whole   [3]bool
		heard   [3]int
	}
}

// aidOf computes the aid for the seat viewing v (which must be a seat's
// view), starting from prev, the lists kept from that seat's last aid (or
// nil); it returns the lists to keep for its next one, written over
// prev's memory: prev must not be used again.
func aidOf(v View, prev *aidLists) (aidCounts, *aidLists) {
	// The solver's bitsets and transforms are lent for this call only:
	// what it returns (counts, listed hands, marks, kept lists) is
	// allocated apart.
	buf := getScratch()
	defer putScratch(buf)
	s := newAidSolverIn(v, prev, buf)
	// The counts' three per-seat slices in two allocations: they are kept
	// (the seat's memo) until its next aid.
	lists := make([][]uint32, 2*s.n)
	c := aidCounts{hands: make([]int, s.n), handSets: lists[:s.n:s.n], marks: lists[s.n:]}
	me := int(v.Viewer.Seat)
	var possible []bitset
	var centres bitset // nil once the centre is seen (the view shows it)
	switch {
	case s.n == 2:
		possible = s.possible(s.okSet[0])
	case s.allFree():
		// No one has answered yet: every deal of the unseen tiles fits, so
		// each opponent, and the centre, may be any set.
		all := s.okSet[0]
		possible = s.possible(all, all, all)[:s.n-1]
		centres = all
	case s.n == 3:
		possible, centres, c.centre = s.solve3()
	default:
		possible, centres, c.centre = s.solve4()
	}
	// Equal bitsets (all of them, before anyone has answered) are one
	// slice: their numbers are worked out once, and their marks shared.
	var last bitset
	var lastHands int
	var lastMarks []uint32
	read := func(b bitset) (int, []uint32) {
		if last == nil || &last[0] != &b[0] {
			last, lastHands, lastMarks = b, s.distinct(b), s.marks(b)
		}
		return lastHands, lastMarks // read only, like every list of the counts
	}
	j := 0
	for seat := range s.n {
		if seat == me {
			continue
		}
		c.hands[seat], c.marks[seat] = read(possible[j])
		if c.hands[seat] <= ListedMax {
			c.handSets[seat] = s.physical(possible[j])
		}
		j++
	}
	if centres != nil {
		if &centres[0] == &last[0] {
			c.centre, c.centreMarks = read(centres) // solved with the opponents'
		} else {
			c.centreMarks = s.marks(centres) // solve3 and solve4 count the centre sets
		}
		if c.centre <= ListedMax {
			c.centreSets = s.physical(centres)
		}
	}
	return c, s.keptLists(prev)
}

// possible returns sets, the sets each opponent (at most three) may hold,
// in a slice of the solver's rather than a new one per view.
func (s *aidSolver) possible(sets ...bitset) []bitset {
	return append(s.room.possible[:0], sets...)
}

// allFree reports whether, with 3–4 players, every opponent may still
// hold any set (none has answered) and the seat has not seen the centre.
func (s *aidSolver) allFree() bool {
	if s.n < 3 || s.centreSeen {
		return false
	}
	for j, l := range s.ok {
		if !s.whole[j] && !s.anySet(l) {
			return false
		}
	}
	return true
}

// marks returns, for each position of a sorted hand, the physical tiles
// (a green 5 as tile 10) that some set of b puts there: the pencil marks a
// player keeps per position.
//
// It reads b a word at a time rather than a set at a time (a dense bitset
// holds thousands of sets, and this ran for every seat on every move): the
// 64 sets of word w share their high tiles (the bits of w) and differ in
// their low six, so within a class of sets with the same number c of low
// tiles, the high tiles sit at positions c, c+1, …; and a low tile t sits
// at position r in some set of b when some word meets lowAt[r][t], the low
// parts holding t with r lower tiles beside it.
func (s *aidSolver) marks(b bitset) []uint32 {
	out := make([]uint32, s.handSize)
	var phys [32]uint32 // the physical tile of each local bit, as a mark
	for i, p := range s.pool {
		if p == 11 {
			p = 10 // either green 5 is the tile 5g
		}
		phys[i] = 1 << p
	}
	var low uint64 // every low part of a set in b
	for w, word := range b {
		if word == 0 {
			continue
		}
		for c := range lowSizes {
			if word&lowSizes[c] == 0 || c > len(out) {
				continue
			}
			// The high tiles of these sets, from position c on.
			i := c
			for rest := uint32(w); rest != 0 && i < len(out); rest &= rest - 1 {
				out[i] |= phys[6+bits.TrailingZeros32(rest)]
				i++
			}
		}
		low |= word
	}
	// Where the low tiles sit does not hang on the high ones (they come
	// first), so one pass over the union of every word's low parts does.
	for r := range min(6, len(out)) {
		for t := r; t < 6; t++ {
			if low&lowAt[r][t] != 0 {
				out[r] |= phys[t]
			}
		}
	}
	return out
}

// lowSizes[c] has bit L set for every 6-bit low part L of c tiles;
// lowAt[r][t] for every L holding tile t above exactly r of its tiles.
var lowSizes, lowAt = func() (sizes [7]uint64, at [6][6]uint64) {
	for l := range 64 {
		sizes[bits.OnesCount(uint(l))] |= 1 << l
		for t := range 6 {
			if l&(1<<t) != 0 {
				at[bits.OnesCount(uint(l&(1<<t-1)))][t] |= 1 << l
			}
		}
	}
	return
}()

// ListedMax is the most possible hands (or centre sets) a seat's aid lists
// tile by tile; more are only counted. Four sets of five tiles fit one line
// of the notepad at 80 columns.
const ListedMax = 4

// physical lists the distinct hands among the local sets in b as physical
// tile sets (a lone green 5 as tile 10), in the order tiles stand.
func (s *aidSolver) physical(b bitset) []uint32 {
	var out []uint32
	for w, word := range b {
		for ; word != 0; word &= word - 1 {
			m := uint32(w<<6 | bits.TrailingZeros64(word))
			if m&s.g2 != 0 && m&s.g1 == 0 && b.has(m^s.g1^s.g2) {
				continue // its twin holding the other 5g is listed
			}
			var p uint32
			for rest := m; rest != 0; rest &= rest - 1 {
				p |= 1 << s.pool[bits.TrailingZeros32(rest)]
			}
			if p&(1<<11) != 0 && p&(1<<10) == 0 {
				p ^= 1<<11 | 1<<10
			}
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b uint32) int {
		// By the lowest tile where they differ: the lower tile first.
		d := a ^ b
		if d == 0 {
			return 0
		}
		if a&(d&-d) != 0 {
			return -1
		}
		return 1
	})
	return out
}

// newAidSolver reads what the seat viewing v knows: its own tiles (the
// pool is the rest), every answer each opponent gave, its wrong guesses
// (2 players) and the centre once it has seen it; and lists the sets each
// opponent may hold given its answers alone, starting from prev (the same
// seat's lists for an earlier view) when there is one.
func newAidSolver(v View, prev *aidLists) *aidSolver { return newAidSolverIn(v, prev, nil) }

// newAidSolverIn is newAidSolver with its large tables lent by buf (nil:
// allocated), for as long as buf lends them.
func newAidSolverIn(v View, prev *aidLists, buf *scratch) *aidSolver {
	me := int(v.Viewer.Seat)
	var s *aidSolver
	if buf != nil {
		s = &buf.aid
	} else {
		s = new(aidSolver)
	}
	*s = aidSolver{n: v.Players, handSize: v.HandSize, table: handsOfSize(v.HandSize), buf: buf}
	s.pool = s.room.pool[:0]
	mine, _ := maskOf(v.Hand)
	s.mine = mine
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
	// Each opponent's answers, all in one array.
	total := 0
	for seat := range s.n {
		if seat != me {
			total += len(v.Seats[seat].Notes)
		}
	}
	answers, notes := s.room.answers[:0], s.room.notes[:0]
	if total > len(s.room.answers) || s.n-1 > len(s.room.notes) {
		answers, notes = make([]heardAnswer, 0, total), make([][]heardAnswer, 0, s.n-1)
	}
	for seat := range s.n {
		if seat == me {
			continue
		}
		start := len(answers)
		for _, n := range v.Seats[seat].Notes {
			answers = append(answers, heardAnswer{variantOf(n.Card, n.Number), n.Code})
		}
		notes = append(notes, answers[start:len(answers):len(answers)])
	}
	opps := len(notes)
	if opps <= len(s.room.ok) {
		r := &s.room
		s.ok, s.ids, s.zetas, s.whole, s.heard = r.ok[:opps], r.ids[:opps], r.zetas[:opps], r.whole[:opps], r.heard[:opps]
	} else {
		s.ok, s.ids, s.zetas = make([][]uint32, opps), make([][]int32, opps), make([][]uint64, opps)
		s.whole, s.heard = make([]bool, opps), make([]int, opps)
	}
	for j, hs := range notes {
		s.heard[j] = len(hs)
	}
	if prev != nil && len(prev.sets) == len(notes) && prev.handSize == s.handSize && prev.mine == mine {
		// Only the answers heard since the last time can rule sets out.
		for j, hs := range notes {
			if prev.heard[j] > len(hs) {
				prev = nil // not this seat's earlier lists after all
				break
			}
		}
	} else {
		prev = nil
	}
	// The lists are lent by buf like the bitsets; keptLists copies what
	// it keeps. Every hand of the pool is listed once, when some opponent
	// needs them: one with no list kept, filtered by all its answers. An
	// opponent who has answered nothing (and no wrong guess to rule out)
	// may hold any of them: it shares the one list, which nothing writes
	// to after this (see below).
	var sets []uint32
	var ids []int32
	listAll := func() {
		if sets == nil {
			all := binom(s.poolBits, s.handSize)
			sets, ids = s.appendHands(dirtyU32(buf, all)[:0], dirtyI32(buf, all)[:0])
		}
	}
	for j, hs := range notes {
		if prev != nil && !prev.whole[j] {
			// Only the answers heard since the last time can rule sets
			// out. The ids come with the sets when the lists were short
			// enough to keep them, else they are worked out again.
			fresh := hs[prev.heard[j]:]
			list := prev.sets[j]
			kept, keptIDs := dirtyU32(buf, len(list))[:0], dirtyI32(buf, len(list))[:0]
			for i, m := range list {
				kept = append(kept, uint32(m))
				if prev.ids != nil {
					keptIDs = append(keptIDs, prev.ids[j][i])
				} else {
					keptIDs = append(keptIDs, s.localID(uint32(m)))
				}
			}
			s.ok[j], s.ids[j] = s.table.fitting(kept, keptIDs, fresh, wrong, kept[:0], keptIDs[:0])
			continue
		}
		if len(hs) == 0 && len(wrong) == 0 {
			s.whole[j] = true // listed below
			continue
		}
		listAll()
		s.ok[j], s.ids[j] = s.table.fitting(sets, ids, hs, wrong, dirtyU32(buf, len(ids))[:0], dirtyI32(buf, len(ids))[:0])
	}
	// Opponents who may hold any set share one bitset of every set. When
	// no one has answered (3–4 players, the centre unseen: allFree) that
	// bitset is all the aid reads, and no hand is listed at all.
	free := s.n >= 3 && !s.centreSeen && !slices.Contains(s.whole, false)
	var every bitset
	s.okSet = s.room.okSet[:0]
	for j := range s.ok {
		if s.whole[j] {
			if !free {
				listAll()
				s.ok[j], s.ids[j] = sets, ids
			}
			if every == nil {
				every = s.everySet()
			}
			s.okSet = append(s.okSet, every)
			continue
		}
		set := s.bitset()
		for _, m := range s.ok[j] {
			set.set(m)
		}
		s.okSet = append(s.okSet, set)
	}
	return s
}

// everySet returns the bitset of every local set of handSize tiles.
func (s *aidSolver) everySet() bitset {
	b := bitset(dirtyU64(s.buf, max(1, (1<<s.poolBits)/64)))
	for w := range b {
		b[w] = ^uint64(0)
	}
	if s.poolBits < 6 { // one word, part of it outside the pool
		b[0] &= 1<<(1<<s.poolBits) - 1
	}
	return s.ofSize(b, s.handSize)
}

// keptLists returns the opponents' lists for the next view of the same
// seat to start from, or nil when they are too long to be worth keeping.
// A list of every hand (an opponent who has answered nothing) is only
// marked, not kept; the sets' hand ids are kept beside them when they
// are few. The lists are written into reuse (the seat's lists the solver
// started from, which nothing reads after this) where it has room, else
// into new memory.
func (s *aidSolver) keptLists(reuse *aidLists) *aidLists {
	total := 0
	for j, l := range s.ok {
		if !s.whole[j] {
			total += len(l)
		}
	}
	if total > keptListsMax || s.poolBits > 16 {
		return nil
	}
	kept := reuse
	if kept == nil || len(kept.sets) != len(s.ok) {
		kept = &aidLists{sets: make([][]uint16, len(s.ok)), whole: make([]bool, len(s.ok))}
	}
	withIDs := total <= keptIDsMax
	if !withIDs {
		kept.ids = nil
	} else if len(kept.ids) != len(s.ok) {
		kept.ids = make([][]int32, len(s.ok))
	}
	kept.handSize, kept.mine, kept.heard = s.handSize, s.mine, append(kept.heard[:0], s.heard...)
	for j, l := range s.ok {
		kept.whole[j] = s.whole[j]
		set := kept.sets[j][:0]
		if !s.whole[j] {
			set = slices.Grow(set, len(l))
			for _, m := range l {
				set = append(set, uint16(m))
			}
		}
		kept.sets[j] = set
		if withIDs {
			ids := kept.ids[j][:0]
			if !s.whole[j] {
				ids = append(ids, s.ids[j]...)
			}
			kept.ids[j] = ids
		}
	}
	return kept
}

// keptListsMax bounds the sets kept per seat between views, 2 bytes each
// (a local set of at most 16 tiles), and keptIDsMax the sets whose hand
// ids (4 bytes more) are kept beside them; either way a seat keeps at
// most the 12 KB it was allowed when every set took 8 bytes. That lets
// every list of a 2–4-player game be kept once someone has answered.
const (
	keptListsMax = 6144
	keptIDsMax   = 2048
)

// aidLists is where a seat's last aid started from: the sets each opponent
// may hold given the answers heard then. Answers only ever accumulate, so
// the next aid filters these by the new answers instead of walking every
// hand again. They come from the seat's own view, like the aid.
type aidLists struct {
	handSize int
	mine     uint32     // the seat's own tiles: the pool is the rest
	sets     [][]uint16 // per opponent, in seat order: local sets
	ids      [][]int32  // the hand id of each set (nil: not kept)
	whole    []bool     // per opponent: may hold any hand (sets is empty)
	heard    []int      // answers heard from each opponent then
}

// localID returns the hand id of a local set of handSize tiles (see
// handTable.localID).
func (s *aidSolver) localID(local uint32) int32 { return s.table.localID(s.pool, local) }

// appendHands appends every local set of handSize tiles, in increasing
// order, to sets and its hand id to ids (see handTable.appendPoolHands).
func (s *aidSolver) appendHands(sets []uint32, ids []int32) ([]uint32, []int32) {
	return s.table.appendPoolHands(s.pool, sets, ids)
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

// distinct counts the hands among the sets in b: two sets that differ
// only by which green 5 they hold count once.
func (s *aidSolver) distinct(b bitset) int {
	n := 0
	for w, word := range b {
		for ; word != 0; word &= word - 1 {
			m := uint32(w<<6 | bits.TrailingZeros64(word))
			if m&s.g2 != 0 && m&s.g1 == 0 && b.has(m^s.g1^s.g2) {
				continue // its twin holding the other 5g is counted
			}
			n++
		}
	}
	return n
}

// complements returns the sets full \ m for m in b.
func (s *aidSolver) complements(b bitset) bitset {
	out := s.bitset()
	for w, word := range b {
		for ; word != 0; word &= word - 1 {
			out.set(s.full &^ uint32(w<<6|bits.TrailingZeros64(word)))
		}
	}
	return out
}

// besides returns the members m of list that some member of others avoids
// (others is the same as the bitset othersSet): with 3 players, the sets
// one opponent may hold beside a set of the other. Short lists are
// compared pairwise; long ones through the closure of othersSet.
func (s *aidSolver) besides(list, others []uint32, othersSet bitset) bitset {
	if len(list)*len(others) > 8192 {
		return s.fitting(list, othersSet.superClosure(s.buf))
	}
	out := s.bitset()
	for _, m := range list {
		for _, o := range others {
			if m&o == 0 {
				out.set(m)
				break
			}
		}
	}
	return out
}

// fitting returns the members m of list whose complement lies in room.
func (s *aidSolver) fitting(list []uint32, room bitset) bitset {
	out := s.bitset()
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
func (s *aidSolver) solve3() ([]bitset, bitset, int) {
	if s.centreSeen {
		pa, pb := s.bitset(), s.bitset()
		found := false
		for _, c := range s.centre {
			for _, a := range s.ok[0] {
				if a&c != 0 {
					continue
				}
				if b := s.full &^ c &^ a; s.okSet[1].has(b) {
					pa.set(a)
					pb.set(b)
					found = true
				}
			}
		}
		if found {
			return s.possible(pa, pb), nil, 1
		}
		return s.possible(pa, pb), nil, 0
	}
	// A may hold a when some B set fits in what a leaves; the centre takes the rest.
	pa, pb := s.besides(s.ok[0], s.ok[1], s.okSet[1]), s.besides(s.ok[1], s.ok[0], s.okSet[0])
	if s.anySet(s.ok[0]) || s.anySet(s.ok[1]) {
		// Every disjoint pair of sets the answers allow is a deal (the
		// centre takes the rest), so its sets are possible ones: the
		// unions of the possible sets are those of the allowed sets. When
		// one opponent may hold any set, that makes them one closure (see
		// unions), where the possible lists (no longer every set) would
		// pair up set by set.
		centres := s.complements(s.unions(s.ok[0], s.ok[1], s.okSet[0], s.okSet[1], 0, 1))
		return s.possible(pa, pb), centres, s.distinct(centres)
	}
	la, lb := s.listOf(pa), s.listOf(pb)
	// A side that may be any set makes the unions a closure (see unions),
	// cheaper than a search however dense the lists.
	if s.dense(la, lb) && !s.anySet(la) && !s.anySet(lb) {
		if centres, ok := s.centresBySearch3(spread(la), pb); ok {
			return s.possible(pa, pb), centres, s.distinct(centres)
		}
	}
	centres := s.complements(s.unions(la, lb, pa, pb, -1, -1))
	return s.possible(pa, pb), centres, s.distinct(centres)
}

// searchBudget bounds the steps of a witness search (about 0.1 ms) before
// it gives way to listing every union. Early in a game nearly every set is
// possible and a witness turns up within a few steps; later, when many
// sets are not, the lists are short enough to pair up whole.
const searchBudget = 150_000

// spread returns list reordered by a fixed stride coprime to its length,
// so that a search meets sets of every kind early: in plain order the
// first few hundred sets all hold the lowest tiles.
func spread(list []uint32) []uint32 {
	n := len(list)
	out := make([]uint32, n)
	if n == 0 {
		return out
	}
	stride := n*5/8 | 1
	for gcd(stride, n) != 1 {
		stride += 2
	}
	at := 0
	for i := range out {
		out[i] = list[at]
		if at += stride; at >= n {
			at -= n
		}
	}
	return out
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// anySet reports whether list holds every set of a hand's size.
func (s *aidSolver) anySet(list []uint32) bool { return len(list) == binom(s.poolBits, s.handSize) }

// dense reports whether every list holds at least half of all the sets of
// a hand's size: then nearly every centre is possible, and searching for
// one witness per centre is quick. Sparser lists go straight to unions.
func (s *aidSolver) dense(lists ...[]uint32) bool {
	all := binom(s.poolBits, s.handSize)
	for _, l := range lists {
		if 2*len(l) < all {
			return false
		}
	}
	return true
}

// overBudget reports whether a search that took steps for its first done-1
// of total candidates is on course to exceed searchBudget (judged once
// 64 candidates are in, so as to give up early rather than late).
func overBudget(steps, done, total int) bool {
	if steps > searchBudget {
		return true
	}
	return done > 64 && steps*total > searchBudget*(done-1)
}

// nextSubset returns the next larger set with as many tiles as m (Gosper's hack).
func nextSubset(m uint32) uint32 {
	r := m + m&-m
	return (r^m)>>(2+bits.TrailingZeros32(m)) | r
}

// centresBySearch3 returns the centre sets (3 players) for which some a in
// pa and b in pb split the other tiles, looking for one such a per centre;
// ok is false when that takes more than searchBudget steps.
func (s *aidSolver) centresBySearch3(pa []uint32, pb bitset) (centres bitset, ok bool) {
	return s.searchCentres(func(c, rest uint32, _ int) (bool, int) {
		for i, a := range pa {
			if a&c == 0 && pb.has(rest&^a) {
				return true, i + 1
			}
		}
		return false, len(pa)
	})
}

// searchCentres asks find about every centre set in turn, within
// searchBudget steps in all; find says whether centre c (rest: the other
// tiles) is possible and how many steps that took, and may give up once it
// has spent more than budget. ok is false when the budget runs out.
func (s *aidSolver) searchCentres(find func(c, rest uint32, budget int) (found bool, cost int)) (centres bitset, ok bool) {
	out := s.bitset()
	steps, done, total := 0, 0, binom(s.poolBits, s.handSize)
	for c := uint32(1)<<s.handSize - 1; c <= s.full; c = nextSubset(c) {
		if done++; overBudget(steps, done, total) {
			return nil, false
		}
		found, cost := find(c, s.full&^c, searchBudget-steps)
		if steps += cost; steps > searchBudget {
			return nil, false
		}
		if found {
			out.set(c)
		}
	}
	return out, true
}

// solve4 is the 4-player aid. Opponent j may hold m when the two other
// opponents can take disjoint fitting sets from what m leaves (the centre
// takes the rest, whatever it is: as in marginals4, a seen centre does not
// narrow the opponents). The centre, once seen, counts one.
func (s *aidSolver) solve4() ([]bitset, bitset, int) {
	possible := s.possible(nil, nil, nil)
	var pairs12 bitset
	small := len(s.ok[0])*len(s.ok[1])*len(s.ok[2]) <= smallDeals
	for j := range 3 {
		y, x := (j+1)%3, (j+2)%3
		if small {
			possible[j] = s.holdersDirect(s.ok[j], s.ok[y], s.ok[x])
			continue
		}
		if p, ok := s.holdersBySearch(s.ok[j], spread(s.ok[y]), s.okSet[x].superClosure(s.buf)); ok {
			possible[j] = p
			continue
		}
		pairs := s.unions(s.ok[y], s.ok[x], s.okSet[y], s.okSet[x], y, x)
		if j == 0 {
			pairs12 = pairs
		}
		possible[j] = s.fitting(s.ok[j], pairs.superClosure(s.buf))
	}
	if s.centreSeen {
		return possible, nil, 1
	}
	l0, l1 := s.listOf(possible[0]), s.listOf(possible[1])
	if small {
		centres := s.centresDirect4(l0, l1, s.listOf(possible[2]))
		return possible, centres, s.distinct(centres)
	}
	if s.dense(l0, l1, s.listOf(possible[2])) {
		if centres, ok := s.centresBySearch4(spread(l0), spread(l1), possible[2]); ok {
			return possible, centres, s.distinct(centres)
		}
	}
	if pairs12 == nil {
		pairs12 = s.unions(s.ok[1], s.ok[2], s.okSet[1], s.okSet[2], 1, 2)
	}
	centres := s.complements(s.unions(l0, s.listOf(pairs12), possible[0], pairs12, -1, -1))
	return possible, centres, s.distinct(centres)
}

// smallDeals is how many triples of opponents' sets (4 players) are few
// enough to try one by one, rather than through searches and unions.
const smallDeals = 32_768

// holdersDirect returns the members m of list beside which some y in ys and
// x in xs fit, all three disjoint.
func (s *aidSolver) holdersDirect(list, ys, xs []uint32) bitset {
	out := s.bitset()
	for _, m := range list {
	search:
		for _, y := range ys {
			if y&m != 0 {
				continue
			}
			for _, x := range xs {
				if x&(m|y) == 0 {
					out.set(m)
					break search
				}
			}
		}
	}
	return out
}

// centresDirect4 returns the centres left by every disjoint triple of sets
// from p0, p1 and p2.
func (s *aidSolver) centresDirect4(p0, p1, p2 []uint32) bitset {
	out := s.bitset()
	for _, a := range p0 {
		for _, b := range p1 {
			if a&b != 0 {
				continue
			}
			for _, x := range p2 {
				if x&(a|b) == 0 {
					out.set(s.full &^ (a | b | x))
				}
			}
		}
	}
	return out
}

// holdersBySearch returns the members m of list for which some y in ys
// avoids m and leaves room for a set of the third opponent (room is the
// closure of its sets); ok is false past searchBudget steps.
func (s *aidSolver) holdersBySearch(list, ys []uint32, room bitset) (holders bitset, ok bool) {
	out := s.bitset()
	steps := 0
	for done, m := range list {
		if overBudget(steps, done+1, len(list)) {
			return nil, false
		}
		rest := s.full &^ m
		for i, y := range ys {
			if y&m == 0 && room.has(rest&^y) {
				out.set(m)
				steps += i + 1
				break
			}
		}
		if !out.has(m) {
			steps += len(ys)
		}
		if steps > searchBudget {
			return nil, false
		}
	}
	return out, true
}

// centresBySearch4 returns the centre sets (4 players) for which some a in
// p0, b in p1 and a set of p2Set split the other tiles; ok is false past
// searchBudget steps.
func (s *aidSolver) centresBySearch4(p0, p1 []uint32, p2Set bitset) (centres bitset, ok bool) {
	return s.searchCentres(func(c, rest uint32, budget int) (bool, int) {
		cost := 0
		for _, a := range p0 {
			if a&c != 0 {
				continue
			}
			cost++
			for i, b := range p1 {
				if b&(a|c) == 0 && p2Set.has(rest&^a&^b) {
					return true, cost + i
				}
			}
			if cost += len(p1); cost > budget {
				return false, cost
			}
		}
		return false, cost
	})
}

// listOf lists the members of b, in a slice lent by the solver's scratch.
func (s *aidSolver) listOf(b bitset) []uint32 {
	n := 0
	for _, word := range b {
		n += bits.OnesCount64(word)
	}
	out := dirtyU32(s.buf, n)[:0]
	for w, word := range b {
		for ; word != 0; word &= word - 1 {
			out = append(out, uint32(w<<6|bits.TrailingZeros64(word)))
		}
	}
	return out
}

// unions returns every x ∪ y over disjoint x in xs and y in ys (each list
// holds sets of one size; xSet and ySet are the same as bitsets). It pairs
// the lists up directly, pairs one list with the other's bitset a word at
// a time, or counts through subset transforms, whichever the lists make
// cheapest; all three give the same sets. xi and yi name
// opponent lists whose transforms are cached (-1: not a cached list).
func (s *aidSolver) unions(xs, ys []uint32, xSet, ySet bitset, xi, yi int) bitset {
	if len(xs) == 0 || len(ys) == 0 {
		return s.bitset()
	}
	xSize, ySize := bits.OnesCount32(xs[0]), bits.OnesCount32(ys[0])
	// When one side may be any set of its size (an opponent who has
	// answered nothing yet, as for most seats over the first moves), the
	// unions are the sets of xSize+ySize tiles that hold a member of the
	// other side: what such a union leaves beside that member is some
	// set of the free side's size. A closure then does what would take
	// three transforms.
	if len(xs) == binom(s.poolBits, xSize) {
		return s.ofSize(ySet.superClosure(s.buf), xSize+ySize)
	}
	if len(ys) == binom(s.poolBits, ySize) {
		return s.ofSize(xSet.superClosure(s.buf), xSize+ySize)
	}
	// Rough costs in nanoseconds on the 2-core server, from timing each
	// way on the same lists (CPU time, beside other work): a bucketed pair
	// ½, a word step 2, a transform over 2^15 sets 100 µs.
	byPairs := len(xs) * len(ys) / 2
	xSteps, ySteps := s.wordSteps(xs), s.wordSteps(ys)
	byWords := 2 * min(xSteps, ySteps)
	transforms := 1
	if xi < 0 || s.zetas[xi] == nil {
		transforms++
	}
	if yi < 0 || s.zetas[yi] == nil {
		transforms++
	}
	byTransform := transforms * 100_000 << (s.poolBits - 15)
	switch {
	case byPairs <= byWords && byPairs <= byTransform:
		return s.unionsByPairs(xs, ys)
	case byWords <= byTransform:
		if xSteps <= ySteps {
			return s.unionsByWords(xs, ySet)
		}
		return s.unionsByWords(ys, xSet)
	}
	return s.unionsByTransform(xs, ys, xi, yi)
}

// ofSize keeps the sets of b that hold exactly size tiles, in place: the
// tile bits that index a word give each word's sets one count of high
// tiles, and lowSizes picks the low parts that make up the rest.
func (s *aidSolver) ofSize(b bitset, size int) bitset {
	for w := range b {
		if low := size - bits.OnesCount(uint(w)); low >= 0 && low < len(lowSizes) {
			b[w] &= lowSizes[low]
		} else {
			b[w] = 0
		}
	}
	return b
}

// unionsByWords is unions by pairing each x with ySet a word at a time:
// the 64 sets of a word share their high tiles (the word's index) and
// differ in their low six, so the ys beside x are, in each word whose
// index avoids x's high tiles, the bits whose low parts avoid x's low
// tiles (lowFree); and as those low parts are disjoint from x's, adding
// x's low part to each is one shift of the word, into the word of the
// union of the high parts. Each x costs one step per word beside it,
// 2^(high tiles it leaves free), whatever the lengths of the lists.
func (s *aidSolver) unionsByWords(xs []uint32, ySet bitset) bitset {
	out := s.bitset()
	high := uint32(len(ySet) - 1) // every high tile bit
	for _, x := range xs {
		lo, hi := x&63, x>>6
		keep := lowFree[lo]
		free := high &^ hi
		for w := free; ; w = (w - 1) & free {
			out[w|hi] |= (ySet[w] & keep) << lo
			if w == 0 {
				break
			}
		}
	}
	return out
}

// wordSteps is what unionsByWords(xs, …) costs, in steps.
func (s *aidSolver) wordSteps(xs []uint32) int {
	hb := max(0, s.poolBits-6)
	steps := 0
	for _, x := range xs {
		steps += 1 << (hb - bits.OnesCount32(x>>6))
	}
	return steps
}

// lowFree[l] has bit k set for every 6-bit low part k disjoint from l.
var lowFree = func() (free [64]uint64) {
	for l := range 64 {
		for k := range 64 {
			if l&k == 0 {
				free[l] |= 1 << k
			}
		}
	}
	return
}()

// unionsByPairs is unions by trying pairs. Long lists are bucketed by
// their low tile bits first, so each x only meets the ys that avoid its own
// low tiles (about a third of them).
func (s *aidSolver) unionsByPairs(xs, ys []uint32) bitset {
	out := s.bitset()
	if len(ys) < len(xs) {
		xs, ys = ys, xs
	}
	if len(ys) < 256 {
		for _, x := range xs {
			for _, y := range ys {
				if x&y == 0 {
					out.set(x | y)
				}
			}
		}
		return out
	}
	const keyBits = 8
	const keys = 1 << keyBits
	var start [keys + 1]int32
	for _, y := range ys {
		start[y&(keys-1)+1]++
	}
	for k := range keys {
		start[k+1] += start[k]
	}
	next := start
	sorted := make([]uint32, len(ys))
	for _, y := range ys {
		k := y & (keys - 1)
		sorted[next[k]] = y
		next[k]++
	}
	for _, x := range xs {
		free := ^x & (keys - 1)
		for k := free; ; k = (k - 1) & free {
			for _, y := range sorted[start[k]:start[k+1]] {
				if x&y == 0 {
					out.set(x | y)
				}
			}
			if k == 0 {
				break
			}
		}
	}
	return out
}

// unionsByTransform is unions through subset transforms; xs and ys must
// be non-empty and each hold sets of one size.
//
// Counting the ways to write each set as x ∪ y (zeta of each indicator,
// product, Möbius) needs no signs: after Möbius over the first i tile bits,
// every entry is a sum of such counts, so it never falls below zero nor
// rises above the product it started from. The zetas count at most
// 12,870 sets and the products stay below 2^32, so the transforms run as
// plain integer adds on several lanes per 64-bit word: four 16-bit lanes
// for the zetas, two 32-bit lanes for the rest.
func (s *aidSolver) unionsByTransform(xs, ys []uint32, xi, yi int) bitset {
	size := bits.OnesCount32(xs[0]) + bits.OnesCount32(ys[0])
	zx, zy := s.zetaOf(xs, xi), s.zetaOf(ys, yi)
	if s.product == nil {
		s.product = dirtyU64(s.buf, len(zx)*2) // two 32-bit lanes: sets 2w and 2w+1
	}
	g := s.product // every word is written below
	for w := range zx {
		x, y := zx[w], zy[w]
		lane := func(k uint) uint64 { return (x >> (16 * k) & 0xffff) * (y >> (16 * k) & 0xffff) }
		g[2*w] = lane(0) | lane(1)<<32
		g[2*w+1] = lane(2) | lane(3)<<32
	}
	mobius32x2(g)
	out := s.bitset()
	// Every set of size tiles, by Gosper's hack (local sets are plain bit patterns).
	for m := uint32(1)<<size - 1; m <= s.full; m = nextSubset(m) {
		if g[m>>1]>>(32*(m&1))&0xffffffff != 0 {
			out.set(m)
		}
	}
	return out
}

// zetaOf returns the zeta transform of list's indicator in four 16-bit
// lanes a word (set m in lane m&3 of word m>>2), cached for opponent lists.
func (s *aidSolver) zetaOf(list []uint32, cache int) []uint64 {
	if cache >= 0 && s.zetas[cache] != nil {
		return s.zetas[cache]
	}
	f := zeroU64(s.buf, max(1, (1<<s.poolBits)/4))
	for _, m := range list {
		f[m>>2] |= 1 << (16 * (m & 3))
	}
	zeta16x4(f)
	if cache >= 0 {
		s.zetas[cache] = f
	}
	return f
}

// zeta16x4 replaces f (four 16-bit lanes a word) by its sums over subsets;
// no sum may exceed 65,535.
func zeta16x4(f []uint64) {
	for w := range f {
		x := f[w]
		x += (x & 0x0000ffff0000ffff) << 16 // tile bit 0: lanes 1 and 3 take 0 and 2
		x += x << 32                        // tile bit 1: lanes 2 and 3 take 0 and 1
		f[w] = x
	}
	addWords(f)
}

// mobius32x2 inverts the zeta transform on f (two 32-bit lanes a word),
// given that every partial result stays within 0 and 2^32-1 (see
// unionsByTransform).
func mobius32x2(f []uint64) {
	for w := range f {
		f[w] -= (f[w] & 0xffffffff) << 32 // tile bit 0: lane 1 gives back lane 0
	}
	subWords(f)
}
