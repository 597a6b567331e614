package loadtest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"reflect"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	gossh "golang.org/x/crypto/ssh"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/internal/seen"
)

// Keys the generator types, as a terminal sends them.
const (
	keyEnter = "\r"
	keyEsc   = "\x1b"
	keyDown  = "\x1b[B"
	keyRight = "\x1b[C"
)

// errTimeout is returned when a screen did not show what was awaited in time.
var errTimeout = errors.New("timed out")

// client is one simulated player: its own key, its own SSH connection, one
// PTY session, and a terminal that interprets everything the server draws,
// so the generator reads screens the way a person would: a screen (the
// lean model, screen.go) or, with -vt-emulator, x/vt's whole emulator.
type client struct {
	name string
	conn *gossh.Client
	sess *gossh.Session
	in   io.WriteCloser
	done chan struct{} // closed when the output stream ends

	mu    sync.Mutex
	term  terminal
	watch *watch // what the reader is waiting to see, if anything
	// text is the screen as last rendered; stale says output arrived
	// since. Rendering a screen is the generator's biggest cost, so it is
	// done only when something asks and something changed.
	text  string
	stale bool
	// blind is set once the session only sits idle and has only the
	// arrival of output timed (watches with no condition): its output is
	// no longer fed to the terminal. Ten thousand emulators reading frames
	// were most of the generator's work, and their garbage its pauses.
	blind bool
	// titleBuf and lastTitle are titleRow's scratch row and the title it
	// read last (returned again, not rebuilt, while the row is unchanged).
	titleBuf  []byte
	lastTitle string
	// screenBuf is screenText's scratch screen.
	screenBuf []byte
}

// watch is a pending expectation: the reader checks every chunk of output
// against ok and reports the time it took to come true.
type watch struct {
	ok func(screen string) bool // nil: any output at all
	// title says ok reads only the screen's first row (the title bar),
	// which is far cheaper to read than the whole screen on every chunk.
	title bool
	start time.Time
	got   chan time.Duration // 1-buffered
}

// dialOptions say how to reach the target.
type dialOptions struct {
	addr    string
	timeout time.Duration
	w, h    int
	command string // "" opens the shell
	// vt reads the screen with x/vt's emulator instead of the lean
	// screen, to check a doubtful reading (-vt-emulator).
	vt bool
}

// terminal reads the server's output into a screen of text.
type terminal interface {
	io.Writer
	// appendRow appends row y's text (trailing spaces trimmed) to b.
	appendRow(b []byte, y int) []byte
	// rows is the screen's height.
	rows() int
}

// rows is the screen's height.
func (s *screen) rows() int { return s.h }

// vtTerminal is x/vt's emulator as a terminal.
type vtTerminal struct{ emu *vt.Emulator }

func (v vtTerminal) Write(p []byte) (int, error) { return v.emu.Write(p) } //nolint:wrapcheck // never fails

func (v vtTerminal) rows() int { return v.emu.Height() }

// appendRow appends row y's text to b: every cell's content, the blank
// halves of wide characters skipped, trailing spaces trimmed.
func (v vtTerminal) appendRow(b []byte, y int) []byte {
	start := len(b)
	for x := range v.emu.Width() {
		// uv.Line.String skips zero cells and writes every other cell's
		// content; a zero cell's content is empty, so appending every
		// content reads the same without comparing whole cells.
		if cell := v.emu.CellAt(x, y); cell != nil {
			b = append(b, cell.Content...)
		}
	}
	return append(b[:start], bytes.TrimRight(b[start:], " ")...)
}

// newSigner makes a fresh ed25519 key: every simulated player is a
// different account.
func newSigner() (gossh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate key: %w", err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return nil, fmt.Errorf("signer: %w", err)
	}
	return s, nil
}

