// Package analysistest holds what the games' analysis tests and benchmarks
// share.
package analysistest

import (
	"slices"
	"testing"
	"time"
)

// ReportPercentiles reports the median and 99th percentile of times, in
// milliseconds, as benchmark metrics p50-ms and p99-ms.
func ReportPercentiles(b *testing.B, times []time.Duration) {
	if len(times) == 0 {
		return
	}
	sorted := slices.Clone(times)
	slices.Sort(sorted)
	at := func(q float64) float64 {
		i := int(q * float64(len(sorted)-1))
		return float64(sorted[i]) / float64(time.Millisecond)
	}
	b.ReportMetric(at(0.5), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}
