package lobby

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/engine/words"
	"github.com/codebreakers/codebreakers/storage"
)

// More user-facing refusals from tables.
var (
	ErrBroken   = &engine.IllegalError{Msg: "This table stopped after an internal error; the game was not counted."}
	ErrNotSaved = &engine.IllegalError{Msg: "The server could not save that, so it did not count. Please try again."}
)

// command is one unit of work for the table goroutine. reply, when set,
// receives fn's error.
type command struct {
	fn    func() error
	reply chan error
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
}

func (s *seat) open() bool  { return !s.bot && s.id.Account == "" }
func (s *seat) human() bool { return !s.bot && s.id.Account != "" }

// snapshot is everything a table has published for one version.
type snapshot struct {
	seats     []*TableView
	spectator *TableView
}

// table is one table's actor. Fields above the line are set before the
// goroutine starts or are safe for concurrent use; the rest belong to the
// table goroutine alone.
type table struct {
	hub      *Hub
	cfg      *Config
	log      *slog.Logger
	code     string // canonical
	game     engine.Game
	info     engine.Info
	opts     engine.Options
	public   bool
	botLevel string // for bots that fill or take over seats; "" when the game has none
	// rated marks a table seated by matchmaking from key accounts only: its
	// games are rated while every seat is such a person (see startGame).
	rated bool

	cmds       chan command
	quit       chan struct{} // closed by stop
	stopOnce   sync.Once
	stopReason string        // written before quit closes
	stopped    chan struct{} // closed when the goroutine has exited
	bg         sync.WaitGroup

	snap    atomic.Pointer[snapshot]
	summary atomic.Pointer[TableSummary]

	// ---- owned by the table goroutine ----
	phase      Phase
	seats      []*seat
	host       int
	spectators map[*Conn]struct{}
	gameID     string
	record     engine.Record
	state      engine.State
	status     engine.Status
	result     *engine.Result
	started    time.Time
	gameRated  bool   // the game in progress (or just finished) changes ratings
	gen        uint64 // bumps on every change of game state; stale bots and timers compare it
	timer      *time.Timer
	deadline   time.Time // when timer fires, by cfg.Now; zero when none is armed
	// stateVer bumps (stateChanged) whenever state is replaced or may have
	// changed, including after an engine failure that gen ignores; boards
	// holds the views built for it, reused until it moves.
	stateVer uint64
	boards   boardCache
	// logs[i] is seat i's log of events and logs[len(seats)] the
	// spectators'. Each only grows between trims, so published views share
	// them instead of copying.
	logs       [][]engine.Event
	chatLines  []ChatLine
	chatLimits *keyedLimit // lines per account, connection and address
	notice     string
	unsaved    string // why the finished game is not stored yet ("" once it is)
	// saveFailures counts the moves the Store refused in a row: bots wait
	// longer after each (botBackoff) instead of retrying in a tight loop
	// against a full disk, and appendErrs logs the run once, with a count.
	saveFailures int
	// beatUntil is when the last move has been on screen long enough to
	// read (see readingTime): no bot moves before it, so a person sees
	// every bot move, one after another, even when several bots are due.
	beatUntil   time.Time
	appendErrs  repeatLog
	version     uint64
	dirty       bool   // something changed since the last publish
	done        bool   // the table is closing itself
	closeReason string // why, for the Conns
}

func newTable(h *Hub, g engine.Game, opts engine.Options, public bool, botLevel string) *table {
	return &table{
		hub:        h,
		cfg:        &h.cfg,
		log:        h.log,
		game:       g,
		info:       g.Info(),
		opts:       opts,
		public:     public,
		botLevel:   botLevel,
		cmds:       make(chan command, 64),
		quit:       make(chan struct{}),
		stopped:    make(chan struct{}),
		spectators: make(map[*Conn]struct{}),
		chatLimits: newKeyedLimit(rate{Max: h.cfg.ChatPerMinute, Span: time.Minute}),
	}
}

