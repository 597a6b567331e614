package coding

import (
	"slices"

	"github.com/codebreakers/codebreakers/engine"
)

// knowledge is what one viewer can deduce about every other seat's code
// from a View: the public facts (Data cards, announcements, Hack answers,
// shown cards, wrong decodes, face-up extras) plus the viewer's own code.
type knowledge struct {
	me    int
	cands [][]Code // per seat: the codes still possible, nil for the viewer
}

// allCodes lists every possible code, letters then X1 then X2 ascending.
func allCodes() []Code {
	out := make([]Code, 0, Letters*Digits*(Digits-1))
	for l := range Letters {
		for a := range Digits {
			for b := range Digits {
				if a != b {
					out = append(out, Code{Letter: l, X1: a, X2: b})
				}
			}
		}
	}
	return out
}

// fits reports whether c agrees with every public fact about sv.
func fits(c Code, sv *SeatView) bool {
	for p := range 3 {
		if sv.Known[p] >= 0 && c.At(p) != sv.Known[p] {
			return false
		}
	}
	for _, k := range sv.Data {
		if inDataRange(k, c) {
			return false
		}
	}
	for _, nd := range sv.NoData {
		for _, k := range nd.Kinds {
			if !inDataRange(k, c) {
				return false
			}
		}
	}
	for _, h := range sv.Hacks {
		if Hack(h.Card).Green(c) != h.Green {
			return false
		}
	}
	for _, g := range sv.Wrong {
		if g.Code == c {
			return false
		}
	}
	return true
}

// publicCandidates lists the codes that fit sv and use none of the cards
// in excluded.
func publicCandidates(sv *SeatView, excluded uint16) []Code {
	var out []Code
	for _, c := range allCodes() {
		if c.mask()&excluded == 0 && fits(c, sv) {
			out = append(out, c)
		}
	}
	return out
}

// newKnowledge deduces, for the seat viewing v, every other seat's
// possible codes. A code stays only if the other seats can at the same time
// hold codes that fit their facts with no card shared (an exact joint
// check, not just a per-seat filter).
func newKnowledge(v View) *knowledge {
	me := -1
	if v.Viewer.Kind == engine.ViewerSeat {
		me = int(v.Viewer.Seat)
	}
	var excluded uint16
	if v.Code != nil {
		excluded |= v.Code.mask()
	}
	for _, e := range v.Extras {
		excluded |= 1 << e
	}
	k := &knowledge{me: me, cands: make([][]Code, len(v.Seats))}
	var seats []int
	for i := range v.Seats {
		if i != me {
			k.cands[i] = publicCandidates(&v.Seats[i], excluded)
			seats = append(seats, i)
		}
	}
	k.prune(seats)
	return k
}

// prune keeps each seat's candidates that extend to a joint assignment.
func (k *knowledge) prune(seats []int) {
	if len(seats) < 2 {
		return
	}
	masks := make(map[int][]uint16, len(seats))
	for _, i := range seats {
		var ms []uint16
		for _, c := range k.cands[i] {
			ms = append(ms, c.mask())
		}
		slices.Sort(ms)
		masks[i] = slices.Compact(ms)
	}
	seen := make([]bool, 1<<CodeCards)
	kept := make([][]Code, len(k.cands))
	for _, i := range seats {
		// Every union of disjoint codes the other seats may hold together.
		unions := []uint16{0}
		for _, j := range seats {
			if j == i {
				continue
			}
			var next []uint16
			for _, u := range unions {
				for _, m := range masks[j] {
					if u&m == 0 && !seen[u|m] {
						seen[u|m] = true
						next = append(next, u|m)
					}
				}
			}
			for _, u := range next {
				seen[u] = false
			}
			unions = next
		}
		ok := map[uint16]bool{}
		for _, m := range masks[i] {
			for _, u := range unions {
				if u&m == 0 {
					ok[m] = true
					break
				}
			}
		}
		for _, c := range k.cands[i] {
			if ok[c.mask()] {
				kept[i] = append(kept[i], c)
			}
		}
	}
	for _, i := range seats {
		k.cands[i] = kept[i]
	}
}

// sheet is seat i's crack sheet: per position, the values still possible.
func (k *knowledge) sheet(i int) [3]uint16 {
	var sh [3]uint16
	for _, c := range k.cands[i] {
		for p := range 3 {
			sh[p] |= 1 << c.At(p)
		}
	}
	return sh
}
