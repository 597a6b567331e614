// Package metrics turns what the arcade observes into Prometheus metrics
// and serves them, with a health check, over HTTP on an address of the
// operator's choosing (off unless asked for).
//
// The lobby and storage packages do not import Prometheus: each declares a
// small Observer interface (lobby.Observer, storage.Observer) with a nil
// default, and *Metrics implements both. Gauges that already live
// elsewhere (open sessions, tables) are read when Prometheus scrapes, so
// they can never drift from the truth.
package metrics

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/lobby/analyst"
	"github.com/codebreakers/codebreakers/storage"
)

// Error components, the "component" label of codebreakers_errors_total.
const (
	ComponentStorage = "storage" // a write transaction failed
	ComponentTable   = "table"   // a table stopped after an internal error
	ComponentAction  = "action"  // a move failed on our side (not a rules refusal)
)

// Sources are the gauges read at scrape time. Nil fields are left out.
type Sources struct {
	// Sessions counts open SSH sessions.
	Sessions func() int
	// Tables counts open tables by game and phase.
	Tables func() []lobby.TableCount
	// Analyses is what the analyst of finished games has done so far.
	Analyses func() analyst.Stats
}

// Metrics holds the arcade's collectors in a registry of its own (nothing
// is registered globally). It implements lobby.Observer and
// storage.Observer; all methods are safe for concurrent use.
type Metrics struct {
	registry      *prometheus.Registry
	actions       *prometheus.CounterVec
	actionSeconds *prometheus.HistogramVec
	commitSeconds prometheus.Histogram
	commitWrites  prometheus.Counter
	errors        *prometheus.CounterVec
}

var (
	_ lobby.Observer   = (*Metrics)(nil)
	_ storage.Observer = (*Metrics)(nil)
)

// latencyBuckets span a fraction of a millisecond (an in-memory move) to
// seconds (a disk in trouble).
func latencyBuckets() []float64 {
	return []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}
}

// gcRuntimeMetrics picks the Go runtime's figures (runtime/metrics names)
// that say what a garbage collection costs and what it has to scan, beyond
// the MemStats-like go_* metrics the Go collector reports anyway:
//
//   - /gc/scan/{heap,stack,globals,total}:bytes — what a cycle's marking
//     walks (go_gc_scan_*_bytes): the heap the next cycle may have to scan
//     (what the last one scanned plus what was allocated with pointers
//     since), the goroutine stacks the last cycle scanned and the globals
//     holding pointers;
//   - /gc/heap/live:bytes and /gc/heap/goal:bytes — the heap the last cycle
//     marked live and the size at which the next starts;
//   - /cpu/classes/gc/…:cpu-seconds — the collector's CPU by class
//     (go_cpu_classes_gc_{mark_assist,mark_dedicated,mark_idle,pause,total}_cpu_seconds_total;
//     dedicated includes the fractional workers), and
//     /cpu/classes/user:cpu-seconds, the Go code's own, to compare them
//     with (the runtime's classes are estimates comparable only with each
//     other, not with the process's CPU time);
//   - /sched/goroutines:goroutines — the goroutines whose stacks are scanned;
//   - /sched/latencies:seconds — how long goroutines waited runnable before
//     they ran (go_sched_latencies_seconds, a histogram whose bounds the
//     exporter sets about a power of ten apart): a keypress's echo waits
//     on a few goroutines in turn, so a server short of CPU time for them
//     shows it here (issue 20's echo tail at 10,000 sessions).
func gcRuntimeMetrics() collectors.GoRuntimeMetricsRule {
	return collectors.GoRuntimeMetricsRule{Matcher: regexp.MustCompile(
		`^(/gc/scan/[a-z]+:bytes|/gc/heap/(live|goal):bytes|/cpu/classes/gc/.*|/cpu/classes/user:cpu-seconds|/sched/(goroutines:goroutines|latencies:seconds))$`)}
}

