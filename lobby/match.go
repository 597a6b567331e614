package lobby

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/rating"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/storage"
)

// Matchmaking ("Play people"): a person picks a game and a player count
// (or any count) and joins that game's pool. Pools are first come, first
// served: whenever enough compatible people wait, the oldest of them are
// seated together at a new public table and the game starts at once.
//
// Key accounts seek rated games and are paired only with key accounts,
// near their own rating first: a seeker accepts anyone within a window
// that starts at ±WindowStart and widens by WindowGrowth each second they
// wait (two seekers are compatible when either one's window covers the
// other). Guests are paired with guests, casually. After the operator's
// BotWait a seeker may stop waiting and fill the other seats with bots
// (a casual game). A seeker who cancels, or whose session ends, leaves the
// pool at once.

// Window of rating a seeker accepts.
const (
	WindowStart  = 150.0 // ± rating points at once
	WindowGrowth = 10.0  // more points each second waited
)

// Refusals of seeking.
var (
	ErrTooManySeeks = &engine.IllegalError{Msg: "You started seeking too often; wait a minute and try again."}
	ErrTooSoonBots  = &engine.IllegalError{Msg: "Keep waiting a little: bots can fill the seats once the wait is over."}
	ErrSeekOver     = &engine.IllegalError{Msg: "You are no longer seeking."}
)

// SeekSpec is what a seeker asks for.
type SeekSpec struct {
	Game    string
	Players int // 0: any number the game allows
}

// Seeker is one person waiting in a pool. Its methods are safe for
// concurrent use.
type Seeker struct {
	mm      *matchmaker
	id      Identity
	spec    SeekSpec
	info    engine.Info
	rated   bool
	rating  rating.Rating
	since   time.Time
	updates signal

	// guarded by mm.mu
	conn    *Conn  // the seat found, once seated
	over    bool   // seated, cancelled or replaced
	reason  string // why it is over, when not seated
	offered bool   // the bots offer has been announced
}

// SeekStatus is what a seeking screen shows, read at once.
type SeekStatus struct {
	Game      engine.Info
	Players   int // 0: any
	Rated     bool
	Rating    rating.Rating // the seeker's own (rated pools only)
	Since     time.Time     // when seeking began
	Window    float64       // ± rating points accepted now (rated pools only)
	BotsAt    time.Time     // from when bots may fill the seats
	BotsReady bool          // the wait is over: bots may fill the seats now
	Others    []SeekerInfo  // other people seeking this game, oldest first (at most 8)
	Waiting   int           // how many seek this game in all (this seeker included)
	Seated    bool          // a table was found: Conn returns its seat
	Over      string        // why seeking ended without a seat ("" while seeking or seated)
}

// SeekerInfo is another seeker as a seeking screen shows them.
type SeekerInfo struct {
	Handle  string
	Players int // 0: any
	Rated   bool
	Rating  rating.Rating // for rated seekers
	InRange bool          // could be paired with the viewer now (same pool and window)
	// SameOrigin: both seek rated games from one address (or connection),
	// which a rated pairing refuses however long they wait (compatible).
	SameOrigin bool
}

// matchmaker holds every pool. One mutex guards it all; matching is a
// short walk over the seekers of one game.
type matchmaker struct {
	h      *Hub
	mu     sync.Mutex
	pools  map[string][]*Seeker // game id → seekers, oldest first
	byAcct map[string]*Seeker
	limits *keyedLimit
	quit   chan struct{}
	done   chan struct{}
}

func newMatchmaker(h *Hub) *matchmaker {
	mm := &matchmaker{
		h:      h,
		pools:  make(map[string][]*Seeker),
		byAcct: make(map[string]*Seeker),
		limits: newKeyedLimit(rate{Max: h.cfg.SeeksPerMinute, Span: time.Minute}, rate{Max: h.cfg.SeeksPerMinute * 6, Span: time.Hour}),
		quit:   make(chan struct{}),
		done:   make(chan struct{}),
	}
	go mm.loop()
	return mm
}

