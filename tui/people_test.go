package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/rating"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/storage"
)

// fakeSeeker is a seek whose status the test sets.
type fakeSeeker struct {
	status    lobby.SeekStatus
	seat      tableConn
	cancelled int
	bots      int
	updates   chan struct{}
}

func (s *fakeSeeker) Updates() <-chan struct{}     { return s.updates }
func (s *fakeSeeker) Status() lobby.SeekStatus     { return s.status }
func (s *fakeSeeker) Cancel()                      { s.cancelled++ }
func (s *fakeSeeker) Seat() tableConn              { return s.seat }
func (s *fakeSeeker) PlayBots() (tableConn, error) { s.bots++; return s.seat, nil }

func (h *fakeHub) Seek(lobby.Identity, lobby.SeekSpec) (seekConn, error) {
	if h.seekErr != nil {
		return nil, h.seekErr
	}
	return h.seeker, nil
}
func (h *fakeHub) Seeking() map[string]int { return map[string]int{"breakcode": 4} }

func (f *fakeStore) Leaderboard(q storage.LeaderQuery) ([]storage.Leader, error) {
	return []storage.Leader{
		{Rank: 1, Handle: "bo\x1b[31m", GameRating: storage.GameRating{Game: q.Game, Rating: rating.Rating{R: 1662, RD: 290}, Games: 1, Wins: 1}},
		{Rank: 2, Handle: "mara", GameRating: storage.GameRating{Game: q.Game, Rating: rating.Rating{R: 1338, RD: 290}, Games: 1}},
	}, nil
}

func (f *fakeStore) Profile(handle string, _ int) (storage.Profile, error) {
	if handle != "mara" && handle != "bo\x1b[31m" {
		return storage.Profile{}, storage.ErrNotFound
	}
	return storage.Profile{
		Account: storage.Account{ID: "SHA256:test", Handle: handle, Created: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)},
		Ratings: []storage.GameRating{{Game: "breakcode", Rating: rating.Rating{R: 1412, RD: 48}, Games: 96, Wins: 50}},
		Trends:  map[string][]storage.RatingPoint{"breakcode": {{R: 1400}, {R: 1380}, {R: 1412}}},
		Stats:   storage.Stats{Totals: storage.Totals{Played: 3, Won: 1, SharedWins: 1, Lost: 1}},
		Recent: []storage.GameSummary{{ID: "8F3K2", Game: "breakcode", Outcome: storage.SharedWin,
			Seats: []storage.SeatRecord{{Handle: "mara"}, {Handle: "bo"}}}},
	}, nil
}

func (f *fakeStore) FinishedGames(q storage.ListQuery) ([]storage.GameSummary, error) {
	g := storage.GameSummary{ID: "8F3K2", Game: "breakcode", Public: true, Rated: true, TopRating: 1500,
		Seats: []storage.SeatRecord{{Handle: "mara"}, {Handle: "bo"}}, Result: engine.Result{Summary: "mara broke the code."}}
	return []storage.GameSummary{g}, nil
}

// peopleApp is a test app whose seek pump and timers never wait.
func peopleApp(t *testing.T, h *fakeHub, store AccountStore) *app {
	t.Helper()
	m := newTestApp(t, h, store, 80, 24)
	m.seekPump = func(context.Context, seekConn) tea.Cmd { return nil }
	m.after = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	return m
}

func TestHomeShowsPlayPeopleWithSeekingCounts(t *testing.T) {
	m := peopleApp(t, &fakeHub{}, nil)
	out := screenText(m)
	for _, want := range []string{"Play people", "Break the Code 4 seeking", "Watch", "Leaderboards", "My profile"} {
		if !strings.Contains(out, want) {
			t.Errorf("home lacks %q:\n%s", want, out)
		}
	}
	checkFits(t, m, 80, 24)
}

