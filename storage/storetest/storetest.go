// Package storetest is the contract every storage.Store keeps: one suite of
// tests that the bbolt file (storage.DB) and a cluster node's store
// (storage.Split over PostgreSQL) both pass, so that the arcade behaves the
// same on one machine and on many.
package storetest

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/analysis"
	"github.com/codebreakers/codebreakers/storage"
)

// Opener opens a fresh, empty store for one test and closes it when the
// test ends.
type Opener func(t *testing.T) storage.Store

// Run runs the whole contract against stores made by open.
func Run(t *testing.T, open Opener) {
	cases := []struct {
		name string
		test func(*testing.T, Opener)
	}{
		{"AccountsAndHandles", testAccountsAndHandles},
		{"NewGameID", testNewGameID},
		{"LiveGameRoundTrip", testLiveGameRoundTrip},
		{"FinishedGamesHistoryAndStats", testFinishedGamesHistoryAndStats},
		{"HistoryOrderWithEqualTimesAndGuests", testHistoryOrderWithEqualTimesAndGuests},
		{"RatedGameMovesRatingsInOneWrite", testRatedGameMovesRatingsInOneWrite},
		{"BotOrGuestLeavesRatingsUntouched", testBotOrGuestLeavesRatingsUntouched},
		{"SharedWinRecordedAndShownAsOne", testSharedWinRecordedAndShownAsOne},
		{"LeavingARatedGameCountsAsALoss", testLeavingARatedGameCountsAsALoss},
		{"LeaderboardFilters", testLeaderboardFilters},
		{"FinishedListing", testFinishedListing},
		{"ProfileUnknownHandle", testProfileUnknownHandle},
		{"IfThenRecord", testIfThenRecord},
		{"EachFinishedGame", testEachFinishedGame},
		{"EachAccount", testEachAccount},
		{"Analysis", testAnalysis},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.test(t, open) })
	}
}

// idAlphabet is the alphabet of game ids: no 0/O, 1/I/L.
const idAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

func move(seat int, action string) engine.Move {
	return engine.Move{Seat: engine.Seat(seat), Action: json.RawMessage(action)}
}

func sampleLive(id string) storage.LiveGame {
	return storage.LiveGame{
		ID: id, Code: "KQ7M4X", Public: true,
		Seats: []storage.SeatRecord{
			{AccountID: "SHA256:ann", Handle: "Ann"},
			{Handle: "Bot Bo", Bot: true, BotLevel: "hard"},
			{AccountID: "SHA256:kai", Handle: "Kai", Replaced: true},
		},
		Record: engine.Record{
			Game: "breakcode", Options: engine.Options{"rounds": "3"},
			Players: []engine.Player{{Name: "Ann"}, {Name: "Bot Bo", Bot: true}, {Name: "Kai"}},
			Seed:    1<<63 + 12345, // above 2^53: must survive JSON exactly
		},
		Started: time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC),
	}
}

func finish(g storage.LiveGame, res engine.Result, at time.Time) storage.FinishedGame {
	return storage.FinishedGame{LiveGame: g, Result: res, Finished: at}
}

// key is a key account's seat.
func key(handle string) storage.SeatRecord {
	return storage.SeatRecord{AccountID: "SHA256:" + handle, Handle: handle}
}

// people claims a handle for each name, so that profiles and leaderboards
// can find them.
func people(t testing.TB, db storage.Store, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := db.ClaimHandle("SHA256:"+n, n); err != nil {
			t.Fatal(err)
		}
	}
}

// played stores a finished game of game with those seats and that result.
func played(t testing.TB, db storage.Store, game string, rated, public bool, at time.Time, res engine.Result, seats ...storage.SeatRecord) string {
	t.Helper()
	id, err := db.NewGameID()
	if err != nil {
		t.Fatal(err)
	}
	players := make([]engine.Player, len(seats))
	for i, s := range seats {
		players[i] = engine.Player{Name: s.Handle, Bot: s.Bot}
	}
	g := storage.FinishedGame{
		LiveGame: storage.LiveGame{ID: id, Code: "ABCDEF", Public: public, Rated: rated, Seats: seats,
			Record: engine.Record{Game: game, Players: players, Seed: 7}, Started: at.Add(-time.Minute)},
		Result: res, Finished: at,
	}
	if err := db.FinishGame(g); err != nil {
		t.Fatal(err)
	}
	return id
}

