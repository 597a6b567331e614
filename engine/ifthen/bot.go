package ifthen

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/rulelang"
)

// Bot plays one seat from that seat's View alone, keeping no memory between
// moves, so it is deterministic for a seed and a sequence of views.
//
// As a Code Breaker, "strong" keeps every Challenge of the level that agrees
// with every public judgement and revealed Hint, plays the card and end that
// the most of them accept (or discards when a discard is likelier right),
// buys Hints when the deck can spare them, uses kept Events, and guesses the
// Code once one candidate is left and the rules allow a guess. "easy" plays a
// random card with a random end, discarding now and then.
//
// As the All Knowing it reveals Events and Hints when asked. As a Mastermind
// it picks a loyalty from its seed; a True Mastermind swaps a card that is
// Valid now into the Market, end up, and a False one swaps in a card that is
// Invalid both ways (or cycles when it has nothing to offer).
type Bot struct {
	Seat  engine.Seat
	Level string
	Seed  uint64
}

var _ engine.Bot = (*Bot)(nil)

// Act returns the bot's move for view, or nil when it has nothing to do.
func (b *Bot) Act(view any) ([]byte, error) {
	v, err := engine.ViewAs[View](view)
	if err != nil {
		return nil, fmt.Errorf("ifthen bot: %w", err)
	}
	if !v.Viewer.IsSeat(b.Seat) || !v.YourTurn() {
		return nil, nil
	}
	rng := rand.New(rand.NewPCG(b.Seed, uint64(v.Turn)<<8|uint64(v.Phase)))
	if v.IsAllKnowing() {
		return b.allKnowing(v, rng), nil
	}
	switch v.Phase {
	case Vote:
		return VoteAction(true), nil
	case PassLeft:
		return PassAction(rng.IntN(len(v.Hand))), nil
	case Penalty:
		if b.Level == LevelStrong && hasKeep(v, EventSecondChance) && v.TakeBack && !slices.Contains(v.Declined, ProposeSecondChance) {
			return ProposeAction(Proposal{Kind: ProposeSecondChance}), nil
		}
		var market []int
		for i := 0; v.Deck+len(market) < v.Owed; i++ {
			market = append(market, i)
		}
		return DrawAction(market...), nil
	case Turn:
		if b.Level == LevelEasy {
			return b.easyTurn(v, rng), nil
		}
		return b.strongTurn(v, rng), nil
	}
	return nil, nil
}

func hasKeep(v View, k EventKind) bool {
	return slices.ContainsFunc(v.Keeps, func(e EventView) bool { return e.Kind == k })
}

func (b *Bot) easyTurn(v View, rng *rand.Rand) []byte {
	i := rng.IntN(len(v.Hand))
	if rng.IntN(5) == 0 && (v.Event == nil || v.Event.Kind != EventSilence) {
		return DiscardAction(i)
	}
	return PlayAction(i, rng.IntN(2))
}

// Candidates returns the Challenges of the view's level that agree with every
// public judgement and revealed Hint (all of them if, impossibly, none does).
func Candidates(v View) []Challenge {
	as := rulelang.IfThenAttributes()
	var out []Challenge
	level := challengesAt(v.Level, v.FirstRules)
	for _, c := range level {
		r := c.Rule()
		if consistent(r, as, v) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return level
	}
	return out
}

func consistent(r *rulelang.Rule, as *rulelang.Attributes, v View) bool {
	used := r.AttributesUsed()
	for _, h := range v.Hints {
		for hh := HintX; hh <= HintTriangle; hh++ {
			if hh.Symbol() == h.Symbol && slices.Contains(used, hh.Attribute()) {
				return false
			}
		}
	}
	for _, j := range v.History {
		prev := []rulelang.Card{j.Prev.Rule()}
		switch j.Kind {
		case "play":
			if r.Accepts(prev, j.Card.End(j.Up).Rule()) != j.Valid {
				return false
			}
		case "discard":
			either := r.Accepts(prev, j.Card.A.Rule()) || r.Accepts(prev, j.Card.B.Rule())
			if either == j.Valid {
				return false
			}
		}
	}
	return true
}

