package whattherule

import (
	"slices"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// TestDealAndOrderForEveryTableSize: for 2 to 10 players, each round the
// game master passes one seat to the left, everyone else holds ten cards,
// the rest (144 less the hands) is the pile, the player left of the game
// master starts, and turns run clockwise past the game master.
func TestDealAndOrderForEveryTableSize(t *testing.T) {
	for n := 2; n <= 10; n++ {
		s := newTest(t, n, uint64(n), nil)
		if s.set.Points != (n > 2) || s.totalRounds() != n {
			t.Fatalf("%d players: points %v, rounds %d", n, s.set.Points, s.totalRounds())
		}
		for round := range 2 {
			gm := s.r.gm
			if want := engine.Seat((int(s.firstGM) + round) % n); gm != want {
				t.Fatalf("%d players, round %d: game master %d, want %d", n, round+1, gm, want)
			}
			for i := range n {
				want := HandStart
				if engine.Seat(i) == gm {
					want = 0
				}
				if len(s.r.hands[i]) != want {
					t.Fatalf("%d players: seat %d holds %d cards, want %d", n, i, len(s.r.hands[i]), want)
				}
			}
			if len(s.r.deck) != DeckSize-HandStart*(n-1) {
				t.Fatalf("%d players: pile of %d", n, len(s.r.deck))
			}
			must(t, s, gm, RuleAction("color == white"))
			// A lap of invalid plays: each player in clockwise order, never the game master.
			want := engine.Seat((int(gm) + 1) % n)
			for range 2 * (n - 1) {
				if want == gm {
					want = (want + 1) % engine.Seat(n)
				}
				if s.r.toMove != want {
					t.Fatalf("%d players: seat %d to move, want %d (game master %d)", n, s.r.toMove, want, gm)
				}
				black := slices.IndexFunc(s.r.hands[want], func(id int) bool { return CardOf(id).Color == "black" })
				if black < 0 {
					setHand(t, s, want, cardID(t, "circle", 1+int(want)%6, int(want)%2 == 0, "black", 0))
					black = 0
				}
				must(t, s, want, PlayAction(s.r.hands[want][black]))
				want = (want + 1) % engine.Seat(n)
			}
			// End the round: the next player names the rule after a white card.
			p := s.r.toMove
			setHand(t, s, p, cardID(t, "triangle", 4, false, "white", 1))
			must(t, s, p, PlayAction(s.r.hands[p][0]))
			must(t, s, p, GuessAction("color != black"))
			if len(s.history) != round+1 || s.history[round].Guesser != p {
				t.Fatalf("%d players: round %d ended %+v", n, round+1, s.history)
			}
			if n == 2 && s.phase == Finished {
				break
			}
		}
	}
}

// TestWrongGuessPassesTheTurn: after a fitting card a wrong guess is said
// aloud and recorded, the round goes on, and the next player moves.
func TestWrongGuessPassesTheTurn(t *testing.T) {
	s, _, p := started(t, "count not in {1, 2}", nil)
	setHand(t, s, p[0], cardID(t, "circle", 4, true, "black", 0), cardID(t, "circle", 5, true, "black", 0))
	must(t, s, p[0], PlayAction(s.r.hands[p[0]][0]))
	must(t, s, p[0], GuessAction("count >= 4")) // fits every card so far, but not the rule
	if len(s.history) != 0 || s.phase != Turn || s.r.toMove != p[1] {
		t.Fatalf("after a wrong guess: rounds %d, phase %v, to move %d (want %d)", len(s.history), s.phase, s.r.toMove, p[1])
	}
	if len(s.r.guesses) != 1 || s.r.guesses[0].Right || s.r.guesses[0].Seat != p[0] || s.r.guesses[0].Text != "count >= 4" {
		t.Fatalf("guesses %+v", s.r.guesses)
	}
	if v := s.view(engine.SeatViewer(p[2])); len(v.Guesses) != 1 || v.Rule != nil {
		t.Fatalf("the others hear the guess but not the rule: %+v", v.Guesses)
	}
	refuse(t, s, p[0], GuessAction("count > 2")) // one guess per right play, on one's own turn
	// Missing cards (a first card) do not make "count >= 3" differ from the rule.
	setHand(t, s, p[1], cardID(t, "square", 3, false, "white", 0))
	must(t, s, p[1], PlayAction(s.r.hands[p[1]][0]))
	must(t, s, p[1], GuessAction("count >= 3"))
	if len(s.history) != 1 || s.history[0].Guesser != p[1] || s.history[0].Reason != EndGuessed {
		t.Fatalf("the equivalent guess: %+v", s.history)
	}
}

// TestTiedTotalsShareTheWin: the highest total wins; equal totals share it.
func TestTiedTotalsShareTheWin(t *testing.T) {
	s := newTest(t, 3, 2, engine.Options{OptRounds: "1"})
	gm := s.r.gm
	must(t, s, gm, RuleAction("color == white"))
	p := s.r.toMove
	q := s.nextPlayer(p, gm)
	white := func(count int) int { return cardID(t, "square", count, true, "white", 0) }
	setHand(t, s, p, white(1), white(2), white(3))
	setHand(t, s, q, white(4), white(5), white(6), cardID(t, "circle", 1, true, "white", 0), cardID(t, "circle", 2, true, "white", 0), cardID(t, "circle", 3, true, "white", 0))
	// p names the rule at once: 10-2+5 = 13; q 10-6 = 4; the game master 13,
	// halved (too early) to 6.
	must(t, s, p, PlayAction(white(1)))
	must(t, s, p, GuessAction("color == white"))
	res, ok := s.Result()
	if !ok || !slices.Equal(res.Winners, []engine.Seat{p}) || res.Draw {
		t.Fatalf("one winner expected: %+v", res)
	}
	// The same round with the game master unhalved would tie: check the rule
	// by Score and the game end by its result.
	s2 := newTest(t, 3, 2, engine.Options{OptRounds: "1"})
	s2.scores = []int{7, 7, 3}
	s2.history = append(s2.history, RoundSummary{Reason: EndDeckEmpty})
	s2.finish()
	res, _ = s2.Result()
	if !slices.Equal(res.Winners, []engine.Seat{0, 1}) || !res.Draw || !slices.Equal(res.Scores, []int{7, 7, 3}) {
		t.Fatalf("a tie for the top: %+v", res)
	}
}
