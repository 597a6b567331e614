package widget

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/tui/board"
)

var widthCases = []string{
	"", "plain ascii", "\x1b[1mbold\x1b[m and \x1b[38;2;125;156;255mcolour\x1b[m",
	"─────", "▸ 1 ask · 2 guess…", "✓ got it ✗ out ‹ 4 [5] › ↑/↓ ←/→ — × • ▶ ◂ │",
	"Björk Guðmundsdóttir", "李小龙 asked", "e\u0301 combining", "a\u200db zwj", "🙂 emoji",
	"tab\there", "two\nlines wider", "\x1b]0;title\x07osc", "\x1b[", "\x1b[1", "\x1bXnot csi",
	"bell\a", "del\x7f", "\x80 broken", "→\u0301", "·\ufe0f", "🇫🇷 flag",
	"Zoë Ørsted", "Ελένη", "Дмитрий", "李\ufe0f", "e\u0301\u0301", "ä\u0308", "\u00ad soft",
}

func TestWidthMatchesLipgloss(t *testing.T) {
	for _, s := range widthCases {
		if got, want := Width(s), lipgloss.Width(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
	}
}

func FuzzWidth(f *testing.F) {
	for _, s := range widthCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Width(s), lipgloss.Width(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
		for _, w := range []int{0, 1, 5, 20} {
			if got, want := Truncate(s, w, "…"), ansi.Truncate(s, w, "…"); got != want {
				t.Errorf("Truncate(%q, %d) = %q, want %q", s, w, got, want)
			}
		}
	})
}

func TestPainterRendersLikeTheStyle(t *testing.T) {
	st := lipgloss.NewStyle().Bold(true).Underline(true).Foreground(lipgloss.Color("#5FD75F"))
	p := NewPainter(&st)
	for i := range 3 * painterMemo {
		s := fmt.Sprintf("item %d of many", i%(painterMemo+7))
		if got, want := p.Render(s), st.Render(s); got != want {
			t.Fatalf("Render(%q) = %q, want %q", s, got, want)
		}
		if p.Len() > painterFew+painterMemo {
			t.Fatalf("painter holds %d strings, more than %d", p.Len(), painterFew+painterMemo)
		}
	}
}

// paintCases are texts a Painter must style exactly as lipgloss does.
var paintCases = []string{
	"", " ", "x", "  lead and trail  ", "a\tb", "two\nlines", "cr\r\nlf", "\x1b[1mstyled\x1b[m inside",
	"李小龙 … ✓", strings.Repeat("long line ", 40),
}

// TestPainterFallsBackForStylesThatShapeText: a style that pads, sizes,
// borders, transforms or styles spaces apart is not a prefix and a suffix
// around the text, and a Painter must leave it to lipgloss.
func TestPainterFallsBackForStylesThatShapeText(t *testing.T) {
	base := lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#5FD75F"))
	shaping := map[string]lipgloss.Style{
		"padding":       base.Padding(0, 1),
		"width":         base.Width(12),
		"max width":     base.MaxWidth(5),
		"margin":        base.MarginLeft(2),
		"border":        base.Border(lipgloss.NormalBorder()),
		"transform":     base.Transform(strings.ToUpper),
		"underline":     base.Underline(true),
		"strikethrough": base.Strikethrough(true),
		"reverse":       base.Reverse(true),
		"value":         base.SetString("pre"),
		"height":        base.Height(3),
	}
	for name, st := range shaping {
		p := NewPainter(&st)
		p.Render("first") // the painter learns the style on its first miss
		if p.line {
			t.Errorf("%s: the painter takes the style for a prefix and a suffix", name)
		}
		for _, s := range paintCases {
			if got, want := p.Render(s), st.Render(s); got != want {
				t.Errorf("%s: Render(%q) = %q, want %q", name, s, got, want)
			}
		}
	}
	for name, st := range map[string]lipgloss.Style{
		"plain": lipgloss.NewStyle(), "bold": base, "faint on a fill": lipgloss.NewStyle().Faint(true).Background(lipgloss.Color("4")),
		"italic": lipgloss.NewStyle().Italic(true),
	} {
		p := NewPainter(&st)
		p.Render("first")
		if !p.line {
			t.Errorf("%s: a style that only colours text is drawn by lipgloss", name)
		}
		for _, s := range paintCases {
			if got, want := p.Render(s), st.Render(s); got != want {
				t.Errorf("%s: Render(%q) = %q, want %q", name, s, got, want)
			}
		}
	}
}

