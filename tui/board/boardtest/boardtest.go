// Package boardtest holds what the game boards' tests share: styles like a
// session's, and golden frames. A golden is one line per frame or trace of
// frames (a name and short hashes) plus a few frames kept in full, so that
// a difference can be read and not just detected.
package boardtest

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image/color"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/tui/board"
)

// ColourStyles are the session's text styles for a dark background (tui's
// newStyles(true); TestBoardTestStylesAreTheSessions keeps the two the
// same): colours and bold, so that frames carry escapes as they do on a
// real terminal. ColourPieces are its pieces.
func ColourStyles() board.Styles {
	c := lipgloss.Color
	accent, grey := c("#7D9CFF"), c("#949494")
	red, green, yellow := c("#FF6B6B"), c("#5FD75F"), c("#D7C35F")
	return board.Styles{
		Heading:  lipgloss.NewStyle().Bold(true).Foreground(accent),
		Strong:   lipgloss.NewStyle().Bold(true),
		Dim:      lipgloss.NewStyle().Foreground(grey),
		Selected: lipgloss.NewStyle().Bold(true).Foreground(accent),
		Error:    lipgloss.NewStyle().Bold(true).Foreground(red),
		Good:     lipgloss.NewStyle().Bold(true).Foreground(green),
		Notice:   lipgloss.NewStyle().Foreground(yellow),
	}
}

// Pieces are the session's pieces, for the boards' own Styles in tests:
// black, white and green tiles or cards, a hidden tile, and If Then's card
// ends by [number colour][background colour].
type Pieces struct {
	Black, White, Green, Hidden lipgloss.Style
	Ends                        [3][3]lipgloss.Style
}

// ColourPieces are the session's pieces (the same on every background).
func ColourPieces() Pieces {
	c := lipgloss.Color
	ink := [3]color.Color{c("#6E5600"), c("#0B3DB0"), c("#A00000")}
	fill := [3]color.Color{c("#FFF3A8"), c("#C6DCFF"), c("#FFCACA")}
	p := Pieces{
		Black:  lipgloss.NewStyle().Bold(true).Foreground(c("#FFFFFF")).Background(c("#4E4E4E")),
		White:  lipgloss.NewStyle().Foreground(c("#000000")).Background(c("#C6C6C6")),
		Green:  lipgloss.NewStyle().Bold(true).Foreground(c("#FFFFFF")).Background(c("#17702C")),
		Hidden: lipgloss.NewStyle().Foreground(c("#949494")),
	}
	for n := range p.Ends {
		for bg := range p.Ends[n] {
			p.Ends[n][bg] = lipgloss.NewStyle().Foreground(ink[n]).Background(fill[bg])
		}
	}
	return p
}

// Golden names a pair of golden files.
type Golden struct {
	Lines   string // one line per frame or trace: a name and hashes
	Samples string // frames kept in full, as "=== name length\nframe\n" records
	HashLen int    // bytes of a frame's SHA-256 kept in a line
	// Traces puts a move's frame and the frames after each key pressed
	// then (named "…/moveN-i-key") on one line.
	Traces bool
}

// AddAll adds frames[i], named names[i], to the lines and, when sample
// says so, to the samples.
func (g Golden) AddAll(lines []string, samples map[string]string, names, frames []string, sample func(name string) bool) []string {
	for i, n := range names {
		h := g.Hash(frames[i])
		if k := strings.LastIndexByte(n, '/'); g.Traces && len(lines) > 0 && strings.Contains(n[k+1:], "-") {
			lines[len(lines)-1] += " " + h
		} else {
			lines = append(lines, n+" "+h)
		}
		if sample(n) {
			samples[n] = frames[i]
		}
	}
	return lines
}

// Hash is a frame's short hash, as it appears in the lines.
func (g Golden) Hash(frame string) string {
	sum := sha256.Sum256([]byte(frame))
	return hex.EncodeToString(sum[:g.HashLen])
}

// Check compares the lines and samples drawn now with the golden files, or
// rewrites the files when update is set (the test's -update-frames flag).
func (g Golden) Check(t *testing.T, got []string, samples map[string]string, update bool) {
	t.Helper()
	if update {
		g.write(t, got, samples)
		return
	}
	want := readLines(t, g.Lines)
	if len(want) != len(got) {
		t.Errorf("%d frames, golden has %d", len(got), len(want))
	}
	bad := 0
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			bad++
			if bad <= 5 {
				t.Errorf("frame %d differs: got %q, want %q", i, got[i], want[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d frames differ from %s", bad, len(got), g.Lines)
	}
	// The readable samples must match too, and show what changed.
	wantSamples := readSamples(t, g.Samples)
	if len(wantSamples) == 0 {
		t.Error("no sample frames")
	}
	for name, want := range wantSamples {
		if frame, ok := samples[name]; !ok {
			t.Errorf("sample %s not drawn", name)
		} else if frame != want {
			t.Errorf("sample %s differs:\ngot:\n%s\nwant:\n%s", name, ansi.Strip(frame), ansi.Strip(want))
		}
	}
}

func (g Golden) write(t *testing.T, lines []string, samples map[string]string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(g.Lines), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(g.Lines, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(samples)) {
		fmt.Fprintf(&b, "=== %s %d\n%s\n", k, len(samples[k]), samples[k])
	}
	if err := os.WriteFile(g.Samples, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("golden frames: %v (make them with -update-frames)", err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// readSamples parses "=== name length\nframe\n" records.
func readSamples(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("sample frames: %v", err)
	}
	out := map[string]string{}
	s := string(data)
	for len(s) > 0 {
		head, rest, ok := strings.Cut(s, "\n")
		var name string
		var n int
		if !ok || !strings.HasPrefix(head, "=== ") {
			t.Fatalf("bad sample record %q", head)
		}
		if _, err := fmt.Sscanf(head, "=== %s %d", &name, &n); err != nil || n > len(rest) {
			t.Fatalf("bad sample header %q: %v", head, err)
		}
		out[name] = rest[:n]
		s = strings.TrimPrefix(rest[n:], "\n")
	}
	return out
}

// PureView is b.View(), checked to change nothing: drawn twice, the board
// gives the same frame, and state (the board's fields without its caches
// of drawn pieces, as the board's test prints them) is the same before and
// after. Drawing only shows what SetView and Update decided.
func PureView(t testing.TB, name string, b board.Board, state func() string) string {
	t.Helper()
	before := state()
	frame := b.View()
	if after := state(); after != before {
		i := 0
		for i < min(len(before), len(after)) && before[i] == after[i] {
			i++
		}
		from := max(0, i-80)
		t.Fatalf("%s: View changed the board at …%s…, now …%s…", name,
			before[from:min(len(before), i+80)], after[from:min(len(after), i+80)])
	}
	if again := b.View(); again != frame {
		t.Fatalf("%s: View drew another frame the second time:\n%s\nthen\n%s", name, ansi.Strip(frame), ansi.Strip(again))
	}
	return frame
}