// run is the table goroutine.
func (t *table) run() {
	defer close(t.stopped)
	for {
		select {
		case <-t.quit:
			t.shutdown()
			return
		default:
		}
		select {
		case <-t.quit:
			t.shutdown()
			return
		case c := <-t.cmds:
			t.exec(c)
		}
		if t.done {
			t.hub.removeTable(t)
			t.stop(t.closeReason)
		}
	}
}

// stop asks the goroutine to end every Conn with reason and exit.
func (t *table) stop(reason string) {
	t.stopOnce.Do(func() {
		t.stopReason = reason
		close(t.quit)
	})
}

// shutdown ends timers and Conns as the goroutine exits.
func (t *table) shutdown() {
	t.stopTimer()
	for _, s := range t.seats {
		t.cancelGrace(s)
		if s.conn != nil {
			s.conn.end(t.stopReason)
		}
	}
	for c := range t.spectators {
		c.end(t.stopReason)
	}
	t.log.Debug("table stopped", "code", t.code, "reason", t.stopReason)
}

// exec runs one command, publishing if it changed anything.
func (t *table) exec(c command) {
	err := t.guard(c.fn)
	if c.reply != nil {
		c.reply <- err
	}
}

// guard runs fn and publishes; a panic (in an engine, a bot or here)
// breaks this table only.
func (t *table) guard(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			t.breakDown(fmt.Sprintf("panic: %v", r), debug.Stack())
			err = ErrBroken
		}
	}()
	err = fn()
	if t.dirty {
		t.publish()
	}
	return err
}

// call runs fn on the table goroutine and waits for its answer.
func (t *table) call(fn func() error) error {
	reply := make(chan error, 1)
	select {
	case t.cmds <- command{fn: fn, reply: reply}:
	case <-t.stopped:
		return ErrTableClosed
	}
	select {
	case err := <-reply:
		return err
	case <-t.stopped:
		select {
		case err := <-reply:
			return err
		default:
			return ErrTableClosed
		}
	}
}

