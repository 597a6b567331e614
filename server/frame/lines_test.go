package frame

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// syncBuffer keeps every byte written to it, from any goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p) //nolint:wrapcheck // a bytes.Buffer does not fail
}

// randomFrame is one step of a seeded run of frames: a view (title and
// cursor) and its content as lines, or a resize before it.
type randomFrame struct {
	v             tea.View
	lines         []string
	resize        bool
	width, height int
}

// randomFrames is a seeded run of n frames for a terminal that starts at
// 24×8: lines of styled and wide text changed a cell at a time, now and
// then fewer or more lines than before or than the screen's height, an
// empty frame, a frame repeated as it was, a new title, a cursor shown,
// moved or hidden, and a resize. Most frames change only some lines.
func randomFrames(seed uint64, n int) []randomFrame {
	gen := lineGen{rng: rand.New(rand.NewPCG(seed, seed+1))}
	rng := gen.rng
	titles := []string{"", "Codebreakers", "BREAK THE CODE · turn 3", "bad\x1b]0;title\a", "é 世界"}
	w, h := 24, 8
	var lines []genLine
	var out []randomFrame
	for step := range n {
		var f randomFrame
		if step%40 == 39 {
			w, h = 12+rng.IntN(24), 2+rng.IntN(10)
			f.resize, f.width, f.height = true, w, h
		}
		switch {
		case step > 0 && rng.IntN(8) == 0: // the frame before, again
			f.v, f.lines = out[len(out)-1].v, out[len(out)-1].lines
			out = append(out, f)
			continue
		case rng.IntN(30) == 0:
			lines = lines[:0]
		default:
			n := len(lines)
			if n == 0 || rng.IntN(4) == 0 {
				n = 1 + rng.IntN(h+4)
			}
			lines = gen.next(lines, n, w)
		}
		if len(lines) > 0 || rng.IntN(2) == 0 {
			f.lines = make([]string, max(1, len(lines))) // an empty frame as one empty line…
			for i, l := range lines {
				f.lines[i] = l.String()
			}
		} // …or as no lines at all
		f.v = tea.NewView(strings.Join(f.lines, "\n"))
		if step > 0 {
			f.v.WindowTitle, f.v.Cursor = out[len(out)-1].v.WindowTitle, out[len(out)-1].v.Cursor
		}
		if rng.IntN(4) == 0 {
			f.v.WindowTitle = titles[rng.IntN(len(titles))]
		}
		switch rng.IntN(8) {
		case 0:
			f.v.Cursor = nil
		case 1, 2:
			f.v.Cursor = tea.NewCursor(rng.IntN(w), rng.IntN(h))
		}
		out = append(out, f)
	}
	return out
}

// drawnBytes draws frames on a renderer at profile, each with draw, and
// returns every byte the renderer wrote, closing included.
func drawnBytes(t *testing.T, profile colorprofile.Profile, frames []randomFrame, draw func(*Renderer, randomFrame)) []byte {
	t.Helper()
	var out syncBuffer
	r := New(&out, Options{Width: 24, Height: 8, MinInterval: time.Nanosecond, Profile: profile})
	for _, f := range frames {
		if f.resize {
			r.Resize(f.width, f.height)
		}
		draw(r, f)
	}
	if !r.Close(waitLimit) {
		t.Fatal("close did not deliver")
	}
	out.mu.Lock()
	defer out.mu.Unlock()
	return bytes.Clone(out.buf.Bytes())
}

// oldRendererDigests are the SHA-256 digests of what the renderer wrote
// for randomFrames(11, 600) at each profile, by Render of the joined
// content, before it took lines (main at dbb508f): the bytes on the wire
// for the same frames have not changed since.
var oldRendererDigests = map[colorprofile.Profile]string{
	colorprofile.TrueColor: "591883eeeb52ab39559cd78eb2fc3f9dfb1179115384fa06cb4e3e5d9e24a0af",
	colorprofile.ANSI256:   "b979e72d0872700b7d957db01eeaab81ea84619d0681a3da57a552461be4df99",
	colorprofile.ANSI:      "1a5df8a987828285923b0561df0a0ede0f0a6bc5d0fb2d54d13df64dadcda25a",
	colorprofile.ASCII:     "7ecd2924eaf983ef908504d26228504b8914828cb2bf23b6b32e57059e28b821",
	colorprofile.NoTTY:     "9ffff150c933054223b958894a373dcd9137eaa5b213d500f4aefc73477c0c13",
}

