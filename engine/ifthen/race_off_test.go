//go:build !race

package ifthen

const raceEnabled = false
