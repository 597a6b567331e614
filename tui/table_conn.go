package tui

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/storage"
)

// The table screen's conversation with its table, apart from the keys: the
// table is opened (openTable, tableOpenedMsg) and its screen pushed
// (pushTable); one pump waits for its changes (waitTable); its changes, its
// end and its countdown's beats come back as messages that find the screen
// showing that table wherever it is on the stack (route), or end quietly
// once it is gone. The root model only hands these messages over.

// tableChangedMsg says the table behind conn has a new view.
type tableChangedMsg struct{ conn tableConn }

// tableClosedMsg says conn ended (left, taken over, hub closed).
type tableClosedMsg struct {
	conn   tableConn
	reason string
}

// tableTickMsg is one beat of the countdown to conn's table deadline.
type tableTickMsg struct {
	conn tableConn
	seq  int // the screen's tickSeq when it was sent
}

// route refreshes the table's screen with the new view and waits for the
// next change; a coalesced duplicate costs no redraw.
func (m tableChangedMsg) route(a *app) (tea.Cmd, bool) {
	ts := a.findTable(m.conn)
	if ts == nil {
		return nil, false // a table we already left; its pump ends here
	}
	changed := ts.refresh(a)
	return tea.Batch(a.pump(a.ctx, m.conn), ts.countdown(a), ts.askRatings(a)), changed
}

// tableRatingsMsg carries the rating changes of the game a table finished.
type tableRatingsMsg struct {
	conn    tableConn
	gameID  string
	changes []storage.RatingChange
}

// askRatings reads, once per finished game, the rating changes it made
// from the stored game (recorded before the table says it is finished), so
// the end of a rated game says what it did to its players' ratings.
func (s *tableScreen) askRatings(a *app) tea.Cmd {
	id := s.gameID()
	// A game the table says is casual changed no rating (the store rates
	// only what the table started rated): nothing to read back.
	if s.view.Phase != lobby.Finished || !s.view.Rated || id == "" || s.view.Unsaved != "" || a.store == nil || s.ratingsOf == id {
		return nil
	}
	s.ratingsOf, s.ratings = id, ""
	store, c := a.store, s.conn
	return func() tea.Msg {
		g, err := store.Game(id)
		if err != nil {
			return nil // no line: the result and the replay id still show
		}
		return tableRatingsMsg{conn: c, gameID: id, changes: g.Changes}
	}
}

// route shows the changes at the finished table they belong to.
func (m tableRatingsMsg) route(a *app) (tea.Cmd, bool) {
	ts := a.findTable(m.conn)
	if ts == nil || ts.ratingsOf != m.gameID {
		return nil, false
	}
	var parts []string
	for _, c := range m.changes {
		name := fmt.Sprintf("seat %d", c.Seat+1)
		if c.Seat >= 0 && c.Seat < len(ts.ctx.Names) {
			name = ts.ctx.Names[c.Seat]
		}
		d := int(math.Round(c.After.R)) - int(math.Round(c.Before.R))
		parts = append(parts, fmt.Sprintf("%s %s → %s (%+d)", name, c.Before, c.After, d))
	}
	if len(parts) > 0 {
		ts.ratings = "Ratings: " + strings.Join(parts, " · ")
	}
	return nil, true
}

// route shows the new time left and keeps the countdown going.
func (m tableTickMsg) route(a *app) (tea.Cmd, bool) {
	ts := a.findTable(m.conn)
	if ts == nil {
		return nil, false // the screen was closed: its countdown ends here
	}
	return ts.tick(a, m.seq), true
}

// route tells the table's screen why the connection ended.
func (m tableClosedMsg) route(a *app) (tea.Cmd, bool) {
	ts := a.findTable(m.conn)
	if ts == nil {
		return nil, false
	}
	ts.closed(a, m.reason)
	return nil, true
}

// route opens the table's screen over the screen that asked for it, or
// shows that screen why not, or carries the session to the node holding
// the table.
func (m tableOpenedMsg) route(a *app) (tea.Cmd, bool) {
	var elsewhere *lobby.ElsewhereError
	if errors.As(m.err, &elsewhere) {
		return a.handOff(elsewhere), true
	}
	if m.err != nil {
		a.top().setError(a.userError(m.err, ""))
		return nil, true
	}
	a.top().setError("") // the request is done; its screen is no longer busy
	return a.pushTable(m.conn), true
}

