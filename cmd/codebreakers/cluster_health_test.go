package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/storage"
	"github.com/codebreakers/codebreakers/storage/postgres"
	"github.com/codebreakers/codebreakers/storage/postgres/pgtest"
)

// TestHealthzFollowsSharedDatabaseWrites: a cluster node's /healthz
// answers 503 with the reason, on one line, while the shared database
// refuses writes (made read-only here, as a promoted-away primary or a full
// disk would: no game can start, no sign-in or finished game is stored),
// and 200 again by itself once it takes writes (it answered 200 throughout,
// asking only the node's own file).
func TestHealthzFollowsSharedDatabaseWrites(t *testing.T) {
	c := newTestCluster(t, "a")
	a := c.start("a", "--metrics-addr", "127.0.0.1:0")
	health := "http://" + a.in.ops.metricsAddr + "/healthz"
	if code, body := httpGet(t, health); code != http.StatusOK {
		t.Fatalf("/healthz at start: %d %q", code, body)
	}
	split, ok := a.in.store.(*storage.Split)
	if !ok {
		t.Fatalf("a cluster node's store is %T, want *storage.Split", a.in.store)
	}
	// new sessions take the setting: the pool is reset after each change
	readOnly := pgtest.ReadOnlySwitch(t, c.pgURL, split.Shared.(*postgres.DB).Pool().Reset)

	readOnly(true)
	if _, err := split.NewGameID(); err == nil { // what starting a game does first
		t.Fatal("a game id was reserved in a read-only shared database")
	}
	code, body := httpGet(t, health)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "shared database") ||
		!strings.Contains(body, "read-only") || strings.Count(body, "\n") != 1 {
		t.Fatalf("/healthz while the shared database refuses writes: %d %q", code, body)
	}

	readOnly(false)
	deadline := time.Now().Add(waitLimit) // the probe runs every few seconds; not a speed check
	for {
		code, body := httpGet(t, health)
		if code == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/healthz never recovered after the shared database took writes again: %d %q", code, body)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
