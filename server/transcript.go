package server

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/storage"
)

// revealer is a game view that can say in plain text what it holds of the
// game's hidden side: one row per seat or pile, a label and what it held.
// Game packages implement it on their View types, so the transcript shows
// the final full reveal of any game without the server knowing its rules.
type revealer interface {
	RevealText() [][2]string
}

// revealWidth caps a revealed row's text; labelWidth is the label column.
const (
	revealWidth = 200
	labelWidth  = 16
)

// revealLines lays out a finished game's omniscient view for the text
// transcript: every hidden thing, one line each. Views that cannot reveal
// themselves give no lines; the events still tell the story. Labels and
// values are cleaned here, as everything a terminal prints must be.
func revealLines(view any) []string {
	r, ok := view.(revealer)
	if !ok {
		return nil
	}
	rows := r.RevealText()
	lines := make([]string, 0, len(rows))
	for _, row := range rows {
		label := textsafe.Clean(row[0], labelWidth).String()
		pad := strings.Repeat(" ", max(0, labelWidth-ansi.StringWidth(label))) // by cells, not bytes
		lines = append(lines, "  "+label+pad+" "+textsafe.Clean(row[1], revealWidth).String())
	}
	return lines
}

// eventText is one event of the transcript. A private event is told as
// the omniscient replay reads it ("Ann drew …"); one that is phrased only
// for the seats that saw it is marked with their names.
func eventText(e engine.Event, seats []storage.SeatRecord) string {
	if e.Others != "" {
		return textsafe.Clean(e.For(engine.Omniscient()).Text, revealWidth).String()
	}
	text := textsafe.Clean(e.Text, revealWidth).String()
	if len(e.Seats) == 0 {
		return text
	}
	names := make([]string, len(e.Seats))
	for i, s := range e.Seats {
		names[i] = fmt.Sprintf("seat %d", int(s)+1)
		if int(s) >= 0 && int(s) < len(seats) && seats[s].Handle != "" {
			names[i] = textsafe.Clean(seats[s].Handle, labelWidth).String()
		}
	}
	return "(to " + strings.Join(names, ", ") + ") " + text
}
