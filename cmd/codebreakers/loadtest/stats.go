package loadtest

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Latency summarises a set of timings, in milliseconds.
type Latency struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_ms"`
	P99 float64 `json:"p99_ms"`
	Max float64 `json:"max_ms"`
}

// samples collects timings from many goroutines. Each timing also keeps
// when it began, so that a run can be read over time (windows): a tail
// made in one burst looks the same in a summary as one spread evenly.
type samples struct {
	// from, in Unix nanoseconds, is the earliest start a timing may have
	// to be kept; 0 keeps every timing.
	from atomic.Int64
	mu   sync.Mutex
	d    []time.Duration
	at   []time.Time // when each timing began; zero for add
}

func (s *samples) add(d time.Duration) { s.addAt(time.Time{}, d) }

// addAt records d, a timing that began at began.
func (s *samples) addAt(began time.Time, d time.Duration) {
	if from := s.from.Load(); from != 0 && !began.IsZero() && began.UnixNano() < from {
		return
	}
	s.mu.Lock()
	s.d = append(s.d, d)
	s.at = append(s.at, began)
	s.mu.Unlock()
}

// Window is the timings that began within one stretch of a run.
type Window struct {
	// FromSec is where the window starts, in seconds from the run's start.
	FromSec float64 `json:"from_sec"`
	Latency
}

// windows summarises the timings by when they began, in windows of width
// from start; timings without a start time are left out.
func (s *samples) windows(start time.Time, width time.Duration) []Window {
	s.mu.Lock()
	var by []samples
	for i, at := range s.at {
		if at.IsZero() || at.Before(start) {
			continue
		}
		k := int(at.Sub(start) / width)
		for len(by) <= k {
			by = append(by, samples{})
		}
		by[k].d = append(by[k].d, s.d[i])
	}
	s.mu.Unlock()
	out := make([]Window, 0, len(by))
	for k := range by {
		if len(by[k].d) == 0 {
			continue
		}
		out = append(out, Window{FromSec: (time.Duration(k) * width).Seconds(), Latency: by[k].summary()})
	}
	return out
}

// summary sorts a copy and picks the percentiles (nearest rank).
func (s *samples) summary() Latency {
	s.mu.Lock()
	d := slices.Clone(s.d)
	s.mu.Unlock()
	if len(d) == 0 {
		return Latency{}
	}
	slices.Sort(d)
	at := func(q float64) float64 {
		i := int(q*float64(len(d))+0.5) - 1
		return ms(d[min(max(i, 0), len(d)-1)])
	}
	return Latency{N: len(d), P50: at(0.50), P99: at(0.99), Max: ms(d[len(d)-1])}
}

// all is a copy of every timing, in the order added.
func (s *samples) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.d)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// errorLog counts errors and keeps the first few for the report.
type errorLog struct {
	mu    sync.Mutex
	n     int
	first []string
}

func (e *errorLog) add(err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.n++
	if len(e.first) < 10 {
		e.first = append(e.first, err.Error())
	}
}

func (e *errorLog) count() (int, []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.n, slices.Clone(e.first)
}
