package ifthen

import (
	"regexp"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine/rulelang"
)

// TestRulesExamplesParse keeps the guesses quoted in the rules text valid
// rule-language sentences, so a player who copies one is not told it is wrong.
func TestRulesExamplesParse(t *testing.T) {
	quoted := regexp.MustCompile(`"([^"]+)"`).FindAllStringSubmatch(Rules, -1)
	if len(quoted) == 0 {
		t.Fatal("the rules quote no example guess")
	}
	for _, q := range quoted {
		if _, err := rulelang.Parse(rulelang.IfThenAttributes(), q[1]); err != nil {
			t.Errorf("example %q does not parse: %v", q[1], err)
		}
	}
	for _, k := range []string{"Penalties", "Hints", "Guessing the Code", "How it ends"} {
		if !strings.Contains(Rules, k) {
			t.Errorf("the rules have no %q section", k)
		}
	}
}
