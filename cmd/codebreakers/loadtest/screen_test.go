package loadtest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// emulatorText is the emulator's screen as the client read it before the
// lean screen: each row's cell contents, trailing spaces trimmed.
func emulatorText(emu *vt.Emulator) string {
	var b []byte
	for y := range emu.Height() {
		if y > 0 {
			b = append(b, '\n')
		}
		start := len(b)
		for x := range emu.Width() {
			if c := emu.CellAt(x, y); c != nil {
				b = append(b, c.Content...)
			}
		}
		b = append(b[:start], bytes.TrimRight(b[start:], " ")...)
	}
	return string(b)
}

// oracle is the emulator the screen is compared with. Its answer to the
// colour query would block its Write until read; the answer is compared
// on its own (TestScreenAnswersTheColourQuery), so here it is not made.
func oracle(w, h int) *vt.Emulator {
	emu := newEmulator(w, h)
	none := func([]byte) bool { return true }
	for _, cmd := range []int{10, 11, 12} {
		emu.RegisterOscHandler(cmd, none)
	}
	// Nor the answers to the other queries, which the server never asks
	// but fuzzing does: reports of the device, the cursor and modes.
	noneCsi := func(ansi.Params) bool { return true }
	for _, cmd := range []int{'c', ansi.Command('>', 0, 'c'), 'n', ansi.Command('?', 0, 'n'), ansi.Command(0, '$', 'p'), ansi.Command('?', '$', 'p')} {
		emu.RegisterCsiHandler(cmd, noneCsi)
	}
	return emu
}

// compareChunks feeds stream to a fresh emulator and a fresh screen of
// w×h, cut at the given offsets (increasing), and reports the first chunk
// after which their text or cursor differ.
func compareChunks(t testing.TB, what string, w, h int, stream []byte, cuts []int) {
	t.Helper()
	emu, s := oracle(w, h), newScreen(w, h)
	from := 0
	for i := 0; i <= len(cuts); i++ {
		to := len(stream)
		if i < len(cuts) {
			to = cuts[i]
		}
		chunk := stream[from:to]
		_, _ = emu.Write(chunk)
		_, _ = s.Write(chunk)
		want, got := emulatorText(emu), s.String()
		ex, ey := emu.CursorPosition().X, emu.CursorPosition().Y
		gx, gy := s.cursorPosition()
		if got != want || ex != gx || ey != gy {
			t.Fatalf("%s (%d×%d): after bytes %d..%d (%q), screen reads\n%s\ncursor %d,%d; the emulator's\n%s\ncursor %d,%d",
				what, w, h, from, to, tail(stream[:to], 60), got, gx, gy, want, ex, ey)
		}
		from = to
	}
}

// tail is the last n bytes of b.
func tail(b []byte, n int) []byte { return b[max(0, len(b)-n):] }

