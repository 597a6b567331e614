package lobby

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/storage"
)

// User-facing refusals. They are *engine.IllegalError values, so
// engine.IsIllegal recognises them and errors.Is matches them.
var (
	ErrNoTable        = &engine.IllegalError{Msg: "That code matches no open table. Codes look like KQ7-M4X."}
	ErrTooManyCodes   = &engine.IllegalError{Msg: "Too many wrong codes; wait a minute and try again."}
	ErrShutdown       = &engine.IllegalError{Msg: "The server is shutting down; try again in a moment."}
	ErrTableClosed    = &engine.IllegalError{Msg: "That table has closed."}
	ErrNotHere        = &engine.IllegalError{Msg: "You are no longer at this table."}
	ErrNoIdentity     = &engine.IllegalError{Msg: "Sign in with a handle before joining a table."}
	ErrTooManyTables  = &engine.IllegalError{Msg: "You have opened a lot of tables just now; wait a minute and try again."}
	ErrTooManyRenames = &engine.IllegalError{Msg: "You have changed your handle a lot just now; wait a while and try again."}
	ErrTooManyClaims  = &engine.IllegalError{Msg: "Many new players have chosen handles from your address just now; wait a few minutes and try again."}
)

// Hub holds every table. Its mutex guards only the code → table map and the
// small indexes beside it; no I/O and no table work happens under it.
type Hub struct {
	cfg Config
	log *slog.Logger

	sessions atomic.Int64 // live Conns
	// thinkers holds a token for each bot thinking now (Config.BotThinkers).
	thinkers chan struct{}
	// pause waits d before a bot moves, or returns false when quit closes
	// first. Tests replace it to see the pauses without waiting them out.
	pause func(d time.Duration, quit <-chan struct{}) bool

	mu     sync.Mutex
	closed bool
	tables map[string]*table // canonical code → table
	seats  map[string]*table // account → the table where it most recently took a seat
	// held is every table where an account holds a seat, oldest first: a
	// player may sit at more than one (a game left in its grace period and a
	// new one), and home offers a way back to each.
	held map[string][]*table
	// botPlays holds each held seat a bot plays now, its person away past
	// the grace (HeldSeats says so; the seat stays the person's).
	botPlays map[heldSeat]struct{}
	failures *keyedLimit // recent wrong codes per account, connection and address
	// opened and openedByAddr meter the tables opened per account and
	// connection, and per address (allowTable).
	opened, openedByAddr *keyedLimit
	renames              *keyedLimit // handle changes per account, connection and address (AllowRename)
	claims               *keyedLimit // first handles claimed per address (AllowClaim)
	dir                  Directory   // the cluster's directory; nil on a single node

	mm *matchmaker // the pools of people seeking people (its own lock)

	changes changes // wakes home screens when the lobby's picture changes (its own lock)
	// quit closes when the hub closes; bg counts the hub's own background
	// work (finishes waiting for the records database).
	quit        chan struct{}
	bg          sync.WaitGroup
	finishRetry finishRetry
}

