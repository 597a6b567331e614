package server

import (
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/server/frame"
)

// panicMsg carries a panic caught in one of the session's commands back to
// the guard, which ends the session.
type panicMsg struct{ value any }

// guardModel wraps a session's model so that a panic in it (Init, Update,
// View, or a command it returns) ends only that session, is logged with its
// stack, and leaves the player a plain apology instead of a trace.
// Bubble Tea's own catch would also keep the server alive, but it prints the
// trace to the process's stderr and nothing to the structured log.
type guardModel struct {
	inner    tea.Model
	log      *slog.Logger
	panicked bool
}

// sessionPanicText is what the player reads after a panic ended the session.
const sessionPanicText = "Something went wrong on our side and it has been logged. Sorry! Reconnect to carry on; your seat is kept for a while."

func newGuard(m tea.Model, log *slog.Logger) *guardModel {
	return &guardModel{inner: m, log: log}
}

// Init runs the inner Init under the guard.
func (g *guardModel) Init() (cmd tea.Cmd) {
	defer g.recover("init", &cmd)
	return g.wrap(g.inner.Init())
}

// Update runs the inner Update under the guard and wraps the commands it
// returns.
func (g *guardModel) Update(msg tea.Msg) (self tea.Model, cmd tea.Cmd) {
	self = g // also when the inner Update panics
	if _, ok := msg.(panicMsg); ok {
		g.panicked = true // already logged by the command, with its stack
		return g, tea.Quit
	}
	if g.panicked {
		return g, nil
	}
	defer g.recover("update", &cmd)
	next, c := g.inner.Update(msg)
	if next != nil {
		g.inner = next
	}
	return g, g.wrap(c)
}

// View is the inner view, or the apology once a panic has happened.
func (g *guardModel) View() (v tea.View) {
	if g.panicked {
		return tea.NewView(sessionPanicText)
	}
	defer g.recoverView(func() { v = tea.NewView(sessionPanicText) })
	return g.inner.View()
}

// ViewLines is the inner view as lines (frame.LineViewer), under the
// guard as View is. An inner model that has no lines has its view's
// content cut into lines.
func (g *guardModel) ViewLines() (v tea.View, lines []string) {
	if g.panicked {
		return tea.View{}, []string{sessionPanicText}
	}
	defer g.recoverView(func() { v, lines = tea.View{}, []string{sessionPanicText} })
	if m, ok := g.inner.(frame.LineViewer); ok {
		return m.ViewLines()
	}
	v = g.inner.View()
	return v, strings.Split(v.Content, "\n")
}

// recoverView, deferred, turns a panic in drawing the view into a logged,
// quitting session, and apologise into the view drawn instead.
func (g *guardModel) recoverView(apologise func()) {
	if r := recover(); r != nil {
		g.panicked = true
		g.report("view", r, string(debug.Stack()))
		apologise()
	}
}

// release lets the inner model give back what it holds (a table seat),
// once the program has ended. Models that hold nothing need not say so.
func (g *guardModel) release() {
	c, ok := g.inner.(interface{ Close() })
	if !ok {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			g.report("close", r, string(debug.Stack()))
		}
	}()
	c.Close()
}

// recover turns a panic in Init or Update into a logged, quitting session.
func (g *guardModel) recover(where string, cmd *tea.Cmd) {
	if r := recover(); r != nil {
		g.panicked = true
		g.report(where, r, string(debug.Stack()))
		*cmd = tea.Quit
	}
}

func (g *guardModel) report(where string, value any, stack string) {
	g.panicked = true
	g.log.Error("panic in session", "in", where, "panic", fmt.Sprint(value), "stack", stack)
}

// wrap makes a command report its panic as a message instead of taking the
// program down.
func (g *guardModel) wrap(cmd tea.Cmd) tea.Cmd { return guardCmd(cmd, g.log) }

// guardCmd wraps one command; it runs on its own goroutine, so it touches
// no guard state and logs the panic itself, where the stack is. Batches are
// wrapped member by member. (Sequences are opaque; Bubble Tea's own catch
// still keeps the server up for those.)
func guardCmd(cmd tea.Cmd, log *slog.Logger) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				log.Error("panic in session", "in", "command", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				msg = panicMsg{value: r}
			}
		}()
		msg = cmd()
		if batch, ok := msg.(tea.BatchMsg); ok {
			wrapped := make(tea.BatchMsg, len(batch))
			for i, c := range batch {
				wrapped[i] = guardCmd(c, log)
			}
			return wrapped
		}
		return msg
	}
}
