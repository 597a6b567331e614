package lobby

import (
	"errors"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine/rating"
	"github.com/codebreakers/codebreakers/storage"
)

// ratedStore is a memStore that also knows some ratings.
type ratedStore struct {
	*memStore
	ratings map[string]rating.Rating // account → its "secret" rating
	last    time.Time                // when every rated account last played (zero: unknown)
}

func (r ratedStore) Ratings(account string) ([]storage.GameRating, error) {
	if rt, ok := r.ratings[account]; ok {
		return []storage.GameRating{{Game: "secret", Rating: rt, Last: r.last}}, nil
	}
	return nil, nil
}

// TestSeekRatingGrownForTimeAway: a seeker is paired and shown with the
// rating as it stands now: its deviation grown by the days since the last
// rated game (here 30 days: ±50 → ±75.9).
func TestSeekRatingGrownForTimeAway(t *testing.T) {
	stored := rating.Rating{R: 1700, RD: 50, Vol: 0.06}
	store := ratedStore{memStore: newMemStore(), ratings: map[string]rating.Rating{"SHA256:ann": stored},
		last: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC).AddDate(0, 0, -30).Add(-time.Hour)}
	h, _ := clockHub(t, store, nil)
	ann := seek(t, h, ident("ann"), 2)
	defer ann.Cancel()
	if got := ann.Status().Rating; got != stored.Idle(30) {
		t.Errorf("ann's rating after 30 days away: %+v, want %+v", got, stored.Idle(30))
	}
}

