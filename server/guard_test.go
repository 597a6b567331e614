package server

import (
	"log/slog"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/server/frame"
)

// lineModel draws its frame as lines, or panics drawing it.
type lineModel struct {
	lines []string
	boom  bool
}

func (m lineModel) Init() tea.Cmd                       { return nil }
func (m lineModel) Update(tea.Msg) (tea.Model, tea.Cmd) { return m, nil }

func (m lineModel) View() tea.View {
	_, lines := m.ViewLines()
	return tea.NewView(strings.Join(lines, "\n"))
}

func (m lineModel) ViewLines() (tea.View, []string) {
	if m.boom {
		panic("view went wrong")
	}
	return tea.View{WindowTitle: "lines"}, m.lines
}

// TestGuardPassesLinesThrough: the guard hands on an inner model's lines
// as they are, cuts a plain model's content into lines, and when drawing
// the lines panics, logs it and shows the apology, as View does.
func TestGuardPassesLinesThrough(t *testing.T) {
	var _ frame.LineViewer = (*guardModel)(nil)
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))

	lines := []string{"one", "two"}
	v, got := newGuard(lineModel{lines: lines}, log).ViewLines()
	if v.WindowTitle != "lines" || &got[0] != &lines[0] || len(got) != 2 {
		t.Errorf("the inner lines were not handed on: %q, %+v", got, v)
	}
	if _, got := newGuard(panicky{}, log).ViewLines(); !slices.Equal(got, []string{"PANICKY"}) {
		t.Errorf("a plain model's lines: %q", got)
	}

	g := newGuard(lineModel{boom: true}, log)
	if _, got := g.ViewLines(); !slices.Equal(got, []string{sessionPanicText}) || !g.panicked {
		t.Errorf("after a panic in ViewLines: %q, panicked %v", got, g.panicked)
	}
	if !strings.Contains(logs.String(), "view went wrong") || !strings.Contains(logs.String(), "in=view") {
		t.Errorf("the panic was not logged: %s", logs.String())
	}
	if _, got := g.ViewLines(); !slices.Equal(got, []string{sessionPanicText}) {
		t.Errorf("once panicked: %q", got)
	}
	if v := g.View(); v.Content != sessionPanicText {
		t.Errorf("View once panicked: %q", v.Content)
	}
}
