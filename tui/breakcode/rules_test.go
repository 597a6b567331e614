package breakcode

import (
	"strings"
	"testing"
)

// TestRulesSayEveryEnding: the rules page names each way the rulebook ends
// a game, so a player never learns a different rule there than the table
// plays (the engine's tests hold the table to the same endings).
func TestRulesSayEveryEnding(t *testing.T) {
	text := strings.Join(strings.Fields(Rules), " ")
	for _, want := range []string{
		"only called wrong, with no hint",                 // 2 players: a wrong guess says nothing more
		"the other player gets one last guess",            // 2 players: the starter's right guess
		"a tie if it is right (wrong, or passing, loses)", // … and how it ends
		"each player guesses at most once",                // 3–4 players
		"You alone see the middle tiles",                  // the centre is private to the guesser
		"the round is finished so everyone had as many turns",
		"If everyone guesses wrong, nobody wins",
		"a draw with two players; with three or four, only those who already guessed right win",
		"with four players you answer it too",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the rules page does not say %q", want)
		}
	}
}
