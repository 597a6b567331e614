package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// bubbleTeaKeys is what Bubble Tea's own input reader (ultraviolet's
// TerminalReader) makes of in, read at once and followed by the end of
// input: the key presses and pastes, as the program would see them.
func bubbleTeaKeys(t *testing.T, in []byte) []tea.Msg {
	t.Helper()
	r := uv.NewTerminalReader(bytes.NewReader(in), "xterm-256color")
	events := make(chan uv.Event, 4096)
	if err := r.StreamEvents(context.Background(), events); err != nil {
		t.Fatalf("ultraviolet reading %q: %v", in, err)
	}
	close(events)
	var msgs []tea.Msg
	for ev := range events {
		switch ev := ev.(type) {
		case uv.KeyPressEvent:
			msgs = append(msgs, tea.KeyPressMsg(ev))
		case uv.PasteEvent:
			msgs = append(msgs, tea.PasteMsg(ev))
		}
	}
	return msgs
}

// scanAll is what keyScanner makes of in, read at once and followed by the
// end of input.
func scanAll(in []byte) []tea.Msg {
	var s keyScanner
	n, msgs := s.scan(in, false)
	_, rest := s.scan(in[n:], true)
	return append(msgs, rest...)
}

// uvKeyTable lists the sequences of the key table that ultraviolet builds
// for every reader (read by reflection: it is unexported).
func uvKeyTable(t *testing.T) []string {
	t.Helper()
	f := reflect.ValueOf(uv.NewTerminalReader(nil, "xterm-256color")).Elem().FieldByName("table")
	if !f.IsValid() || f.Kind() != reflect.Map {
		t.Skip("ultraviolet's TerminalReader no longer has its key table; compare with its reader another way")
	}
	seqs := make([]string, 0, f.Len())
	for _, k := range f.MapKeys() {
		seqs = append(seqs, k.String())
	}
	sort.Strings(seqs)
	return seqs
}

// TestKeyScannerMatchesBubbleTea checks that sessions read keys exactly as
// Bubble Tea's reader would: every sequence in ultraviolet's key table, and
// typing, pastes, Alt, Ctrl and modified keys in one go.
func TestKeyScannerMatchesBubbleTea(t *testing.T) {
	seqs := uvKeyTable(t)
	if len(seqs) < 1000 {
		t.Fatalf("ultraviolet's key table has %d sequences; expected over a thousand", len(seqs))
	}
	seqs = append(seqs,
		"hello, world", "全角 and é", "\x1b[200~pasted\ttext\r\nline two\x1b[201~",
		"\x1b[200~\x1b[A inside a paste\x1b[201~", "a\x1b[Ab\x1bOBc\x1b[1;5Cd", "\x1bx\x1b\x7f",
		"\x1b[97;5u", "\x1b[27;5;13~", "\x7f\x08\t\r\x00", "\x1b[3~\x1b[5;2~",
	)
	for _, seq := range seqs {
		want := bubbleTeaKeys(t, []byte(seq))
		got := scanAll([]byte(seq))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: read as %v, Bubble Tea reads %v", seq, got, want)
		}
	}
}

// TestKeyScannerWaitsForTheRestOfASequence: an escape sequence split
// across reads is one key; a lone ESC is the Esc key only once the wait
// for more has expired.
func TestKeyScannerWaitsForTheRestOfASequence(t *testing.T) {
	var s keyScanner
	if n, msgs := s.scan([]byte("ab\x1b"), false); n != 2 || len(msgs) != 2 {
		t.Fatalf("\"ab\\x1b\": consumed %d, %v; want the two letters and ESC kept", n, msgs)
	}
	if n, msgs := s.scan([]byte("\x1b["), false); n != 0 || len(msgs) != 0 {
		t.Fatalf("half a CSI: consumed %d, %v; want it kept", n, msgs)
	}
	if n, msgs := s.scan([]byte("\x1b[A"), false); n != 3 || len(msgs) != 1 || msgs[0].(tea.KeyPressMsg).String() != "up" {
		t.Fatalf("the CSI completed: consumed %d, %v; want up", n, msgs)
	}
	if n, msgs := s.scan([]byte("\x1b"), true); n != 1 || len(msgs) != 1 || msgs[0].(tea.KeyPressMsg).String() != "esc" {
		t.Fatalf("a lone ESC once expired: consumed %d, %v; want esc", n, msgs)
	}
	// A paste split anywhere arrives whole.
	paste := []byte("\x1b[200~one two\x1b[201~")
	for cut := 1; cut < len(paste); cut++ {
		var s keyScanner
		n, first := s.scan(paste[:cut], false)
		buf := append(slices.Clone(paste[n:cut]), paste[cut:]...)
		_, rest := s.scan(buf, false)
		msgs := append(first, rest...)
		if len(msgs) != 1 || msgs[0] != (tea.PasteMsg{Content: "one two"}) {
			t.Errorf("paste cut at %d: %v", cut, msgs)
		}
	}
}