// edgeCases are streams of what the server sends, arranged at the places
// where a screen model goes wrong: the last column, the pending wrap,
// wide characters cut by the edge or overwritten by halves, clusters split
// by a write, cursor moves past the edges, the screens' switch.
func edgeCases(w int) []string {
	full := strings.Repeat("x", w)
	return []string{
		"",
		"hello\r\nworld",
		full + "y",                            // wraps to the next row
		full + "\x1b[Ky",                      // EL 0 ends the pending wrap
		full + "\x1b[2Ky",                     // EL 2 keeps it
		full + "\x1b[1Ky",                     // EL 1 too
		full + "\x1b[Xy",                      // ECH ends it
		full + "\r\nz",                        // CR LF after it
		full + "\x1b[5;1Hy",                   // a move ends it
		full + "\x1b[Ay\x1b[Bz\x1b[Cq\x1b[Dr", // relative moves
		full + "\x1b7\x1b[3;3Ha\x1b8b",        // DECSC/DECRC keep it
		full + "\bq",
		strings.Repeat("x", w-1) + "漢a",    // a wide character at the last column
		strings.Repeat("x", w-2) + "漢a",    // a wide character in the last two
		strings.Repeat("x", w-2) + "漢\r\n", // …then a new line
		"漢字\x1b[1;2Hx",                     // a wide character's second half overwritten
		"漢字\x1b[1;1Hx",                     // its first half
		"漢字\x1b[1;2H\x1b[K",                // erased from its second half
		"漢字\x1b[1;3H\x1b[1K",               // erased up to the first half of the next
		"漢字ab\x1b[1;2H\x1b[2X",             // ECH over halves
		"e\u0301 a\u0308b",                 // combining marks
		"\u0301start",                      // a mark with nothing to join
		"👍🏽 🇫🇷 👨‍👩‍👧 ✓ ◆ ○ │ ‹ › ▸ ·", // clusters and the board's glyphs
		"\x1b[99;99Hend\x1b[0;0Hhome\x1b[H\x1b[200Cright\x1b[200Bdown\x1b[200Aup\x1b[200Dleft",
		"\x1b[3;5Hab\x1b[Jx\x1b[2;2H\x1b[1Jy", // ED 0 and 1
		"abc\x1b[2Jdef",
		"\x1b[5Gg\x1b[3dd\x1b[7`h\x1b[2Ee\x1b[Ff", // CHA, VPA, HPA, CNL, CPL
		"\x1b[2;3fhvp\x1b[0Aup0\x1b[3a\x1b[2eR\x1b[99a\x1b[99eE",
		"one\r\ntwo\r\nthree" + full + "\x1b[S\x1bM4\x1b[2T5\x1b[0S6\x1b[99S7",
		"top\x1b[" + strconv.Itoa(100) + ";1H\n\n\nscrolled\r\nmore\x1bMrev\x1bDind",
		"\x1b[Hrev\x1bM\x1bMx",
		"main\x1b[?1049hALT\x1b[2;2Hscreen\x1b[?1049lback",
		"main\x1b[?1049h\x1b[?1049hALT\x1b[?1049l\x1b[?1049l",
		"main\x1b[?1047hALT\x1b[?1047lmain2\x1b[?1048h\x1b[5;5H\x1b[?1048lrestored",
		"abc\x1bcafter reset",
		"\x1b[?1049hALT\x1bcafter reset",
		"\x1b[?7l" + full + "abc\x1b[?7h" + full + "abc",
		"\x1b[20hLNM\nnext\x1b[20l\nplain",
		"\x1b]2;a title \x1b[31m not text\x07\x1b]0;t\x1b\\after\x1b]11;?\x07\x1bP1$r\x1b\\\x1b_apc\x1b\\x",
		"\x1b[1;38;2;10;20;30;48;5;200;4:3mstyled\x1b[m \x1b[?25l\x1b[?2004h\x1b[?1000;1006h\x1b[>1u\x1b[=1;1u",
		"\x1b[?1049h\x1b[?25l\x1b[?2004h\x1b[H\x1b[2J\x1b]2;Codebreakers\a\x1b[1;1H\x1b[1;7m Codebreakers \x1b[m\x1b[K\x1b[2;1Hline two\x1b[m\x1b[K",
		"nul\x00here\x07bel\x7fdel",
		"a\x1b[1\n2Hb\x1b[3\x18c", // controls inside a sequence, CAN
		"\xe6\xbc\xa2\xff\xfe\xc3(\xe2\x82x",
		// Runs of characters whose split into cells the screen remembers:
		// the same run again (after a reset too), marks joining it.
		"◆○│ ◆○│\r\n◆○│\x1bc◆○│e\u0301 e\u0301\x1b[?1049h◆○│",
		strings.Repeat("─", 2*w) + "\x1b[H" + strings.Repeat("─", 2*w),      // a run too long to remember
		"\ufffd\u0085\u00a0\xe0\x80\x80\xf4\x90\x80\x80\xc0\xaf|\U0010ffff", // U+FFFD, C1 as UTF-8, overlong, out of range
		"\x1b[1\u00e9H\x1b]2;\u00e9\u00e9\x07\u00e9",                        // characters inside sequences
	}
}

func TestScreenMatchesEmulatorOnEdgeCases(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {12, 5}, {3, 2}, {2, 1}} {
		w, h := size[0], size[1]
		for i, stream := range edgeCases(w) {
			b := []byte(stream)
			compareChunks(t, fmt.Sprintf("edge case %d %q whole", i, stream), w, h, b, nil)
			// Cut once at every offset (on one size: an emulator is
			// costly to make), and into single bytes.
			for cut := 1; cut < len(b) && w == 12; cut++ {
				compareChunks(t, fmt.Sprintf("edge case %d %q cut at %d", i, stream, cut), w, h, b, []int{cut})
			}
			every := make([]int, 0, len(b))
			for cut := 1; cut < len(b); cut++ {
				every = append(every, cut)
			}
			compareChunks(t, fmt.Sprintf("edge case %d %q byte by byte", i, stream), w, h, b, every)
		}
	}
}