// loop widens windows: once a second it tries every pool again and tells
// seekers whose bots offer has come.
func (mm *matchmaker) loop() {
	defer close(mm.done)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-mm.quit:
			return
		case <-tick.C:
			mm.mu.Lock()
			games := make([]string, 0, len(mm.pools))
			for g := range mm.pools {
				games = append(games, g)
			}
			mm.mu.Unlock()
			for _, g := range games {
				mm.match(g)
			}
			mm.announceBots()
		}
	}
}

// close ends every seek and stops the loop.
func (mm *matchmaker) close() {
	mm.mu.Lock()
	for _, pool := range mm.pools {
		for _, s := range pool {
			mm.endLocked(s, "The server is restarting; try again in a minute.")
		}
	}
	mm.pools = map[string][]*Seeker{}
	mm.mu.Unlock()
	close(mm.quit)
	<-mm.done
}

// Seek joins the pool of spec.Game for spec.Players (0: any). A seek by the
// same account elsewhere ends. Joins are rate-limited per account,
// connection and address.
func (h *Hub) Seek(id Identity, spec SeekSpec) (*Seeker, error) {
	id, err := cleanIdentity(id)
	if err != nil {
		return nil, err
	}
	g, ok := h.cfg.Games.Lookup(spec.Game)
	if !ok {
		return nil, engine.Illegal("There is no game called %q.", textsafe.Clean(spec.Game, 20))
	}
	info := g.Info()
	if spec.Players != 0 {
		if err := info.CheckPlayers(spec.Players); err != nil {
			return nil, err
		}
	}
	s := &Seeker{mm: h.mm, id: id, spec: spec, info: info, rated: !isGuest(id) && storage.RatedGame(info.ID),
		rating: rating.New(), since: h.cfg.Now(), updates: newSignal()}
	if s.rated {
		s.rating = h.ratingOf(id.Account, info.ID)
	}
	mm := h.mm
	keys := limitKeys(id)
	mm.mu.Lock()
	if h.isClosed() {
		mm.mu.Unlock()
		return nil, ErrShutdown
	}
	if key, warn := mm.limits.blocked(keys, s.since); key != "" {
		mm.mu.Unlock()
		if warn {
			h.log.Warn("abuse", "kind", "seek flood", "account", id.Account, "remote", id.Addr, "key", key)
		}
		return nil, ErrTooManySeeks
	}
	mm.limits.add(keys, s.since)
	if old := mm.byAcct[id.Account]; old != nil {
		mm.removeLocked(old)
		mm.endLocked(old, "You started seeking in another session.")
		mm.pokeLocked(old.info.ID)
	}
	mm.pools[info.ID] = append(mm.pools[info.ID], s)
	mm.byAcct[id.Account] = s
	mm.pokeLocked(info.ID)
	mm.mu.Unlock()
	mm.match(info.ID)
	return s, nil
}

// isGuest reports whether an identity is a guest's (no key: no rating).
func isGuest(id Identity) bool { return id.Guest || strings.HasPrefix(id.Account, "guest:") }

// ratingOf reads an account's rating in a game as it stands now, its
// deviation grown for the days since its last rated game (a newcomer's
// when unknown or unreadable: matchmaking never fails over a rating).
func (h *Hub) ratingOf(account, game string) rating.Rating {
	rr, ok := h.cfg.Store.(interface {
		Ratings(account string) ([]storage.GameRating, error)
	})
	if !ok {
		return rating.New()
	}
	rs, err := rr.Ratings(account)
	if err != nil {
		h.log.Warn("read rating for matchmaking", "account", account, "err", err)
		return rating.New()
	}
	for _, r := range rs {
		if r.Game == game {
			return r.Current(h.cfg.Now()).Rating
		}
	}
	return rating.New()
}

