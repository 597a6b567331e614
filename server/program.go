package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/codebreakers/codebreakers/server/frame"
)

// runProgram runs the interactive UI for one PTY session until the player
// quits, the connection drops, or the server ends the session (idle,
// maximum time, shutdown), whose reason is then printed.
func (s *Server) runProgram(ctx context.Context, cancel context.CancelCauseFunc, sess ssh.Session, id Identity, start Start, box *resizeBox, env []string) int {
	pty, _, _ := sess.Pty()
	env = append(env, "TERM="+pty.Term)
	size := box.get()

	dog := s.newWatchdog(cancel)
	remote := connStateFrom(sess.Context()).ip
	limited := newInputLimiter(sess, s.cfg.InputPerSecond, s.cfg.InputBurst, func() {
		s.abuse("input flood", id.Account, remote, "input beyond the per-session rate is dropped")
	})
	limited.last = &dog.lastInput

	profile := ColourProfile(env)
	// The program is made after its model, so Send reaches it through p,
	// set before Run (the model only calls Send once it runs).
	var p *tea.Program
	model := s.cfg.App(Session{
		Identity: id,
		Width:    size.Width,
		Height:   size.Height,
		Start:    start,
		Context:  ctx,
		Environ:  env,
		Colours:  profile,
		SSH:      s.sshRun(true, ""),
		Send:     func(msg tea.Msg) { p.Send(msg) },
	})
	log := s.log.With("remote", remote, "account", id.Account)
	scr := frame.New(sess, frame.Options{
		Width: size.Width, Height: size.Height, Profile: profile,
		MinInterval:  time.Second / time.Duration(s.cfg.FPS),
		StallTimeout: s.cfg.StallTimeout,
		Colours:      s.colours,
		OnStall: func() {
			log.Warn("client stopped reading its screen; dropping the connection")
			cancel(errStalled)
			// Closing the connection is what frees a write blocked on it.
			if c, ok := sess.Context().Value(ssh.ContextKeyConn).(gossh.Conn); ok {
				_ = c.Close()
			}
		},
	})
	// Bubble Tea's own renderer is off: it would wake every session at its
	// frame rate, changed or not. The program runs frame.Hook around the
	// panic guard; the hook hands each view to the frame renderer, which
	// draws only when the view changes. Bubble Tea still starts a ticker
	// for its renderer (once a second at the least); quietStart stops it
	// as soon as the program runs. Options are built here rather than
	// with wish's MakeOptions, which would replace our filter.
	// Bubble Tea's input reader is off too: it builds a 131 KB key table
	// and runs two goroutines for every session. Input is metered, decoded
	// (keyScanner) and sent to the program by keyInput, which holds no
	// goroutine while the player is idle.
	guard := newGuard(model, log)
	quiet := &quietStart{Model: frame.NewHook(guard, scr)}
	p = tea.NewProgram(quiet,
		tea.WithContext(ctx),
		tea.WithInput(nil),
		tea.WithOutput(io.Discard),
		tea.WithoutRenderer(),
		tea.WithFPS(1),
		tea.WithEnvironment(env),
		tea.WithColorProfile(profile),
		tea.WithWindowSize(size.Width, size.Height),
		tea.WithoutSignalHandler(),
		tea.WithFilter(func(m tea.Model, msg tea.Msg) tea.Msg {
			if askTerminal(scr, msg) {
				return nil
			}
			return s.filterMsg(m, msg)
		}),
	)
	quiet.p = p

	dog.start(time.Now(), s.cfg.MaxSessionTime)
	defer dog.stop()
	// The program's input is detached when it ends, so that input typed
	// meanwhile waits for whoever reads next (a session carried to another
	// node) instead of vanishing into a program that has ended.
	keys := startKeyInput(limited, p.Send)
	box.follow(size, func(size termSize) { p.Send(tea.WindowSizeMsg{Width: size.Width, Height: size.Height}) })

	_, err := p.Run()
	box.stop()
	keys.detach()
	guard.release()
	delivered := scr.Close(screenCloseWait)
	if h, ok := handoffOf(model); ok && delivered && !guard.panicked && ctx.Err() == nil {
		code := s.splice(ctx, sess, id, h, box, limited.handle(), pty.Term, env)
		cancel(errEnded)
		return code
	}
	cause := context.Cause(ctx)
	cancel(errEnded)
	if !delivered {
		return 1 // the client is not reading: nothing more to say to it
	}
	if guard.panicked {
		writeLine(sess, "")
		writeLine(sess, sessionPanicText)
		return 1
	}
	if cause == errIdle || cause == errTooLong || cause == errShutdown || cause == errBanned {
		writeLine(sess, "")
		writeLine(sess, cause.Error())
		return 0
	}
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		s.log.Error("program ended with an error", "err", err)
		return 1
	}
	return 0
}

// quietStart is the model a session's program runs: the frame hook's,
// with an Init that stops Bubble Tea's renderer goroutine once the program
// has started it. That goroutine ticks at least once a second (WithFPS has
// no lower setting) to flush output that goes to io.Discard here, since
// the frame renderer draws instead: with 10,000 sessions held it was
// 10,000 wake-ups a second, 99 % of what an idle server's goroutines did,
// and a keypress arriving behind a bunch of them waited its turn for a
// core (BENCHMARKS.md, issue 20; TestIdleSessionsDoNotWake).
//
// ReleaseTerminal is Bubble Tea's way to stop it: it stops the renderer
// and the input reader (which is off here) and leaves the event loop
// running, as it does while another program has the terminal. Bubble Tea
// owns no terminal in a session, so releasing it loses nothing; nothing
// restores it (suspending is turned into resuming by filterMsg, and
// sessions exec nothing). The call waits half a second for an input
// reader that was never started, so it runs on a goroutine of its own,
// started from Init, which Bubble Tea calls after starting the ticker.
type quietStart struct {
	tea.Model
	p *tea.Program // set before the program runs
}

