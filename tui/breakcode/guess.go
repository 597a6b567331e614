package breakcode

import (
	"fmt"
	"slices"
	"strings"

	bc "github.com/codebreakers/codebreakers/engine/breakcode"
)

// ParseGuess reads a typed guess such as "1b 2w 5g 8b 9w" (spaces or commas
// between tiles, case ignored, a bare 5 means the green 5). It checks only
// what can be checked without knowing the answer: the count, that each tile
// exists, that no tile is named twice (the green 5 may appear twice), and
// that none of them sits in the guesser's own hand. Errors are sentences for
// the player.
func ParseGuess(text string, want int, own []bc.Tile) ([]bc.Tile, error) {
	fields := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' || r == ';' || r == '\t' })
	if len(fields) == 0 {
		return nil, fmt.Errorf("Type %d tiles, like %s.", want, example(want))
	}
	// "1b2w5g8b9w" typed without spaces still reads fine.
	if len(fields) == 1 && len(fields[0]) > 2 {
		fields = splitRun(fields[0])
	}
	tiles := make([]bc.Tile, 0, len(fields))
	for _, f := range fields {
		t, err := bc.ParseTile(clip(f))
		if err != nil {
			return nil, fmt.Errorf("%s.", sentence(err.Error()))
		}
		tiles = append(tiles, t)
	}
	if len(tiles) != want {
		return nil, fmt.Errorf("A guess names exactly %d tiles; you typed %d.", want, len(tiles))
	}
	seen := map[bc.Tile]int{}
	for _, t := range tiles {
		seen[t]++
		limit := 1
		if t.Color == bc.Green {
			limit = 2
		}
		if seen[t] > limit {
			return nil, fmt.Errorf("There is only one %s; it appears twice in your guess.", t)
		}
	}
	mine := map[bc.Tile]int{}
	for _, t := range own {
		mine[t]++
	}
	for t, n := range seen {
		limit := 1
		if t.Color == bc.Green {
			limit = 2
		}
		if n+mine[t] > limit {
			// With 3–4 players the guess names the centre, not a hand:
			// "theirs" would point at a player.
			return nil, fmt.Errorf("%s is in your own hand, so it cannot be in the set you guess.", t)
		}
	}
	sortTiles(tiles)
	return tiles, nil
}

// sortTiles puts tiles in screen order: by number, black before white.
func sortTiles(ts []bc.Tile) {
	slices.SortFunc(ts, func(a, b bc.Tile) int {
		if a.Number != b.Number {
			return a.Number - b.Number
		}
		return int(a.Color) - int(b.Color)
	})
}

// splitRun cuts "1b2w5g" into "1b", "2w", "5g" (a bare 5 stands alone).
func splitRun(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		j := i + 1
		if j < len(s) && (s[j] < '0' || s[j] > '9') {
			j++
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

func clip(s string) string {
	r := []rune(s)
	if len(r) > 8 {
		return string(r[:8]) + "…"
	}
	return s
}

// sentence capitalises the first letter of an engine message.
func sentence(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

func example(n int) string {
	if n == 4 {
		return "1b 2w 5g 8b"
	}
	return "1b 2w 5g 8b 9w"
}
