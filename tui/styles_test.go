package tui

import (
	"fmt"
	"image/color"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"unsafe"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/tui/board"
	"github.com/codebreakers/codebreakers/tui/board/boardtest"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// backgrounds are the terminal backgrounds each palette is checked on:
// common default themes (xterm, GNOME/Ubuntu, One Dark, Solarized).
func backgrounds(dark bool) map[string]color.Color {
	c := lipgloss.Color
	if dark {
		return map[string]color.Color{"black": c("#000000"), "#1E1E1E": c("#1E1E1E"), "One Dark": c("#282C34"), "Solarized dark": c("#002B36")}
	}
	return map[string]color.Color{"white": c("#FFFFFF"), "#F5F5F5": c("#F5F5F5"), "Solarized light": c("#FDF6E3")}
}

// luminance is WCAG 2's relative luminance of c.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is WCAG 2's contrast ratio of two colours (1 to 21).
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// namedStyle is one style of a set, by its field path.
type namedStyle struct {
	name  string
	style lipgloss.Style
}

// allStyles lists every lipgloss.Style in v (a struct), however deep: the
// session's styles, the help bar's and the boards', If Then's card ends
// included. A style added later is checked without naming it here.
// v must be addressable (reflect.ValueOf(&x).Elem()): the session's
// fields are unexported and are read through their address.
func allStyles(prefix string, v reflect.Value) []namedStyle {
	if !v.CanInterface() {
		v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	}
	if st, ok := v.Interface().(lipgloss.Style); ok {
		return []namedStyle{{prefix, st}}
	}
	var out []namedStyle
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			out = append(out, allStyles(prefix+"."+v.Type().Field(i).Name, v.Field(i))...)
		}
	case reflect.Array:
		for i := range v.Len() {
			out = append(out, allStyles(fmt.Sprintf("%s[%d]", prefix, i), v.Index(i))...)
		}
	}
	return out
}

// TestPaletteContrast: every foreground/background pair the screens and
// boards use reads at WCAG AA (4.5:1 or more), for the dark palette on
// dark backgrounds and the light one on light backgrounds. A style with a
// fill (a piece) is checked against its own fill; one without, against
// each background of its kind. A style with a fill but no ink of its own
// would leave the ink to the terminal, which cannot be checked: it fails.
func TestPaletteContrast(t *testing.T) {
	for _, dark := range []bool{true, false} {
		st := newStyles(dark)
		worst, worstPair := 21.0, ""
		var lines []string
		for _, s := range allStyles("styles", reflect.ValueOf(&st).Elem()) {
			fg, bg := s.style.GetForeground(), s.style.GetBackground()
			_, noFG := fg.(lipgloss.NoColor)
			_, noBG := bg.(lipgloss.NoColor)
			switch {
			case noFG && noBG:
				continue // the terminal's own colours
			case noFG:
				t.Errorf("dark=%v %s has a fill but no ink", dark, s.name)
				continue
			}
			against := map[string]color.Color{"its fill": bg}
			if noBG {
				against = backgrounds(dark)
			}
			for bgName, b := range against {
				r := contrast(fg, b)
				lines = append(lines, fmt.Sprintf("%-28s on %-16s %5.2f", s.name, bgName, r))
				if r < worst {
					worst, worstPair = r, s.name+" on "+bgName
				}
				if r < 4.5 {
					t.Errorf("dark=%v: %s on %s has contrast %.2f:1, under 4.5:1", dark, s.name, bgName, r)
				}
			}
		}
		sort.Strings(lines)
		t.Logf("dark=%v: lowest contrast %.2f:1 (%s)\n%s", dark, worst, worstPair, strings.Join(lines, "\n"))
	}
}

// TestPiecesLookTheSameOnEveryBackground: a black tile is a dark block
// and a white one a light block on dark and light terminals alike (a
// reversed black tile was a light block on a dark terminal), and black is
// darker than white.
func TestPiecesLookTheSameOnEveryBackground(t *testing.T) {
	d, l := newStyles(true).board.breakcode, newStyles(false).board.breakcode
	de, le := newStyles(true).board.ifthen.End, newStyles(false).board.ifthen.End
	for _, p := range []struct {
		name       string
		dark, ligh lipgloss.Style
	}{{"black", d.TileBlack, l.TileBlack}, {"white", d.TileWhite, l.TileWhite}, {"green", d.TileGreen, l.TileGreen}} {
		if p.dark.Render("3b") != p.ligh.Render("3b") {
			t.Errorf("the %s piece differs between the palettes", p.name)
		}
		if p.dark.GetReverse() {
			t.Errorf("the %s piece is drawn reversed: its look then depends on the terminal's colours", p.name)
		}
	}
	for n := range de {
		for bg := range de[n] {
			if de[n][bg].Render("4BMr") != le[n][bg].Render("4BMr") {
				t.Errorf("If Then's card end %d on %d differs between the palettes", n, bg)
			}
		}
	}
	if luminance(d.TileBlack.GetBackground()) >= luminance(d.TileWhite.GetBackground()) {
		t.Error("a black tile's fill is not darker than a white tile's")
	}
}

