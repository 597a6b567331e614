package ifthen

import (
	"maps"
	"slices"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/enginetest"
)

// clone deep-copies a state.
func (s *state) clone() *state {
	c := *s
	c.players = slices.Clone(s.players)
	c.breakers = slices.Clone(s.breakers)
	c.cards = slices.Clone(s.cards)
	c.deck = slices.Clone(s.deck)
	c.market = slices.Clone(s.market)
	c.hands = make([][]int, len(s.hands))
	for i, h := range s.hands {
		c.hands[i] = slices.Clone(h)
	}
	c.akDeck = slices.Clone(s.akDeck)
	c.aside = slices.Clone(s.aside)
	c.discard = slices.Clone(s.discard)
	c.line = make([]lineEntry, len(s.line))
	for i, e := range s.line {
		c.line[i] = lineEntry{Placed: e.Placed, invalid: slices.Clone(e.invalid)}
	}
	c.events = slices.Clone(s.events)
	c.eventsUsed = slices.Clone(s.eventsUsed)
	c.keeps = slices.Clone(s.keeps)
	c.hints = slices.Clone(s.hints)
	if s.lastBad != nil {
		p := *s.lastBad
		c.lastBad = &p
	}
	if s.proposal != nil {
		p := *s.proposal
		p.votes = maps.Clone(s.proposal.votes)
		c.proposal = &p
	}
	c.passes = maps.Clone(s.passes)
	c.declined = slices.Clone(s.declined)
	c.history = slices.Clone(s.history)
	if s.result != nil {
		r, _ := s.Result()
		c.result = &r
	}
	return &c
}

func omniJSON(t *testing.T, s *state) string {
	t.Helper()
	return enginetest.ViewJSON(t, s, engine.Omniscient())
}

// checkConserved fails unless every Number card and every Event card is in
// exactly one place.
func checkConserved(t *testing.T, s *state) {
	t.Helper()
	seen := make([]int, CardCount)
	add := func(ids []int) {
		for _, c := range ids {
			seen[c]++
		}
	}
	add(s.deck)
	add(s.aside)
	add(s.akDeck)
	add(s.discard)
	for _, h := range s.hands {
		add(h)
	}
	for _, p := range s.market {
		seen[p.Card]++
	}
	for _, e := range s.line {
		seen[e.Card]++
		for _, p := range e.invalid {
			seen[p.Card]++
		}
	}
	for c, k := range seen {
		if k != 1 {
			t.Fatalf("card %d is in %d places", c, k)
		}
	}
	evs := make([]int, EventCards)
	for _, ids := range [][]int{s.events, s.eventsUsed, s.keeps} {
		for _, c := range ids {
			evs[c]++
		}
	}
	if s.event >= 0 {
		evs[s.event]++
	}
	for c, k := range evs {
		if k != 1 {
			t.Fatalf("event card %d is in %d places", c, k)
		}
	}
	if len(s.market) > 3 {
		t.Fatalf("market holds %d cards", len(s.market))
	}
}
