package coding

import (
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	cg "github.com/codebreakers/codebreakers/engine/coding"
	"github.com/codebreakers/codebreakers/tui/board"
	"github.com/codebreakers/codebreakers/tui/board/boardtest"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// updateFrames rewrites the golden frames from the code as it is:
// go test -run TestCodingFrameGolden -update-frames ./tui/coding/
var updateFrames = flag.Bool("update-frames", false, "rewrite testdata/frames*.golden")

// The golden frames: one line per move and view, its name and the sha256
// of each frame drawn then (see TestCodingFrameGolden), and a few frames in
// full for reading. Drawing may get faster; its output must not change.
func goldenFrames() boardtest.Golden {
	return boardtest.Golden{Lines: "testdata/frames.golden", Samples: "testdata/frames_sample.golden", HashLen: 8, Traces: true}
}

// frameKeys are pressed after move m (by m%len) on every board, each
// followed by a frame: cursors, the decode entry and its field, the
// details panel, taps and votes. "error" and "clock" are not keys: they
// give the board a refusal or a time left, as the session does.
var frameKeys = [][]string{
	{"down"},
	{"right", "down"},
	{"g", "F", "9", "backspace", "left"},
	{"esc", "n", "down"},
	{"n"},
	{"t", "esc"},
	{"error", "up", "enter"},
	{"clock", "v", "2"},
}

// frameGame is one seeded game drawn for several viewers and sizes.
type frameGame struct {
	system string
	names  []string
	bots   []bool
	seed   uint64
}

func frameGames() []frameGame {
	return []frameGame{
		{cg.SystemSpeed, []string{"mara", "Bo"}, []bool{false, true}, 3},
		{cg.SystemSpeed, []string{"mara", "Björk Guðmundsdóttir", "李小龙", "Ana bot"}, []bool{false, true, false, true}, 5},
		{cg.SystemCounter, []string{"mara", "Bo", "Kai"}, []bool{false, false, true}, 7},
		{cg.SystemCounter, []string{"mara", "Bo", "Kai", "Ana"}, nil, 9},
	}
}

// frameTrace is a board kept for one viewer at one size across a game.
type frameTrace struct {
	name   string
	viewer engine.Viewer
	w, h   int
	b      *Board
}

// drawGame plays g with bots and returns every frame each trace drew,
// named: after each move, and after each scripted key.
func drawGame(t testing.TB, g frameGame) (names, frames []string) {
	t.Helper()
	ps := make([]engine.Player, len(g.names))
	for i, n := range g.names {
		ps[i] = engine.Player{Name: n, Bot: i < len(g.bots) && g.bots[i]}
	}
	st, _, err := engine.Start(cg.Game{}, engine.Options{"system": g.system}, ps, g.seed)
	if err != nil {
		t.Fatal(err)
	}
	var traces []*frameTrace
	for _, v := range []engine.Viewer{engine.SeatViewer(0), engine.SeatViewer(1), engine.Spectator()} {
		// 80×19 is the board a session in an 80×24 terminal draws: the
		// Data and Hack cards framed for two players, compact for more.
		for _, sz := range [][2]int{{80, 24}, {120, 40}, {60, 20}, {80, 19}} {
			who := "spectator"
			if v.Kind == engine.ViewerSeat {
				who = fmt.Sprintf("seat%d", v.Seat)
			}
			traces = append(traces, &frameTrace{
				name:   fmt.Sprintf("%s-%dp-seed%d-%s-%dx%d", g.system, len(ps), g.seed, who, sz[0], sz[1]),
				viewer: v, w: sz[0], h: sz[1], b: New(new(boardtest.ColourStyles()), new(testKeys())),
			})
		}
	}
	var log []engine.Event
	for m := 0; m <= 300; m++ {
		for _, tr := range traces {
			v := st.View(tr.viewer)
			tr.b.SetView(v, board.Context{Viewer: tr.viewer, Names: g.names, Bots: g.bots, Status: st.Status(),
				Log: engine.FilterEvents(log, tr.viewer), Width: tr.w, Height: tr.h})
			names = append(names, fmt.Sprintf("%s/move%03d", tr.name, m))
			frames = append(frames, boardtest.PureView(t, names[len(names)-1], tr.b, func() string { return stateOf(tr.b) }))
			for k, key := range frameKeys[m%len(frameKeys)] {
				switch key {
				case "error":
					tr.b.SetError(fmt.Sprintf("that move is not allowed now (%d)", m))
				case "clock":
					tr.b.SetTimeLeft(time.Duration(m%30) * time.Second)
				default:
					tr.b.Update(frameKey(key))
				}
				names = append(names, fmt.Sprintf("%s/move%03d-%d-%s", tr.name, m, k, key))
				frames = append(frames, boardtest.PureView(t, names[len(names)-1], tr.b, func() string { return stateOf(tr.b) }))
			}
		}
		s := st.Status()
		if s.Finished {
			return names, frames
		}
		if len(s.Active) == 0 {
			t.Fatalf("%s: no one to move", traces[0].name)
		}
		seat := s.Active[m%len(s.Active)]
		bot := &cg.Bot{Seat: seat, Level: cg.LevelEasy, Seed: g.seed + uint64(m)}
		a, err := bot.Act(st.View(engine.SeatViewer(seat)))
		if err != nil || a == nil {
			t.Fatalf("bot seat %d: %s %v", seat, a, err)
		}
		evs, err := st.Apply(seat, a)
		if err != nil {
			t.Fatalf("seat %d %s: %v", seat, a, err)
		}
		log = append(log, evs...)
	}
	t.Fatal("game not finished after 300 moves")
	return nil, nil
}

func frameKey(k string) tea.KeyPressMsg {
	if k == "backspace" {
		return tea.KeyPressMsg(tea.Key{Code: tea.KeyBackspace})
	}
	return keyMsg(k)
}

// isSample says which frames the sample file keeps in full.
func isSample(name string) bool {
	if strings.Contains(name, "4p-seed9-seat0-60x20/") { // the compact code
		return strings.HasSuffix(name, "/move010")
	}
	// The Data and Hack cards at 80 columns, compact (four players) and
	// framed (two): waiting, composing a turn, and after ↓ in it (the next
	// column compact, the next row framed).
	if strings.Contains(name, "4p-seed9-seat0-80x19/") || strings.Contains(name, "2p-seed3-seat0-80x19/") {
		return strings.HasSuffix(name, "/move006") || strings.HasSuffix(name, "/move007") ||
			strings.HasSuffix(name, "/move008-0-down")
	}
	if !strings.Contains(name, "seat0-80x24/") && !strings.Contains(name, "spectator-120x40/") {
		return false
	}
	return strings.HasSuffix(name, "/move010") || strings.HasSuffix(name, "/move002-0-g") ||
		strings.HasSuffix(name, "/move003-1-n")
}

// TestCodingFrameGolden draws seeded games for seats and a spectator at
// three sizes, with keys pressed between moves, and compares every frame
// with the frames recorded before drawing was made faster.
func TestCodingFrameGolden(t *testing.T) {
	var got []string
	samples := map[string]string{}
	for _, g := range frameGames() {
		names, frames := drawGame(t, g)
		got = goldenFrames().AddAll(got, samples, names, frames, isSample)
	}
	goldenFrames().Check(t, got, samples, *updateFrames)
}

// BenchmarkFrameAfterMove draws one frame for seat 0 at 120×40 in the
// race, the board having drawn the table before the last move (as a
// session does: one SetView and one View per move).
func BenchmarkFrameAfterMove(b *testing.B) {
	g := newGame(b, 4, 14, cg.SystemSpeed)
	g.botsUntil(phaseIs(cg.Race))
	before := len(g.log)
	g.apply(1, cg.VoteAction())
	viewer := engine.SeatViewer(0)
	bd := New(new(boardtest.ColourStyles()), new(testKeys()))
	v := g.st.View(viewer)
	prev := board.Context{Viewer: viewer, Names: names, Status: g.st.Status(),
		Log: engine.FilterEvents(g.log[:before], viewer), Width: 120, Height: 40}
	next := prev
	next.Log = engine.FilterEvents(g.log, viewer)
	bd.SetView(v, prev)
	_ = bd.View()
	b.ReportAllocs()
	for b.Loop() {
		bd.SetView(v, next)
		_ = bd.View()
	}
}

// TestRememberedDrawingMatchesAFreshBoard: a board that keeps its memories
// across moves and many sizes, and has them dropped now and then, draws
// what a new board draws.
func TestRememberedDrawingMatchesAFreshBoard(t *testing.T) {
	for _, system := range []string{cg.SystemSpeed, cg.SystemCounter} {
		g := newGame(t, 3, 9, system)
		viewer := engine.SeatViewer(1)
		kept := New(new(boardtest.ColourStyles()), new(testKeys()))
		for move := 0; move < 40 && !g.st.Status().Finished; move++ {
			if move%7 == 6 {
				// Fill the memories past their bound, so they are dropped.
				for i := range widget.DefaultMemo + 1 {
					kept.width(fmt.Sprint("junk ", i))
				}
			}
			for w := 20; w <= 240; w += 11 {
				for _, h := range []int{4, 12, 30} {
					c := board.Context{Viewer: viewer, Names: []string{"mara", "Björk", "李小龙"}, Status: g.st.Status(),
						Log: engine.FilterEvents(g.log, viewer), Width: w, Height: h}
					kept.SetView(g.st.View(viewer), c)
					fresh := New(new(boardtest.ColourStyles()), new(testKeys()))
					fresh.SetView(g.st.View(viewer), c)
					if got, want := kept.View(), fresh.View(); got != want {
						t.Fatalf("%s move %d at %d×%d: the board that remembers drew\n%s\nwhere a new board draws\n%s", system, move, w, h, got, want)
					}
				}
			}
			moved := false
			for _, s := range g.st.Status().Active {
				a, err := (&cg.Bot{Seat: s, Level: cg.LevelEasy, Seed: uint64(move)}).Act(g.view(s))
				if err != nil {
					t.Fatalf("bot seat %d: %v", s, err)
				}
				if a != nil {
					g.apply(s, a)
					moved = true
					break
				}
			}
			if !moved {
				t.Fatalf("%s move %d: no bot moved", system, move)
			}
		}
	}
}

// stateOf prints b without its caches of drawn pieces, for PureView.
func stateOf(b *Board) string {
	c := *b
	c.paint, c.logs, c.widths, c.cardSegs = widget.Paints{}, widget.LogCache{}, widget.Widths{}, widget.Memo[cardKey, [3]string]{}
	return fmt.Sprintf("%+v", c)
}
