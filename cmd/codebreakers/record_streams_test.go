package main

import (
	"os"
	"strings"
	"testing"
)

// TestRecordWideNameAndResizes plays the parts of a session the other
// end-to-end tests leave out, for the load generator's recorded streams
// (see streamRecorder): a handle of wide characters and emoji (refused and shown back), the home
// screen redrawn for a terminal resized under it (the recorded client
// stays 80×24, so the server draws for sizes it does not have), the
// menus walked, and a table's chat in wide characters and emoji. It runs only when recording.
func TestRecordWideNameAndResizes(t *testing.T) {
	if os.Getenv("CODEBREAKERS_RECORD_STREAMS") == "" {
		t.Skip("records streams only (CODEBREAKERS_RECORD_STREAMS)")
	}
	_, addr := startInstance(t, dataDir(t))
	tm := openTermRec(t, dial(t, addr, withKey(newKey(t))), "wide", 80, 24, "", false)
	register(tm, "漢字🎲é") // refused, shown back
	tm.waitFor("A handle may use only")
	tm.send(keyEsc)
	tm.waitUntil("the handle cleared", func(s string) bool { return !strings.Contains(s, "› 漢字") })
	tm.send("wide", keyEnter)
	tm.waitFor("Create a table")
	for _, size := range [][2]int{{60, 20}, {120, 40}, {81, 24}, {79, 23}, {80, 24}} {
		if err := tm.sess.WindowChange(size[1], size[0]); err != nil {
			t.Fatal(err)
		}
		tm.send(keyDown)
	}
	tm.send("\x1b[H") // home, and seen there, so the walk to the table starts afresh
	tm.waitFor("▸ Quick play")
	// At a table: chat in wide characters and emoji, resized meanwhile.
	createTable(tm)
	tm.send("c")
	tm.send("漢字 dice 🎲👍🏽 é e\u0301 ✓")
	tm.send(keyEnter)
	tm.waitFor("漢字 dice")
	for _, size := range [][2]int{{70, 24}, {80, 24}} {
		if err := tm.sess.WindowChange(size[1], size[0]); err != nil {
			t.Fatal(err)
		}
	}
	tm.send("c", "more ✓✓ 漢", keyEnter)
	tm.waitFor("more ✓✓")
}
