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
		{"", false},                     // a new game: the newest rules
		{RulesGuessAfterAnyCard, false}, // named
		{RulesTwoHints, true},           // recorded before the fix: replays as played
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
