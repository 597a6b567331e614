package whattherule

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/analysis"
	"github.com/codebreakers/codebreakers/engine/rulelang"
	"github.com/codebreakers/codebreakers/engine/words"
)

// Analyze reviews a finished game (analysis.Analyzer). Every card played,
// every hand revealed and every guess is judged from the player's seat view
// just before it:
//
//   - The possibilities are the rules of the library (Library) that give
//     every verdict of the round as the table saw it and are not equivalent
//     to a guess already called wrong, each as likely as the others. The
//     library is a yardstick, not the truth: a game master may write a rule
//     of their own. Before and After count them around the move's verdict,
//     which may come a move later when the game master judges by hand.
//   - Bits is log2(Before/After): the surprisal of the verdict.
//   - The options are every card in the player's hand, played, and showing
//     the hand. A play's expected bits is the entropy of fits against
//     misses over the rules still possible. Showing the hand ends in "none
//     fits" or in one fitting card laid by the game master, whose choice is
//     modelled as even among the fitting cards; its expected bits is the
//     mean of Bits over those outcomes.
//   - A guess is not scored: its Chance is the share of the possible rules
//     it is equivalent to (free rules: word for word).
//   - The game master's hints are words and are not used.
//   - Hidden says where the game master's rule stood among the rules still
//     possible, simplest first (by grade, then by length): the one figure
//     that uses what the player could not know, taken from the round's end.
func (g Game) Analyze(rec engine.Record, b *analysis.Budget) (analysis.Report, error) {
	st, _, err := engine.StartRecord(g, rec)
	if err != nil {
		return analysis.Report{}, fmt.Errorf("whattherule analysis: %w", err)
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

// equivalenceWork is what one equivalence check is charged: the worst
// library pair takes a few milliseconds (see BENCHMARKS.md).
const equivalenceWork = 5_000_000

// libraryRule is a library entry parsed once per review.
type libraryEntry struct {
	rule  *rulelang.Rule
	title string
	grade Grade
}

// reviewer holds what a review keeps between moves.
type reviewer struct {
	lib []libraryEntry // simplest first
	b   *analysis.Budget
	// same caches equivalence checks: guess text → library index → equivalent.
	same map[string]map[int]bool
	// pending is a move whose verdict is still to come.
	pending *pendingStep
	steps   []analysis.Step
	// round of each step (by index), for the hidden commentary.
	rounds []int
	fits   [][]int // library indexes still possible before each step
	cut    bool
}

type pendingStep struct {
	step     analysis.Step
	round    int
	verdicts int   // judgements of the round before the move
	guesses  int   // guesses of the round before the move
	fitting  []int // library indexes possible before the move
	guess    string
	free     bool
	hand     []Card
}

func newReviewer(b *analysis.Budget) *reviewer {
	r := &reviewer{b: b, same: map[string]map[int]bool{}}
	for _, lr := range Library() {
		r.lib = append(r.lib, libraryEntry{rule: rulelang.MustParse(attrs, lr.Text), title: lr.Title, grade: lr.Grade})
	}
	slices.SortStableFunc(r.lib, func(x, y libraryEntry) int {
		return cmp.Or(cmp.Compare(x.grade, y.grade), cmp.Compare(len(x.rule.String()), len(y.rule.String())),
			strings.Compare(x.rule.String(), y.rule.String()))
	})
	return r
}

// review replays moves on st and analyses every play, reveal and guess.
func review(st engine.State, moves []engine.Move, b *analysis.Budget) ([]analysis.Step, bool, error) {
	r := newReviewer(b)
	var final []RoundSummary
	err := analysis.WalkState(st, moves, func(t analysis.Turn) error {
		if r.cut {
			return nil
		}
		if t.Index == len(moves)-1 {
			defer func() {
				if v, err := engine.ViewAs[View](t.View(engine.Seat(0))); err == nil {
					final = v.Rounds
				}
			}()
		}
		if r.pending != nil {
			if err := r.resolve(t); err != nil {
				return err
			}
		}
		if t.Before == nil {
			return nil
		}
		var a Action
		if err := json.Unmarshal(t.Move.Action, &a); err != nil {
			return fmt.Errorf("whattherule analysis: move %d: %w", t.Index+1, err)
		}
		before, err := engine.ViewAs[View](t.Before)
		if err != nil {
			return err
		}
		if before.GM == t.Move.Seat || (a.Play == nil && !a.Reveal && a.Guess == nil) {
			return nil
		}
		r.start(t, before, a)
		if r.pending != nil {
			return r.resolve(t)
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	r.comment(final)
	return r.steps, r.cut, nil
}

// verdicts returns the valid line, the verdicts and the guesses of round
// as v shows them (from the round's summary once it is over), and whether
// the round is over.
func verdicts(v View, round int) (line []Card, js []Judgement, gs []GuessRecord, over bool) {
	if round >= 1 && len(v.Rounds) >= round {
		s := v.Rounds[round-1]
		return s.Line, s.Judgements, s.Guesses, true
	}
	return v.Line, v.Judgements, v.Guesses, false
}

// equivalent reports whether the guess text is the same rule as library
// entry i, charging the budget (false when it runs out).
func (r *reviewer) equivalent(text string, i int, free bool) (same, ok bool) {
	if free {
		return text == r.lib[i].rule.English() || text == r.lib[i].rule.String(), true
	}
	if m, hit := r.same[text]; hit {
		if v, hit := m[i]; hit {
			return v, true
		}
	} else {
		r.same[text] = map[int]bool{}
	}
	if !r.b.Spend(equivalenceWork) {
		return false, false
	}
	g, err := rulelang.Parse(attrs, text)
	if err != nil {
		r.same[text][i] = false
		return false, true
	}
	eq, _, err := rulelang.Equivalent(g, r.lib[i].rule)
	r.same[text][i] = err == nil && eq
	return r.same[text][i], true
}

// fitting lists the library rules (indexes) that agree with the verdicts
// and are no wrong guess.
func (r *reviewer) fitting(line []Card, js []Judgement, gs []GuessRecord, free bool) ([]int, bool) {
	faces := cardFaces(line)
	var out []int
	r.b.Spend(int64(len(r.lib) * (len(js) + 1)))
	for i, e := range r.lib {
		if !agrees(e.rule, faces, js) {
			continue
		}
		wrong := false
		for _, g := range gs {
			if g.Right {
				continue
			}
			same, ok := r.equivalent(g.Text, i, free)
			if !ok {
				return nil, false
			}
			if same {
				wrong = true
				break
			}
		}
		if !wrong {
			out = append(out, i)
		}
	}
	return out, true
}

// start opens the step for a player's move from the view before it.
func (r *reviewer) start(t analysis.Turn, before View, a Action) {
	free := before.Mode == Free
	fit, ok := r.fitting(before.Line, before.Judgements, before.Guesses, free)
	if !ok {
		r.cut = true
		return
	}
	p := &pendingStep{
		round: before.Round, verdicts: len(before.Judgements), guesses: len(before.Guesses),
		fitting: fit, free: free, hand: before.Hand,
	}
	p.step = analysis.Step{
		Move: t.Index, Seat: t.Move.Seat, Unit: "library rules", Before: len(fit),
		Knew: r.knew(before, fit),
	}
	switch {
	case a.Guess != nil:
		p.step.Kind = "guess"
		p.guess = a.Guess.Text
		if !free {
			if g, err := ParseGuess(a.Guess.Text); err == nil {
				p.guess = g.String()
			}
		}
		p.step.Text = fmt.Sprintf("guessed: %s", p.guess)
		n := 0
		for _, i := range fit {
			same, ok := r.equivalent(p.guess, i, free)
			if !ok {
				r.cut = true
				return
			}
			if same {
				n++
			}
		}
		if len(fit) > 0 {
			p.step.Chance = analysis.Clean(float64(n) / float64(len(fit)))
			p.step.BestChance = analysis.Clean(1 / float64(len(fit)))
			p.step.BestMove = "guess " + r.lib[fit[0]].rule.String()
		}
		p.step.Expected = analysis.Binary(p.step.Chance)
	default:
		line := cardFaces(before.Line)
		accepts := func(i int, c Card) bool { return r.lib[i].rule.Accepts(line, c.Face()) }
		r.b.Spend(int64(len(fit) * (len(before.Hand) + 1)))
		for _, c := range before.Hand {
			yes := 0
			for _, i := range fit {
				if accepts(i, c) {
					yes++
				}
			}
			bits := 0.0
			if len(fit) > 0 {
				bits = analysis.Binary(float64(yes) / float64(len(fit)))
			}
			p.step.Options = append(p.step.Options, analysis.Option{Label: "play " + c.String(), Action: PlayAction(c.ID), Bits: bits})
			if a.Play != nil && a.Play.Card == c.ID {
				p.step.Expected = bits
			}
		}
		rev := revealBits(fit, before.Hand, accepts)
		p.step.Options = append(p.step.Options, analysis.Option{Label: "show the hand", Action: RevealAction(), Bits: rev})
		if a.Reveal {
			p.step.Kind, p.step.Text, p.step.Expected = "reveal", "showed their hand: none of it fits", rev
		} else {
			p.step.Kind = "play"
			p.step.Text = "played " + CardOf(a.Play.Card).String()
		}
		best := analysis.Rank(p.step.Options)
		p.step.Best, p.step.BestMove = best.Bits, best.Label
		p.step.Scored = p.step.Best > 0
	}
	r.pending = p
}

// revealBits is the mean information of showing hand: with the rules
// (indexes fit) equally likely and a fitting card laid with equal chance
// among those that fit, the outcome is "none fits" or "card x laid", and
// each tells log2 of how many rules there were over how many agree.
func revealBits(fit []int, hand []Card, accepts func(int, Card) bool) float64 {
	if len(fit) == 0 || len(hand) == 0 {
		return 0
	}
	none := 0
	pLaid := make([]float64, len(hand)) // chance that card x is laid
	fitsX := make([]int, len(hand))     // rules under which card x fits
	for _, i := range fit {
		var fits []int
		for x, c := range hand {
			if accepts(i, c) {
				fits = append(fits, x)
				fitsX[x]++
			}
		}
		if len(fits) == 0 {
			none++
			continue
		}
		for _, x := range fits {
			pLaid[x] += 1 / float64(len(fits)) / float64(len(fit))
		}
	}
	n := float64(len(fit))
	mean := 0.0
	if none > 0 {
		mean += float64(none) / n * math.Log2(n/float64(none))
	}
	for x, p := range pLaid {
		if p > 0 {
			mean += p * math.Log2(n/float64(fitsX[x]))
		}
	}
	return analysis.Clean(mean)
}

// resolve closes the pending step once the mover's view shows its verdict.
func (r *reviewer) resolve(t analysis.Turn) error {
	p := r.pending
	v, err := engine.ViewAs[View](t.View(p.step.Seat))
	if err != nil {
		return err
	}
	line, js, gs, over := verdicts(v, p.round)
	switch {
	case p.step.Kind == "guess" && len(gs) > p.guesses:
		g := gs[p.guesses]
		n := 0
		for _, i := range p.fitting {
			same, ok := r.equivalent(p.guess, i, p.free)
			if !ok {
				r.cut, r.pending = true, nil
				return nil
			}
			if same == g.Right {
				n++
			}
		}
		p.step.After = n
	case p.step.Kind != "guess" && len(js) > p.verdicts:
		faces := cardFaces(line)
		n := 0
		for _, i := range p.fitting {
			if agrees(r.lib[i].rule, faces, js[p.verdicts:]) {
				n++
			}
		}
		p.step.After = n
	case over:
		p.step.After = p.step.Before // called off: no verdict came
	default:
		return nil // still waiting for the game master
	}
	p.step.Bits = analysis.Surprisal(float64(p.step.Before), float64(p.step.After))
	r.steps = append(r.steps, p.step)
	r.rounds = append(r.rounds, p.round)
	r.fits = append(r.fits, p.fitting)
	r.pending = nil
	return nil
}

func (r *reviewer) knew(v View, fit []int) string {
	from := "the game master's own or from the library"
	if v.Library {
		from = "drawn from the library"
	}
	return fmt.Sprintf("%d of %d library rules fit %s and %s (round %d; the rule is %s)",
		len(fit), len(r.lib), words.Count(len(v.Judgements), "verdict", "verdicts"),
		words.Count(len(v.Guesses), "guess", "guesses"), v.Round, from)
}

// comment adds, once the rounds are over, where each round's rule stood
// among the rules still possible at each step.
func (r *reviewer) comment(rounds []RoundSummary) {
	for k := range r.steps {
		round := r.rounds[k]
		if round < 1 || round > len(rounds) {
			continue
		}
		s := rounds[round-1]
		if s.Mode == Free {
			r.steps[k].Hidden = "the rule was a free rule, judged by hand"
			continue
		}
		place := -1
		for n, i := range r.fits[k] {
			if r.lib[i].rule.String() == s.Rule {
				place = n
				break
			}
		}
		if place < 0 {
			for n, i := range r.fits[k] {
				same, ok := r.equivalent(s.Rule, i, false)
				if !ok {
					return
				}
				if same {
					place = n
					break
				}
			}
		}
		if place < 0 {
			r.steps[k].Hidden = "the game master's rule is not in the library"
			continue
		}
		r.steps[k].Hidden = fmt.Sprintf("the rule (%s) was number %d of the %d still fitting, simplest first",
			r.lib[r.fits[k][place]].title, place+1, len(r.fits[k]))
	}
}
