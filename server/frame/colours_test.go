package frame

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
)

// TestColoursReducedAsColorprofileDoes: the renderer's remembered
// reductions write every line byte for byte as colorprofile.Writer does —
// lines of text and SGR sequences of every kind the styles make (true
// colour, 256 and 16 colours, attributes, resets, several at once), wide
// and box-drawing characters, and lines with other escape sequences
// (hyperlinks, erases), which go through colorprofile whole — at each
// profile that reduces colours, with a line drawn a second time read from
// what is remembered.
func TestColoursReducedAsColorprofileDoes(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 1))
	sgr := func() string {
		var params []string
		for range 1 + rng.IntN(3) {
			switch rng.IntN(9) {
			case 0:
				params = append(params, fmt.Sprintf("38;2;%d;%d;%d", rng.IntN(256), rng.IntN(256), rng.IntN(256)))
			case 1:
				params = append(params, fmt.Sprintf("48;2;%d;%d;%d", rng.IntN(256), rng.IntN(256), rng.IntN(256)))
			case 2:
				params = append(params, fmt.Sprintf("38;5;%d", rng.IntN(256)))
			case 3:
				params = append(params, fmt.Sprintf("48;5;%d", rng.IntN(256)))
			case 4:
				params = append(params, fmt.Sprint(30+rng.IntN(8)), fmt.Sprint(90+rng.IntN(8)))
			case 5:
				params = append(params, fmt.Sprint(40+rng.IntN(8)), fmt.Sprint(100+rng.IntN(8)))
			case 6:
				params = append(params, []string{"1", "2", "3", "4", "7", "9", "22", "23", "39", "49"}[rng.IntN(10)])
			case 7:
				params = append(params, "0")
			default:
				params = append(params, "58:2::10:20:30")
			}
		}
		if rng.IntN(10) == 0 {
			return "\x1b[m"
		}
		return "\x1b[" + strings.Join(params, ";") + "m"
	}
	other := []string{"\x1b]8;;https://example.org\x07link\x1b]8;;\x07", "\x1b[K", "\x1b[?25l", "\x1b[>4;2m", "\x1b7"}
	texts := []string{"Break the Code", " · ", "╭a───╮", "│ 5g │", "日本", "▸ ", "[3003 possible]", "  ", "é", "\t"}
	for _, profile := range []colorprofile.Profile{colorprofile.ANSI256, colorprofile.ANSI, colorprofile.ASCII} {
		r := New(&bytes.Buffer{}, Options{Width: 80, Height: 24, Profile: profile})
		var lines []string
		for range 400 {
			var b strings.Builder
			for range rng.IntN(12) {
				switch rng.IntN(8) {
				case 0, 1, 2:
					b.WriteString(sgr())
				case 3:
					if rng.IntN(6) == 0 {
						b.WriteString(other[rng.IntN(len(other))])
					}
				default:
					b.WriteString(texts[rng.IntN(len(texts))])
				}
			}
			lines = append(lines, b.String())
		}
		for pass := range 2 {
			for _, line := range lines {
				var want bytes.Buffer
				w := colorprofile.Writer{Forward: &want, Profile: profile}
				if _, err := w.Write([]byte(line)); err != nil {
					t.Fatal(err)
				}
				r.buf.Reset()
				r.writeColours(line)
				if got := r.buf.String(); got != want.String() {
					t.Fatalf("%v, pass %d: %q\nbecame %q\nwant   %q", profile, pass, line, got, want.String())
				}
			}
		}
		if len(r.sgrs) == 0 || len(r.sgrs) > maxSGRs {
			t.Errorf("%v: %d sequences remembered, want some and at most %d", profile, len(r.sgrs), maxSGRs)
		}
	}
}