// NewHub builds a hub and resumes every game in progress from
// Store.LiveGames(): each is replayed from its log, its players' seats are
// held for the grace period, and bots carry on.
func NewHub(cfg Config) (*Hub, error) {
	if cfg.Games == nil || cfg.Store == nil {
		return nil, errors.New("lobby: Config.Games and Config.Store are required")
	}
	cfg = cfg.withDefaults()
	h := &Hub{
		cfg:    cfg,
		log:    cfg.Logger.With("component", "lobby"),
		tables: make(map[string]*table),
		seats:  make(map[string]*table),
		held:   make(map[string][]*table),

		botPlays: make(map[heldSeat]struct{}),
		failures: newKeyedLimit(
			rate{Max: cfg.JoinFailuresPerMinute, Span: time.Minute},
			rate{Max: cfg.JoinFailuresPerHour, Span: time.Hour}),
		opened: newKeyedLimit(
			rate{Max: cfg.TablesPerMinute, Span: time.Minute},
			rate{Max: cfg.TablesPerMinute * 6, Span: time.Hour}),
		openedByAddr: newKeyedLimit(
			rate{Max: cfg.TablesPerMinute * 6, Span: time.Minute},
			rate{Max: cfg.TablesPerMinute * 36, Span: time.Hour}),
		renames: newKeyedLimit(
			rate{Max: renamesPerMinute, Span: time.Minute},
			rate{Max: renamesPerHour, Span: time.Hour}),
		claims: newKeyedLimit(
			rate{Max: max(1, cfg.NewHandlesPerHour/3), Span: time.Minute},
			rate{Max: cfg.NewHandlesPerHour, Span: time.Hour}),
		thinkers: make(chan struct{}, cfg.BotThinkers),
		pause:    sleep,
		quit:     make(chan struct{}),

		finishRetry: defaultFinishRetry(),
	}
	live, err := cfg.Store.LiveGames()
	if err != nil {
		return nil, fmt.Errorf("lobby: load live games: %w", err)
	}
	h.mm = newMatchmaker(h)
	for _, lg := range live {
		if err := h.resumeGame(lg); err != nil {
			// Keep the log: a fixed engine may resume it on a later start.
			h.log.Error("cannot resume live game", "game_id", lg.ID, "game", lg.Record.Game, "err", err)
		}
	}
	return h, nil
}

// sleep waits d, or returns false as soon as quit closes.
func sleep(d time.Duration, quit <-chan struct{}) bool {
	if d <= 0 {
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-quit:
		return false
	}
}

// Close stops every table and ends every Conn. Live logs are already
// durable, so games in progress resume on the next NewHub.
func (h *Hub) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	h.mu.Unlock()
	close(h.quit)
	h.bg.Wait()
	h.mm.close()
	h.mu.Lock()
	tables := make([]*table, 0, len(h.tables))
	for _, t := range h.tables {
		tables = append(tables, t)
	}
	h.mu.Unlock()
	for _, t := range tables {
		t.stop("The server is restarting. Your game is saved; come back in a minute to resume it.")
	}
	for _, t := range tables {
		<-t.stopped
		t.bg.Wait()
	}
}

// Create opens a new table; the creator takes seat 0 and is its host.
func (h *Hub) Create(id Identity, spec TableSpec) (*Conn, error) {
	id, err := cleanIdentity(id)
	if err != nil {
		return nil, err
	}
	g, ok := h.cfg.Games.Lookup(spec.Game)
	if !ok {
		return nil, engine.Illegal("There is no game called %q.", textsafe.Clean(spec.Game, 20))
	}
	info := g.Info()
	if err := info.CheckPlayers(spec.Seats); err != nil {
		return nil, err
	}
	opts, err := info.Resolve(spec.Options)
	if err != nil {
		return nil, err
	}
	if spec.Bots < 0 || spec.Bots > spec.Seats-1 {
		return nil, engine.Illegal("Bots may fill 0 to %d of the %d seats.", spec.Seats-1, spec.Seats)
	}
	level, err := botLevel(info, spec.BotLevel, spec.Bots > 0)
	if err != nil {
		return nil, err
	}
	if err := h.allowTable(id); err != nil {
		return nil, err
	}
	t := newTable(h, g, opts, spec.Public, level)
	t.seats = openSeats(spec.Seats)
	t.seats[0].id = id
	for i := spec.Seats - spec.Bots; i < spec.Seats; i++ {
		t.seats[i].bot, t.seats[i].botLevel, t.seats[i].id.Handle = true, level, botName(i)
	}
	if err := h.open(t, ""); err != nil {
		return nil, err
	}
	return t.joinConn(id, false)
}

// allowTable counts a table id is about to open, or refuses it when id's
// account or connection, or its address, has opened too many lately. A
// table deals a game, keeps a live log and runs bots, and one left in play
// is held for the grace period before it is abandoned, so a client that
// opens tables and leaves them in a loop (quick play, leave, quick play)
// would otherwise keep hundreds going at once for nothing. Guests get a new
// account with every session, hence the connection and the address.
func (h *Hub) allowTable(id Identity) error {
	keys, addr := splitAddr(id)
	return h.meter(id, ErrTooManyTables, "table flood", "new tables refused for a while",
		metered{h.opened, keys}, metered{h.openedByAddr, addr})
}