// New builds the collectors, plus Go runtime and process metrics.
func New(src Sources) *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		actions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "codebreakers_actions_total",
			Help: "Moves handled by tables, by game and outcome (ok, illegal, failed). rate() gives actions per second.",
		}, []string{"game", "outcome"}),
		actionSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "codebreakers_action_duration_seconds",
			Help:    "Time to validate, store durably and publish one move, by game.",
			Buckets: latencyBuckets(),
		}, []string{"game"}),
		commitSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "codebreakers_storage_commit_duration_seconds",
			Help:    "Time of one storage write transaction, fsync included (one commit carries many writes).",
			Buckets: latencyBuckets(),
		}),
		commitWrites: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "codebreakers_storage_writes_total",
			Help: "Writes committed to storage (moves, game starts and finishes, accounts).",
		}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "codebreakers_errors_total",
			Help: "Failures on the server's side, by component (storage, table, action).",
		}, []string{"component"}),
	}
	for _, c := range []string{ComponentStorage, ComponentTable, ComponentAction} {
		m.errors.WithLabelValues(c) // start every series at zero so rate() works from the first scrape
	}
	m.registry.MustRegister(m.actions, m.actionSeconds, m.commitSeconds, m.commitWrites, m.errors,
		collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(gcRuntimeMetrics())),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if src.Sessions != nil {
		m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "codebreakers_sessions",
			Help: "Open SSH sessions.",
		}, func() float64 { return float64(src.Sessions()) }))
	}
	if src.Tables != nil {
		m.registry.MustRegister(tableCollector{count: src.Tables, desc: prometheus.NewDesc(
			"codebreakers_tables", "Open tables by game and phase.", []string{"game", "phase"}, nil)})
	}
	if src.Analyses != nil {
		m.registry.MustRegister(analysisCollector{stats: src.Analyses,
			games: prometheus.NewDesc("codebreakers_analyses_total",
				"Finished games by what the analyst did with them: analysed in the background, analysed on first replay, failed, or left for the first replay because the queue was full.",
				[]string{"how"}, nil),
			busy: prometheus.NewDesc("codebreakers_analysis_busy_seconds_total",
				"Time spent analysing finished games, in the background and on first replay.", nil, nil),
			deferred: prometheus.NewDesc("codebreakers_analysis_deferred_total",
				"Finished games whose background analysis waited because live play was busy (--analysis-busy-moves).", nil, nil),
			backlog: prometheus.NewDesc("codebreakers_analysis_backlog",
				"Finished games queued for background analysis and not yet analysed.", nil, nil)})
	}
	return m
}

// Action counts a move and its latency (lobby.Observer).
func (m *Metrics) Action(game string, outcome lobby.Outcome, took time.Duration) {
	m.actions.WithLabelValues(game, string(outcome)).Inc()
	m.actionSeconds.WithLabelValues(game).Observe(took.Seconds())
	if outcome == lobby.OutcomeFailed {
		m.errors.WithLabelValues(ComponentAction).Inc()
	}
}

// TableBroken counts a table stopped by an internal error (lobby.Observer).
func (m *Metrics) TableBroken(string) {
	m.errors.WithLabelValues(ComponentTable).Inc()
}

// Commit records one storage transaction (storage.Observer).
func (m *Metrics) Commit(writes int, took time.Duration, err error) {
	m.commitSeconds.Observe(took.Seconds())
	if err != nil {
		m.errors.WithLabelValues(ComponentStorage).Inc()
		return
	}
	m.commitWrites.Add(float64(writes))
}

// Registry is the registry holding every collector, for tests and for
// callers that add their own.
func (m *Metrics) Registry() *prometheus.Registry { return m.registry }

// HealthCheck says whether the arcade can serve players; a non-nil error is
// reported as unhealthy with its message.
type HealthCheck func(ctx context.Context) error

// healthTimeout bounds one health check, so a stuck disk shows as a failed
// check rather than a hung probe.
const healthTimeout = 2 * time.Second

// Handler serves GET /metrics (Prometheus text format) and GET /healthz
// (200 "ok", or 503 with the reason).
func (m *Metrics) Handler(health HealthCheck) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if health != nil {
			ctx, cancel := context.WithTimeout(r.Context(), healthTimeout)
			defer cancel()
			if err := health(ctx); err != nil {
				w.WriteHeader(http.StatusServiceUnavailable)
				// One line, whatever the error's text holds (a joined error
				// or a database's message may span several).
				fmt.Fprintf(w, "unhealthy: %s\n", strings.Join(strings.Fields(err.Error()), " "))
				return
			}
		}
		fmt.Fprintln(w, "ok")
	})
	return mux
}

// tableCollector reports the open-table gauges from the hub at scrape time.
type tableCollector struct {
	count func() []lobby.TableCount
	desc  *prometheus.Desc
}

func (c tableCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c tableCollector) Collect(ch chan<- prometheus.Metric) {
	for _, tc := range c.count() {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(tc.Tables), tc.Game, tc.Phase.String())
	}
}

// analysisCollector reads the analyst's counts when Prometheus scrapes.
type analysisCollector struct {
	stats                          func() analyst.Stats
	games, busy, deferred, backlog *prometheus.Desc
}

func (c analysisCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.games
	ch <- c.busy
	ch <- c.deferred
	ch <- c.backlog
}

func (c analysisCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.stats()
	for how, n := range map[string]int{"background": s.Analysed, "on_first_replay": s.OnDemand, "failed": s.Failed, "dropped": s.Dropped} {
		ch <- prometheus.MustNewConstMetric(c.games, prometheus.CounterValue, float64(n), how)
	}
	ch <- prometheus.MustNewConstMetric(c.busy, prometheus.CounterValue, s.Busy.Seconds())
	ch <- prometheus.MustNewConstMetric(c.deferred, prometheus.CounterValue, float64(s.Deferred))
	ch <- prometheus.MustNewConstMetric(c.backlog, prometheus.GaugeValue, float64(s.Backlog))
}
