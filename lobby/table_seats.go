// The table's seats and spectators: joining and taking a seat back,
// leaving, the host, and the grace a seat gets when its person drops.

package lobby

import (
	"fmt"
	"slices"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/words"
)

// seating is who is at the table. Owned by the table goroutine.
type seating struct {
	seats      []*seat
	host       int // the seat that may start the game
	spectators map[*Conn]struct{}
}

// seat is one place at a table, as the table goroutine sees it.
type seat struct {
	id       Identity // Account empty: open seat, or a bot seat when bot is set
	bot      bool     // a bot was seated here (by the creator or to fill the seat)
	botLevel string
	ready    bool
	replaced bool  // a bot took over from the person who held it
	conn     *Conn // the person's live session, if any

	grace    *time.Timer
	graceGen uint64 // bumps to invalidate a pending grace expiry

	ctl      engine.Bot // the bot playing this seat now, if any
	thinking bool       // ctl is working on a move

	// awaited is when the turn clock started on the move the game awaits
	// from this person (by cfg.Now); zero when none is awaited. Only a move
	// from the seat resets it, never a reconnection.
	awaited time.Time
	// outOfTime marks ctl as covering one move for a person whose time ran
	// out: it moves even though the person is connected, and leaves the
	// seat to them once that move is made.
	outOfTime bool
}

// openSeats returns n open seats, for a new table before its goroutine
// starts.
func openSeats(n int) []*seat {
	seats := make([]*seat, n)
	for i := range seats {
		seats[i] = &seat{}
	}
	return seats
}

func (s *seat) open() bool { return !s.bot && s.id.Account == "" }

func (s *seat) human() bool { return !s.bot && s.id.Account != "" }

// joinConn seats id (or resumes the seat it holds) and returns its Conn.
func (t *table) joinConn(id Identity, resumeOnly bool) (*Conn, error) {
	var c *Conn
	err := t.call(func() error {
		var err error
		c, err = t.join(id, resumeOnly)
		return err
	})
	if err != nil && c != nil {
		c.end(err.Error())
		return nil, err
	}
	return c, err
}

// watchConn adds a spectator.
func (t *table) watchConn(id Identity) (*Conn, error) {
	var c *Conn
	err := t.call(func() error {
		c = newConn(t, id, engine.Spectator())
		t.spectators[c] = struct{}{}
		t.dirty = true
		return nil
	})
	if err != nil && c != nil {
		c.end(err.Error())
		return nil, err
	}
	return c, err
}

// seatOf returns the seat held by account, or -1.
func (t *table) seatOf(account string) int {
	return slices.IndexFunc(t.seats, func(s *seat) bool { return s.human() && s.id.Account == account })
}

// join gives id its seat back (taking over a live session) or a free one.
func (t *table) join(id Identity, resumeOnly bool) (*Conn, error) {
	if i := t.seatOf(id.Account); i >= 0 {
		if resumeOnly && t.phase != Waiting && t.phase != Playing {
			return nil, ErrNotHere
		}
		s := t.seats[i]
		c := newConn(t, id, engine.SeatViewer(engine.Seat(i)))
		if s.conn != nil {
			s.conn.end("Your key signed in elsewhere.")
		} else if t.phase == Playing {
			t.tell(fmt.Sprintf("%s is back.", s.id.Handle))
		}
		s.conn = c
		t.cancelGrace(s)
		// A bot covering a move whose time ran out keeps it: coming back
		// must not buy more time.
		if s.ctl != nil && !s.bot && !s.outOfTime { // a bot was covering; the person takes over again
			s.ctl, s.thinking = nil, false
		}
		t.hub.setSeat(id.Account, t)
		t.dirty = true
		return c, nil
	}
	if resumeOnly {
		return nil, ErrNotHere
	}
	switch t.phase {
	case Playing:
		return nil, engine.Illegal("That game has already started; you can watch it instead.")
	case Finished, Broken:
		return nil, engine.Illegal("That game is over; you can watch the table instead.")
	}
	i := slices.IndexFunc(t.seats, (*seat).open)
	if i < 0 {
		return nil, engine.Illegal("That table is full; you can watch it instead.")
	}
	c := newConn(t, id, engine.SeatViewer(engine.Seat(i)))
	t.seats[i] = &seat{id: id, conn: c}
	t.hub.setSeat(id.Account, t)
	t.tell(fmt.Sprintf("%s sat down.", id.Handle))
	t.dirty = true
	return c, nil
}

