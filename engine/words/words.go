// Package words holds the few wording helpers every layer shares, so that
// counts read as a person would write them ("1 table", "3 tables") wherever
// they are said: engine narration, lobby notices, screens and exec output.
// It lives under engine because engines narrate too and import nothing
// above themselves.
package words

import (
	"strconv"
	"time"
)

// Plural returns one when n is 1 and many otherwise (0 takes the plural:
// "0 tables").
func Plural(n int, one, many string) string {
	if n == 1 || n == -1 {
		return one
	}
	return many
}

// Count says n with its noun: Count(1, "table", "tables") is "1 table",
// Count(3, "table", "tables") is "3 tables".
func Count(n int, one, many string) string {
	return strconv.Itoa(n) + " " + Plural(n, one, many)
}

// Duration says d as a notice would: "1 minute", "90 seconds", "a moment"
// under a second.
func Duration(d time.Duration) string {
	switch {
	case d >= time.Minute && d%time.Minute == 0:
		return Count(int(d/time.Minute), "minute", "minutes")
	case d >= time.Second:
		return Count(int(d/time.Second), "second", "seconds")
	default:
		return "a moment"
	}
}
