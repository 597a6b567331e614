package breakcode

import (
	"fmt"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// BenchmarkBotFirstMove times the strong bot's decision at the start of a
// game (the largest set of possible deals it ever weighs).
func BenchmarkBotFirstMove(b *testing.B) {
	for n := 2; n <= 4; n++ {
		b.Run(fmt.Sprintf("%dp", n), func(b *testing.B) {
			s := newState(false, make([]engine.Player, n), 1)
			v := s.view(engine.SeatViewer(s.toMove))
			bot := &Bot{Seat: s.toMove, Level: LevelStrong, Seed: 1}
			handsOfSize(v.HandSize)
			b.ResetTimer()
			for b.Loop() {
				if _, err := bot.Act(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSeatViewWithAid times a seat's view with the aid counts on.
func BenchmarkSeatViewWithAid(b *testing.B) {
	for n := 2; n <= 4; n++ {
		b.Run(fmt.Sprintf("%dp", n), func(b *testing.B) {
			s := newState(true, make([]engine.Player, n), 1)
			handsOfSize(s.handSize)
			for b.Loop() {
				s.View(engine.SeatViewer(0))
			}
		})
	}
}
