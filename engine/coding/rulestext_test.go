package coding

import (
	"strings"
	"testing"
)

// TestRulesTextSaysTheRules: the rules page names each rule a player acts
// on as the engine plays it (the engine's tests hold the table to them).
func TestRulesTextSaysTheRules(t *testing.T) {
	text := strings.Join(strings.Fields(Rules), " ")
	for _, want := range []string{
		"You never take the same range twice",
		"every range left that you do not already hold", // a "cannot take" announcement
		"send only to players who have not played yet",  // the rounds' sending rule
		"the round's first player receives last",
		"After each round, the fourth too, the first-player card moves one seat on",
		"With 2 players there is one Data card of each range; with 3 or 4 there are two of each",
		"Wrong, or out of time: you are out and your code is shown",
		"With 2 or 3 players this can be voted again while cards are left; with 4, only once",
		"pick one of their X cards in secret",
		"not back to whoever sent you your latest one unless only two players are left",
		"nobody may hold more than five",
		"your third wrong decode shows the last one and you are out",
		"The last player with a hidden code wins",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the rules page does not say %q", want)
		}
	}
}
