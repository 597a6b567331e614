package storage

import (
	"errors"
	"maps"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/codebreakers/codebreakers/engine"
)

// TestMigrateV6LiveLog opens a data file written by the schema-6 build
// (v6.db: live games LIVE1, LIVE5A, LIVE5C and LIVE6A with 0, 0, 42 and 25
// moves in livemoves; LIVE5B finished). After the migration livemoves is
// gone, every game resumes with its moves in order, play carries on where
// it stopped (the writer's next indexes read from the new log), and a
// finish ends a game.
func TestMigrateV6LiveLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "codebreakers.db")
	copyFile(t, "testdata/v6.db", path)
	db, err := Open(path, quietOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	live, err := db.LiveGames()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"LIVE1": 0, "LIVE5A": 0, "LIVE5C": 42, "LIVE6A": 25}
	if len(live) != len(want) {
		t.Fatalf("live games after the migration: %d, want %d", len(live), len(want))
	}
	var g6 LiveGame
	for _, g := range live {
		n, ok := want[g.ID]
		if !ok || len(g.Record.Moves) != n {
			t.Fatalf("live game %s has %d moves; want %v", g.ID, len(g.Record.Moves), want)
		}
		for i, m := range g.Record.Moves {
			if m.Seat != engine.Seat(i%3) || string(m.Action) != v5Action(i) {
				t.Fatalf("%s move %d = %+v %s", g.ID, i, m.Seat, m.Action)
			}
		}
		if g.ID == "LIVE6A" {
			g6 = g
		}
	}
	if g6.Code != "KQ7M4X" || len(g6.Seats) != 3 || g6.Record.Seed != 1<<63+12345 {
		t.Errorf("LIVE6A's header changed: %+v", g6)
	}
	if _, err := db.Game("LIVE5B"); err != nil {
		t.Errorf("the finished game: %v", err)
	}
	err = db.view(func(tx *bolt.Tx) error {
		if tx.Bucket([]byte(bucketLiveMoves)) != nil {
			t.Error("livemoves is still there")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.AppendMove("LIVE5C", 42, move(0, `{"ask":1}`)); err != nil {
		t.Fatalf("the next move of a migrated game: %v", err)
	}
	if err := db.AppendMove("LIVE6A", 24, move(0, `{"ask":1}`)); !errors.Is(err, ErrMoveOutOfOrder) {
		t.Fatalf("a repeated move of a migrated game: %v", err)
	}
	if err := db.AppendMove("LIVE1", 1, move(0, `{"ask":1}`)); !errors.Is(err, ErrMoveOutOfOrder) {
		t.Fatalf("a gap in a migrated game: %v", err)
	}
	if err := db.AppendMove("LIVE5B", 3, move(0, `{"ask":1}`)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a move of the finished game: %v", err)
	}
	if err := db.StartGame(sampleLive("LIVE6A")); !errors.Is(err, ErrGameExists) {
		t.Fatalf("a migrated game's id was free again: %v", err)
	}
	if err := db.FinishGame(FinishedGame{LiveGame: g6, Result: engine.Result{Winners: []engine.Seat{0}}, Finished: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendMove("LIVE6A", 25, move(0, `{"ask":1}`)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a move after the finish: %v", err)
	}
	if live, err := db.LiveGames(); err != nil || len(live) != len(want)-1 {
		t.Errorf("live games after finishing one: %d, %v", len(live), err)
	}
	checkConsistent(t, db)
}

// TestV7HeadersWithoutStart opens a data file written by the schema-7
// build before live headers recorded where in the log each game starts
// (v7.db: live games LIVE1, LIVE5A, LIVE5C, LIVE6A and LIVE7A with 0, 0,
// 50, 25 and 30 moves, interleaved and partly moved by a trim; GARB7 and
// OLD7 forgotten, most of GARB7's 600 moves and all 5 of OLD7's still in
// the log as garbage). A header without a start reads the whole log, so
// every game resumes as it was, before and after trims; the forgotten ids
// start afresh.
func TestV7HeadersWithoutStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "codebreakers.db")
	copyFile(t, "testdata/v7.db", path)
	db, trims, opt := openCountingTrims(t, path)
	defer func() { _ = db.Close() }()
	want := map[string]int{"LIVE1": 0, "LIVE5A": 0, "LIVE5C": 50, "LIVE6A": 25, "LIVE7A": 30}
	check := func() {
		t.Helper()
		live, err := db.LiveGames()
		if err != nil {
			t.Fatal(err)
		}
		got := make(map[string]int)
		for _, g := range live {
			if _, ok := want[g.ID]; !ok {
				continue
			}
			got[g.ID] = len(g.Record.Moves)
			for i, m := range g.Record.Moves {
				if m.Seat != engine.Seat(i%3) || string(m.Action) != v5Action(i) {
					t.Fatalf("%s move %d = %+v %s", g.ID, i, m.Seat, m.Action)
				}
			}
		}
		if !maps.Equal(got, want) {
			t.Fatalf("live games' moves: %v, want %v", got, want)
		}
		for id, n := range want {
			if err := db.AppendMove(id, n+1, move(0, `{}`)); !errors.Is(err, ErrMoveOutOfOrder) {
				t.Fatalf("%s took move %d with %d stored: %v", id, n+1, n, err)
			}
		}
	}
	check()
	startAgain(t, db, "OLD7", 2)
	checkRestarted(t, db, "OLD7", 2)
	startAgain(t, db, "GARB7", 0)
	checkRestarted(t, db, "GARB7", 0)
	if err := db.AppendMove("LIVE7A", 30, move(0, v5Action(30))); err != nil {
		t.Fatal(err)
	}
	want["LIVE7A"]++
	check()

	db = reopen(t, db, path, opt)
	check()
	checkRestarted(t, db, "OLD7", 3)
	checkRestarted(t, db, "GARB7", 1)

	makeGarbage(t, db, "GARB8", 4*trimBatch)
	if trims.n.Load() == 0 {
		t.Fatal("no trim ran")
	}
	for id, n := range map[string]int{"OLD7": 4, "GARB7": 2, "LIVE5C": 50, "LIVE6A": 25} {
		if got := idEntries(t, db, id); got != n {
			t.Errorf("the log holds %d entries of %s after trims, want %d", got, id, n)
		}
	}
	check()
	checkRestarted(t, db, "OLD7", 4)
	checkRestarted(t, db, "GARB7", 2)
	db = reopen(t, db, path, opt)
	check()
	checkRestarted(t, db, "OLD7", 5)
	checkConsistent(t, db)
}
