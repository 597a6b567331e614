package rulelang

import (
	"errors"
	"fmt"
)

// Limits of exact exploration. Rules from the games stay far below them; a
// hostile rule that would need more is refused with ErrTooComplex instead of
// eating the server.
const (
	maxPositions = 4096    // representatives of n (threshold + period)
	maxStates    = 1 << 20 // joint states visited
	maxSteps     = 1 << 24 // (state, candidate) pairs examined: a second or so of work
)

// ErrTooComplex is returned when a rule's state space is too large to
// explore exactly (for instance n compared with many different moduli).
var ErrTooComplex = errors.New("rulelang: the rule is too complex to compare exactly")

// noCard marks a slot of the line that does not exist yet.
const noCard = 0xFF

// explorer walks the states that lines built by the given rules can reach.
// A state is the position n (reduced to a representative once the rules no
// longer tell positions apart) and the last k cards of the line, each
// reduced to a canonical card that agrees with it on every attribute any
// rule reads from that slot or later ones.
type explorer struct {
	rules []*Rule
	univ  []Card
	k     int // cards of lookback kept in the state
	last  int // largest representative of n; after it comes first
	first int // the representative that follows last
	canon [4][]uint8
	judge []uint8 // per card: the first card the rules cannot tell from it as a candidate
	cands []uint8 // distinct canonical candidates
	mult  []int   // how many universe cards each candidate stands for
}

func newExplorer(rules []*Rule, univ []Card) (*explorer, error) {
	if len(univ) == 0 || len(univ) >= noCard {
		return nil, fmt.Errorf("rulelang: a universe of %d cards cannot be explored", len(univ))
	}
	x := &explorer{rules: rules, univ: univ}
	threshold, period := 0, 1
	var read [4]uint8
	for _, r := range rules {
		x.k = max(x.k, r.shape.lookback)
		threshold = max(threshold, r.shape.threshold)
		period = lcm(period, r.shape.period)
		if period > maxPositions {
			return nil, ErrTooComplex
		}
		for s := range read {
			read[s] |= r.shape.read[s]
		}
	}
	threshold = max(threshold, x.k)
	if threshold+period > maxPositions {
		return nil, ErrTooComplex
	}
	// Positions 1..threshold are exact; threshold+1..threshold+period stand
	// for every later position with the same remainder modulo period.
	x.last, x.first = threshold+period, threshold+1
	// What a card in slot s must keep: what is read from it there or in any
	// later slot it will move to.
	var keep [4]uint8
	for s := 3; s >= 0; s-- {
		keep[s] = read[s]
		if s < 3 {
			keep[s] |= keep[s+1]
		}
	}
	for s := range keep {
		x.canon[s] = canonicalise(univ, keep[s])
	}
	// Judging a candidate needs only what is read from the candidate slot;
	// candidates that agree there share one judgement per state.
	x.judge = canonicalise(univ, read[0])
	count := map[uint8]int{}
	for i := range univ {
		c := x.canon[0][i]
		if count[c] == 0 {
			x.cands = append(x.cands, c)
		}
		count[c]++
	}
	x.mult = make([]int, len(x.cands))
	for i, c := range x.cands {
		x.mult[i] = count[c]
	}
	return x, nil
}

// canonicalise maps every card to the first card of the universe that agrees
// with it on the attributes in mask.
func canonicalise(univ []Card, mask uint8) []uint8 {
	out := make([]uint8, len(univ))
	firstOf := map[Card]uint8{}
	for i, c := range univ {
		var p Card
		for a := range MaxAttributes {
			if mask&(1<<uint(a)) != 0 {
				p[a] = c[a]
			}
		}
		j, ok := firstOf[p]
		if !ok {
			j = uint8(i)
			firstOf[p] = j
		}
		out[i] = j
	}
	return out
}

// state is one point of the exploration.
type state struct {
	n     int
	slots [3]uint8 // canonical indexes of prev, prev2, prev3 (noCard when absent)
}

func (s state) key() uint64 {
	return uint64(s.n)<<24 | uint64(s.slots[0])<<16 | uint64(s.slots[1])<<8 | uint64(s.slots[2])
}

func (x *explorer) start() state {
	return state{n: 1, slots: [3]uint8{noCard, noCard, noCard}}
}

// env fills e for judging a candidate in state s.
func (x *explorer) env(s state, e *env) {
	e.n = s.n
	e.have = 0
	for i := 0; i < x.k && s.slots[i] != noCard; i++ {
		e.cards[i+1] = x.univ[s.slots[i]]
		e.have = i + 1
	}
}

// after is the state once candidate c (a canonical index) joins the line.
func (x *explorer) after(s state, c uint8) state {
	t := state{n: s.n + 1, slots: [3]uint8{noCard, noCard, noCard}}
	if s.n >= x.last {
		t.n = x.first
	}
	if x.k >= 1 {
		t.slots[0] = x.canon[1][c]
	}
	for i := 1; i < x.k; i++ {
		if p := s.slots[i-1]; p != noCard {
			t.slots[i] = x.canon[i+1][p]
		}
	}
	return t
}

