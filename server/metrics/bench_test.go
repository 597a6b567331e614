package metrics

import (
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/lobby"
)

// BenchmarkAction is the cost the observer adds to every move.
func BenchmarkAction(b *testing.B) {
	m := New(Sources{})
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.Action("breakcode", lobby.OutcomeOK, 3*time.Millisecond)
		}
	})
}
