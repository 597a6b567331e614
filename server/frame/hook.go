package frame

import tea "charm.land/bubbletea/v2"

// Hook is the renderer hook: the tea.Model a program runs when it draws
// through a Renderer instead of Bubble Tea's own renderer (the program is
// started with tea.WithoutRenderer). Bubble Tea still asks for the view
// after every update; Hook hands it to the Renderer, which draws it only if
// it changed, and gives Bubble Tea an empty view back. Window sizes reach
// the Renderer before the model sees them, so the next frame repaints at
// the new size.
//
// What the Renderer does with a tea.View is in the package doc.
type Hook struct {
	inner tea.Model
	r     Drawer
}

// Drawer is what a Hook draws on: a *Renderer, or a test's stand-in.
type Drawer interface {
	Render(tea.View)
	RenderLines(v tea.View, lines []string)
	Resize(width, height int)
}

// LineViewer is a model that has its view's content at hand as lines. The
// Hook draws such a model's frames from ViewLines instead of View, so that
// a frame made of lines is not joined into one string only for the
// Renderer to cut it into lines again: joining was most of what drawing a
// frame cost beyond laying it out.
type LineViewer interface {
	// ViewLines is View with its content as lines: strings.Join(lines,
	// "\n") is what View().Content would be, and the view's own Content
	// is not read. No line holds a newline. The Renderer keeps the slice
	// (RenderLines), so the model never changes it once handed over: a
	// new frame is a new slice.
	ViewLines() (v tea.View, lines []string)
}

// NewHook returns the model for a program that draws m's views on r.
func NewHook(m tea.Model, r Drawer) *Hook { return &Hook{inner: m, r: r} }

// Init runs the model's Init.
func (h *Hook) Init() tea.Cmd { return h.inner.Init() }

// Update tells the Renderer of a new window size, then runs the model's
// Update.
func (h *Hook) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if size, ok := msg.(tea.WindowSizeMsg); ok {
		h.r.Resize(size.Width, size.Height)
	}
	next, cmd := h.inner.Update(msg)
	if next != nil {
		h.inner = next
	}
	return h, cmd
}

// View draws the model's view on the Renderer, as lines when the model is
// a LineViewer, and returns an empty view to Bubble Tea, which has no
// renderer to give it to.
func (h *Hook) View() tea.View {
	if m, ok := h.inner.(LineViewer); ok {
		h.r.RenderLines(m.ViewLines())
	} else {
		h.r.Render(h.inner.View())
	}
	return tea.View{}
}
