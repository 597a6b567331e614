package whattherule

import (
	"testing"

	wtr "github.com/codebreakers/codebreakers/engine/whattherule"
)

// TestReferenceExamplesParse keeps the examples of the in-game reference
// valid rules, so a player who copies one is not told it does not read.
func TestReferenceExamplesParse(t *testing.T) {
	if len(referenceExamples) < 5 {
		t.Fatalf("the reference shows %d examples", len(referenceExamples))
	}
	for _, e := range referenceExamples {
		if _, err := wtr.ParseGuess(e[0]); err != nil {
			t.Errorf("example %q does not read: %v", e[0], err)
		}
	}
}
