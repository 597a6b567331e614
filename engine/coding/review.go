package coding

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/analysis"
)

// Analyze reviews a finished game (analysis.Analyzer). Every hacking turn
// (a Data card and a Hack card sent) and every decode is judged from the
// mover's seat view just before it:
//
//   - The possibilities are the joint codes of every other seat that agree
//     with all the mover can see (the public table and their own code): no
//     two seats share a card, and each such assignment counts once, as the
//     deal and the digit orders are unknown. Before and After count the
//     codes the Hack card's recipient may still have (a decode: its target).
//   - Bits is log2 of how many assignments there were before the answer
//     over how many were left after it: the surprisal of green or red.
//   - The options are every face-up Hack card sent to every player the
//     mover could send it to; a Hack card's expected bits is the entropy of
//     green against red under those assignments (at most 1 bit).
//   - Gave is what the Data card told someone who sees only the public
//     table about the mover's code (−log2 of the chance they gave the fact),
//     and LeastGave the least any Data card open to the mover would have
//     told; with none open, the announcement that none can be taken.
//   - A decode is not scored: its Chance is the share of the assignments in
//     which the target holds the named code, BestChance the largest share
//     of any code of any player still in.
func (g Game) Analyze(rec engine.Record, b *analysis.Budget) (analysis.Report, error) {
	st, _, err := engine.StartRecord(g, rec)
	if err != nil {
		return analysis.Report{}, fmt.Errorf("coding analysis: %w", err)
	}
	if b == nil {
		b = analysis.NewBudget(1<<63 - 1)
	}
	steps, cut, err := review(st, rec.Moves, b)
	if err != nil {
		return analysis.Report{}, err
	}
	return analysis.Report{Game: ID, Version: analysis.Version, Steps: steps,
		Summaries: analysis.Summarize(steps, rec.Players), Cut: cut, Work: b.Spent()}, nil
}

// review replays moves on st and analyses every hacking turn and decode.
func review(st engine.State, moves []engine.Move, b *analysis.Budget) ([]analysis.Step, bool, error) {
	var steps []analysis.Step
	cut := false
	slot := make([]int32, 1<<CodeCards) // weigh's scratch, shared by every step
	err := analysis.WalkState(st, moves, func(t analysis.Turn) error {
		if cut || t.Before == nil {
			return nil
		}
		var a Action
		if err := json.Unmarshal(t.Move.Action, &a); err != nil {
			return fmt.Errorf("coding analysis: move %d: %w", t.Index+1, err)
		}
		if a.Play == nil && a.Decode == nil {
			return nil
		}
		before, err := engine.ViewAs[View](t.Before)
		if err != nil {
			return err
		}
		after, err := engine.ViewAs[View](t.View(t.Move.Seat))
		if err != nil {
			return err
		}
		var step analysis.Step
		var ok bool
		if a.Play != nil {
			step, ok = hackStep(before, after, *a.Play, b, slot)
		} else {
			step, ok = decodeStep(before, after, *a.Decode, b, slot)
		}
		if !ok {
			cut = true
			return nil
		}
		step.Move, step.Seat = t.Index, t.Move.Seat
		steps = append(steps, step)
		return nil
	})
	return steps, cut, err
}

// jointCodes weighs every code of every seat by the joint assignments it
// belongs to: the codes of all the seats counted, pairwise disjoint.
type jointCodes struct {
	cands  [][]Code    // per seat; nil for seats not counted
	weight [][]float64 // per seat, per candidate: assignments holding it
	total  float64     // every assignment
	work   int64
}

