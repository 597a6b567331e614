// What the table shows: after every command that changed something,
// publish builds each seat's and the spectators' TableView (each with only
// what that viewer may see) and the summary the directory lists, swaps them
// in and pokes the Conns. The event logs and the board cache keep that
// cheap.

package lobby

import (
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/codebreakers/codebreakers/engine"
)

// published is what the table shows and what it takes to build it. snap
// and summary are read from any goroutine; the rest is the table
// goroutine's.
type published struct {
	snap    atomic.Pointer[snapshot]
	summary atomic.Pointer[TableSummary]

	version uint64 // of the views; bumps on every publish
	dirty   bool   // something changed since the last publish
	notice  news   // the latest news at the table, shown to everyone while current
	// personMoves counts the moves people (not bots or the clock) have
	// played at this table: news lasts until the next one (news).
	personMoves int
	logs        eventLogs
	boards      boardCache
	// shownCode is the join code's display form (FormatCode) of codeShown,
	// made once instead of on every publish.
	shownCode, codeShown string
}

// snapshot is everything a table has published for one version: the part
// of the view every viewer reads alike, once, and what only one viewer may
// read (its board and log) in an entry of its own. A viewer's TableView is
// put together when its session asks (view), so a publish builds no
// TableView per viewer — nor any for seats nobody reads.
type snapshot struct {
	// common is the view with nothing of any one viewer's in it: You,
	// Host, Board and Log are left zero; view fills them in.
	common    TableView
	host      int          // the host's seat
	seats     []viewerPart // seat i's board and log
	spectator viewerPart   // every spectator's
	// few holds seats for tables of up to maxInlineSeats seats (most
	// games' most), so that a publish allocates one object, not two.
	few [maxInlineSeats]viewerPart
}

// maxInlineSeats is how many seats' entries a snapshot holds in itself.
const maxInlineSeats = 4

// viewerPart is what one viewer (a seat, or the spectators) reads of a
// snapshot that others may not: nil while nobody reads it.
type viewerPart struct {
	board any
	log   []engine.Event
}

// view returns viewer v's TableView of this snapshot: the common part with
// v's own board and log. Only v's entry is read.
func (s *snapshot) view(v engine.Viewer) TableView {
	tv := s.common
	tv.You = v
	part := &s.spectator
	if v.Kind == engine.ViewerSeat {
		if int(v.Seat) >= len(s.seats) {
			return TableView{}
		}
		part = &s.seats[v.Seat]
		tv.Host = int(v.Seat) == s.host
	}
	tv.Board, tv.Log = part.board, part.log
	return tv
}

