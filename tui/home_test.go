package tui

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/lobby"
)

// lobbyWaits records the waits for lobby changes a session asks for.
type lobbyWaits struct{ calms []time.Duration }

func (w *lobbyWaits) wait(_ context.Context, _ <-chan struct{}, calm time.Duration) tea.Cmd {
	w.calms = append(w.calms, calm)
	return nil
}

// TestHomeFollowsTheLobby: while home is shown, one wait for lobby changes
// is kept on its way; a change redraws the counts and waits again after a
// calm spell; away from home, no wait is asked for.
func TestHomeFollowsTheLobby(t *testing.T) {
	h := &fakeHub{}
	m := newTestApp(t, h, nil, 80, 24)
	waits := &lobbyWaits{}
	m.waitLobby = waits.wait
	m.lobbyWait = false
	send(m, tea.WindowSizeMsg{Width: 80, Height: 24}) // any message arms the wait on home
	if len(waits.calms) != 1 || waits.calms[0] != 0 {
		t.Fatalf("home asked for waits %v, want one without a calm", waits.calms)
	}
	send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if len(waits.calms) != 1 {
		t.Fatalf("a second wait was asked for while one is on its way: %v", waits.calms)
	}
	if !strings.Contains(screenText(m), "mara · 0 tables") {
		t.Fatalf("title before:\n%s", screenText(m))
	}
	h.tables = []lobby.TableSummary{{Code: "AAA-BBB", Phase: lobby.Waiting, Public: true}, {Code: "CCC-DDD", Phase: lobby.Playing, Public: true}}
	send(m, lobbyChangedMsg{})
	s := screenText(m)
	if !strings.Contains(s, "mara · 2 tables") || !strings.Contains(s, "1 waiting · 1 playing") {
		t.Errorf("home did not follow the lobby change:\n%s", s)
	}
	if len(waits.calms) != 2 || waits.calms[1] != lobbyCalm {
		t.Errorf("after a change the next wait should come after a calm spell: %v", waits.calms)
	}

	// Away from home: the wait that ends is not renewed.
	press(t, m, "down", "enter") // Create a table
	send(m, lobbyChangedMsg{})
	if len(waits.calms) != 2 {
		t.Errorf("a screen other than home asked to follow the lobby: %v", waits.calms)
	}
	press(t, m, "esc") // home again: it follows the lobby again
	if len(waits.calms) != 3 || waits.calms[2] != 0 {
		t.Errorf("back home, no wait was asked for: %v", waits.calms)
	}
}

// TestWaitLobbyEndsOnChangeOrSessionEnd: the wait answers a change, and
// gives nothing once the session has ended.
func TestWaitLobbyEndsOnChangeOrSessionEnd(t *testing.T) {
	ch := make(chan struct{})
	close(ch)
	if msg := waitLobby(context.Background(), ch, 0)(); msg != (lobbyChangedMsg{}) {
		t.Errorf("a change gave %T", msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if msg := waitLobby(ctx, make(chan struct{}), time.Hour)(); msg != nil {
		t.Errorf("an ended session gave %T", msg)
	}
	if waitLobby(ctx, nil, 0) != nil {
		t.Error("a hub that tells no changes should give no wait")
	}
}

// TestHomeOffersBackToYourGame: while the account holds a seat, home's
// first item takes the player back to it.
func TestHomeOffersBackToYourGame(t *testing.T) {
	st := dealt(t, 2, 1)
	conn := newFakeConn(tableView(st, engine.SeatViewer(0), nil, 1))
	h := &fakeHub{conn: conn}
	m := newTestApp(t, h, nil, 80, 24)
	if strings.Contains(screenText(m), "Back to your game") {
		t.Fatal("home offers a game the account does not hold")
	}
	h.held = &lobby.TableSummary{Code: "KQ7-M4X", GameName: "Break the Code", Phase: lobby.Playing}
	send(m, lobbyChangedMsg{})
	s := screenText(m)
	if !strings.Contains(s, "▸ Back to your game") || !strings.Contains(s, "Break the Code · table KQ7-M4X · playing") {
		t.Fatalf("home should offer the held seat first:\n%s", s)
	}
	press(t, m, "enter")
	if ts, ok := m.top().(*tableScreen); !ok || ts.conn != conn {
		t.Fatalf("Back to your game opened %T", m.top())
	}
}

// TestHomeItemsFitOnOneLine: at 80×24 every home item and its hint share
// one line (Puzzle of the day's hint ran onto a second line, a stray
// "move" under the item, alone).
func TestHomeItemsFitOnOneLine(t *testing.T) {
	m := newTestApp(t, &fakeHub{}, nil, 80, 24)
	h, ok := m.top().(*homeScreen)
	if !ok {
		t.Fatalf("not home: %T", m.top())
	}
	out := screenText(m)
	for _, it := range h.items {
		hint := it.hint(m)
		found := false
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, it.label) && strings.Contains(l, hint) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q and its hint %q are not on one line:\n%s", it.label, hint, out)
		}
	}
}

