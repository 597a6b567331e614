package tui

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"github.com/codebreakers/codebreakers/engine"
	bc "github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/lobby"
)

// TestRealProgramInVirtualTerminal runs the model in a real tea.Program
// drawing into a virtual 80×24 terminal, opens a 4-player board and checks
// what a player would see: the title on the first row, the keys on the
// last, nothing scrolled away.
func TestRealProgramInVirtualTerminal(t *testing.T) {
	st := dealt(t, 4, 8)
	log := playFew(t, st, 6)
	conn := newFakeConn(tableView(st, engine.SeatViewer(0), log, 1))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := newApp(Deps{Games: registry()}, &fakeHub{conn: conn}, Session{
		Identity: lobby.Identity{Account: "SHA256:vt", Handle: "mara"}, Width: 80, Height: 24, Context: ctx,
	})

	term, stop := runInVT(ctx, t, m)
	defer stop()
	term.screen("Quick play")
	term.program.Send(keyMsg("enter")) // quick play…
	term.program.Send(keyMsg("enter")) // …with the bots offered first
	rows := term.screen("(deck:")
	if len(rows) < 24 || !strings.Contains(rows[0], "BREAK THE CODE") || !strings.Contains(rows[23], "help") {
		t.Fatalf("title or key bar misplaced:\n%s", strings.Join(rows, "\n"))
	}
	for _, want := range []string{"You (mara)", "Centre", "Log"} {
		if !strings.Contains(strings.Join(rows, "\n"), want) {
			t.Errorf("board lacks %q", want)
		}
	}
}

// vtRun is a real tea.Program drawing into a virtual 80×24 terminal.
type vtRun struct {
	t       *testing.T
	program *tea.Program
	emu     *vt.SafeEmulator
}

// runInVT runs m in a real program drawing into a virtual 80×24 terminal,
// with no input but what the test sends; stop quits it and waits for it.
func runInVT(ctx context.Context, t *testing.T, m tea.Model) (*vtRun, func()) {
	t.Helper()
	emu := vt.NewSafeEmulator(80, 24)
	go func() { // answer nothing, but never let the emulator's replies block
		buf := make([]byte, 256)
		for {
			if _, err := emu.Read(buf); err != nil {
				return
			}
		}
	}()
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(nil), tea.WithOutput(onlcr{emu}),
		tea.WithWindowSize(80, 24), tea.WithoutSignalHandler(), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	return &vtRun{t: t, program: p, emu: emu}, func() {
		p.Quit()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("program did not stop")
		}
	}
}

// screen waits until the terminal shows want, and returns its rows.
func (r *vtRun) screen(want string) []string {
	r.t.Helper()
	rows := func() []string { return strings.Split(ansi.Strip(r.emu.Render()), "\n") }
	// Bounded wait for the frame to land; not a speed check.
	for range 500 {
		if s := rows(); strings.Contains(strings.Join(s, "\n"), want) {
			return s
		}
		time.Sleep(20 * time.Millisecond)
	}
	r.t.Fatalf("screen never showed %q:\n%s", want, strings.Join(rows(), "\n"))
	return nil
}

// onlcr does what a PTY's output processing does: without a TTY for input
// the renderer writes bare newlines and relies on the terminal driver to
// return the carriage; the emulator alone would not.
type onlcr struct{ w io.Writer }

func (o onlcr) Write(p []byte) (int, error) {
	if _, err := o.w.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// TestNoColorStillReadable runs the program under NO_COLOR: the output has
// no colour at all, yet tiles keep their letters and their looks (black
// inverted, white bold), so the board reads the same in monochrome.
func TestNoColorStillReadable(t *testing.T) {
	st := dealt(t, 2, 8)
	conn := newFakeConn(tableView(st, engine.SeatViewer(0), nil, 1))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := newApp(Deps{Games: registry()}, &fakeHub{conn: conn}, Session{
		Identity: lobby.Identity{Account: "SHA256:vt", Handle: "mara"}, Width: 80, Height: 24, Context: ctx,
	})
	env := []string{"TERM=xterm-256color", "NO_COLOR=1"}
	var raw lockedBuffer
	emu := vt.NewSafeEmulator(80, 24)
	go func() {
		buf := make([]byte, 256)
		for {
			if _, err := emu.Read(buf); err != nil {
				return
			}
		}
	}()
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(nil), tea.WithOutput(io.MultiWriter(&raw, onlcr{emu})),
		tea.WithWindowSize(80, 24), tea.WithoutSignalHandler(), tea.WithEnvironment(env),
		tea.WithColorProfile(colorprofile.Env(env)))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	p.Send(keyMsg("enter")) // quick play…
	p.Send(keyMsg("enter")) // …with the bots offered first
	drawn := false
	for i := 0; i < 500 && !drawn; i++ {
		if drawn = strings.Contains(ansi.Strip(emu.Render()), "(deck:"); !drawn {
			time.Sleep(20 * time.Millisecond) // bounded wait for the frame; not a speed check
		}
	}
	screen := ansi.Strip(emu.Render())
	p.Quit()
	<-done
	out := raw.String()
	if !drawn {
		t.Fatalf("board never drawn:\n%s", screen)
	}
	for _, seq := range strings.Split(out, "\x1b")[1:] {
		if isColourSGR(seq) {
			t.Fatalf("colour sent under NO_COLOR: %q", seq[:min(len(seq), 20)])
		}
	}
	// Without colour every tile still says its colour by its letter: the
	// player's five tiles are on the screen as "3b", "7w", "5g".
	for _, tile := range st.View(engine.SeatViewer(0)).(bc.View).Hand {
		if !strings.Contains(screen, tile.String()) {
			t.Errorf("tile %s is not on the screen under NO_COLOR:\n%s", tile, screen)
		}
	}
}

// isColourSGR reports whether an escape sequence (after ESC) is an SGR that
// sets a foreground or background colour.
func isColourSGR(seq string) bool {
	if !strings.HasPrefix(seq, "[") {
		return false
	}
	params, _, ok := strings.Cut(seq[1:], "m")
	if !ok || strings.ContainsAny(params, "?>HJKABCDfhlrtsu") {
		return false
	}
	for _, p := range strings.Split(params, ";") {
		if n, err := strconv.Atoi(p); err == nil && ((n >= 30 && n <= 38) || (n >= 40 && n <= 48) || (n >= 90 && n <= 107)) {
			return true
		}
	}
	return false
}

// lockedBuffer is a bytes.Buffer safe for the renderer's goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