// visit is one explored state and how it was reached.
type visit struct {
	st     state
	parent int32 // index of the previous visit, -1 for the start
	card   uint8 // the card played to get here
}

// line rebuilds the line of cards that leads to visit i.
func (x *explorer) line(visits []visit, i int32) []Card {
	var rev []Card
	for ; visits[i].parent >= 0; i = visits[i].parent {
		rev = append(rev, x.univ[visits[i].card])
	}
	out := make([]Card, len(rev))
	for j := range rev {
		out[j] = rev[len(rev)-1-j]
	}
	return out
}

// Counterexample is a line valid under both rules and a card that one rule
// accepts after it while the other rejects it.
type Counterexample struct {
	Line         []Card // oldest card first; valid under both rules
	Card         Card
	FirstAccepts bool // true: the first rule accepts Card and the second rejects it
}

// Equivalent decides exactly whether two rules accept the same cards after
// every line they can build, over the attributes' whole universe. When they
// differ it returns a shortest counterexample. Rules that differ only after
// lines that can never be built are equivalent.
func Equivalent(a, b *Rule) (bool, *Counterexample, error) {
	return EquivalentOver(a, b, a.as.universe)
}

// EquivalentOver is Equivalent over a chosen set of cards (for instance the
// ends actually printed in a deck). The set must be non-empty and hold fewer
// than 255 cards.
func EquivalentOver(a, b *Rule, univ []Card) (bool, *Counterexample, error) {
	if a.as.game != b.as.game || a.as.Len() != b.as.Len() {
		return false, nil, fmt.Errorf("rulelang: cannot compare a %s rule with a %s rule", a.as.game, b.as.game)
	}
	x, err := newExplorer([]*Rule{a, b}, univ)
	if err != nil {
		return false, nil, err
	}
	visits := []visit{{st: x.start(), parent: -1}}
	seen := x.newIndex()
	seen.add(visits[0].st, 0)
	var e env
	// memo caches, per judged card in the current state, both judgements.
	const judged, acceptsA, acceptsB = 1, 2, 4
	memo := make([]uint8, len(univ))
	work := 0
	for i := 0; i < len(visits); i++ {
		s := visits[i].st
		if work += len(x.cands); work > maxSteps {
			return false, nil, ErrTooComplex
		}
		x.env(s, &e)
		clear(memo)
		for _, c := range x.cands {
			j := x.judge[c]
			m := memo[j]
			if m == 0 {
				e.cards[0] = x.univ[j]
				m = judged
				if a.eval(&e) != False {
					m |= acceptsA
				}
				if b.eval(&e) != False {
					m |= acceptsB
				}
				memo[j] = m
			}
			ta, tb := m&acceptsA != 0, m&acceptsB != 0
			if ta != tb {
				return false, &Counterexample{Line: x.line(visits, int32(i)), Card: x.univ[c], FirstAccepts: ta}, nil
			}
			if !ta {
				continue
			}
			t := x.after(s, c)
			if _, ok := seen.lookup(t); ok {
				continue
			}
			if len(visits) >= maxStates {
				return false, nil, ErrTooComplex
			}
			seen.add(t, int32(len(visits)))
			visits = append(visits, visit{st: t, parent: int32(i), card: c})
		}
	}
	return true, nil, nil
}

// maxDenseIndex is the largest state space indexed by a flat slice; larger
// ones fall back to a map.
const maxDenseIndex = 1 << 21

// stateIndex remembers which states have been visited, and where.
type stateIndex struct {
	dense  []int32 // visit index + 1; 0 for unvisited
	sparse map[uint64]int32
	class  [3][]int // per slot: canonical card index → class number from 1 (0: no card)
	stride [3]int
}

func (x *explorer) newIndex() *stateIndex {
	ix := &stateIndex{}
	size := x.last
	for s := 0; s < x.k; s++ {
		ix.class[s] = make([]int, noCard+1)
		n := 0
		for i, c := range x.canon[s+1] {
			if int(c) == i {
				n++
				ix.class[s][i] = n
			}
		}
		ix.stride[s] = n + 1
		size *= n + 1
		if size > maxDenseIndex {
			ix.sparse = map[uint64]int32{}
			return ix
		}
	}
	ix.dense = make([]int32, size)
	return ix
}

func (ix *stateIndex) slot(st state) int {
	p := st.n - 1
	for s, stride := range ix.stride {
		if stride == 0 {
			break
		}
		c := 0
		if st.slots[s] != noCard {
			c = ix.class[s][st.slots[s]]
		}
		p = p*stride + c
	}
	return p
}

// lookup returns the visit index of st, if it was visited.
func (ix *stateIndex) lookup(st state) (int32, bool) {
	if ix.sparse != nil {
		v, ok := ix.sparse[st.key()]
		return v, ok
	}
	v := ix.dense[ix.slot(st)]
	return v - 1, v != 0
}

// add records that st is visit i.
func (ix *stateIndex) add(st state, i int32) {
	if ix.sparse != nil {
		ix.sparse[st.key()] = i
		return
	}
	ix.dense[ix.slot(st)] = i + 1
}