func (h *Hub) isClosed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.closed
}

// Seeking counts the people seeking each game (for the home screen).
func (h *Hub) Seeking() map[string]int {
	h.mm.mu.Lock()
	defer h.mm.mu.Unlock()
	out := make(map[string]int, len(h.mm.pools))
	for g, pool := range h.mm.pools {
		if len(pool) > 0 {
			out[g] = len(pool)
		}
	}
	return out
}

// Updates is poked (never blocking) whenever the seeker's status may have
// changed: someone joined or left the pool, a table was found, the bots
// offer came.
func (s *Seeker) Updates() <-chan struct{} { return s.updates.ch }

// Notify hands the seeker's signals to wake instead of Updates (a signal
// already waiting at once), as Conn.Notify does: wake runs on the
// matchmaker, and must return at once, never block or call the hub.
func (s *Seeker) Notify(wake func()) { s.updates.notify(wake) }

// Conn is the seat found for the seeker, or nil while still seeking.
func (s *Seeker) Conn() *Conn {
	s.mm.mu.Lock()
	defer s.mm.mu.Unlock()
	return s.conn
}

// Cancel leaves the pool (nothing happens when already seated or over).
func (s *Seeker) Cancel() {
	s.mm.mu.Lock()
	defer s.mm.mu.Unlock()
	if s.over {
		return
	}
	s.mm.removeLocked(s)
	s.mm.endLocked(s, "You stopped seeking.")
	s.mm.pokeLocked(s.info.ID)
}

// PlayBots stops seeking and starts a casual game at once with bots in the
// other seats. It is refused before the operator's wait is over.
func (s *Seeker) PlayBots() (*Conn, error) {
	mm := s.mm
	mm.mu.Lock()
	switch {
	case s.over:
		mm.mu.Unlock()
		return nil, ErrSeekOver
	case mm.h.cfg.Now().Before(s.since.Add(mm.h.cfg.SeekBotWait)):
		mm.mu.Unlock()
		return nil, ErrTooSoonBots
	case len(s.info.BotLevels) == 0:
		mm.mu.Unlock()
		return nil, engine.Illegal("%s has no bots yet; keep waiting for people.", s.info.Name)
	}
	mm.removeLocked(s)
	mm.endLocked(s, "You chose to play bots.")
	mm.pokeLocked(s.info.ID)
	mm.mu.Unlock()
	seats := s.spec.Players
	if seats == 0 {
		seats = max(2, s.info.MinPlayers)
	}
	c, err := mm.h.Create(s.id, TableSpec{Game: s.info.ID, Seats: seats, Bots: seats - 1})
	if err != nil {
		return nil, err
	}
	if err := c.Start(); err != nil {
		c.Leave()
		return nil, err
	}
	return c, nil
}

// Status reads the seeker's state for its screen.
func (s *Seeker) Status() SeekStatus {
	mm := s.mm
	now := mm.h.cfg.Now()
	mm.mu.Lock()
	defer mm.mu.Unlock()
	st := SeekStatus{
		Game: s.info, Players: s.spec.Players, Rated: s.rated, Rating: s.rating, Since: s.since,
		Window: s.window(now), BotsAt: s.since.Add(mm.h.cfg.SeekBotWait), Seated: s.conn != nil, Over: s.reason,
	}
	st.BotsReady = !now.Before(st.BotsAt) && len(s.info.BotLevels) > 0
	pool := mm.pools[s.info.ID]
	st.Waiting = len(pool)
	for _, o := range pool {
		if o == s {
			continue
		}
		if len(st.Others) < 8 {
			st.Others = append(st.Others, SeekerInfo{Handle: o.id.Handle, Players: o.spec.Players, Rated: o.rated,
				Rating: o.rating, InRange: mm.compatible(s, o, now), SameOrigin: mm.refusedAsSameOrigin(s, o)})
		}
	}
	return st
}