// TestSeekScreen: Play people → count → the seeking screen (who waits, the
// window, the wait); b before the wait says when; esc stops seeking.
func TestSeekScreen(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 14, 0, time.UTC)
	sk := &fakeSeeker{updates: make(chan struct{}, 1), status: lobby.SeekStatus{
		Game: engine.Info{ID: "breakcode", Name: "Break the Code"}, Players: 2, Rated: true,
		Rating: rating.Rating{R: 1412, RD: 60}, Since: now.Add(-14 * time.Second), Window: 100,
		BotsAt: now.Add(16 * time.Second), Waiting: 3,
		Others: []lobby.SeekerInfo{{Handle: "kai\x1b]0;x\a", Players: 3, Rated: true, Rating: rating.Rating{R: 1380, RD: 60}, InRange: true},
			{Handle: "lee", Players: 2, Rated: true, Rating: rating.Rating{R: 1655, RD: 60}}},
	}}
	h := &fakeHub{seeker: sk}
	m := peopleApp(t, h, nil)
	m.now = func() time.Time { return now }
	chooseHome(t, m, "Play people") // only one game, so straight to the count
	press(t, m, "down", "enter")    // 2 players
	s, ok := m.top().(*seekScreen)
	if !ok {
		t.Fatalf("not seeking: %T\n%s", m.top(), screenText(m))
	}
	out := screenText(m)
	for _, want := range []string{"PLAY PEOPLE", "rated", "0:14 waiting", "one opponent near 1,412", "range 1,312–1,512",
		"You and 2 others are seeking Break the Code", "kai 1,380 (3 players)", "lee 1,655 (2 players), out of range", "At 0:30 (in 0:16)", "esc stop seeking"} {
		if !strings.Contains(strings.ToUpper(out), strings.ToUpper(want)) {
			t.Errorf("seeking screen lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(m.View().Content, "\x1b]0;") {
		t.Error("a seeker's handle sent an escape sequence")
	}
	checkFits(t, m, 80, 24)
	// At 60 columns the title bar has no room for the clock; the body
	// still says how long is left before bots may fill the seats.
	send(m, tea.WindowSizeMsg{Width: 60, Height: 20})
	if out := screenText(m); !strings.Contains(out, "(in 0:16)") {
		t.Errorf("at 60×20 the time left before bots is not said:\n%s", out)
	}
	checkFits(t, m, 60, 20)
	send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	press(t, m, "b")
	if sk.bots != 0 || !strings.Contains(screenText(m), "Bots can fill the seats from 0:30") {
		t.Errorf("b before the wait: bots %d\n%s", sk.bots, screenText(m))
	}
	press(t, m, "esc")
	if sk.cancelled != 1 || m.top() == s {
		t.Errorf("esc: cancelled %d times, top %T", sk.cancelled, m.top())
	}
}

