package loadtest

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	servermetrics "github.com/codebreakers/codebreakers/server/metrics"
)

func TestSummaryPicksNearestRank(t *testing.T) {
	s := &samples{}
	for i := 100; i >= 1; i-- { // out of order on purpose
		s.add(time.Duration(i) * time.Millisecond)
	}
	got := s.summary()
	if got.N != 100 || got.P50 != 50 || got.P99 != 99 || got.Max != 100 {
		t.Fatalf("summary = %+v, want n=100 p50=50 p99=99 max=100", got)
	}
	if (&samples{}).summary() != (Latency{}) {
		t.Fatal("an empty set should summarise to zeros")
	}
}

func TestWindowsSplitTimingsByWhenTheyBegan(t *testing.T) {
	s := &samples{}
	start := time.Date(2026, 11, 26, 15, 0, 0, 0, time.UTC)
	for i := range 10 {
		s.addAt(start.Add(time.Duration(i)*time.Second), 1*time.Millisecond) // first window: fast
		s.addAt(start.Add(25*time.Second+time.Duration(i)*time.Millisecond), time.Second)
	}
	s.add(time.Hour)                              // no start time: left out of every window
	s.addAt(start.Add(-time.Second), 2*time.Hour) // before the start: left out
	got := s.windows(start, 10*time.Second)
	if len(got) != 2 {
		t.Fatalf("windows = %+v, want two (0 s and 20 s; the empty one between left out)", got)
	}
	if got[0].FromSec != 0 || got[0].N != 10 || got[0].Max != 1 {
		t.Errorf("first window = %+v, want from 0 s, 10 timings of 1 ms", got[0])
	}
	if got[1].FromSec != 20 || got[1].N != 10 || got[1].P50 != 1000 {
		t.Errorf("second window = %+v, want from 20 s, 10 timings of 1 s", got[1])
	}
	if all := s.summary(); all.N != 22 {
		t.Errorf("summary n = %d, want every timing (22)", all.N)
	}
}

func TestTimingsBeforeFromAreLeftOut(t *testing.T) {
	s := &samples{}
	start := time.Date(2026, 11, 26, 15, 0, 0, 0, time.UTC)
	s.from.Store(math.MaxInt64) // -play-as-seated: nothing counts until every table is seated
	s.addAt(start, time.Second)
	s.from.Store(start.Add(time.Minute).UnixNano())
	s.addAt(start.Add(59*time.Second), time.Second) // pressed before the play window
	s.addAt(start.Add(time.Minute), time.Millisecond)
	s.addAt(start.Add(2*time.Minute), 2*time.Millisecond)
	if got := s.summary(); got.N != 2 || got.Max != 2 {
		t.Fatalf("summary = %+v, want the two timings from the play window only", got)
	}
	if w := s.windows(start.Add(time.Minute), 10*time.Second); len(w) != 2 || w[0].N != 1 || w[1].FromSec != 60 {
		t.Fatalf("windows = %+v, want one timing at 0 s and one at 60 s", w)
	}
}

const before = `# HELP codebreakers_storage_commit_duration_seconds x
codebreakers_storage_commit_duration_seconds_bucket{le="0.001"} 10
codebreakers_storage_commit_duration_seconds_bucket{le="0.01"} 10
codebreakers_storage_commit_duration_seconds_bucket{le="+Inf"} 10
codebreakers_storage_commit_duration_seconds_sum 0.005
codebreakers_storage_commit_duration_seconds_count 10
codebreakers_storage_writes_total 20
codebreakers_analyses_total{how="background"} 3
codebreakers_analyses_total{how="dropped"} 0
codebreakers_analyses_total{how="on_first_replay"} 1
codebreakers_analysis_busy_seconds_total 0.5
codebreakers_analysis_deferred_total 2
codebreakers_analysis_backlog 5
codebreakers_actions_total{game="breakcode",outcome="ok"} 1000
codebreakers_actions_total{game="breakcode",outcome="illegal"} 4
go_memstats_alloc_bytes_total 1e+09
go_memstats_mallocs_total 5e+06
go_gc_duration_seconds_count 40
`