// TestOnlyKeysHaveAProfileRow: a guest's home has no My profile row (it
// led to an error) and says how to get one instead; a key account's row
// opens its profile.
func TestOnlyKeysHaveAProfileRow(t *testing.T) {
	m := newTestApp(t, &fakeHub{}, nil, 80, 24)
	if out := screenText(m); !strings.Contains(out, myProfile) || strings.Contains(out, "You are a guest") {
		t.Fatalf("a key account's home:\n%s", out)
	}
	rows := m.top().(*homeScreen).rows(m)
	i := slices.IndexFunc(rows, func(it menuItem) bool { return it.label == myProfile })
	for range i {
		press(t, m, "down")
	}
	press(t, m, "enter")
	if _, ok := m.top().(*profileScreen); !ok {
		t.Fatalf("My profile opened %T", m.top())
	}

	g := newApp(Deps{Games: registry()}, &fakeHub{}, Session{
		Identity: lobby.Identity{Account: "guest:1", Guest: true}, Width: 80, Height: 24,
	})
	run(t, g, g.Init())
	out := screenText(g)
	if strings.Contains(out, myProfile) {
		t.Errorf("a guest's home offers a profile they do not have:\n%s", out)
	}
	if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "connect with an SSH key") || !strings.Contains(flat, "profile") {
		t.Errorf("a guest's home does not say how to get a profile:\n%s", out)
	}
	checkFits(t, g, 80, 24)
	// Every row a guest can choose leads somewhere without an error.
	for i := range g.top().(*homeScreen).rows(g) {
		if label := g.top().(*homeScreen).rows(g)[i].label; label == "Quit" || label == "Quick play" || label == "Play people" {
			continue
		}
		g.top().(*homeScreen).cursor = i
		press(t, g, "enter")
		if strings.Contains(screenText(g), "!") && strings.Contains(screenText(g), "Guests have no") {
			t.Errorf("row %d errs for a guest:\n%s", i, screenText(g))
		}
		g.goHome()
	}
}