// metered is a limit and the keys an event counts against in it.
type metered struct {
	limit *keyedLimit
	keys  []string
}

// meter counts an event of id's against every limit, or, when any of them
// is used up for its keys, counts it in none, logs one abuse line per
// burst (kind, detail) and returns refusal.
func (h *Hub) meter(id Identity, refusal error, kind, detail string, limits ...metered) error {
	now := h.cfg.Now()
	h.mu.Lock()
	var key string
	var warn bool
	for _, m := range limits {
		if key, warn = m.limit.blocked(m.keys, now); key != "" {
			break
		}
	}
	if key == "" {
		for _, m := range limits {
			m.limit.add(m.keys, now)
		}
	}
	h.mu.Unlock()
	if key == "" {
		return nil
	}
	if warn {
		h.log.Warn("abuse", "kind", kind, "account", id.Account, "remote", id.Addr, "detail", detail, "key", key)
	}
	return refusal
}

// Limits on handle changes (AllowRename): a player renames now and then.
const (
	renamesPerMinute = 5
	renamesPerHour   = 20
)

// AllowRename counts a change of handle id is about to make, or refuses
// it when id's account, connection or address has changed handles too
// often lately. Each change is a write to the database, which every move
// at every table waits on, and it frees a handle and takes another: one
// session renamed itself a hundred times in twelve seconds.
func (h *Hub) AllowRename(id Identity) error {
	return h.meter(id, ErrTooManyRenames, "handle changes", "handle changes refused for a while",
		metered{h.renames, limitKeys(id)})
}

// AllowClaim counts a first handle a new key is about to claim, or refuses
// it when id's address has claimed too many lately. A claim makes an
// account and keeps its handle for good, and keys cost nothing, so the
// limit is on the address: the people behind one address (a household, a
// classroom) still get their handles, a script minting keys does not get
// thousands a day.
func (h *Hub) AllowClaim(id Identity) error {
	_, addr := splitAddr(id)
	return h.meter(id, ErrTooManyClaims, "handle claims", "new handles refused for a while",
		metered{h.claims, addr})
}

// Join takes a free seat at the table with this code, or resumes the seat
// this account already holds there (taking over a live session, whose Done
// closes). Wrong codes count against the account's join limit.
func (h *Hub) Join(id Identity, code string) (*Conn, error) {
	id, err := cleanIdentity(id)
	if err != nil {
		return nil, err
	}
	t, err := h.lookup(id, code, "join")
	if err != nil {
		return nil, err
	}
	return t.joinConn(id, false)
}

// Watch follows the table with this code as a spectator, who sees public
// information only. Private tables can be watched by whoever knows the code.
func (h *Hub) Watch(id Identity, code string) (*Conn, error) {
	id, err := cleanIdentity(id)
	if err != nil {
		return nil, err
	}
	t, err := h.lookup(id, code, "watch")
	if err != nil {
		return nil, err
	}
	return t.watchConn(id)
}

// QuickPlay starts a private game at once: this person and bots.
func (h *Hub) QuickPlay(id Identity, game string) (*Conn, error) {
	return h.QuickPlayLevel(id, game, "")
}

// QuickPlayLevel is QuickPlay with bots of the given level (one of the
// game's levels; empty: the game's default).
func (h *Hub) QuickPlayLevel(id Identity, game, level string) (*Conn, error) {
	g, ok := h.cfg.Games.Lookup(game)
	if !ok {
		return nil, engine.Illegal("There is no game called %q.", textsafe.Clean(game, 20))
	}
	info := g.Info()
	if len(info.BotLevels) == 0 {
		return nil, engine.Illegal("%s has no bots yet; create a table and share its code.", info.Name)
	}
	seats := min(max(3, info.MinPlayers), info.MaxPlayers)
	c, err := h.Create(id, TableSpec{Game: game, Seats: seats, Bots: seats - 1, BotLevel: level})
	if err != nil {
		return nil, err
	}
	if err := c.Start(); err != nil {
		c.Leave()
		return nil, err
	}
	return c, nil
}