// window is how far from its rating a seeker accepts an opponent now.
func (s *Seeker) window(now time.Time) float64 {
	return WindowStart + WindowGrowth*max(0, now.Sub(s.since).Seconds())
}

// compatible reports whether two seekers may share a table now: same kind
// of pool (rated or casual), player counts that agree, and for rated pools
// ratings within either one's window and different connections and
// addresses.
//
// A key costs nothing to make, so one person can seek a rated game with
// two keys at once and lose on purpose with one of them to lift the
// other's rating. The two keys usually come from one address, which is
// what a rated pairing refuses unless Config.RatedSameAddress allows it
// (casual games, bots and tables by code are still open to people who
// share an address).
func (mm *matchmaker) compatible(a, b *Seeker, now time.Time) bool {
	if a.rated != b.rated || a.id.Account == b.id.Account {
		return false
	}
	if mm.refusedAsSameOrigin(a, b) {
		return false
	}
	if a.spec.Players != 0 && b.spec.Players != 0 && a.spec.Players != b.spec.Players {
		return false
	}
	if !a.rated {
		return true
	}
	d := math.Abs(a.rating.R - b.rating.R)
	return d <= a.window(now) || d <= b.window(now)
}

// refusedAsSameOrigin reports whether two rated seekers come from one
// address or connection, which a rated pairing refuses (see compatible).
func (mm *matchmaker) refusedAsSameOrigin(a, b *Seeker) bool {
	return a.rated && b.rated && !mm.h.cfg.RatedSameAddress && sameOrigin(a.id, b.id)
}

// sameOrigin reports whether two identities came by one SSH connection
// or from one address (group), as far as either is known.
func sameOrigin(a, b Identity) bool {
	return (a.ConnID != "" && a.ConnID == b.ConnID) || (a.Addr != "" && a.Addr == b.Addr)
}

// match seats as many tables of game as its pool allows, oldest seekers
// first.
func (mm *matchmaker) match(game string) {
	for {
		group, players := mm.takeGroup(game)
		if group == nil {
			return
		}
		mm.seat(group, players)
	}
}

// takeGroup finds the first group that can sit down now, oldest seeker
// first, and takes it out of the pool.
func (mm *matchmaker) takeGroup(game string) ([]*Seeker, int) {
	now := mm.h.cfg.Now()
	mm.mu.Lock()
	defer mm.mu.Unlock()
	pool := mm.pools[game]
	for i, first := range pool {
		counts := []int{first.spec.Players}
		if first.spec.Players == 0 {
			counts = counts[:0]
			for n := first.info.MinPlayers; n <= first.info.MaxPlayers; n++ {
				counts = append(counts, n)
			}
		}
		for _, n := range counts {
			group := []*Seeker{first}
			for _, c := range pool[i+1:] {
				if len(group) == n {
					break
				}
				if c.spec.Players != 0 && c.spec.Players != n {
					continue
				}
				if !slices.ContainsFunc(group, func(m *Seeker) bool { return !mm.compatible(m, c, now) }) {
					group = append(group, c)
				}
			}
			if len(group) == n {
				for _, m := range group {
					mm.removeLocked(m)
				}
				return group, n
			}
		}
	}
	return nil, 0
}

// seat opens a public table for the group and starts its game. When that
// fails the group goes back to the front of the pool.
func (mm *matchmaker) seat(group []*Seeker, players int) {
	conns, err := mm.h.seatGroup(group[0].info, group, players)
	mm.mu.Lock()
	defer mm.mu.Unlock()
	if err != nil {
		mm.h.log.Error("seat matched players", "game", group[0].info.ID, "err", err)
		for _, s := range group {
			mm.endLocked(s, "A table could not be opened just now; please try again.")
		}
		mm.pokeLocked(group[0].info.ID)
		return
	}
	for i, s := range group {
		if s.over { // cancelled while the table opened: the seat's grace covers it
			conns[i].Leave()
			continue
		}
		s.conn, s.over = conns[i], true
		if mm.byAcct[s.id.Account] == s {
			delete(mm.byAcct, s.id.Account)
		}
		s.updates.poke()
	}
	mm.pokeLocked(group[0].info.ID)
}

