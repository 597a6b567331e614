package storage

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/codebreakers/codebreakers/engine/analysis"
)

func sampleReport(game string) analysis.Report {
	steps := []analysis.Step{{Move: 2, Seat: 1, Kind: "ask", Text: "asked: sum of your tiles", Unit: "hands",
		Before: 212, After: 58, Bits: 1.87, Expected: 2.1, Best: 2.3, BestMove: "sum of your tiles",
		Options: []analysis.Option{{Label: "sum of your tiles", Action: []byte(`{"ask":{"card":1}}`), Bits: 2.3}}, Scored: true}}
	return analysis.Report{Game: game, Version: analysis.Version, Steps: steps, Work: 1234,
		Summaries: []analysis.Summary{{Seat: 1, Name: "bo", Moves: 1, Bits: 1.87, Expected: 2.1, Best: 2.3, Accuracy: 2.1 / 2.3, Helped: 0, Cost: 0}}}
}

// TestAnalysisRoundTrip: an analysis is stored only for a finished game,
// reads back as written, replaces an earlier one and survives a reopen.
func TestAnalysisRoundTrip(t *testing.T) {
	db, path := openTemp(t)
	if err := db.SaveAnalysis("NOPE1", sampleReport("breakcode")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("analysis of an unknown game: %v, want ErrNotFound", err)
	}
	g := sampleLive("G1234")
	if err := db.StartGame(g); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveAnalysis(g.ID, sampleReport("breakcode")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("analysis of a game in progress: %v, want ErrNotFound", err)
	}
	if err := db.FinishGame(FinishedGame{LiveGame: g}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Analysis(g.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("analysis before one is saved: %v, want ErrNotFound", err)
	}
	first := sampleReport("breakcode")
	if err := db.SaveAnalysis(g.ID, first); err != nil {
		t.Fatal(err)
	}
	second := sampleReport("breakcode")
	second.Steps[0].Bits = 2
	if err := db.SaveAnalysis(g.ID, second); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path, quietOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.Analysis(g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, second) {
		t.Fatalf("read back %+v,\nwant %+v", got, second)
	}
	checkConsistent(t, db)
}

// TestMigrateV2 opens a data file written by the schema-2 build: it
// becomes schema 3 with an empty analyses bucket, every finished game still
// opens (with no analysis yet, to be made on first replay) and one can be
// stored.
func TestMigrateV2(t *testing.T) {
	path := filepath.Join(t.TempDir(), "codebreakers.db")
	copyFile(t, "testdata/v2.db", path)
	db, err := Open(path, quietOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var schema uint64
	_ = db.bolt.View(func(tx *bolt.Tx) error {
		schema = uint64FromBytes(tx.Bucket([]byte(bucketMeta)).Get([]byte(keySchema)))
		return nil
	})
	if schema != schemaVersion {
		t.Errorf("schema after open = %d, want %d", schema, schemaVersion)
	}
	list, err := db.FinishedGames(ListQuery{})
	if err != nil || len(list) != 4 {
		t.Fatalf("finished games after the migration: %d, %v", len(list), err)
	}
	for _, g := range list {
		if _, err := db.Game(g.ID); err != nil {
			t.Errorf("game %s does not open: %v", g.ID, err)
		}
		if _, err := db.Analysis(g.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("game %s has an analysis before any was made: %v", g.ID, err)
		}
	}
	if err := db.SaveAnalysis(list[0].ID, sampleReport(list[0].Game)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Analysis(list[0].ID); err != nil {
		t.Fatal(err)
	}
	if live, err := db.LiveGames(); err != nil || len(live) != 1 {
		t.Errorf("live games = %d, %v", len(live), err)
	}
	checkConsistent(t, db)
}