// Resume returns a new Conn for the seat this account holds in a game that
// is waiting or in progress, taking over any live session on it.
func (h *Hub) Resume(id Identity) (*Conn, bool) {
	id, err := cleanIdentity(id)
	if err != nil {
		return nil, false
	}
	h.mu.Lock()
	t := h.seats[id.Account]
	h.mu.Unlock()
	if t == nil {
		return nil, false
	}
	c, err := t.joinConn(id, true)
	if err != nil {
		return nil, false
	}
	return c, true
}

// PublicTables lists public tables that are waiting or playing, waiting
// ones first.
func (h *Hub) PublicTables() []TableSummary {
	h.mu.Lock()
	tables := make([]*table, 0, len(h.tables))
	for _, t := range h.tables {
		tables = append(tables, t)
	}
	h.mu.Unlock()
	var out []TableSummary
	for _, t := range tables {
		s := t.summary.Load()
		if s != nil && s.Public && (s.Phase == Waiting || s.Phase == Playing) {
			out = append(out, *s)
		}
	}
	out = append(out, h.remoteTables()...)
	slices.SortFunc(out, func(a, b TableSummary) int {
		return cmp.Or(cmp.Compare(a.Phase, b.Phase), cmp.Compare(a.Code, b.Code))
	})
	return out
}

// PublicCounts counts the public tables PublicTables lists, by phase,
// without copying or sorting them: home shows the counts on every redraw,
// and a busy lobby redraws every home screen once a second.
func (h *Hub) PublicCounts() (waiting, playing int) {
	count := func(s *TableSummary) {
		switch {
		case s == nil || !s.Public:
		case s.Phase == Waiting:
			waiting++
		case s.Phase == Playing:
			playing++
		}
	}
	h.mu.Lock()
	for _, t := range h.tables {
		count(t.summary.Load()) // an atomic load: no table work under the lock
	}
	h.mu.Unlock()
	for _, s := range h.remoteTables() {
		count(&s)
	}
	return waiting, playing
}

// Online counts live sessions (Conns) and open tables.
func (h *Hub) Online() (sessions, tables int) {
	h.mu.Lock()
	tables = len(h.tables)
	h.mu.Unlock()
	return int(h.sessions.Load()), tables
}

// lookup finds the table for a typed code, enforcing the wrong-code limit
// on the account, the connection and the address alike. A code another
// node of the cluster holds gives an *ElsewhereError (not a wrong code).
func (h *Hub) lookup(id Identity, typed, kind string) (*table, error) {
	now := h.cfg.Now()
	keys := limitKeys(id)
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, ErrShutdown
	}
	if key, warn := h.failures.blocked(keys, now); key != "" {
		h.mu.Unlock()
		if warn { // one line per burst of guesses
			h.log.Warn("abuse", "kind", "join code guessing", "account", id.Account, "remote", id.Addr,
				"detail", "joins refused for a while", "key", key)
		}
		return nil, ErrTooManyCodes
	}
	code, ok := NormalizeCode(typed)
	t := h.tables[code]
	h.mu.Unlock()
	if ok && t != nil {
		return t, nil
	}
	refusal := ErrNoTable
	if ok {
		// Not here: the cluster's directory (network I/O, so outside the lock).
		err := h.locate(code, kind)
		var elsewhere *ElsewhereError
		if errors.As(err, &elsewhere) {
			return nil, err
		}
		var down *engine.IllegalError
		if errors.As(err, &down) {
			refusal = down // the directory is down; the code still counts as a guess
		}
	}
	h.mu.Lock()
	h.failures.add(keys, now)
	h.mu.Unlock()
	return nil, refusal
}

