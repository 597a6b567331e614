package tui

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	bc "github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/tui/board/boardtest"
)

// updateFrames rewrites the golden frames from the code as it is:
// go test -run TestBreakCodeFrameGolden -update-frames ./tui/
var updateFrames = flag.Bool("update-frames", false, "rewrite testdata/breakcode_frames.golden")

// goldenFrames hold one "name sha256" line per frame of the scripted
// sessions below: the frames must stay byte-identical while drawing gets
// faster. The sample file beside them keeps a few frames in full, for reading.
func goldenFrames() boardtest.Golden {
	return boardtest.Golden{Lines: "testdata/breakcode_frames.golden", Samples: "testdata/breakcode_frames_sample.golden", HashLen: 12}
}

// traceGame plays a Break the Code game by a fixed script and returns the
// table as viewer saw it after each of the first moves moves (the deal
// first), with versions counting up from 1. The seat to move asks about the
// first face-up card (its first number), except that on move wrongAt it
// guesses its own tiles (a wrong guess), on move rightAt (or when no card is
// left) it guesses right, and it passes a last chance; a negative move
// never comes. The script is not a bot, so the frames depend on the rules
// and their wording only, not on how a bot chooses.
func traceGame(t testing.TB, players []engine.Player, seed uint64, moves, wrongAt, rightAt int, viewer engine.Viewer) []lobby.TableView {
	t.Helper()
	st, _, err := engine.Start(bc.Game{}, nil, players, seed)
	if err != nil {
		t.Fatal(err)
	}
	var log []engine.Event
	views := []lobby.TableView{traceView(st, players, viewer, log, 1)}
	for m := range moves {
		s := st.Status()
		if s.Finished || len(s.Active) == 0 {
			break
		}
		seat := s.Active[0]
		v := st.View(engine.SeatViewer(seat)).(bc.View)
		all := st.View(engine.Omniscient()).(bc.View)
		right := all.Centre
		if v.CentreSize == 0 {
			right = all.Seats[1-seat].Hand
		}
		var act []byte
		switch {
		case v.Phase == bc.LastChance:
			act = bc.PassAction()
		case m == wrongAt:
			act = bc.GuessAction(v.Hand)
		case m == rightAt || len(v.FaceUp) == 0:
			act = bc.GuessAction(right)
		default:
			num := 0
			if ns := bc.CardNumbers(v.FaceUp[0]); len(ns) > 0 {
				num = ns[0]
			}
			act = bc.AskAction(v.FaceUp[0], num)
		}
		evs, err := st.Apply(seat, act)
		if err != nil {
			t.Fatalf("move %d by seat %d, %s: %v", m, seat, act, err)
		}
		log = append(log, evs...)
		views = append(views, traceView(st, players, viewer, log, uint64(len(views)+1)))
	}
	return views
}

// traceView is the table as the lobby would show it to viewer.
func traceView(st engine.State, players []engine.Player, viewer engine.Viewer, log []engine.Event, version uint64) lobby.TableView {
	v := st.View(viewer).(bc.View)
	tv := lobby.TableView{
		Version: version, Code: "KQ7M4X", GameID: "8F3K2", Game: bc.Game{}.Info(),
		Phase: lobby.Playing, You: viewer, Status: st.Status(), Board: v,
		Log: engine.FilterEvents(log, viewer), Spectators: 2,
	}
	for _, p := range players {
		level := ""
		if p.Bot {
			level = bc.LevelEasy
		}
		tv.Seats = append(tv.Seats, lobby.SeatView{Handle: textsafe.Text(p.Name), Bot: p.Bot, BotLevel: level, Connected: !p.Bot})
	}
	if r, ok := st.Result(); ok {
		tv.Phase = lobby.Finished
		tv.Result = &r
	}
	return tv
}

// openTableAt opens a session at w×h on the first of views.
func openTableAt(t testing.TB, views []lobby.TableView, w, h int) (*app, *fakeConn) {
	t.Helper()
	conn := newFakeConn(views[0])
	m := newTestApp(t, &fakeHub{conn: conn}, nil, w, h)
	run(t, m, send(m, keyMsg("enter"))) // quick play…
	run(t, m, send(m, keyMsg("enter"))) // …with the bots offered first
	if _, ok := m.top().(*tableScreen); !ok {
		t.Fatal("table not opened")
	}
	return m, conn
}

// showView hands the session a new table view, as the table's pump would.
func showView(t testing.TB, m *app, conn *fakeConn, v lobby.TableView) {
	t.Helper()
	conn.setView(v)
	run(t, m, send(m, tableChangedMsg{conn: conn}))
}

// frameScript is one session following a game, with things it does between
// moves: keys pressed and window resizes.
type frameScript struct {
	name             string
	players          []engine.Player
	seed             uint64
	wrongAt, rightAt int // the moves of the script's guesses (see traceGame)
	viewer           engine.Viewer
	w, h             int
}

