package frame

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/charmbracelet/colorprofile"
)

// TestColoursReducedAsColorprofileDoes: the renderer's remembered
// reductions write every line byte for byte as colorprofile.Writer does —
// lines of text and SGR sequences of every kind the styles make (true
// colour, 256 and 16 colours, attributes, resets, several at once), wide
// and box-drawing characters, and lines with other escape sequences
// (hyperlinks, erases), which go through colorprofile whole — at each
// profile that reduces colours, with a line drawn a second time read from
// what is remembered, one Colours shared by the three profiles.
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
	// One Colours for all three profiles, as a server shares one among
	// its sessions: a sequence reduced for one profile must not be read
	// back for another.
	shared := &Colours{}
	for _, profile := range []colorprofile.Profile{colorprofile.ANSI256, colorprofile.ANSI, colorprofile.ASCII} {
		r := New(&bytes.Buffer{}, Options{Width: 80, Height: 24, Profile: profile, Colours: shared})
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
		if n := shared.Len(); n == 0 || n > maxColours {
			t.Errorf("%v: %d sequences remembered, want some and at most %d", profile, n, maxColours)
		}
	}
}

// TestColoursSharedBetweenRenderers: renderers given one Colours reduce a
// sequence once between them (the second session drawing the same board
// adds nothing), draw the same bytes, and may do so at the same time
// (run with -race).
func TestColoursSharedBetweenRenderers(t *testing.T) {
	board := "\x1b[38;2;220;90;90m◆ 5\x1b[m \x1b[2mseat 1\x1b[m\n\x1b[1;38;2;10;200;30mgo\x1b[m"
	shared := &Colours{}
	outs := make([]*bytes.Buffer, 8)
	var wg sync.WaitGroup
	for i := range outs {
		outs[i] = &bytes.Buffer{}
		wg.Go(func() {
			r := New(outs[i], Options{Width: 20, Height: 3, MinInterval: time.Nanosecond, Profile: colorprofile.ANSI256, Colours: shared})
			r.Render(view(board))
			r.Close(waitLimit)
		})
	}
	wg.Wait()
	if shared.Len() != 4 {
		t.Errorf("%d sequences remembered, want the board's 4 once", shared.Len())
	}
	for i, out := range outs[1:] {
		if out.String() != outs[0].String() {
			t.Errorf("renderer %d drew %q, renderer 0 %q", i+1, out, outs[0])
		}
	}
	if strings.Contains(outs[0].String(), "38;2;") {
		t.Errorf("%q has a true colour left in 256 colours", outs[0])
	}
	// A renderer of its own (no Colours given) leaves the shared one be.
	r := New(io.Discard, Options{Width: 20, Height: 3, MinInterval: time.Nanosecond, Profile: colorprofile.ANSI})
	r.Render(view(board))
	r.Close(waitLimit)
	if shared.Len() != 4 {
		t.Errorf("%d sequences remembered after an unshared renderer drew, want 4", shared.Len())
	}
}

// TestColoursKeepTheirOwnKeys: a sequence remembered is a string of its
// own, not a piece of the line it was found in: the table is the server's
// and lives as long as it, and must not keep whole frames alive.
func TestColoursKeepTheirOwnKeys(t *testing.T) {
	var c Colours
	line := strings.Repeat("x", 4096) + "\x1b[38;2;255;0;0m" + "red"
	seq := line[4096 : len(line)-3]
	c.reduced(colorprofile.ANSI256, seq)
	start := uintptr(unsafe.Pointer(unsafe.StringData(line)))
	for k := range *c.table.Load() {
		p := uintptr(unsafe.Pointer(unsafe.StringData(k.seq)))
		if p >= start && p < start+uintptr(len(line)) {
			t.Fatalf("the remembered sequence %q points into the line it came from", k.seq)
		}
	}
}