func TestLogCacheMatchesLogTail(t *testing.T) {
	var log []engine.Event
	var c LogCache
	for i := range 40 {
		text := fmt.Sprintf("event %d: %s", i, strings.Repeat("word ", i%9))
		if i%7 == 3 {
			text = "李小龙 asked \x1b[31mred\x1b[m " + strings.Repeat("long ", 30)
		}
		log = append(log, engine.Event{Text: text})
		for _, w := range []int{7, 8, 20, 33} {
			for _, h := range []int{0, 1, 3, 12} {
				got, want := c.Tail(log, w, h), LogTail(log, w, h)
				if !slices.Equal(got, want) || (got == nil) != (want == nil) {
					t.Fatalf("%d events at %d×%d: Tail = %q, LogTail = %q", len(log), w, h, got, want)
				}
				head := []string{"Log"}
				if app := c.AppendTail(head, log, w, h); !slices.Equal(app, append([]string{"Log"}, want...)) {
					t.Fatalf("%d events at %d×%d: AppendTail after a line = %q, want it and LogTail %q", len(log), w, h, app, want)
				}
			}
		}
	}
	// Appending to a tail must not change what the cache holds.
	huge := []engine.Event{{Text: strings.Repeat("word ", 100)}}
	first := c.Tail(huge, 20, 2)
	_ = append(first, "scribble")
	if again := c.Tail(huge, 20, 3); again[2] == "scribble" {
		t.Error("appending to a returned tail wrote into the cache")
	}
}

// TestLogCacheFollowsAGrowingLog: a cache asked for the tail of a log
// that grows by an event or two between frames, at one size and then
// another and back, draws what LogTail draws every time (it finds the
// events it drew last by walking them, not by their texts' hashes).
func TestLogCacheFollowsAGrowingLog(t *testing.T) {
	var log []engine.Event
	var c LogCache
	sizes := [][2]int{{20, 6}, {20, 6}, {33, 6}, {20, 6}, {20, 9}, {12, 4}}
	calls := 0
	for i := range 60 {
		text := fmt.Sprintf("event %d: %s", i, strings.Repeat("word ", i%7))
		if i%11 == 5 {
			text = "the same words again" // repeated texts must not confuse the walk
		}
		log = append(log, engine.Event{Text: text})
		if i%3 == 1 {
			continue // two events at once
		}
		sz := sizes[calls/2%len(sizes)] // each size twice in a row
		calls++
		if got, want := c.Tail(log, sz[0], sz[1]), LogTail(log, sz[0], sz[1]); !slices.Equal(got, want) {
			t.Fatalf("%d events at %d×%d: Tail = %q, LogTail = %q", len(log), sz[0], sz[1], got, want)
		}
	}
}

// TestLogCacheHoldsOnlyItsTail: a board's log cache keeps the events of
// the tail it drew last and nothing of the events that left it (it kept up
// to 256 of them, by text, with their lines, for every board).
func TestLogCacheHoldsOnlyItsTail(t *testing.T) {
	var log []engine.Event
	var c LogCache
	for i := range 100 {
		log = append(log, engine.Event{Text: fmt.Sprintf("event %d happened", i)})
		c.Tail(log, 30, 3)
	}
	if len(c.last) != 3 {
		t.Errorf("the cache holds %d events after a tail of 3", len(c.last))
	}
	for i, e := range c.last {
		if want := fmt.Sprintf("event %d happened", 99-i); e.text != want {
			t.Errorf("entry %d is %q, want %q", i, e.text, want)
		}
	}
	for _, e := range c.next[:cap(c.next)] {
		if e.text != "" || e.lines != nil {
			t.Errorf("the spare slice still holds %q", e.text)
		}
	}
}