// weigh counts the joint assignments over cands (seats with nil lists are
// left out) and weighs the codes of the seats for which want is true.
// Codes with the same card set weigh the same, so the work is done on card
// sets. Every weight is a whole number below 2^53, so float sums are exact
// in any order.
func weigh(cands [][]Code, want func(seat int) bool, slot []int32) jointCodes {
	j := jointCodes{cands: cands, weight: make([][]float64, len(cands))}
	type set struct {
		mask uint16
		n    float64 // codes with this card set
	}
	sets := make([][]set, len(cands))
	var seats []int
	for i, cs := range cands {
		if cs == nil {
			continue
		}
		seats = append(seats, i)
		count := map[uint16]float64{}
		for _, c := range cs {
			count[c.mask()]++
		}
		for m, n := range count {
			sets[i] = append(sets[i], set{m, n})
		}
	}
	// slot[u] is u's place in the union lists being built, plus one (all
	// zero between uses).
	counted := false
	for _, i := range seats {
		if !want(i) && (counted || i != seats[len(seats)-1]) {
			continue // the total needs one seat weighed; the last one will do
		}
		// Every union of the other seats' disjoint sets, with its number of assignments.
		keys, vals := []uint16{0}, []float64{1}
		for _, o := range seats {
			if o == i {
				continue
			}
			var nk []uint16
			var nv []float64
			for x, u := range keys {
				for _, st := range sets[o] {
					if u&st.mask != 0 {
						continue
					}
					v := u | st.mask
					if slot[v] == 0 {
						nk = append(nk, v)
						nv = append(nv, 0)
						slot[v] = int32(len(nk))
					}
					nv[slot[v]-1] += vals[x] * st.n
				}
			}
			j.work += int64(len(keys) * len(sets[o]))
			for _, v := range nk {
				slot[v] = 0
			}
			keys, vals = nk, nv
		}
		per := make(map[uint16]float64, len(sets[i]))
		for _, st := range sets[i] {
			w := 0.0
			for x, u := range keys {
				if u&st.mask == 0 {
					w += vals[x]
				}
			}
			per[st.mask] = w
		}
		j.work += int64(len(keys) * len(sets[i]))
		j.weight[i] = make([]float64, len(cands[i]))
		for e, c := range cands[i] {
			j.weight[i][e] = per[c.mask()]
		}
		if !counted {
			counted = true
			for _, w := range j.weight[i] {
				j.total += w
			}
		}
	}
	return j
}

// candidates lists, per seat, the codes that fit its public facts and use
// no card the viewer of v holds or sees face up (nil for the viewer). It is
// newKnowledge without the joint pruning: weigh gives the codes that fit no
// joint assignment no weight.
func candidates(v View) [][]Code {
	var excluded uint16
	if v.Code != nil {
		excluded |= v.Code.mask()
	}
	for _, e := range v.Extras {
		excluded |= 1 << e
	}
	out := make([][]Code, len(v.Seats))
	for i := range v.Seats {
		if v.Viewer.Kind != engine.ViewerSeat || i != int(v.Viewer.Seat) {
			out[i] = publicCandidates(&v.Seats[i], excluded)
		}
	}
	return out
}

// viewerJoint weighs the other seats' codes as the seat viewing v may.
func viewerJoint(v View, slot []int32) jointCodes {
	return weigh(candidates(v), func(int) bool { return true }, slot)
}

// publicJoint weighs every seat's codes as someone who sees only the public
// part of v would: v's own code is left out.
func publicJoint(v View, slot []int32) jointCodes {
	pub := v
	pub.Code = nil
	pub.Viewer = engine.Spectator()
	pub.Seats = slices.Clone(v.Seats)
	for i := range pub.Seats {
		for p := range 3 {
			if !pub.Seats[i].Revealed[p] {
				pub.Seats[i].Known[p] = -1
			}
		}
	}
	me := int(v.Viewer.Seat)
	return weigh(candidates(pub), func(seat int) bool { return seat == me }, slot)
}

// possible counts a seat's codes that still have weight.
func (j jointCodes) possible(seat int) int {
	n := 0
	for _, w := range j.weight[seat] {
		if w > 0 {
			n++
		}
	}
	return n
}

// share is the weight of seat's codes for which keep holds, over the total.
func (j jointCodes) share(seat int, keep func(Code) bool) float64 {
	if j.total <= 0 || seat < 0 || seat >= len(j.cands) {
		return 0
	}
	w := 0.0
	for e, c := range j.cands[seat] {
		if keep(c) {
			w += j.weight[seat][e]
		}
	}
	return w / j.total
}

