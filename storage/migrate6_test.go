package storage

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/codebreakers/codebreakers/engine"
)

// v5Action is the action of move i of the live games in testdata/v5.db.
func v5Action(i int) string {
	return fmt.Sprintf(`{"ask":%d,"note":"move %d of a long game, padded to be sure the log outgrows an inline bucket"}`, i%7, i)
}

// TestMigrateV5LiveMoves opens a data file written by the schema-5 build
// (v5.db: live games LIVE1, LIVE5A, LIVE5B and LIVE5C with 0, 0, 3 and 40
// moves, each game a bucket of its own) plus a schema-5 live game whose
// header is missing, made here by hand. After the migration every game
// resumes with its moves in order, play carries on where it stopped, a
// finish removes the moves, and the headerless game is kept in abandoned.
func TestMigrateV5LiveMoves(t *testing.T) {
	path := filepath.Join(t.TempDir(), "codebreakers.db")
	copyFile(t, "testdata/v5.db", path)
	raw, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = raw.Update(func(tx *bolt.Tx) error {
		g, err := tx.Bucket([]byte(bucketLive)).CreateBucket([]byte("NOHEAD"))
		if err != nil {
			return err
		}
		mb, err := g.CreateBucket([]byte(bucketMoves))
		if err != nil {
			return err
		}
		return mb.Put(binary.BigEndian.AppendUint32(nil, 0), []byte(`{"seat":0,"action":{"x":1}}`))
	})
	if err != nil || raw.Close() != nil {
		t.Fatal(err)
	}

	db, err := Open(path, quietOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	live, err := db.LiveGames()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"LIVE1": 0, "LIVE5A": 0, "LIVE5B": 3, "LIVE5C": 40}
	if len(live) != len(want) {
		t.Fatalf("live games after the migration: %d, want %d", len(live), len(want))
	}
	for _, g := range live {
		n, ok := want[g.ID]
		if !ok || len(g.Record.Moves) != n {
			t.Fatalf("live game %s has %d moves; want %v", g.ID, len(g.Record.Moves), want)
		}
		for i, m := range g.Record.Moves {
			if m.Seat != engine.Seat(i%3) || !json.Valid(m.Action) || string(m.Action) != v5Action(i) {
				t.Fatalf("%s move %d = %+v %s", g.ID, i, m.Seat, m.Action)
			}
		}
		if g.ID == "LIVE5C" && (g.Code != "KQ7M4X" || len(g.Seats) != 3 || g.Record.Seed != 1<<63+12345) {
			t.Errorf("LIVE5C's header changed: %+v", g)
		}
	}
	if err := db.AppendMove("LIVE5C", 40, move(1, `{"ask":1}`)); err != nil {
		t.Fatalf("the next move of a migrated game: %v", err)
	}
	if err := db.AppendMove("LIVE5C", 40, move(1, `{"ask":1}`)); !errors.Is(err, ErrMoveOutOfOrder) {
		t.Fatalf("a repeated move of a migrated game: %v", err)
	}
	if err := db.AppendMove("LIVE5B", 5, move(1, `{"ask":1}`)); !errors.Is(err, ErrMoveOutOfOrder) {
		t.Fatalf("a gap in a migrated game: %v", err)
	}
	if err := db.StartGame(sampleLive("LIVE5B")); !errors.Is(err, ErrGameExists) {
		t.Fatalf("a migrated game's id was free again: %v", err)
	}
	g := live[0]
	for _, l := range live {
		if l.ID == "LIVE5B" {
			g = l
		}
	}
	if err := db.FinishGame(FinishedGame{LiveGame: g, Result: engine.Result{Winners: []engine.Seat{0}}, Finished: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if live, err := db.LiveGames(); err != nil || len(live) != len(want)-1 {
		t.Errorf("live games after finishing one: %d, %v", len(live), err)
	}
	err = db.view(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketLive)).ForEach(func(k, v []byte) error {
			if v == nil {
				t.Errorf("live game %s is still a schema-5 bucket", k)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	var kept abandonedRecord
	err = db.view(func(tx *bolt.Tx) error {
		return json.Unmarshal(tx.Bucket([]byte(bucketAbandoned)).Get([]byte("NOHEAD")), &kept)
	})
	if err != nil || len(kept.Moves) != 1 || (kept.Header != nil && string(kept.Header) != "null") {
		t.Fatalf("the headerless live game was not kept in abandoned: %+v, %v", kept, err)
	}
	checkConsistent(t, db)
}