// TestLinesWriteWhatTheJoinedContentWrote draws the same seeded run of
// random frames by Render of the joined content, by RenderLines of the
// lines and by both in turn, at every colour profile, and checks that all
// three write the same bytes, and the same bytes as the renderer wrote
// before it took lines.
func TestLinesWriteWhatTheJoinedContentWrote(t *testing.T) {
	frames := randomFrames(11, 600)
	for _, profile := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI, colorprofile.ASCII, colorprofile.NoTTY} {
		t.Run(profile.String(), func(t *testing.T) {
			joined := drawnBytes(t, profile, frames, func(r *Renderer, f randomFrame) { r.Render(f.v) })
			lines := drawnBytes(t, profile, frames, func(r *Renderer, f randomFrame) {
				v := f.v
				v.Content = "not read"
				r.RenderLines(v, f.lines)
			})
			step := 0
			mixed := drawnBytes(t, profile, frames, func(r *Renderer, f randomFrame) {
				if step++; step%3 == 0 {
					r.Render(f.v)
				} else {
					r.RenderLines(f.v, f.lines)
				}
			})
			for _, c := range []struct {
				name string
				got  []byte
			}{{"RenderLines", lines}, {"RenderLines and Render in turn", mixed}} {
				if !bytes.Equal(c.got, joined) {
					i := 0
					for i < min(len(c.got), len(joined)) && c.got[i] == joined[i] {
						i++
					}
					t.Fatalf("%s wrote %d bytes, Render %d; they part at byte %d:\ngot    %q\njoined %q", c.name,
						len(c.got), len(joined), i, c.got[i:min(len(c.got), i+80)], joined[i:min(len(joined), i+80)])
				}
			}
			sum := sha256.Sum256(joined)
			if got, want := hex.EncodeToString(sum[:]), oldRendererDigests[profile]; got != want {
				t.Errorf("Render wrote %d bytes with digest %s, the renderer before lines wrote %s", len(joined), got, want)
			}
		})
	}
}

// TestHandedLinesAreKeptNotCopied: the renderer keeps the lines it is
// handed as they are (the caller never changes them) — a view held for the
// frame interval, then the lines on screen — and keeps no copy of them, so
// a session and its renderer hold one slice of its frame's lines; a
// content taken as text gets lines of the renderer's own, which leave the
// caller's as they were.
func TestHandedLinesAreKeptNotCopied(t *testing.T) {
	w := make(writes, 4)
	r := New(w, Options{Width: 20, Height: 5, MinInterval: time.Hour})
	first := []string{"one", "two"}
	r.RenderLines(tea.View{}, first)
	w.next(t)
	held := []string{"one", "held"}
	r.RenderLines(tea.View{}, held) // held for an hour
	r.mu.Lock()
	kept := unsafe.SliceData(r.nextLines) == unsafe.SliceData(held)
	r.mu.Unlock()
	if !kept {
		t.Error("the held view's lines are a copy")
	}
	r.Close(waitLimit)
	if got := w.next(t); !strings.Contains(got, "held") {
		t.Errorf("closing drew %q, want the held lines", got)
	}
	if r.nextLines != nil || unsafe.SliceData(r.shown) != unsafe.SliceData(held) {
		t.Errorf("after drawing: %q still held, %q shown (a copy?)", r.nextLines, r.shown)
	}

	r = New(io.Discard, Options{Width: 20, Height: 5, MinInterval: time.Nanosecond})
	lines := []string{"a", "b", "c"}
	r.RenderLines(tea.View{}, lines)
	r.Render(tea.NewView("a\nB"))
	r.Render(tea.NewView("x\ny\nz\nw"))
	if !slices.Equal(lines, []string{"a", "b", "c"}) || !slices.Equal(r.shown, []string{"x", "y", "z", "w"}) {
		t.Errorf("after drawing text over handed lines: handed %q, shown %q", lines, r.shown)
	}
	r.Close(waitLimit)
}

// TestEmptyFrameAgainWritesNothing: an empty frame is one empty line on
// screen whichever way it comes (no lines, one empty line, or the content
// ""), so the same empty frame again, even with a cursor to place, is
// recognised as shown and writes nothing. The random frames above cannot
// tell a redundant redraw from none when it writes no byte.
func TestEmptyFrameAgainWritesNothing(t *testing.T) {
	empties := []struct {
		name   string
		render func(r *Renderer, v tea.View)
	}{
		{"no lines", func(r *Renderer, v tea.View) { r.RenderLines(v, nil) }},
		{"one empty line", func(r *Renderer, v tea.View) { r.RenderLines(v, []string{""}) }},
		{"empty content", func(r *Renderer, v tea.View) { v.Content = ""; r.Render(v) }},
	}
	for _, first := range empties {
		for _, again := range empties {
			t.Run(first.name+" then "+again.name, func(t *testing.T) {
				w := make(writes, 16)
				r := New(w, Options{Width: 20, Height: 5, MinInterval: time.Nanosecond, Profile: colorprofile.TrueColor})
				v := view("")
				v.Cursor = tea.NewCursor(3, 0)
				first.render(r, v)
				w.next(t)
				again.render(r, v)
				time.Sleep(10 * time.Millisecond) // give a wrong write a chance to show
				w.none(t)
				if !linesShown(nil, r.shown) || !linesShown([]string{""}, r.shown) {
					t.Errorf("after an empty frame the renderer shows %q, which does not read as empty", r.shown)
				}
			})
		}
	}
}
