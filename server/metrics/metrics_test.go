package metrics

import (
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
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

// samples reads the plain "name value" lines of a Prometheus text page
// (series without labels), which is all the collector's figures below are.
func samples(t *testing.T, body string) map[string]float64 {
	t.Helper()
	got := map[string]float64{}
	for line := range strings.Lines(body) {
		name, value, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || strings.HasPrefix(name, "#") || strings.Contains(name, "{") {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		got[name] = v
	}
	return got
}

// TestMetricsReportWhatTheCollectorScansAndCosts: beside the usual go_*
// figures, /metrics carries what a collection scans (heap, stacks,
// globals), the live heap and the collector's CPU by class, and they add
// up the way the runtime defines them.
func TestMetricsReportWhatTheCollectorScansAndCosts(t *testing.T) {
	srv := httptest.NewServer(New(Sources{}).Handler(nil))
	defer srv.Close()
	runtime.GC() // a finished cycle: stacks scanned, live heap marked, pauses counted
	code, body := get(t, srv.URL+"/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: status %d", code)
	}
	s := samples(t, body)
	for _, name := range []string{
		// The MemStats-like figures the load generator and dashboards read.
		"go_goroutines", "go_memstats_heap_inuse_bytes", "go_memstats_stack_inuse_bytes", "go_gc_duration_seconds_count",
		"go_gc_gogc_percent", "go_sched_gomaxprocs_threads",
		// The collector's own.
		"go_gc_scan_heap_bytes", "go_gc_scan_stack_bytes", "go_gc_scan_globals_bytes", "go_gc_scan_total_bytes",
		"go_gc_heap_live_bytes", "go_gc_heap_goal_bytes",
		"go_cpu_classes_gc_mark_assist_cpu_seconds_total", "go_cpu_classes_gc_mark_dedicated_cpu_seconds_total",
		"go_cpu_classes_gc_mark_idle_cpu_seconds_total", "go_cpu_classes_gc_pause_cpu_seconds_total",
		"go_cpu_classes_gc_total_cpu_seconds_total", "go_cpu_classes_user_cpu_seconds_total",
		"go_sched_goroutines_goroutines",
		// How long goroutines waited to run.
		"go_sched_latencies_seconds_count", "go_sched_latencies_seconds_sum",
	} {
		if _, ok := s[name]; !ok {
			t.Errorf("/metrics lacks %s", name)
		}
	}
	if t.Failed() {
		return
	}
	heap, stack, globals, total := s["go_gc_scan_heap_bytes"], s["go_gc_scan_stack_bytes"], s["go_gc_scan_globals_bytes"], s["go_gc_scan_total_bytes"]
	if heap <= 0 || stack <= 0 || globals <= 0 {
		t.Errorf("scannable heap %v, stacks %v, globals %v bytes; want each > 0 after a collection", heap, stack, globals)
	}
	if total != heap+stack+globals {
		t.Errorf("scannable total %v bytes, want heap + stacks + globals = %v", total, heap+stack+globals)
	}
	if live := s["go_gc_heap_live_bytes"]; live <= 0 || live > s["go_gc_heap_goal_bytes"] {
		t.Errorf("live heap %v bytes, goal %v; want 0 < live ≤ goal", live, s["go_gc_heap_goal_bytes"])
	}
	if g := s["go_sched_goroutines_goroutines"]; g < 2 {
		t.Errorf("goroutines %v, want at least this test's and the server's", g)
	}
	classes := s["go_cpu_classes_gc_mark_assist_cpu_seconds_total"] + s["go_cpu_classes_gc_mark_dedicated_cpu_seconds_total"] +
		s["go_cpu_classes_gc_mark_idle_cpu_seconds_total"] + s["go_cpu_classes_gc_pause_cpu_seconds_total"]
	gcTotal := s["go_cpu_classes_gc_total_cpu_seconds_total"]
	if s["go_cpu_classes_gc_pause_cpu_seconds_total"] <= 0 || gcTotal <= 0 {
		t.Errorf("collector CPU: pauses %v s, total %v s; want > 0 after a collection", s["go_cpu_classes_gc_pause_cpu_seconds_total"], gcTotal)
	}
	if math.Abs(gcTotal-classes) > 1e-6*gcTotal+1e-9 {
		t.Errorf("collector CPU total %v s, want the sum of its classes %v s", gcTotal, classes)
	}
}