// TestKeyScannerDropsUnaskedReplies: the server asks the terminal only for
// its background colour, so other replies and reports a client sends
// anyway never reach the program.
func TestKeyScannerDropsUnaskedReplies(t *testing.T) {
	for _, seq := range []string{
		"\x1b[12;40R",                    // cursor position report
		"\x1b[?2026;2$y",                 // mode report
		"\x1b]10;rgb:0000/0000/0000\x07", // foreground colour
		"\x1b]11;nonsense\x07",           // a background that is no colour
		"\x1b[I", "\x1b[O",               // focus
		"\x1b[<0;10;5M",      // SGR mouse
		"\x1b[8;24;80t",      // in-band window size
		"\x1bP>|xterm\x1b\\", // terminal version
	} {
		if msgs := scanAll([]byte(seq)); len(msgs) != 0 {
			t.Errorf("%q reached the program as %v", seq, msgs)
		}
	}
}

// TestKeyScannerReadsTheBackgroundColour: the terminal's answer to the
// background query reaches the program as Bubble Tea's BackgroundColorMsg,
// ended by BEL or ST, split anywhere, and keys around it still arrive.
func TestKeyScannerReadsTheBackgroundColour(t *testing.T) {
	for _, tc := range []struct {
		reply string
		dark  bool
	}{
		{"\x1b]11;rgb:ffff/ffff/ffff\x07", false},
		{"\x1b]11;rgb:fdfd/f6f6/e3e3\x1b\\", false}, // solarized light, ended by ST
		{"\x1b]11;rgb:0000/0000/0000\x07", true},
		{"\x1b]11;rgb:2828/2c2c/3434\x1b\\", true},
	} {
		in := []byte("a" + tc.reply + "b")
		for cut := 1; cut < len(in); cut++ {
			var s keyScanner
			n, first := s.scan(in[:cut], false)
			buf := append(slices.Clone(in[n:cut]), in[cut:]...)
			m, rest := s.scan(buf, false)
			msgs := append(first, rest...)
			if m != len(buf) || len(msgs) != 3 {
				t.Fatalf("%q cut at %d: consumed %d of %d, %v", in, cut, m, len(buf), msgs)
			}
			bg, ok := msgs[1].(tea.BackgroundColorMsg)
			if !ok || bg.IsDark() != tc.dark {
				t.Fatalf("%q cut at %d: %v; want a background that is dark=%v", in, cut, msgs, tc.dark)
			}
			if msgs[0].(tea.KeyPressMsg).String() != "a" || msgs[2].(tea.KeyPressMsg).String() != "b" {
				t.Fatalf("%q cut at %d: keys around the reply were %v", in, cut, msgs)
			}
		}
	}
}

