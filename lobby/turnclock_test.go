package lobby

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/engine/coding"
	"github.com/codebreakers/codebreakers/engine/ifthen"
	"github.com/codebreakers/codebreakers/engine/whattherule"
)

// timedOut says whether v's log tells that who's time ran out.
func timedOut(v TableView, who string) bool {
	for _, e := range v.Log {
		if e.Kind == "timeout" && strings.Contains(e.Text, "Time ran out for "+who) {
			return true
		}
	}
	return false
}

// In each game, a person who never moves cannot stall the table: when their
// turn time runs out the seat's bot moves for them (everyone's log says
// so), the game reaches its end, and its record replays to the same result.
// The turn time is a millisecond of real time: the test waits for the
// outcome, never for a duration.
func TestTurnClockPlaysSilentPersonToTheEnd(t *testing.T) {
	for _, tc := range []struct {
		game  engine.Game
		level string
		// toEnd plays the game out. What the Rule?! keeps its own timers
		// (five minutes to choose a rule), which the turn clock does not
		// double, so there the test stops at the first covered turn.
		toEnd bool
	}{
		{breakcode.Game{}, breakcode.LevelEasy, true},
		{coding.Game{}, coding.LevelEasy, true},
		{ifthen.Game{}, ifthen.LevelEasy, true},
		{whattherule.Game{}, whattherule.LevelEasy, false},
	} {
		info := tc.game.Info()
		t.Run(info.ID, func(t *testing.T) {
			store := newMemStore()
			h := testHub(t, store, func(c *Config) { c.TurnTime = time.Millisecond }, tc.game)
			ann, err := h.Create(ident("ann"), TableSpec{Game: info.ID, Seats: 2, Bots: 1, BotLevel: tc.level})
			if err != nil {
				t.Fatal(err)
			}
			if err := ann.Start(); err != nil {
				t.Fatal(err)
			}
			sawTimeout := false
			deadline := time.NewTimer(120 * time.Second)
			defer deadline.Stop()
			for {
				v := ann.View()
				sawTimeout = sawTimeout || timedOut(v, "ann")
				if !tc.toEnd && sawTimeout && store.seatMoves(v.GameID, 0) > 0 {
					return
				}
				if v.Phase == Finished || v.Phase == Broken {
					if v.Phase == Broken {
						t.Fatalf("table broke: %s", v.Notice)
					}
					break
				}
				select {
				case <-ann.Updates():
				case <-ann.Done():
					t.Fatalf("conn ended: %s", ann.Reason())
				case <-deadline.C:
					t.Fatalf("the game never ended with ann silent; turn %d notice %q status %+v deadline %v board %+v", v.Status.Turn, v.Notice, v.Status, v.Deadline, v.Board)
				}
			}
			if !sawTimeout {
				t.Fatal("ann's log never said her time ran out")
			}
			if v := ann.View(); v.Seats[0].Replaced || !v.Seats[0].Connected {
				t.Fatalf("ann lost her seat: %+v", v.Seats[0])
			}
			store.mu.Lock()
			var fg *engine.Record
			var res engine.Result
			for _, g := range store.finished {
				r := g.Record
				fg, res = &r, g.Result
			}
			store.mu.Unlock()
			if fg == nil {
				t.Fatal("no finished game stored")
			}
			annMoves := 0
			for _, m := range fg.Moves {
				if m.Seat == 0 {
					annMoves++
				}
			}
			if annMoves == 0 {
				t.Fatal("no move recorded for ann's seat")
			}
			st, _, err := engine.Replay(h.cfg.Games, *fg, -1)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := st.Result()
			if !ok || got.Summary != res.Summary {
				t.Fatalf("replay: %+v %v, want %+v", got, ok, res)
			}
		})
	}
}

