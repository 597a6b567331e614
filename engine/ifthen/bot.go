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
// As a Code Breaker, both levels reason from what the table has seen: the
// Challenges of the level that agree with every public judgement and
// revealed Hint (Candidates). An end Valid under all of them is certainly
// Valid, one Valid under none certainly Invalid, and likewise for a
// discard. Neither level makes a move a beginner would call throwing the
// game (see TestBotsDoNotThrowTheGame): it never discards a card with a
// certainly Valid end, never plays a certainly Invalid end while anything
// else might work, never gambles the game on an unsure move when a sure one
// is in hand, always takes an Invalid card back with a kept Second Chance,
// uses a kept Free Hint while the Code is unknown and a kept Lucky Draw
// before an unsure move, and never agrees to guess a Code the table has
// already ruled out.
//
// "strong" then plays the card and end (or discards the card) most likely
// to be right, buys Hints when the deck can spare them, throws away its
// least playable card with a Lucky Draw, and guesses the Code once one
// candidate is left and the rules allow a guess. "easy" plays a sure move
// when it has one and otherwise any move that might be right, discarding
// now and then; it never buys Hints or guesses.
//
// As the All Knowing it reveals Events and Hints when asked. As a Mastermind
// it picks a loyalty from its seed; a True Mastermind swaps a card that is
// Valid now into the Market, end up, and a False one swaps in a card that is
// Invalid both ways (or cycles when it has nothing to offer, sending under
// its pile a card it would not offer).
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
		return VoteAction(approves(v)), nil
	case PassLeft:
		return PassAction(rng.IntN(len(v.Hand))), nil
	case Penalty:
		if hasKeep(v, EventSecondChance) && v.TakeBack && !slices.Contains(v.Declined, ProposeSecondChance) {
			return ProposeAction(Proposal{Kind: ProposeSecondChance}), nil
		}
		var market []int
		for i := 0; v.Deck+len(market) < v.Owed; i++ {
			market = append(market, i)
		}
		return DrawAction(market...), nil
	case Turn:
		return b.turn(v, rng), nil
	}
	return nil, nil
}

func hasKeep(v View, k EventKind) bool {
	return slices.ContainsFunc(v.Keeps, func(e EventView) bool { return e.Kind == k })
}

// approves is the bot's vote: yes, except to a guess the public judgements
// or Hints already rule out.
func approves(v View) bool {
	p := v.Proposal
	if p == nil || p.Kind != ProposeGuess {
		return true
	}
	as := rulelang.IfThenAttributes()
	r, err := rulelang.Parse(as, p.Text)
	return err == nil && consistent(r, as, v)
}

// Candidates returns the Challenges of the view's level that agree with every
// public judgement and revealed Hint (all of them if, impossibly, none does).
func Candidates(v View) []Challenge {
	cs, _ := candidates(v)
	return cs
}

