package loadtest

import (
	"runtime"
	"strings"
	"testing"
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