// Leaving and coming back before the grace ends does not reset the turn
// clock: the deadline stays where the turn started it.
func TestTurnClockSurvivesReconnect(t *testing.T) {
	clk := &fakeClock{now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	h := testHub(t, newMemStore(), func(c *Config) { c.Now, c.TurnTime = clk.Now, time.Hour })
	ann, bob := startTwo(t, h, engine.Options{"turns": "30"})
	want := clk.Now().Add(time.Hour)
	if d := ann.View().Deadline; !d.Equal(want) {
		t.Fatalf("ann's turn: deadline %v, want %v", d, want)
	}
	if err := ann.Act(say(1)); err != nil {
		t.Fatal(err)
	}
	want = clk.Now().Add(time.Hour)
	if d := bob.View().Deadline; !d.Equal(want) {
		t.Fatalf("bob's turn: deadline %v, want %v", d, want)
	}
	for range 3 {
		clk.Add(10 * time.Minute)
		bob.Leave()
		var ok bool
		if bob, ok = h.Resume(ident("bob")); !ok {
			t.Fatal("bob cannot come back")
		}
		if d := bob.View().Deadline; !d.Equal(want) {
			t.Fatalf("bob back: deadline %v, want %v (the clock must not restart)", d, want)
		}
	}
	// His own move resets it for his next turn.
	if err := bob.Act(say(2)); err != nil {
		t.Fatal(err)
	}
	if d := ann.View().Deadline; !d.Equal(clk.Now().Add(time.Hour)) {
		t.Fatalf("ann's next turn: deadline %v", d)
	}
}

// Two connected people who never move: the clock plays both seats, turn by
// turn, to the end of the game, and both keep their seats.
func TestTurnClockPlaysEveryoneSilent(t *testing.T) {
	h := testHub(t, newMemStore(), func(c *Config) { c.TurnTime = time.Millisecond })
	ann, _ := startTwo(t, h, engine.Options{"turns": "6"})
	v := waitView(t, ann, "the game's end with nobody moving", func(v TableView) bool { return v.Phase == Finished })
	if !timedOut(v, "ann") || !timedOut(v, "bob") {
		t.Fatalf("log does not say both timed out: %+v", v.Log)
	}
	for i, s := range v.Seats {
		if s.Replaced || s.Bot || !s.Connected {
			t.Fatalf("seat %d after timeouts: %+v", i, s)
		}
	}
}

// --turn-time 0 (TurnTime negative here) turns the clock off: no deadline,
// and a silent person is waited for.
func TestTurnClockOff(t *testing.T) {
	for _, tc := range []struct {
		turn time.Duration
		on   bool
	}{{time.Hour, true}, {-1, false}} {
		h := testHub(t, newMemStore(), func(c *Config) { c.TurnTime = tc.turn })
		ann, _ := startTwo(t, h, engine.Options{"turns": "30"})
		v := ann.View()
		if on := !v.Deadline.IsZero(); on != tc.on || v.TurnClock != tc.on {
			t.Fatalf("TurnTime %v: clock shown %v (said to be the turn clock: %v), want %v", tc.turn, on, v.TurnClock, tc.on)
		}
	}
}

// seatMoves counts the moves game id's live log holds from seat.
func (m *memStore) seatMoves(id string, seat engine.Seat) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	if g := m.live[id]; g != nil {
		for _, mv := range g.Record.Moves {
			if mv.Seat == seat {
				n++
			}
		}
	}
	return n
}

// TestTurnClockTimerFiringEarlyTakesNoMove: the table keeps a turn-clock
// timer armed while moves push the earliest clock later, so it may fire
// before anyone's clock has run out; then it takes nobody's move, and the
// clock that is still running plays for its person when it does run out.
func TestTurnClockTimerFiringEarlyTakesNoMove(t *testing.T) {
	const turn = 300 * time.Millisecond
	store := newMemStore()
	// The clocks read real time here, as on a server: the table's timers do.
	h := testHub(t, store, func(c *Config) { c.TurnTime, c.Now = turn, time.Now })
	ann, bob := startTwo(t, h, engine.Options{"turns": "30"})
	// Moves a little apart, each well inside the turn: the timer armed for
	// the first clock fires while the later ones still run.
	for i := range 4 {
		time.Sleep(turn / 2) // pacing, not a timing assertion
		mover := ann
		if v := ann.View(); !slices.Contains(v.Status.Active, v.You.Seat) {
			mover = bob
		}
		if err := mover.Act(say(1)); err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
	}
	for _, c := range []*Conn{ann, bob} {
		for _, e := range c.View().Log {
			if strings.Contains(e.Text, "Time ran out") {
				t.Fatalf("a clock ran out though every move came in time: %q", e.Text)
			}
		}
	}
	// Now nobody moves: the clock of whoever is awaited runs out and a bot
	// moves for them.
	waitView(t, ann, "a clock running out", func(v TableView) bool {
		for _, e := range v.Log {
			if strings.Contains(e.Text, "Time ran out") {
				return true
			}
		}
		return false
	})
}