func knewCoding(v View, j jointCodes) string {
	var parts []string
	for i, sv := range v.Seats {
		if engine.Seat(i) == v.Viewer.Seat || sv.Out {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %d", sv.Name, j.possible(i)))
	}
	return fmt.Sprintf("codes possible: %s (%d joint assignments)", strings.Join(parts, ", "), int64(j.total))
}

// hackStep analyses a hacking turn played from the view before.
func hackStep(before, after View, m PlayMove, b *analysis.Budget, slot []int32) (analysis.Step, bool) {
	me := int(before.Viewer.Seat)
	jb := viewerJoint(before, slot)
	if !b.Spend(jb.work) {
		return analysis.Step{}, false
	}
	h := Hack(m.Hack)
	to := before.Seats[m.To].Name
	step := analysis.Step{
		Kind:   "hack",
		Text:   fmt.Sprintf("sent %q to %s", h.Label(), to),
		Knew:   knewCoding(before, jb),
		Unit:   "codes of " + to,
		Before: jb.possible(int(m.To)),
	}
	data := -1
	if m.Data != nil {
		data = *m.Data
	}
	for _, r := range before.Recipients {
		for _, id := range before.HackLine {
			card := Hack(id)
			bitsOf := analysis.Binary(jb.share(int(r), card.Green))
			step.Options = append(step.Options, analysis.Option{
				Label:  fmt.Sprintf("%q to %s", card.Label(), before.Seats[r].Name),
				Action: PlayAction(data, id, r),
				Bits:   bitsOf,
			})
			if r == m.To && id == m.Hack {
				step.Expected = bitsOf
			}
		}
	}
	best := analysis.Rank(step.Options)
	step.Best, step.BestMove = best.Bits, best.Label
	step.Scored = step.Best > 0
	ja := viewerJoint(after, slot)
	if !b.Spend(ja.work) {
		return analysis.Step{}, false
	}
	step.After = ja.possible(int(m.To))
	step.Bits = analysis.Surprisal(jb.total, ja.total)
	// What the Data card (or the announcement) gave away, against what the
	// least telling choice would have.
	pub := publicJoint(before, slot)
	if !b.Spend(pub.work) {
		return analysis.Step{}, false
	}
	leak := func(keep func(Code) bool) float64 {
		p := pub.share(me, keep)
		if p <= 0 {
			return 0
		}
		return analysis.Surprisal(1, p)
	}
	notIn := func(k int) func(Code) bool { return func(c Code) bool { return !inDataRange(k, c) } }
	switch {
	case m.Data != nil:
		step.Gave = leak(notIn(*m.Data))
		step.LeastGave = step.Gave
		for _, k := range before.Takeable {
			step.LeastGave = min(step.LeastGave, leak(notIn(k)))
		}
	default:
		// "None can be taken": the code lies in every kind still on the table
		// that the mover does not hold (nothing, if none is left).
		var kinds []int
		for k, left := range before.DataField {
			if left > 0 && !slices.Contains(before.Seats[me].Data, k) {
				kinds = append(kinds, k)
			}
		}
		step.Gave = leak(func(c Code) bool {
			for _, k := range kinds {
				if !inDataRange(k, c) {
					return false
				}
			}
			return true
		})
		step.LeastGave = step.Gave
	}
	return step, true
}

// decodeStep analyses naming a player's code (a decode, or the answer
// after a tap) from the view before.
func decodeStep(before, after View, m DecodeMove, b *analysis.Budget, slot []int32) (analysis.Step, bool) {
	jb := viewerJoint(before, slot)
	if !b.Spend(jb.work) {
		return analysis.Step{}, false
	}
	c, err := ParseCode(m.Code)
	target := int(m.Target)
	if target < 0 || target >= len(before.Seats) {
		return analysis.Step{}, true
	}
	name := before.Seats[target].Name
	step := analysis.Step{
		Kind:   "guess",
		Text:   fmt.Sprintf("named %s's code: %s", name, strings.ToUpper(m.Code)),
		Knew:   knewCoding(before, jb),
		Unit:   "codes of " + name,
		Before: jb.possible(target),
		After:  jb.possible(target),
	}
	if err == nil {
		step.Chance = analysis.Clean(jb.share(target, func(x Code) bool { return x == c }))
	}
	for i, cs := range jb.cands {
		if cs == nil || before.Seats[i].Out {
			continue
		}
		for e, x := range cs {
			if p := jb.weight[i][e] / jb.total; p > step.BestChance+1e-12 {
				step.BestChance = analysis.Clean(p)
				step.BestMove = fmt.Sprintf("name %s's code %s", before.Seats[i].Name, x)
			}
		}
	}
	step.Expected = analysis.Binary(step.Chance)
	// A wrong decode is recorded against its target; a right one is not.
	right := len(after.Seats[target].Wrong) == len(before.Seats[target].Wrong)
	switch {
	case right:
		step.After = 1
		step.Bits = analysis.Surprisal(1, step.Chance)
	case step.Chance > 0:
		step.After = step.Before - 1
		step.Bits = analysis.Surprisal(1, 1-step.Chance)
	}
	return step, true
}