// TestScreenAnswersTheColourQuery: the server asks for the background
// colour; the screen answers as the emulator does.
func TestScreenAnswersTheColourQuery(t *testing.T) {
	emu, s := newEmulator(80, 24), newScreen(80, 24)
	q := []byte("\x1b]11;?\x07x\x1b]11;?\x1b\\")
	go func() { _, _ = emu.Write(q) }() // the answer blocks it until read
	_, _ = s.Write(q[:3])
	_, _ = s.Write(q[3:])
	want := make([]byte, 2*len(bgReply))
	if _, err := io.ReadFull(emu, want); err != nil {
		t.Fatal(err)
	}
	if got := s.takeReplies(); string(got) != string(want) {
		t.Fatalf("the screen answers %q, the emulator %q", got, want)
	}
	if got := s.takeReplies(); got != nil {
		t.Fatalf("answers taken twice: %q", got)
	}
}

// recordedStream is one session's output as a client of w×h received it.
type recordedStream struct {
	name string
	w, h int
	data []byte
}

// recordedSize reads a recording's terminal size from its name
// (…-WxH.raw.gz).
var recordedSize = regexp.MustCompile(`-(\d+)x(\d+)\.raw`)

// recordedStreams are the real sessions in testdata/streams: the output of
// the arcade's end-to-end tests (the four games, their end screens, the
// home screen, chat, a wide name, resizes) recorded with
// CODEBREAKERS_RECORD_STREAMS (cmd/codebreakers/harness_test.go).
func recordedStreams(t testing.TB) []recordedStream {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "streams", "*.raw.gz"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no recorded streams in testdata/streams: %v", err)
	}
	var out []recordedStream
	for _, p := range paths {
		m := recordedSize.FindStringSubmatch(filepath.Base(p))
		if m == nil {
			t.Fatalf("%s: no size in the name", p)
		}
		w, _ := strconv.Atoi(m[1])
		h, _ := strconv.Atoi(m[2])
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		data, err := io.ReadAll(zr)
		_ = f.Close()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, recordedStream{name: filepath.Base(p), w: w, h: h, data: data})
	}
	return out
}

// TestScreenMatchesEmulatorOnRecordedSessions feeds every recorded session
// to both, whole, in the 32 KB reads the client makes, and cut at random
// places (inside runes and sequences too), comparing after every chunk.
func TestScreenMatchesEmulatorOnRecordedSessions(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, r := range recordedStreams(t) {
		t.Run(r.name, func(t *testing.T) {
			compareChunks(t, r.name+" whole", r.w, r.h, r.data, nil)
			var reads []int
			for at := 32 << 10; at < len(r.data); at += 32 << 10 {
				reads = append(reads, at)
			}
			compareChunks(t, r.name+" in 32 KB reads", r.w, r.h, r.data, reads)
			for round := range 3 {
				var cuts []int
				for at := 1 + rng.IntN(200); at < len(r.data); at += 1 + rng.IntN(200) {
					cuts = append(cuts, at)
				}
				compareChunks(t, fmt.Sprintf("%s random cuts, round %d", r.name, round), r.w, r.h, r.data, cuts)
			}
		})
	}
}

// FuzzScreenMatchesEmulator compares the two on any output, seeded with
// the recorded sessions and the edge cases; the first byte of the input
// picks where the stream is cut.
func FuzzScreenMatchesEmulator(f *testing.F) {
	for _, r := range recordedStreams(f) {
		f.Add(byte(7), r.data[:min(len(r.data), 4<<10)])
	}
	for i, s := range edgeCases(20) {
		f.Add(byte(i), []byte(s))
	}
	f.Fuzz(func(t *testing.T, step byte, stream []byte) {
		if !speaksTheServersLanguage(stream) {
			t.Skip()
		}
		var cuts []int
		for at := 1 + int(step%16); at < len(stream); at += 1 + int(step%16) {
			cuts = append(cuts, at)
		}
		compareChunks(t, fmt.Sprintf("%q", stream), 20, 6, stream, cuts)
	})
}

