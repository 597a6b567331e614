package widget

import (
	"slices"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/textsafe"
)

// LogTail returns the newest events of log that fit in h lines of width w,
// oldest first. Each event is sanitised and word-wrapped, its continuation
// lines indented; only whole events are shown, except that a single event
// too long for the space shows its start. It returns nil when nothing fits
// or log is empty, so boards can say "nothing yet" in their own words.
func LogTail(log []engine.Event, w, h int) []string {
	return logTail(log, w, h, wrapEvent)
}

// LogCache draws the same tail as LogTail but remembers the events of the
// tail it drew last, with their wrapped lines at the width last asked, so a
// board that redraws its log on every move only wraps the new events. It
// belongs to one board (it is not safe for concurrent use), forgets
// everything when the width changes, and holds no event that has left the
// tail: an event seen again after that (a taller tail) is wrapped again.
// (It also kept every event it had wrapped, up to 256, by text, for the
// rare frame that needed one again: a few KB a session for a few µs.)
type LogCache struct {
	w int
	// last is the events of the last tail drawn with their lines, newest
	// first, and next the slice the coming tail's are gathered in: a
	// tail is mostly the last one's events, which are found by walking
	// the two together (comparing texts the log shares costs little)
	// rather than by hashing every text on every frame.
	last, next []logEntry
}

// logEntry is an event's text and its lines.
type logEntry struct {
	text  string
	lines []string
}

// Tail is LogTail(log, w, h). The lines returned are shared with the
// cache: callers must not change them.
func (c *LogCache) Tail(log []engine.Event, w, h int) []string {
	if out := c.AppendTail(nil, log, w, h); len(out) > 0 {
		return out
	}
	return nil
}

// AppendTail appends Tail(log, w, h) to dst, so a board that draws its
// log beside something else needs no slice of its own for it. The
// strings appended are shared with the cache: callers must not change
// them (the slice is dst's).
func (c *LogCache) AppendTail(dst []string, log []engine.Event, w, h int) []string {
	if c.w != w {
		clear(c.last)
		c.w, c.last = w, c.last[:0]
	}
	next, p := c.next[:0], 0
	dst = appendLogTail(dst, log, w, h, func(text string, w int) []string {
		// Events come newest first, as last holds them: once one is
		// found there, the next older one is the next entry.
		var l []string
		if p < len(c.last) && c.last[p].text == text {
			l = c.last[p].lines
			p++
		} else if i := c.find(text, p); i >= 0 {
			l = c.last[i].lines
			p = i + 1
		} else {
			l = wrapEvent(text, w)
		}
		next = append(next, logEntry{text, l})
		return l
	})
	clear(c.last) // the texts and lines of events gone from the tail are let go
	c.last, c.next = next, c.last[:0]
	return dst
}

// find is the index of text's entry in c.last from the p-th on, or -1.
func (c *LogCache) find(text string, p int) int {
	for i := p; i < len(c.last); i++ {
		if c.last[i].text == text {
			return i
		}
	}
	return -1
}

// wrapEvent sanitises and word-wraps one event into lines of at most w
// cells, continuation lines indented. It breaks at spaces only, so a name
// like "bot-Cy" is never split across lines.
func wrapEvent(text string, w int) []string {
	// An engine's event is clean already: only cut, not copied clean. The
	// lines are strings of their own (wrapLine), so none keeps text alive.
	if textsafe.IsClean(text) {
		return WrapIndent(textsafe.Cut(text, 400), w, "", "  ")
	}
	return WrapIndent(textsafe.Clean(text, 400).String(), w, "", "  ")
}

func logTail(log []engine.Event, w, h int, wrap func(text string, w int) []string) []string {
	if out := appendLogTail(nil, log, w, h, wrap); len(out) > 0 {
		return out
	}
	return nil
}

// appendLogTail appends the tail logTail returns to dst.
func appendLogTail(dst []string, log []engine.Event, w, h int, wrap func(text string, w int) []string) []string {
	if h <= 0 || w < 8 {
		return dst
	}
	// The newest events that fit, newest first (on the stack for the
	// tails of any common height).
	var room [32][]string
	blocks := room[:0]
	used := 0
	for i := len(log) - 1; i >= 0 && used < h; i-- {
		wrapped := wrap(log[i].Text, w)
		if used+len(wrapped) > h {
			if used == 0 {
				// One huge event: its start, marked as cut. (A copy, so
				// that nothing written to the result reaches a cache.)
				return append(dst, cutTail(wrapped, h, w)...)
			}
			break
		}
		blocks = append(blocks, wrapped)
		used += len(wrapped)
	}
	dst = slices.Grow(dst, used)
	for i := len(blocks) - 1; i >= 0; i-- {
		dst = append(dst, blocks[i]...)
	}
	return dst
}

// CutTail is the first n of lines (each at most w cells), the last ending
// with "…" to say the rest was left out.
func CutTail(lines []string, n, w int) []string { return cutTail(lines, n, w) }

func cutTail(lines []string, n, w int) []string {
	if len(lines) <= n {
		return lines
	}
	out := append([]string(nil), lines[:n]...)
	last := strings.TrimRight(out[n-1], " ")
	if Width(last) >= w {
		last = Truncate(last, w-1, "")
	}
	out[n-1] = last + "…"
	return out
}
