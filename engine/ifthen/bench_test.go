package ifthen

import (
	"fmt"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/enginetest"
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

// BenchmarkTeamWinRate plays whole 3-player games (the server as All
// Knowing) with every Code Breaker a bot of one level, one game per
// iteration on seeds 0, 1, 2, …, and reports the share the team won and
// the moves a game took. Run it with a fixed count (-benchtime 200x) to
// compare levels on the same deals.
func BenchmarkTeamWinRate(b *testing.B) {
	for _, level := range []string{LevelStrong, LevelEasy} {
		for lvl := range 4 {
			b.Run(fmt.Sprintf("%s/level%d", level, lvl), func(b *testing.B) {
				won, moves := 0, 0
				for i := range b.N {
					p := enginetest.PlayBots(b, Game{}, engine.Options{"level": fmt.Sprint(lvl)}, 3, level, uint64(i), 5000)
					if len(p.Result.Winners) > 0 {
						won++
					}
					moves += len(p.Record.Moves)
				}
				b.ReportMetric(100*float64(won)/float64(b.N), "%won")
				b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
			})
		}
	}
}