// TestSeekScreenSaysWhoElseAndWhyNotPaired: the count of seekers leaves
// out the viewer (a lone seeker was told "1 person is seeking", themself),
// and a seeker in the other pool is named as such, not "out of range" (a
// guest and a key account can never be paired, however long they wait).
func TestSeekScreenSaysWhoElseAndWhyNotPaired(t *testing.T) {
	bc := engine.Info{ID: "breakcode", Name: "Break the Code"}
	cases := []struct {
		name   string
		status lobby.SeekStatus
		want   []string
		not    []string
	}{
		{"alone", lobby.SeekStatus{Game: bc, Rated: true, Window: 100, Waiting: 1},
			[]string{"Nobody else is seeking Break the Code now."}, []string{"1 person"}},
		{"key sees a guest", lobby.SeekStatus{Game: bc, Rated: true, Window: 100, Waiting: 2,
			Others: []lobby.SeekerInfo{{Handle: "guest-2um"}}},
			[]string{"You and 1 other are seeking", "guest-2um (any), a guest: plays guests only"}, []string{"out of range"}},
		{"guest sees a key", lobby.SeekStatus{Game: bc, Waiting: 2,
			Others: []lobby.SeekerInfo{{Handle: "kai", Rated: true, Rating: rating.Rating{R: 1500, RD: 350}}}},
			[]string{"kai 1,500? (any), rated: plays SSH keys only"}, []string{"out of range"}},
		{"the same key elsewhere", lobby.SeekStatus{Game: bc, Rated: true, Window: 100, Waiting: 1,
			Over:   "You started seeking in another session.",
			Others: []lobby.SeekerInfo{{Handle: "mara", Rated: true, Rating: rating.Rating{R: 1500, RD: 350}}}},
			[]string{"mara 1,500? (any), you, in another session", "esc back"}, []string{"out of range", "stop seeking"}},
		// Two friends behind one router: within each other's range, never
		// paired; they are told why and what to do instead.
		{"same address", lobby.SeekStatus{Game: bc, Rated: true, Window: 500, Waiting: 2,
			Others: []lobby.SeekerInfo{{Handle: "abo", Rated: true, Rating: rating.Rating{R: 1500, RD: 350}, SameOrigin: true}}},
			[]string{"abo 1,500? (any), same address as you", "never pair two players from one address", "create a table and give them its code"},
			[]string{"out of range"}},
		// A key account seeking a game without ratings (If Then) is not
		// told it is a guest who should connect with a key.
		{"unrated game, key account", lobby.SeekStatus{Game: engine.Info{ID: "ifthen", Name: "If Then"}, Waiting: 1},
			[]string{"Looking for other players (casual: If Then has no ratings)."}, []string{"among guests", "connect with an SSH key"}},
		{"other count", lobby.SeekStatus{Game: bc, Players: 2, Waiting: 2,
			Others: []lobby.SeekerInfo{{Handle: "lee", Players: 3}}},
			[]string{"lee (3 players), wants another count"}, []string{"out of range"}},
	}
	for _, c := range cases {
		sk := &fakeSeeker{updates: make(chan struct{}, 1), status: c.status}
		m := peopleApp(t, &fakeHub{seeker: sk}, nil)
		chooseHome(t, m, "Play people")
		press(t, m, "enter") // any number
		out := screenText(m)
		flat := strings.Join(strings.Fields(out), " ")
		for _, w := range c.want {
			if !strings.Contains(flat, w) {
				t.Errorf("%s: seeking screen lacks %q:\n%s", c.name, w, out)
			}
		}
		for _, w := range c.not {
			if strings.Contains(out, w) {
				t.Errorf("%s: seeking screen says %q:\n%s", c.name, w, out)
			}
		}
		checkFits(t, m, 80, 24)
	}
}

// TestSeekScreenBotsOfferAndSeat: once the wait is over b plays bots; when
// a table is found the seeking screen gives way to the table.
func TestSeekScreenBotsOfferAndSeat(t *testing.T) {
	conn := newFakeConn(lobby.TableView{Code: "KQ7-M4X", Game: engine.Info{ID: "breakcode", Name: "Break the Code"}})
	sk := &fakeSeeker{updates: make(chan struct{}, 1), status: lobby.SeekStatus{
		Game: engine.Info{ID: "breakcode", Name: "Break the Code"}, BotsReady: true, Waiting: 1}}
	m := peopleApp(t, &fakeHub{seeker: sk}, nil)
	chooseHome(t, m, "Play people")
	press(t, m, "enter") // any number
	if !strings.Contains(screenText(m), "press b to fill the seats with bots") {
		t.Fatalf("no bots offer:\n%s", screenText(m))
	}
	sk.seat = conn
	press(t, m, "b")
	if sk.bots != 1 {
		t.Fatalf("b did not play bots")
	}
	if _, ok := m.top().(*tableScreen); !ok {
		t.Fatalf("after bots: %T\n%s", m.top(), screenText(m))
	}

	// Seated by matchmaking: the seek's change moves to the table.
	sk2 := &fakeSeeker{updates: make(chan struct{}, 1), status: lobby.SeekStatus{Game: engine.Info{ID: "breakcode", Name: "Break the Code"}}}
	m2 := peopleApp(t, &fakeHub{seeker: sk2}, nil)
	chooseHome(t, m2, "Play people")
	press(t, m2, "enter")
	sk2.seat = conn
	run(t, m2, send(m2, seekChangedMsg{seek: sk2}))
	if _, ok := m2.top().(*tableScreen); !ok {
		t.Fatalf("seated: %T\n%s", m2.top(), screenText(m2))
	}
	if sk2.cancelled != 0 {
		t.Error("a seated seek was cancelled")
	}
}

