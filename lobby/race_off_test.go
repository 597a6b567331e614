//go:build !race

package lobby

// raceEnabled says the race detector is on: its instrumentation allocates,
// so allocation counts are only checked without it.
const raceEnabled = false
