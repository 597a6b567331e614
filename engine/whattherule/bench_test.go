package whattherule

import (
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// BenchmarkBotMove times a strong player bot's decision mid-round (after 20
// verdicts), the work a table does off its goroutine per bot move.
func BenchmarkBotMove(b *testing.B) {
	s := newState(settings{Points: true, JudgeMilli: 1000}, make([]engine.Player, 4), 1)
	if _, err := s.Apply(s.r.gm, LibraryAction(30)); err != nil {
		b.Fatal(err)
	}
	for len(s.r.judgements) < 20 {
		p := s.r.toMove
		if _, err := s.Apply(p, PlayAction(s.r.hands[p][0])); err != nil {
			b.Fatal(err)
		}
		if s.phase == GuessOffer {
			if _, err := s.Apply(p, NoGuessAction()); err != nil {
				b.Fatal(err)
			}
		}
	}
	v := s.view(engine.SeatViewer(s.r.toMove))
	bot := &Bot{Seat: s.r.toMove, Level: LevelStrong, Seed: 1}
	b.ResetTimer()
	for range b.N {
		if _, err := bot.Act(v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJudgeGuess times judging a guess by exact equivalence.
func BenchmarkJudgeGuess(b *testing.B) {
	for range b.N {
		s := newState(settings{Points: true, JudgeMilli: 1000}, make([]engine.Player, 3), 1)
		if _, err := s.Apply(s.r.gm, RuleAction("if prev.color == prev2.color then color != prev.color else color == prev.color")); err != nil {
			b.Fatal(err)
		}
		s.phase = GuessOffer
		if _, err := s.Apply(s.r.toMove, GuessAction("if prev.color == prev2.color then color != prev.color")); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGameMasterView times the game master's view of a machine rule
// (it judges all 72 faces for the preview).
func BenchmarkGameMasterView(b *testing.B) {
	s := newState(settings{Points: true, JudgeMilli: 1000}, make([]engine.Player, 6), 1)
	if _, err := s.Apply(s.r.gm, LibraryAction(40)); err != nil {
		b.Fatal(err)
	}
	for range b.N {
		s.View(engine.SeatViewer(s.r.gm))
	}
}