const after = `codebreakers_storage_commit_duration_seconds_bucket{le="0.001"} 100
codebreakers_storage_commit_duration_seconds_bucket{le="0.01"} 109
codebreakers_storage_commit_duration_seconds_bucket{le="+Inf"} 110
codebreakers_storage_commit_duration_seconds_sum 0.205
codebreakers_storage_commit_duration_seconds_count 110
codebreakers_storage_writes_total 220
codebreakers_analyses_total{how="background"} 203
codebreakers_analyses_total{how="dropped"} 7
codebreakers_analyses_total{how="on_first_replay"} 2
codebreakers_analysis_busy_seconds_total 12.5
codebreakers_analysis_deferred_total 32
codebreakers_analysis_backlog 17
codebreakers_actions_total{game="breakcode",outcome="ok"} 1400
codebreakers_actions_total{game="coding",outcome="ok"} 100
codebreakers_actions_total{game="breakcode",outcome="illegal"} 50
go_memstats_alloc_bytes_total 1.1024e+09
go_memstats_mallocs_total 5.75e+06
go_gc_duration_seconds_count 43
go_memstats_heap_inuse_bytes 2.097152e+08
`

func TestServerMetricsAreTheDifferenceBetweenScrapes(t *testing.T) {
	b, err := parseMetrics(strings.NewReader(before))
	if err != nil {
		t.Fatal(err)
	}
	a, err := parseMetrics(strings.NewReader(after))
	if err != nil {
		t.Fatal(err)
	}
	m := serverMetrics(b, a, nil, 10)
	if m.GC != nil {
		t.Errorf("collector figures %+v from scrapes without them, want none", m.GC)
	}
	c := m.Commit
	// 100 commits between the scrapes: 90 under 1 ms, 9 under 10 ms, one slower.
	if c.Count != 100 || c.MeanMS != 2 || c.P50MS != 1 || c.P99MS != 10 {
		t.Fatalf("commit = %+v, want 100 commits, mean 2 ms, p50 ≤1 ms, p99 ≤10 ms", c)
	}
	if m.WritesPerSec != 20 || m.WritesPerCommit != 2 {
		t.Fatalf("writes/s %v, writes/commit %v; want 20 and 2", m.WritesPerSec, m.WritesPerCommit)
	}
	// Games analysed on a first replay are not the background work.
	if m.Analysed != 200 || m.AnalysisBusySec != 12 || m.AnalysisDropped != 7 {
		t.Fatalf("analysed %v in %v s, %v dropped; want 200 in 12 s, 7 dropped", m.Analysed, m.AnalysisBusySec, m.AnalysisDropped)
	}
	// Deferred games are counted over the play; the backlog is the last one.
	if m.AnalysisDeferred != 30 || m.AnalysisBacklog != 17 {
		t.Fatalf("deferred %v, backlog %v; want 30 and 17", m.AnalysisDeferred, m.AnalysisBacklog)
	}
	// Per move: only moves accepted count, at every game's tables.
	if m.Moves != 500 || m.AllocKBPerMove != 200 || m.AllocsPerMove != 1500 || m.GCs != 3 || m.HeapMB != 200 {
		t.Fatalf("moves %v, %v KB and %v allocations per move, %v collections, heap %v MB; want 500, 200, 1500, 3, 200",
			m.Moves, m.AllocKBPerMove, m.AllocsPerMove, m.GCs, m.HeapMB)
	}
	// Everything beyond the last finite bucket has no bound to report.
	slow := histogramDelta(scrape{}, scrape{
		`h_bucket{le="0.001"}`: 0, `h_bucket{le="+Inf"}`: 5, "h_count": 5, "h_sum": 50,
	}, "h")
	if slow.P99MS != -1 {
		t.Fatalf("p99 beyond the buckets = %v, want -1", slow.P99MS)
	}
}

