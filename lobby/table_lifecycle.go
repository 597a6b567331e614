// The table's life: waiting for players, the game starting (ready, start,
// startGame), finishing, a rematch, a game resumed after a restart, and a
// game abandoned or broken. What each move does is in table_moves.go.

package lobby

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/engine/words"
	"github.com/codebreakers/codebreakers/storage"
)

// progress is where the table's game stands. Owned by the table goroutine.
type progress struct {
	phase     Phase
	gameID    string
	record    engine.Record
	state     engine.State
	status    engine.Status
	result    *engine.Result
	started   time.Time
	gameRated bool   // the game in progress (or just finished) changes ratings
	gen       uint64 // bumps on every change of game state; stale bots and timers compare it
	// stateVer bumps (stateChanged) whenever state is replaced or may have
	// changed, including after an engine failure that gen ignores; the
	// board cache (published.boards) holds the views built for it, reused
	// until it moves.
	stateVer uint64
	unsaved  string // why the finished game is not stored yet ("" once it is)
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
		ns.awaited, ns.outOfTime = time.Time{}, false
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
	t.tell("The game has begun.")
	t.gen++
	t.stateChanged()
	t.dirty = true
	t.log.Info("game started", "code", t.code, "game", t.info.ID, "game_id", id, "seats", len(t.seats))
	t.settle()
	return nil
}

// newResumedTable rebuilds, before its goroutine starts, the table of a game
// that was in progress: lg as the Store kept it, st and events its replay.
func newResumedTable(h *Hub, g engine.Game, opts engine.Options, level string, lg storage.LiveGame, st engine.State, events []engine.Event) *table {
	t := newTable(h, g, opts, lg.Public, level)
	t.phase = Playing
	t.gameID, t.record, t.state, t.started = lg.ID, lg.Record, st, lg.Started
	t.rated, t.gameRated = lg.Rated, lg.Rated
	t.host = -1
	for i, sr := range lg.Seats {
		s := &seat{botLevel: sr.BotLevel, replaced: sr.Replaced}
		// Handles read back from the store are cleaned like any coming in.
		s.id = Identity{Account: sr.AccountID, Handle: textsafe.Clean(sr.Handle, textsafe.MaxHandle).String()}
		s.bot = sr.Bot || sr.AccountID == ""
		if !s.bot && t.host < 0 {
			t.host = i
		}
		t.seats = append(t.seats, s)
	}
	t.host = max(t.host, 0)
	t.logs.push(len(t.seats), events)
	return t
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
	t.tell("The server restarted; the game goes on.")
	t.gen++
	t.dirty = true
	t.settle()
	return nil
}

// finish records a finished game.
func (t *table) finish(res engine.Result) {
	t.phase = Finished
	t.result = &res
	t.tell(res.Summary)
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
	t.tell(fmt.Sprintf("%s wants a rematch; the host starts when everyone is ready.", me.id.Handle))
	t.dirty = true
	return nil
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
	t.tell("Something went wrong at this table, so the game stopped. Sorry! It was not counted.")
	if wasPlaying {
		if err := t.hub.cfg.Store.AbandonGame(t.gameID); err != nil {
			t.log.Error("abandon broken game", "game_id", t.gameID, "err", err)
		}
	}
	t.dirty = true
	t.publish()
}

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
