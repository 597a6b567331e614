package breakcode

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/analysis"
	"github.com/codebreakers/codebreakers/engine/words"
)

// Analyze reviews a finished game (analysis.Analyzer). Each question and
// each guess is judged from the asker's seat view just before it, as the
// strong bot would see it:
//
//   - The possibilities are the deals of the tiles the asker cannot see
//     that agree with every answer they heard (and, with 2 players, none of
//     their wrong guesses), each physical deal counting once, so a hand
//     holding one of two unseen green 5s counts twice. Before and After
//     count the distinct hands the asker must name: the opponent's (2
//     players) or the centre's (3–4), as the aid does.
//   - Bits is log2 of how many deals there were before the answers over how
//     many were left after: the surprisal of the answers heard.
//   - The options are every question on the face-up cards, each number of
//     cards 18–21 apart. A question's expected bits is the entropy of the
//     answers it would draw from everyone who answers (with 3–4 players, of
//     all the answers together over every deal, not answer by answer). With
//     4 players a count past the budget (see stepWork4) falls back to the
//     sum of each answer's entropy under its exact marginal, an upper
//     bound, and the step says so (Approx).
//   - A guess is not scored: its Chance is the weight of the guessed hand
//     among the deals, BestChance that of the likeliest. With 2 players a
//     wrong guess rules a hand out, and its Bits say how much.
func (g Game) Analyze(rec engine.Record, b *analysis.Budget) (analysis.Report, error) {
	st, _, err := engine.StartRecord(g, rec)
	if err != nil {
		return analysis.Report{}, fmt.Errorf("breakcode analysis: %w", err)
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

// stepWork4 bounds the deal visits (deals times questions, plus the pairs
// of hands tried) of one exact 4-player question count. The first question
// of a 4-player game, over all 63,063,000 deals, is always past it.
const stepWork4 = 40_000_000

// review replays moves on st and analyses every question and guess.
func review(st engine.State, moves []engine.Move, b *analysis.Budget) ([]analysis.Step, bool, error) {
	if s, ok := st.(*state); ok {
		st = withoutAid{s}
	}
	var steps []analysis.Step
	cut := false
	err := analysis.WalkState(st, moves, func(t analysis.Turn) error {
		if cut || t.Before == nil {
			return nil
		}
		var a Action
		if err := json.Unmarshal(t.Move.Action, &a); err != nil {
			return fmt.Errorf("breakcode analysis: move %d: %w", t.Index+1, err)
		}
		before, err := engine.ViewAs[View](t.Before)
		if err != nil {
			return err
		}
		var step analysis.Step
		var ok bool
		switch {
		case a.Ask != nil:
			after, err := engine.ViewAs[View](t.View(t.Move.Seat))
			if err != nil {
				return err
			}
			step, ok = askStep(before, after, *a.Ask, b)
		case a.Guess != nil:
			after, err := engine.ViewAs[View](t.View(t.Move.Seat))
			if err != nil {
				return err
			}
			step, ok = guessStep(before, after, a.Guess.Tiles, b)
		default:
			return nil
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

// withoutAid is a game replayed for review: its seat views leave the aid
// out, as a bot's do. The review counts deals its own way (beliefOf) and
// reads no aid, which would otherwise be worked out again for the mover
// before and after every move of the game.
type withoutAid struct{ *state }

func (w withoutAid) View(v engine.Viewer) any { return w.viewAid(v, false) }

// seatBelief is what one seat's view lets it deduce, with the totals the
// analysis reads.
type seatBelief struct {
	k     *knowledge
	bel   belief
	deals float64 // every deal still possible
}

// beliefOf builds the belief of the seat viewing v, its large tables lent
// by buf (nil: allocated) for as long as buf lends them.
func beliefOf(v View, buf *scratch) seatBelief {
	k := newKnowledgeIn(v, buf)
	bel := k.belief()
	sb := seatBelief{k: k, bel: bel}
	if len(bel.opp) > 0 {
		for _, w := range bel.opp[0] {
			sb.deals += w
		}
	}
	return sb
}

// work is a rough count of the hands a belief visits, charged to the budget.
func (sb seatBelief) work(questions int) int64 {
	w := int64(0)
	for _, l := range sb.k.ok {
		w += int64(len(l))
	}
	return w * int64(questions+2)
}

// targets counts the distinct hands the seat must name.
func (sb seatBelief) targets() int { return sb.bel.target.len() }

// unit names what targets counts.
func unitOf(v View) string {
	if v.Players == 2 {
		return "hands"
	}
	return "centre sets"
}

// knew says in a few words what the seat could know. It counts each
// opponent's hands only here, where they are said (3–4 players): the
// belief after a question needs none.
func knew(v View, sb seatBelief) string {
	heard := words.Count(notesHeard(v), "answer", "answers") + " heard"
	if v.Players == 2 {
		return fmt.Sprintf("%s may hold %s (%s)", v.Seats[1-v.Viewer.Seat].Name,
			words.Count(sb.targets(), "hand", "hands"), heard)
	}
	counts := sb.k.countsFrom(sb.bel)
	var parts []string
	for i, sv := range v.Seats {
		if engine.Seat(i) == v.Viewer.Seat {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %d", sv.Name, counts.hands[i]))
	}
	return fmt.Sprintf("%s possible; hands possible: %s (%s)",
		words.Count(sb.targets(), "centre set", "centre sets"), strings.Join(parts, ", "), heard)
}

func notesHeard(v View) int {
	n := 0
	for i, sv := range v.Seats {
		if engine.Seat(i) != v.Viewer.Seat {
			n += len(sv.Notes)
		}
	}
	return n
}

// askStep analyses a question asked from the view before.
func askStep(before, after View, ask AskMove, b *analysis.Budget) (analysis.Step, bool) {
	// The beliefs' tables are lent for this step only: the step keeps
	// numbers and text, nothing of them.
	buf := getScratch()
	defer putScratch(buf)
	sb := beliefOf(before, buf)
	var cards, numbers, vs []int
	for _, c := range before.FaceUp {
		nums := CardNumbers(c)
		if nums == nil {
			nums = []int{0}
		}
		for _, n := range nums {
			cards, numbers = append(cards, c), append(numbers, n)
			vs = append(vs, variantOf(c, n))
		}
	}
	if !b.Spend(sb.work(len(vs))) {
		return analysis.Step{}, false
	}
	info, approx, ok := questionBits(sb, vs, b)
	if !ok {
		return analysis.Step{}, false
	}
	step := analysis.Step{
		Kind:   "ask",
		Text:   "asked: " + Question(ask.Card, ask.Number, before.HandSize),
		Knew:   knew(before, sb),
		Unit:   unitOf(before),
		Before: sb.targets(),
		Approx: approx,
	}
	if approx {
		step.Note = "4 players, too many deals to count the answers together: bits are the sum of each answer's own entropy (an upper bound)"
	}
	chosen := variantOf(ask.Card, ask.Number)
	for i, v := range vs {
		step.Options = append(step.Options, analysis.Option{
			Label:  Question(cards[i], numbers[i], before.HandSize),
			Action: AskAction(cards[i], numbers[i]),
			Bits:   info[i],
		})
		if v == chosen {
			step.Expected = info[i]
		}
	}
	best := analysis.Rank(step.Options)
	step.Best, step.BestMove = best.Bits, best.Label
	step.Scored = step.Best > 0
	sa := beliefOf(after, buf)
	if !b.Spend(sa.work(0)) {
		return analysis.Step{}, false
	}
	step.After = sa.targets()
	step.Bits = analysis.Surprisal(sb.deals, sa.deals)
	return step, true
}

// questionBits is the expected information of each question variant vs for
// the seat of sb: exact, except past the 4-player budget (approx true).
func questionBits(sb seatBelief, vs []int, b *analysis.Budget) (bits []float64, approx, ok bool) {
	k := sb.k
	if k.n == 4 {
		if info, work, fits := k.jointInfo4(vs, sb.deals, stepWork4); fits {
			return info, false, b.Spend(work)
		}
		approx = true
	}
	bits = k.questionInfo(sb.bel, vs)
	for i := range bits {
		bits[i] = analysis.Clean(bits[i])
	}
	return bits, approx, true
}

// jointInfo4 returns, for each variant vs[i], the entropy of the three
// opponents' answers taken together over every 4-player deal, counting the
// deals one by one. It gives up (fits false) when that would cost more than
// limit units; deals is how many deals there are. work is what it spent.
func (k *knowledge) jointInfo4(vs []int, deals float64, limit int64) (info []float64, work int64, fits bool) {
	if len(k.ok) != 3 {
		return nil, 0, false
	}
	order := []int{0, 1, 2}
	slices.SortStableFunc(order, func(x, y int) int { return len(k.ok[x]) - len(k.ok[y]) })
	A, B, C := k.ok[order[0]], k.ok[order[1]], k.ok[order[2]]
	perPair := int64(min(len(C), binom(len(k.pool)-2*k.handSize, k.handSize)))
	pairs := int64(0)
	work = int64(len(A)) * int64(len(B))
	if work > limit {
		return nil, 0, false
	}
	for _, a := range A {
		for _, bb := range B {
			if a&bb == 0 {
				pairs++
			}
		}
	}
	work += pairs*perPair + int64(deals)*int64(len(vs))
	if work > limit {
		return nil, 0, false
	}
	codes := k.answerCodes(vs, A, B, C)
	q := len(vs)
	// idx[s][e*q+i] is the dense number of list s's set e's answer to vs[i].
	lists := [3][]uint32{A, B, C}
	var idx [3][]uint8
	for s, list := range lists {
		idx[s] = make([]uint8, len(list)*q)
		for e, m := range list {
			ans := &k.table.answers[k.handID[m]]
			for i, v := range vs {
				idx[s][e*q+i] = uint8(slices.Index(codes[i], ans[v]))
			}
		}
	}
	hist := make([][]uint32, q)
	for i := range hist {
		nx := len(codes[i])
		hist[i] = make([]uint32, nx*nx*nx)
	}
	visit := func(ia, ib, ic int) {
		xa, xb, xc := idx[0][ia*q:ia*q+q], idx[1][ib*q:ib*q+q], idx[2][ic*q:ic*q+q]
		for i := range q {
			nx := len(codes[i])
			hist[i][(int(xa[i])*nx+int(xb[i]))*nx+int(xc[i])]++
		}
	}
	useList := int64(len(C)) <= perPair
	var posC []int32
	if !useList {
		posC = make([]int32, 1<<len(k.pool))
		for i := range posC {
			posC[i] = -1
		}
		for e, m := range C {
			posC[m] = int32(e)
		}
	}
	for ia, a := range A {
		for ib, bb := range B {
			if a&bb != 0 {
				continue
			}
			rest := k.full &^ a &^ bb
			if useList {
				for ic, c := range C {
					if c&rest == c && k.centreFits(a|bb|c) {
						visit(ia, ib, ic)
					}
				}
				continue
			}
			forSubsets(rest, k.handSize, func(c uint32) {
				if e := posC[c]; e >= 0 && k.centreFits(a|bb|c) {
					visit(ia, ib, int(e))
				}
			})
		}
	}
	info = make([]float64, q)
	for i, h := range hist {
		ws := make([]float64, 0, len(h))
		for _, w := range h {
			if w > 0 {
				ws = append(ws, float64(w))
			}
		}
		info[i] = analysis.Entropy(ws)
	}
	return info, work, true
}

// guessStep analyses a guess made from the view before; after is the
// guesser's view once it was judged.
func guessStep(before, after View, tiles []Tile, b *analysis.Budget) (analysis.Step, bool) {
	buf := getScratch() // lent for this step only, as in askStep
	defer putScratch(buf)
	sb := beliefOf(before, buf)
	if !b.Spend(sb.work(0)) {
		return analysis.Step{}, false
	}
	step := analysis.Step{
		Kind:   "guess",
		Knew:   knew(before, sb),
		Unit:   unitOf(before),
		Before: sb.targets(),
		After:  sb.targets(),
	}
	whose := "the centre"
	if before.Players == 2 {
		whose = before.Seats[1-before.Viewer.Seat].Name + "'s tiles"
	}
	step.Text = fmt.Sprintf("guessed %s: %s", whose, FormatTiles(tiles))
	total := 0.0
	for _, id := range sb.bel.target.ids {
		total += sb.bel.target.at(id)
	}
	bestID, bestP := sb.bel.best()
	var w float64
	if m, err := maskOf(tiles); err == nil && len(tiles) == before.GuessSize() {
		w = sb.bel.target.at(sb.k.table.id(m))
	}
	if total > 0 {
		step.Chance = analysis.Clean(w / total)
	}
	step.BestChance = analysis.Clean(bestP)
	if bestID >= 0 {
		step.BestMove = "guess " + FormatTiles(sb.k.table.tiles[bestID])
	}
	step.Expected = analysis.Binary(step.Chance)
	if before.Players > 2 {
		step.Note = "a centre guess is checked in private and ends the guesser's turns"
		return step, true
	}
	// Said out loud: right leaves one hand, wrong rules one out.
	mine := after.Seats[before.Viewer.Seat].Guesses
	right := len(mine) > 0 && mine[len(mine)-1].Right
	switch {
	case right:
		step.After = 1
		step.Bits = analysis.Surprisal(total, w)
	case w > 0:
		step.After = step.Before - 1
		step.Bits = analysis.Surprisal(total, total-w)
	}
	return step, true
}
