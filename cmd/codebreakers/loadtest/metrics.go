package loadtest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"runtime/trace"
	"sort"
	"strconv"
	"strings"
	"time"
)

// scrape is one read of the server's Prometheus text endpoint: every
// sample by its full series name (labels included).
type scrape map[string]float64

// supportsMetrics reports whether bin's `serve` has the --metrics-addr flag.
func supportsMetrics(bin string) bool {
	out, _ := exec.Command(bin, "serve", "--help").CombinedOutput()
	return strings.Contains(string(out), "metrics-addr")
}

// supportsFlag reports whether the server binary has the serve flag name
// (a binary built before it would refuse to start with it).
func supportsFlag(bin, name string) bool {
	out, _ := exec.Command(bin, "serve", "--help").CombinedOutput()
	return strings.Contains(string(out), "-"+name+" ")
}

// readMetrics fetches and parses http://addr/metrics.
func readMetrics(ctx context.Context, addr string) (scrape, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/metrics", nil)
	if err != nil {
		return nil, fmt.Errorf("metrics request: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("read metrics: %w", err)
	}
	defer resp.Body.Close()
	return parseMetrics(io.LimitReader(resp.Body, 8<<20))
}

// saveProfile fetches a CPU profile of secs seconds from the server's
// pprof listener and writes it to path.
func saveProfile(ctx context.Context, addr string, secs int, path string) error {
	return fetchProfile(ctx, fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", addr, secs),
		time.Duration(secs+30)*time.Second, path)
}

// startEchoTrace starts the execution traces of cfg.EchoTrace (nothing
// without it): the server's, fetched from its pprof listener for about as
// long as the echoes take, and the generator's own. The returned stop ends
// the generator's, waits for the server's and writes the echoes' log.
func startEchoTrace(ctx context.Context, cfg Config, t *target, errs *errorLog) (stop func(echoes []string)) {
	if cfg.EchoTrace == "" {
		return func([]string) {}
	}
	var f *os.File
	if t.pprofAddr == "" {
		errs.add(errors.New("echo trace: the server has no pprof listener"))
	} else if tf, err := os.Create(cfg.EchoTrace + ".generator"); err != nil {
		errs.add(fmt.Errorf("echo trace: %w", err))
	} else if err := trace.Start(tf); err != nil {
		_ = tf.Close()
		errs.add(fmt.Errorf("echo trace: %w", err))
	} else {
		f = tf
	}
	secs := 4 + cfg.EchoSamples*25/1000 // 20 ms apart, and each echo's own time
	served := make(chan error, 1)
	go func() {
		if t.pprofAddr == "" {
			served <- nil
			return
		}
		served <- fetchProfile(ctx, fmt.Sprintf("http://%s/debug/pprof/trace?seconds=%d", t.pprofAddr, secs),
			time.Duration(secs+30)*time.Second, cfg.EchoTrace+".server")
	}()
	sleep(ctx, 2*time.Second) // the server's trace takes a moment to start
	return func(echoes []string) {
		if f != nil {
			trace.Stop()
			if err := f.Close(); err != nil {
				errs.add(fmt.Errorf("echo trace: %w", err))
			}
		}
		if err := <-served; err != nil {
			errs.add(fmt.Errorf("echo trace: %w", err))
		}
		if err := os.WriteFile(cfg.EchoTrace+".echoes", []byte(strings.Join(echoes, "\n")+"\n"), 0o644); err != nil {
			errs.add(fmt.Errorf("echo trace: %w", err))
		}
		fmt.Fprintf(cfg.Log, "echo traces in %s.server and %s.generator, the echoes in %s.echoes\n", cfg.EchoTrace, cfg.EchoTrace, cfg.EchoTrace)
	}
}

// saveHeapProfile fetches the server's heap profile, taken right after a
// collection so that it shows live memory only, and writes it to path.
func saveHeapProfile(ctx context.Context, addr, path string) error {
	return fetchProfile(ctx, "http://"+addr+"/debug/pprof/heap?gc=1", time.Minute, path)
}

func fetchProfile(ctx context.Context, url string, limit time.Duration, path string) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("profile request: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("fetch profile: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("fetch profile: %s", resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("save profile: %w", err)
	}
	if _, err := io.Copy(f, io.LimitReader(resp.Body, 64<<20)); err != nil {
		_ = f.Close()
		return fmt.Errorf("save profile: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("save profile: %w", err)
	}
	return nil
}

// parseMetrics reads the Prometheus text format, keeping "name{labels} value".
func parseMetrics(r io.Reader) (scrape, error) {
	s := scrape{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			continue
		}
		s[line[:i]] = v
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("parse metrics: %w", err)
	}
	return s, nil
}

// sum adds every series of name (any labels) matching all of filters.
func (s scrape) sum(name string, filters ...string) float64 {
	var t float64
	for k, v := range s {
		base, _, _ := strings.Cut(k, "{")
		if base != name || !containsAll(k, filters) {
			continue
		}
		t += v
	}
	return t
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// Histogram is what a Prometheus histogram recorded between two scrapes.
type Histogram struct {
	Count  float64 `json:"count"`
	MeanMS float64 `json:"mean_ms"`
	// P50MS and P99MS are the upper bounds of the buckets holding those
	// quantiles (so "at most").
	P50MS float64 `json:"p50_at_most_ms"`
	P99MS float64 `json:"p99_at_most_ms"`
}

// histogramDelta is name's histogram between before and after, summed
// over labels.
func histogramDelta(before, after scrape, name string) Histogram {
	count := after.sum(name+"_count") - before.sum(name+"_count")
	h := Histogram{Count: count}
	if count <= 0 {
		return h
	}
	h.MeanMS = (after.sum(name+"_sum") - before.sum(name+"_sum")) / count * 1000
	bounds, cum := bucketsDelta(before, after, name)
	at := func(q float64) float64 {
		for _, b := range bounds {
			if cum[b] >= q*count && !math.IsInf(b, 1) {
				return b * 1000
			}
		}
		return -1 // beyond the last bucket (JSON has no infinity)
	}
	h.P50MS, h.P99MS = at(0.5), at(0.99)
	return h
}

// bucketsDelta is name's histogram buckets between before and after,
// summed over labels: each bucket's upper bound (in the histogram's unit,
// +Inf last) in order, and how many observations were at most it.
func bucketsDelta(before, after scrape, name string) (bounds []float64, cum map[float64]float64) {
	cum = map[float64]float64{}
	for k, v := range after {
		base, labels, _ := strings.Cut(k, "{")
		if base != name+"_bucket" {
			continue
		}
		le := labelValue(labels, "le")
		b, err := strconv.ParseFloat(le, 64)
		if le == "+Inf" {
			b, err = math.Inf(1), nil
		}
		if err != nil {
			continue
		}
		cum[b] += v - before[k]
	}
	bounds = make([]float64, 0, len(cum))
	for b := range cum {
		bounds = append(bounds, b)
	}
	sort.Float64s(bounds)
	return bounds, cum
}

// SchedLatency is what the server's scheduler latency histogram
// (go_sched_latencies_seconds, the runtime's /sched/latencies: how long
// each goroutine that became runnable waited before it ran) recorded over
// a stretch of the run. A keypress wakes a few goroutines in turn (the
// connection's reader, the session's input, its program, its writer), so
// a server whose echo is slow because its goroutines wait for a CPU shows
// it here, and one whose echo is slow elsewhere does not.
type SchedLatency struct {
	Count float64 `json:"count"`
	// Over counts the waits longer than each of the histogram's bounds
	// from 0.1 ms up (the exporter's bounds are about a power of ten apart).
	Over []SchedOver `json:"over"`
}

// SchedOver is how many waits were longer than MS milliseconds.
type SchedOver struct {
	MS    float64 `json:"ms"`
	Count float64 `json:"count"`
}

// schedLatency is the server's scheduler latencies between before and
// after (nil when either scrape is missing or holds none).
func schedLatency(before, after scrape) *SchedLatency {
	const name = "go_sched_latencies_seconds"
	if before == nil || after == nil {
		return nil
	}
	bounds, cum := bucketsDelta(before, after, name)
	if len(bounds) == 0 {
		return nil
	}
	total := cum[bounds[len(bounds)-1]]
	s := &SchedLatency{Count: total}
	for _, b := range bounds {
		if b >= 1e-4 && !math.IsInf(b, 1) {
			s.Over = append(s.Over, SchedOver{MS: b * 1000, Count: total - cum[b]})
		}
	}
	return s
}

// String reads as "n waits, k over 0.7 ms, j over 6.9 ms".
func (s *SchedLatency) String() string {
	if s == nil {
		return "not read"
	}
	out := fmt.Sprintf("%.0f waits", s.Count)
	for _, o := range s.Over {
		out += fmt.Sprintf(", %.0f over %.2g ms", o.Count, o.MS)
	}
	return out
}

func labelValue(labels, name string) string {
	for _, part := range strings.Split(strings.TrimSuffix(labels, "}"), ",") {
		k, v, ok := strings.Cut(part, "=")
		if ok && k == name {
			return strings.Trim(v, `"`)
		}
	}
	return ""
}

// ServerMetrics are the server's own figures over the playing phase.
type ServerMetrics struct {
	// Action is validate + durable write + publish, per move, as the
	// tables measure it.
	Action Histogram `json:"action"`
	// Commit is one bbolt write transaction, fsync included; WritesPerSec
	// is writes committed per second and WritesPerCommit the group size.
	Commit          Histogram `json:"storage_commit"`
	WritesPerSec    float64   `json:"storage_writes_per_sec"`
	WritesPerCommit float64   `json:"storage_writes_per_commit"`
	Errors          float64   `json:"server_errors"`
	// Analysed counts finished games the analyst analysed in the
	// background, AnalysisBusySec the time it spent on them, and
	// AnalysisDropped the games left for their first replay (queue full).
	Analysed        float64 `json:"games_analysed"`
	AnalysisBusySec float64 `json:"analysis_busy_sec"`
	AnalysisDropped float64 `json:"analysis_dropped"`
	// AnalysisDeferred counts games whose background analysis waited
	// because play was busy (the server's --analysis-busy-moves), and
	// AnalysisBacklog the games still queued at the end.
	AnalysisDeferred float64 `json:"analysis_deferred"`
	AnalysisBacklog  float64 `json:"analysis_backlog"`
	// Moves counts the moves the tables accepted (people's and bots');
	// AllocKBPerMove and AllocsPerMove are the server's heap allocations
	// per move, GCs the collections it ran and HeapMB its heap in use at
	// the end (all from the Go runtime's figures in /metrics).
	Moves          float64 `json:"moves"`
	AllocKBPerMove float64 `json:"alloc_kb_per_move"`
	AllocsPerMove  float64 `json:"allocs_per_move"`
	GCs            float64 `json:"gcs"`
	HeapMB         float64 `json:"heap_inuse_mb"`
	// GC is what the collector cost over the play and what it scans (nil
	// from a server whose /metrics lack the runtime's GC figures).
	GC *GCWork `json:"gc,omitempty"`
}

// GCWork is what the server's garbage collector cost during the play and
// what its marking has to walk, from the Go runtime's own figures in the
// server's /metrics (runtime/metrics /cpu/classes/gc/…, /gc/scan/…,
// /gc/heap/live, /sched/goroutines).
//
// The CPU figures are the runtime's estimates, which it adds up when a
// cycle ends (and at its pauses): they cover the cycles that ended during
// the play, a cycle that began before included and one still marking at
// the end left out, and a pause counts GOMAXPROCS times its length.
type GCWork struct {
	// CPU seconds by class: AssistSec is marking done by the goroutines
	// that allocate (sessions and tables, while they should be drawing
	// and moving), DedicatedSec the background mark workers (fractional
	// ones included), IdleSec mark workers on otherwise idle processors,
	// PauseSec the stop-the-world pauses; TotalSec is their sum.
	AssistSec    float64 `json:"assist_cpu_sec"`
	DedicatedSec float64 `json:"dedicated_cpu_sec"`
	IdleSec      float64 `json:"idle_cpu_sec"`
	PauseSec     float64 `json:"pause_cpu_sec"`
	TotalSec     float64 `json:"total_cpu_sec"`
	// As first read after the play's last collection ended (MB; when
	// AtCollection, else at the end of the play): the heap the cycle
	// scanned (plus what was allocated with pointers in the half second
	// or so before the read; at the end of the play that is every such
	// allocation since the cycle), the goroutine stacks it scanned, the
	// globals holding pointers, and the heap it found live; then, at the
	// end of the play, the goroutines and the sessions open.
	ScanHeapMB    float64 `json:"scan_heap_mb"`
	ScanStackMB   float64 `json:"scan_stack_mb"`
	ScanGlobalsMB float64 `json:"scan_globals_mb"`
	LiveHeapMB    float64 `json:"live_heap_mb"`
	AtCollection  bool    `json:"scan_read_at_collection"`
	Goroutines    float64 `json:"goroutines"`
	Sessions      float64 `json:"sessions"`
	// PerSession divides them by the sessions open (nil without any).
	PerSession *GCPerSession `json:"per_session,omitempty"`
}

// GCPerSession is GCWork divided by the sessions open at the end of the
// play (everything the server holds is counted, not only the sessions').
type GCPerSession struct {
	ScanHeapKB  float64 `json:"scan_heap_kb"`
	ScanStackKB float64 `json:"scan_stack_kb"`
	LiveHeapKB  float64 `json:"live_heap_kb"`
	Goroutines  float64 `json:"goroutines"`
	// CPUMs is the collector's CPU over the play, per session.
	CPUMs float64 `json:"cpu_ms"`
}

// gcWork reads the collector's figures between two scrapes of the
// server's /metrics, and what it scanned from atLast, the scrape that
// first saw the play's last collection (nil: none was seen; after's
// figures are given instead, ScanAtCollection false); nil when after lacks
// them (an older server).
func gcWork(before, after, atLast scrape) *GCWork {
	if _, ok := after["go_gc_scan_total_bytes"]; !ok {
		return nil
	}
	delta := func(class string) float64 {
		name := "go_cpu_classes_gc_" + class + "_cpu_seconds_total"
		return after.sum(name) - before.sum(name)
	}
	const mb = 1 << 20
	scanned := after
	if atLast != nil {
		scanned = atLast
	}
	g := &GCWork{
		AssistSec:     delta("mark_assist"),
		DedicatedSec:  delta("mark_dedicated"),
		IdleSec:       delta("mark_idle"),
		PauseSec:      delta("pause"),
		TotalSec:      delta("total"),
		ScanHeapMB:    scanned.sum("go_gc_scan_heap_bytes") / mb,
		ScanStackMB:   scanned.sum("go_gc_scan_stack_bytes") / mb,
		ScanGlobalsMB: scanned.sum("go_gc_scan_globals_bytes") / mb,
		LiveHeapMB:    scanned.sum("go_gc_heap_live_bytes") / mb,
		AtCollection:  atLast != nil,
		Goroutines:    after.sum("go_sched_goroutines_goroutines"),
		Sessions:      after.sum("codebreakers_sessions"),
	}
	if n := g.Sessions; n > 0 {
		g.PerSession = &GCPerSession{
			ScanHeapKB:  g.ScanHeapMB * 1024 / n,
			ScanStackKB: g.ScanStackMB * 1024 / n,
			LiveHeapKB:  g.LiveHeapMB * 1024 / n,
			Goroutines:  g.Goroutines / n,
			CPUMs:       g.TotalSec * 1000 / n,
		}
	}
	return g
}

// serverMetrics reads the server's figures over the play from its /metrics
// before and after it; atLast is the scrape that first saw the play's last
// collection (nil: none), for what that collection scanned.
func serverMetrics(before, after, atLast scrape, seconds float64) *ServerMetrics {
	m := &ServerMetrics{
		Action: histogramDelta(before, after, "codebreakers_action_duration_seconds"),
		Commit: histogramDelta(before, after, "codebreakers_storage_commit_duration_seconds"),
		Errors: after.sum("codebreakers_errors_total") - before.sum("codebreakers_errors_total"),
		Analysed: after.sum("codebreakers_analyses_total", `how="background"`) -
			before.sum("codebreakers_analyses_total", `how="background"`),
		AnalysisBusySec: after.sum("codebreakers_analysis_busy_seconds_total") - before.sum("codebreakers_analysis_busy_seconds_total"),
		AnalysisDropped: after.sum("codebreakers_analyses_total", `how="dropped"`) -
			before.sum("codebreakers_analyses_total", `how="dropped"`),
		AnalysisDeferred: after.sum("codebreakers_analysis_deferred_total") - before.sum("codebreakers_analysis_deferred_total"),
		AnalysisBacklog:  after.sum("codebreakers_analysis_backlog"),
	}
	delta := func(name string, filters ...string) float64 {
		return after.sum(name, filters...) - before.sum(name, filters...)
	}
	m.Moves = delta("codebreakers_actions_total", `outcome="ok"`)
	if m.Moves > 0 {
		m.AllocKBPerMove = delta("go_memstats_alloc_bytes_total") / m.Moves / 1024
		m.AllocsPerMove = delta("go_memstats_mallocs_total") / m.Moves
	}
	m.GCs = delta("go_gc_duration_seconds_count")
	m.HeapMB = after.sum("go_memstats_heap_inuse_bytes") / (1 << 20)
	m.GC = gcWork(before, after, atLast)
	writes := after.sum("codebreakers_storage_writes_total") - before.sum("codebreakers_storage_writes_total")
	m.WritesPerSec = writes / seconds
	if m.Commit.Count > 0 {
		m.WritesPerCommit = writes / m.Commit.Count
	}
	return m
}

// lines is g for the text report: what the collector cost over the play
// (in the cycles that ended in it, beside the server's CPU of
// serverCPUSec), what it scans and holds live at the end, and that per
// session.
func (g *GCWork) lines(collections, serverCPUSec float64) []string {
	when := "its last collection scanned"
	if !g.AtCollection {
		when = "at the end (no collection seen in the play) it would scan"
	}
	out := []string{fmt.Sprintf("server collector %.2f s CPU in the play's %.0f collections (assists %.2f, dedicated workers %.2f, idle workers %.2f, pauses %.3f; the server's CPU %.1f s); %s heap %.0f MB, stacks %.1f MB, globals %.1f MB, live heap %.0f MB; %.0f goroutines",
		g.TotalSec, collections, g.AssistSec, g.DedicatedSec, g.IdleSec, g.PauseSec, serverCPUSec,
		when, g.ScanHeapMB, g.ScanStackMB, g.ScanGlobalsMB, g.LiveHeapMB, g.Goroutines)}
	if p := g.PerSession; p != nil {
		out = append(out, fmt.Sprintf("per session (%.0f open): scanned heap %.1f KB, stacks %.1f KB; live heap %.1f KB, %.1f goroutines; collector %.2f ms CPU",
			g.Sessions, p.ScanHeapKB, p.ScanStackKB, p.LiveHeapKB, p.Goroutines, p.CPUMs))
	}
	return out
}

// Runtime is where a held session's memory goes inside the server, from
// the Go runtime's own figures (its /metrics) before and after the
// sessions were opened, divided by the sessions held.
type Runtime struct {
	Goroutines float64 `json:"goroutines_per_session"`
	// HeapKB is heap in use; StackKB goroutine stacks; OtherKB whatever
	// else the runtime took from the system (GC metadata, spans, free
	// heap not yet returned), all per session.
	HeapKB  float64 `json:"heap_kb_per_session"`
	StackKB float64 `json:"stack_kb_per_session"`
	SysKB   float64 `json:"runtime_sys_kb_per_session"`
}

func runtimePerSession(before, after scrape, sessions int) *Runtime {
	if sessions <= 0 {
		return nil
	}
	n := float64(sessions)
	d := func(name string) float64 { return (after.sum(name) - before.sum(name)) / n }
	return &Runtime{
		Goroutines: d("go_goroutines"),
		HeapKB:     d("go_memstats_heap_inuse_bytes") / 1024,
		StackKB:    d("go_memstats_stack_inuse_bytes") / 1024,
		SysKB:      d("go_memstats_sys_bytes") / 1024,
	}
}

// collectionsSeen is what watchCollections saw: when each new collection
// was first seen, in seconds from start (to within its interval), and the
// scrape in which the last of them was first seen (nil: none was).
type collectionsSeen struct {
	at   []float64
	last scrape
}

// watchCollections reads the server's collection count from its /metrics
// every interval until ctx ends, and returns when each new collection was
// first seen. The count grows when a cycle's marking ends. A collection
// marks the whole live heap, which on a busy machine is seconds of work
// that the tables' moves queue behind, so the play's latency windows are
// read beside these times. The scrape that first saw the last collection
// tells what that cycle scanned: the runtime's scannable heap is set to
// the cycle's scan work as it ends and grows with every allocation holding
// pointers after, so a scrape at the end of the play, tens of seconds
// after the collection, counts those allocations too.
func watchCollections(ctx context.Context, addr string, start time.Time, interval time.Duration) collectionsSeen {
	var seen collectionsSeen
	last := -1.0
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		if m, err := readMetrics(ctx, addr); err == nil {
			n := m.sum("go_gc_duration_seconds_count")
			if last >= 0 && n > last {
				seen.at = append(seen.at, time.Since(start).Seconds())
				seen.last = m
			}
			last = n
		}
		select {
		case <-ctx.Done():
			return seen
		case <-tick.C:
		}
	}
}