// TestFreshIsRenderForgotten: Fresh styles as Render does and remembers
// nothing, so a painter given a new text on every frame (a title naming
// the turn) does not fill its memory with them.
func TestFreshIsRenderForgotten(t *testing.T) {
	st := lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#7D9CFF"))
	p := NewPainter(&st)
	for i := range 300 {
		s := fmt.Sprintf(" · turn %d: mara asks", i)
		if got, want := p.Fresh(s), st.Render(s); got != want {
			t.Fatalf("Fresh(%q) = %q, want %q", s, got, want)
		}
	}
	if n := p.Len(); n != 0 {
		t.Errorf("the painter remembers %d strings after only Fresh", n)
	}
}

// TestFreshOfIsFreshOfTheWhole: FreshOf(a, b, c) is Fresh(a + b + c) for
// a style that only colours text and for one lipgloss must draw, with a
// line break in any of the parts, and remembers nothing either.
func TestFreshOfIsFreshOfTheWhole(t *testing.T) {
	colours := lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#7D9CFF"))
	padded := colours.Padding(0, 1)
	for _, st := range []lipgloss.Style{colours, padded} {
		p := NewPainter(&st)
		for _, c := range [][3]string{{"[", "42", " possible]"}, {"", "", ""}, {" · ", "mara to ask", ""},
			{"two\n", "lines", ""}, {"a", "b\tc", "d"}, {"x", "y", "\r\nz"}, {"李", " … ", "✓"}} {
			if got, want := p.FreshOf(c[0], c[1], c[2]), p.Fresh(c[0]+c[1]+c[2]); got != want {
				t.Errorf("FreshOf(%q) = %q, want %q", c, got, want)
			}
		}
		if n := p.Len(); n != 0 {
			t.Errorf("the painter remembers %d strings after only FreshOf", n)
		}
	}
}

// TestPainterKeepsAFewTextsInItself: a painter that draws a handful of
// texts again and again (a board's headings, a seat's name) keeps them in
// itself, with no map for the collector to scan, and draws them again
// without allocating; a text beyond them goes to the map as before.
func TestPainterKeepsAFewTextsInItself(t *testing.T) {
	st := lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#7D9CFF"))
	p := NewPainter(&st)
	texts := []string{"Log", "Ask a question", "▸ Your turn:", "mara"}
	for range 3 {
		for _, s := range texts {
			if got, want := p.Render(s), st.Render(s); got != want {
				t.Fatalf("Render(%q) = %q, want %q", s, got, want)
			}
		}
	}
	if p.memo.m != nil {
		t.Errorf("a painter of %d texts made a map of %d", len(texts), p.memo.Len())
	}
	if n := testing.AllocsPerRun(100, func() {
		for _, s := range texts {
			_ = p.Render(s)
		}
	}); n != 0 {
		t.Errorf("drawing the texts kept again allocated %.0f times", n)
	}
	if got, want := p.Render("Bo"), st.Render("Bo"); got != want || p.memo.Len() != 1 || p.Len() != len(texts)+1 {
		t.Errorf("a fifth text: Render = %q (want %q), %d in the map, %d in all", got, want, p.memo.Len(), p.Len())
	}
}

// TestPainterIsSmall: a session holds a dozen painters or more for as
// long as it lasts, each scanned by every collection, so a Painter stays
// within painterSize (it was 200 bytes, a 208-byte object).
func TestPainterIsSmall(t *testing.T) {
	if n := unsafe.Sizeof(Painter{}); n > painterSize {
		t.Errorf("a Painter takes %d bytes, more than %d", n, painterSize)
	}
}

