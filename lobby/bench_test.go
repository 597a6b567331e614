package lobby

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/storage"
)

// BenchmarkFanOut measures one accepted action at a table with 10 seated
// people and 100 spectators: engine apply, append to an in-memory store,
// eleven per-viewer views rebuilt and published, 110 Conns notified.
// "idle" viewers never read; "reading" viewers each pull every view they are
// told about, as sessions do.
func BenchmarkFanOut(b *testing.B) {
	for _, reading := range []bool{false, true} {
		name := "idle"
		if reading {
			name = "reading"
		}
		b.Run(name, func(b *testing.B) {
			h := testHub(b, newMemStore(), nil)
			seats, code := startedTable(b, h, 10, TableSpec{Game: "secret", Seats: 10, Options: engine.Options{"turns": "0"}})
			var wg sync.WaitGroup
			for i := range 100 {
				w, err := h.Watch(ident(fmt.Sprintf("w%d", i)), code)
				if err != nil {
					b.Fatal(err)
				}
				if reading {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for {
							select {
							case <-w.Updates():
								_ = w.View()
							case <-w.Done():
								return
							}
						}
					}()
				}
			}
			action := say(1)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if err := seats[i%10].Act(action); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			h.Close()
			wg.Wait()
		})
	}
}

// BenchmarkChatFanOut measures one chat line, which changes nothing in the
// game, published to every viewer: "secret" is a table of 10 seated people
// and 100 spectators over the test game, "breakcode" a Break the Code table
// of two people and a bot, as in the load test, also with 100 spectators.
// Nobody reads, so the figure is the table goroutine's own work.
func BenchmarkChatFanOut(b *testing.B) {
	cases := []struct {
		name         string
		spec         TableSpec
		people, bots int
	}{
		{"secret", TableSpec{Game: "secret", Seats: 10, Options: engine.Options{"turns": "0"}}, 10, 0},
		{"breakcode", TableSpec{Game: breakcode.ID, Seats: 3, Bots: 1, BotLevel: breakcode.LevelEasy}, 2, 1},
	}
	for _, bc := range cases {
		b.Run(bc.name, func(b *testing.B) {
			clock := &fakeClock{now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
			h := testHub(b, newMemStore(), func(c *Config) { c.Now = clock.Now }, breakcode.Game{})
			seats, code := startedTable(b, h, bc.people, bc.spec)
			for i := range 100 {
				if _, err := h.Watch(ident(fmt.Sprintf("w%d", i)), code); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				clock.Add(time.Minute) // stay under the chat rate limit
				if err := seats[i%bc.people].Chat("hello there"); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			h.Close()
		})
	}
}

// startedTable creates a table from spec, seats people players (p0 hosts,
// the rest join and get ready), starts it and returns the seats and code.
func startedTable(b *testing.B, h *Hub, people int, spec TableSpec) ([]*Conn, string) {
	b.Helper()
	seats := make([]*Conn, people)
	var err error
	if seats[0], err = h.Create(ident("p0"), spec); err != nil {
		b.Fatal(err)
	}
	code := seats[0].View().Code
	for i := 1; i < people; i++ {
		if seats[i], err = h.Join(ident(fmt.Sprintf("p%d", i)), code); err != nil {
			b.Fatal(err)
		}
		if err := seats[i].SetReady(true); err != nil {
			b.Fatal(err)
		}
	}
	if err := seats[0].Start(); err != nil {
		b.Fatal(err)
	}
	return seats, code
}

// BenchmarkBreakCodeGameCycle plays Break the Code games as the load test's
// tables do, over a real bbolt file: two people (their moves chosen by
// easy bots from their own views) and an easy bot, every move durable
// before it is shown; at the end the host asks for a rematch and the guest
// gets ready, which deals the next game. One op is one game, start to
// finish and restart. It reports the process's CPU per game and per move,
// and apart the CPU of the game's end and restart: from the move that ends
// it (the finished game stored) through the rematch to the next game's
// first turn.
func BenchmarkBreakCodeGameCycle(b *testing.B) {
	db, err := storage.Open(filepath.Join(b.TempDir(), "arcade.db"), storage.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	h := testHub(b, db, nil, breakcode.Game{})
	spec := TableSpec{Game: breakcode.ID, Seats: 3, Bots: 1, BotLevel: breakcode.LevelEasy}
	seats, _ := startedTable(b, h, 2, spec)
	helpers := make([]engine.Bot, len(seats))
	for i := range helpers {
		if helpers[i], err = (breakcode.Game{}).NewBot(engine.Seat(i), breakcode.LevelEasy, uint64(7+i)); err != nil {
			b.Fatal(err)
		}
	}
	// next waits for a person's turn or the game's end, and says which.
	next := func() (who int, v TableView) {
		for {
			for i, c := range seats {
				v := c.View()
				if v.Phase != Playing {
					return -1, v
				}
				if bv, ok := v.Board.(breakcode.View); ok && bv.YourTurn() {
					return i, v
				}
			}
			select {
			case <-seats[0].Updates():
			case <-seats[1].Updates():
			case <-time.After(time.Millisecond):
			}
		}
	}
	var moves int
	var endCPU time.Duration
	b.ResetTimer()
	cpu0 := processCPU(b)
	for range b.N {
		var lastMove time.Duration
		for {
			who, v := next()
			if who < 0 {
				break
			}
			act, err := helpers[v.Board.(breakcode.View).Viewer.Seat].Act(v.Board)
			if err != nil || act == nil {
				b.Fatalf("helper: %s %v", act, err)
			}
			before := processCPU(b)
			if err := seats[who].Act(act); err != nil {
				b.Fatal(err)
			}
			moves++
			lastMove = before
		}
		// The end: the final move (a person's, or a bot's after it) and the
		// finished game's write, then the rematch and the new deal.
		if err := seats[0].Rematch(); err != nil {
			b.Fatal(err)
		}
		if err := seats[1].SetReady(true); err != nil {
			b.Fatal(err)
		}
		if _, v := next(); v.Phase != Playing {
			b.Fatalf("phase %v after the rematch", v.Phase)
		}
		endCPU += processCPU(b) - lastMove
	}
	cpu := processCPU(b) - cpu0
	b.StopTimer()
	b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/game")
	b.ReportMetric(float64(moves)/float64(b.N), "person-moves/game")
	b.ReportMetric(float64(endCPU.Microseconds())/1e3/float64(b.N), "end-cpu-ms/game")
}

// processCPU is the process's user and system CPU so far.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
