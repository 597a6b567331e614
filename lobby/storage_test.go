package lobby

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/storage"
)

// The real database is a Store.
var _ Store = (*storage.DB)(nil)

func openDB(t *testing.T, path string) *storage.DB {
	t.Helper()
	db, err := storage.Open(path, storage.Options{Timeout: 5 * time.Second, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// TestCrashResume plays games on a real database, shuts the hub and the
// database down, and checks that a new hub resumes every game at the same
// state, with seats held for their players.
func TestCrashResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "arcade.db")
	db := openDB(t, path)
	h := testHub(t, db, nil, breakcode.Game{})

	ann, bob := startTwo(t, h, engine.Options{"turns": "30"})
	for i := range 3 {
		if err := ann.Act(say(10 + i)); err != nil {
			t.Fatal(err)
		}
		if err := bob.Act(say(20 + i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := ann.Act(say(99)); err != nil {
		t.Fatal(err)
	}
	before := ann.View()

	// A Break the Code game against bots, a few turns in.
	cat, err := h.QuickPlay(ident("cat"), breakcode.ID)
	if err != nil {
		t.Fatal(err)
	}
	helper, _ := breakcode.Game{}.NewBot(0, breakcode.LevelEasy, 7)
	for range 2 {
		v := waitView(t, cat, "cat's turn", func(v TableView) bool {
			return v.Phase != Playing || v.Board.(breakcode.View).YourTurn()
		})
		if v.Phase != Playing {
			break
		}
		act, err := helper.Act(v.Board)
		if err != nil || act == nil {
			t.Fatalf("helper: %s %v", act, err)
		}
		if err := cat.Act(act); err != nil {
			t.Fatal(err)
		}
	}
	// Wait until the bots are done and it is cat's turn again, so the state is still.
	bcBefore := waitView(t, cat, "cat's turn again", func(v TableView) bool {
		return v.Phase != Playing || v.Board.(breakcode.View).YourTurn()
	})

	h.Close()
	for _, c := range []*Conn{ann, bob, cat} {
		<-c.Done()
		if !strings.Contains(c.Reason(), "saved") {
			t.Errorf("shutdown reason %q", c.Reason())
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db2 := openDB(t, path)
	t.Cleanup(func() { db2.Close() })
	h2 := testHub(t, db2, nil, breakcode.Game{})
	if _, tables := h2.Online(); (bcBefore.Phase == Playing && tables != 2) || tables < 1 {
		t.Fatalf("%d tables resumed", tables)
	}
	ann2, ok := h2.Resume(ident("ann"))
	if !ok {
		t.Fatal("ann has no seat after the restart")
	}
	after := ann2.View()
	if after.Phase != Playing || after.GameID != before.GameID || after.Code != before.Code || after.Status.Turn != before.Status.Turn {
		t.Fatalf("resumed at %+v, was %+v", after, before)
	}
	if a, b := board(t, after), board(t, before); !slices.Equal(a.Said, b.Said) || a.Secret != b.Secret {
		t.Fatalf("board %+v, was %+v", a, b)
	}
	if after.Seats[1].Connected || after.Seats[1].Replaced || after.Seats[1].Bot {
		t.Fatalf("bob's seat should be held for him: %+v", after.Seats[1])
	}
	bob2, err := h2.Join(ident("bob"), strings.ToLower(before.Code))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		v := ann2.View()
		if v.Phase != Playing {
			break
		}
		c := ann2
		if board(t, v).Active == 1 {
			c = bob2
		}
		if err := c.Act(say(i)); err != nil {
			t.Fatal(err)
		}
	}
	end := ann2.View()
	if end.Phase != Finished {
		t.Fatalf("phase %v after 30 turns", end.Phase)
	}
	fg, err := db2.Game(end.GameID)
	if err != nil {
		t.Fatal(err)
	}
	if len(fg.Record.Moves) != 30 || fg.Seats[0].AccountID != "SHA256:ann" {
		t.Fatalf("finished record: %d moves, seats %+v", len(fg.Record.Moves), fg.Seats)
	}
	hist, err := db2.History("SHA256:bob", 10)
	if err != nil || len(hist) != 1 || hist[0].ID != end.GameID {
		t.Fatalf("bob's history: %+v %v", hist, err)
	}

	if bcBefore.Phase == Playing {
		cat2, ok := h2.Resume(ident("cat"))
		if !ok {
			t.Fatal("cat's Break the Code game was not resumed")
		}
		v := cat2.View()
		was, now := bcBefore.Board.(breakcode.View), v.Board.(breakcode.View)
		if v.GameID != bcBefore.GameID || fmt.Sprint(was) != fmt.Sprint(now) {
			t.Fatalf("Break the Code board changed across the restart:\n%+v\n%+v", was, now)
		}
	}
}

// A game logged before its game had rules revisions, or under an older
// revision, resumes under the rules it was played with; a rematch at that
// table is dealt under the newest.
func TestResumeKeepsRecordedRules(t *testing.T) {
	for _, opts := range []engine.Options{{"turns": "2"}, {"turns": "2", engine.RulesOption: "old"}} {
		store := newMemStore()
		store.live["G1"] = &storage.LiveGame{
			ID: "G1", Code: "KQ7-M4X",
			Seats: []storage.SeatRecord{{AccountID: "SHA256:ann", Handle: "ann"}, {AccountID: "SHA256:bob", Handle: "bob"}},
			Record: engine.Record{Game: "revised", Options: opts, Seed: 1,
				Players: []engine.Player{{Name: "ann"}, {Name: "bob"}}, Moves: []engine.Move{{Seat: 0, Action: say(0)}}},
		}
		h := testHub(t, store, nil, revisedGame{})
		ann, ok := h.Resume(ident("ann"))
		if !ok {
			t.Fatal("ann has no seat after the restart")
		}
		if b := board(t, ann.View()); b.Rules != "old" || b.Moves != 1 {
			t.Fatalf("options %v: resumed under rules %q after %d moves; want the old rules", opts, b.Rules, b.Moves)
		}
		bob, ok := h.Resume(ident("bob"))
		if !ok {
			t.Fatal("bob has no seat after the restart")
		}
		if err := bob.Act(say(1)); err != nil {
			t.Fatal(err)
		}
		waitView(t, ann, "the end", func(v TableView) bool { return v.Phase == Finished })
		if fg, ok := store.finished["G1"]; !ok || fg.Record.Options[engine.RulesOption] != opts[engine.RulesOption] {
			t.Fatalf("finished record %+v: it must keep the options it was played with", fg.Record.Options)
		}
		if err := bob.Rematch(); err != nil {
			t.Fatal(err)
		}
		if err := ann.Start(); err != nil {
			t.Fatal(err)
		}
		if b := board(t, ann.View()); b.Rules != "new" || b.Moves != 0 {
			t.Fatalf("options %v: rematch dealt under rules %q; want the newest", opts, b.Rules)
		}
		h.Close()
	}
}