// tableOpenedMsg carries the result of a create, join, watch or quick play.
type tableOpenedMsg struct {
	conn tableConn
	err  error
}

// openTable runs a hub call off the event loop and opens the table it
// returns. The call gets the hub and identity as they are now, so the
// goroutine running it shares nothing mutable with the model.
func (a *app) openTable(what string, call func(h hubAPI, id lobby.Identity) (tableConn, error)) tea.Cmd {
	if a.hub == nil {
		return func() tea.Msg {
			return tableOpenedMsg{err: errors.New("The lobby is not available right now; try again later.")}
		}
	}
	h, id := a.hub, a.id
	return func() tea.Msg {
		c, err := call(h, id)
		if err == nil && c == nil {
			err = fmt.Errorf("%s: the lobby returned no table", what)
		}
		return tableOpenedMsg{conn: c, err: err}
	}
}

func (a *app) pushTable(c tableConn) tea.Cmd {
	ts := newTableScreen(a, c)
	a.push(ts)
	return tea.Batch(a.pump(a.ctx, c), ts.countdown(a), ts.askRatings(a))
}

func (a *app) findTable(c tableConn) *tableScreen {
	for _, s := range a.stack {
		if ts, ok := s.(*tableScreen); ok && ts.conn == c {
			return ts
		}
	}
	return nil
}

// waitTable is the one pump of a table connection: a Cmd that waits for the
// next change, the end of the connection, or the end of the SSH session,
// whichever comes first. It is issued again after every change, so at most
// one is pending per connection, and it never outlives the session.
func waitTable(ctx context.Context, c tableConn) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-ctx.Done():
			return nil
		case <-c.Done():
			return tableClosedMsg{conn: c, reason: c.Reason()}
		case _, ok := <-c.Updates():
			if !ok {
				return tableClosedMsg{conn: c, reason: c.Reason()}
			}
			return tableChangedMsg{conn: c}
		}
	}
}

// countdown shows the time left to the board and keeps one tick on its way
// while the view has a deadline that something on screen counts down. Only
// timed moments tick, so an idle screen stays quiet; the ticks stop once
// the deadline clears, the table ends, or the screen is closed (the app
// then drops the tick).
//
// The turn clock runs at every table in play, so it must cost nothing
// until it matters: only the player whose move it awaits sees it, and only
// in its last turnWarning, so their screen sleeps until then and the
// others' never tick for it (4,400 screens ticking every second took the
// idle processor time the collector marks in).
func (s *tableScreen) countdown(a *app) tea.Cmd {
	s.moveSecs = -1
	if s.view.Deadline.IsZero() || s.ended != "" {
		return nil
	}
	now := a.now()
	left := s.view.Deadline.Sub(now)
	wait := nextBeat(left)
	if s.view.TurnClock {
		if you := s.view.You; you.Kind != engine.ViewerSeat || !slices.Contains(s.view.Status.Active, you.Seat) {
			return nil
		}
		if left > turnWarning {
			wait = left - turnWarning
		} else {
			s.moveSecs = int(max(0, left).Round(time.Second) / time.Second)
		}
	} else if s.board != nil {
		s.board.SetTimeLeft(max(0, left))
	}
	at := now.Add(wait)
	if !s.tickAt.IsZero() && s.tickAt.Before(at.Add(time.Second)) {
		return nil // the tick on its way comes soon enough
	}
	s.tickAt = at
	s.tickSeq++
	c, seq := s.conn, s.tickSeq
	return a.after(wait, func(time.Time) tea.Msg { return tableTickMsg{conn: c, seq: seq} })
}

// tick is a countdown beat arriving: show the new time and maybe go on. A
// beat overtaken by a sooner one (the deadline moved closer) is dropped.
func (s *tableScreen) tick(a *app, seq int) tea.Cmd {
	if seq != s.tickSeq {
		return nil
	}
	s.tickAt = time.Time{}
	return s.countdown(a)
}

// turnWarning is how long before a clock runs out on a player's move the
// table screen starts saying so.
const turnWarning = 30 * time.Second

// nextBeat is the wait until the time left reaches a whole second, so a
// board that rounds to seconds shows each number once, whatever the delay
// of the ticks; at least a tenth of a second, at most about one second.
func nextBeat(left time.Duration) time.Duration {
	if left <= 0 {
		return time.Second
	}
	d := left % time.Second
	if d < 100*time.Millisecond {
		d += time.Second
	}
	return d
}
