// A move's way through the table: from a seat (act), a bot (botDone) or
// the engine's timer (armTimer) to apply, which has the engine judge it,
// the Store keep it, and only then everyone see it (settle, publish).

package lobby

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/codebreakers/codebreakers/engine"
)

// moving is the state of the moves between turns. Owned by the table
// goroutine.
type moving struct {
	timer    *time.Timer
	deadline time.Time // when timer fires, by cfg.Now; zero when none is armed
	// turnDue is when the turn clock's timer fires, if that is the timer
	// armed (zero for the game's own): the deadline is then the turn clock's.
	turnDue time.Time
	// saveFailures counts the moves the Store refused in a row: bots wait
	// longer after each (botBackoff) instead of retrying in a tight loop
	// against a full disk, and appendErrs logs the run once, with a count.
	saveFailures int
	appendErrs   repeatLog
}

// act applies a player's action for their seat.
func (t *table) act(c *Conn, action []byte) error {
	if _, err := t.seatOfConn(c); err != nil {
		return err
	}
	if t.phase != Playing {
		return engine.Illegal("The game is not in progress.")
	}
	return t.apply(c.viewer.Seat, action)
}

// apply validates an action with the engine, makes it durable, and then
// lets everyone see it. Nothing is shown before the Store has it.
func (t *table) apply(s engine.Seat, action []byte) error {
	o := t.hub.cfg.Observer
	if o == nil {
		return t.applyMove(s, action)
	}
	began := time.Now()
	outcome := OutcomeFailed // stays so when the engine panics (guard recovers above us)
	defer func() { o.Action(t.info.ID, outcome, time.Since(began)) }()
	err := t.applyMove(s, action)
	outcome = outcomeOf(err)
	return err
}

// applyMove is apply without the measuring.
func (t *table) applyMove(s engine.Seat, action []byte) error {
	events, err := t.state.Apply(s, action)
	if err != nil {
		if engine.IsIllegal(err) {
			return err // the engine left the state untouched
		}
		t.stateChanged() // no promise that a failing engine changed nothing
		t.log.Error("engine refused a move", "code", t.code, "game_id", t.gameID, "seat", s, "err", err)
		return errEngineFailed
	}
	m := engine.Move{Seat: s, Action: bytes.Clone(action)}
	if err := t.hub.cfg.Store.AppendMove(t.gameID, len(t.record.Moves), m); err != nil {
		t.saveFailures++
		t.appendErrs.fail(t.log, t.cfg.Now(), err, "code", t.code, "game_id", t.gameID)
		// The engine has moved on but the log has not: rebuild from the log.
		st, _, rerr := engine.Replay(t.hub.cfg.Games, t.record, -1)
		if rerr != nil {
			t.breakDown(fmt.Sprintf("rebuild after failed append: %v", rerr), nil)
			return ErrBroken
		}
		t.state = st
		t.gen++
		t.stateChanged()
		t.settle()
		return ErrNotSaved
	}
	t.record.Moves = append(t.record.Moves, m)
	if t.playedByPerson(s) {
		t.personMoves++
	}
	t.moved(s)
	t.beatUntil = time.Now().Add(readingTime(t.cfg.BotDelay, len(events)))
	if t.saveFailures > 0 {
		t.saveFailures = 0
		t.appendErrs.recovered(t.log, "code", t.code, "game_id", t.gameID)
	}
	t.logs.push(len(t.seats), events)
	t.gen++
	t.stateChanged()
	t.dirty = true
	t.settle()
	return nil
}

// errEngineFailed is what a player sees when the engine fails a move for a
// reason other than the rules.
var errEngineFailed = engine.Illegal("Something went wrong with that move, so it did not count.")

// outcomeOf classifies apply's result for the Observer.
func outcomeOf(err error) Outcome {
	switch {
	case err == nil:
		return OutcomeOK
	case err == errEngineFailed || err == ErrNotSaved || err == ErrBroken:
		return OutcomeFailed
	case engine.IsIllegal(err):
		return OutcomeIllegal
	default:
		return OutcomeFailed
	}
}

// settle looks at the state after a change: the end of the game, timers, bots.
func (t *table) settle() {
	t.status = t.state.Status()
	if res, ok := t.state.Result(); ok {
		t.finish(res)
		return
	}
	t.armTimer()
	t.runBots()
}

// armTimer schedules the state's timer, if any, as a System move, and
// records its deadline for the views so that sessions can count down.
// Without one, the turn clock runs on the people whose move is awaited.
func (t *table) armTimer() {
	tm := t.state.Timer()
	if tm == nil {
		t.armTurnClock()
		return
	}
	t.stopTimer()
	for _, s := range t.seats {
		s.awaited = time.Time{} // the game's own timer covers this moment
	}
	delay := time.Duration(tm.DelayMillis) * time.Millisecond
	gen, action := t.gen, bytes.Clone(tm.Action)
	t.deadline = t.cfg.Now().Add(delay)
	t.dirty = true
	t.timer = time.AfterFunc(delay, func() {
		t.post(func() error {
			if t.gen != gen || t.phase != Playing {
				return nil
			}
			// This timer is spent: even if its move is refused, no
			// countdown may be left pointing at it.
			t.timer = nil
			t.clearDeadline()
			if err := t.apply(engine.System, action); err != nil {
				t.log.Error("timer move refused", "code", t.code, "game_id", t.gameID, "err", err)
			}
			return nil
		})
	})
}

