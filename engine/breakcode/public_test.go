package breakcode

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// TestViewsShareThePublicRecord: the questions, answers and notes are the
// same for every viewer, so the views built after a move (every seat's, a
// spectator's, the omniscient one) share one record of them rather than
// each holding a copy; and at every move that record is exactly what a
// state that never made one (a clone) builds afresh, through games of 2,
// 3 and 4 players played to their last question.
func TestViewsShareThePublicRecord(t *testing.T) {
	for n := 2; n <= 4; n++ {
		rng := rand.New(rand.NewPCG(uint64(n), 5))
		s := newState(true, make([]engine.Player, n), uint64(n))
		for move := 0; ; move++ {
			viewers := []engine.Viewer{engine.Spectator(), engine.Omniscient()}
			for seat := range n {
				viewers = append(viewers, engine.SeatViewer(engine.Seat(seat)))
			}
			var first View
			for i, who := range viewers {
				v := s.View(who).(View)
				fresh := s.clone().View(who).(View)
				if !reflect.DeepEqual(v.Asked, fresh.Asked) {
					t.Fatalf("%dp move %d, %v: questions %+v, built afresh %+v", n, move, who, v.Asked, fresh.Asked)
				}
				for seat := range n {
					if got, want := v.Seats[seat].Notes, fresh.Seats[seat].Notes; !reflect.DeepEqual(got, want) {
						t.Fatalf("%dp move %d, %v: seat %d's notes %+v, built afresh %+v", n, move, who, seat, got, want)
					}
				}
				if i == 0 {
					first = v
					continue
				}
				if len(v.Asked) > 0 && &v.Asked[0] != &first.Asked[0] {
					t.Fatalf("%dp move %d: %v's view holds its own copy of the questions", n, move, who)
				}
				for seat := range n {
					if notes := v.Seats[seat].Notes; len(notes) > 0 && &notes[0] != &first.Seats[seat].Notes[0] {
						t.Fatalf("%dp move %d: %v's view holds its own copy of seat %d's notes", n, move, who, seat)
					}
				}
			}
			if len(s.faceUp) <= 1 || s.phase == Finished {
				if move < 5 {
					t.Fatalf("%dp: only %d questions: the test checks little", n, move)
				}
				break
			}
			card := s.faceUp[rng.IntN(len(s.faceUp))]
			num := 0
			if nums := CardNumbers(card); nums != nil {
				num = nums[rng.IntN(2)]
			}
			if _, err := s.Apply(s.toMove, AskAction(card, num)); err != nil {
				t.Fatal(err)
			}
		}
	}
}
