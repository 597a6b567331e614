package breakcode

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	bc "github.com/codebreakers/codebreakers/engine/breakcode"
)

// updateFrames rewrites testdata/notepad.golden from the code as it is:
// go test -run TestNotepadGolden -update-frames ./tui/breakcode/
var updateFrames = flag.Bool("update-frames", false, "rewrite testdata/notepad.golden")

// TestNotepadGolden draws seat 0's notepad, once a few hands or centre sets
// are left to list, for 2, 3 and 4 players at 80×24 and 120×40, and
// compares the frames (monochrome, in full) with testdata/notepad.golden.
func TestNotepadGolden(t *testing.T) {
	var b strings.Builder
	for _, g := range []struct {
		n    int
		seed uint64
	}{{2, 3}, {3, 7}, {4, 5}} {
		st := dealOpts(t, g.n, g.seed, nil)
		var log []engine.Event
		var v bc.View
		for step := 0; ; step++ {
			v = st.View(engine.SeatViewer(0)).(bc.View)
			if v.CentreSets != nil || (v.CentreSize == 0 && v.Seats[1].PossibleHands != nil) {
				break
			}
			if st.Status().Finished || step > 40 {
				t.Fatalf("%d players, seed %d: nothing listed after %d questions", g.n, g.seed, step)
			}
			log = append(log, ask(t, st, 1)...)
		}
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			bd, _ := renderView(v, st.Status(), log, size[0], size[1])
			bd.Update(tea.KeyPressMsg(tea.Key{Code: 'n', Text: "n"}))
			frame := ansi.Strip(bd.View())
			for i, line := range strings.Split(frame, "\n") {
				if w := ansi.StringWidth(line); w > size[0] || i >= size[1] {
					t.Errorf("%d players at %v: line %d is %d wide (or past the bottom): %q", g.n, size, i, w, line)
				}
			}
			if !strings.Contains(frame, "could be") && !strings.Contains(frame, "must be") {
				t.Errorf("%d players at %v: the notepad names no set:\n%s", g.n, size, frame)
			}
			fmt.Fprintf(&b, "=== %d players, seed %d, seat 0, %dx%d\n%s\n", g.n, g.seed, size[0], size[1], frame)
		}
	}
	const path = "testdata/notepad.golden"
	if *updateFrames {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (make it with -update-frames)", err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("notepad frames differ from %s:\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}
