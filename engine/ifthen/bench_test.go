package ifthen

import (
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// BenchmarkStrongBotTurn measures one strong Code Breaker move, which
// filters the level's Challenges against the public judgements.
func BenchmarkStrongBotTurn(b *testing.B) {
	s := newState(3, ModeServer, players(4), 11)
	for range 12 {
		if s.phase != Turn {
			break
		}
		seat := s.toMove
		if _, err := s.Apply(seat, PlayAction(0, 0)); err != nil {
			b.Fatal(err)
		}
		if s.phase == Penalty {
			if _, err := s.Apply(seat, DrawAction()); err != nil {
				b.Fatal(err)
			}
		}
	}
	bot := &Bot{Seat: s.toMove, Level: LevelStrong, Seed: 1}
	v := s.View(engine.SeatViewer(s.toMove))
	b.ResetTimer()
	for range b.N {
		if _, err := bot.Act(v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyPlay measures judging one play (copying the state each time).
func BenchmarkApplyPlay(b *testing.B) {
	s := newState(2, ModeServer, players(4), 12)
	act := PlayAction(0, 1)
	for range b.N {
		c := s.clone()
		if _, err := c.Apply(c.toMove, act); err != nil {
			b.Fatal(err)
		}
	}
}
