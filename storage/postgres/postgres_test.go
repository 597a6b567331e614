package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/storage"
	"github.com/codebreakers/codebreakers/storage/postgres"
	"github.com/codebreakers/codebreakers/storage/postgres/pgtest"
	"github.com/codebreakers/codebreakers/storage/storetest"
)

// pg is one throwaway PostgreSQL server for the whole package; each test
// gets a database of its own on it.
var pg pgtest.Shared

func TestMain(m *testing.M) {
	code := m.Run()
	pg.Close()
	os.Exit(code)
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// openShared opens a fresh database on the test server.
func openShared(t *testing.T, url string) *postgres.DB {
	t.Helper()
	db, err := postgres.Open(context.Background(), url, postgres.Options{Logger: quiet(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// node is one cluster node's store: its own bbolt file and the shared
// database at url.
func node(t *testing.T, url string) *storage.Split {
	t.Helper()
	live, err := storage.Open(filepath.Join(t.TempDir(), "codebreakers.db"), storage.Options{Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	s := storage.NewSplit(live, openShared(t, url))
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// TestContract runs the store contract that the bbolt file passes against
// a cluster node's store: live logs in bbolt, the rest in PostgreSQL.
func TestContract(t *testing.T) {
	srv := pg.Get(t)
	storetest.Run(t, func(t *testing.T) storage.Store { return node(t, srv.NewDatabase(t)) })
}

// TestMigrations: a new database is brought to this build's schema and
// records it; opening again changes nothing; a database from a newer build
// is refused with a clear error.
func TestMigrations(t *testing.T) {
	url := pg.Get(t).NewDatabase(t)
	db := openShared(t, url)
	var versions []int
	rows, err := db.Pool().Query(context.Background(), `SELECT version FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var v int
		_ = rows.Scan(&v)
		versions = append(versions, v)
	}
	rows.Close()
	if len(versions) != postgres.SchemaVersion() || versions[len(versions)-1] != postgres.SchemaVersion() {
		t.Fatalf("schema_migrations = %v, want 1..%d", versions, postgres.SchemaVersion())
	}
	if _, err := db.ClaimHandle("SHA256:ann", "Ann"); err != nil {
		t.Fatal(err)
	}
	again := openShared(t, url)
	if a, err := again.Account("SHA256:ann"); err != nil || a.Handle != "Ann" {
		t.Fatalf("reopened: %+v, %v", a, err)
	}
	if _, err := db.Pool().Exec(context.Background(), `INSERT INTO schema_migrations (version) VALUES ($1)`,
		postgres.SchemaVersion()+1); err != nil {
		t.Fatal(err)
	}
	_, err = postgres.Open(context.Background(), url, postgres.Options{Logger: quiet()})
	if !errors.Is(err, storage.ErrSchemaTooNew) {
		t.Fatalf("open a newer schema: %v, want ErrSchemaTooNew", err)
	}
}

// TestNodesStartTogether: several nodes opening one new database at once
// migrate it exactly once.
func TestNodesStartTogether(t *testing.T) {
	url := pg.Get(t).NewDatabase(t)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := postgres.Open(context.Background(), url, postgres.Options{Logger: quiet()})
			if err == nil {
				_ = db.Close()
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("open: %v", err)
		}
	}
}

// TestHandleUniqueAcrossNodes: two nodes claiming one handle, in different
// letter cases and at the same moment, end with exactly one owner.
func TestHandleUniqueAcrossNodes(t *testing.T) {
	url := pg.Get(t).NewDatabase(t)
	a, b := node(t, url), node(t, url)
	for round := range 20 {
		handle := fmt.Sprintf("Mara%d", round)
		var wg sync.WaitGroup
		var errA, errB error
		wg.Add(2)
		go func() { defer wg.Done(); _, errA = a.ClaimHandle("SHA256:a", handle) }()
		go func() { defer wg.Done(); _, errB = b.ClaimHandle("SHA256:b", "MARA"+handle[4:]) }()
		wg.Wait()
		if (errA == nil) == (errB == nil) {
			t.Fatalf("round %d: both or neither got the handle: %v / %v", round, errA, errB)
		}
		if lost := errors.Join(errA, errB); !errors.Is(lost, storage.ErrHandleTaken) {
			t.Fatalf("round %d: the loser's error is %v, want ErrHandleTaken", round, lost)
		}
		owner, err := b.HandleOwner(handle)
		if err != nil || (owner == "SHA256:a") != (errA == nil) {
			t.Fatalf("round %d: owner %q, %v", round, owner, err)
		}
	}
}

// TestGameIDsUniqueAcrossNodes: ids handed out by different nodes never
// collide, even when one node draws an id another already holds.
func TestGameIDsUniqueAcrossNodes(t *testing.T) {
	url := pg.Get(t).NewDatabase(t)
	a, b := node(t, url), node(t, url)
	id, err := a.NewGameID()
	if err != nil {
		t.Fatal(err)
	}
	shared := openShared(t, url)
	if err := shared.ReserveGameID(id); !errors.Is(err, storage.ErrGameExists) {
		t.Fatalf("reserve an id node A holds: %v, want ErrGameExists", err)
	}
	seen := map[string]bool{id: true}
	for range 200 {
		for _, n := range []*storage.Split{a, b} {
			id, err := n.NewGameID()
			if err != nil {
				t.Fatal(err)
			}
			if seen[id] {
				t.Fatalf("id %s handed out twice", id)
			}
			seen[id] = true
		}
	}
}

// TestFinishedIDNeverStartsAgain: a game finished on one node is in the
// shared database only; neither that node (whose file forgot the id) nor
// another may start a live game under its id.
func TestFinishedIDNeverStartsAgain(t *testing.T) {
	url := pg.Get(t).NewDatabase(t)
	a, b := node(t, url), node(t, url)
	id, err := a.NewGameID()
	if err != nil {
		t.Fatal(err)
	}
	live := storage.LiveGame{ID: id, Seats: []storage.SeatRecord{{AccountID: "SHA256:mara", Handle: "mara"}, {Bot: true, Handle: "bot"}},
		Record: engine.Record{Game: "breakcode", Players: []engine.Player{{Name: "mara"}, {Name: "bot", Bot: true}}}}
	if err := a.StartGame(live); err != nil {
		t.Fatal(err)
	}
	if err := a.FinishGame(storage.FinishedGame{LiveGame: live, Result: engine.Result{Winners: []engine.Seat{0}}}); err != nil {
		t.Fatal(err)
	}
	for name, n := range map[string]*storage.Split{"the node that finished it": a, "another node": b} {
		if err := n.StartGame(live); !errors.Is(err, storage.ErrGameExists) {
			t.Errorf("%s starts finished game %s again: %v, want ErrGameExists", name, id, err)
		}
		if games, _ := n.LiveGames(); len(games) != 0 {
			t.Errorf("%s holds a live game after the refusal: %+v", name, games)
		}
	}
}

// TestConcurrentFinishesKeepEveryUpdate: two nodes finishing rated games of
// the same players at the same time lose no stats and no rating change.
func TestConcurrentFinishesKeepEveryUpdate(t *testing.T) {
	url := pg.Get(t).NewDatabase(t)
	nodes := []*storage.Split{node(t, url), node(t, url)}
	const perNode = 10
	var wg sync.WaitGroup
	errs := make(chan error, 2*perNode)
	for _, n := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perNode {
				id, err := n.NewGameID()
				if err != nil {
					errs <- err
					return
				}
				g := storage.FinishedGame{
					LiveGame: storage.LiveGame{ID: id, Rated: true, Public: true,
						Seats:  []storage.SeatRecord{{AccountID: "SHA256:mara", Handle: "mara"}, {AccountID: "SHA256:bo", Handle: "bo"}},
						Record: engine.Record{Game: "breakcode", Players: []engine.Player{{Name: "mara"}, {Name: "bo"}}}},
					Result: engine.Result{Winners: []engine.Seat{engine.Seat(i % 2)}},
				}
				errs <- n.FinishGame(g)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	st, err := nodes[0].Stats("SHA256:mara")
	if err != nil || st.Played != 2*perNode || st.Won != perNode || st.Lost != perNode {
		t.Fatalf("mara's stats = %+v, %v", st, err)
	}
	rs, err := nodes[1].Ratings("SHA256:bo")
	if err != nil || len(rs) != 1 || rs[0].Games != 2*perNode {
		t.Fatalf("bo's ratings = %+v, %v", rs, err)
	}
	p, err := nodes[1].Profile("x", 0)
	if !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("profile of a stranger: %+v, %v", p, err)
	}
}

// TestFinishAfterCrash: a node that stored a finish in PostgreSQL but died
// before dropping the live log finds the game live again on restart; the
// repeated FinishGame succeeds, drops the log and counts nothing twice.
func TestFinishAfterCrash(t *testing.T) {
	url := pg.Get(t).NewDatabase(t)
	n := node(t, url)
	id, err := n.NewGameID()
	if err != nil {
		t.Fatal(err)
	}
	live := storage.LiveGame{ID: id, Seats: []storage.SeatRecord{{AccountID: "SHA256:mara", Handle: "mara"}, {Bot: true, Handle: "bot"}},
		Record: engine.Record{Game: "breakcode", Players: []engine.Player{{Name: "mara"}, {Name: "bot", Bot: true}}}}
	if err := n.StartGame(live); err != nil {
		t.Fatal(err)
	}
	fg := storage.FinishedGame{LiveGame: live, Result: engine.Result{Winners: []engine.Seat{0}}}
	// The shared half of the finish happened; the node died before the rest.
	if err := openShared(t, url).FinishGame(fg); err != nil {
		t.Fatal(err)
	}
	if games, _ := n.LiveGames(); len(games) != 1 {
		t.Fatalf("live games = %d, want the one whose finish was cut short", len(games))
	}
	if err := n.FinishGame(fg); err != nil {
		t.Fatalf("finish again after the crash: %v", err)
	}
	if games, _ := n.LiveGames(); len(games) != 0 {
		t.Errorf("live log kept after the finish: %+v", games)
	}
	if st, _ := n.Stats("SHA256:mara"); st.Played != 1 {
		t.Errorf("game counted %d times", st.Played)
	}
	if err := n.FinishGame(fg); !errors.Is(err, storage.ErrGameExists) {
		t.Errorf("finish a third time: %v, want ErrGameExists", err)
	}
}

// TestUnavailable: with PostgreSQL down, reads and finishes fail with
// ErrUnavailable (nothing is written, the live log stays); once it is back
// the same finish goes through.
func TestUnavailable(t *testing.T) {
	srv := pgtest.Start(t) // its own server: stopping the shared one would disturb other tests
	url := srv.NewDatabase(t)
	n := node(t, url)
	id, err := n.NewGameID()
	if err != nil {
		t.Fatal(err)
	}
	live := storage.LiveGame{ID: id, Seats: []storage.SeatRecord{{AccountID: "SHA256:mara", Handle: "mara"}},
		Record: engine.Record{Game: "breakcode", Players: []engine.Player{{Name: "mara"}}}}
	if err := n.StartGame(live); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	fg := storage.FinishedGame{LiveGame: live, Result: engine.Result{Winners: []engine.Seat{0}}}
	if err := n.FinishGame(fg); !errors.Is(err, storage.ErrUnavailable) {
		t.Fatalf("finish with PostgreSQL down: %v, want ErrUnavailable", err)
	}
	if _, err := n.Account("SHA256:mara"); !errors.Is(err, storage.ErrUnavailable) {
		t.Errorf("read with PostgreSQL down: %v, want ErrUnavailable", err)
	}
	if _, err := n.NewGameID(); !errors.Is(err, storage.ErrUnavailable) {
		t.Errorf("new game id with PostgreSQL down: %v, want ErrUnavailable", err)
	}
	if err := n.Ping(); err == nil {
		t.Error("Ping with PostgreSQL down succeeded")
	}
	if games, _ := n.LiveGames(); len(games) != 1 {
		t.Fatalf("the live log must stay while the finish is not stored: %d games", len(games))
	}
	if err := srv.Resume(); err != nil {
		t.Fatal(err)
	}
	if err := n.FinishGame(fg); err != nil {
		t.Fatalf("finish once PostgreSQL is back: %v", err)
	}
	if g, err := n.Game(id); err != nil || g.ID != id {
		t.Errorf("Game after the outage: %+v, %v", g.ID, err)
	}
}
