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
		{"PuzzleOncePerDay", testPuzzleOncePerDay},
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

func samplePuzzle(date, game string) storage.Puzzle {
	return storage.Puzzle{Date: date, Game: game, GameID: "G1234", Move: 4, Seat: 1, Knew: "212 centre sets possible",
		Options: []analysis.Option{{Label: "sum", Bits: 2.3}, {Label: "c > 4", Bits: 0.9}, {Label: "5s", Bits: 1.1}}, Best: 0}
}

// testPuzzleOncePerDay: the first puzzle set for a day stands; each account
// answers once; solving on consecutive days grows the streak, a miss or a
// skipped day ends it; the day's table lists solvers in the order they
// answered.
func testPuzzleOncePerDay(t *testing.T, open Opener) {
	db := open(t)
	people(t, db, "mara", "bo", "kai")
	mara, bo, kai := key("mara").AccountID, key("bo").AccountID, key("kai").AccountID
	if _, err := db.PuzzleOf("2026-11-24", "breakcode"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("puzzle before any was set: %v", err)
	}
	first := samplePuzzle("2026-11-24", "breakcode")
	if got, err := db.SetPuzzle(first); err != nil || got.GameID != "G1234" {
		t.Fatalf("set: %+v %v", got, err)
	}
	other := first
	other.GameID, other.Best = "OTHER", 2
	if got, err := db.SetPuzzle(other); err != nil || got.GameID != "G1234" || got.Best != 0 {
		t.Fatalf("a second puzzle for the day replaced the first: %+v %v", got, err)
	}
	at := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	try, st, err := db.TryPuzzle("2026-11-24", "breakcode", bo, 0, at.Add(time.Minute))
	if err != nil || !try.Solved || st != (storage.Streak{Current: 1, Best: 1, Solved: 1, Tried: 1, LastSolved: "2026-11-24"}) {
		t.Fatalf("bo solves: %+v %+v %v", try, st, err)
	}
	if _, _, err := db.TryPuzzle("2026-11-24", "breakcode", bo, 1, at); !errors.Is(err, storage.ErrAlreadyTried) {
		t.Fatalf("a second answer: %v, want storage.ErrAlreadyTried", err)
	}
	if _, _, err := db.TryPuzzle("2026-11-24", "breakcode", mara, 0, at); err != nil {
		t.Fatal(err)
	}
	if try, _, err := db.TryPuzzle("2026-11-24", "breakcode", kai, 2, at); err != nil || try.Solved {
		t.Fatalf("kai's wrong answer: %+v %v", try, err)
	}
	if _, _, err := db.TryPuzzle("2026-11-24", "breakcode", kai, 7, at); err == nil {
		t.Fatal("an answer out of range was taken")
	}
	if _, _, err := db.TryPuzzle("2026-11-24", "coding", kai, 0, at); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("answer to no puzzle: %v", err)
	}
	solvers, answered, err := db.PuzzleSolvers("2026-11-24", "breakcode", 0)
	if err != nil || answered != 3 || len(solvers) != 2 || solvers[0].Handle != "mara" || solvers[1].Handle != "bo" {
		t.Fatalf("solvers %+v, %d answered, %v", solvers, answered, err)
	}
	// Bo the next day: the streak grows; the day after he misses; then a
	// day is skipped.
	for _, d := range []string{"2026-11-25", "2026-11-26", "2026-11-28"} {
		if _, err := db.SetPuzzle(samplePuzzle(d, "breakcode")); err != nil {
			t.Fatal(err)
		}
	}
	if _, st, _ := db.TryPuzzle("2026-11-25", "breakcode", bo, 0, at); st.Current != 2 || st.Best != 2 {
		t.Fatalf("two days in a row: %+v", st)
	}
	if st, _ := db.StreakOf(bo, "breakcode", "2026-11-26"); st.Current != 2 {
		t.Fatalf("the streak stands the next day until answered: %+v", st)
	}
	if _, st, _ := db.TryPuzzle("2026-11-26", "breakcode", bo, 1, at); st.Current != 0 || st.Best != 2 || st.Tried != 3 {
		t.Fatalf("a miss: %+v", st)
	}
	if _, st, _ := db.TryPuzzle("2026-11-28", "breakcode", bo, 0, at); st.Current != 1 || st.Best != 2 || st.Solved != 3 {
		t.Fatalf("after a miss and a skipped day: %+v", st)
	}
	if st, _ := db.StreakOf(mara, "breakcode", "2026-11-28"); st.Current != 0 || st.Solved != 1 {
		t.Fatalf("mara's streak has lapsed: %+v", st)
	}
	if got, err := db.PuzzleTryOf("2026-11-24", "breakcode", kai); err != nil || got.Choice != 2 {
		t.Fatalf("kai's answer: %+v %v", got, err)
	}
}
