package frame

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// waitLimit bounds every wait in these tests; it is not a speed check.
const waitLimit = 10 * time.Second

// writes hands over every Write as one chunk.
type writes chan []byte

func (w writes) Write(p []byte) (int, error) {
	w <- bytes.Clone(p)
	return len(p), nil
}

func (w writes) next(t *testing.T) string {
	t.Helper()
	select {
	case p := <-w:
		return string(p)
	case <-time.After(waitLimit):
		t.Fatal("no output")
		return ""
	}
}

func (w writes) none(t *testing.T) {
	t.Helper()
	select {
	case p := <-w:
		t.Fatalf("unexpected output %q", p)
	default:
	}
}

func view(s string) tea.View { return tea.NewView(s) }

func TestDrawsOnlyWhatChanged(t *testing.T) {
	w := make(writes, 16)
	r := New(w, Options{Width: 20, Height: 5, MinInterval: time.Nanosecond, Profile: colorprofile.TrueColor})

	r.Render(view("one\ntwo\nthree"))
	first := w.next(t)
	for _, want := range []string{ansi.SetModeAltScreenSaveCursor, ansi.HideCursor, clearScreen, "one", "two", "three"} {
		if !strings.Contains(first, want) {
			t.Errorf("first frame %q lacks %q", first, want)
		}
	}

	r.Render(view("one\ntwo\nthree"))
	r.Render(view("one\ntwo\nthree"))
	time.Sleep(10 * time.Millisecond) // give a wrong write a chance to show
	w.none(t)

	r.Render(view("one\nTWO\nthree"))
	second := w.next(t)
	if want := ansi.CursorPosition(1, 2) + "TWO"; !strings.HasPrefix(second, want) {
		t.Errorf("second frame %q should rewrite only row 2", second)
	}
	if strings.Contains(second, "one") || strings.Contains(second, "three") || strings.Contains(second, ansi.EraseEntireScreen) {
		t.Errorf("second frame %q rewrote unchanged rows", second)
	}

	r.Render(view("one"))
	third := w.next(t)
	for _, want := range []string{ansi.CursorPosition(1, 2) + ansi.EraseEntireLine, ansi.CursorPosition(1, 3) + ansi.EraseEntireLine} {
		if !strings.Contains(third, want) {
			t.Errorf("third frame %q does not clear the rows that went away", third)
		}
	}

	if !r.Close(waitLimit) {
		t.Fatal("close did not deliver")
	}
	if last := w.next(t); !strings.HasSuffix(last, ansi.ResetModeAltScreenSaveCursor) || !strings.Contains(last, ansi.ShowCursor) {
		t.Errorf("closing wrote %q, want the cursor shown and the main screen back", last)
	}
}

// emulate feeds everything written into a virtual terminal.
type emulate struct{ emu *vt.SafeEmulator }

func (e *emulate) Write(p []byte) (int, error) { return e.emu.Write(p) } //nolint:wrapcheck

func newEmulator(w, h int) *emulate {
	emu := vt.NewSafeEmulator(w, h)
	go func() { // drain the emulator's replies so it never blocks
		buf := make([]byte, 256)
		for {
			if _, err := emu.Read(buf); err != nil {
				return
			}
		}
	}()
	return &emulate{emu: emu}
}

func (e *emulate) rows() []string {
	rows := strings.Split(ansi.Strip(e.emu.Render()), "\n")
	for i, r := range rows {
		rows[i] = strings.TrimRight(r, " ")
	}
	return rows
}

// want is what a terminal of w×h should show for content: lines cut to
// the width, rows beyond the height dropped, the rest blank.
func want(content string, w, h int) []string {
	rows := make([]string, h)
	for i, l := range strings.Split(content, "\n") {
		if i < h {
			rows[i] = strings.TrimRight(ansi.Strip(ansi.Truncate(l, w, "")), " ")
		}
	}
	return rows
}

// cell is one terminal cell of a generated line: a glyph, with the style
// sequences that open before it or close after it.
type cell struct{ pre, glyph, post string }

// genLine is a generated line, cell by cell, so that a change can hit any
// single cell: the first, the last, the last wide glyph, the screen's edge.
type genLine []cell

