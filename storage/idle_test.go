package storage

import (
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine/rating"
)

// ratingsOnly are standings that know ratings alone.
type ratingsOnly map[string]GameRating

func (r ratingsOnly) Stats(string) (Stats, error)                         { return Stats{}, nil }
func (r ratingsOnly) LevelRecords(string) (map[string]LevelRecord, error) { return nil, nil }
func (r ratingsOnly) Rating(acct, _ string) (GameRating, bool, error) {
	g, ok := r[acct]
	return g, ok, nil
}

// TestSettleGrowsDeviationForTimeAway: a rated game rates each player from
// their rating as it stands when the game ends, its deviation grown by the
// whole days since their last rated game (Glicko-2's pre-period step), so
// someone back after two months moves further than someone who played an
// hour ago; the change records the grown rating as the one rated from.
func TestSettleGrowsDeviationForTimeAway(t *testing.T) {
	end := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	settled := rating.Rating{R: 1650, RD: 50, Vol: 0.06}
	cur := ratingsOnly{
		"SHA256:mara": {Game: "breakcode", Rating: settled, Games: 40, Last: end.AddDate(0, 0, -60)},
		"SHA256:bo":   {Game: "breakcode", Rating: settled, Games: 40, Last: end.Add(-time.Hour)},
	}
	g := FinishedGame{LiveGame: LiveGame{Rated: true, Seats: []SeatRecord{key("mara"), key("bo")}}, Result: won(1), Finished: end}
	g.Record.Game = "breakcode"
	st, err := Settle(g, cur)
	if err != nil {
		t.Fatal(err)
	}
	away := settled.Idle(60)
	want, _ := rating.Update([]rating.Rating{away, settled}, []int{1, 0})
	if got := st.Ratings[0].After.Rating; got != want[0] {
		t.Errorf("mara after two months away: %+v, want %+v (rated from ±%.1f)", got, want[0], away.RD)
	}
	if got := st.Ratings[1].After.Rating; got != want[1] {
		t.Errorf("bo, who played an hour ago: %+v, want %+v", got, want[1])
	}
	if st.Game.Changes[0].Before != away || st.Game.Changes[1].Before != settled {
		t.Errorf("changes record the ratings rated from: %+v", st.Game.Changes)
	}
	if st.Ratings[0].Before.Rating != settled {
		t.Errorf("the stored rating to replace is the stored one: %+v", st.Ratings[0].Before)
	}
	if lost := settled.R - st.Ratings[0].After.R; lost <= st.Ratings[1].After.R-settled.R {
		t.Errorf("the player back after two months should move more: mara −%.1f, bo +%.1f", lost, st.Ratings[1].After.R-settled.R)
	}
}

// TestCurrentRating: a stored rating read later has grown by the whole
// days since its last game; a rating without a last game is as stored.
func TestCurrentRating(t *testing.T) {
	last := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	g := GameRating{Game: "coding", Rating: rating.Rating{R: 1700, RD: 60, Vol: 0.06}, Games: 9, Wins: 5, Last: last}
	got := g.Current(last.AddDate(0, 0, 30).Add(5 * time.Hour))
	if got.Rating != g.Rating.Idle(30) || got.Games != 9 || got.Wins != 5 || !got.Last.Equal(last) {
		t.Errorf("30 days on: %+v, want the rating grown by 30 periods and the rest as stored", got)
	}
	if got := (GameRating{Rating: g.Rating}).Current(last); got.Rating != g.Rating {
		t.Errorf("no last game: %+v", got)
	}
}
