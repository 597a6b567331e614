package breakcode

import (
	"slices"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// Scenario tests of the rulebook's turn order and end of game, one rule
// each, with fixed deals (fixedGame) so nothing depends on a seed.

var (
	threeHands  = []string{"1b 2w 5g 8b 9w", "0b 3w 4b 6w 7b", "0w 1w 2b 3b 4w"} // centre 5g 6b 7w 8w 9b
	threeCentre = "5g 6b 7w 8w 9b"
	fourHands   = []string{"1b 2w 5g 8b", "0b 3w 4b 6w", "0w 1w 2b 3b", "4w 6b 7b 7w"} // centre 5g 8w 9b 9w
	fourCentre  = "5g 8w 9b 9w"
	someCards   = []int{1, 7, 13, 14, 18, 21}
)

// Who answers: with 2 players the opponent, with 3 both others (from the
// asker's left), with 4 everyone, the asker included.
func TestAnswerersByPlayerCount(t *testing.T) {
	hands := map[int][]string{2: threeHands[:2], 3: threeHands, 4: fourHands}
	for n := 2; n <= 4; n++ {
		for asker := range engine.Seat(n) {
			s := fixedGame(t, hands[n], someCards, asker)
			mustApply(t, s, asker, AskAction(1, 0))
			var got []engine.Seat
			for _, a := range s.asked[0].Answers {
				got = append(got, a.Seat)
			}
			var want []engine.Seat
			for i := 1; i < n; i++ {
				want = append(want, (asker+engine.Seat(i))%engine.Seat(n))
			}
			if n == 4 {
				want = append(want, asker)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%d players, %d asks: answered by %v, want %v", n, asker, got, want)
			}
			if next := (asker + 1) % engine.Seat(n); s.toMove != next {
				t.Errorf("%d players, %d asked: %d to move, want %d (the player on the left)", n, asker, s.toMove, next)
			}
		}
	}
}

// With 2 players the non-starter's right guess ends the game at once, even
// after the starter guessed wrong: the starter has had as many turns.
func TestTwoPlayersStarterWrongThenOpponentRight(t *testing.T) {
	s := fixedGame(t, threeHands[:2], someCards, 0)
	mustApply(t, s, 0, GuessAction(tiles(t, "0b 3w 4b 6w 7w")))
	if s.phase != Playing || s.toMove != 1 {
		t.Fatalf("after the starter's wrong guess: phase %v, to move %d", s.phase, s.toMove)
	}
	mustApply(t, s, 1, GuessAction(tiles(t, threeHands[0])))
	r, ok := s.Result()
	if !ok || !slices.Equal(r.Winners, []engine.Seat{1}) || r.Draw {
		t.Fatalf("result %+v %v, want Bo alone", r, ok)
	}
}

// With 2 players a wrong guess keeps you in: you may ask and guess again.
func TestTwoPlayersGuessAgainAfterWrong(t *testing.T) {
	s := fixedGame(t, threeHands[:2], someCards, 0)
	wrong := GuessAction(tiles(t, "0b 3w 4b 6w 7w"))
	mustApply(t, s, 0, wrong)
	mustApply(t, s, 1, AskAction(1, 0))
	mustApply(t, s, 0, AskAction(7, 0))
	mustApply(t, s, 1, wrong) // Bo guesses about mara's tiles: also wrong
	mustApply(t, s, 0, wrong)
	if _, over := s.Result(); over || s.toMove != 1 || s.phase != Playing {
		t.Fatalf("after a second wrong guess: phase %v, to move %d", s.phase, s.toMove)
	}
	if g := s.view(engine.SeatViewer(1)).Seats[0].Guesses; len(g) != 2 || g[1].Right || g[1].Tiles == nil {
		t.Fatalf("Bo sees mara's guesses as %+v; said out loud, they are public", g)
	}
}

// A right guess by the last player of the round ends the game at once.
func TestThreePlayersRightGuessClosingTheRound(t *testing.T) {
	s := fixedGame(t, threeHands, someCards, 0)
	mustApply(t, s, 0, AskAction(1, 0))
	mustApply(t, s, 1, AskAction(7, 0))
	mustApply(t, s, 2, GuessAction(tiles(t, threeCentre)))
	r, ok := s.Result()
	if !ok || !slices.Equal(r.Winners, []engine.Seat{2}) {
		t.Fatalf("result %+v %v, want Kai alone at once", r, ok)
	}
}

// A right guess by the starter gives every other player one more turn.
func TestFourPlayersStarterRightOthersFinishTheRound(t *testing.T) {
	s := fixedGame(t, fourHands, someCards, 1)
	mustApply(t, s, 1, GuessAction(tiles(t, fourCentre)))
	for _, seat := range []engine.Seat{2, 3, 0} {
		if _, over := s.Result(); over || s.toMove != seat {
			t.Fatalf("the closing round: to move %d, want %d", s.toMove, seat)
		}
		v := s.view(engine.SeatViewer(seat))
		if !v.RoundClosing || v.Seats[1].Guesses[0].Tiles != nil || !v.Seats[1].GotIt {
			t.Fatalf("%d sees %+v", seat, v.Seats[1])
		}
		mustApply(t, s, seat, AskAction(s.faceUp[0], firstNumber(s.faceUp[0])))
	}
	r, ok := s.Result()
	if !ok || !slices.Equal(r.Winners, []engine.Seat{1}) || r.Draw {
		t.Fatalf("result %+v %v, want Bo alone", r, ok)
	}
}

// The round still ends where it began when its first player is out: a
// seat that guessed wrong before takes no turn, and the round closes after
// the last seat still playing.
func TestFourPlayersRoundClosesPastAnOutStarter(t *testing.T) {
	s := fixedGame(t, fourHands, someCards, 0)
	mustApply(t, s, 0, GuessAction(tiles(t, "5g 8w 9b 8b"))) // wrong: mara is out
	mustApply(t, s, 1, AskAction(1, 0))
	// mara, out, still answers (she is in every answer list).
	if a := s.asked[0].Answers; len(a) != 4 || a[2].Seat != 0 {
		t.Fatalf("answers %+v", a)
	}
	mustApply(t, s, 2, AskAction(7, 0))
	mustApply(t, s, 3, AskAction(13, 0))
	mustApply(t, s, 1, AskAction(14, 0)) // round 2 starts with Bo: mara is skipped
	mustApply(t, s, 2, GuessAction(tiles(t, fourCentre)))
	if _, over := s.Result(); over || s.toMove != 3 {
		t.Fatalf("Lu must still play; to move %d", s.toMove)
	}
	mustApply(t, s, 3, GuessAction(tiles(t, fourCentre)))
	r, ok := s.Result()
	if !ok || !slices.Equal(r.Winners, []engine.Seat{2, 3}) || s.toMove == 1 {
		t.Fatalf("result %+v %v, want Kai and Lu without another turn for Bo", r, ok)
	}
	if r.Won(0) || r.Won(1) {
		t.Fatalf("mara or Bo won: %+v", r)
	}
}

// A seat that has guessed can never guess (or ask) again.
func TestThreePlayersOneGuessEach(t *testing.T) {
	s := fixedGame(t, threeHands, someCards, 0)
	mustApply(t, s, 0, GuessAction(tiles(t, "5g 6b 7w 8w 9w")))
	for _, a := range [][]byte{GuessAction(tiles(t, threeCentre)), AskAction(1, 0)} {
		if _, err := s.Apply(0, a); !engine.IsIllegal(err) {
			t.Fatalf("mara acted after her guess: %v", err)
		}
	}
	v := s.view(engine.SeatViewer(0))
	if v.CanAsk() || v.CanGuess() || !v.Seats[0].Out || v.Seats[0].GotIt {
		t.Fatalf("mara's view after a wrong guess: %+v", v.Seats[0])
	}
	// Only the guesser has looked at the centre.
	if FormatTiles(v.Centre) != threeCentre {
		t.Fatalf("mara sees the centre as %v", v.Centre)
	}
	for _, w := range []engine.Viewer{engine.SeatViewer(1), engine.SeatViewer(2), engine.Spectator()} {
		if c := s.view(w).Centre; c != nil {
			t.Fatalf("%+v sees the centre %v", w, c)
		}
	}
}

// When the last face-up card is asked the game ends: no winner if nobody
// guessed right, but a player who already said "I got it!" still wins.
func TestThreePlayersQuestionsRunOut(t *testing.T) {
	lastCard := func(t *testing.T) *state {
		s := fixedGame(t, threeHands, []int{7}, 0)
		s.deck = nil
		return s
	}
	t.Run("nobody right", func(t *testing.T) {
		s := lastCard(t)
		mustApply(t, s, 0, AskAction(7, 0))
		r, ok := s.Result()
		if !ok || len(r.Winners) != 0 {
			t.Fatalf("result %+v %v, want no winner", r, ok)
		}
	})
	t.Run("after a right guess", func(t *testing.T) {
		s := lastCard(t)
		mustApply(t, s, 0, GuessAction(tiles(t, threeCentre)))
		mustApply(t, s, 1, AskAction(7, 0))
		r, ok := s.Result()
		if !ok || !slices.Equal(r.Winners, []engine.Seat{0}) {
			t.Fatalf("result %+v %v, want mara", r, ok)
		}
	})
}

// Everyone out with no right guess: nobody wins, with 4 players too.
func TestFourPlayersEveryoneWrong(t *testing.T) {
	s := fixedGame(t, fourHands, someCards, 3)
	wrong := GuessAction(tiles(t, "5g 8w 9b 8b"))
	for _, seat := range []engine.Seat{3, 0, 1, 2} {
		if _, over := s.Result(); over {
			t.Fatalf("over before %d guessed", seat)
		}
		mustApply(t, s, seat, wrong)
	}
	r, ok := s.Result()
	if !ok || len(r.Winners) != 0 {
		t.Fatalf("result %+v %v, want no winner", r, ok)
	}
}

// firstNumber is the number to name when asking card (0 for most cards).
func firstNumber(card int) int {
	if ns := CardNumbers(card); ns != nil {
		return ns[0]
	}
	return 0
}