// openClient connects with a new key, asks for a PTY of o.w×o.h and starts
// the shell (or o.command). It does not wait for the first screen.
func openClient(ctx context.Context, name string, o dialOptions) (*client, error) {
	signer, err := newSigner()
	if err != nil {
		return nil, err
	}
	d := net.Dialer{Timeout: o.timeout}
	nc, err := d.DialContext(ctx, "tcp", o.addr)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", o.addr, err)
	}
	_ = nc.SetDeadline(time.Now().Add(o.timeout)) // bounds the handshake
	cc, chans, reqs, err := gossh.NewClientConn(nc, o.addr, &gossh.ClientConfig{
		User:            name,
		Auth:            []gossh.AuthMethod{gossh.PublicKeys(signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), // loopback test target
		Timeout:         o.timeout,
	})
	if err != nil {
		_ = nc.Close()
		return nil, fmt.Errorf("handshake: %w", err)
	}
	_ = nc.SetDeadline(time.Time{})
	c := &client{name: name, conn: gossh.NewClient(cc, chans, reqs), done: make(chan struct{})}
	if o.vt {
		c.term = vtTerminal{newEmulator(o.w, o.h)}
	} else {
		c.term = newScreen(o.w, o.h)
	}
	if err := c.start(o); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

func (c *client) start(o dialOptions) error {
	sess, err := c.conn.NewSession()
	if err != nil {
		return fmt.Errorf("new session: %w", err)
	}
	c.sess = sess
	if c.in, err = sess.StdinPipe(); err != nil {
		return fmt.Errorf("stdin: %w", err)
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		return fmt.Errorf("stdout: %w", err)
	}
	if err := sess.RequestPty("xterm-256color", o.h, o.w, gossh.TerminalModes{}); err != nil {
		return fmt.Errorf("pty: %w", err)
	}
	if o.command == "" {
		err = sess.Shell()
	} else {
		err = sess.Start(o.command)
	}
	if err != nil {
		return fmt.Errorf("start: %w", err)
	}
	// The program queries the terminal; the emulator's replies go back as
	// input (the lean screen's are sent by read).
	if v, ok := c.term.(vtTerminal); ok {
		go func() { _, _ = io.Copy(c.in, v.emu) }()
	}
	go c.read(out)
	return nil
}

// read feeds the server's output into the terminal and settles any watch
// the moment its condition holds, stamping the arrival time.
func (c *client) read(out io.Reader) {
	defer close(c.done)
	buf := make([]byte, 32*1024)
	for {
		n, err := out.Read(buf)
		if n > 0 {
			now := time.Now()
			var replies []byte
			c.mu.Lock()
			if !c.blind {
				_, _ = c.term.Write(buf[:n])
				c.stale = true
				if s, ok := c.term.(*screen); ok {
					replies = s.takeReplies()
				}
			}
			if w := c.watch; w != nil && (w.ok == nil || w.ok(c.view(w.title))) {
				w.got <- now.Sub(w.start)
				c.watch = nil
			}
			c.mu.Unlock()
			if replies != nil {
				_, _ = c.in.Write(replies)
			}
		}
		if err != nil {
			return
		}
	}
}

// goBlind stops interpreting the session's output (see blind).
func (c *client) goBlind() {
	c.mu.Lock()
	c.blind = true
	c.mu.Unlock()
}

// screen is what the terminal shows now, one line per row.
func (c *client) screen() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.render()
}

// title is the screen's first row, the title bar.
func (c *client) title() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.view(true)
}

// render returns the screen text, rendering it only if it changed. The
// caller holds mu.
func (c *client) render() string {
	if c.stale || c.text == "" {
		c.text, c.stale = c.screenText(), false
	}
	return c.text
}

// screenText is the whole screen as text, what emu.String() reads (each
// row as uv.Line.String reads it, trailing spaces trimmed, rows joined by
// newlines), read row by row into a reused buffer: the emulator's own
// String copies and compares every cell's style, and was a sixth of the
// generator's work. The caller holds mu.
func (c *client) screenText() string {
	b := c.screenBuf[:0]
	for y := range c.term.rows() {
		if y > 0 {
			b = append(b, '\n')
		}
		b = c.term.appendRow(b, y)
	}
	c.screenBuf = b
	return string(b)
}

// view is the screen, or only its title row when title is set. The
// caller holds mu.
func (c *client) view(title bool) string {
	if !title {
		return c.render()
	}
	if !c.stale && c.text != "" {
		return seen.Title(c.text)
	}
	return c.titleRow()
}

// titleRow reads the terminal's first row as text, as uv.Line.String
// would (every cell's content, the blank halves of wide characters
// skipped) without the trailing spaces. It is read on every chunk of
// output while a watch on the title is armed, so it copies no cells and
// makes no string when the row reads as it did last time. The caller
// holds mu.
func (c *client) titleRow() string {
	b := c.term.appendRow(c.titleBuf[:0], 0)
	c.titleBuf = b
	if string(b) != c.lastTitle { // compared without a copy
		c.lastTitle = string(b)
	}
	return c.lastTitle
}