// post queues fn for the table goroutine without waiting for it to run.
func (t *table) post(fn func() error) {
	select {
	case t.cmds <- command{fn: fn}:
	case <-t.stopped:
	}
}

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
			t.notice = fmt.Sprintf("%s is back.", s.id.Handle)
		}
		s.conn = c
		t.cancelGrace(s)
		if s.ctl != nil && !s.bot { // a bot was covering; the person takes over again
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
	t.notice = fmt.Sprintf("%s sat down.", id.Handle)
	t.dirty = true
	return c, nil
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
		t.notice = fmt.Sprintf("%s left.", s.id.Handle)
		t.seats[i] = &seat{}
		if i == t.host {
			t.pickHost()
		}
	case Playing:
		t.notice = fmt.Sprintf("%s disconnected; their seat is held for %s.", s.id.Handle, humanDuration(t.cfg.Grace))
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

// maybeClose closes a table nobody needs any more.
func (t *table) maybeClose() {
	switch t.phase {
	case Waiting:
		if !slices.ContainsFunc(t.seats, (*seat).human) {
			t.closeWith("Everyone left, so the table closed.")
		}
	case Finished, Broken:
		if len(t.spectators) == 0 && !slices.ContainsFunc(t.seats, func(s *seat) bool { return s.conn != nil }) {
			t.closeWith("The table closed.")
		}
	}
}

func (t *table) closeWith(reason string) {
	t.done, t.closeReason = true, reason
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
	if t.phase != Playing || s.conn != nil || s.ctl != nil {
		return
	}
	if !slices.ContainsFunc(t.seats, func(s *seat) bool { return s.conn != nil }) {
		t.abandon("Everyone left, so the game was abandoned.")
		return
	}
	if t.botLevel == "" {
		t.abandon(fmt.Sprintf("%s left and no bot can take the seat, so the game was abandoned.", s.id.Handle))
		return
	}
	bot, err := t.game.NewBot(engine.Seat(i), t.botLevel, t.botSeed(i))
	if err != nil {
		t.log.Error("new bot for a replaced seat", "code", t.code, "game_id", t.gameID, "seat", i, "err", err)
		t.abandon(fmt.Sprintf("%s left and no bot could take the seat, so the game was abandoned.", s.id.Handle))
		return
	}
	s.ctl, s.replaced, s.ready = bot, true, false
	t.notice = fmt.Sprintf("%s left; a bot took the seat.", s.id.Handle)
	t.dirty = true
	t.runBots()
}

// abandon gives up a game in progress and closes the table.
func (t *table) abandon(reason string) {
	t.stopTimer()
	if err := t.hub.cfg.Store.AbandonGame(t.gameID); err != nil {
		t.log.Error("abandon game", "game_id", t.gameID, "err", err)
	}
	t.log.Info("game abandoned", "code", t.code, "game_id", t.gameID, "why", reason)
	t.closeWith(reason)
}

// breakDown stops this table after an internal failure: the players are
// told, the live game is abandoned, and no engine code runs here again.
func (t *table) breakDown(what string, stack []byte) {
	if t.phase == Broken {
		return
	}
	t.log.Error("table broken", "code", t.code, "game", t.info.ID, "game_id", t.gameID, "what", what, "stack", string(stack))
	if o := t.hub.cfg.Observer; o != nil {
		o.TableBroken(t.info.ID)
	}
	wasPlaying := t.phase == Playing && t.gameID != ""
	t.phase = Broken
	t.state = nil
	t.stateChanged()
	t.stopTimer()
	for _, s := range t.seats {
		s.ctl, s.thinking = nil, false
		t.cancelGrace(s)
	}
	t.notice = "Something went wrong at this table, so the game stopped. Sorry! It was not counted."
	if wasPlaying {
		if err := t.hub.cfg.Store.AbandonGame(t.gameID); err != nil {
			t.log.Error("abandon broken game", "game_id", t.gameID, "err", err)
		}
	}
	t.dirty = true
	t.publish()
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
	t.beatUntil = time.Now().Add(readingTime(t.cfg.BotDelay, len(events)))
	if t.saveFailures > 0 {
		t.saveFailures = 0
		t.appendErrs.recovered(t.log, "code", t.code, "game_id", t.gameID)
	}
	t.pushEvents(events)
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

// finish records a finished game.
func (t *table) finish(res engine.Result) {
	t.phase = Finished
	t.result = &res
	t.notice = res.Summary
	t.stopTimer()
	for _, s := range t.seats {
		s.ready = false
		t.cancelGrace(s)
	}
	fg := storage.FinishedGame{LiveGame: t.liveGame(), Result: res, Finished: t.cfg.Now(), Turns: t.status.Turn - 1}
	switch err := t.hub.cfg.Store.FinishGame(fg); {
	case err == nil:
	case errors.Is(err, storage.ErrUnavailable):
		// A shared records database is down: the game is over and its log
		// is safe here, so keep trying in the background.
		t.unsaved = savingNotice
		t.hub.finishLater(t, fg)
	default:
		// The live log is still there; the next start records the finish.
		t.log.Error("finish game", "code", t.code, "game_id", t.gameID, "err", err)
	}
	t.dirty = true
	t.maybeClose()
}

// liveGame describes the game in progress for the Store.
func (t *table) liveGame() storage.LiveGame {
	seats := make([]storage.SeatRecord, len(t.seats))
	for i, s := range t.seats {
		seats[i] = storage.SeatRecord{Handle: s.id.Handle, Bot: s.bot, Replaced: s.replaced}
		if s.human() {
			seats[i].AccountID = s.id.Account
		}
		if s.bot || s.replaced {
			seats[i].BotLevel = t.botLevel
		}
	}
	return storage.LiveGame{ID: t.gameID, Code: t.code, Public: t.public, Rated: t.gameRated, Seats: seats,
		Record: t.record, Started: t.started}
}

// armTimer schedules the state's timer, if any, as a System move, and
// records its deadline for the views so that sessions can count down.
func (t *table) armTimer() {
	t.stopTimer()
	tm := t.state.Timer()
	if tm == nil {
		return
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

// stopTimer cancels the pending timer and its deadline.
func (t *table) stopTimer() {
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
	}
	t.clearDeadline()
}

func (t *table) clearDeadline() {
	if !t.deadline.IsZero() {
		t.deadline = time.Time{}
		t.dirty = true
	}
}

// runBots sets every bot whose seat may act thinking, off this goroutine.
func (t *table) runBots() {
	if t.phase != Playing {
		return
	}
	for _, a := range t.status.Active {
		if a < 0 || int(a) >= len(t.seats) {
			continue
		}
		s := t.seats[a]
		if s.ctl == nil || s.thinking || s.conn != nil {
			continue
		}
		view := t.board(engine.SeatViewer(a)) // the same view a person in the seat gets
		s.thinking = true
		t.bg.Add(1)
		wait := t.cfg.BotDelay
		if t.cfg.BotDelay > 0 {
			wait = max(wait, time.Until(t.beatUntil))
		}
		go t.think(int(a), t.gen, s.ctl, view, wait+botBackoff(t.saveFailures))
	}
}

// readingTime is how long a move stays on screen before a bot may move
// again: the bot delay for a move that says one thing, half as much again
// for each further line it adds to the log (a round that ends, its points
// and the next round's start), at most four delays. Zero without a delay.
func readingTime(delay time.Duration, events int) time.Duration {
	if delay <= 0 {
		return 0
	}
	return min(4*delay, delay+delay/2*time.Duration(max(0, events-1)))
}

// Bot backoff after moves the Store refused: the first retry waits
// botBackoffBase, each further one twice as long, up to botBackoffMax.
const (
	botBackoffBase = 250 * time.Millisecond
	botBackoffMax  = 30 * time.Second
)

// botBackoff is the extra pause before a bot tries again after failures
// moves in a row could not be saved (a full or read-only disk): without it,
// a bot with no delay retries as fast as the disk refuses.
func botBackoff(failures int) time.Duration {
	if failures <= 0 {
		return 0
	}
	d := botBackoffBase
	for i := 1; i < failures && d < botBackoffMax; i++ {
		d *= 2
	}
	return min(d, botBackoffMax)
}

// botResult is what a bot came back with.
type botResult struct {
	action []byte
	err    error
	panic  any
	stack  []byte
}

// think runs one bot move and hands the result back to the table.
func (t *table) think(i int, gen uint64, bot engine.Bot, view any, delay time.Duration) {
	defer t.bg.Done()
	if !t.hub.pause(delay, t.quit) {
		return
	}
	select {
	case t.hub.thinkers <- struct{}{}:
	case <-t.quit:
		return
	}
	res := actSafely(bot, view)
	<-t.hub.thinkers
	t.post(func() error {
		t.botDone(i, gen, bot, res)
		return nil
	})
}

func actSafely(bot engine.Bot, view any) (res botResult) {
	defer func() {
		if r := recover(); r != nil {
			res.panic, res.stack = r, debug.Stack()
		}
	}()
	res.action, res.err = bot.Act(view)
	return res
}

// botDone validates a bot's move like anyone's; stale results are dropped.
func (t *table) botDone(i int, gen uint64, bot engine.Bot, res botResult) {
	s := t.seats[i]
	if s.ctl != bot {
		return // the seat changed hands while the bot thought
	}
	s.thinking = false
	switch {
	case res.panic != nil:
		t.breakDown(fmt.Sprintf("bot in seat %d panicked: %v", i, res.panic), res.stack)
	case t.phase != Playing:
	case gen != t.gen:
		t.runBots() // the game moved on; think again about the new state
	case res.err != nil:
		t.breakDown(fmt.Sprintf("bot in seat %d failed: %v", i, res.err), nil)
	case res.action == nil:
	default:
		if err := t.apply(engine.Seat(i), res.action); err != nil && engine.IsIllegal(err) && err != ErrNotSaved && err != ErrBroken {
			t.breakDown(fmt.Sprintf("bot in seat %d chose an illegal move %s: %v", i, res.action, err), nil)
		}
	}
}

// setReady marks a seat ready and starts the game once everyone is.
func (t *table) setReady(c *Conn, ready bool) error {
	s, err := t.seatOfConn(c)
	if err != nil {
		return err
	}
	if t.phase != Waiting {
		return engine.Illegal("The game has already started.")
	}
	s.ready = ready
	t.dirty = true
	everyone := !slices.ContainsFunc(t.seats, func(s *seat) bool { return s.open() || (s.human() && !s.ready) })
	if everyone {
		return t.startGame()
	}
	return nil
}

// start is the host's request to begin.
func (t *table) start(c *Conn) error {
	if _, err := t.seatOfConn(c); err != nil {
		return err
	}
	if t.phase != Waiting {
		return engine.Illegal("The game has already started.")
	}
	if int(c.viewer.Seat) != t.host {
		return engine.Illegal("Only the host can start the game.")
	}
	for i, s := range t.seats {
		if s.human() && i != t.host && !s.ready {
			return engine.Illegal("Waiting for %s to be ready.", s.id.Handle)
		}
	}
	if n := countFunc(t.seats, (*seat).open); n > 0 && t.botLevel == "" {
		return engine.Illegal("Waiting for %s; %s has no bots to fill seats.", words.Count(n, "more player", "more players"), t.info.Name)
	}
	t.seats[t.host].ready = true
	return t.startGame()
}

// startGame deals a new game, filling open seats with bots. Nothing changes
// unless the Store has the new game.
func (t *table) startGame() error {
	seed, err := randomSeed()
	if err != nil {
		return err
	}
	players := make([]engine.Player, len(t.seats))
	bots := make([]engine.Bot, len(t.seats))
	for i, s := range t.seats {
		players[i] = engine.Player{Name: s.id.Handle, Bot: s.bot || s.open()}
		if s.open() {
			players[i].Name = botName(i)
		}
	}
	st, opts, err := engine.Start(t.game, t.opts, players, seed)
	if err != nil {
		if engine.IsIllegal(err) {
			return err
		}
		t.log.Error("deal", "code", t.code, "game", t.info.ID, "err", err)
		return engine.Illegal("The game could not be dealt; please try again.")
	}
	for i, s := range t.seats {
		if s.bot || s.open() {
			if bots[i], err = t.game.NewBot(engine.Seat(i), t.botLevel, botSeed(seed, i)); err != nil {
				t.log.Error("new bot", "code", t.code, "game", t.info.ID, "err", err)
				return engine.Illegal("A bot could not sit down; please try again.")
			}
		}
	}
	id, err := t.hub.cfg.Store.NewGameID()
	if err != nil {
		t.log.Error("new game id", "err", err)
		return ErrNotSaved
	}
	prev := t.seats
	t.seats = make([]*seat, len(prev))
	for i, s := range prev {
		ns := *s
		if s.open() {
			ns.bot, ns.id.Handle = true, botName(i)
		}
		if ns.bot {
			ns.botLevel = t.botLevel
		}
		ns.ctl, ns.thinking, ns.replaced = bots[i], false, false
		t.seats[i] = &ns
	}
	t.gameID = id
	t.record = engine.Record{Game: t.info.ID, Options: opts, Players: players, Seed: seed}
	t.started = t.cfg.Now()
	// Rated only while every seat is a person with a key: a rematch whose
	// empty seats bots fill is casual.
	t.gameRated = t.rated && !slices.ContainsFunc(t.seats, func(s *seat) bool {
		return !s.human() || isGuest(s.id)
	})
	if err := t.hub.cfg.Store.StartGame(t.liveGame()); err != nil {
		t.log.Error("start game", "code", t.code, "game_id", id, "err", err)
		t.seats, t.gameID, t.record = prev, "", engine.Record{}
		return ErrNotSaved
	}
	t.phase, t.state, t.result, t.logs = Playing, st, nil, nil
	t.notice = "The game has begun."
	t.gen++
	t.stateChanged()
	t.dirty = true
	t.log.Info("game started", "code", t.code, "game", t.info.ID, "game_id", id, "seats", len(t.seats))
	t.settle()
	return nil
}

// rematch takes a finished table back to waiting with the same seats.
func (t *table) rematch(c *Conn) error {
	me, err := t.seatOfConn(c)
	if err != nil {
		return err
	}
	if t.phase != Finished && t.phase != Broken {
		return engine.Illegal("A rematch can start only after the game ends.")
	}
	for i, s := range t.seats {
		switch {
		case s.open():
		case s.human() && s.conn == nil:
			t.hub.dropSeat(s.id.Account, t)
			t.seats[i] = &seat{}
		case s.human():
			t.seats[i] = &seat{id: s.id, conn: s.conn}
		default:
			t.seats[i] = &seat{id: s.id, bot: true, botLevel: s.botLevel}
		}
	}
	t.seats[c.viewer.Seat].ready = true
	if t.seats[t.host].conn == nil {
		t.pickHost()
	}
	t.stopTimer()
	t.phase, t.state, t.status, t.result, t.logs = Waiting, nil, engine.Status{}, nil, nil
	t.gameID, t.record, t.unsaved = "", engine.Record{}, ""
	t.gen++
	t.stateChanged()
	t.notice = fmt.Sprintf("%s wants a rematch; the host starts when everyone is ready.", me.id.Handle)
	t.dirty = true
	return nil
}

// resumed runs once on a table rebuilt from the Store: people's seats are
// held for the grace period, bots carry on, timers restart.
func (t *table) resumed() error {
	for i, s := range t.seats {
		if s.bot || s.replaced {
			bot, err := t.game.NewBot(engine.Seat(i), t.botLevel, botSeed(t.record.Seed, i))
			if err != nil {
				t.breakDown(fmt.Sprintf("new bot on resume: %v", err), nil)
				return nil
			}
			s.ctl = bot
		}
		if s.human() && !s.replaced {
			t.startGrace(i)
		}
	}
	t.notice = "The server restarted; the game goes on."
	t.gen++
	t.dirty = true
	t.settle()
	return nil
}

// chat posts a sanitised, rate-limited line.
func (t *table) chat(c *Conn, text string) error {
	if c.viewer.Kind == engine.ViewerSeat {
		if _, err := t.seatOfConn(c); err != nil {
			return err
		}
	} else if _, ok := t.spectators[c]; !ok {
		return ErrNotHere
	}
	if t.cfg.Muted != nil && t.cfg.Muted(c.id.Account) {
		t.log.Warn("abuse", "kind", "muted chat", "account", c.id.Account, "detail", "chat refused", "code", t.code)
		return engine.Illegal("You are muted on this server, so your messages are not shown.")
	}
	line := textsafe.Clean(text, t.cfg.MaxChatLen)
	if line == "" {
		return engine.Illegal("There is nothing to send.")
	}
	now := t.cfg.Now()
	keys := limitKeys(c.id)
	if key, warn := t.chatLimits.blocked(keys, now); key != "" {
		if warn { // one line per burst, not one per refused message
			t.log.Warn("abuse", "kind", "chat rate", "account", c.id.Account, "remote", c.id.Addr,
				"detail", "chat refused", "code", t.code, "key", key)
		}
		return engine.Illegal("You are chatting too fast; wait a little and try again.")
	}
	t.chatLimits.add(keys, now)
	t.chatLines = append(t.chatLines, ChatLine{At: now, Handle: c.id.handle(), Text: line, author: c.id})
	if n := len(t.chatLines); n > 2*ChatLen {
		t.chatLines = slices.Clone(t.chatLines[n-ChatLen:])
	}
	t.dirty = true
	return nil
}

// whoIs finds who at the table goes by handle, case-insensitively: a
// person seated or watching, or else the author of a recent chat line (a
// guest who spammed and left can still be muted).
func (t *table) whoIs(handle string) (Identity, bool) {
	for _, s := range t.seats {
		if s.human() && strings.EqualFold(s.id.Handle, handle) {
			if s.conn != nil {
				return s.conn.id, true // the live session's connection and address
			}
			return s.id, true
		}
	}
	for c := range t.spectators {
		if strings.EqualFold(c.id.Handle, handle) {
			return c.id, true
		}
	}
	for i := len(t.chatLines) - 1; i >= 0; i-- {
		if l := t.chatLines[i]; strings.EqualFold(l.Handle.String(), handle) {
			return l.author, true
		}
	}
	return Identity{}, false
}

// pushEvents adds events to the log of every viewer who may see them.
func (t *table) pushEvents(evs []engine.Event) {
	if len(t.logs) != len(t.seats)+1 {
		t.logs = make([][]engine.Event, len(t.seats)+1)
	}
	for i, log := range t.logs {
		v := engine.Spectator()
		if i < len(t.seats) {
			v = engine.SeatViewer(engine.Seat(i))
		}
		for _, e := range evs {
			if e.VisibleTo(v) {
				log = append(log, e.For(v))
			}
		}
		if n := len(log); n > 2*LogLen {
			log = slices.Clone(log[n-LogLen:]) // older views keep the old array
		}
		t.logs[i] = log
	}
}

// logFor returns the last LogLen events of log i (a seat, or len(seats) for
// spectators), capped so that an append by a reader cannot touch ours.
func (t *table) logFor(i int) []engine.Event {
	if i >= len(t.logs) {
		return nil
	}
	log := t.logs[i]
	n := len(log)
	return log[max(0, n-LogLen):n:n]
}

// publish builds every viewer's snapshot, swaps it in and pokes the Conns.
// Seats nobody is connected to get no board: no one can ask for it.
func (t *table) publish() {
	t.dirty = false
	t.version++
	sum := TableSummary{
		Code: FormatCode(t.code), Game: t.info.ID, GameName: t.info.Name, Public: t.public,
		Phase: t.phase, Seats: len(t.seats), Spectators: len(t.spectators), Turn: t.status.Turn,
	}
	seats := make([]SeatView, len(t.seats))
	for i, s := range t.seats {
		sv := SeatView{Handle: s.id.handle(), Connected: s.conn != nil, Ready: s.ready, Replaced: s.replaced}
		if s.bot || s.ctl != nil {
			sv.Bot, sv.BotLevel = true, t.botLevel
		}
		seats[i] = sv
		switch {
		case s.open():
			sum.Open++
		case s.bot:
			sum.Bots++
		default:
			sum.Humans++
		}
	}
	if t.host < len(t.seats) {
		sum.Host = t.seats[t.host].id.handle()
	}
	// chatLines only grows between trims (which copy), so the views share
	// it, capped so that an append by a reader cannot touch ours.
	n := len(t.chatLines)
	chat := t.chatLines[max(0, n-ChatLen):n:n]
	base := TableView{
		Version: t.version, Code: sum.Code, GameID: t.gameID, Game: t.info, Options: t.opts, Public: t.public,
		Phase: t.phase, Seats: seats, Status: t.status, Chat: chat, Spectators: len(t.spectators),
		Result: t.result, Notice: t.notice, Unsaved: t.unsaved, Deadline: t.deadline,
	}
	board := t.state != nil && t.phase != Waiting && t.phase != Broken
	view := func(v engine.Viewer, log int, full bool) *TableView {
		tv := base
		tv.You = v
		tv.Host = v.Kind == engine.ViewerSeat && int(v.Seat) == t.host
		if full {
			switch {
			case board && t.phase == Finished:
				// The game is over: everyone may now see every hand,
				// exactly as a replay of the record would show it.
				tv.Board = t.board(engine.Omniscient())
			case board:
				tv.Board = t.board(v)
			}
			tv.Log = t.logFor(log)
		}
		return &tv
	}
	snap := &snapshot{seats: make([]*TableView, len(t.seats))}
	for i, s := range t.seats {
		snap.seats[i] = view(engine.SeatViewer(engine.Seat(i)), i, s.conn != nil)
	}
	snap.spectator = view(engine.Spectator(), len(t.seats), true)
	t.snap.Store(snap)
	if old := t.summary.Swap(&sum); old == nil || old.Phase != sum.Phase || old.Public != sum.Public {
		t.hub.changes.signal() // home screens count tables by phase
	}
	for _, s := range t.seats {
		if s.conn != nil {
			s.conn.notify()
		}
	}
	for c := range t.spectators {
		c.notify()
	}
}

// boardCache holds the engine views built for one version of the game
// state (table.stateVer), so that a publish that changed only what is around
// the game (chat, connections, readiness, spectators, notices) reuses them
// instead of asking the engine again. Views are immutable snapshots
// (engine.State.View), so snapshots, sessions and bots may share one.
type boardCache struct {
	ver       uint64 // the stateVer these views show
	seats     []any  // seat i's view; nil until someone needs it
	spectator any    // every spectator's view
	revealed  any    // the omniscient view a finished game shows everyone
}

// stateChanged records that t.state was replaced or may have changed: no
// board built before is shown again, nor kept alive.
func (t *table) stateChanged() {
	t.stateVer++
	t.boards.reset(t.stateVer, len(t.seats))
}

// reset empties the cache for version ver of a state with seats seats.
func (c *boardCache) reset(ver uint64, seats int) {
	if len(c.seats) != seats {
		c.seats = make([]any, seats)
	}
	clear(c.seats)
	c.ver, c.spectator, c.revealed = ver, nil, nil
}

// board returns the current state's view for v, asking the engine only the
// first time this version of the state is shown to v (or, for spectators,
// to any spectator).
func (t *table) board(v engine.Viewer) any {
	c := &t.boards
	if c.ver != t.stateVer || len(c.seats) != len(t.seats) {
		c.reset(t.stateVer, len(t.seats))
	}
	var slot *any
	switch {
	case v.Kind == engine.ViewerSeat && int(v.Seat) < len(c.seats):
		slot = &c.seats[v.Seat]
	case v.Kind == engine.ViewerSpectator:
		slot = &c.spectator
	case v.Kind == engine.ViewerOmniscient:
		slot = &c.revealed
	default:
		return t.state.View(v)
	}
	if *slot == nil {
		*slot = t.state.View(v)
	}
	return *slot
}

// botSeed derives a bot's seed from the game's, so each seat differs.
func botSeed(seed uint64, seat int) uint64 {
	return seed ^ (uint64(seat)+1)*0x9E3779B97F4A7C15
}

func (t *table) botSeed(seat int) uint64 { return botSeed(t.record.Seed, seat) }

func randomSeed() (uint64, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0, fmt.Errorf("seed: %w", err)
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

func countFunc[T any](s []T, f func(T) bool) int {
	n := 0
	for _, x := range s {
		if f(x) {
			n++
		}
	}
	return n
}

// humanDuration says d the way a notice would: "1 minute", "90 seconds".
func humanDuration(d time.Duration) string {
	switch {
	case d >= time.Minute && d%time.Minute == 0:
		return words.Count(int(d/time.Minute), "minute", "minutes")
	case d >= time.Second:
		return words.Count(int(d/time.Second), "second", "seconds")
	default:
		return "a moment"
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