func TestReadProcOfThisProcess(t *testing.T) {
	st, err := readProc(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if st.RSS <= 0 {
		t.Fatalf("RSS = %d, want > 0", st.RSS)
	}
}

// TestRunQueueOfThisProcess: the kernel's counts for this process's
// threads grow with the work it does, and a process that cannot be read
// (none, or one already gone) gives nothing rather than a wrong figure.
func TestRunQueueOfThisProcess(t *testing.T) {
	before := schedStatOf(os.Getpid())
	if before == nil || before.slices <= 0 || before.run <= 0 {
		t.Fatalf("schedstat of this process: %+v", before)
	}
	for deadline := time.Now().Add(20 * time.Millisecond); time.Now().Before(deadline); {
	}
	q := runQueueSince(os.Getpid(), before)
	if q == nil || q.RunMS <= 0 || q.Slices < 0 || q.WaitMS < 0 {
		t.Fatalf("run queue after 20 ms of work: %v", q)
	}
	if q := runQueueSince(0, before); q != nil {
		t.Errorf("no process: %v, want nil", q)
	}
	if st := schedStatOf(0); st != nil {
		t.Errorf("no process: %+v, want nil", st)
	}
}

// TestSlowEchoesAreSplitByWhoWaited: echoes over 5 ms are counted by
// whose threads waited at least 1 ms for a CPU during them; a fast echo
// counts nowhere, whatever waited.
func TestSlowEchoesAreSplitByWhoWaited(t *testing.T) {
	w := &echoWaits{server: 1, client: 2,
		serverMS: []float64{3, 0, 2, 0, 0.5, 9},
		clientMS: []float64{0, 4, 2, 0, 0.9, 9}}
	got := w.slowEchoes([]float64{8, 7, 12, 30, 6, 1}, 5, 1)
	want := SlowEchoes{OverMS: 5, WaitMS: 1, N: 5, Server: 2, Client: 2, Both: 1, Neither: 2}
	if got == nil || *got != want {
		t.Fatalf("slow echoes %+v, want %+v", got, want)
	}
	if got := w.slowEchoes([]float64{8}, 5, 1); got != nil {
		t.Errorf("waits of 6 echoes read against 1: %+v, want nil", got)
	}
	if w := newEchoWaits(0, 2); w != nil || w.slowEchoes(nil, 5, 1) != nil {
		t.Errorf("no server process: %+v, want nothing watched", w)
	}
}

func TestWatchCollectionsSeesEachNewCollection(t *testing.T) {
	var scrapes atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Collections 3, 3, 4, 4, 6, 6, …: two new ones seen, the second
		// a jump of two between scrapes (seen once).
		n := scrapes.Add(1)
		count := map[int64]int{1: 3, 2: 3, 3: 4, 4: 4}[n]
		if n > 4 {
			count = 6
		}
		fmt.Fprintf(w, "go_gc_duration_seconds_count %d\n", count)
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan collectionsSeen)
	go func() {
		done <- watchCollections(ctx, strings.TrimPrefix(srv.URL, "http://"), time.Now(), time.Millisecond)
	}()
	for scrapes.Load() < 8 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	seen := <-done
	at := seen.at
	if len(at) != 2 {
		t.Fatalf("collections seen at %v, want two (3→4 and 4→6)", at)
	}
	if at[0] > at[1] || at[0] < 0 {
		t.Errorf("times %v should be in order from the start", at)
	}
	if got := seen.last.sum("go_gc_duration_seconds_count"); got != 6 {
		t.Errorf("the scrape kept for the last collection counts %v collections, want the one that first saw it (6)", got)
	}
}

// The collector's figures as a server's /metrics gives them, before and
// after a play: 4.25 s of collector CPU between them; 800 MiB of heap,
// 40 MiB of stacks and 1 MiB of globals to scan, 900 MiB live, 44,000
// goroutines and 4,000 sessions at the end.
const gcBefore = `go_cpu_classes_gc_mark_assist_cpu_seconds_total 10
go_cpu_classes_gc_mark_dedicated_cpu_seconds_total 20
go_cpu_classes_gc_mark_idle_cpu_seconds_total 1
go_cpu_classes_gc_pause_cpu_seconds_total 0.5
go_cpu_classes_gc_total_cpu_seconds_total 31.5
go_gc_scan_heap_bytes 1e+08
go_gc_scan_total_bytes 1.2e+08
go_sched_goroutines_goroutines 100
codebreakers_sessions 2
`