func (l genLine) String() string {
	var b strings.Builder
	for _, c := range l {
		b.WriteString(c.pre + c.glyph + c.post)
	}
	return b.String()
}

// lineGen makes random lines and random one-cell changes to them.
type lineGen struct{ rng *rand.Rand }

// genWords are the words lines are made of; a style spans its whole word.
var genWords = []struct{ style, text string }{
	{"", "ab"}, {"", "é"}, {"", "世界"}, {"\x1b[1m", "bold"}, {"\x1b[38;2;200;10;10m", "red"},
	{"", "·◆○"}, {"", strings.Repeat("x", 30)}, {"", "score 1"}, {"\x1b[7m", "界"},
}

// genGlyphs are what a changed cell becomes: narrow and wide.
var genGlyphs = []string{"1", "2", "x", "é", "◆", "·", "世", "界", "間", " "}

// line returns up to four words separated by single spaces; nothing pads
// the end, so a line's last cell is part of a word.
func (g lineGen) line() genLine {
	var l genLine
	for i := range g.rng.IntN(5) {
		if i > 0 {
			l = append(l, cell{glyph: " "})
		}
		w := genWords[g.rng.IntN(len(genWords))]
		start := len(l)
		for _, r := range w.text {
			l = append(l, cell{glyph: string(r)})
		}
		if w.style != "" {
			l[start].pre = w.style
			l[len(l)-1].post = "\x1b[m"
		}
	}
	return l
}

// change replaces one glyph of l with a different one, keeping its
// style. The cell is often the last, the last wide one or the one at the
// screen's right edge (column width), where a lazy comparison would look
// away; otherwise any cell.
func (g lineGen) change(l genLine, width int) genLine {
	if len(l) == 0 {
		return l
	}
	i := g.rng.IntN(len(l))
	switch g.rng.IntN(6) {
	case 0, 1:
		i = len(l) - 1
	case 2:
		for j, c := range l {
			if ansi.StringWidth(c.glyph) == 2 {
				i = j
			}
		}
	case 3:
		col := 0
		for j, c := range l {
			i, col = j, col+ansi.StringWidth(c.glyph)
			if col >= width {
				break
			}
		}
	}
	l = slices.Clone(l)
	for old := l[i].glyph; l[i].glyph == old; {
		l[i].glyph = genGlyphs[g.rng.IntN(len(genGlyphs))]
	}
	return l
}

// next is lines made n long (new lines at the end) with one to three of
// them changed (a cell, or now and then the whole line) for a screen of
// the given width.
func (g lineGen) next(lines []genLine, n, width int) []genLine {
	for len(lines) < n {
		lines = append(lines, g.line())
	}
	lines = lines[:n]
	for range 1 + g.rng.IntN(3) {
		i := g.rng.IntN(n)
		if g.rng.IntN(4) == 0 {
			lines[i] = g.line()
		} else {
			lines[i] = g.change(lines[i], width)
		}
	}
	return lines
}

// TestScreenMatchesTheViewAfterRandomChanges draws a long run of random
// frames, resizes included, into a virtual terminal and checks that every
// row shows exactly what the latest view says. Most changes touch a single
// cell, so a comparison that skips any part of a line shows up here.
func TestScreenMatchesTheViewAfterRandomChanges(t *testing.T) {
	gen := lineGen{rng: rand.New(rand.NewPCG(7, 8))}
	rng := gen.rng
	w, h := 24, 8
	term := newEmulator(w, h)
	r := New(term, Options{Width: w, Height: h, MinInterval: time.Nanosecond, Profile: colorprofile.TrueColor})
	lines := make([]genLine, 6)
	for step := range 400 {
		if step%50 == 49 {
			w, h = 16+rng.IntN(20), 4+rng.IntN(8)
			term.emu.Resize(w, h)
			r.Resize(w, h)
		}
		lines = gen.next(lines, 1+rng.IntN(len(lines)+6), w)
		texts := make([]string, len(lines))
		for i, l := range lines {
			texts[i] = l.String()
		}
		content := strings.Join(texts, "\n")
		r.Render(view(content))
		settle(t, r)
		if got, exp := term.rows(), want(content, w, h); !equalRows(got, exp) {
			t.Fatalf("step %d at %d×%d:\ngot  %q\nwant %q\nlines %q", step, w, h, got, exp, texts)
		}
	}
}