// Init stops Bubble Tea's renderer ticker, then runs the model's Init.
func (q *quietStart) Init() tea.Cmd {
	go func() { _ = q.p.ReleaseTerminal() }()
	return q.Model.Init()
}

// Update runs the model's Update and stays the program's model.
func (q *quietStart) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := q.Model.Update(msg)
	if next != nil {
		q.Model = next
	}
	return q, cmd
}

// screenCloseWait bounds how long a leaving session waits for its client
// to take the last frame.
const screenCloseWait = 5 * time.Second

// askTerminal sends the terminal the query a program asked for, and reports
// whether msg was one. Bubble Tea writes its queries through its own output,
// which is off here (the frame renderer draws instead), so without this a
// program's question would never reach the terminal. The answer comes back
// as input, which the key scanner decodes (a BackgroundColorMsg).
func askTerminal(scr *frame.Renderer, msg tea.Msg) bool {
	if msg == tea.RequestBackgroundColor() { // its type is Bubble Tea's own
		scr.Ask(ansi.RequestBackgroundColor)
		return true
	}
	return false
}

// filterMsg runs on every message before the model sees it. Window sizes
// can also arrive in-band from the client's input; clamp them like PTY
// sizes. Suspending makes no sense over SSH, so it resumes at once.
func (s *Server) filterMsg(_ tea.Model, msg tea.Msg) tea.Msg {
	switch m := msg.(type) {
	case tea.WindowSizeMsg:
		size := s.clampSize(uint32(max(m.Width, 0)), uint32(max(m.Height, 0)))
		return tea.WindowSizeMsg{Width: size.Width, Height: size.Height}
	case tea.SuspendMsg:
		return tea.ResumeMsg{}
	}
	return msg
}

// watchdog ends the session after IdleTimeout without input or after
// MaxSessionTime in total, whichever comes first. It is a timer, not a
// goroutine: it wakes when the earlier of the two is due, and sleeps on if
// input came meanwhile. It is one object with its state in fields (it
// was half a dozen closures and variables a session kept for as long as
// it lasted).
type watchdog struct {
	// lastInput is when the player last typed (UnixNano), set by the
	// input reader.
	lastInput atomic.Int64
	cancel    context.CancelCauseFunc
	idle      time.Duration

	mu       sync.Mutex // orders the timer's creation before its first check, and stop after it
	timer    *time.Timer
	deadline time.Time
	stopped  bool
}

// newWatchdog returns a watchdog for a session that ends with cancel,
// counting input from now. It runs once started.
func (s *Server) newWatchdog(cancel context.CancelCauseFunc) *watchdog {
	w := &watchdog{cancel: cancel, idle: s.cfg.IdleTimeout}
	w.lastInput.Store(time.Now().UnixNano())
	return w
}

// start arms the watchdog for a session that started at started and may
// last longest. The session calls stop when it ends.
func (w *watchdog) start(started time.Time, longest time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.deadline = started.Add(longest)
	w.timer = time.AfterFunc(w.due(time.Now()), w.check)
}

// stop disarms the watchdog for good.
func (w *watchdog) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	if w.timer != nil {
		w.timer.Stop()
	}
}

// idleAt is when the session counts as idle if no input comes first.
func (w *watchdog) idleAt() time.Time { return time.Unix(0, w.lastInput.Load()).Add(w.idle) }

// due is how long from now until the earlier of idleAt and the deadline.
func (w *watchdog) due(now time.Time) time.Duration {
	next := w.idleAt()
	if w.deadline.Before(next) {
		next = w.deadline
	}
	return next.Sub(now)
}

// check ends the session if it is idle or too long, else sleeps on.
func (w *watchdog) check() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	now := time.Now()
	switch {
	case !now.Before(w.deadline):
		w.cancel(errTooLong)
	case !now.Before(w.idleAt()):
		w.cancel(errIdle)
	default:
		w.timer.Reset(w.due(now))
	}
}

// writeLine writes one line, ignoring errors: the client may already be
// gone. A session with a PTY turns the newline into CRLF itself.
func writeLine(w io.Writer, line string) {
	_, _ = fmt.Fprintln(w, line)
}

// ColourProfile is what a client's terminal can show, from its environment
// (TERM, NO_COLOR, COLORTERM, ...). colorprofile reads any xterm* as 16
// colours, but terminfo names a monochrome variant with a -m or -mono
// suffix (xterm-mono, linux-m): such a terminal gets text
// decoration only, as with NO_COLOR, so colour never carries meaning there.
func ColourProfile(env []string) colorprofile.Profile {
	p := colorprofile.Env(env)
	term := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "TERM="); ok {
			term = v // the last one counts, as in colorprofile
		}
	}
	if (strings.HasSuffix(term, "-mono") || strings.HasSuffix(term, "-m")) && p > colorprofile.ASCII {
		p = colorprofile.ASCII
	}
	return p
}
