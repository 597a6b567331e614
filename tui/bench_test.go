package tui

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// benchTable opens a 4-player board at 80×24 for the session.
func benchTable(b *testing.B) (*app, *fakeConn, engine.State) {
	t := b
	st := dealt(t, 4, 3)
	log := playFew(t, st, 9)
	conn := newFakeConn(tableView(st, engine.SeatViewer(0), log, 1))
	m := newTestApp(t, &fakeHub{conn: conn}, nil, 80, 24)
	run(t, m, send(m, keyMsg("enter"))) // quick play…
	run(t, m, send(m, keyMsg("enter"))) // …with the bots offered first
	if _, ok := m.top().(*tableScreen); !ok {
		b.Fatal("table not opened")
	}
	return m, conn, st
}

// BenchmarkFrameBoard4p is the cost of drawing one changed 80×24 frame of a
// 4-player board (what every table change costs each session).
func BenchmarkFrameBoard4p(b *testing.B) {
	m, _, _ := benchTable(b)
	b.ReportAllocs()
	for b.Loop() {
		m.draw()
		m.ViewLines() // what frame.Hook asks for
	}
}

// BenchmarkFrameUnchanged is ViewLines when nothing changed: the kept frame.
func BenchmarkFrameUnchanged(b *testing.B) {
	m, _, _ := benchTable(b)
	m.ViewLines() // what frame.Hook asks for
	b.ReportAllocs()
	for b.Loop() {
		m.ViewLines() // what frame.Hook asks for
	}
}

// BenchmarkTableChange is one table notification: pull the view, re-sync
// the board, draw the frame.
func BenchmarkTableChange(b *testing.B) {
	m, conn, _ := benchTable(b)
	v := conn.View()
	b.ReportAllocs()
	for b.Loop() {
		v.Version++
		conn.setView(v)
		m.Update(tableChangedMsg{conn: conn})
		m.ViewLines() // what frame.Hook asks for
	}
}

// breakCodeBench is a 3-player Break the Code table as at the load test
// (two people and a bot) seen by viewer at w×h, and mid-game views (moves
// 7 to 14, each with a populated log) of several games dealt from
// different seeds, in play order.
func breakCodeBench(b *testing.B, viewer engine.Viewer, w, h int) (*app, *fakeConn, []lobby.TableView) {
	players := []engine.Player{{Name: "mara"}, {Name: "Bo"}, {Name: "Kai", Bot: true}}
	var mid []lobby.TableView
	for seed := uint64(1); seed <= 6; seed++ {
		views := traceGame(b, players, seed, 14, -1, -1, viewer) // questions only
		if len(views) != 15 {
			b.Fatalf("seed %d: the game ended after %d moves", seed, len(views)-1)
		}
		mid = append(mid, views[7:15]...)
	}
	m, conn := openTableAt(b, mid, w, h)
	return m, conn, mid
}

func breakCodeBenchCases(b *testing.B, f func(b *testing.B, m *app, conn *fakeConn, views []lobby.TableView)) {
	for _, who := range []struct {
		name string
		v    engine.Viewer
	}{{"seat", engine.SeatViewer(0)}, {"spectator", engine.Spectator()}} {
		// 100×30 is the load test's terminal (BenchmarkTablesPlay's).
		for _, sz := range [][2]int{{80, 24}, {100, 30}, {120, 40}} {
			b.Run(fmt.Sprintf("%s/%dx%d", who.name, sz[0], sz[1]), func(b *testing.B) {
				m, conn, views := breakCodeBench(b, who.v, sz[0], sz[1])
				f(b, m, conn, views)
			})
		}
	}
}

// BenchmarkBreakCodeFrame is one table change at a mid-game Break the Code
// table: the session takes the next move's view and draws its whole frame
// (what every move costs each seat and spectator). The turn number in the
// title is new on every frame, as in a game, so nothing the session
// remembers can stand in for drawing what a move changed; the views come
// from several games so the board's own memory meets new notes and log
// lines too.
func BenchmarkBreakCodeFrame(b *testing.B) {
	breakCodeBenchCases(b, func(b *testing.B, m *app, conn *fakeConn, views []lobby.TableView) {
		version := uint64(100)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			v := views[i%len(views)]
			version++
			v.Version = version
			v.Status.Turn = int(version)
			conn.setView(v)
			m.Update(tableChangedMsg{conn: conn})
			m.ViewLines() // what frame.Hook asks for
		}
	})
}

