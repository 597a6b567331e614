package rulelang

import "fmt"

// EquivalentAfterAnyCard decides whether two rules that read at most the
// previous card (no prev2, prev3 or n) accept the same cards after every
// card of univ: it compares them on every pair (previous card, candidate),
// whether or not a line valid under the rules could lead to that previous
// card.
//
// This is the equivalence of a game whose line starts with a card nobody
// judged (If Then's Code Line opens with a dealt card, which may be one the
// Code itself would never accept): there every card of the deck can be the
// last valid card, so Equivalent, which explores only lines the rules
// accept from an empty start, would miss a difference that follows a card
// the rules reject. When the rules differ, the counterexample's Line holds
// the one previous card.
func EquivalentAfterAnyCard(a, b *Rule, univ []Card) (bool, *Counterexample, error) {
	if a.as.game != b.as.game || a.as.Len() != b.as.Len() {
		return false, nil, fmt.Errorf("rulelang: cannot compare a %s rule with a %s rule", a.as.game, b.as.game)
	}
	for _, r := range []*Rule{a, b} {
		if r.shape.lookback > 1 || r.shape.usesN {
			return false, nil, fmt.Errorf("rulelang: %q reads more than the previous card", r.text)
		}
	}
	var e env
	e.have, e.n = 1, 2
	for _, p := range univ {
		e.cards[1] = p
		for _, c := range univ {
			e.cards[0] = c
			ta, tb := a.eval(&e) != False, b.eval(&e) != False
			if ta != tb {
				return false, &Counterexample{Line: []Card{p}, Card: c, FirstAccepts: ta}, nil
			}
		}
	}
	return true, nil, nil
}
