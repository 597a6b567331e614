package ifthen

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	it "github.com/codebreakers/codebreakers/engine/ifthen"
	"github.com/codebreakers/codebreakers/tui/board"
	"github.com/codebreakers/codebreakers/tui/board/boardtest"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// updateFrames rewrites the golden frames from the code as it is:
// go test -run TestIfThenFrameGolden -update-frames ./tui/ifthen/
var updateFrames = flag.Bool("update-frames", false, "rewrite testdata/frames*.golden")

// The golden frames: one line per move and view, its name and the sha256
// of each frame drawn then (see TestIfThenFrameGolden), and a few frames in
// full for reading. Drawing may get faster; its output must not change.
func goldenFrames() boardtest.Golden {
	return boardtest.Golden{Lines: "testdata/frames.golden", Samples: "testdata/frames_sample.golden", HashLen: 8, Traces: true}
}

// frameKeys are pressed after move m (by m%len) on every board, each
// followed by a frame: the hand cursor, turning a card, Market picks, the
// guess builder and the typed guess, votes. "error" is not a key: it gives
// the board a refusal, as the session does.
var frameKeys = [][]string{
	{"down"},
	{"right", "down", "left"},
	{"g", "down", "right", "enter", "down"},
	{"tab", "b", "g", "backspace", "tab", "esc"},
	{"1", "3", "1"},
	{"error", "up"},
	{"x", "y"},
	{"g", "tab", "bg != prev.bg", "esc"},
}

// frameGame is one seeded game drawn for several viewers and sizes.
type frameGame struct {
	mode  string
	names []string
	bots  []bool
	seed  uint64
	moves int
}

func frameGames() []frameGame {
	return []frameGame{
		{it.ModeServer, []string{"mara", "Bo", "Kai"}, []bool{false, true, false}, 3, 60},
		{it.ModePlayer, []string{"mara", "Björk Guðmundsdóttir", "李小龙", "Ana"}, []bool{false, true, false, true}, 5, 60},
		{it.ModeMastermind, []string{"mara", "Bo", "Kai", "Ana"}, nil, 7, 60},
		// One Code Breaker (seat 1), who may always guess: the builder.
		{it.ModePlayer, []string{"mara", "Bo"}, []bool{true, false}, 4, 40},
	}
}

// frameOptions are the games' options. The frames guard the drawing, not
// the rules: they were recorded under rules revision 2, and revision 3
// plays a Mastermind's cycle in two moves (draw, then send a card under),
// which would change the game the frames show. Revision 3's screens are
// checked by the board's own tests.
func frameOptions(mode string) engine.Options {
	return engine.Options{"level": "2", "allknowing": mode, engine.RulesOption: it.RulesTwoHints}
}

// frameTrace is a board kept for one viewer at one size across a game.
type frameTrace struct {
	name   string
	viewer engine.Viewer
	w, h   int
	b      *Board
}