// open registers t under a fresh code (or the wanted one when free) and
// starts its goroutine. In a cluster a fresh code is also claimed in the
// directory, create-only, so no two nodes hand out one code.
func (h *Hub) open(t *table, want string) error {
	d := h.directory()
	for attempt := 0; ; attempt++ {
		code, err := h.reserveCode(t, want, attempt)
		if err != nil {
			return err
		}
		if d == nil {
			break
		}
		if want != "" && code == want {
			// A resumed table keeps its code (its players know it); a
			// clash is only logged, and the table stays reachable here.
			if !h.claimCode(d, code) {
				h.log.Warn("directory: a resumed table's code is held by another node", "code", code)
			}
			break
		}
		if h.claimCode(d, code) {
			break
		}
		h.mu.Lock()
		delete(h.tables, code)
		h.mu.Unlock()
		if attempt >= 20 {
			return errors.New("lobby: no join code free in the cluster")
		}
	}
	go t.run()
	h.changes.signal()
	if d != nil {
		d.Changed()
	}
	return nil
}

// reserveCode picks a code free on this node (want first, on the first
// attempt) and registers t under it.
func (h *Hub) reserveCode(t *table, want string, attempt int) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return "", ErrShutdown
	}
	code := want
	if _, taken := h.tables[code]; code == "" || taken || attempt > 0 {
		for {
			c, err := newCode()
			if err != nil {
				return "", err
			}
			if _, taken := h.tables[c]; !taken {
				code = c
				break
			}
		}
	}
	t.code = code
	h.tables[code] = t
	return code, nil
}

// removeTable forgets a table that has stopped by itself.
func (h *Hub) removeTable(t *table) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.tables[t.code] == t {
		delete(h.tables, t.code)
	}
	for acct, st := range h.seats {
		if st == t {
			delete(h.seats, acct)
		}
	}
	for acct, ts := range h.held {
		if ts = slices.DeleteFunc(ts, func(o *table) bool { return o == t }); len(ts) == 0 {
			delete(h.held, acct)
		} else {
			h.held[acct] = ts
		}
		delete(h.botPlays, heldSeat{acct, t})
	}
	h.changes.signal()
	if h.dir != nil {
		h.dir.Changed()
	}
}

// setSeat records that account holds a seat at t.
func (h *Hub) setSeat(account string, t *table) {
	h.mu.Lock()
	_, fromBot := h.botPlays[heldSeat{account, t}]
	delete(h.botPlays, heldSeat{account, t})
	changed := h.seats[account] != t || fromBot
	h.seats[account] = t
	ts := slices.DeleteFunc(h.held[account], func(o *table) bool { return o == t })
	h.held[account] = append(ts, t)
	d := h.dir
	h.mu.Unlock()
	if changed {
		h.changes.signal()
	}
	if d != nil {
		d.Changed()
	}
}

// heldSeat is one account's seat at one table.
type heldSeat struct {
	account string
	t       *table
}

// botTookSeat records that a bot plays account's seat at t now, and wakes
// home screens (in groups, see changes) so the way back says so.
func (h *Hub) botTookSeat(account string, t *table) {
	h.mu.Lock()
	_, had := h.botPlays[heldSeat{account, t}]
	if slices.Contains(h.held[account], t) {
		h.botPlays[heldSeat{account, t}] = struct{}{}
	}
	h.mu.Unlock()
	if !had {
		h.changes.signal()
	}
}

// dropSeat forgets account's seat at t (a newer seat elsewhere is kept).
func (h *Hub) dropSeat(account string, t *table) {
	h.mu.Lock()
	ts := h.held[account]
	held := slices.Contains(ts, t)
	delete(h.botPlays, heldSeat{account, t})
	if ts = slices.DeleteFunc(ts, func(o *table) bool { return o == t }); len(ts) == 0 {
		delete(h.held, account)
	} else {
		h.held[account] = ts
	}
	if h.seats[account] == t {
		delete(h.seats, account)
		if len(ts) > 0 {
			h.seats[account] = ts[len(ts)-1] // the newest seat left is the one to resume
		}
	}
	d := h.dir
	h.mu.Unlock()
	if held {
		h.changes.signal()
	}
	if d != nil {
		d.Changed()
	}
}