const gcAfter = `# TYPE go_gc_scan_heap_bytes gauge
go_cpu_classes_gc_mark_assist_cpu_seconds_total 11.5
go_cpu_classes_gc_mark_dedicated_cpu_seconds_total 22.25
go_cpu_classes_gc_mark_idle_cpu_seconds_total 1.25
go_cpu_classes_gc_pause_cpu_seconds_total 0.75
go_cpu_classes_gc_total_cpu_seconds_total 35.75
go_gc_scan_heap_bytes 8.388608e+08
go_gc_scan_stack_bytes 4.194304e+07
go_gc_scan_globals_bytes 1.048576e+06
go_gc_scan_total_bytes 8.81852416e+08
go_gc_heap_live_bytes 9.437184e+08
go_sched_goroutines_goroutines 44000
codebreakers_sessions 4000
`

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestGCWorkIsTheCollectorsCostAndWhatItScans: the collector's CPU is the
// difference between the scrapes, class by class; what it scans, the live
// heap and the goroutines are the last scrape's, and per session they are
// divided by the sessions open then.
func TestGCWorkIsTheCollectorsCostAndWhatItScans(t *testing.T) {
	b, err := parseMetrics(strings.NewReader(gcBefore))
	if err != nil {
		t.Fatal(err)
	}
	a, err := parseMetrics(strings.NewReader(gcAfter))
	if err != nil {
		t.Fatal(err)
	}
	g := serverMetrics(b, a, nil, 60).GC
	if g == nil {
		t.Fatal("no collector figures from a scrape that has them")
	}
	if !near(g.AssistSec, 1.5) || !near(g.DedicatedSec, 2.25) || !near(g.IdleSec, 0.25) || !near(g.PauseSec, 0.25) || !near(g.TotalSec, 4.25) {
		t.Errorf("collector CPU %+v, want assists 1.5, dedicated 2.25, idle 0.25, pauses 0.25, total 4.25 s", g)
	}
	if g.ScanHeapMB != 800 || g.ScanStackMB != 40 || g.ScanGlobalsMB != 1 || g.LiveHeapMB != 900 || g.Goroutines != 44000 || g.Sessions != 4000 {
		t.Errorf("at the end %+v, want heap 800, stacks 40, globals 1, live 900 MB, 44000 goroutines, 4000 sessions", g)
	}
	p := g.PerSession
	if p == nil || !near(p.ScanHeapKB, 204.8) || !near(p.ScanStackKB, 10.24) || !near(p.LiveHeapKB, 230.4) || p.Goroutines != 11 || !near(p.CPUMs, 1.0625) {
		t.Fatalf("per session %+v, want heap 204.8, stacks 10.24, live 230.4 KB, 11 goroutines, 1.0625 ms", p)
	}
	lines := g.lines(1, 55)
	if len(lines) != 2 ||
		!strings.Contains(lines[0], "4.25 s CPU in the play's 1 collections (assists 1.50, dedicated workers 2.25, idle workers 0.25, pauses 0.250; the server's CPU 55.0 s)") ||
		!strings.Contains(lines[0], "at the end (no collection seen in the play) it would scan heap 800 MB, stacks 40.0 MB, globals 1.0 MB, live heap 900 MB; 44000 goroutines") ||
		!strings.Contains(lines[1], "per session (4000 open): scanned heap 204.8 KB, stacks 10.2 KB; live heap 230.4 KB, 11.0 goroutines; collector 1.06 ms CPU") {
		t.Errorf("report lines:\n%s", strings.Join(lines, "\n"))
	}

	// With the scrape that first saw the last collection, what it scanned
	// and found live come from there (the scannable heap grows after a
	// collection with every allocation holding pointers); the CPU, the
	// goroutines and the sessions still span the play.
	atLast := scrape{"go_gc_scan_heap_bytes": 200 << 20, "go_gc_scan_stack_bytes": 20 << 20,
		"go_gc_scan_globals_bytes": 1 << 20, "go_gc_heap_live_bytes": 400 << 20, "go_gc_scan_total_bytes": 221 << 20}
	g = serverMetrics(b, a, atLast, 60).GC
	if !g.AtCollection || g.ScanHeapMB != 200 || g.ScanStackMB != 20 || g.LiveHeapMB != 400 || g.Goroutines != 44000 || !near(g.TotalSec, 4.25) {
		t.Errorf("read at the collection %+v, want heap 200, stacks 20, live 400 MB, 44000 goroutines, 4.25 s", g)
	}
	if p := g.PerSession; p == nil || !near(p.ScanHeapKB, 51.2) {
		t.Errorf("per session %+v, want 51.2 KB scanned", p)
	}
	if l := g.lines(1, 55); !strings.Contains(l[0], "its last collection scanned heap 200 MB, stacks 20.0 MB, globals 1.0 MB, live heap 400 MB; 44000 goroutines") {
		t.Errorf("report read at the collection:\n%s", strings.Join(l, "\n"))
	}

	// No sessions open: nothing to divide by.
	delete(a, "codebreakers_sessions")
	if g := gcWork(b, a, nil); g == nil || g.PerSession != nil || len(g.lines(1, 55)) != 1 {
		t.Errorf("without sessions: %+v, want the totals and no per-session figures", g)
	}
	// An older server's /metrics, without the runtime's collector figures.
	if g := gcWork(b, scrape{"go_gc_duration_seconds_count": 3}, nil); g != nil {
		t.Errorf("from a server without the figures: %+v, want none", g)
	}
}

