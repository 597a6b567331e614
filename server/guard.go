package server

import (
	"fmt"
	"log/slog"
	"runtime/debug"

	tea "charm.land/bubbletea/v2"
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
	defer func() {
		if r := recover(); r != nil {
			g.panicked = true
			g.report("view", r, string(debug.Stack()))
			v = tea.NewView(sessionPanicText)
		}
	}()
	return g.inner.View()
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
