// Package seen reads a session's screen the way a player does, as plain
// text: the join code, the title and its turn number, the player's own
// Break the Code hand. The end-to-end tests and the load generator drive
// real sessions with it, so both read the screen one way.
package seen

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The patterns below are compiled once and only read.
var (
	codeRe = regexp.MustCompile(`code ([A-Z0-9]{3}-[A-Z0-9]{3})`)
	turnRe = regexp.MustCompile(`turn (\d+)`)
	handRe = regexp.MustCompile(`You \([^)]*\)\s+a (\S+)\s+b (\S+)\s+c (\S+)\s+d (\S+)\s+e (\S+)`)
	// A hand drawn as framed tiles: the borders on the "You (…)" line,
	// the tiles on the next.
	framedTopRe  = regexp.MustCompile(`You \([^)]*\)\s+╭a───╮`)
	framedTileRe = regexp.MustCompile(`│ (\d[bwg]) │`)
)

// Title is the first line of a screen: where the player is and whose turn it is.
func Title(screen string) string { return strings.SplitN(screen, "\n", 2)[0] }

// Turn is the turn number in the screen's title, if it shows one.
func Turn(screen string) (int, bool) {
	m := turnRe.FindStringSubmatch(Title(screen))
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// HasTurn reports whether the title shows a turn number: a game is on.
func HasTurn(screen string) bool { _, ok := Turn(screen); return ok }

// JoinCode is the table's join code shown on the screen, e.g. "KQ7-M4X".
func JoinCode(screen string) (string, bool) {
	m := codeRe.FindStringSubmatch(screen)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// HasJoinCode reports whether the screen shows a join code.
func HasJoinCode(screen string) bool { _, ok := JoinCode(screen); return ok }

// OwnHand reads the player's tiles off the Break the Code board, as its
// row shows them, in one line ("a 3b  b 3w  c 5g …") or as framed tiles
// ("│ 3b │ │ 3w │ …" under the borders); nil when the row is not there.
func OwnHand(screen string) []string {
	if m := handRe.FindStringSubmatch(screen); m != nil {
		return m[1:]
	}
	lines := strings.Split(screen, "\n")
	for i, l := range lines {
		if !framedTopRe.MatchString(l) || i+1 >= len(lines) {
			continue
		}
		var hand []string
		for _, m := range framedTileRe.FindAllStringSubmatch(lines[i+1], -1) {
			hand = append(hand, m[1])
		}
		if len(hand) == 5 {
			return hand
		}
	}
	return nil
}

// GuessFor picks five centre tiles missing from the player's own hand, in
// table order: a legal guess, almost surely wrong.
func GuessFor(hand []string) string {
	own := map[string]int{}
	for _, t := range hand {
		own[t]++
	}
	var all []string
	for n := 0; n <= 9; n++ {
		if n == 5 {
			all = append(all, "5g", "5g")
			continue
		}
		all = append(all, fmt.Sprintf("%db", n), fmt.Sprintf("%dw", n))
	}
	var pick []string
	for _, t := range all {
		if own[t] > 0 {
			own[t]--
			continue
		}
		if pick = append(pick, t); len(pick) == 5 {
			break
		}
	}
	return strings.Join(pick, " ")
}

// KeyBar is the key bar at the foot of a screen: every line under the last
// horizontal rule, joined with " · " as one line. A bar too long for the
// window wraps onto up to three lines, and the key a player looks for may
// be on any of them.
func KeyBar(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	from := len(lines) - 1
	for i := len(lines) - 1; i >= 0; i-- {
		if isRule(lines[i]) {
			from = i + 1
			break
		}
	}
	var keys []string
	for _, l := range lines[from:] {
		if l = strings.TrimSpace(l); l != "" {
			keys = append(keys, l)
		}
	}
	return strings.Join(keys, " · ")
}

// isRule reports whether line is a horizontal rule ("────…") and nothing else.
func isRule(line string) bool {
	line = strings.TrimSpace(line)
	return len(line) > 0 && strings.Trim(line, "─") == ""
}
