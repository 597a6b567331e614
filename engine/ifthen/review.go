package ifthen

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/analysis"
	"github.com/codebreakers/codebreakers/engine/rulelang"
	"github.com/codebreakers/codebreakers/engine/words"
)

// Analyze reviews a finished game (analysis.Analyzer). Every card a Code
// Breaker plays or discards is judged from their seat view just before it:
//
//   - The possibilities are the Challenges of the game's level that agree
//     with every judgement on the table and whose Hint cards include every
//     Hint shown (and, after a paid Hint found none left, have no other).
//     The Code is drawn from the level's deck, so each starts as likely as
//     the others; a Hint shown was one of its Challenge's cards drawn at
//     random, so a Challenge with two Hint cards weighs half as much as one
//     with a single card once a Hint is out (see codeBelief). Before and
//     After count them around the move's judgement.
//   - Bits is log2 of the weight before over the weight after: the
//     surprisal of the judgement.
//   - The options are every card in the mover's hand played with either end
//     on top and, unless Silence is in force, discarded; an option's expected
//     bits is the entropy of Valid against Invalid over the Challenges still
//     possible (judged by the rule language against the Code Line as it
//     stands).
//   - Discards thrown away unjudged (Lucky Draw) and the team's guesses are
//     not reviewed, and what a view does not keep is not used: a wrong guess
//     of the team, and what a Spotlight Event marked.
func (g Game) Analyze(rec engine.Record, b *analysis.Budget) (analysis.Report, error) {
	st, _, err := engine.StartRecord(g, rec)
	if err != nil {
		return analysis.Report{}, fmt.Errorf("ifthen analysis: %w", err)
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

// review replays moves on st and analyses every judged play and discard.
func review(st engine.State, moves []engine.Move, b *analysis.Budget) ([]analysis.Step, bool, error) {
	var steps []analysis.Step
	var deck []levelChallenge
	cut := false
	err := analysis.WalkState(st, moves, func(t analysis.Turn) error {
		if cut || t.Before == nil {
			return nil
		}
		var a Action
		if err := json.Unmarshal(t.Move.Action, &a); err != nil {
			return fmt.Errorf("ifthen analysis: move %d: %w", t.Index+1, err)
		}
		if a.Play == nil && a.Discard == nil {
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
		if deck == nil {
			deck = levelDeck(before.Level, before.FirstRules)
		}
		step, ok := playStep(before, after, a, b, deck)
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

// lineTops is the Code Line as the rule language reads it: the top end of
// every Valid card, oldest first.
func lineTops(v View) []rulelang.Card {
	out := make([]rulelang.Card, len(v.Line))
	for i, lc := range v.Line {
		out[i] = lc.Top.Rule()
	}
	return out
}

// playStep analyses a play or discard from the view before; after is the
// mover's view once it was judged.
func playStep(before, after View, a Action, b *analysis.Budget, deck []levelChallenge) (analysis.Step, bool) {
	rules, weights := codeBelief(before, deck)
	total := 0.0
	for _, w := range weights {
		total += w
	}
	if !b.Spend(int64(len(rules)) * int64(3*len(before.Hand)+2*len(before.History)+1)) {
		return analysis.Step{}, false
	}
	line := lineTops(before)
	silenced := before.Event != nil && before.Event.Kind == EventSilence
	share := func(keep func(r *rulelang.Rule) bool) float64 {
		w := 0.0
		for i, r := range rules {
			if keep(r) {
				w += weights[i]
			}
		}
		return w / total
	}
	step := analysis.Step{
		Unit:   "Challenges",
		Before: len(rules),
		Knew: fmt.Sprintf("%d of the %d Level %d Challenges fit %s and %s",
			len(rules), len(deck), before.Level, words.Count(len(before.History), "judgement", "judgements"),
			words.Count(len(before.Hints), "Hint", "Hints")),
	}
	for i, c := range before.Hand {
		for up := range 2 {
			e := c.End(up)
			bits := analysis.Binary(share(func(r *rulelang.Rule) bool { return r.Accepts(line, e.Rule()) }))
			step.Options = append(step.Options, analysis.Option{
				Label: fmt.Sprintf("play %s", e), Action: PlayAction(i, up), Bits: bits,
			})
			if a.Play != nil && a.Play.Card == i && a.Play.Up == up {
				step.Expected = bits
			}
		}
		if silenced {
			continue
		}
		bits := analysis.Binary(share(func(r *rulelang.Rule) bool {
			return !r.Accepts(line, c.A.Rule()) && !r.Accepts(line, c.B.Rule())
		}))
		step.Options = append(step.Options, analysis.Option{
			Label: fmt.Sprintf("discard %s / %s", c.A, c.B), Action: DiscardAction(i), Bits: bits,
		})
		if a.Discard != nil && a.Discard.Card == i {
			step.Expected = bits
		}
	}
	switch {
	case a.Play != nil && a.Play.Card >= 0 && a.Play.Card < len(before.Hand):
		step.Kind = "play"
		step.Text = "played " + before.Hand[a.Play.Card].End(a.Play.Up).String()
	case a.Discard != nil && a.Discard.Card >= 0 && a.Discard.Card < len(before.Hand):
		c := before.Hand[a.Discard.Card]
		step.Kind = "discard"
		step.Text = fmt.Sprintf("discarded %s / %s", c.A, c.B)
	}
	best := analysis.Rank(step.Options)
	step.Best, step.BestMove = best.Bits, best.Label
	step.Scored = step.Best > 0
	// The move's own judgement (anything else the move set off, such as an
	// Event, is not its information).
	step.After = step.Before
	left := total
	if len(after.History) > len(before.History) {
		j := after.History[len(before.History)]
		step.After, left = 0, 0
		for i, r := range rules {
			if judgedAlike(r, line, j) {
				step.After++
				left += weights[i]
			}
		}
	}
	step.Bits = analysis.Surprisal(total, left)
	return step, true
}

// judgedAlike reports whether rule r, judging against line, gives the
// judgement j the table saw.
func judgedAlike(r *rulelang.Rule, line []rulelang.Card, j Judgement) bool {
	switch j.Kind {
	case "play":
		return r.Accepts(line, j.Card.End(j.Up).Rule()) == j.Valid
	case "discard":
		either := r.Accepts(line, j.Card.A.Rule()) || r.Accepts(line, j.Card.B.Rule())
		return either != j.Valid
	}
	return true
}

// codeBelief lists the Challenges of v's level the seat viewing v cannot
// rule out, with their weights (whole multiples of 1/2): every judgement in
// the view must come out the same under the Challenge, and the Hints shown
// must be among its Hint cards, each drawn at random from those not yet
// shown. A Challenge ruled out by nothing weighs 1.
func codeBelief(v View, deck []levelChallenge) ([]*rulelang.Rule, []float64) {
	var rules []*rulelang.Rule
	var weights []float64
	for _, c := range deck {
		cards := c.hints
		w := 1.0
		for i, h := range v.Hints {
			if !slices.ContainsFunc(cards, func(x Hint) bool { return x.Symbol() == h.Symbol }) {
				w = 0
				break
			}
			w /= float64(len(cards) - i)
		}
		if w == 0 || (v.HintsOut > len(v.Hints) && len(cards) != len(v.Hints)) {
			continue
		}
		r := c.rule
		if !slices.ContainsFunc(v.History, func(j Judgement) bool {
			return !judgedAlike(r, []rulelang.Card{j.Prev.Rule()}, j)
		}) {
			rules = append(rules, r)
			weights = append(weights, w)
		}
	}
	return rules, weights
}

// levelChallenge is a Challenge parsed once for a whole review.
type levelChallenge struct {
	rule  *rulelang.Rule
	hints []Hint
}

// levelDeck parses the Challenges of a level, under the first rules when
// first is set (a game recorded before the Challenges were revised).
func levelDeck(level int, first bool) []levelChallenge {
	var out []levelChallenge
	for _, c := range challengesAt(level, first) {
		out = append(out, levelChallenge{rule: c.Rule(), hints: c.Hints()})
	}
	return out
}