func ratingOf(t testing.TB, db storage.Store, handle, game string) (storage.GameRating, bool) {
	t.Helper()
	rs, err := db.Ratings("SHA256:" + handle)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Game == game {
			return r, true
		}
	}
	return storage.GameRating{}, false
}

var t0 = time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)

func won(seats ...engine.Seat) engine.Result {
	return engine.Result{Winners: seats, Draw: len(seats) > 1, Summary: "someone won"}
}

// testEachFinishedGame: the export walk visits every finished game once,
// moves and all, and no live one.
func testEachFinishedGame(t *testing.T, open Opener) {
	db := open(t)
	want := map[string]int{}
	for i := range 5 {
		id, err := db.NewGameID()
		if err != nil {
			t.Fatal(err)
		}
		g := sampleLive(id)
		for m := range i + 1 {
			g.Record.Moves = append(g.Record.Moves, move(m%3, `{"n":1}`))
		}
		if err := db.FinishGame(finish(g, won(0), t0.Add(time.Duration(i)*time.Minute))); err != nil {
			t.Fatal(err)
		}
		want[id] = i + 1
	}
	liveID, _ := db.NewGameID()
	if err := db.StartGame(sampleLive(liveID)); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	err := db.EachFinishedGame(func(g storage.FinishedGame) error {
		if _, dup := got[g.ID]; dup {
			t.Errorf("game %s visited twice", g.ID)
		}
		got[g.ID] = len(g.Record.Moves)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("walked %v, want %v", got, want)
	}
	for id, n := range want {
		if got[id] != n {
			t.Errorf("game %s: %d moves, want %d", id, got[id], n)
		}
	}
}

// testEachAccount: the export walk visits every account once, in id order.
func testEachAccount(t *testing.T, open Opener) {
	db := open(t)
	people(t, db, "mara", "bo", "kai")
	var got []string
	err := db.EachAccount(func(a storage.Account) error {
		got = append(got, a.ID+"="+a.Handle)
		return nil
	})
	want := []string{"SHA256:bo=bo", "SHA256:kai=kai", "SHA256:mara=mara"}
	if err != nil || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("EachAccount = %v, %v; want %v", got, err, want)
	}
}

// testAnalysis: an analysis is kept only for a finished game, reads back
// as written and replaces an earlier one.
func testAnalysis(t *testing.T, open Opener) {
	db := open(t)
	rep := analysis.Report{Game: "breakcode", Version: analysis.Version, Work: 99,
		Steps: []analysis.Step{{Move: 1, Seat: 0, Kind: "ask", Text: "asked: sum", Before: 10, After: 2, Bits: 2.3,
			Options: []analysis.Option{{Label: "sum", Action: []byte(`{"ask":{"card":1}}`), Bits: 2.3}}, Scored: true}},
		Summaries: []analysis.Summary{{Seat: 0, Name: "ann", Moves: 1, Bits: 2.3, Accuracy: 1}}}
	id, _ := db.NewGameID()
	if err := db.SaveAnalysis(id, rep); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("analysis of an unfinished game: %v, want ErrNotFound", err)
	}
	if err := db.FinishGame(finish(sampleLive(id), won(0), t0)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Analysis(id); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("analysis before one is saved: %v, want ErrNotFound", err)
	}
	if err := db.SaveAnalysis(id, rep); err != nil {
		t.Fatal(err)
	}
	rep.Steps[0].Bits = 1.5
	if err := db.SaveAnalysis(id, rep); err != nil {
		t.Fatal(err)
	}
	if got, err := db.Analysis(id); err != nil || !reflect.DeepEqual(got, rep) {
		t.Fatalf("Analysis = %+v, %v; want %+v", got, err, rep)
	}
}