func clockHub(t *testing.T, store Store, change func(*Config)) (*Hub, *fakeClock) {
	clock := &fakeClock{now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	h := testHub(t, store, func(c *Config) {
		c.Now = clock.Now
		if change != nil {
			change(c)
		}
	})
	return h, clock
}

func seek(t *testing.T, h *Hub, id Identity, players int) *Seeker {
	t.Helper()
	s, err := h.Seek(id, SeekSpec{Game: "secret", Players: players})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// seated waits for the seeker's table.
func seated(t *testing.T, s *Seeker) *Conn {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		if c := s.Conn(); c != nil {
			return c
		}
		select {
		case <-s.Updates():
		case <-deadline:
			t.Fatalf("%s was never seated: %+v", s.id.Handle, s.Status())
		}
	}
}

func guestID(name string) Identity {
	return Identity{Account: "guest:" + name, Handle: name, Guest: true}
}

// TestSeekSeatsTwoKeysAtARatedTable: two key accounts seeking the same game
// for two players are seated at the same new public table, without a code,
// and the game starts at once, rated; its finish reaches the store rated.
func TestSeekSeatsTwoKeysAtARatedTable(t *testing.T) {
	store := newMemStore()
	h, _ := clockHub(t, store, nil)
	ann := seek(t, h, ident("ann"), 2)
	if got := h.Seeking()["secret"]; got != 1 {
		t.Errorf("one seeker: Seeking = %d", got)
	}
	if st := ann.Status(); st.Waiting != 1 || !st.Rated || st.Seated || st.Window != WindowStart {
		t.Errorf("ann alone: %+v", st)
	}
	bo := seek(t, h, ident("bo"), 2)
	a, b := seated(t, ann), seated(t, bo)
	va := waitView(t, a, "the game to start", func(v TableView) bool { return v.Phase == Playing })
	vb := b.View()
	if va.Code != vb.Code || !va.Public || len(va.Seats) != 2 || va.Seats[0].Handle != "ann" || va.Seats[1].Handle != "bo" {
		t.Fatalf("not at one table: %+v / %+v", va, vb)
	}
	if n := len(h.Seeking()); n != 0 {
		t.Errorf("seated people still counted as seeking: %v", h.Seeking())
	}
	store.mu.Lock()
	lg := store.live[va.GameID]
	store.mu.Unlock()
	if lg == nil || !lg.Rated {
		t.Fatalf("the live game is not rated: %+v", lg)
	}
	if !va.Rated || !vb.Rated {
		t.Errorf("the seats' views do not say the game is rated (%v, %v)", va.Rated, vb.Rated)
	}
	// The news says who was matched, and how (it said only that the game
	// had begun: the matched line was overwritten by the start's).
	if want := "Matched: ann, bo in a rated game. The game begins."; va.Notice != want {
		t.Errorf("the news of a match is %q, want %q", va.Notice, want)
	}
	// Play it out: each says a number in turn (6 turns by default).
	for i := 0; i < 6; i++ {
		c := a
		if i%2 == 1 {
			c = b
		}
		waitView(t, c, "my turn", func(v TableView) bool { return len(v.Status.Active) > 0 && v.Status.Active[0] == c.Viewer().Seat })
		if err := c.Act(say(i)); err != nil {
			t.Fatal(err)
		}
	}
	waitView(t, a, "the end", func(v TableView) bool { return v.Phase == Finished })
	store.mu.Lock()
	fg, ok := store.finished[va.GameID]
	store.mu.Unlock()
	if !ok || !fg.Rated || fg.Turns != 6 {
		t.Errorf("finished game: rated %v, turns %d (ok %v)", fg.Rated, fg.Turns, ok)
	}
}

// TestSeekGuestsPlayGuestsCasually: a guest is never paired with a key
// account (that game could not be rated); two guests get a casual table.
func TestSeekGuestsPlayGuestsCasually(t *testing.T) {
	store := newMemStore()
	h, _ := clockHub(t, store, nil)
	ann := seek(t, h, ident("ann"), 2)
	g1 := seek(t, h, guestID("g1"), 2)
	if ann.Conn() != nil || g1.Conn() != nil {
		t.Fatal("a guest and a key account were paired")
	}
	if st := g1.Status(); st.Rated || len(st.Others) != 1 || st.Others[0].InRange {
		t.Errorf("guest's status = %+v", st)
	}
	g2 := seek(t, h, guestID("g2"), 0)
	c := seated(t, g1)
	seated(t, g2)
	v := waitView(t, c, "start", func(v TableView) bool { return v.Phase == Playing })
	store.mu.Lock()
	rated := store.live[v.GameID].Rated
	store.mu.Unlock()
	if rated || v.Rated {
		t.Errorf("a guests' game is rated (stored %v, view %v)", rated, v.Rated)
	}
	if ann.Conn() != nil || h.Seeking()["secret"] != 1 {
		t.Errorf("ann should still be seeking: %v", h.Seeking())
	}
}

// TestSeekCancelLeavesThePoolAtOnce: a seeker who cancels is gone from the
// pool (and the counts) before Cancel returns, and is told why.
func TestSeekCancelLeavesThePoolAtOnce(t *testing.T) {
	h, _ := clockHub(t, newMemStore(), nil)
	ann := seek(t, h, ident("ann"), 3)
	bo := seek(t, h, ident("bo"), 3)
	if h.Seeking()["secret"] != 2 {
		t.Fatalf("Seeking = %v", h.Seeking())
	}
	ann.Cancel()
	if got := h.Seeking()["secret"]; got != 1 {
		t.Errorf("after cancel: Seeking = %d, want 1", got)
	}
	if st := bo.Status(); st.Waiting != 1 || len(st.Others) != 0 {
		t.Errorf("bo still sees ann: %+v", st)
	}
	if st := ann.Status(); st.Over == "" || st.Seated {
		t.Errorf("ann's status after cancel: %+v", st)
	}
	cy := seek(t, h, ident("cy"), 3)
	_ = cy
	if bo.Conn() != nil {
		t.Error("a cancelled seeker was seated")
	}
	// Seeking again in another session ends the first seek.
	again := seek(t, h, ident("bo"), 3)
	if st := bo.Status(); st.Over == "" || h.Seeking()["secret"] != 2 || again.Status().Over != "" {
		t.Errorf("a second seek by bo: first %+v, counts %v", st, h.Seeking())
	}
}

// TestSeekRatingWindowWidens: far-apart ratings are not paired at once;
// the window widens with the wait until they are.
func TestSeekRatingWindowWidens(t *testing.T) {
	store := ratedStore{memStore: newMemStore(), ratings: map[string]rating.Rating{
		"SHA256:ann": {R: 1400, RD: 60, Vol: 0.06},
		"SHA256:bo":  {R: 2000, RD: 60, Vol: 0.06},
		"SHA256:cy":  {R: 1480, RD: 60, Vol: 0.06},
	}}
	h, clock := clockHub(t, store, nil)
	ann := seek(t, h, ident("ann"), 2)
	bo := seek(t, h, ident("bo"), 2)
	if st := ann.Status(); st.Rating.R != 1400 || st.Others[0].InRange || ann.Conn() != nil {
		t.Fatalf("600 points apart at once: %+v", st)
	}
	cy := seek(t, h, ident("cy"), 2) // near ann: paired at once, before bo
	seated(t, ann)
	seated(t, cy)
	if bo.Conn() != nil {
		t.Fatal("bo was paired far outside his window")
	}
	dee := seek(t, h, ident("dee"), 2) // a newcomer at 1500, 500 below bo
	if bo.Conn() != nil {
		t.Fatal("paired too early")
	}
	clock.Add(40 * time.Second) // bo's window: 150 + 400 = 550
	seated(t, bo)
	seated(t, dee)
}

// TestSeekBotsOfferAfterTheWait: filling the seats with bots is refused
// until the operator's wait is over, then starts a casual game at once.
func TestSeekBotsOfferAfterTheWait(t *testing.T) {
	store := newMemStore()
	h, clock := clockHub(t, store, func(c *Config) { c.SeekBotWait = 30 * time.Second })
	ann := seek(t, h, ident("ann"), 3)
	if st := ann.Status(); st.BotsReady || !st.BotsAt.Equal(st.Since.Add(30*time.Second)) {
		t.Errorf("before the wait: %+v", st)
	}
	if _, err := ann.PlayBots(); !errors.Is(err, ErrTooSoonBots) {
		t.Fatalf("PlayBots before the wait = %v", err)
	}
	clock.Add(31 * time.Second)
	if !ann.Status().BotsReady {
		t.Error("the wait is over but no bots offer")
	}
	c, err := ann.PlayBots()
	if err != nil {
		t.Fatal(err)
	}
	v := waitView(t, c, "start", func(v TableView) bool { return v.Phase == Playing })
	if len(v.Seats) != 3 || !v.Seats[1].Bot || !v.Seats[2].Bot {
		t.Errorf("bots table: %+v", v.Seats)
	}
	store.mu.Lock()
	rated := store.live[v.GameID].Rated
	store.mu.Unlock()
	if rated || h.Seeking()["secret"] != 0 {
		t.Errorf("a bots game is rated (%v) or ann still seeks (%v)", rated, h.Seeking())
	}
	if _, err := ann.PlayBots(); !errors.Is(err, ErrSeekOver) {
		t.Errorf("PlayBots twice = %v", err)
	}
}

// TestSeekFloodIsLimited: starting and cancelling seeks in a loop is cut
// off per account, and per address for guests who renew their account.
func TestSeekFloodIsLimited(t *testing.T) {
	h, clock := clockHub(t, newMemStore(), func(c *Config) { c.SeeksPerMinute = 5 })
	for i := range 5 {
		s, err := h.Seek(ident("ann"), SeekSpec{Game: "secret", Players: 4})
		if err != nil {
			t.Fatalf("seek %d: %v", i, err)
		}
		s.Cancel()
	}
	if _, err := h.Seek(ident("ann"), SeekSpec{Game: "secret", Players: 4}); !errors.Is(err, ErrTooManySeeks) {
		t.Fatalf("sixth seek in a minute = %v, want ErrTooManySeeks", err)
	}
	if h.Seeking()["secret"] != 0 {
		t.Error("a refused seek joined the pool")
	}
	for i := range 6 {
		g := guestID("g")
		g.Account = "guest:" + string(rune('a'+i))
		g.Addr = "203.0.113.9"
		s, err := h.Seek(g, SeekSpec{Game: "secret", Players: 4})
		if i < 5 && err != nil {
			t.Fatalf("guest seek %d: %v", i, err)
		}
		if i == 5 && !errors.Is(err, ErrTooManySeeks) {
			t.Fatalf("a new guest account from the same address: %v", err)
		}
		if s != nil {
			s.Cancel()
		}
	}
	clock.Add(61 * time.Second)
	if _, err := h.Seek(ident("ann"), SeekSpec{Game: "secret", Players: 4}); err != nil {
		t.Errorf("after a minute: %v", err)
	}
}

// TestSeekAnyCount: "any" joins whichever count fills first.
func TestSeekAnyCount(t *testing.T) {
	h, _ := clockHub(t, newMemStore(), nil)
	ann := seek(t, h, ident("ann"), 0)
	bo := seek(t, h, ident("bo"), 3)
	if ann.Conn() != nil {
		t.Fatal("seated before three")
	}
	cy := seek(t, h, ident("cy"), 3)
	for _, s := range []*Seeker{ann, bo, cy} {
		v := waitView(t, seated(t, s), "start", func(v TableView) bool { return v.Phase == Playing })
		if len(v.Seats) != 3 {
			t.Errorf("%s at a %d-seat table", s.id.Handle, len(v.Seats))
		}
	}
}

// TestSeekBadInput: unknown games and impossible counts are refused with a
// message.
func TestSeekBadInput(t *testing.T) {
	h, _ := clockHub(t, newMemStore(), nil)
	if _, err := h.Seek(ident("ann"), SeekSpec{Game: "chess\x1b[2J"}); err == nil || !errors.Is(err, err) ||
		err.Error() != `There is no game called "chess".` {
		t.Errorf("unknown game: %v", err)
	}
	if _, err := h.Seek(ident("ann"), SeekSpec{Game: "secret", Players: 40}); err == nil {
		t.Error("40 players accepted")
	}
	if _, err := h.Seek(Identity{}, SeekSpec{Game: "secret"}); !errors.Is(err, ErrNoIdentity) {
		t.Errorf("no identity: %v", err)
	}
}

// TestSeekStatusSaysSameOrigin: a rated seeker sees why another from its
// address is never paired (SameOrigin), not only that it is not in range;
// one from elsewhere is not marked.
func TestSeekStatusSaysSameOrigin(t *testing.T) {
	h, _ := clockHub(t, newMemStore(), nil)
	from := func(name, addr string) Identity {
		id := ident(name)
		id.ConnID, id.Addr = "conn-"+name, addr
		return id
	}
	a := seek(t, h, from("ann", "198.51.100.7"), 2)
	defer a.Cancel()
	b := seek(t, h, from("bea", "198.51.100.7"), 2)
	defer b.Cancel()
	st := b.Status()
	if len(st.Others) != 1 || !st.Others[0].SameOrigin || st.Others[0].InRange {
		t.Fatalf("the other key of one address: %+v", st.Others)
	}
	c := seek(t, h, from("cid", "203.0.113.50"), 3)
	defer c.Cancel()
	for _, o := range c.Status().Others {
		if o.SameOrigin {
			t.Errorf("a seeker from another address is marked as the same origin: %+v", o)
		}
	}
}