// TestWatchLeaderboardsProfile walks the three lists: finished games open
// replays, leaderboard rows open profiles, handles are sanitised.
func TestWatchLeaderboardsProfile(t *testing.T) {
	g := finishedGame(t)
	store := newFakeStore()
	store.games["8F3K2"] = g
	h := &fakeHub{tables: []lobby.TableSummary{{Code: "KQ7M4X", GameName: "Break the Code", Phase: lobby.Playing, Turn: 4, Host: "kai"}}}
	m := peopleApp(t, h, store)
	chooseHome(t, m, "Watch")
	out := screenText(m)
	if !strings.Contains(out, "KQ7-M4X") || !strings.Contains(out, "turn 4") {
		t.Fatalf("watch live:\n%s", out)
	}
	press(t, m, "tab")
	out = screenText(m)
	if !strings.Contains(out, "8F3K2") || !strings.Contains(out, "mara broke") || !strings.Contains(out, "★ 1,500") {
		t.Fatalf("watch finished:\n%s", out)
	}
	checkFits(t, m, 80, 24)
	press(t, m, "enter")
	if _, ok := m.top().(*replayScreen); !ok {
		t.Fatalf("enter on a finished game: %T\n%s", m.top(), screenText(m))
	}
	press(t, m, "esc", "esc")
	chooseHome(t, m, "Leaderboards")
	out = screenText(m)
	if !strings.Contains(out, "LEADERBOARDS") || !strings.Contains(out, "1,662? ±290") || strings.Contains(m.View().Content, "\x1b[31m") {
		t.Fatalf("leaderboard:\n%q", m.View().Content)
	}
	checkFits(t, m, 80, 24)
	press(t, m, "down", "enter")
	out = screenText(m)
	for _, want := range []string{"PROFILE", "mara", "1,412", "±48", "▅▁█", "won 50 of 96 rated", "8F3K2", "shared win",
		"joined 2026-11-02"} {
		if !strings.Contains(out, want) {
			t.Errorf("profile lacks %q:\n%s", want, out)
		}
	}
	checkFits(t, m, 80, 24)
	press(t, m, "enter")
	if _, ok := m.top().(*replayScreen); !ok {
		t.Fatalf("enter on a recent game: %T", m.top())
	}
	// An unknown handle says so.
	run(t, m, m.openProfile("ghost"))
	if !strings.Contains(screenText(m), `Nobody has the handle "ghost"`) {
		t.Errorf("unknown handle:\n%s", screenText(m))
	}
}

// awayStore serves a leaderboard and a profile whose player last played
// rated 30 days before the app's clock.
type awayStore struct {
	*fakeStore
	last time.Time
}

func (s awayStore) Leaderboard(q storage.LeaderQuery) ([]storage.Leader, error) {
	return []storage.Leader{{Rank: 1, Handle: "mara", GameRating: storage.GameRating{Game: q.Game,
		Rating: rating.Rating{R: 1412, RD: 48, Vol: 0.06}, Games: 96, Wins: 50, Last: s.last}}}, nil
}

func (s awayStore) Profile(handle string, n int) (storage.Profile, error) {
	p, err := s.fakeStore.Profile(handle, n)
	for i := range p.Ratings {
		p.Ratings[i].Vol, p.Ratings[i].Last = 0.06, s.last
	}
	return p, err
}

// TestLeaderboardAndProfileShowTheRatingAsItStandsNow: a player 30 days
// away is shown with the deviation grown by 30 rating periods (±48 → ±75).
func TestLeaderboardAndProfileShowTheRatingAsItStandsNow(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	m := peopleApp(t, &fakeHub{}, awayStore{fakeStore: newFakeStore(), last: now.AddDate(0, 0, -30)})
	m.now = func() time.Time { return now }
	chooseHome(t, m, "Leaderboards")
	if out := screenText(m); !strings.Contains(out, "1,412 ±75") {
		t.Errorf("the leaderboard shows the rating as stored, not as it stands now:\n%s", out)
	}
	press(t, m, "enter")
	if out := screenText(m); !strings.Contains(out, "±75") || strings.Contains(out, "±48") {
		t.Errorf("the profile shows the rating as stored, not as it stands now:\n%s", out)
	}
}

// noLeaders is a store whose leaderboards are empty.
type noLeaders struct{ *fakeStore }

