package whattherule

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/enginetest"
)

// newTest deals a game for n players named p0, p1, ... with options.
func newTest(t *testing.T, n int, seed uint64, opts engine.Options) *state {
	t.Helper()
	players := enginetest.Players(n)
	st, _, err := engine.Start(Game{}, opts, players, seed)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*state)
}

// must applies an action that has to be legal.
func must(t *testing.T, s *state, seat engine.Seat, action []byte) []engine.Event {
	t.Helper()
	evs, err := s.Apply(seat, action)
	if err != nil {
		t.Fatalf("%s by seat %d refused: %v", action, seat, err)
	}
	return evs
}

// refuse applies an action that has to be refused, and checks nothing changed.
func refuse(t *testing.T, s *state, seat engine.Seat, action []byte) string {
	t.Helper()
	before := omniJSON(t, s)
	_, err := s.Apply(seat, action)
	if err == nil || !engine.IsIllegal(err) {
		t.Fatalf("%s by seat %d: want a refusal, got %v", action, seat, err)
	}
	if omniJSON(t, s) != before {
		t.Fatalf("refused %s changed the state", action)
	}
	return err.Error()
}

func omniJSON(t testing.TB, s *state) string {
	t.Helper()
	b, err := json.Marshal(s.View(engine.Omniscient()))
	if err != nil {
		t.Fatal(err)
	}
	// The omniscient view does not show the deck order or the rng; add them.
	return fmt.Sprintf("%s|deck=%v|moves=%d|rng=%d", b, s.r.deck, s.moves, s.clone().rng().Uint64())
}

// cardID returns the id of a card by face: copy 0 or 1 of the two printed.
func cardID(t *testing.T, shape string, count int, filled bool, color string, copy int) int {
	t.Helper()
	for i := range Faces {
		c := CardOf(i)
		if c.Shape == shape && c.Count == count && c.Filled == filled && c.Color == color {
			return i + copy*Faces
		}
	}
	t.Fatalf("no card %s %d %v %s", shape, count, filled, color)
	return -1
}

// setHand gives seat exactly ids, taking them from wherever they are (the
// deck or another hand) and putting the seat's old cards back there.
func setHand(t *testing.T, s *state, seat engine.Seat, ids ...int) {
	t.Helper()
	old := slices.Clone(s.r.hands[seat])
	s.r.hands[seat] = nil
	s.r.deck = append(s.r.deck, old...)
	for _, id := range ids {
		if !takeCard(s, id) {
			t.Fatalf("card %d is not in the deck or a hand", id)
		}
	}
	s.r.hands[seat] = slices.Clone(ids)
	checkConserved(t, s)
}

// takeCard removes id from the deck or any hand.
func takeCard(s *state, id int) bool {
	if i := slices.Index(s.r.deck, id); i >= 0 {
		s.r.deck = slices.Delete(s.r.deck, i, i+1)
		return true
	}
	for h := range s.r.hands {
		if i := slices.Index(s.r.hands[h], id); i >= 0 {
			s.r.hands[h] = slices.Delete(s.r.hands[h], i, i+1)
			s.r.hands[h] = append(s.r.hands[h], s.r.deck[0])
			s.r.deck = s.r.deck[1:]
			return true
		}
	}
	return false
}

// setTop puts ids (from the deck) on top of the draw pile, in order.
func setTop(t *testing.T, s *state, ids ...int) {
	t.Helper()
	for _, id := range ids {
		i := slices.Index(s.r.deck, id)
		if i < 0 {
			t.Fatalf("card %d is not in the deck", id)
		}
		s.r.deck = slices.Delete(s.r.deck, i, i+1)
	}
	s.r.deck = append(slices.Clone(ids), s.r.deck...)
}

// checkConserved fails unless every one of the 144 cards is in exactly one place.
func checkConserved(t testing.TB, s *state) {
	t.Helper()
	if s.phase == Finished {
		return
	}
	seen := make([]int, DeckSize)
	count := func(ids []int) {
		for _, id := range ids {
			if id < 0 || id >= DeckSize {
				t.Fatalf("card id %d out of range", id)
			}
			seen[id]++
		}
	}
	count(s.r.deck)
	for _, h := range s.r.hands {
		count(h)
	}
	count(s.r.line)
	for _, col := range s.r.below {
		count(col)
	}
	if s.r.pendingCard >= 0 {
		count([]int{s.r.pendingCard})
	}
	for id, k := range seen {
		if k != 1 {
			t.Fatalf("card %d (%s) is in %d places", id, CardOf(id), k)
		}
	}
	if len(s.r.below) != len(s.r.line)+1 {
		t.Fatalf("%d columns below a line of %d", len(s.r.below), len(s.r.line))
	}
	if len(s.r.hands[s.r.gm]) != 0 {
		t.Fatalf("the game master holds cards")
	}
}
