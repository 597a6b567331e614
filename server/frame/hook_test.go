package frame

import (
	"image/color"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// recorder is a Drawer that keeps what it was given.
type recorder struct {
	views []tea.View
	sizes [][2]int
	lines int // how many of views came as lines
}

func (r *recorder) Render(v tea.View)        { r.views = append(r.views, v) }
func (r *recorder) Resize(width, height int) { r.sizes = append(r.sizes, [2]int{width, height}) }

// RenderLines keeps v with lines joined as its content.
func (r *recorder) RenderLines(v tea.View, lines []string) {
	v.Content = strings.Join(lines, "\n")
	r.lines++
	r.views = append(r.views, v)
}

// counter is a model that shows how many messages it saw and the last size.
type counter struct {
	seen int
	size tea.WindowSizeMsg
}

func (c counter) Init() tea.Cmd { return nil }
func (c counter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	c.seen++
	if s, ok := msg.(tea.WindowSizeMsg); ok {
		c.size = s
	}
	return c, nil
}
func (c counter) View() tea.View {
	v := tea.NewView("seen " + strconv.Itoa(c.seen))
	v.WindowTitle = "title"
	return v
}

// TestHookDrawsTheModelsViews: the hook hands every view to the renderer
// and Bubble Tea an empty one; a window size reaches the renderer before
// the model, and the model keeps its own state between updates.
func TestHookDrawsTheModelsViews(t *testing.T) {
	r := &recorder{}
	h := NewHook(counter{}, r)
	if got := h.View(); got.Content != "" || got.WindowTitle != "" {
		t.Errorf("Bubble Tea got a view: %+v", got)
	}
	next, _ := h.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if next != h {
		t.Fatalf("Update returned %T, not the hook", next)
	}
	h.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	h.View()
	if len(r.sizes) != 1 || r.sizes[0] != [2]int{80, 24} {
		t.Errorf("sizes told the renderer: %v, want one 80×24", r.sizes)
	}
	if len(r.views) != 2 || r.views[0].Content != "seen 0" || r.views[1].Content != "seen 2" || r.views[1].WindowTitle != "title" {
		t.Errorf("views rendered: %+v, want the model's before and after two updates", r.views)
	}
	if c := h.inner.(counter); c.size.Width != 80 {
		t.Errorf("the model did not see the size: %+v", c.size)
	}
}

// TestViewPartsAreAllAccountedFor: the package doc names every field of a
// tea.View as honoured or dropped. A Bubble Tea upgrade that adds one fails
// here, so the doc (and perhaps the Renderer) is looked at again.
func TestViewPartsAreAllAccountedFor(t *testing.T) {
	honoured := []string{"Content", "WindowTitle", "Cursor"}
	dropped := []string{"AltScreen", "DisableBracketedPasteMode", "MouseMode", "OnMouse", "ReportFocus",
		"BackgroundColor", "ForegroundColor", "KeyboardEnhancements", "ProgressBar", "ProgramStatus"}
	known := append(slices.Clone(honoured), dropped...)
	var fields []string
	for f := range reflect.TypeFor[tea.View]().Fields() {
		fields = append(fields, f.Name)
	}
	slices.Sort(known)
	slices.Sort(fields)
	if !slices.Equal(fields, known) {
		t.Errorf("tea.View's fields %v, the package doc accounts for %v", fields, known)
	}
}

// TestDroppedViewPartsWriteNothing: a view asking for mouse reports, focus
// reports, colours, keyboard enhancements, a progress bar, the main screen,
// no bracketed paste and a blinking coloured bar cursor is written byte for
// byte like the same content, title and cursor position without them.
func TestDroppedViewPartsWriteNothing(t *testing.T) {
	frames := func(v tea.View) string {
		w := make(writes, 4)
		r := New(w, Options{Width: 20, Height: 3, MinInterval: time.Nanosecond, Profile: colorprofile.TrueColor})
		r.Render(v)
		out := w.next(t)
		r.Close(waitLimit)
		return out + w.next(t)
	}
	plain := tea.NewView("one\ntwo")
	plain.WindowTitle = "title"
	plain.Cursor = tea.NewCursor(2, 1)

	asking := tea.NewView("one\ntwo")
	asking.WindowTitle = "title"
	asking.Cursor = &tea.Cursor{Position: tea.Position{X: 2, Y: 1}, Color: color.White, Shape: tea.CursorBar, Blink: true}
	asking.AltScreen = false
	asking.DisableBracketedPasteMode = true
	asking.MouseMode = tea.MouseModeAllMotion
	asking.OnMouse = func(tea.MouseMsg) tea.Cmd { return nil }
	asking.ReportFocus = true
	asking.BackgroundColor = color.Black
	asking.ForegroundColor = color.White
	asking.KeyboardEnhancements = tea.KeyboardEnhancements{ReportEventTypes: true}
	asking.ProgressBar = tea.NewProgressBar(tea.ProgressBarDefault, 50)
	asking.ProgramStatus = &tea.ProgramStatus{}

	if got, want := frames(asking), frames(plain); got != want {
		t.Errorf("dropped parts were written:\n got %q\nwant %q", got, want)
	}
}

// linesOnly is a LineViewer whose View must not be asked for.
type linesOnly struct{ lines []string }

func (linesOnly) Init() tea.Cmd                         { return nil }
func (m linesOnly) Update(tea.Msg) (tea.Model, tea.Cmd) { return m, nil }
func (linesOnly) View() tea.View                        { panic("the hook joined a LineViewer's frame") }
func (m linesOnly) ViewLines() (tea.View, []string) {
	return tea.View{WindowTitle: "lined"}, m.lines
}

// TestHookDrawsALineViewersLines: a model that has its frame as lines is
// drawn from them, never from its joined View.
func TestHookDrawsALineViewersLines(t *testing.T) {
	r := &recorder{}
	h := NewHook(linesOnly{lines: []string{"one", "two"}}, r)
	h.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	if got := h.View(); got.Content != "" {
		t.Errorf("Bubble Tea got a view: %+v", got)
	}
	if r.lines != 1 || len(r.views) != 1 || r.views[0].Content != "one\ntwo" || r.views[0].WindowTitle != "lined" {
		t.Errorf("drawn: %d as lines, views %+v; want the lines, once", r.lines, r.views)
	}
}
