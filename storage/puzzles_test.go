package storage

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine/analysis"
)

func samplePuzzle(date, game string) Puzzle {
	return Puzzle{Date: date, Game: game, GameID: "G1234", Move: 4, Seat: 1, Knew: "212 centre sets possible",
		Options: []analysis.Option{{Label: "sum", Bits: 2.3}, {Label: "c > 4", Bits: 0.9}, {Label: "5s", Bits: 1.1}}, Best: 0}
}

// TestMigrateV3 opens a data file written by the schema-3 build: it becomes
// schema 4, its analysis is still there and puzzles can be set and answered.
func TestMigrateV3(t *testing.T) {
	path := filepath.Join(t.TempDir(), "codebreakers.db")
	copyFile(t, "testdata/v3.db", path)
	db, err := Open(path, quietOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	list, err := db.FinishedGames(ListQuery{})
	if err != nil || len(list) != 4 {
		t.Fatalf("games: %d %v", len(list), err)
	}
	if rep, err := db.Analysis(list[0].ID); err != nil || rep.Version != analysis.Version || len(rep.Steps) != 1 {
		t.Fatalf("the schema-3 analysis: %+v %v", rep, err)
	}
	p := samplePuzzle("2026-11-26", list[0].Game)
	p.GameID = list[0].ID
	if _, err := db.SetPuzzle(p); err != nil {
		t.Fatal(err)
	}
	acct, err := db.HandleOwner("mara")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.TryPuzzle(p.Date, p.Game, acct, 0, time.Now()); err != nil {
		t.Fatal(err)
	}
	checkConsistent(t, db)
}