// send types keys.
func (c *client) send(keys ...string) error {
	for _, k := range keys {
		if _, err := io.WriteString(c.in, k); err != nil {
			return fmt.Errorf("%s: send: %w", c.name, err)
		}
	}
	return nil
}

// arm starts watching for ok (nil: any output) and returns the channel the
// elapsed time arrives on. If ok already holds, it fires at once with 0
// unless fresh is set, in which case only new output counts.
func (c *client) arm(ok func(string) bool, start time.Time, fresh bool) chan time.Duration {
	return c.armWatch(&watch{ok: ok, start: start, got: make(chan time.Duration, 1)}, fresh)
}

// armTitle is arm for a condition on the title row alone.
func (c *client) armTitle(ok func(title string) bool, start time.Time) chan time.Duration {
	return c.armWatch(&watch{ok: ok, title: true, start: start, got: make(chan time.Duration, 1)}, false)
}

func (c *client) armWatch(w *watch, fresh bool) chan time.Duration {
	ok := w.ok
	c.mu.Lock()
	defer c.mu.Unlock()
	if !fresh && ok != nil && ok(c.view(w.title)) {
		w.got <- 0
		return w.got
	}
	c.watch = w
	return w.got
}

// disarm drops a watch that timed out.
func (c *client) disarm() {
	c.mu.Lock()
	c.watch = nil
	c.mu.Unlock()
}

// await waits up to limit for a watch armed with arm.
func (c *client) await(ctx context.Context, got chan time.Duration, limit time.Duration) (time.Duration, error) {
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case d := <-got:
		return d, nil
	case <-c.done:
		c.disarm()
		return 0, fmt.Errorf("%s: connection closed", c.name)
	case <-t.C:
		c.disarm()
		return 0, fmt.Errorf("%s: %w", c.name, errTimeout)
	case <-ctx.Done():
		c.disarm()
		return 0, ctx.Err()
	}
}

// waitUntil waits until the screen satisfies ok.
func (c *client) waitUntil(ctx context.Context, what string, limit time.Duration, ok func(string) bool) (string, error) {
	if _, err := c.await(ctx, c.arm(ok, time.Now(), false), limit); err != nil {
		return "", fmt.Errorf("waiting for %s: %w", what, err)
	}
	return c.screen(), nil
}

// waitFor waits until the screen contains every one of subs.
func (c *client) waitFor(ctx context.Context, limit time.Duration, subs ...string) (string, error) {
	return c.waitUntil(ctx, strings.Join(subs, ", "), limit, func(s string) bool {
		for _, sub := range subs {
			if !strings.Contains(s, sub) {
				return false
			}
		}
		return true
	})
}

// emulatorDataSize bounds the string sequences (titles, OSC replies) an
// emulator gathers; the servers under test send short titles only.
const emulatorDataSize = 4 << 10

// newEmulator is vt.NewEmulator without the 4 MB buffer its parser keeps
// for string sequences: x/vt v0.1.0 gives every emulator one, which for
// ten thousand simulated players is 40 GB of heap in the generator, and
// no way to ask for less, so the parser's buffer is resized through its
// unexported field. If a later x/vt moves the field, the emulator keeps
// its buffer (TestEmulatorDropsItsBigBuffer says so).
func newEmulator(w, h int) *vt.Emulator {
	emu := vt.NewEmulator(w, h)
	if p := emulatorParser(emu); p != nil {
		p.SetDataSize(emulatorDataSize)
	}
	return emu
}

// emulatorParser is emu's ANSI parser, or nil if it cannot be found.
func emulatorParser(emu *vt.Emulator) *ansi.Parser {
	f := reflect.ValueOf(emu).Elem().FieldByName("parser")
	if !f.IsValid() || f.Type() != reflect.TypeFor[*ansi.Parser]() {
		return nil
	}
	return *(**ansi.Parser)(unsafe.Pointer(f.UnsafeAddr())) //nolint:gosec // a load generator's workaround, tested
}

// close ends the session and the connection.
func (c *client) close() {
	if c.sess != nil {
		_ = c.sess.Close()
	}
	_ = c.conn.Close()
	// The emulator is deliberately not closed: in x/vt v0.1.0 Close is not
	// synchronised with the Read that the reply copier is parked in (the race
	// detector flags it), and closing is the only thing that wakes that Read.
	// The copier stays parked on an empty pipe until the generator exits,
	// which bounds the cost to one small goroutine per session of the run.
}
