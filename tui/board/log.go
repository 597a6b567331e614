package board

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/lobby/textsafe"
)

// LogTail returns the newest events of log that fit in h lines of width w,
// oldest first. Each event is sanitised and word-wrapped, its continuation
// lines indented; only whole events are shown, except that a single event
// too long for the space shows its start. It returns nil when nothing fits
// or log is empty, so boards can say "nothing yet" in their own words.
func LogTail(log []engine.Event, w, h int) []string {
	if h <= 0 || w < 8 {
		return nil
	}
	var blocks [][]string
	used := 0
	for i := len(log) - 1; i >= 0 && used < h; i-- {
		text := textsafe.Clean(log[i].Text, 400)
		wrapped := strings.Split(ansi.Wordwrap(text, w-2, ""), "\n")
		for k, l := range wrapped {
			if k > 0 {
				l = "  " + l
			}
			wrapped[k] = ansi.Truncate(l, w, "…")
		}
		if used+len(wrapped) > h {
			if used == 0 {
				blocks = append(blocks, wrapped[:h]) // one huge event: its start
			}
			break
		}
		blocks = append(blocks, wrapped)
		used += len(wrapped)
	}
	var all []string
	for i := len(blocks) - 1; i >= 0; i-- {
		all = append(all, blocks[i]...)
	}
	return all
}
