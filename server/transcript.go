package server

import (
	"fmt"
	"strings"

	"github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/lobby/textsafe"
	"github.com/codebreakers/codebreakers/storage"
)

// handLines shows every hand of a finished game's omniscient view, one line
// per seat, for the text transcript. Games without a text form here get no
// hand lines; their events still tell the story.
func handLines(view any, seats []storage.SeatRecord) []string {
	switch v := view.(type) {
	case breakcode.View:
		return breakcodeHands(v, seats)
	default:
		return nil
	}
}

func breakcodeHands(v breakcode.View, seats []storage.SeatRecord) []string {
	lines := make([]string, 0, len(v.Seats)+2)
	for i, sv := range v.Seats {
		name := sv.Name
		if i < len(seats) && seats[i].Handle != "" {
			name = seats[i].Handle
		}
		lines = append(lines, fmt.Sprintf("  %-16s %s", textsafe.Clean(name, 16), tiles(sv.Hand)))
	}
	if len(v.Centre) > 0 {
		lines = append(lines, fmt.Sprintf("  %-16s %s", "Centre", tiles(v.Centre)))
	}
	if len(v.Unused) > 0 {
		lines = append(lines, fmt.Sprintf("  %-16s %s", "Out of play", tiles(v.Unused)))
	}
	return lines
}

func tiles(ts []breakcode.Tile) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return strings.Join(parts, " ")
}