// speaksTheServersLanguage reports whether stream keeps to what screen
// reads: the sequences the server sends, in any order and with any
// parameters, and text. Fuzzing the rest (tabs, scroll margins, charsets,
// insert and delete, REP) would only find what screen leaves out on
// purpose; see the type's comment.
func speaksTheServersLanguage(stream []byte) bool {
	if bytes.Contains(stream, []byte("2048")) { // in-band resize reports, or might
		return false
	}
	for i := 0; i < len(stream); i++ {
		switch c := stream[i]; {
		case c == '\t' || c == 0x0e || c == 0x0f || c == 0x88 || c == 0x8e || c == 0x8f:
			return false
		case c == 0x1b && i+1 < len(stream):
			switch stream[i+1] {
			case '(', ')', '*', '+', '-', '.', '/', 'n', 'o', '|', '}', '~', 'N', 'O', 'H', '#', ' ', '%':
				return false
			case '[':
				j := i + 2
				for j < len(stream) && stream[j] >= 0x20 && stream[j] < 0x40 {
					j++
				}
				if j < len(stream) && bytes.IndexByte([]byte("@LMPZbrsIWg"), stream[j]) >= 0 {
					return false
				}
			}
		case c == 0x9b: // CSI as one byte: not text the server writes
			return false
		}
	}
	return true
}

// BenchmarkScreenWrite reads the longest recorded session (an If Then
// game seen by one of its players) in the client's 32 KB reads, with the
// emulator and with the screen, then reads the screen's text once as the
// client does after a chunk.
func BenchmarkScreenWrite(b *testing.B) {
	var stream recordedStream
	for _, r := range recordedStreams(b) {
		if len(r.data) > len(stream.data) {
			stream = r
		}
	}
	feed := func(b *testing.B, term terminal) {
		c := &client{term: term}
		b.SetBytes(int64(len(stream.data)))
		b.ReportAllocs()
		for b.Loop() {
			for p := stream.data; len(p) > 0; {
				n := min(len(p), 32<<10)
				_, _ = term.Write(p[:n])
				p = p[n:]
			}
			_ = c.screenText()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(stream.data)), "ns/byte")
	}
	b.Run("emulator", func(b *testing.B) { feed(b, vtTerminal{oracle(stream.w, stream.h)}) })
	b.Run("screen", func(b *testing.B) { feed(b, newScreen(stream.w, stream.h)) })
}

// BenchmarkScreenWriteAll feeds every recorded session to a lean screen
// of its own, so the borders, marks and wide characters of the game
// screens (a sixth of some sessions' bytes) weigh as they do in a play.
func BenchmarkScreenWriteAll(b *testing.B) {
	streams := recordedStreams(b)
	screens := make([]*screen, len(streams))
	total := 0
	for i, r := range streams {
		screens[i] = newScreen(r.w, r.h)
		total += len(r.data)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for i, r := range streams {
			for p := r.data; len(p) > 0; {
				n := min(len(p), 32<<10)
				_, _ = screens[i].Write(p[:n])
				p = p[n:]
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(total), "ns/byte")
}

// TestScreenIsSmall: a simulated player's lean screen, a frame drawn on
// its alternate screen, holds a few KB (an 80×24 grid of 4-byte cells
// and the parser), where an emulator holds two screens of full cells.
func TestScreenIsSmall(t *testing.T) {
	const n = 20
	frame := []byte("\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J\x1b[1;7m Codebreakers \x1b[m ✓ ◆ ○ 漢字\x1b[K\x1b[24;1Hkeys · q quit\x1b[K")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	screens := make([]*screen, n)
	for i := range screens {
		screens[i] = newScreen(80, 24)
		_, _ = screens[i].Write(frame)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n
	t.Logf("%d bytes of heap per screen", per)
	if per > 16<<10 {
		t.Errorf("an 80×24 screen holds %d KB, want under 16 KB", per>>10)
	}
	if got := screens[0].String(); !strings.Contains(got, "Codebreakers  ✓ ◆ ○ 漢字") {
		t.Errorf("screen reads %q", got)
	}
	runtime.KeepAlive(screens)
}