func (noLeaders) Leaderboard(storage.LeaderQuery) ([]storage.Leader, error) { return nil, nil }

// TestLeaderboardExplainsItself: the "?" after provisional ratings is
// explained under the table (a newcomer's board is all "1,662? ±290" with
// no word on what ? means), and a guest looking at an empty board is told
// that rated play needs a key rather than how many games "get you here".
func TestLeaderboardExplainsItself(t *testing.T) {
	m := peopleApp(t, &fakeHub{}, nil)
	chooseHome(t, m, "Leaderboards")
	if out := screenText(m); !strings.Contains(out, "1,662?") || !strings.Contains(out, "? provisional: too few games yet") {
		t.Errorf("the leaderboard does not say what ? means:\n%s", out)
	}
	checkFits(t, m, 80, 24)

	g := newApp(Deps{Store: noLeaders{newFakeStore()}, Games: registry()}, &fakeHub{}, Session{
		Identity: lobby.Identity{Account: "guest:1", Guest: true}, Width: 80, Height: 24, Context: context.Background(),
	})
	g.waitLobby = func(context.Context, <-chan struct{}, time.Duration) tea.Cmd { return nil }
	run(t, g, g.Init())
	chooseHome(t, g, "Leaderboards")
	if out := screenText(g); !strings.Contains(out, "Nobody ranked in") || !strings.Contains(out, "Rated play needs an SSH key") {
		t.Errorf("a guest's empty leaderboard:\n%s", out)
	}
}

// longResults is a store whose finished games have results too long for
// their row.
type longResults struct{ *fakeStore }

func (longResults) FinishedGames(storage.ListQuery) ([]storage.GameSummary, error) {
	var list []storage.GameSummary
	for _, id := range []string{"F4F22PTZGCZ3QH", "64PPU6E42NMMZD"} {
		list = append(list, storage.GameSummary{ID: id, Game: "breakcode", Public: true, Rated: true, TopRating: 1732,
			Seats:  []storage.SeatRecord{{Handle: "kai"}, {Handle: "bo"}},
			Result: engine.Result{Summary: "bo and kai both broke the code: a tie (" + id + ")."}})
	}
	return list, nil
}

// TestWatchShowsTheChosenGameWhole: a finished game's row cuts its result
// short ("kai, bo — bo and …"); the chosen game's players and result are
// shown whole beneath it, and follow the cursor.
func TestWatchShowsTheChosenGameWhole(t *testing.T) {
	m := peopleApp(t, &fakeHub{}, longResults{newFakeStore()})
	chooseHome(t, m, "Watch")
	press(t, m, "tab")
	for _, id := range []string{"F4F22PTZGCZ3QH", "64PPU6E42NMMZD"} {
		out := strings.Join(strings.Fields(screenText(m)), " ")
		if want := "kai, bo — bo and kai both broke the code: a tie (" + id + ")."; !strings.Contains(out, want) {
			t.Errorf("the chosen game's result %q is not whole:\n%s", want, screenText(m))
		}
		checkFits(t, m, 80, 24)
		press(t, m, "down")
	}
}

// oneLeader is a store whose leaderboard has one player.
type oneLeader struct{ *fakeStore }

func (oneLeader) Leaderboard(q storage.LeaderQuery) ([]storage.Leader, error) {
	return []storage.Leader{{Rank: 1, Handle: "kai", GameRating: storage.GameRating{Game: q.Game, Rating: rating.Rating{R: 1520, RD: 80}, Games: 6, Wins: 4}}}, nil
}

