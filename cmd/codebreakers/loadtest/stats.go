package loadtest

import (
	"slices"
	"sync"
	"time"
)

// Latency summarises a set of timings, in milliseconds.
type Latency struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_ms"`
	P99 float64 `json:"p99_ms"`
	Max float64 `json:"max_ms"`
}

// samples collects timings from many goroutines.
type samples struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *samples) add(d time.Duration) {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
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
