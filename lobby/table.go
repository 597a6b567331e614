// The table actor's core: the table type, its parts, and the goroutine that
// owns it (run), with the mailbox other goroutines reach it by (call,
// post). The parts live in the table_*.go files named below.

package lobby

import (
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/codebreakers/codebreakers/engine"
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

// table is one table's actor. One goroutine (run) owns it and does
// everything to it, a command at a time; other goroutines ask through call
// and post and read only what publish swapped in. Its state is grouped by
// concern, each group in the file that works on it:
//
//	table.go            the actor: its mailbox and its goroutine's life (actor)
//	table_seats.go      who sits where and who watches; grace for a seat
//	                    whose person dropped (seating, seat)
//	table_lifecycle.go  waiting, playing, finished or broken: ready, start,
//	                    finish, rematch, resume after a restart, abandon (progress)
//	table_moves.go      a move from a seat, a bot or a timer through the
//	                    engine into the Store; the move timer (moving)
//	table_bots.go       bots thinking off the goroutine and handing their
//	                    move back; their pace (botPace)
//	table_chat.go       the table's chat and who goes by a handle (chatRoom)
//	table_publish.go    the views every seat and spectator reads, the event
//	                    logs and the board cache behind them (published)
//
// The fields written here are set before the goroutine starts and only
// read after.
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

	actor
	seating
	progress
	moving
	botPace
	chatRoom
	published
}

// actor is the table's mailbox and its goroutine's life. cmds, quit,
// stopped and bg are safe to use from any goroutine and stopReason is
// written once, before quit closes; done and closeReason belong to the
// table goroutine.
type actor struct {
	cmds        chan command
	quit        chan struct{} // closed by stop
	stopOnce    sync.Once
	stopReason  string         // written before quit closes
	stopped     chan struct{}  // closed when the goroutine has exited
	bg          sync.WaitGroup // the bots thinking off the goroutine
	done        bool           // the table is closing itself
	closeReason string         // why, for the Conns
}

func newTable(h *Hub, g engine.Game, opts engine.Options, public bool, botLevel string) *table {
	return &table{
		hub:      h,
		cfg:      &h.cfg,
		log:      h.log,
		game:     g,
		info:     g.Info(),
		opts:     opts,
		public:   public,
		botLevel: botLevel,
		actor: actor{
			cmds:    make(chan command, 64),
			quit:    make(chan struct{}),
			stopped: make(chan struct{}),
		},
		seating:  seating{spectators: make(map[*Conn]struct{})},
		chatRoom: chatRoom{chatLimits: newKeyedLimit(rate{Max: h.cfg.ChatPerMinute, Span: time.Minute})},
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

func (t *table) closeWith(reason string) {
	t.done, t.closeReason = true, reason
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