// TestLeaderboardOffersOnlyKeysThatWork: an empty leaderboard offered
// "enter profile" (and moving) though there is nobody to open; it says how
// to get on it instead, and its key bar has only what works. One player
// can be opened but not moved between; one rated game has no next game.
func TestLeaderboardOffersOnlyKeysThatWork(t *testing.T) {
	cases := []struct {
		store       AccountStore
		want, never []string
	}{
		// The game's name stands alone: "the The Coding board" read badly.
		{noLeaders{newFakeStore()}, []string{"esc back", "Nobody ranked in Break the Code yet", "Play people"}, []string{"enter", "↑/↓", "tab"}},
		{oneLeader{newFakeStore()}, []string{"enter profile", "esc back", "kai"}, []string{"↑/↓", "tab"}},
		{nil, []string{"↑/↓ move", "enter profile"}, []string{"tab"}},
	}
	for _, c := range cases {
		m := peopleApp(t, &fakeHub{}, c.store)
		chooseHome(t, m, "Leaderboards")
		out, bar := screenText(m), keyBarText(m)
		flat := strings.Join(strings.Fields(out), " ")
		for _, w := range c.want {
			if !strings.Contains(flat, w) {
				t.Errorf("%T: the leaderboard lacks %q:\n%s", c.store, w, out)
			}
		}
		for _, n := range c.never {
			if strings.Contains(bar, n) {
				t.Errorf("%T: the key bar %q offers %q, which does nothing here", c.store, bar, n)
			}
		}
		press(t, m, "enter")
		if _, ok := m.top().(*profileScreen); ok != strings.Contains(bar, "enter") {
			t.Errorf("%T: enter offered %v, opened a profile %v", c.store, strings.Contains(bar, "enter"), ok)
		}
		checkFits(t, m, 80, 24)
	}
}

// TestWatchOffersOnlyKeysThatWork: with nothing live, Watch offered "↑/↓
// move · enter watch" over an empty list; it offers what works there (tab
// to the finished games, refresh), and with one finished game, enter
// (replay) without moving.
func TestWatchOffersOnlyKeysThatWork(t *testing.T) {
	m := peopleApp(t, &fakeHub{}, nil)
	chooseHome(t, m, "Watch")
	bar := func() string { return keyBarText(m) }
	if b := bar(); strings.Contains(b, "enter") || strings.Contains(b, "↑/↓") || !strings.Contains(b, "tab live/finished/best") || !strings.Contains(b, "esc back") {
		t.Errorf("an empty live list's key bar: %q", b)
	}
	press(t, m, "tab") // the fake store has one finished game
	if b := bar(); !strings.Contains(b, "enter replay") || strings.Contains(b, "↑/↓") {
		t.Errorf("one finished game's key bar: %q", b)
	}
}

// noRecent is a store whose profiles have no recent games.
type noRecent struct{ *fakeStore }

func (s noRecent) Profile(handle string, n int) (storage.Profile, error) {
	p, err := s.fakeStore.Profile(handle, n)
	p.Recent = nil
	return p, err
}

// TestEmptyListsOfferOnlyKeysThatWork: Public tables, My games and a
// profile with nothing listed offered ↑/↓ and enter (join, replay) that did
// nothing; with one row they offer opening it, not moving.
func TestEmptyListsOfferOnlyKeysThatWork(t *testing.T) {
	bar := keyBarText
	for _, item := range []string{"Public tables", "My games", "My profile"} {
		m := peopleApp(t, &fakeHub{}, noRecent{newFakeStore()})
		chooseHome(t, m, item)
		if b := bar(m); strings.Contains(b, "↑/↓") || strings.Contains(b, "enter") || strings.Contains(b, "join") ||
			strings.Contains(b, "replay") || !strings.Contains(b, "esc back") {
			t.Errorf("%s, empty: the key bar is %q", item, b)
		}
	}
	store := newFakeStore()
	store.history = []storage.GameSummary{{ID: "8F3K2", Game: "breakcode", Seats: []storage.SeatRecord{{Handle: "mara"}, {Handle: "bo"}}}}
	hub := &fakeHub{tables: []lobby.TableSummary{{Code: "KQ7M4X", Game: "breakcode", GameName: "Break the Code", Public: true,
		Phase: lobby.Waiting, Seats: 3, Humans: 1, Open: 2, Host: "bo"}}}
	for _, item := range []string{"Public tables", "My games", "My profile"} {
		m := peopleApp(t, hub, store)
		chooseHome(t, m, item)
		if b := bar(m); strings.Contains(b, "↑/↓") || !strings.Contains(b, "enter") {
			t.Errorf("%s, one row: the key bar is %q", item, b)
		}
	}
}

// renameStore is a store whose profiles follow the accounts' handles, as
// the real one does.
type renameStore struct{ *fakeStore }

