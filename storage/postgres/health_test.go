package postgres_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/storage"
	"github.com/codebreakers/codebreakers/storage/postgres"
	"github.com/codebreakers/codebreakers/storage/postgres/pgtest"
)

// TestWriteHealthFollowsFailingWrites: while the shared database refuses
// writes (made read-only here, as a standby or a full disk would), its
// WriteHealth and a cluster node's (storage.Split, what /healthz asks) say
// so with the database's reason; a write refused for its data (an id
// already used) does not count; and once the database takes writes again,
// WriteHealth's own probe turns it healthy with nobody else writing.
func TestWriteHealthFollowsFailingWrites(t *testing.T) {
	url := pg.Get(t).NewDatabase(t)
	shared := openShared(t, url)
	postgres.SetHealthProbeEvery(shared, -1) // probe at every call while failing
	live, err := storage.Open(filepath.Join(t.TempDir(), "codebreakers.db"), storage.Options{Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	n := storage.NewSplit(live, shared)
	t.Cleanup(func() { _ = n.Close() })

	// new sessions take the setting: the pool is reset after each change
	readOnly := pgtest.ReadOnlySwitch(t, url, shared.Pool().Reset)

	id, err := n.NewGameID()
	if err != nil {
		t.Fatal(err)
	}
	if err := n.WriteHealth(); err != nil {
		t.Fatalf("WriteHealth after a write that committed: %v", err)
	}
	if err := shared.ReserveGameID(id); !errors.Is(err, storage.ErrGameExists) {
		t.Fatalf("reserving a used id: %v, want ErrGameExists", err)
	}
	if err := n.WriteHealth(); err != nil {
		t.Fatalf("WriteHealth after a write refused for its data: %v", err)
	}

	readOnly(true)
	if _, err := n.NewGameID(); err == nil {
		t.Fatal("a new game id was reserved in a read-only database")
	}
	for range 2 { // the probe fails too, so it stays unhealthy
		err := n.WriteHealth()
		if err == nil || !strings.Contains(err.Error(), "shared database") || !strings.Contains(err.Error(), "read-only") {
			t.Fatalf("WriteHealth while the shared database is read-only: %v", err)
		}
		if shared.WriteHealth() == nil {
			t.Fatal("the shared database's own WriteHealth is nil while it is read-only")
		}
	}

	readOnly(false)
	if err := n.WriteHealth(); err != nil {
		t.Fatalf("WriteHealth once the database takes writes again: %v", err)
	}
	if _, err := n.NewGameID(); err != nil {
		t.Fatal(err)
	}
}
