//go:build !race

package coding

// raceEnabled shrinks the random playthroughs under the race detector.
const raceEnabled = false
