package tui

import (
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// benchTable opens a 4-player board at 80×24 for the session.
func benchTable(b *testing.B) (*app, *fakeConn, engine.State) {
	t := b
	st := dealt(t, 4, 3)
	log := playFew(t, st, 9)
	conn := newFakeConn(tableView(st, engine.SeatViewer(0), log, 1))
	m := newTestApp(t, &fakeHub{conn: conn}, nil, 80, 24)
	run(t, m, send(m, keyMsg("enter")))
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
		m.dirty = true
		_ = m.View()
	}
}

// BenchmarkFrameUnchanged is View when nothing changed: the cached frame.
func BenchmarkFrameUnchanged(b *testing.B) {
	m, _, _ := benchTable(b)
	_ = m.View()
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
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
		_ = m.View()
	}
}
