package ifthen

import (
	"slices"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// TestGuessJudgedAfterEveryLastCard: the Code Line opens with a dealt card
// nobody judged, so a guess must agree with the Code after every end, also
// one the Code itself would never accept. Challenge 1-02 sends every
// background back to red after blue; "bg != prev.bg and bg != blue" agrees
// with it everywhere except after a blue background, and is wrong.
func TestGuessJudgedAfterEveryLastCard(t *testing.T) {
	const code = "if prev.bg == red then bg == yellow else bg == red"
	const nearMiss = "bg != prev.bg and bg != blue"
	for _, tc := range []struct {
		rules string
		wins  bool
	}{
		{"", false},           // a new game: the newest rules
		{RulesThird, false},   // named
		{RulesTwoHints, true}, // recorded before the fix: replays as played
	} {
		opts := engine.Options{"level": "1", "allknowing": ModePlayer}
		if tc.rules != "" {
			opts[engine.RulesOption] = tc.rules
		}
		st, err := Game{}.New(opts, players(2), 7)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*state)
		withCode(t, s, code)
		s.line = s.line[:1]
		blue := findCard(t, func(c Card) bool { return c.A.BG == 1 })
		takeCard(s, blue)
		s.discard = append(s.discard, s.line[0].Card)
		s.line[0] = lineEntry{Placed: Placed{Card: blue}} // a blue background opens the Code Line
		deck := len(s.deck)
		mustApply(t, s, 1, ProposeAction(Proposal{Kind: ProposeGuess, Text: nearMiss}))
		_, over := s.Result()
		if over != tc.wins {
			t.Fatalf("rules %q: the near miss ended the game: %v, want %v", tc.rules, over, tc.wins)
		}
		if !tc.wins && len(s.deck) != deck-2*s.penalty() {
			t.Fatalf("rules %q: wrong guess cost %d cards, want %d", tc.rules, deck-len(s.deck), 2*s.penalty())
		}
		if tc.wins {
			continue
		}
		// The same Code in other words still wins.
		mustApply(t, s, 1, ProposeAction(Proposal{Kind: ProposeGuess, Text: "bg == yellow and prev.bg == red or bg == red and prev.bg != red"}))
		if r, ok := s.Result(); !ok || !slices.Contains(r.Winners, 1) {
			t.Fatalf("rules %q: the right guess did not win: %+v", tc.rules, r)
		}
	}
}

// TestPassLeftWithOneHolder: Pass Left asks every Code Breaker holding
// cards to pass one on, so a lone holder passes to the next Code Breaker
// as well (revision 3); games under revision 2 skipped the Event then.
func TestPassLeftWithOneHolder(t *testing.T) {
	for _, rules := range []string{RulesThird, RulesTwoHints} {
		st, err := Game{}.New(engine.Options{"level": "1", engine.RulesOption: rules}, players(3), 4)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*state)
		for _, b := range []engine.Seat{0, 2} {
			s.discard = append(s.discard, s.hands[b]...)
			s.hands[b] = nil
		}
		s.toMove = 1
		held := slices.Clone(s.hands[1])
		forceEvent(s, EventPassLeft)
		s.drawEvent(nil)
		checkConserved(t, s)
		if rules == RulesTwoHints {
			if s.phase != Turn || !slices.Equal(s.hands[1], held) {
				t.Fatalf("revision 2: phase %v, hand %v → %v", s.phase, held, s.hands[1])
			}
			continue
		}
		if s.phase != PassLeft || !slices.Equal(s.Status().Active, []engine.Seat{1}) {
			t.Fatalf("phase %v, active %v: want seat 1 to pass", s.phase, s.Status().Active)
		}
		mustRefuse(t, s, 2, PassAction(0), "holding cards")
		mustApply(t, s, 1, PassAction(1))
		if len(s.hands[1]) != len(held)-1 || !slices.Equal(s.hands[2], []int{held[1]}) {
			t.Fatalf("hands after the pass: %v and %v, from %v", s.hands[1], s.hands[2], held)
		}
		if s.phase != Turn || len(s.withCards()) != 2 {
			t.Fatalf("after the pass: phase %v, holders %v", s.phase, s.withCards())
		}
	}
}