// armTurnClock starts the clock of each person whose move is newly awaited
// and arms the timer for the earliest one to run out. A clock already
// running keeps its start: only the seat's own move resets it (moved).
//
// A timer already armed to fire no later than that is kept: moves come
// every few seconds and mostly push the earliest clock later, so arming
// anew on each would cost a timer a move at every table for a clock that
// almost never runs out. Firing early costs one look (timeRanOut hands over
// only the clocks that did run out) and arms for the next.
func (t *table) armTurnClock() {
	turn := t.cfg.TurnTime
	if turn <= 0 {
		t.stopTimer()
		return
	}
	now := t.cfg.Now()
	var due time.Time
	for i, s := range t.seats {
		if s.outOfTime {
			continue // its bot is on the move
		}
		if !slices.Contains(t.status.Active, engine.Seat(i)) || !s.human() || s.ctl != nil {
			s.awaited = time.Time{}
			continue
		}
		if s.awaited.IsZero() {
			s.awaited = now
		}
		if d := s.awaited.Add(turn); due.IsZero() || d.Before(due) {
			due = d
		}
	}
	if due.IsZero() {
		t.stopTimer()
		return
	}
	if !t.deadline.Equal(due) {
		t.deadline = due
		t.dirty = true
	}
	if t.timer != nil && !t.turnDue.IsZero() && !t.turnDue.After(due) {
		return
	}
	if t.timer != nil {
		t.timer.Stop()
	}
	var tmr *time.Timer
	fires := due
	tmr = time.AfterFunc(max(0, due.Sub(now)), func() {
		t.post(func() error {
			if t.timer != tmr || t.phase != Playing {
				return nil // stopped or replaced meanwhile
			}
			t.timer, t.turnDue = nil, time.Time{}
			t.timeRanOut(fires)
			return nil
		})
	})
	t.timer, t.turnDue = tmr, due
}

// timeRanOut hands the move of every person whose clock ran out by due to
// the seat's covering bot, which moves like any bot (its move is recorded
// as the seat's, so replays need nothing new); the person keeps the seat.
func (t *table) timeRanOut(due time.Time) {
	for i, s := range t.seats {
		if s.awaited.IsZero() || s.outOfTime || s.ctl != nil || s.awaited.Add(t.cfg.TurnTime).After(due) {
			continue
		}
		var bot engine.Bot
		err := errors.New("the game has no bots")
		if t.botLevel != "" {
			bot, err = t.game.NewBot(engine.Seat(i), t.botLevel, t.botSeed(i))
		}
		if err != nil {
			// Nobody can move for them: give them another turn's time.
			t.log.Warn("no bot for a seat out of time", "code", t.code, "game_id", t.gameID, "seat", i, "err", err)
			s.awaited = due
			continue
		}
		s.ctl, s.outOfTime, s.thinking = bot, true, false
		t.logs.push(len(t.seats), []engine.Event{{Kind: "timeout",
			Text: fmt.Sprintf("Time ran out for %s; a bot moved for them.", s.id.Handle)}})
		t.stateChanged()
		t.dirty = true
	}
	t.armTurnClock()
	t.runBots()
}

// moved resets the turn clock of the seat that just moved and ends a
// covering bot's one move.
func (t *table) moved(seat engine.Seat) {
	if seat < 0 || int(seat) >= len(t.seats) {
		return
	}
	s := t.seats[seat]
	s.awaited = time.Time{}
	if s.outOfTime {
		s.ctl, s.outOfTime, s.thinking = nil, false, false
	}
}

// stopTimer cancels the pending timer and its deadline.
func (t *table) stopTimer() {
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
	}
	t.turnDue = time.Time{}
	t.clearDeadline()
}

func (t *table) clearDeadline() {
	if !t.deadline.IsZero() {
		t.deadline = time.Time{}
		t.dirty = true
	}
}

// repeatLog logs a failure that may repeat many times in a row (every bot
// move against a full disk) once, with a count, instead of once per
// attempt: the first occurrence at once, a reminder with the count at most
// once a minute while it goes on, and the total when it stops. Owned by one
// goroutine.
type repeatLog struct {
	last   string    // the error being repeated; "" when none
	count  int       // occurrences of last so far
	logged time.Time // when a line about it was last written
}

// repeatLogEvery is how often a failure that goes on is logged again.
const repeatLogEvery = time.Minute

// fail records one failure, logging it when it is new or a reminder is due.
func (r *repeatLog) fail(log *slog.Logger, now time.Time, err error, attrs ...any) {
	text := err.Error()
	if text != r.last {
		r.recovered(log, attrs...)
		r.last, r.count, r.logged = text, 1, now
		log.Error("append move", append(attrs, "err", text)...)
		return
	}
	r.count++
	if now.Sub(r.logged) >= repeatLogEvery {
		r.logged = now
		log.Error("append move still failing", append(attrs, "err", text, "times", r.count)...)
	}
}

// recovered closes a run of failures with its total.
func (r *repeatLog) recovered(log *slog.Logger, attrs ...any) {
	if r.count > 0 {
		log.Warn("append move failures ended", append(attrs, "err", r.last, "times", r.count)...)
	}
	r.last, r.count = "", 0
}
