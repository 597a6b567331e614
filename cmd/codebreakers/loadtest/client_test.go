package loadtest

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/internal/seen"
)

// TestEmulatorDropsItsBigBuffer checks that a simulated player's terminal
// costs little memory and still reads screens, titles included.
func TestEmulatorDropsItsBigBuffer(t *testing.T) {
	const n = 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	emus := make([]any, n)
	for i := range emus {
		emus[i] = newEmulator(80, 24)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n
	t.Logf("%d KB of heap per emulator", per>>10)
	if per > 1<<20 {
		t.Errorf("an 80×24 emulator holds %d KB; its parser's 4 MB buffer was not let go", per>>10)
	}
	runtime.KeepAlive(emus)

	emu := newEmulator(40, 3)
	title := strings.Repeat("t", 200)
	if _, err := emu.Write([]byte("\x1b]2;" + title + "\x07\x1b[2;3Hhello \x1b[1mworld\x1b[m")); err != nil {
		t.Fatal(err)
	}
	if got := emu.String(); !strings.Contains(got, "  hello world") {
		t.Errorf("screen reads %q", got)
	}
}

// TestTitleRowReadsAsTheLine: the title read cell by cell is what the
// emulator's first row reads as a uv.Line (styles dropped, the blank half
// of a wide character skipped, trailing spaces trimmed), and reading an
// unchanged row again gives the same text.
func TestTitleRowReadsAsTheLine(t *testing.T) {
	for _, out := range []string{
		"",
		"Break the Code · table KQ7-M4X · turn 12 · your turn",
		"\x1b[1;7m Codebreakers \x1b[m \x1b[32m✓ ready\x1b[m   \x1b[44m   \x1b[m",
		"漢字 wide · turn 3 · finished   ",
		"\x1b[2J\x1b[Hshort\x1b[1;40Hfar",
	} {
		emu := newEmulator(60, 3)
		c := &client{term: vtTerminal{emu}}
		if _, err := emu.Write([]byte(out)); err != nil {
			t.Fatal(err)
		}
		line := make(uv.Line, emu.Width())
		for x := range line {
			if cell := emu.CellAt(x, 0); cell != nil {
				line[x] = *cell
			}
		}
		want := strings.TrimRight(line.String(), " ")
		if got := c.titleRow(); got != want {
			t.Errorf("title of %q = %q, want %q", out, got, want)
		}
		if again := c.titleRow(); again != want {
			t.Errorf("title of %q read again = %q, want %q", out, again, want)
		}
	}
}

// BenchmarkTitleRead reads a 100-column title bar the way the generator
// did on every chunk of output (a uv.Line of copied cells, then its
// String) and the way it does now (titleRow).
func BenchmarkTitleRead(b *testing.B) {
	emu := newEmulator(100, 30)
	c := &client{term: vtTerminal{emu}}
	if _, err := emu.Write([]byte("\x1b[1;7m Break the Code \x1b[m · table KQ7-M4X · \x1b[1mturn 12\x1b[m · h3's turn")); err != nil {
		b.Fatal(err)
	}
	b.Run("line", func(b *testing.B) {
		for b.Loop() {
			line := make(uv.Line, emu.Width())
			for x := range line {
				if cell := emu.CellAt(x, 0); cell != nil {
					line[x] = *cell
				}
			}
			_ = strings.TrimRight(line.String(), " ")
		}
	})
	b.Run("cells", func(b *testing.B) {
		for b.Loop() {
			_ = c.titleRow()
		}
	})
}

// TestScreenTextReadsAsTheEmulator: the screen read cell by cell is the
// emulator's own String, and so is the lean screen's (title included), styled spaces, wide characters, blank rows and
// rows of trailing spaces included.
func TestScreenTextReadsAsTheEmulator(t *testing.T) {
	for _, out := range []string{
		"",
		"\x1b[1;7m Break the Code \x1b[m · turn 3\r\n\r\n  \x1b[44m a 3b \x1b[m  b 5w   \r\n漢字 ✓ ready   \x1b[5;10Hlast\x1b[41m   \x1b[m",
		"\x1b[2J\x1b[3;1H│ 3b │ │ 3w │\x1b[6;1H\x1b[7m   \x1b[m",
	} {
		emu := newEmulator(30, 6)
		c := &client{term: vtTerminal{emu}}
		if _, err := emu.Write([]byte(out)); err != nil {
			t.Fatal(err)
		}
		if got, want := c.screenText(), emu.String(); got != want {
			t.Errorf("screen of %q =\n%q\nwant\n%q", out, got, want)
		}
		lean := &client{term: newScreen(30, 6)}
		if _, err := lean.term.Write([]byte(out)); err != nil {
			t.Fatal(err)
		}
		if got, want := lean.screenText(), emu.String(); got != want {
			t.Errorf("lean screen of %q =\n%q\nwant\n%q", out, got, want)
		}
		if got, want := lean.titleRow(), seen.Title(emu.String()); got != want {
			t.Errorf("lean title of %q = %q, want %q", out, got, want)
		}
	}
}

// BenchmarkScreenRead reads a 100×30 board as the emulator's String did
// and as screenText does.
func BenchmarkScreenRead(b *testing.B) {
	emu := newEmulator(100, 30)
	c := &client{term: vtTerminal{emu}}
	for y := range 30 {
		if _, err := fmt.Fprintf(emu, "\x1b[%d;1H\x1b[1mrow %d\x1b[m │ 3b │ │ 3w │ \x1b[32m✓ ready\x1b[m  some words of the board", y+1, y); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("emulator", func(b *testing.B) {
		for b.Loop() {
			_ = emu.String()
		}
	})
	b.Run("cells", func(b *testing.B) {
		for b.Loop() {
			_ = c.screenText()
		}
	})
}

// TestLimitProcs: -generator-procs sets the generator's GOMAXPROCS for
// the run and puts it back after; 0 leaves it alone.
func TestLimitProcs(t *testing.T) {
	was := runtime.GOMAXPROCS(0)
	restore := limitProcs(1)
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("GOMAXPROCS during the run = %d, want 1", got)
	}
	restore()
	if got := runtime.GOMAXPROCS(0); got != was {
		t.Errorf("GOMAXPROCS after the run = %d, want %d back", got, was)
	}
	limitProcs(0)()
	if got := runtime.GOMAXPROCS(0); got != was {
		t.Errorf("limitProcs(0) changed GOMAXPROCS to %d, want %d", got, was)
	}
}

// TestServerEnvAddsGODEBUG: the server under test gets the deploy unit's
// GODEBUG settings added to this process's environment, whose own GODEBUG
// settings come last so that they win; nothing else changes, and an empty
// setting leaves the environment as it is.
func TestServerEnvAddsGODEBUG(t *testing.T) {
	base := []string{"HOME=/root", "PATH=/bin"}
	got := serverEnv(base, DeployGODEBUG)
	if want := []string{"HOME=/root", "PATH=/bin", "GODEBUG=" + DeployGODEBUG}; !slices.Equal(got, want) {
		t.Errorf("serverEnv = %q, want %q", got, want)
	}
	own := []string{"GODEBUG=gctrace=1,gcshrinkstackoff=0", "PATH=/bin"}
	got = serverEnv(own, DeployGODEBUG)
	if want := []string{"PATH=/bin", "GODEBUG=" + DeployGODEBUG + ",gctrace=1,gcshrinkstackoff=0"}; !slices.Equal(got, want) {
		t.Errorf("serverEnv with the environment's own GODEBUG = %q, want %q (its settings last, so they win)", got, want)
	}
	if g := godebugOf(got); g != DeployGODEBUG+",gctrace=1,gcshrinkstackoff=0" {
		t.Errorf("godebugOf = %q", g)
	}
	if got := serverEnv(own, ""); !slices.Equal(got, own) {
		t.Errorf("serverEnv with no settings = %q, want the environment unchanged", got)
	}
}
