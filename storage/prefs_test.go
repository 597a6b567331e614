package storage

import (
	"path/filepath"
	"testing"
)

func TestPreferences(t *testing.T) {
	db, _ := openTemp(t)
	if v, err := db.Preference("SHA256:a", "quick/breakcode"); err != nil || v != "" {
		t.Fatalf("unset preference = %q, %v", v, err)
	}
	if err := db.SetPreference("SHA256:a", "quick/breakcode", "easy"); err != nil {
		t.Fatal(err)
	}
	if err := db.SetPreference("SHA256:b", "quick/breakcode", "strong"); err != nil {
		t.Fatal(err)
	}
	if v, _ := db.Preference("SHA256:a", "quick/breakcode"); v != "easy" {
		t.Errorf("a's preference = %q, want easy", v)
	}
	if v, _ := db.Preference("SHA256:b", "quick/breakcode"); v != "strong" {
		t.Errorf("b's preference = %q, want strong", v)
	}
	if err := db.SetPreference("SHA256:a", "quick/breakcode", ""); err != nil {
		t.Fatal(err)
	}
	if v, _ := db.Preference("SHA256:a", "quick/breakcode"); v != "" {
		t.Errorf("a forgotten preference = %q", v)
	}
	if err := db.SetPreference("SHA256:a", "x", string(make([]byte, 65))); err == nil {
		t.Error("an overlong value was kept")
	}
}

// TestMigrateV4Prefs opens a data file written by the schema-4 build
// (v4.db) and keeps a preference in it.
func TestMigrateV4Prefs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "codebreakers.db")
	copyFile(t, "testdata/v4.db", path)
	db, err := Open(path, quietOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	list, err := db.FinishedGames(ListQuery{})
	if err != nil || len(list) != 4 {
		t.Fatalf("finished games after the migration: %d, %v", len(list), err)
	}
	if err := db.SetPreference("SHA256:mara", "quick/ifthen", "strong"); err != nil {
		t.Fatalf("a preference in a migrated file: %v", err)
	}
	if v, err := db.Preference("SHA256:mara", "quick/ifthen"); err != nil || v != "strong" {
		t.Errorf("preference = %q, %v", v, err)
	}
}
