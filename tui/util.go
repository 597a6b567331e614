package tui

import (
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/codebreakers/codebreakers/tui/widget"
)

func itoa(n int) string { return strconv.Itoa(n) }

// capLines keeps at most n of lines (each at most w cells), ending the
// last kept one with "…" when some were left out.
func capLines(lines []string, n, w int) []string {
	if len(lines) <= n {
		return lines
	}
	out := slices.Clone(lines[:n])
	last := strings.TrimRight(out[n-1], " ")
	if widget.Width(last) >= w {
		last = ansi.Truncate(last, w-1, "")
	}
	out[n-1] = last + "…"
	return out
}
