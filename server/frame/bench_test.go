package frame

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// boardLike is an 80×24 frame shaped like a game screen: styled runs,
// box-drawing rules and some wide glyphs.
func boardLike(turn int) string {
	lines := make([]string, 24)
	lines[0] = fmt.Sprintf("\x1b[1m BREAK THE CODE · table KQ7-M4X · turn %d\x1b[m", turn)
	lines[1] = strings.Repeat("─", 80)
	for i := 2; i < 22; i++ {
		lines[i] = fmt.Sprintf("  \x1b[38;2;220;90;90m◆ %d\x1b[m  \x1b[2mseat %d\x1b[m  · %s", i, i%4, strings.Repeat("○ ", 10+i%7))
	}
	lines[22] = strings.Repeat("─", 80)
	lines[23] = " a ask · g guess · c chat · ? help · esc leave"
	return strings.Join(lines, "\n")
}

// BenchmarkRenderUnchanged is an idle session's cost when a message
// arrives that changes nothing on screen.
func BenchmarkRenderUnchanged(b *testing.B) {
	r := New(io.Discard, Options{Width: 80, Height: 24, MinInterval: time.Nanosecond, Profile: colorprofile.TrueColor})
	v := view(boardLike(1))
	r.Render(v)
	b.ReportAllocs()
	for b.Loop() {
		r.Render(v)
	}
	r.Close(time.Second)
}

// BenchmarkRenderOneLineChanged is a keypress echo: one row differs.
func BenchmarkRenderOneLineChanged(b *testing.B) {
	renderInTurn(b, Options{Profile: colorprofile.TrueColor}, view(boardLike(1)), view(boardLike(2)))
}

// renderInTurn renders the views one after the other on an 80×24 screen
// (each a change from the one before), one an op.
func renderInTurn(b *testing.B, opts Options, views ...tea.View) {
	opts.Width, opts.Height, opts.MinInterval = 80, 24, time.Nanosecond
	r := New(io.Discard, opts)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		r.Render(views[i%len(views)])
	}
	r.Close(time.Second)
}

// BenchmarkRenderRepaint is a whole new screen (a resize, a new page),
// reduced to 256 colours.
func BenchmarkRenderRepaint(b *testing.B) {
	r := New(io.Discard, Options{Width: 80, Height: 24, MinInterval: time.Nanosecond, Profile: colorprofile.ANSI256})
	v := view(boardLike(1))
	b.ReportAllocs()
	for b.Loop() {
		r.Resize(80, 24+1)
		r.Resize(80, 24)
		r.Render(v)
	}
	r.Close(time.Second)
}

// BenchmarkRenderMove is a move at a table: the middle of the board, its
// first line and the window title change, most rows stay.
func BenchmarkRenderMove(b *testing.B) {
	second := boardLike(2)
	for i := 8; i < 16; i++ { // the second frame's rows 8–15 differ
		second = strings.Replace(second, fmt.Sprintf("◆ %d\x1b", i), fmt.Sprintf("◇ %d\x1b", i), 1)
	}
	views := [2]tea.View{view(boardLike(1)), view(second)}
	views[0].WindowTitle = "BREAK THE CODE · table KQ7-M4X · turn 1"
	views[1].WindowTitle = "BREAK THE CODE · table KQ7-M4X · turn 2"
	renderInTurn(b, Options{Profile: colorprofile.TrueColor}, views[:]...)
}

// BenchmarkRenderLinesMove is BenchmarkRenderMove with each frame handed
// over as lines (RenderLines), as a session hands its frames: a line the
// move left as it was is the very string the frame before had.
func BenchmarkRenderLinesMove(b *testing.B) {
	first := strings.Split(boardLike(1), "\n")
	second := slices.Clone(first)
	second[0] = strings.Replace(second[0], "turn 1", "turn 2", 1)
	for i := 8; i < 16; i++ { // the second frame's rows 8–15 differ
		second[i] = strings.Replace(second[i], fmt.Sprintf("◆ %d\x1b", i), fmt.Sprintf("◇ %d\x1b", i), 1)
	}
	frames := [2][]string{first, second}
	views := [2]tea.View{{WindowTitle: "BREAK THE CODE · table KQ7-M4X · turn 1"}, {WindowTitle: "BREAK THE CODE · table KQ7-M4X · turn 2"}}
	r := New(io.Discard, Options{Width: 80, Height: 24, MinInterval: time.Nanosecond, Profile: colorprofile.TrueColor})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		r.RenderLines(views[i%2], frames[i%2])
	}
	r.Close(time.Second)
}