// TestGCWorkReadsTheServersOwnMetrics: the names the generator reads are
// the ones the server's /metrics (server/metrics) gives, and a collection
// between two scrapes shows as collector CPU.
func TestGCWorkReadsTheServersOwnMetrics(t *testing.T) {
	srv := httptest.NewServer(servermetrics.New(servermetrics.Sources{Sessions: func() int { return 2 }}).Handler(nil))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	runtime.GC()
	b, err := readMetrics(t.Context(), addr)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	a, err := readMetrics(t.Context(), addr)
	if err != nil {
		t.Fatal(err)
	}
	g := gcWork(b, a, nil)
	if g == nil {
		t.Fatal("the server's /metrics lack the collector's figures")
	}
	if g.TotalSec <= 0 || g.PauseSec <= 0 {
		t.Errorf("a collection between the scrapes: collector CPU %v s, pauses %v s; want both > 0", g.TotalSec, g.PauseSec)
	}
	if g.ScanHeapMB <= 0 || g.ScanStackMB <= 0 || g.ScanGlobalsMB <= 0 || g.LiveHeapMB <= 0 || g.Goroutines < 2 || g.Sessions != 2 || g.PerSession == nil {
		t.Errorf("at the end %+v, want scannable heap, stacks and globals, a live heap, goroutines and the 2 sessions", g)
	}
}

// TestSchedLatencyCountsTheWaitsOverEachBound: the server's scheduler
// latencies between two scrapes are the waits counted meanwhile, and the
// tail is read as how many waited longer than each bound from 0.1 ms up
// (the smaller bounds and +Inf are no tail worth a line).
func TestSchedLatencyCountsTheWaitsOverEachBound(t *testing.T) {
	const name = "go_sched_latencies_seconds_bucket"
	b := scrape{name + `{le="6.4e-08"}`: 100, name + `{le="6.5e-06"}`: 900, name + `{le="0.000655"}`: 990,
		name + `{le="0.0067"}`: 999, name + `{le="0.068"}`: 1000, name + `{le="+Inf"}`: 1000}
	a := scrape{name + `{le="6.4e-08"}`: 200, name + `{le="6.5e-06"}`: 1700, name + `{le="0.000655"}`: 1980,
		name + `{le="0.0067"}`: 1996, name + `{le="0.068"}`: 1999, name + `{le="+Inf"}`: 2000}
	s := schedLatency(b, a)
	want := &SchedLatency{Count: 1000, Over: []SchedOver{{MS: 0.655, Count: 10}, {MS: 6.7, Count: 3}, {MS: 68, Count: 1}}}
	if s == nil || s.Count != want.Count || len(s.Over) != len(want.Over) {
		t.Fatalf("sched latency %+v, want %+v", s, want)
	}
	for i, o := range s.Over {
		if math.Abs(o.MS-want.Over[i].MS) > 1e-9 || o.Count != want.Over[i].Count {
			t.Errorf("over[%d] = %+v, want %+v", i, o, want.Over[i])
		}
	}
	if got := s.String(); got != "1000 waits, 10 over 0.66 ms, 3 over 6.7 ms, 1 over 68 ms" {
		t.Errorf("reads %q", got)
	}
	// A server without the histogram, or a scrape missing, gives nothing.
	if s := schedLatency(scrape{"go_goroutines": 5}, scrape{"go_goroutines": 6}); s != nil {
		t.Errorf("no histogram: %+v, want nil", s)
	}
	if s := schedLatency(nil, a); s != nil || s.String() != "not read" {
		t.Errorf("no scrape before: %+v, want nil", s)
	}
}