// seatGroup opens a public table with every seeker seated and starts it.
func (h *Hub) seatGroup(info engine.Info, group []*Seeker, players int) ([]*Conn, error) {
	g, ok := h.cfg.Games.Lookup(info.ID)
	if !ok {
		return nil, fmt.Errorf("game %q vanished", info.ID)
	}
	opts, err := info.Resolve(nil)
	if err != nil {
		return nil, err
	}
	level, err := botLevel(info, "", false)
	if err != nil {
		return nil, err
	}
	t := newTable(h, g, opts, true, level)
	t.rated = group[0].rated
	t.seats = openSeats(players)
	if err := h.open(t, ""); err != nil {
		return nil, err
	}
	conns := make([]*Conn, len(group))
	err = t.call(func() error {
		for i, s := range group {
			c, err := t.join(s.id, false)
			if err != nil {
				return err
			}
			conns[i] = c
			t.seats[i].ready = true
		}
		if err := t.startGame(); err != nil {
			return err
		}
		// Said after the start, which says only that the game began.
		t.tell(matchedNews(group, t.gameRated))
		return nil
	})
	if err != nil {
		for _, c := range conns {
			if c != nil {
				c.end(err.Error())
			}
		}
		h.removeTable(t)
		t.stop("A table could not be opened just now.")
		return nil, err
	}
	h.log.Info("matched", "game", info.ID, "code", t.code, "players", players, "rated", t.rated)
	return conns, nil
}

// announceBots pokes seekers whose wait just ended, so their screens offer
// the bots.
func (mm *matchmaker) announceBots() {
	now := mm.h.cfg.Now()
	mm.mu.Lock()
	defer mm.mu.Unlock()
	for _, pool := range mm.pools {
		for _, s := range pool {
			if !s.offered && !now.Before(s.since.Add(mm.h.cfg.SeekBotWait)) {
				s.offered = true
				s.updates.poke()
			}
		}
	}
}

// removeLocked takes s out of its pool.
func (mm *matchmaker) removeLocked(s *Seeker) {
	pool := mm.pools[s.info.ID]
	if i := slices.Index(pool, s); i >= 0 {
		mm.pools[s.info.ID] = slices.Delete(pool, i, i+1)
	}
	if len(mm.pools[s.info.ID]) == 0 {
		delete(mm.pools, s.info.ID)
	}
	if mm.byAcct[s.id.Account] == s {
		delete(mm.byAcct, s.id.Account)
	}
}

// endLocked marks s over with a reason and tells its screen.
func (mm *matchmaker) endLocked(s *Seeker, reason string) {
	if s.over {
		return
	}
	s.over, s.reason = true, reason
	s.updates.poke()
}

// pokeLocked tells every seeker of game that the pool changed, and home
// screens that the counts of people seeking may have: every join, leave and
// seating comes through here. Telling home costs a lock when nobody
// watches, and many changes before a home screen asks again close its wait
// once (it asks at most once a second).
func (mm *matchmaker) pokeLocked(game string) {
	for _, s := range mm.pools[game] {
		s.updates.poke()
	}
	mm.h.changes.signal()
}

// matchedNews is the table's news when the pool seats group: who was
// matched and whether the game is rated, from clean handles.
func matchedNews(group []*Seeker, rated bool) string {
	names := make([]string, len(group))
	for i, s := range group {
		names[i] = s.id.Handle
	}
	kind := "a casual game"
	if rated {
		kind = "a rated game"
	}
	return "Matched: " + strings.Join(names, ", ") + " in " + kind + ". The game begins."
}