// publish builds the snapshot every viewer reads its view from, swaps it
// in and pokes the Conns. Seats nobody is connected to get no board: no
// one can ask for it.
func (t *table) publish() {
	t.dirty = false
	t.version++
	if t.codeShown != t.code {
		t.shownCode, t.codeShown = FormatCode(t.code), t.code
	}
	sum := TableSummary{
		Code: t.shownCode, Game: t.info.ID, GameName: t.info.Name, Public: t.public,
		Phase: t.phase, Seats: len(t.seats), Spectators: len(t.spectators), Turn: t.status.Turn,
	}
	var prev []SeatView // the last published seats, shared while they read the same
	if old := t.snap.Load(); old != nil {
		prev = old.common.Seats
	}
	same := len(prev) == len(t.seats)
	for i, s := range t.seats {
		same = same && prev[i] == t.seatView(s)
		switch {
		case s.open():
			sum.Open++
		case s.bot:
			sum.Bots++
		default:
			sum.Humans++
		}
	}
	seats := prev
	if !same {
		seats = make([]SeatView, len(t.seats))
		for i, s := range t.seats {
			seats[i] = t.seatView(s)
		}
	}
	if t.host < len(t.seats) {
		sum.Host = t.seats[t.host].id.handle()
	}
	chat := t.chatRoom.recent()
	snap := &snapshot{host: t.host}
	if n := len(t.seats); n <= maxInlineSeats {
		snap.seats = snap.few[:n:n]
	} else {
		snap.seats = make([]viewerPart, n)
	}
	snap.common = TableView{
		Version: t.version, Code: sum.Code, GameID: t.gameID, Game: t.info, Options: t.opts, Public: t.public,
		Rated: t.gameRated, Phase: t.phase, Seats: seats, Status: t.status, Chat: chat, Spectators: len(t.spectators),
		Result: t.result, Notice: t.currentNews(), Grace: t.cfg.Grace, NoBot: t.botLevel == "", Unsaved: t.unsaved, Deadline: t.deadline, TurnClock: !t.turnDue.IsZero(),
	}
	board := t.state != nil && t.phase != Waiting && t.phase != Broken
	part := func(v engine.Viewer, log int) viewerPart {
		var p viewerPart
		switch {
		case board && t.phase == Finished:
			// The game is over: everyone may now see every hand,
			// exactly as a replay of the record would show it.
			p.board = t.board(engine.Omniscient())
		case board:
			p.board = t.board(v)
		}
		p.log = t.logs.last(log)
		return p
	}
	// Seats nobody is connected to get no board or log: no one can ask for
	// them (a Conn that ended keeps its last view, and a seat's next holder
	// is connected before its first read).
	for i, s := range t.seats {
		if s.conn != nil {
			snap.seats[i] = part(engine.SeatViewer(engine.Seat(i)), i)
		}
	}
	// Only a spectator reads the spectators' entry, and every one is in
	// t.spectators from before its first read (watchConn publishes before
	// it returns) until it has ended and keeps its last view: with nobody
	// watching — most tables — no spectator's board and log are made.
	if len(t.spectators) > 0 {
		snap.spectator = part(engine.Spectator(), len(t.seats))
	}
	t.snap.Store(snap)
	// The summary is swapped only when it reads differently: a publish
	// that changed nothing the table list shows (a chat line, a bot's
	// board) allocates none.
	if old := t.summary.Load(); old == nil || *old != sum {
		fresh := sum
		t.summary.Store(&fresh)
		if old == nil || old.Phase != sum.Phase || old.Public != sum.Public {
			t.hub.changes.signal() // home screens count tables by phase
		}
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

// seatView is seat s as everybody sees it.
func (t *table) seatView(s *seat) SeatView {
	sv := SeatView{Handle: s.id.handle(), Connected: s.conn != nil, Ready: s.ready, Replaced: s.replaced}
	if s.bot || s.ctl != nil {
		sv.Bot, sv.BotLevel = true, t.botLevel
	}
	return sv
}

// news is a line of news at the table ("Bo is back.") and how many moves
// people had played when it was said.
//
// The rule for how long news lasts: a line tells what just happened, so
// it is current until the next event replaces it or, during a game, until
// a person plays the next move — from then on the board and its log tell
// the story, and a line such as "The game has begun." would only be
// stale. Bots' moves and the clock's play on under it: a bot that moves
// at once would otherwise wipe "Bo left; a bot took the seat." before
// anyone read it. Outside play (waiting, finished, stopped) no moves are
// played, so the latest line stands until the next one.
type news struct {
	text string
	at   int // personMoves when it was said
}

// tell makes text the table's news from now until a person's next move.
func (t *table) tell(text string) {
	t.notice = news{text: text, at: t.personMoves}
}

// currentNews is the news line to show now: empty once a person has
// played a move after it in a game in progress.
func (t *table) currentNews() string {
	if t.phase == Playing && t.notice.at != t.personMoves {
		return ""
	}
	return t.notice.text
}

// playedByPerson says whether a move by seat s is a person's: not a bot's
// (nor one covering for someone away), not the clock's.
func (t *table) playedByPerson(s engine.Seat) bool {
	if s < 0 || int(s) >= len(t.seats) {
		return false
	}
	st := t.seats[s]
	return st.human() && st.ctl == nil
}

// eventLogs is what each viewer has seen of the game: logs[i] is seat i's
// log of events and logs[seats] the spectators'. Each only grows between
// trims, so published views share them instead of copying. Viewers who
// have seen the same events share one log (one array, not a copy per
// viewer): in most games every event is for everyone, and the copies
// were most of what a table kept for the collector to scan.
type eventLogs [][]engine.Event

// maxSharedViewers bounds the viewers whose logs push compares without
// allocating (seats and spectators; more only cost an allocation).
const maxSharedViewers = 16

// push adds events to the log of every viewer, of a game with seats seats,
// who may see them.
func (l *eventLogs) push(seats int, evs []engine.Event) {
	if len(*l) != seats+1 {
		*l = make(eventLogs, seats+1)
	}
	var buf [maxSharedViewers][]engine.Event
	old := append(buf[:0], (*l)...) // the logs before this push
	viewer := func(i int) engine.Viewer {
		if i < seats {
			return engine.SeatViewer(engine.Seat(i))
		}
		return engine.Spectator()
	}
	for i := range *l {
		v := viewer(i)
		log, shared, owner := old[i], -1, true
		for j := range old {
			if j == i || !sameLog(old[j], log) {
				continue
			}
			if j > i {
				continue // i comes first: it appends in place, j follows it or copies
			}
			owner = false
			if sameEvents(evs, viewer(j), v) {
				shared = j
				break
			}
		}
		if shared >= 0 {
			(*l)[i] = (*l)[shared]
			continue
		}
		if !owner {
			// An earlier viewer with this array appended its own events in
			// place: this one's go to an array of its own.
			log = slices.Clip(log)
		}
		for _, e := range evs {
			if e.VisibleTo(v) {
				log = append(log, e.For(v))
			}
		}
		if n := len(log); n > 2*LogLen {
			log = slices.Clone(log[n-LogLen:]) // older views keep the old array
		}
		(*l)[i] = log
	}
}

// sameLog says whether a and b are one log: the same events in the same array.
func sameLog(a, b []engine.Event) bool {
	return len(a) == len(b) && unsafe.SliceData(a) == unsafe.SliceData(b)
}

// sameEvents says whether viewers v and w read the same of evs.
func sameEvents(evs []engine.Event, v, w engine.Viewer) bool {
	for _, e := range evs {
		seen := e.VisibleTo(v)
		if seen != e.VisibleTo(w) || seen && e.For(v).Text != e.For(w).Text {
			return false
		}
	}
	return true
}

// last returns the last LogLen events of log i (a seat, or the number of
// seats for spectators), capped so that an append by a reader cannot touch
// ours.
func (l eventLogs) last(i int) []engine.Event {
	if i >= len(l) {
		return nil
	}
	log := l[i]
	n := len(log)
	return log[max(0, n-LogLen):n:n]
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
