package breakcode

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// TestBotViewIsTheSeatViewWithoutTheAid: at tables with the aid on, the
// view the lobby gives a bot (BotView) is the seat's view with the aid's
// fields empty and nothing else changed, and the bots — strong and easy,
// 2 to 4 players — choose the same move from either, at every turn of
// seeded games.
func TestBotViewIsTheSeatViewWithoutTheAid(t *testing.T) {
	var st engine.State = newState(true, make([]engine.Player, 3), 1)
	if _, ok := st.(engine.BotViewer); !ok {
		t.Fatal("Break the Code's state does not offer views for bots")
	}
	for _, players := range []int{2, 3, 4} {
		for seed := range uint64(6) {
			s := newState(true, make([]engine.Player, players), seed)
			bots := make([]*Bot, players)
			for i := range bots {
				level := LevelStrong
				if (int(seed)+i)%3 == 2 {
					level = LevelEasy
				}
				bots[i] = &Bot{Seat: engine.Seat(i), Level: level, Seed: seed*8 + uint64(i)}
			}
			for turn := 0; s.phase != Finished; turn++ {
				seat := s.toMove
				full := s.view(engine.SeatViewer(seat))
				lean := s.BotView(seat).(View)
				if full.Seats[(int(seat)+1)%players].Possible == 0 {
					t.Fatalf("%dp seed %d turn %d: the seat's view has no aid to leave out", players, seed, turn)
				}
				want := full
				want.Seats = append([]SeatView(nil), full.Seats...)
				for i := range want.Seats {
					want.Seats[i].Possible, want.Seats[i].Marks, want.Seats[i].PossibleHands = 0, nil, nil
				}
				want.CentrePossible, want.CentreMarks, want.CentreSets = 0, nil, nil
				if !reflect.DeepEqual(lean, want) {
					t.Fatalf("%dp seed %d turn %d: BotView differs from the seat's view beyond the aid:\n%+v\n%+v", players, seed, turn, lean, want)
				}
				a, err := bots[seat].Act(full)
				if err != nil {
					t.Fatal(err)
				}
				b, err := bots[seat].Act(lean)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(a, b) {
					t.Fatalf("%dp seed %d turn %d: the bot plays %s on the seat's view but %s on BotView", players, seed, turn, a, b)
				}
				if _, err := s.Apply(seat, a); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
