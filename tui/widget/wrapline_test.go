package widget

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapLineIsTheBuildersWrap: wrapLine, which makes each line as its
// indent, a hard-cut word's rest and a run of the paragraph, breaks every
// paragraph exactly as the word-by-word builder it replaced did
// (builderWrapLine, kept here as the reference): random paragraphs of
// short and too-long words, runs of spaces, leading and trailing spaces,
// styled and wide text, at widths from 1 to 30, with and without indents.
func TestWrapLineIsTheBuildersWrap(t *testing.T) {
	words := []string{"a", "bot-Cy", "16,", "sum", "→", "李白", "é", "\x1b[1mbold\x1b[m", "\x1b[31mred", "text\x1b[m",
		"abcdefghijklmnopqrstuvwxyz", "李李李李李李李李李李李李", "\x1b[2mlong-styled-word-here\x1b[m", ""}
	indents := [][2]string{{"", ""}, {" ", " "}, {" step 1 ", "        "}, {"> ", ""}, {"", "    "}}
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 20000 {
		var sb strings.Builder
		for j := range rng.IntN(12) {
			if j > 0 || rng.IntN(4) == 0 {
				sb.WriteString(strings.Repeat(" ", 1+rng.IntN(3)*rng.IntN(2)))
			}
			sb.WriteString(words[rng.IntN(len(words))])
		}
		if rng.IntN(5) == 0 {
			sb.WriteString("  ")
		}
		para, w, in := sb.String(), 1+rng.IntN(30), indents[rng.IntN(len(indents))]
		p1, p2 := in[0], in[0]
		got := wrapLine(nil, para, w, &p1, in[1])
		want := builderWrapLine(nil, para, w, &p2, in[1])
		if !slices.Equal(got, want) || p1 != p2 {
			t.Fatalf("case %d: %q at %d with %q/%q:\n got %q (next %q)\nwant %q (next %q)", n, para, w, in[0], in[1], got, p1, want, p2)
		}
	}
}

// TestWrapLineLinesAreTheirOwn: a wrapped line is never a piece of the
// text it came from (a log remembers its lines; a piece would keep the
// whole event's text alive with it).
func TestWrapLineLinesAreTheirOwn(t *testing.T) {
	text := strings.Repeat("word ", 40) + "abcdefghijklmnopqrstuvwxyz"
	base := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	for _, l := range Wrap(text, 12) {
		if p := uintptr(unsafe.Pointer(unsafe.StringData(l))); p >= base && p < base+uintptr(len(text)) {
			t.Fatalf("line %q is a piece of the text", l)
		}
	}
}

// builderWrapLine is wrapLine as it was, writing each line word by word
// into a strings.Builder: the reference TestWrapLineIsTheBuildersWrap
// holds wrapLine to.
func builderWrapLine(out []string, para string, w int, prefix *string, rest string) []string {
	var line strings.Builder
	lineW := 0
	start := func() {
		line.Reset()
		line.WriteString(*prefix)
		lineW = Width(*prefix)
		*prefix = rest
	}
	start()
	empty := true
	gap := 0
	for word := range strings.SplitSeq(para, " ") {
		if word == "" {
			gap++
			continue
		}
		sep := max(1, gap+1)
		gap = 0
		ww := Width(word)
		room := w - lineW
		if !empty {
			room -= sep
		}
		if ww <= room {
			if !empty {
				for range sep {
					line.WriteByte(' ')
				}
				lineW += sep
			}
			line.WriteString(word)
			lineW += ww
			empty = false
			continue
		}
		if !empty {
			out = append(out, line.String())
			start()
			empty = true
		}
		for Width(word) > w-lineW && w-lineW > 0 {
			cut := ansi.Truncate(word, w-lineW, "")
			if cut == "" {
				break
			}
			line.WriteString(cut)
			out = append(out, line.String())
			word = ansi.TruncateLeft(word, Width(cut), "")
			start()
		}
		line.WriteString(word)
		lineW += Width(word)
		empty = word == ""
	}
	return append(out, line.String())
}