func (s renameStore) Profile(handle string, _ int) (storage.Profile, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range s.accounts {
		if strings.EqualFold(a.Handle, handle) {
			return storage.Profile{Account: a}, nil
		}
	}
	return storage.Profile{}, storage.ErrNotFound
}

// TestChangeHandleFromProfile: a handle typed in haste at the first login
// was kept for ever; the player's own profile offers e to change it, which
// saves the new one and shows the profile under it. Someone else's
// profile does not offer it, and nor does one's own while a game holds a
// seat (its table knows the player by the old handle).
func TestChangeHandleFromProfile(t *testing.T) {
	store := renameStore{newFakeStore()}
	store.accounts["SHA256:test"] = storage.Account{ID: "SHA256:test", Handle: "mara"}
	store.accounts["SHA256:bo"] = storage.Account{ID: "SHA256:bo", Handle: "bo"}
	h := &fakeHub{}
	m := peopleApp(t, h, store)

	run(t, m, m.openProfile("bo"))
	if bar := keyBarText(m); strings.Contains(bar, "change handle") {
		t.Errorf("someone else's profile offers to change the handle: %q", bar)
	}
	press(t, m, "esc")

	chooseHome(t, m, "My profile")
	if bar := keyBarText(m); !strings.Contains(bar, "e change handle") {
		t.Fatalf("one's own profile does not offer e: %q\n%s", bar, screenText(m))
	}
	press(t, m, "e")
	if !strings.Contains(screenText(m), "Choose a new handle") {
		t.Fatalf("e did not ask for a new handle:\n%s", screenText(m))
	}
	press(t, m, "backspace", "backspace", "backspace", "backspace")
	typeText(t, m, "bo")
	press(t, m, "enter")
	if !strings.Contains(screenText(m), "That handle is taken") {
		t.Errorf("another's handle was not refused:\n%s", screenText(m))
	}
	press(t, m, "backspace", "backspace")
	typeText(t, m, "maria")
	press(t, m, "enter")
	if m.id.Handle != "maria" || store.accounts["SHA256:test"].Handle != "maria" {
		t.Fatalf("handle now %q, stored %q", m.id.Handle, store.accounts["SHA256:test"].Handle)
	}
	if _, ok := m.top().(*profileScreen); !ok || !strings.Contains(screenText(m), "PROFILE · maria") {
		t.Fatalf("after the change, not the profile under the new handle: %T\n%s", m.top(), screenText(m))
	}
	// esc on the rename screen keeps the handle.
	press(t, m, "e", "backspace", "x", "esc")
	if _, ok := m.top().(*profileScreen); !ok || m.id.Handle != "maria" {
		t.Fatalf("esc: %T, handle %q", m.top(), m.id.Handle)
	}

	// A held seat: the change waits.
	h.held = &lobby.TableSummary{Code: "KQ7-M4X", Phase: lobby.Playing}
	press(t, m, "e")
	if _, ok := m.top().(*profileScreen); !ok || !strings.Contains(strings.Join(strings.Fields(screenText(m)), " "), "Table KQ7-M4X still holds your seat") {
		t.Errorf("with a seat held: %T\n%s", m.top(), screenText(m))
	}
}

// TestGuestSeekingCasualIsToldAboutKeys: a guest seeking casually is told
// that an SSH key plays rated (what a key account in a game without
// ratings is not told).
func TestGuestSeekingCasualIsToldAboutKeys(t *testing.T) {
	sk := &fakeSeeker{updates: make(chan struct{}, 1), status: lobby.SeekStatus{
		Game: engine.Info{ID: "breakcode", Name: "Break the Code"}, Waiting: 1}}
	m := peopleApp(t, &fakeHub{seeker: sk}, nil)
	m.id = lobby.Identity{Guest: true, Handle: "guest-1", Account: "guest:1"}
	chooseHome(t, m, "Play people")
	press(t, m, "enter") // any number
	if flat := strings.Join(strings.Fields(screenText(m)), " "); !strings.Contains(flat, "among guests (casual: connect with an SSH key to play rated)") {
		t.Errorf("a guest is not told how to play rated:\n%s", screenText(m))
	}
}
