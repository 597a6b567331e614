package tui

import (
	"os"
	"runtime"
	"runtime/pprof"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

func BenchmarkZZHeapProfile(t *testing.B) {
	runtime.MemProfileRate = 1
	_, _, views := breakCodeBench(t, engine.SeatViewer(0), 80, 24)
	sessions := make([]*app, 20)
	for i := range sessions {
		m, conn := openTableAt(t, views, 80, 24)
		for j, v := range views {
			v.Version = uint64(100 + j)
			showView(t, m, conn, v)
		}
		sessions[i] = m
	}
	runtime.GC()
	runtime.GC()
	f, _ := os.Create("/tmp/heapwt/tui.heap")
	pprof.WriteHeapProfile(f)
	f.Close()
	runtime.KeepAlive(sessions)
}
