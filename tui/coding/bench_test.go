package coding

import (
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	cg "github.com/codebreakers/codebreakers/engine/coding"
)

// BenchmarkView draws a 4-player race for a seat at 80×24 (the view and
// its crack sheet are built once, as the session does per update).
func BenchmarkView(b *testing.B) {
	g := newGame(b, 4, 14, cg.SystemSpeed)
	g.botsUntil(phaseIs(cg.Race))
	bd := g.board(engine.SeatViewer(1), 80, 24)
	b.ReportAllocs()
	for b.Loop() {
		_ = bd.View()
	}
}
