package whattherule

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	wtr "github.com/codebreakers/codebreakers/engine/whattherule"
	"github.com/codebreakers/codebreakers/tui/board"
	"github.com/codebreakers/codebreakers/tui/board/boardtest"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// updateFrames rewrites the golden frames from the code as it is:
// go test -run TestWhatTheRuleFrameGolden -update-frames ./tui/whattherule/
var updateFrames = flag.Bool("update-frames", false, "rewrite testdata/frames*.golden")

// The golden frames: one line per move and view, its name and the sha256
// of each frame drawn then (see TestWhatTheRuleFrameGolden), and a few frames in
// full for reading. Drawing may get faster; its output must not change.
func goldenFrames() boardtest.Golden {
	return boardtest.Golden{Lines: "testdata/frames.golden", Samples: "testdata/frames_sample.golden", HashLen: 8, Traces: true}
}

// frameKeys are pressed after move m (by m%len) on every board, each
// followed by a frame: cursors, the guess and hint fields, the notes, the
// library, the rule builder and the rule field. "error" is not a key: it
// gives the board a refusal, as the session does.
var frameKeys = [][]string{
	{"down"},
	{"up", "right"},
	{"g", "red", "backspace", "esc"},
	{"n", "down", "esc"},
	{"b", "down", "esc"},
	{"u", "down", "right", "esc"},
	{"error", "1", "2"},
	{"w", "odd cards", "esc", "t", "hint", "esc"},
	{"left", "enter"},
}

// frameGame is one seeded game drawn for several viewers and sizes.
type frameGame struct {
	names []string
	free  bool // the game master writes free rules and judges
	seed  uint64
	moves int // frames are drawn for the first moves only
}

func frameGames() []frameGame {
	return []frameGame{
		{[]string{"mara", "Bo", "Kai", "Ana"}, false, 3, 50},
		{[]string{"mara", "Björk Guðmundsdóttir", "李小龙", "Ana", "Lin", "Oz"}, false, 5, 50},
		{[]string{"mara", "Bo", "Kai"}, true, 7, 50},
	}
}

// frameTrace is a board kept for one viewer at one size across a game.
type frameTrace struct {
	name   string
	viewer engine.Viewer
	w, h   int
	b      *Board
}

// drawGame plays g with the package's scripted bots (see play) and returns
// every frame each trace drew in its first moves, named: after each move,
// and after each scripted key.
func drawGame(t *testing.T, g frameGame) (names, frames []string) {
	t.Helper()
	ps := make([]engine.Player, len(g.names))
	for i, n := range g.names {
		ps[i] = engine.Player{Name: n}
	}
	st, _, err := engine.Start(wtr.Game{}, engine.Options{"rounds": "2", "turn_time": "1m"}, ps, g.seed)
	if err != nil {
		t.Fatal(err)
	}
	var traces []*frameTrace
	for _, v := range []engine.Viewer{engine.SeatViewer(0), engine.SeatViewer(1), engine.Spectator()} {
		for _, sz := range [][2]int{{80, 24}, {120, 40}, {60, 16}} {
			who := "spectator"
			if v.Kind == engine.ViewerSeat {
				who = fmt.Sprintf("seat%d", v.Seat)
			}
			traces = append(traces, &frameTrace{
				name:   fmt.Sprintf("%dp-seed%d-free%v-%s-%dx%d", len(ps), g.seed, g.free, who, sz[0], sz[1]),
				viewer: v, w: sz[0], h: sz[1], b: New(new(colourStyles()), new(testKeys())),
			})
		}
	}
	m := 0
	play(t, st, g.seed, g.free, func(st engine.State, log []engine.Event) {
		if m > g.moves {
			return
		}
		for _, tr := range traces {
			tr.b.SetView(st.View(tr.viewer), board.Context{Viewer: tr.viewer, Names: g.names, Bots: make([]bool, len(g.names)),
				Status: st.Status(), Log: engine.FilterEvents(log, tr.viewer), Width: tr.w, Height: tr.h})
			names = append(names, fmt.Sprintf("%s/move%03d", tr.name, m))
			frames = append(frames, boardtest.PureView(t, names[len(names)-1], tr.b, func() string { return stateOf(tr.b) }))
			for k, key := range frameKeys[m%len(frameKeys)] {
				switch key {
				case "error":
					tr.b.SetError(fmt.Sprintf("that move is not allowed now (%d)", m))
				default:
					for _, msg := range frameKey(key) {
						tr.b.Update(msg)
					}
				}
				names = append(names, fmt.Sprintf("%s/move%03d-%d-%s", tr.name, m, k, strings.ReplaceAll(key, " ", "_")))
				frames = append(frames, boardtest.PureView(t, names[len(names)-1], tr.b, func() string { return stateOf(tr.b) }))
			}
		}
		m++
	})
	return names, frames
}

