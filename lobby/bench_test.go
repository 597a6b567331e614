package lobby

import (
	"fmt"
	"sync"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
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
			seats := make([]*Conn, 10)
			var err error
			seats[0], err = h.Create(ident("p0"), TableSpec{Game: "secret", Seats: 10, Options: engine.Options{"turns": "0"}})
			if err != nil {
				b.Fatal(err)
			}
			code := seats[0].View().Code
			for i := 1; i < 10; i++ {
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