// TestHomeOffersEverySeatHeld: a player seated at several tables (one left
// in its grace period, a new one) is offered a way back to each, newest
// first and at most heldRows of them; choosing another seat joins that
// table by its code, which gives the account its seat back. Home used to
// show only the newest.
func TestHomeOffersEverySeatHeld(t *testing.T) {
	st := dealt(t, 2, 1)
	conn := newFakeConn(tableView(st, engine.SeatViewer(0), nil, 1))
	h := &fakeHub{conn: conn}
	m := newTestApp(t, h, nil, 80, 24) // (a seat held at sign-in is resumed at once)
	h.held = &lobby.TableSummary{Code: "KQ7-M4X", GameName: "Break the Code", Phase: lobby.Waiting}
	h.heldToo = []lobby.TableSummary{
		{Code: "ABC-DEF", GameName: "If Then", Phase: lobby.Playing},
		{Code: "GHJ-KMN", GameName: "The Coding", Phase: lobby.Playing},
		{Code: "PQR-STV", GameName: "What the Rule?!", Phase: lobby.Playing},
	}
	send(m, lobbyChangedMsg{})
	s := screenText(m)
	for _, want := range []string{
		"▸ Back to your game", "Break the Code · table KQ7-M4X · waiting",
		"Your other seat", "If Then · table ABC-DEF · playing", "The Coding · table GHJ-KMN · playing",
	} {
		if !strings.Contains(s, want) {
			t.Fatalf("home does not show %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "PQR-STV") {
		t.Fatalf("home shows more than %d seats:\n%s", heldRows, s)
	}
	if n := len(strings.Split(strings.TrimRight(s, "\n"), "\n")); n > 24 {
		t.Fatalf("home is %d lines at 80×24:\n%s", n, s)
	}
	press(t, m, "down", "enter")
	if !slices.Equal(h.joined, []string{"ABC-DEF"}) {
		t.Fatalf("the second seat's row joined %v, want ABC-DEF", h.joined)
	}
	if ts, ok := m.top().(*tableScreen); !ok || ts.conn != conn {
		t.Fatalf("Your other seat opened %T", m.top())
	}
}

// TestHomeSaysABotPlaysTheSeat: a seat a bot plays since its player stayed
// away past the grace is still theirs (lobby: TestHeldSeatsSayWhenABotPlays),
// so home still offers the way back to it, saying a bot plays it meanwhile;
// a seat without one does not say so.
func TestHomeSaysABotPlaysTheSeat(t *testing.T) {
	st := dealt(t, 2, 1)
	conn := newFakeConn(tableView(st, engine.SeatViewer(0), nil, 1))
	h := &fakeHub{conn: conn}
	m := newTestApp(t, h, nil, 80, 24)
	h.held = &lobby.TableSummary{Code: "KQ7-M4X", GameName: "Break the Code", Phase: lobby.Playing, BotPlays: true}
	h.heldToo = []lobby.TableSummary{{Code: "ABC-DEF", GameName: "If Then", Phase: lobby.Playing}}
	send(m, lobbyChangedMsg{})
	s := strings.Join(strings.Fields(screenText(m)), " ")
	if !strings.Contains(s, "Back to your game Break the Code · table KQ7-M4X · playing · a bot plays your seat till you are back") {
		t.Fatalf("home does not say a bot plays the seat it offers a way back to:\n%s", screenText(m))
	}
	if strings.Count(s, "a bot plays your seat") != 1 {
		t.Fatalf("home says a bot plays a seat it does not:\n%s", screenText(m))
	}
	checkFits(t, m, 80, 24)
}

// TestHomeRowsAreShared: every session's home screen reads one set of
// fixed rows, made once, instead of keeping a dozen objects of its own;
// a guest's home, which lacks a row, works on a copy and leaves the
// shared rows whole.
func TestHomeRowsAreShared(t *testing.T) {
	a, b := newHomeScreen(), newHomeScreen()
	if len(a.items) == 0 || &a.items[0] != &b.items[0] {
		t.Fatal("two home screens hold rows of their own")
	}
	n := len(a.items)
	guest := newApp(Deps{Games: registry()}, &fakeHub{}, Session{
		Identity: lobby.Identity{Account: "guest:1", Guest: true}, Width: 80, Height: 24,
	})
	if rows := a.rows(guest); len(rows) != n-1 {
		t.Errorf("a guest's home has %d rows, want %d (no %s)", len(rows), n-1, myProfile)
	}
	if len(b.items) != n || !slices.ContainsFunc(b.items, func(it menuItem) bool { return it.label == myProfile }) {
		t.Errorf("a guest's home changed the shared rows: %d rows", len(b.items))
	}
}
