package lobby

import (
	"sync"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
)

// gatedGame is the test game under another ID whose bots hold in Act until
// released, counting how many are inside at once.
type gatedGame struct {
	renamedGame
	gate *botGate
}

func (g gatedGame) NewBot(seat engine.Seat, level string, seed uint64) (engine.Bot, error) {
	inner, err := g.secretGame.NewBot(seat, level, seed)
	return gatedBot{inner: inner, gate: g.gate}, err
}

type botGate struct {
	release chan struct{}
	once    sync.Once
	mu      sync.Mutex
	inside  int
	most    int
}

type gatedBot struct {
	inner engine.Bot
	gate  *botGate
}

func (b gatedBot) Act(view any) ([]byte, error) {
	g := b.gate
	g.mu.Lock()
	g.inside++
	g.most = max(g.most, g.inside)
	g.mu.Unlock()
	<-g.release
	g.mu.Lock()
	g.inside--
	g.mu.Unlock()
	return b.inner.Act(view)
}

// open lets every bot through, now and from then on.
func (g *botGate) open() { g.once.Do(func() { close(g.release) }) }

func (g *botGate) now() (inside, most int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.inside, g.most
}

// TestBotsThinkAtMostBotThinkersAtOnce puts a bot to move at four tables
// at once and checks that only BotThinkers of them think at a time, and
// that every one still moves once they may.
func TestBotsThinkAtMostBotThinkersAtOnce(t *testing.T) {
	gate := &botGate{release: make(chan struct{})}
	h := testHub(t, newMemStore(), func(c *Config) { c.BotThinkers = 2 }, gatedGame{renamedGame{id: "gated", name: "Gated secrets"}, gate})
	t.Cleanup(gate.open) // runs before the hub closes, after a failure too
	var hosts []*Conn
	for range 4 {
		c, err := h.Create(ident("ann"+string(rune('a'+len(hosts)))), TableSpec{Game: "gated", Seats: 2, Bots: 1, Options: engine.Options{"turns": "0"}})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		if err := c.Act(say(0)); err != nil { // the bot's turn
			t.Fatal(err)
		}
		hosts = append(hosts, c)
	}
	deadline := time.Now().Add(10 * time.Second) // a bound, not a speed check
	for {
		if inside, _ := gate.now(); inside >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("two bots never started thinking")
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // room for a third to wrongly start
	if _, most := gate.now(); most != 2 {
		t.Fatalf("%d bots thought at once, want at most 2", most)
	}
	gate.open()
	for _, c := range hosts {
		waitView(t, c, "the bot's move", func(v TableView) bool { return v.Status.Turn == 3 })
	}
	if _, most := gate.now(); most > 2 {
		t.Errorf("%d bots thought at once, want at most 2", most)
	}
}
