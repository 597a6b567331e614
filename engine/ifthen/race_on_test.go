//go:build race

package ifthen

// raceEnabled shrinks the random playthroughs under the race detector,
// which slows these loops about tenfold.
const raceEnabled = true
