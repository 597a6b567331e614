package lobby

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/breakcode"
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