// TestChangeInTheLastCellIsDrawn checks the direct cases of a line whose
// only change is its last cell: a score that goes up, a wide glyph, a
// styled cell, a line that fills the row and one cut at the row's end.
func TestChangeInTheLastCellIsDrawn(t *testing.T) {
	for _, tc := range []struct {
		name     string
		width    int
		from, to string
	}{
		{"score", 20, "score 1", "score 2"},
		{"score filling the row", 7, "score 1", "score 2"},
		{"wide glyph", 20, "ab 世界", "ab 世間"},
		{"wide glyph filling the row", 7, "ab 世界", "ab 世間"},
		{"styled", 20, "\x1b[1mscore 1\x1b[m", "\x1b[1mscore 2\x1b[m"},
		{"cut at the row's end", 7, "score 1 of 9", "score 2 of 9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			term := newEmulator(tc.width, 3)
			r := New(term, Options{Width: tc.width, Height: 3, MinInterval: time.Nanosecond, Profile: colorprofile.TrueColor})
			for _, line := range []string{tc.from, tc.to} {
				content := "top\n" + line + "\nend"
				r.Render(view(content))
				settle(t, r)
				if got, exp := term.rows(), want(content, tc.width, 3); !equalRows(got, exp) {
					t.Fatalf("after drawing %q:\ngot  %q\nwant %q", line, got, exp)
				}
			}
			r.Close(waitLimit)
		})
	}
}

// TestResizeRepaints checks that after a resize the whole screen is drawn
// again at the new width.
func TestResizeRepaints(t *testing.T) {
	w := make(writes, 16)
	r := New(w, Options{Width: 40, Height: 5, MinInterval: time.Nanosecond})
	r.Render(view("abcdefghijklmnopqrstuvwxyz\nsecond"))
	w.next(t)
	r.Resize(10, 5)
	r.Render(view("abcdefghijklmnopqrstuvwxyz\nsecond"))
	got := w.next(t)
	if !strings.Contains(got, ansi.EraseEntireScreen) || !strings.Contains(got, "abcdefghij"+resetStyle) || strings.Contains(got, "k") {
		t.Errorf("after resize got %q, want a repaint cut at 10 columns", got)
	}
}