// frameKey is the key presses for k: a named key, or text typed.
func frameKey(k string) []tea.KeyPressMsg {
	named := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab,
		"backspace": tea.KeyBackspace, "up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight}
	if c, ok := named[k]; ok {
		return []tea.KeyPressMsg{{Code: c}}
	}
	var out []tea.KeyPressMsg
	for _, r := range k {
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return out
}

// isSample says which frames the sample file keeps in full.
func isSample(name string) bool {
	if strings.Contains(name, "seat0-60x16/") { // the compact hand
		return strings.HasSuffix(name, "/move005-2-right")
	}
	if !strings.Contains(name, "seat0-80x24/") && !strings.Contains(name, "spectator-120x40/") {
		return false
	}
	return strings.HasSuffix(name, "/move010") || strings.HasSuffix(name, "/move002-1-red") ||
		strings.HasSuffix(name, "/move005-2-right") || strings.HasSuffix(name, "/move003-0-n")
}

// TestWhatTheRuleFrameGolden draws seeded games for seats and a spectator at
// three sizes, with keys pressed between moves, and compares every frame
// with the frames recorded before drawing was made faster.
func TestWhatTheRuleFrameGolden(t *testing.T) {
	var got []string
	samples := map[string]string{}
	for _, g := range frameGames() {
		names, frames := drawGame(t, g)
		got = goldenFrames().AddAll(got, samples, names, frames, isSample)
	}
	goldenFrames().Check(t, got, samples, *updateFrames)
}

// BenchmarkFrameAfterMove draws one frame for the player to move at
// 120×40 thirty plays into a round, the board having drawn the table before
// the last move (as a session does: one SetView and one View per move).
func BenchmarkFrameAfterMove(b *testing.B) {
	bd := New(new(colourStyles()), new(testKeys()))
	var viewer engine.Viewer
	st, log := midRound(b, 30, func(st engine.State, log []engine.Event, toMove engine.Seat) {
		viewer = engine.SeatViewer(toMove)
		bd.SetView(st.View(viewer), context(st, viewer, log, 120, 40))
		_ = bd.View()
	})
	view, ctx := st.View(viewer), context(st, viewer, log, 120, 40)
	b.ReportAllocs()
	for b.Loop() {
		bd.SetView(view, ctx)
		_ = bd.View()
	}
}

// TestRememberedDrawingMatchesAFreshBoard: a board that keeps its memories
// across moves and many sizes, and has them dropped now and then, draws
// what a new board draws.
func TestRememberedDrawingMatchesAFreshBoard(t *testing.T) {
	for _, free := range []bool{false, true} {
		st := deal(t, 4, 11, engine.Options{"rounds": "2", "turn_time": "1m"})
		viewer := engine.SeatViewer(1)
		kept := New(new(colourStyles()), new(testKeys()))
		move := 0
		play(t, st, 11, free, func(st engine.State, log []engine.Event) {
			move++
			if move > 40 {
				return
			}
			if move%7 == 6 {
				// Fill the memories past their bound, so they are dropped.
				for i := range widget.DefaultMemo + 1 {
					kept.width(fmt.Sprint("junk ", i))
				}
			}
			for w := 20; w <= 240; w += 11 {
				for _, h := range []int{4, 12, 30} {
					c := context(st, viewer, log, w, h)
					kept.SetView(st.View(viewer), c)
					fresh := New(new(colourStyles()), new(testKeys()))
					fresh.SetView(st.View(viewer), c)
					if got, want := kept.View(), fresh.View(); got != want {
						t.Fatalf("free %v move %d at %d×%d: the board that remembers drew\n%s\nwhere a new board draws\n%s", free, move, w, h, got, want)
					}
				}
			}
		})
	}
}

// stateOf prints b without its caches of drawn pieces, for PureView.
func stateOf(b *Board) string {
	c := *b
	c.checked, c.cards = checkedRule{}, widget.Memo[wtr.Card, string]{}
	c.paint, c.logs, c.widths = widget.Paints{}, widget.LogCache{}, widget.Widths{}
	return fmt.Sprintf("%+v", c)
}
