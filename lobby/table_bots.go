// The table's bots: which seats a bot plays (seat.ctl), thinking off the
// table goroutine under the hub's limit on thinkers, and handing the move
// back to be judged like anyone's. Their pace keeps every bot move on
// screen long enough to read.

package lobby

import (
	"fmt"
	"runtime/debug"
	"time"

	"github.com/codebreakers/codebreakers/engine"
)

// botPace holds bots back so that people can follow them. Owned by the
// table goroutine.
type botPace struct {
	// beatUntil is when the last move has been on screen long enough to
	// read (see readingTime): no bot moves before it, so a person sees
	// every bot move, one after another, even when several bots are due.
	beatUntil time.Time
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
		if s.ctl == nil || s.thinking || (s.conn != nil && !s.outOfTime) {
			continue
		}
		var view any
		if bv, ok := t.state.(engine.BotViewer); ok {
			view = bv.BotView(a) // the seat's view without help that bots do not read
		} else {
			view = t.board(engine.SeatViewer(a)) // the same view a person in the seat gets
		}
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
		if s.outOfTime {
			// The bot has nothing to say for this person: leave the seat
			// to them with a fresh clock rather than spin.
			s.ctl, s.outOfTime = nil, false
			s.awaited = t.cfg.Now()
			t.armTimer()
		}
	default:
		if err := t.apply(engine.Seat(i), res.action); err != nil && engine.IsIllegal(err) && err != ErrNotSaved && err != ErrBroken {
			t.breakDown(fmt.Sprintf("bot in seat %d chose an illegal move %s: %v", i, res.action, err), nil)
		}
	}
}

// botSeed derives a bot's seed from the game's, so each seat differs.
func botSeed(seed uint64, seat int) uint64 {
	return seed ^ (uint64(seat)+1)*0x9E3779B97F4A7C15
}

func (t *table) botSeed(seat int) uint64 { return botSeed(t.record.Seed, seat) }