// BenchmarkBreakCodeRedraw draws the same mid-game table again, as after
// a key press that changed nothing on the board.
func BenchmarkBreakCodeRedraw(b *testing.B) {
	breakCodeBenchCases(b, func(b *testing.B, m *app, conn *fakeConn, views []lobby.TableView) {
		v := views[len(views)/2]
		v.Version = 99
		conn.setView(v)
		m.Update(tableChangedMsg{conn: conn})
		b.ReportAllocs()
		for b.Loop() {
			m.draw()
			m.ViewLines() // what frame.Hook asks for
		}
	})
}

// BenchmarkKeyBarFirstDraw is a Break the Code seat's key bar drawn by a
// session that has drawn none yet, as each of the load test's many short
// sessions does for every bar it shows: at 80 and 120 columns.
func BenchmarkKeyBarFirstDraw(b *testing.B) {
	for _, w := range []int{80, 120} {
		b.Run(fmt.Sprint(w), func(b *testing.B) {
			m, _, _ := breakCodeBench(b, engine.SeatViewer(0), w, 24)
			ks := m.top().shortHelp(m)
			b.ReportAllocs()
			for b.Loop() {
				m.parts = frameParts{}
				_ = m.keyBar(ks)
			}
		})
	}
}

// BenchmarkTitleBarNewTitle is the title bar made for a title it has not
// drawn (a move changes whose turn the title names), at 100 columns.
func BenchmarkTitleBarNewTitle(b *testing.B) {
	st := stylesFor(true, false)
	title, end := widget.NewPainter(&st.title), widget.NewPainter(&st.titleEnd)
	texts := make([]string, 1000)
	for i := range texts {
		texts[i] = fmt.Sprintf("table · ABCD · player %d to ask", i)
	}
	var place titlePlace
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		_ = titleBar(title, end, &place, texts[i%len(texts)], "move 7", 100)
	}
}

// BenchmarkBreakCodeSessionHeld is the memory a session at a Break the
// Code table (a seat, 80×24) keeps between moves once it has drawn 48 of
// them (eight moves from each of six games, as rematches): the live heap
// after a collection, per session, of sessions held at once. The views are shared by all of them, as a
// table's are, so what is counted is each session's own: its screens,
// board and what they remember. Beside the bytes it reports what a
// collection must scan of them (scan-B: objects that hold pointers, up to
// their last pointer; pointer-free memory is only marked) and how many
// objects they are, since marking costs by those, not by bytes.
func BenchmarkBreakCodeSessionHeld(b *testing.B) {
	_, _, views := breakCodeBench(b, engine.SeatViewer(0), 80, 24)
	benchSessionsHeld(b, views)
}

// BenchmarkBreakCodeSessionHeldOneGame is BenchmarkBreakCodeSessionHeld
// for a session that has seen one game's first 14 moves, as most of the
// load test's sessions have: what a board remembers of several games
// (its memories' bounds) does not count here.
func BenchmarkBreakCodeSessionHeldOneGame(b *testing.B) {
	players := []engine.Player{{Name: "mara"}, {Name: "Bo"}, {Name: "Kai", Bot: true}}
	views := traceGame(b, players, 1, 14, -1, -1, engine.SeatViewer(0))
	benchSessionsHeld(b, views)
}

// benchSessionsHeld reports the live heap each of 20 sessions holds once
// it has drawn views, one after another (see BenchmarkBreakCodeSessionHeld).
func benchSessionsHeld(b *testing.B, views []lobby.TableView) {
	const held = 20
	var total heapUse
	for b.Loop() {
		sessions := make([]*app, held)
		before := liveHeap()
		for i := range sessions {
			m, conn := openTableAt(b, views, 80, 24)
			for j, v := range views {
				v.Version = uint64(100 + j)
				showView(b, m, conn, v)
			}
			sessions[i] = m
		}
		after := liveHeap()
		total.bytes += after.bytes - before.bytes
		total.scan += after.scan - before.scan
		total.objects += after.objects - before.objects
		runtime.KeepAlive(sessions)
	}
	n := float64(b.N * held)
	b.ReportMetric(float64(total.bytes)/n, "held-B/session")
	b.ReportMetric(float64(total.scan)/n, "scan-B/session")
	b.ReportMetric(float64(total.objects)/n, "objs/session")
}

// heapUse is the live heap just after a collection: its bytes, the bytes
// a collection scans of it, and its objects.
type heapUse struct{ bytes, scan, objects int64 }

// liveHeap is the heap in use just after a collection.
func liveHeap() heapUse {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/scan/heap:bytes"}}
	metrics.Read(sample)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return heapUse{bytes: int64(ms.HeapAlloc), scan: int64(sample[0].Value.Uint64()), objects: int64(ms.HeapObjects)}
}
