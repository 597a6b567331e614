package breakcode

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

func TestBotIsDeterministicAndWaitsItsTurn(t *testing.T) {
	for n := 2; n <= 4; n++ {
		s := newState(true, make([]engine.Player, n), 3)
		for _, level := range []string{LevelStrong, LevelEasy} {
			bot, err := Game{}.NewBot(s.toMove, level, 9)
			if err != nil {
				t.Fatal(err)
			}
			v := s.View(engine.SeatViewer(s.toMove))
			a1, err1 := bot.Act(v)
			a2, err2 := bot.Act(v)
			if err1 != nil || err2 != nil || !bytes.Equal(a1, a2) {
				t.Fatalf("%dp %s: %s/%v then %s/%v", n, level, a1, err1, a2, err2)
			}
			pv := v.(View)
			if a3, _ := bot.Act(&pv); !bytes.Equal(a1, a3) {
				t.Fatalf("%dp %s: pointer view gave %s, value view %s", n, level, a3, a1)
			}
			if _, err := s.clone().Apply(s.toMove, a1); err != nil {
				t.Fatalf("%dp %s: bot move %s refused: %v", n, level, a1, err)
			}
			other := (s.toMove + 1) % engine.Seat(n)
			idle, _ := Game{}.NewBot(other, level, 9)
			if a, err := idle.Act(s.View(engine.SeatViewer(other))); a != nil || err != nil {
				t.Fatalf("%dp %s: bot acted out of turn: %s %v", n, level, a, err)
			}
			if _, err := bot.Act(s.View(engine.Spectator())); err != nil {
				t.Fatalf("spectator view: %v", err)
			}
			if _, err := bot.Act("not a view"); err == nil {
				t.Fatal("a string was accepted as a view")
			}
		}
	}
}

// Strong bots only guess when sure (or when it is their last chance), so in
// 3- and 4-player games their guesses are right unless forced.
func TestStrongBotGuessesWhenSure(t *testing.T) {
	for n := 2; n <= 4; n++ {
		games := 6
		if testing.Short() {
			games = 2
		}
		for seed := range uint64(games) {
			s := newState(false, make([]engine.Player, n), seed)
			for s.phase != Finished {
				v := s.view(engine.SeatViewer(s.toMove))
				a, err := (&Bot{Seat: s.toMove, Level: LevelStrong, Seed: seed}).Act(v)
				if err != nil {
					t.Fatal(err)
				}
				var act Action
				if err := json.Unmarshal(a, &act); err != nil {
					t.Fatal(err)
				}
				seat := s.toMove
				mustApply(t, s, seat, a)
				if act.Guess != nil && n > 2 && !lastChance(v) && !s.gotIt[seat] {
					t.Fatalf("%dp seed %d: seat %d guessed wrong without being forced", n, seed, seat)
				}
			}
			if r, _ := s.Result(); len(r.Winners) == 0 {
				t.Errorf("%dp seed %d: strong bots found no winner: %s", n, seed, r.Summary)
			}
		}
	}
}