// TestPiecesStandOffTheBackground: a compact piece (a tile or card drawn
// without a frame) is told from the text around it only by its fill, so
// the black, white and green fills differ from every background checked,
// dark and light, by at least pieceEdge. The white fill was #EEEEEE, 1.16:1
// on a white terminal, where a white tile read as plain text; the black
// #303030 was 1.06:1 on One Dark. If Then's pale fills are told by their
// hue, which a luminance ratio does not measure, and their cards are
// bracketed.
func TestPiecesStandOffTheBackground(t *testing.T) {
	bc := newStyles(true).board.breakcode
	for name, s := range map[string]lipgloss.Style{"black": bc.TileBlack, "white": bc.TileWhite, "green": bc.TileGreen} {
		for _, dark := range []bool{true, false} {
			for bgName, bg := range backgrounds(dark) {
				if r := contrast(s.GetBackground(), bg); r < pieceEdge {
					t.Errorf("a %s piece's fill on a %s terminal: %.2f:1, under %.1f:1", name, bgName, r, pieceEdge)
				}
			}
		}
	}
}

// pieceEdge is the least contrast between a piece's fill and the terminal's
// background at which, in the xterm screenshots, a compact piece reads as a
// block rather than as text. It is no WCAG figure: WCAG's 3:1 for shapes
// would leave no light fill on a light terminal.
const pieceEdge = 1.5

// TestColoursReadOn16ColourTerminals: on terminals of 16 colours, whose
// colours are the theme's own, grey is the terminal's bright black (not
// white, near invisible on a light background) and news its yellow (not
// red like an error), on either background; the fills of the pieces keep
// their meaning when reduced to 16 colours.
func TestColoursReadOn16ColourTerminals(t *testing.T) {
	for _, dark := range []bool{true, false} {
		st := stylesFor(dark, true)
		for name, c := range map[string]struct {
			style lipgloss.Style
			want  []string
		}{
			"dim":        {st.dim, []string{"8"}},
			"key bar":    {st.help.ShortDesc, []string{"8"}},
			"board dim":  {st.board.Dim, []string{"8"}},
			"notice":     {st.notice, []string{"3"}},
			"board news": {st.board.Notice, []string{"3"}},
			"error":      {st.errText, []string{"1", "9"}},
		} {
			got := fmt.Sprint(colorprofile.ANSI.Convert(c.style.GetForeground()))
			if !slices.Contains(c.want, got) {
				t.Errorf("dark=%v: %s becomes ANSI %s on a 16-colour terminal, want one of %v", dark, name, got, c.want)
			}
		}
		for name, s := range map[string]lipgloss.Style{"black": st.board.breakcode.TileBlack, "white": st.board.breakcode.TileWhite, "green": st.board.breakcode.TileGreen} {
			got := fmt.Sprint(colorprofile.ANSI.Convert(s.GetBackground()))
			want := map[string][]string{"black": {"0", "8"}, "white": {"7", "15"}, "green": {"2"}}[name]
			if !slices.Contains(want, got) {
				t.Errorf("a %s tile's fill becomes ANSI %s on a 16-colour terminal, want one of %v", name, got, want)
			}
		}
	}
}

// TestSessionPicksBasicColoursFor16ColourTerminals: a session on a
// 16-colour terminal draws with the basic styles, others with the full
// ones, and the terminal's background answer keeps that choice.
func TestSessionPicksBasicColoursFor16ColourTerminals(t *testing.T) {
	for _, p := range []colorprofile.Profile{colorprofile.ANSI, colorprofile.ANSI256, colorprofile.TrueColor} {
		a := newApp(Deps{}, nil, Session{Identity: lobby.Identity{Account: "a", Handle: "mara"}, Width: 80, Height: 24, Colours: p})
		a.Update(tea.BackgroundColorMsg{Color: lipgloss.Color("#FFFFFF")})
		if a.st.basic != (p == colorprofile.ANSI) || a.st.dark {
			t.Errorf("profile %v: basic=%v dark=%v", p, a.st.basic, a.st.dark)
		}
	}
}

// TestNewsIsNotAnError: news ("The game has begun.") has its own colour,
// not the error colour, in both palettes.
func TestNewsIsNotAnError(t *testing.T) {
	for _, dark := range []bool{true, false} {
		st := newStyles(dark)
		if st.notice.GetForeground() == st.errText.GetForeground() || st.board.Notice.GetForeground() == st.board.Error.GetForeground() {
			t.Errorf("dark=%v: news is drawn in the error colour", dark)
		}
	}
}

