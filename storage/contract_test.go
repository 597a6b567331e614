package storage_test

import (
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/codebreakers/codebreakers/storage"
	"github.com/codebreakers/codebreakers/storage/storetest"
)

// TestContract runs the store contract against the bbolt file, the store
// of a single node. storage/postgres runs the same contract against a
// cluster node's store.
func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storage.Store {
		db, err := storage.Open(filepath.Join(t.TempDir(), "codebreakers.db"),
			storage.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		return db
	})
}