// TestSessionAsksTheTerminalItsBackground: a program that asks for the
// background colour gets its query written to the terminal, and the
// terminal's answer back as a BackgroundColorMsg; a terminal that never
// answers leaves the program without one (it keeps its default).
func TestSessionAsksTheTerminalItsBackground(t *testing.T) {
	ts := startServer(t, nil)
	ts.app.askBackground = true // before any session starts
	c := dial(t, ts.addr, withKey(newKey(t)))

	_, out, in := ptySession(t, c, 80, 24)
	waitFor(t, "the background query", func() bool { return contains(out.String(), "\x1b]11;?") })
	if contains(out.String(), "background=") {
		t.Fatal("the program had a background before the terminal answered")
	}
	if _, err := in.Write([]byte("\x1b]11;rgb:ffff/ffff/ffff\x1b\\")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the light background to reach the program", func() bool { return contains(out.String(), "background=light") })

	// A terminal that does not answer: the program runs on, keys work.
	_, out2, in2 := ptySession(t, c, 80, 24)
	waitFor(t, "the background query", func() bool { return contains(out2.String(), "\x1b]11;?") })
	if _, err := in2.Write([]byte("x")); err != nil { // no quit key: redraws nothing, reads on
		t.Fatal(err)
	}
	if _, err := in2.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the session to end on q", func() bool { return contains(out2.String(), "\x1b[?1049l") })
	if contains(out2.String(), "background=") {
		t.Errorf("a terminal that never answered gave the program a background: %q", out2.String())
	}
}

// collector gathers the messages keyInput sends.
type collector struct{ msgs chan tea.Msg }

func (c collector) send(m tea.Msg) { c.msgs <- m }

func (c collector) next(t *testing.T) tea.Msg {
	t.Helper()
	select {
	case m := <-c.msgs:
		return m
	case <-time.After(waitLimit):
		t.Fatal("no message reached the program")
		return nil
	}
}

// TestKeyInputKeepsNoGoroutineWhileIdle: keys reach the program, a lone
// ESC arrives once its wait is over, and between keys no goroutine of the
// session's input is left but the one reading the connection.
func TestKeyInputKeepsNoGoroutineWhileIdle(t *testing.T) {
	pr, pw := io.Pipe()
	lim := newInputLimiter(pr, 1<<20, 1<<20, nil)
	var last atomic.Int64
	lim.last = &last
	c := collector{msgs: make(chan tea.Msg, 16)}
	k := startKeyInput(lim, c.send)
	k.mu.Lock()
	k.escWait = 5 * time.Millisecond
	k.mu.Unlock()
	defer k.detach()
	defer pw.Close()

	idle := func() bool {
		k.mu.Lock()
		defer k.mu.Unlock()
		return !k.running
	}
	for _, step := range []struct{ in, want string }{
		{"a", "a"},
		{"\x1b[B", "down"},
		{"\x1b", "esc"},          // delivered by the escape timer
		{"\x1bO", "alt+shift+o"}, // ESC and one byte wait too
	} {
		if _, err := pw.Write([]byte(step.in)); err != nil {
			t.Fatal(err)
		}
		if got := c.next(t); fmt.Sprint(got) != step.want {
			t.Errorf("%q reached the program as %v, want %s", step.in, got, step.want)
		}
		waitFor(t, "the delivery goroutine to leave", idle)
	}
	if last.Load() == 0 {
		t.Error("input did not count as activity")
	}
	select {
	case m := <-c.msgs:
		t.Errorf("unexpected message %v", m)
	default:
	}
}

// TestSessionInputBuildsNoKeyTable bounds what a session's input costs to
// start and to read a key: Bubble Tea's reader built a 131 KB key table for
// every session.
func TestSessionInputBuildsNoKeyTable(t *testing.T) {
	const sessions = 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var writers []*io.PipeWriter
	var inputs []*keyInput
	c := collector{msgs: make(chan tea.Msg, sessions)}
	for range sessions {
		pr, pw := io.Pipe()
		writers = append(writers, pw)
		inputs = append(inputs, startKeyInput(newInputLimiter(pr, 1024, 4096, nil), c.send))
	}
	for _, w := range writers {
		if _, err := w.Write([]byte("\x1b[A")); err != nil {
			t.Fatal(err)
		}
	}
	for range sessions {
		c.next(t)
	}
	runtime.ReadMemStats(&after)
	perSession := (after.TotalAlloc - before.TotalAlloc) / sessions
	t.Logf("%d bytes allocated per session to start its input and read a key", perSession)
	if perSession > 16<<10 {
		t.Errorf("a session's input allocated %d bytes to start and read one key; want under 16 KiB", perSession)
	}
	for i, w := range writers {
		_ = w.Close()
		inputs[i].detach()
	}
}

// TestKeysReachTheProgramOverSSH: keys typed over SSH reach the program.
func TestKeysReachTheProgramOverSSH(t *testing.T) {
	ts := startServer(t, nil)
	c := dial(t, ts.addr, withKey(newKey(t)))
	sess, out, in := ptySession(t, c, 80, 24)
	waitFor(t, "first frame", func() bool { return contains(out.String(), "READY 80x24") })
	// "q" quits the test model: the key went through the limiter, the
	// scanner and the program.
	if _, err := in.Write([]byte("\x1b[Aq")); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("session ended with %v", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("q did not end the session")
	}
	if strings.Contains(out.String(), "went wrong") {
		t.Errorf("the session failed: %q", out.String())
	}
}

// connGoroutines counts the goroutines labelled as serving connections.
func connGoroutines(t *testing.T) (int, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 1); err != nil {
		t.Fatal(err)
	}
	label := fmt.Sprintf("%q:%q", connGoroutineLabel, "conn")
	total, count := 0, 0
	for _, line := range strings.Split(buf.String(), "\n") {
		if n, _, ok := strings.Cut(line, " @ "); ok {
			count, _ = strconv.Atoi(n)
			continue
		}
		if strings.HasPrefix(line, "# labels:") && strings.Contains(line, label) {
			total += count
		}
	}
	return total, buf.String()
}

// TestIdleSessionsHoldFewGoroutines counts what an idle interactive
// session keeps on the server: the SSH libraries' five per connection,
// the channel handler answering the session's requests, its input pump,
// its program's event loop and command runner. Bubble Tea's input reader
// (two), the resize forwarder, the idle watchdog and the screen writer
// held five more before, Bubble Tea's renderer ticker one (quietStart
// stops it), and a request filter one beside the default handler's loop
// (the filter now ends that loop at shell); they now exist only while
// they have work. (With the arcade's own UI, TestGoroutinesPerSession in
// cmd/codebreakers counts the same, at home and seated.)
func TestIdleSessionsHoldFewGoroutines(t *testing.T) {
	const sessions = 8
	ts := startServer(t, func(c *Config) { c.MaxSessionsPerIP = sessions })
	for i := range sessions {
		c := dial(t, ts.addr, withKey(newKey(t)))
		sess, out, in := ptySession(t, c, 80, 24)
		waitFor(t, "first frame", func() bool { return contains(out.String(), "READY 80x24") })
		_, _ = in.Write([]byte("\x1b[A")) // a key, so the input path has run
		if i == 0 {
			_ = sess.WindowChange(30, 100) // and a resize
			waitFor(t, "the resize", func() bool { return contains(out.String(), "READY 100x30") })
		}
	}
	const want = 9
	limit := want*sessions + 1 // and the accept loop
	var n int
	var dump string
	deadline := time.Now().Add(waitLimit)
	for {
		n, dump = connGoroutines(t)
		if n <= limit || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("%d sessions hold %d goroutines (%.1f each)", sessions, n-1, float64(n-1)/sessions)
	if n > limit {
		t.Errorf("%d idle sessions hold %d goroutines, want at most %d each\n%s", sessions, n, want, dump)
	}
}

// TestDetachedInputWaitsForTheNextReader: once the program has ended, what
// the player types is left for whoever reads next (a session carried to
// another node), not decoded for a program that is gone.
func TestDetachedInputWaitsForTheNextReader(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	lim := newInputLimiter(pr, 1<<20, 1<<20, nil)
	c := collector{msgs: make(chan tea.Msg, 16)}
	k := startKeyInput(lim, c.send)
	if _, err := pw.Write([]byte("a")); err != nil {
		t.Fatal(err)
	}
	if got := c.next(t); fmt.Sprint(got) != "a" {
		t.Fatalf("got %v, want a", got)
	}
	k.detach()
	if _, err := pw.Write([]byte("later")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	n, err := lim.handle().Read(buf)
	if err != nil || string(buf[:n]) != "later" {
		t.Errorf("the next reader got %q, %v; want \"later\"", buf[:n], err)
	}
	select {
	case m := <-c.msgs:
		t.Errorf("the ended program was sent %v", m)
	default:
	}
}