// frameActions are what the session does after seeing move i (cycled
// every actionCycle moves): move the cursor, pick a number, open, type in
// and close the guess entry, the notepad, the help and the chat, ask out of
// turn, and resize the window.
var frameActions = map[int][]string{
	1:  {"down"},
	2:  {"right", "down"},
	3:  {"g"},
	4:  {"1b 2"},
	5:  {"backspace", "esc"},
	6:  {"resize"},
	7:  {"n"},
	8:  {"down", "n"},
	9:  {"resize", "enter"},
	10: {"?", "esc"},
	11: {"c", "hi", "esc", "up", "3"},
}

const actionCycle = 12

func frameScripts() []frameScript {
	people := func(names ...string) []engine.Player {
		var ps []engine.Player
		for i, n := range names {
			// The last seat is a bot, as at the load test's tables.
			ps = append(ps, engine.Player{Name: n, Bot: i == len(names)-1})
		}
		return ps
	}
	var out []frameScript
	games := []struct {
		players          []engine.Player
		seed             uint64
		wrongAt, rightAt int
	}{
		{people("mara", "Bo"), 3, 4, 13},
		{people("mara", "Bo", "Kai"), 7, 5, 16},
		{people("mara", "Björk Guðmundsdóttir", "李小龙"), 11, 3, 18},
		{people("mara", "Bo", "Kai", "Ana"), 5, 6, 12},
	}
	sizes := [][2]int{{80, 24}, {120, 40}, {60, 20}}
	for gi, g := range games {
		viewers := []engine.Viewer{engine.SeatViewer(0), engine.SeatViewer(1), engine.Spectator()}
		for _, v := range viewers {
			for si, sz := range sizes {
				if si == 2 && gi%2 == 1 {
					continue // the smallest window for half the games is enough
				}
				who := "spectator"
				if v.Kind == engine.ViewerSeat {
					who = fmt.Sprintf("seat%d", v.Seat)
				}
				out = append(out, frameScript{
					name:    fmt.Sprintf("%dp-seed%d-%s-%dx%d", len(g.players), g.seed, who, sz[0], sz[1]),
					players: g.players, seed: g.seed, wrongAt: g.wrongAt, rightAt: g.rightAt,
					viewer: v, w: sz[0], h: sz[1],
				})
			}
		}
	}
	return out
}

// runFrameScript plays one script and returns its frames by name, in order.
func runFrameScript(t testing.TB, sc frameScript) (names, frames []string) {
	views := traceGame(t, sc.players, sc.seed, 60, sc.wrongAt, sc.rightAt, sc.viewer)
	m, conn := openTableAt(t, views, sc.w, sc.h)
	big := false
	w, h := sc.w, sc.h
	for i, v := range views {
		showView(t, m, conn, v)
		names = append(names, fmt.Sprintf("%s/move%02d", sc.name, i))
		frames = append(frames, m.View().Content)
		checkFits(t, m, w, h)
		acts := frameActions[i%actionCycle]
		for k, a := range acts {
			switch {
			case a == "resize":
				big = !big
				w, h = sc.w, sc.h
				if big {
					w, h = sc.w+17, sc.h+5
				}
				run(t, m, send(m, tea.WindowSizeMsg{Width: w, Height: h}))
			case len(a) > 1 && !isKeyName(a):
				typeText(t, m, a)
			default:
				press(t, m, a)
			}
			names = append(names, fmt.Sprintf("%s/move%02d-%d-%s", sc.name, i, k, a))
			frames = append(frames, m.View().Content)
		}
	}
	return names, frames
}

// isSample says which frames the sample file keeps in full: a few moments
// of two games at the two load-test sizes (framed tiles), and one of four
// players at 80×24 (the compact fallback).
func isSample(name string) bool {
	if name == "4p-seed5-seat0-80x24/move05" {
		return true
	}
	if !strings.HasPrefix(name, "3p-seed11-seat0-") && !strings.HasPrefix(name, "2p-seed3-spectator-") {
		return false
	}
	if strings.Contains(name, "-60x20/") {
		return false
	}
	return strings.HasSuffix(name, "/move05") || strings.HasSuffix(name, "/move07-0-n") || strings.HasSuffix(name, "/move03-0-g")
}

func isKeyName(s string) bool {
	switch s {
	case "enter", "esc", "up", "down", "left", "right", "backspace", "tab", "space":
		return true
	}
	return false
}

// TestBreakCodeFrameGolden replays scripted sessions (seats and spectators,
// 2–4 players, several window sizes, keys and resizes between moves) and
// checks every frame is byte-identical to the recorded one. One session
// follows each whole game, so whatever the board and the app keep between
// frames must be renewed exactly when its inputs change.
func TestBreakCodeFrameGolden(t *testing.T) {
	var got []string
	samples := map[string]string{}
	for _, sc := range frameScripts() {
		names, frames := runFrameScript(t, sc)
		got = goldenFrames().AddAll(got, samples, names, frames, isSample)
	}
	goldenFrames().Check(t, got, samples, *updateFrames)
}