// seatOfConn returns the seat c plays, or a refusal when c is a spectator
// or no longer holds it.
func (t *table) seatOfConn(c *Conn) (*seat, error) {
	if c.viewer.Kind != engine.ViewerSeat {
		return nil, engine.Illegal("Spectators cannot do that; join a table to play.")
	}
	if s := t.seats[c.viewer.Seat]; s.conn == c {
		return s, nil
	}
	return nil, ErrNotHere
}

// detach handles a Conn that left.
func (t *table) detach(c *Conn) {
	if c.viewer.Kind != engine.ViewerSeat {
		if _, ok := t.spectators[c]; ok {
			delete(t.spectators, c)
			t.dirty = true
			t.maybeClose()
		}
		return
	}
	i := int(c.viewer.Seat)
	s := t.seats[i]
	if s.conn != c {
		return // a newer login holds the seat
	}
	s.conn = nil
	t.dirty = true
	switch t.phase {
	case Waiting:
		t.hub.dropSeat(s.id.Account, t)
		t.tell(fmt.Sprintf("%s left.", s.id.Handle))
		t.seats[i] = &seat{}
		if i == t.host {
			t.pickHost()
		}
	case Playing:
		t.tell(fmt.Sprintf("%s disconnected; their seat is held for %s.", s.id.Handle, humanDuration(t.cfg.Grace)))
		t.startGrace(i)
	}
	t.maybeClose()
}

// pickHost passes the host role to a connected person, else any person.
func (t *table) pickHost() {
	if i := slices.IndexFunc(t.seats, func(s *seat) bool { return s.human() && s.conn != nil }); i >= 0 {
		t.host = i
		return
	}
	t.host = max(slices.IndexFunc(t.seats, (*seat).human), 0)
}

// startGrace holds seat i for the grace period.
func (t *table) startGrace(i int) {
	s := t.seats[i]
	t.cancelGrace(s)
	gen := s.graceGen
	s.grace = time.AfterFunc(t.cfg.Grace, func() {
		t.post(func() error {
			if s.graceGen == gen {
				t.graceOver(i)
			}
			return nil
		})
	})
}

func (t *table) cancelGrace(s *seat) {
	s.graceGen++
	if s.grace != nil {
		s.grace.Stop()
		s.grace = nil
	}
}

// graceOver applies the table's policy once a seat's grace has run out: a
// bot takes the seat, or the game is abandoned when no person is left.
func (t *table) graceOver(i int) {
	s := t.seats[i]
	if t.phase == Playing && s.conn == nil && s.outOfTime {
		// The bot covering a move that ran out of time stays on for good.
		s.outOfTime, s.replaced, s.ready = false, true, false
		t.hub.botTookSeat(s.id.Account, t)
		t.tell(fmt.Sprintf("%s left; a bot took the seat.", s.id.Handle))
		t.dirty = true
		return
	}
	if t.phase != Playing || s.conn != nil || s.ctl != nil {
		return
	}
	if !slices.ContainsFunc(t.seats, func(s *seat) bool { return s.conn != nil }) {
		t.abandon("Everyone left, so the game was abandoned; it is not recorded.")
		return
	}
	if t.botLevel == "" {
		t.abandon(fmt.Sprintf("%s left and no bot can take the seat, so the game was abandoned; it is not recorded.", s.id.Handle))
		return
	}
	bot, err := t.game.NewBot(engine.Seat(i), t.botLevel, t.botSeed(i))
	if err != nil {
		t.log.Error("new bot for a replaced seat", "code", t.code, "game_id", t.gameID, "seat", i, "err", err)
		t.abandon(fmt.Sprintf("%s left and no bot could take the seat, so the game was abandoned; it is not recorded.", s.id.Handle))
		return
	}
	s.ctl, s.replaced, s.ready = bot, true, false
	t.hub.botTookSeat(s.id.Account, t)
	t.tell(fmt.Sprintf("%s left; a bot took the seat.", s.id.Handle))
	t.dirty = true
	t.runBots()
}

// humanDuration says d the way a notice would: "1 minute", "90 seconds".
func humanDuration(d time.Duration) string { return words.Duration(d) }