// resumeGame rebuilds a table for a game that was in progress.
func (h *Hub) resumeGame(lg storage.LiveGame) (err error) {
	g, ok := h.cfg.Games.Lookup(lg.Record.Game)
	if !ok {
		return fmt.Errorf("unknown game %q", lg.Record.Game)
	}
	info := g.Info()
	if len(lg.Seats) != len(lg.Record.Players) {
		return fmt.Errorf("%d seats but %d players", len(lg.Seats), len(lg.Record.Players))
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("replay panicked: %v", r)
		}
	}()
	st, events, err := engine.Replay(h.cfg.Games, lg.Record, -1)
	if err != nil {
		return err
	}
	if res, done := st.Result(); done {
		// It ended but the finish was not recorded (crash in between).
		return h.cfg.Store.FinishGame(storage.FinishedGame{LiveGame: lg, Result: res, Finished: h.cfg.Now(),
			Turns: st.Status().Turn - 1})
	}
	level := ""
	for _, s := range lg.Seats {
		if s.Bot && info.HasBotLevel(s.BotLevel) {
			level = s.BotLevel
			break
		}
	}
	if level, err = botLevel(info, level, false); err != nil {
		return err
	}
	// The game goes on under the rules it was recorded with; a rematch at
	// this table is a new game, under the newest.
	opts := maps.Clone(lg.Record.Options)
	delete(opts, engine.RulesOption)
	t := newResumedTable(h, g, opts, level, lg, st, events)
	code, _ := NormalizeCode(lg.Code)
	if err := h.open(t, code); err != nil {
		return err
	}
	for _, s := range t.seats {
		if !s.bot {
			h.setSeat(s.id.Account, t)
		}
	}
	h.log.Info("resumed game", "game_id", lg.ID, "game", info.ID, "code", t.code, "moves", len(lg.Record.Moves))
	t.post(t.resumed)
	return nil
}

// cleanIdentity checks an identity and makes its handle safe to draw: the
// door by which a handle enters the hub. Past it, Identity.handle says so.
func cleanIdentity(id Identity) (Identity, error) {
	if id.Account == "" {
		return id, ErrNoIdentity
	}
	id.Handle = textsafe.Clean(id.Handle, textsafe.MaxHandle).String()
	if id.Handle == "" {
		id.Handle = "guest"
	}
	return id, nil
}

// handle is the identity's handle as views show it. Only for identities
// past cleanIdentity (or a bot's, which the hub names itself).
func (id Identity) handle() textsafe.Text { return textsafe.Text(id.Handle) }

// botLevel checks a requested bot level, or picks a middling one.
func botLevel(info engine.Info, want string, needed bool) (string, error) {
	if len(info.BotLevels) == 0 {
		if needed {
			return "", engine.Illegal("%s has no bots yet.", info.Name)
		}
		return "", nil
	}
	if want == "" {
		return info.BotLevelDefault(), nil
	}
	if !info.HasBotLevel(want) {
		return "", engine.Illegal("Bot level must be one of %v, not %q.", info.BotLevels, textsafe.Clean(want, 20))
	}
	return want, nil
}

// botName names the bot in a seat, so narration reads naturally.
func botName(seat int) string {
	names := [...]string{"Ada", "Bo", "Cy", "Dot", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu"}
	return "bot-" + names[seat%len(names)]
}

// TableCount is how many open tables of one game are in one phase.
type TableCount struct {
	Game   string
	Phase  Phase
	Tables int
}

// TableCounts counts open tables by game and phase (for metrics), in no
// particular order. Tables that have not published a summary yet are left
// out.
func (h *Hub) TableCounts() []TableCount {
	h.mu.Lock()
	tables := make([]*table, 0, len(h.tables))
	for _, t := range h.tables {
		tables = append(tables, t)
	}
	h.mu.Unlock()
	type key struct {
		game  string
		phase Phase
	}
	counts := map[key]int{}
	for _, t := range tables {
		if s := t.summary.Load(); s != nil {
			counts[key{s.Game, s.Phase}]++
		}
	}
	out := make([]TableCount, 0, len(counts))
	for k, n := range counts {
		out = append(out, TableCount{Game: k.game, Phase: k.phase, Tables: n})
	}
	return out
}