func (b *Bot) strongTurn(v View, rng *rand.Rand) []byte {
	cands := Candidates(v)
	rules := make([]*rulelang.Rule, len(cands))
	for i, c := range cands {
		rules[i] = c.Rule()
	}
	can := func(kind string) bool { return !slices.Contains(v.Declined, kind) }
	if v.CanGuess && len(rules) == 1 && can(ProposeGuess) {
		return ProposeAction(Proposal{Kind: ProposeGuess, Text: rules[0].String()})
	}
	if len(rules) > 2 && v.HintCost > 0 && v.Deck >= v.HintCost+12 && can(ProposeHint) {
		return ProposeAction(Proposal{Kind: ProposeHint})
	}
	if len(rules) > 2 && hasKeep(v, EventFreeHint) && v.HintsOut < 2 && can(ProposeFreeHint) {
		return ProposeAction(Proposal{Kind: ProposeFreeHint})
	}
	prev := []rulelang.Card{v.Line[len(v.Line)-1].Top.Rule()}
	bestPlay, bestI, bestUp := -1.0, 0, 0
	bestDiscard, bestD := -1.0, 0
	worst, worstI := 2.0, 0
	for i, c := range v.Hand {
		var ok [2]int
		both := 0
		for _, r := range rules {
			a, bb := r.Accepts(prev, c.A.Rule()), r.Accepts(prev, c.B.Rule())
			if a {
				ok[0]++
			}
			if bb {
				ok[1]++
			}
			if !a && !bb {
				both++
			}
		}
		for up := range 2 {
			p := float64(ok[up])/float64(len(rules)) + rng.Float64()*1e-6
			if p > bestPlay {
				bestPlay, bestI, bestUp = p, i, up
			}
		}
		d := float64(both)/float64(len(rules)) + rng.Float64()*1e-6
		if d > bestDiscard {
			bestDiscard, bestD = d, i
		}
		if m := float64(max(ok[0], ok[1])) / float64(len(rules)); m < worst {
			worst, worstI = m, i
		}
	}
	if hasKeep(v, EventLuckyDraw) && worst < 0.2 && len(v.Hand) > 1 && can(ProposeLuckyDraw) {
		return ProposeAction(Proposal{Kind: ProposeLuckyDraw, Card: worstI})
	}
	silenced := v.Event != nil && v.Event.Kind == EventSilence
	if bestDiscard > bestPlay && !silenced {
		return DiscardAction(bestD)
	}
	return PlayAction(bestI, bestUp)
}

func (b *Bot) allKnowing(v View, rng *rand.Rand) []byte {
	switch v.Phase {
	case RevealEvent:
		return RevealAction("event")
	case RevealHint:
		return RevealAction("hint")
	case Setup:
		r := rand.New(rand.NewPCG(b.Seed, 1))
		return SetupAction(r.IntN(2), r.IntN(2) == 0)
	case MastermindTurn:
		if v.Challenge == nil || v.Loyal == nil || len(v.Hand) == 0 {
			return CycleAction(0)
		}
		r, err := rulelang.Parse(rulelang.IfThenAttributes(), v.Challenge.Text)
		if err != nil || len(v.Market) == 0 {
			return CycleAction(rng.IntN(len(v.Hand)))
		}
		prev := []rulelang.Card{v.Line[len(v.Line)-1].Top.Rule()}
		m := rng.IntN(len(v.Market))
		for i, c := range v.Hand {
			a, bb := r.Accepts(prev, c.A.Rule()), r.Accepts(prev, c.B.Rule())
			switch {
			case *v.Loyal && a:
				return SwapAction(i, m, 0)
			case *v.Loyal && bb:
				return SwapAction(i, m, 1)
			case !*v.Loyal && !a && !bb:
				return SwapAction(i, m, rng.IntN(2))
			}
		}
		if v.AKDeck == 0 {
			return SwapAction(0, m, 0)
		}
		return CycleAction(rng.IntN(len(v.Hand)))
	}
	return nil
}
