package metrics

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/lobby/analyst"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

func TestMetricsEndpointReportsWhatWasObserved(t *testing.T) {
	m := New(Sources{
		Sessions: func() int { return 7 },
		Tables: func() []lobby.TableCount {
			return []lobby.TableCount{
				{Game: "breakcode", Phase: lobby.Playing, Tables: 3},
				{Game: "coding", Phase: lobby.Waiting, Tables: 1},
			}
		},
		Analyses: func() analyst.Stats {
			return analyst.Stats{Queued: 9, Dropped: 1, Analysed: 6, OnDemand: 2, Failed: 1, Deferred: 4, Backlog: 3, Busy: 1500 * time.Millisecond}
		},
	})
	m.Action("breakcode", lobby.OutcomeOK, 2*time.Millisecond)
	m.Action("breakcode", lobby.OutcomeOK, 3*time.Millisecond)
	m.Action("breakcode", lobby.OutcomeIllegal, time.Millisecond)
	m.Action("coding", lobby.OutcomeFailed, time.Millisecond)
	m.TableBroken("coding")
	m.Commit(5, 4*time.Millisecond, nil)
	m.Commit(2, time.Millisecond, errors.New("disk full"))

	srv := httptest.NewServer(m.Handler(nil))
	defer srv.Close()
	code, body := get(t, srv.URL+"/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: status %d", code)
	}
	for _, want := range []string{
		`codebreakers_sessions 7`,
		`codebreakers_tables{game="breakcode",phase="playing"} 3`,
		`codebreakers_tables{game="coding",phase="waiting"} 1`,
		`codebreakers_actions_total{game="breakcode",outcome="ok"} 2`,
		`codebreakers_actions_total{game="breakcode",outcome="illegal"} 1`,
		`codebreakers_actions_total{game="coding",outcome="failed"} 1`,
		`codebreakers_action_duration_seconds_count{game="breakcode"} 3`,
		`codebreakers_action_duration_seconds_bucket{game="breakcode",le="0.0025"} 2`,
		`codebreakers_storage_commit_duration_seconds_count 2`,
		`codebreakers_storage_writes_total 5`,
		`codebreakers_errors_total{component="action"} 1`,
		`codebreakers_errors_total{component="table"} 1`,
		`codebreakers_errors_total{component="storage"} 1`,
		`codebreakers_analyses_total{how="background"} 6`,
		`codebreakers_analyses_total{how="on_first_replay"} 2`,
		`codebreakers_analyses_total{how="failed"} 1`,
		`codebreakers_analysis_deferred_total 4`,
		`codebreakers_analysis_backlog 3`,
		`codebreakers_analyses_total{how="dropped"} 1`,
		`codebreakers_analysis_busy_seconds_total 1.5`,
		`go_goroutines `,
		`process_resident_memory_bytes `,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

func TestHealthEndpoint(t *testing.T) {
	var failing atomic.Pointer[error]
	m := New(Sources{})
	srv := httptest.NewServer(m.Handler(func(ctx context.Context) error {
		if err := failing.Load(); err != nil {
			return *err
		}
		return nil
	}))
	defer srv.Close()

	if code, body := get(t, srv.URL+"/healthz"); code != http.StatusOK || body != "ok\n" {
		t.Fatalf("healthy: %d %q", code, body)
	}
	closed := errors.New("database closed")
	failing.Store(&closed)
	code, body := get(t, srv.URL+"/healthz")
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "database closed") {
		t.Fatalf("unhealthy: %d %q", code, body)
	}
	// The reason is one line, even from an error whose text spans several.
	joined := errors.Join(errors.New("writes to a.db failing"), errors.New("writes to the shared database failing"))
	failing.Store(&joined)
	code, body = get(t, srv.URL+"/healthz")
	if code != http.StatusServiceUnavailable || body != "unhealthy: writes to a.db failing writes to the shared database failing\n" {
		t.Fatalf("unhealthy for two reasons: %d %q, want them on one line", code, body)
	}
	if code, _ := get(t, srv.URL+"/nothing"); code != http.StatusNotFound {
		t.Fatalf("unknown path: status %d", code)
	}
}