// candidates is Candidates with each Challenge's parsed rule.
func candidates(v View) ([]Challenge, []*rulelang.Rule) {
	as := rulelang.IfThenAttributes()
	var out []Challenge
	var rules []*rulelang.Rule
	level := challengesAt(v.Level, v.FirstRules)
	all := make([]*rulelang.Rule, len(level))
	for i, c := range level {
		all[i] = c.Rule()
		if consistent(all[i], as, v) {
			out = append(out, c)
			rules = append(rules, all[i])
		}
	}
	if len(out) == 0 {
		return level, all
	}
	return out, rules
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

// odds is what the table's public knowledge says about one hand card right
// now: the share of the candidate Challenges (see Candidates) under which
// each end would be Valid on top, and under which neither would (so a
// discard would be right). 1 is certain, 0 certainly wrong.
type odds struct {
	End     [2]float64
	Discard float64
}

// handOdds returns the odds of each card of the viewer's hand against the
// last Valid card, under the candidate Challenges' rules.
func handOdds(v View, rules []*rulelang.Rule) []odds {
	out := make([]odds, len(v.Hand))
	if len(rules) == 0 || len(v.Line) == 0 {
		return out
	}
	prev := []rulelang.Card{v.Line[len(v.Line)-1].Top.Rule()}
	for _, r := range rules {
		for i, card := range v.Hand {
			a, b := r.Accepts(prev, card.A.Rule()), r.Accepts(prev, card.B.Rule())
			if a {
				out[i].End[0]++
			}
			if b {
				out[i].End[1]++
			}
			if !a && !b {
				out[i].Discard++
			}
		}
	}
	n := float64(len(rules))
	for i := range out {
		out[i].End[0] /= n
		out[i].End[1] /= n
		out[i].Discard /= n
	}
	return out
}

// best is the card's likeliest move: its better end, or a discard.
func (o odds) best() float64 { return max(o.End[0], o.End[1], o.Discard) }

// move is a play (up 0 or 1) or a discard (up -1) of hand card i, with the
// odds that the All Knowing calls it right.
type move struct {
	i, up int
	p     float64
}

func (m move) action() []byte {
	if m.up < 0 {
		return DiscardAction(m.i)
	}
	return PlayAction(m.i, m.up)
}

// turn chooses a Code Breaker's move on their turn.
func (b *Bot) turn(v View, rng *rand.Rand) []byte {
	strong := b.Level == LevelStrong
	cands, rules := candidates(v)
	can := func(kind string) bool { return !slices.Contains(v.Declined, kind) }
	if strong && v.CanGuess && len(cands) == 1 && can(ProposeGuess) {
		return ProposeAction(Proposal{Kind: ProposeGuess, Text: rules[0].String()})
	}
	if len(cands) > 1 && hasKeep(v, EventFreeHint) && v.HintsOut < 2 && can(ProposeFreeHint) {
		return ProposeAction(Proposal{Kind: ProposeFreeHint})
	}
	if strong && len(cands) > 2 && v.HintCost > 0 && v.Deck >= v.HintCost+12 && can(ProposeHint) {
		return ProposeAction(Proposal{Kind: ProposeHint})
	}
	hand := handOdds(v, rules)
	silenced := v.Event != nil && v.Event.Kind == EventSilence
	var moves []move
	top := 0.0
	for i, o := range hand {
		for up := range 2 {
			moves = append(moves, move{i, up, o.End[up]})
		}
		if !silenced {
			moves = append(moves, move{i, -1, o.Discard})
		}
	}
	for _, m := range moves {
		top = max(top, m.p)
	}
	if top < 1 && hasKeep(v, EventLuckyDraw) && can(ProposeLuckyDraw) {
		// Nothing in hand is sure: throw the hardest card away unjudged.
		worst := rng.IntN(len(hand))
		if strong {
			for i, o := range hand {
				if o.best() < hand[worst].best() {
					worst = i
				}
			}
		}
		return ProposeAction(Proposal{Kind: ProposeLuckyDraw, Card: worst})
	}
	if strong {
		bestM, bestP := moves[0], -1.0
		for _, m := range moves {
			if p := m.p + rng.Float64()*1e-6; p > bestP {
				bestM, bestP = m, p
			}
		}
		return bestM.action()
	}
	// Easy: a sure move if there is one, else any move that might be right
	// (plays mostly, a discard now and then).
	var sure, maybe, maybeDiscard []move
	for _, m := range moves {
		switch {
		case m.p == 1:
			sure = append(sure, m)
		case m.p > 0 && m.up < 0:
			maybeDiscard = append(maybeDiscard, m)
		case m.p > 0:
			maybe = append(maybe, m)
		}
	}
	switch {
	case len(sure) > 0:
		return sure[rng.IntN(len(sure))].action()
	case len(maybeDiscard) > 0 && (len(maybe) == 0 || rng.IntN(5) == 0):
		return maybeDiscard[rng.IntN(len(maybeDiscard))].action()
	case len(maybe) > 0:
		return maybe[rng.IntN(len(maybe))].action()
	}
	return moves[rng.IntN(len(moves))].action() // everything fails: any card
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
		if v.AKDrew {
			return CycleAction(b.sendUnder(v, rng))
		}
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

// sendUnder picks the hand card a Mastermind that drew from its pile sends
// back under it: a True one keeps cards it could show the team as Valid
// and sends one Invalid both ways, a False one the other way round; any
// card when none suits.
func (b *Bot) sendUnder(v View, rng *rand.Rand) int {
	if v.Challenge == nil || v.Loyal == nil || len(v.Line) == 0 {
		return rng.IntN(len(v.Hand))
	}
	r, err := rulelang.Parse(rulelang.IfThenAttributes(), v.Challenge.Text)
	if err != nil {
		return rng.IntN(len(v.Hand))
	}
	prev := []rulelang.Card{v.Line[len(v.Line)-1].Top.Rule()}
	for i, c := range v.Hand {
		valid := r.Accepts(prev, c.A.Rule()) || r.Accepts(prev, c.B.Rule())
		if valid != *v.Loyal {
			return i
		}
	}
	return rng.IntN(len(v.Hand))
}
