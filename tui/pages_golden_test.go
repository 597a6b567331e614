package tui

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/lobby"
)

// pagesGolden holds, as plain text, the rules pages and a finished table's
// end lines at 80×24 and 120×40, so a change to how text is laid out is
// seen, read and deliberately accepted (-update-frames).
const pagesGolden = "testdata/pages.golden"

var pageSizes = [][2]int{{80, 24}, {120, 40}}

// rulesPages draws the arcade's help and every game's rules, first page
// and last, at each size.
func rulesPages(t *testing.T) (names, frames []string) {
	t.Helper()
	pages := []struct{ id, text string }{{"arcade", arcadeHelp}}
	for _, id := range []string{"breakcode", "coding", "ifthen", "whattherule"} {
		text, ok := rulesText(id)
		if !ok {
			t.Fatalf("no rules for %s", id)
		}
		pages = append(pages, struct{ id, text string }{id, text})
	}
	for _, sz := range pageSizes {
		for _, p := range pages {
			m := newTestApp(t, &fakeHub{}, nil, sz[0], sz[1])
			m.push(newTextScreen("How to play · "+p.id, p.text))
			m.draw()
			names = append(names, fmt.Sprintf("rules-%s-%dx%d/top", p.id, sz[0], sz[1]))
			frames = append(frames, screenText(m))
			press(t, m, "end")
			names = append(names, fmt.Sprintf("rules-%s-%dx%d/end", p.id, sz[0], sz[1]))
			frames = append(frames, screenText(m))
		}
	}
	return names, frames
}

// endTables draws a finished Break the Code table for a seat and for a
// spectator at each size.
func endTables(t *testing.T) (names, frames []string) {
	t.Helper()
	for _, sz := range pageSizes {
		for _, viewer := range []engine.Viewer{engine.SeatViewer(0), engine.Spectator()} {
			players := []engine.Player{{Name: "mara"}, {Name: "Bo", Bot: true}, {Name: "Kai", Bot: true}}
			views := traceGame(t, players, 5, 12, -1, 4, viewer)
			tv := views[len(views)-1]
			if tv.Phase != lobby.Finished {
				t.Fatal("the traced game did not finish")
			}
			conn := newFakeConn(tv)
			m := newTestApp(t, &fakeHub{conn: conn}, nil, sz[0], sz[1])
			run(t, m, m.pushTable(conn))
			m.draw()
			who := "seat"
			if viewer.Kind == engine.ViewerSpectator {
				who = "spectator"
			}
			names = append(names, fmt.Sprintf("end-%s-%dx%d", who, sz[0], sz[1]))
			frames = append(frames, screenText(m))
		}
	}
	return names, frames
}

// TestPagesGolden checks the rules pages and end lines against the golden
// text, and that no line of them is cut off or wider than the window.
func TestPagesGolden(t *testing.T) {
	names, frames := rulesPages(t)
	n2, f2 := endTables(t)
	names, frames = append(names, n2...), append(frames, f2...)
	var b strings.Builder
	for i, n := range names {
		w := 80
		if strings.Contains(n, "120x40") {
			w = 120
		}
		for _, l := range strings.Split(frames[i], "\n") {
			if strings.HasSuffix(strings.TrimRight(l, " "), "…") {
				t.Errorf("%s: a line is cut off: %q", n, l)
			}
			if len([]rune(l)) > w {
				t.Errorf("%s: a line is wider than %d: %q", n, w, l)
			}
		}
		fmt.Fprintf(&b, "=== %s\n%s\n", n, frames[i])
	}
	got := b.String()
	if *updateFrames {
		if err := os.WriteFile(pagesGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(pagesGolden)
	if err != nil {
		t.Fatalf("%v (make it with -update-frames)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs at line %d:\ngot:  %q\nwant: %q", pagesGolden, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s differs in length: got %d lines, want %d", pagesGolden, len(gl), len(wl))
	}
}

// TestRulesUseTheWholeWidth: at 120 columns the rules are not wrapped as if
// the window were 80 wide (no paragraph line stops short of the width when
// its next word would have fitted).
func TestRulesUseTheWholeWidth(t *testing.T) {
	for _, id := range []string{"breakcode", "coding", "ifthen", "whattherule"} {
		text, _ := rulesText(id)
		m := newTestApp(t, &fakeHub{}, nil, 120, 40)
		ts := newTextScreen(id, text)
		m.push(ts)
		lines := ts.wrapped(120)
		for i := 0; i+1 < len(lines); i++ {
			cur, next := lines[i], strings.TrimLeft(lines[i+1], " ")
			ind := len(lines[i+1]) - len(next)
			if cur == "" || next == "" || strings.HasPrefix(next, "- ") || ind == 0 || ind != len(cur)-len(strings.TrimLeft(cur, " ")) && !strings.HasPrefix(strings.TrimLeft(cur, " "), "- ") {
				continue
			}
			word, _, _ := strings.Cut(next, " ")
			if len([]rune(cur))+1+len([]rune(word)) <= 116 {
				t.Errorf("%s: line %d stops early: %q (next word %q fits)", id, i, cur, word)
			}
		}
	}
}