// drawGame plays g's first moves with bots and returns every frame each
// trace drew, named: after each move, and after each scripted key.
func drawGame(t testing.TB, g frameGame) (names, frames []string) {
	t.Helper()
	ps := make([]engine.Player, len(g.names))
	for i, n := range g.names {
		ps[i] = engine.Player{Name: n, Bot: i < len(g.bots) && g.bots[i]}
	}
	st, _, err := engine.Start(it.Game{}, frameOptions(g.mode), ps, g.seed)
	if err != nil {
		t.Fatal(err)
	}
	var traces []*frameTrace
	for _, v := range []engine.Viewer{engine.SeatViewer(0), engine.SeatViewer(1), engine.Spectator()} {
		for _, sz := range [][2]int{{80, 24}, {120, 40}, {60, 20}} {
			who := "spectator"
			if v.Kind == engine.ViewerSeat {
				who = fmt.Sprintf("seat%d", v.Seat)
			}
			traces = append(traces, &frameTrace{
				name:   fmt.Sprintf("%s-%dp-seed%d-%s-%dx%d", g.mode, len(ps), g.seed, who, sz[0], sz[1]),
				viewer: v, w: sz[0], h: sz[1], b: New(new(colourStyles()), new(testKeys())),
			})
		}
	}
	var log []engine.Event
	for m := 0; m <= g.moves; m++ {
		s := st.Status()
		var res *engine.Result
		if r, ok := st.Result(); ok {
			res = &r
		}
		for _, tr := range traces {
			tr.b.SetView(st.View(tr.viewer), board.Context{Viewer: tr.viewer, Names: g.names, Bots: g.bots, Status: s,
				Log: engine.FilterEvents(log, tr.viewer), Result: res, Width: tr.w, Height: tr.h})
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
		if s.Finished || m == g.moves {
			break
		}
		moved := false
		for _, seat := range s.Active {
			bot := &it.Bot{Seat: seat, Level: it.LevelEasy, Seed: g.seed + uint64(m)}
			a, err := bot.Act(st.View(engine.SeatViewer(seat)))
			if err != nil {
				t.Fatalf("bot seat %d: %v", seat, err)
			}
			if a == nil {
				continue
			}
			evs, err := st.Apply(seat, a)
			if err != nil {
				t.Fatalf("seat %d %s: %v", seat, a, err)
			}
			log = append(log, evs...)
			moved = true
			break
		}
		if !moved {
			t.Fatalf("%s: no bot moved at move %d", traces[0].name, m)
		}
	}
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
	if name == "player-2p-seed4-seat1-80x24/move018-2-right" || name == "player-2p-seed4-seat1-120x40/move023-2-bg_!=_prev.bg" {
		return true // the guess builder, and a typed guess
	}
	if !strings.Contains(name, "seat0-80x24/") && !strings.Contains(name, "spectator-120x40/") {
		return false
	}
	return strings.HasSuffix(name, "/move010") || strings.HasSuffix(name, "/move002-0-g") ||
		strings.HasSuffix(name, "/move007-2-bg_!=_prev.bg")
}

// TestIfThenFrameGolden draws seeded games for seats and a spectator at
// three sizes, with keys pressed between moves, and compares every frame
// with the frames recorded before drawing was made faster.
func TestIfThenFrameGolden(t *testing.T) {
	var got []string
	samples := map[string]string{}
	for _, g := range frameGames() {
		names, frames := drawGame(t, g)
		got = goldenFrames().AddAll(got, samples, names, frames, isSample)
	}
	goldenFrames().Check(t, got, samples, *updateFrames)
}

// BenchmarkFrameAfterMove draws one frame for seat 1 at 120×40 twenty
// moves into a game, the board having drawn the table before the last move
// (as a session does: one SetView and one View per move).
func BenchmarkFrameAfterMove(b *testing.B) {
	g := frameGames()[1]
	ps := make([]engine.Player, len(g.names))
	for i, n := range g.names {
		ps[i] = engine.Player{Name: n}
	}
	st, _, err := engine.Start(it.Game{}, frameOptions(g.mode), ps, g.seed)
	if err != nil {
		b.Fatal(err)
	}
	var log []engine.Event
	viewer := engine.SeatViewer(1)
	bd := New(new(colourStyles()), new(testKeys()))
	ctx := func() board.Context {
		return board.Context{Viewer: viewer, Names: g.names, Status: st.Status(),
			Log: engine.FilterEvents(log, viewer), Width: 120, Height: 40}
	}
	for m := range 20 {
		if m == 19 {
			bd.SetView(st.View(viewer), ctx())
			_ = bd.View()
		}
		for _, seat := range st.Status().Active {
			a, err := (&it.Bot{Seat: seat, Level: it.LevelEasy, Seed: uint64(m)}).Act(st.View(engine.SeatViewer(seat)))
			if err != nil {
				b.Fatal(err)
			}
			if a != nil {
				evs, err := st.Apply(seat, a)
				if err != nil {
					b.Fatal(err)
				}
				log = append(log, evs...)
				break
			}
		}
	}
	v, c := st.View(viewer), ctx()
	b.ReportAllocs()
	for b.Loop() {
		bd.SetView(v, c)
		_ = bd.View()
	}
}

// TestRememberedDrawingMatchesAFreshBoard: a board that keeps its memories
// across moves and many sizes, and has them dropped now and then, draws
// what a new board draws.
func TestRememberedDrawingMatchesAFreshBoard(t *testing.T) {
	for _, g := range frameGames() {
		ps := make([]engine.Player, len(g.names))
		for i, n := range g.names {
			ps[i] = engine.Player{Name: n}
		}
		st, _, err := engine.Start(it.Game{}, frameOptions(g.mode), ps, g.seed)
		if err != nil {
			t.Fatal(err)
		}
		var log []engine.Event
		viewer := engine.SeatViewer(1)
		kept := New(new(colourStyles()), new(testKeys()))
		for move := 0; move < 30 && !st.Status().Finished; move++ {
			if move%7 == 6 {
				// Fill the memories past their bound, so they are dropped.
				for i := range widget.DefaultMemo + 1 {
					kept.width(fmt.Sprint("junk ", i))
					kept.events.Put(logKey{fmt.Sprint("junk ", i), 1}, []string{"junk"})
				}
			}
			for w := 20; w <= 240; w += 11 {
				for _, h := range []int{4, 12, 30} {
					c := board.Context{Viewer: viewer, Names: g.names, Status: st.Status(),
						Log: engine.FilterEvents(log, viewer), Width: w, Height: h}
					kept.SetView(st.View(viewer), c)
					fresh := New(new(colourStyles()), new(testKeys()))
					fresh.SetView(st.View(viewer), c)
					if got, want := kept.View(), fresh.View(); got != want {
						t.Fatalf("%s move %d at %d×%d: the board that remembers drew\n%s\nwhere a new board draws\n%s", g.mode, move, w, h, got, want)
					}
				}
			}
			moved := false
			for _, s := range st.Status().Active {
				a, err := (&it.Bot{Seat: s, Level: it.LevelEasy, Seed: uint64(move)}).Act(st.View(engine.SeatViewer(s)))
				if err != nil {
					t.Fatal(err)
				}
				if a != nil {
					evs, err := st.Apply(s, a)
					if err != nil {
						t.Fatal(err)
					}
					log = append(log, evs...)
					moved = true
					break
				}
			}
			if !moved {
				t.Fatalf("%s move %d: no bot moved", g.mode, move)
			}
		}
	}
}

// stateOf prints b without its caches of drawn pieces, for PureView.
func stateOf(b *Board) string {
	c := *b
	c.paint, c.chips, c.events, c.widths = widget.Paints{}, widget.Memo[it.End, string]{}, widget.Memo[logKey, []string]{}, widget.Widths{}
	return fmt.Sprintf("%+v", c)
}