// TestPainterKeepsNoCopyOfTheText: what a Painter remembers of a text
// drawn in a style that only colours text is its styled form alone: the
// key it is found by lies within that form, so the caller's string (made
// for the call, on most boards) is not kept alive by the painter.
func TestPainterKeepsNoCopyOfTheText(t *testing.T) {
	st := lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#7D9CFF"))
	p := NewPainter(&st)
	within := func(s, out string) bool {
		o := uintptr(unsafe.Pointer(unsafe.StringData(out)))
		k := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		return k >= o && k+uintptr(len(s)) <= o+uintptr(len(out))
	}
	for i := range 3 * painterFew {
		s := fmt.Sprintf("seat %d", i) // a fresh string, as boards make them
		want := st.Render(s)
		if got := p.Render(s); got != want {
			t.Fatalf("Render(%q) = %q, want %q", s, got, want)
		}
		if got := p.Render(fmt.Sprintf("seat %d", i)); got != want {
			t.Fatalf("Render(%q) again = %q, want %q", s, got, want)
		}
	}
	for k, out := range p.memo.m {
		if !within(k, out) {
			t.Errorf("the key %q is a string of its own, not part of %q", k, out)
		}
	}
	if p.memo.Len() != 3*painterFew-painterFew {
		t.Errorf("%d texts in the map, want %d", p.memo.Len(), 2*painterFew)
	}
}

// TestPainterRemembersShapedTexts: a style lipgloss draws (padding here)
// is remembered as pairs of text and styled text, a few in the painter
// and the rest in its map, each found again for its own text only.
func TestPainterRemembersShapedTexts(t *testing.T) {
	st := lipgloss.NewStyle().Bold(true).Padding(0, 1)
	p := NewPainter(&st)
	for range 2 {
		for i := range 2 * painterFew {
			s := fmt.Sprintf("%d", i)
			if got, want := p.Render(s), st.Render(s); got != want {
				t.Fatalf("Render(%q) = %q, want %q", s, got, want)
			}
		}
	}
	if p.line || p.Len() != 2*painterFew || p.memo.Len() != 2*painterFew-painterFew/2 {
		t.Errorf("line %v, %d remembered, %d in the map; want false, %d, %d", p.line, p.Len(), p.memo.Len(), 2*painterFew, 2*painterFew-painterFew/2)
	}
}

// TestPaintsAreOneObject: a board's Paints hold their Painters in
// themselves, so making them allocates nothing of its own (it was six
// objects in every board of every session).
func TestPaintsAreOneObject(t *testing.T) {
	st := &board.Styles{Heading: lipgloss.NewStyle().Bold(true), Dim: lipgloss.NewStyle().Faint(true)}
	var p Paints
	if n := testing.AllocsPerRun(20, func() { p = NewPaints(st) }); n != 0 {
		t.Errorf("NewPaints allocated %.0f times", n)
	}
	if got, want := p.Heading.Render("Log"), st.Heading.Render("Log"); got != want {
		t.Errorf("Heading.Render = %q, want %q", got, want)
	}
}

// TestWriteSpacesIsRepeat: WriteSpaces writes strings.Repeat(" ", n), for
// runs shorter and longer than the one it writes from, and nothing for n ≤ 0.
func TestWriteSpacesIsRepeat(t *testing.T) {
	for _, n := range []int{-3, 0, 1, 2, 63, 64, 65, 127, 128, 129, 300} {
		var sb strings.Builder
		sb.WriteString("x")
		WriteSpaces(&sb, n)
		if got, want := sb.String(), "x"+strings.Repeat(" ", max(0, n)); got != want {
			t.Errorf("WriteSpaces(%d) wrote %q, want %d spaces", n, got[1:], max(0, n))
		}
	}
}