// TestBoardTestStylesAreTheSessions: the boards' golden frames are drawn
// with boardtest.ColourStyles and ColourPieces, which must be the
// session's dark styles: its boards' text styles and each game's pieces.
func TestBoardTestStylesAreTheSessions(t *testing.T) {
	st := newStyles(true).board
	p := boardtest.ColourPieces()
	bt := struct {
		board.Styles
		Black, White, Green, Hidden, CardBlack, CardWhite lipgloss.Style
		Ends                                              [3][3]lipgloss.Style
	}{boardtest.ColourStyles(), p.Black, p.White, p.Green, p.Hidden, p.Black, p.White, p.Ends}
	session := struct {
		board.Styles
		Black, White, Green, Hidden, CardBlack, CardWhite lipgloss.Style
		Ends                                              [3][3]lipgloss.Style
	}{st.Styles, st.breakcode.TileBlack, st.breakcode.TileWhite, st.breakcode.TileGreen, st.breakcode.TileHidden,
		st.whattherule.CardBlack, st.whattherule.CardWhite, st.ifthen.End}
	got := allStyles("boardtest", reflect.ValueOf(&bt).Elem())
	want := allStyles("board", reflect.ValueOf(&session).Elem())
	if len(got) != len(want) {
		t.Fatalf("%d styles, want %d", len(got), len(want))
	}
	for i := range want {
		if g, w := got[i].style.Render("3b"), want[i].style.Render("3b"); g != w {
			t.Errorf("%s draws %q, the session %q", want[i].name, g, w)
		}
	}
	// Each game's text styles are the shared ones.
	for name, text := range map[string]board.Styles{"breakcode": st.breakcode.Styles, "ifthen": st.ifthen.Styles, "whattherule": st.whattherule.Styles} {
		if !reflect.DeepEqual(text, st.Styles) {
			t.Errorf("%s's text styles are not the boards' shared ones", name)
		}
	}
}

// TestLightBackgroundRedrawsTheOpenBoard: the terminal's answer can come
// when a table is already open (a session that starts by joining one):
// the board is made again with the light styles, and nothing is drawn
// with the dark ones after that.
func TestLightBackgroundRedrawsTheOpenBoard(t *testing.T) {
	st := dealt(t, 3, 1)
	conn := newFakeConn(tableView(st, engine.SeatViewer(0), nil, 1))
	m := newTestApp(t, &fakeHub{conn: conn}, nil, 80, 24)
	press(t, m, "enter", "enter") // quick play, the bots offered first
	if _, ok := m.top().(*tableScreen); !ok {
		t.Fatalf("no table: %T", m.top())
	}
	sgr := func(c color.Color) string {
		r, g, b, _ := c.RGBA()
		return fmt.Sprintf("38;2;%d;%d;%d", r>>8, g>>8, b>>8)
	}
	darkAccent, lightAccent := sgr(darkPalette().accent), sgr(lightPalette().accent)
	if frame := m.View().Content; !strings.Contains(frame, darkAccent) {
		t.Fatalf("before the answer the board is not drawn dark:\n%q", frame)
	}
	m.Update(tea.BackgroundColorMsg{Color: lipgloss.Color("#FFFFFF")})
	frame := m.View().Content
	if strings.Contains(frame, darkAccent) || !strings.Contains(frame, lightAccent) {
		t.Errorf("after a white background the frame still has the dark accent or lacks the light one:\n%q", frame)
	}
}

// TestPaintersStyleLikeLipgloss: every style of the arcade (all four
// looks), drawn through a widget.Painter, which puts a style's prefix and
// suffix around a line itself where lipgloss would do just that, gives
// lipgloss's bytes exactly.
func TestPaintersStyleLikeLipgloss(t *testing.T) {
	texts := []string{"", " ", "x", "▸ Your turn:", " 3 wrong guesses ", "a\tb", "two\nlines", "\x1b[1mbold\x1b[m in", "李 … ✓", strings.Repeat("wide ", 30)}
	var walk func(path string, v reflect.Value)
	n := 0
	walk = func(path string, v reflect.Value) {
		v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem() // unexported fields too
		if st, ok := v.Interface().(lipgloss.Style); ok {
			n++
			p := widget.NewPainter(&st)
			for _, s := range texts {
				if got, want := p.Render(s), st.Render(s); got != want {
					t.Errorf("%s: Render(%q) = %q, lipgloss %q", path, s, got, want)
				}
			}
			return
		}
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				walk(path+"."+v.Type().Field(i).Name, v.Field(i))
			}
		case reflect.Array, reflect.Slice:
			for i := range v.Len() {
				walk(fmt.Sprintf("%s[%d]", path, i), v.Index(i))
			}
		}
	}
	for _, dark := range []bool{true, false} {
		for _, basic := range []bool{true, false} {
			st := stylesFor(dark, basic)
			walk(fmt.Sprintf("styles(dark=%v,basic=%v)", dark, basic), reflect.ValueOf(&st).Elem())
		}
	}
	if n < 40 {
		t.Fatalf("walked %d styles; the walk misses some", n)
	}
}