// settle waits until the outbox has written everything queued.
func settle(t *testing.T, r *Renderer) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for time.Now().Before(deadline) {
		r.out.mu.Lock()
		idle := r.out.pending() == 0 && !r.out.writing
		r.out.mu.Unlock()
		if idle {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("output never settled")
}

func equalRows(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestFrameIntervalHoldsChangesUntilDue checks that changes within one
// frame interval are drawn together, later, and never lost.
func TestFrameIntervalHoldsChangesUntilDue(t *testing.T) {
	w := make(writes, 16)
	r := New(w, Options{Width: 20, Height: 5, MinInterval: time.Hour})
	r.Render(view("first"))
	w.next(t)
	r.Render(view("second"))
	r.Render(view("third"))
	time.Sleep(10 * time.Millisecond)
	w.none(t) // not due for an hour
	r.Close(waitLimit)
	got := w.next(t)
	if !strings.Contains(got, "third") || strings.Contains(got, "second") {
		t.Errorf("closing drew %q, want only the latest view", got)
	}

	// With a short interval the held view lands on its own, each time a
	// view is held (the frame timer is made once and set again).
	w = make(writes, 16)
	r = New(w, Options{Width: 20, Height: 5, MinInterval: 5 * time.Millisecond})
	r.Render(view("first"))
	w.next(t)
	for _, s := range []string{"second", "third", "fourth"} {
		r.Render(view(s))
		if got := w.next(t); !strings.Contains(got, s) {
			t.Errorf("held frame %q, want the %s view", got, s)
		}
	}
	r.Close(waitLimit)
}

func TestColoursFollowTheProfile(t *testing.T) {
	red := "\x1b[38;2;255;0;0mred\x1b[m \x1b[1mbold\x1b[m"
	for _, tc := range []struct {
		profile colorprofile.Profile
		has     []string
		hasNot  []string
	}{
		{colorprofile.TrueColor, []string{"38;2;255;0;0"}, nil},
		{colorprofile.ANSI256, []string{"38;5;196"}, []string{"38;2;"}},
		{colorprofile.ASCII, []string{"\x1b[1m"}, []string{"38;"}},
	} {
		w := make(writes, 4)
		r := New(w, Options{Width: 20, Height: 3, MinInterval: time.Nanosecond, Profile: tc.profile})
		r.Render(view(red))
		got := w.next(t)
		for _, s := range tc.has {
			if !strings.Contains(got, s) {
				t.Errorf("%v: %q lacks %q", tc.profile, got, s)
			}
		}
		for _, s := range tc.hasNot {
			if strings.Contains(got, s) {
				t.Errorf("%v: %q has %q", tc.profile, got, s)
			}
		}
		r.Close(waitLimit)
	}
}

// blocked is a client that never takes its output.
type blocked struct{ release chan struct{} }

func (b blocked) Write(p []byte) (int, error) {
	<-b.release
	return 0, io.ErrClosedPipe
}

func TestClientThatStopsReadingIsReportedOnce(t *testing.T) {
	t.Run("too much waiting", func(t *testing.T) {
		stalls := make(chan struct{}, 4)
		b := blocked{release: make(chan struct{})}
		defer close(b.release)
		r := New(b, Options{Width: 80, Height: 24, MinInterval: time.Nanosecond, MaxPending: 4 << 10, StallTimeout: time.Hour,
			OnStall: func() { stalls <- struct{}{} }})
		for i := range 200 {
			r.Render(view(fmt.Sprintf("frame %d\n%s", i, strings.Repeat("z", i%70))))
		}
		select {
		case <-stalls:
		case <-time.After(waitLimit):
			t.Fatal("a client with 4 KiB waiting was not reported")
		}
		r.Render(view("more"))
		if r.Close(10 * time.Millisecond) {
			t.Error("close reported delivery to a stalled client")
		}
		if n := len(stalls); n != 0 {
			t.Errorf("reported %d more times", n)
		}
		r.out.mu.Lock()
		defer r.out.mu.Unlock()
		if r.out.queued != nil {
			t.Errorf("%d bytes still held for a stalled client", r.out.pending())
		}
	})
	t.Run("one write blocked too long", func(t *testing.T) {
		stalls := make(chan struct{}, 4)
		b := blocked{release: make(chan struct{})}
		defer close(b.release)
		r := New(b, Options{Width: 80, Height: 24, StallTimeout: 20 * time.Millisecond,
			OnStall: func() { stalls <- struct{}{} }})
		r.Render(view("hello"))
		select {
		case <-stalls:
		case <-time.After(waitLimit):
			t.Fatal("a write blocked past the stall timeout was not reported")
		}
		r.Close(time.Millisecond)
	})
}

// TestIdleRendererStartsNothing checks that an unchanged view arms no
// timer and writes nothing: an idle session costs no wakeups.
func TestIdleRendererStartsNothing(t *testing.T) {
	w := make(writes, 4)
	r := New(w, Options{Width: 20, Height: 3, MinInterval: time.Hour})
	r.Render(view("same"))
	w.next(t)
	for range 100 {
		r.Render(view("same"))
	}
	r.mu.Lock()
	armed := r.armed
	r.mu.Unlock()
	if armed {
		t.Error("an unchanged view armed a frame timer")
	}
	w.none(t)
	r.Close(waitLimit)
}

// TestIdleOutboxKeepsNoWriter checks that once a frame is written the
// writer goroutine leaves and the queue's buffer is let go: an idle
// session holds neither. The next frame starts a writer again, and
// closing an idle outbox returns at once.
func TestIdleOutboxKeepsNoWriter(t *testing.T) {
	w := make(writes, 4)
	r := New(w, Options{Width: 20, Height: 3, MinInterval: time.Nanosecond})
	idle := func() bool {
		r.out.mu.Lock()
		defer r.out.mu.Unlock()
		return !r.out.running && r.out.queued == nil
	}
	for _, s := range []string{"one", "two"} {
		r.Render(view(s))
		if got := w.next(t); !strings.Contains(got, s) {
			t.Fatalf("frame %q not written: %q", s, got)
		}
		deadline := time.Now().Add(waitLimit)
		for !idle() {
			if time.Now().After(deadline) {
				t.Fatal("the writer goroutine stayed after its output was written")
			}
			time.Sleep(time.Millisecond)
		}
	}
	if !r.Close(waitLimit) {
		t.Error("closing an idle renderer did not deliver its last frame")
	}
	if got := w.next(t); !strings.Contains(got, leaveScreen) {
		t.Errorf("the closing frame %q does not leave the screen", got)
	}
}

// TestAskWritesTheQueryInOrder: a query goes to the terminal after the
// frame drawn before it, and nothing is written once the renderer closed.
func TestAskWritesTheQueryInOrder(t *testing.T) {
	w := make(writes, 16)
	r := New(w, Options{Width: 20, Height: 5, MinInterval: time.Nanosecond, Profile: colorprofile.TrueColor})
	r.Render(view("one"))
	if first := w.next(t); !strings.Contains(first, "one") {
		t.Fatalf("first frame %q", first)
	}
	r.Ask(ansi.RequestBackgroundColor)
	if got := w.next(t); got != ansi.RequestBackgroundColor {
		t.Fatalf("the query went out as %q", got)
	}
	r.Close(waitLimit)
	_ = w.next(t) // leaving the screen
	r.Ask(ansi.RequestBackgroundColor)
	w.none(t)
}

// TestMoveToIsCursorPosition: the renderer's own cursor moves are
// ansi.CursorPosition's, for every position a screen has and the edges.
func TestMoveToIsCursorPosition(t *testing.T) {
	r := New(io.Discard, Options{})
	for col := -2; col <= 1200; col += 1 + col/50 {
		for row := -2; row <= 1200; row += 1 + row/50 {
			r.buf.Reset()
			r.moveTo(col, row)
			if got, want := r.buf.String(), ansi.CursorPosition(col, row); got != want {
				t.Fatalf("moveTo(%d, %d) = %q, want %q", col, row, got, want)
			}
		}
	}
}

// TestWriteTitleIsSetWindowTitleOfStrip: the title goes out as
// ansi.SetWindowTitle(ansi.Strip(title)) for plain titles (the fast way)
// and hostile ones alike.
func TestWriteTitleIsSetWindowTitleOfStrip(t *testing.T) {
	titles := []string{"", "BREAK THE CODE · table KQ7-M4X · turn 12", "全角 é ✓", "a\x1b[31mred\x1b[m", "bell\a", "del\x7f",
		"c1 \u0085 \u009b31m", "raw c1 \x9b31m", "bad \xff utf8", "cut \xe2\x80", "\x1b]2;nested\a", "tab\there", "nbsp\u00a0"}
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []rune{'a', ' ', '·', '全', '\x1b', '[', 'm', '\a', '\u0085', '\u009b', '\x7f', ';', '1', '\\', ']'}
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(16) {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		if rng.IntN(8) == 0 {
			b.WriteByte(byte(0x80 + rng.IntN(0x80))) // invalid UTF-8
		}
		titles = append(titles, b.String())
	}
	r := New(io.Discard, Options{})
	for _, title := range titles {
		r.buf.Reset()
		r.writeTitle(title)
		if got, want := r.buf.String(), ansi.SetWindowTitle(ansi.Strip(title)); got != want {
			t.Fatalf("writeTitle(%q) = %q, want %q", title, got, want)
		}
	}
}

// TestDrawnOverFramesAreLetGo: once a frame is drawn over, the renderer
// keeps nothing of it, even of the lines the new frame shares with it. It
// kept each unchanged line as a piece of the frame it was first drawn in,
// so a session held pieces of many old frames, whole.
func TestDrawnOverFramesAreLetGo(t *testing.T) {
	r := New(io.Discard, Options{Width: 80, Height: 5, MinInterval: time.Nanosecond})
	line := strings.Repeat("─", 40)
	let := make(chan struct{})
	first := strings.Join([]string{line, "first", line, line}, "\n")
	runtime.AddCleanup(unsafe.StringData(first), func(ch chan struct{}) { close(ch) }, let)
	r.Render(view(first))
	first = ""
	r.Render(view(strings.Join([]string{line, "second", line, line}, "\n")))
	for range 50 {
		runtime.GC()
		select {
		case <-let:
			runtime.KeepAlive(r)
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
	runtime.KeepAlive(r)
	t.Fatal("the first frame is still held after the second was drawn")
}
