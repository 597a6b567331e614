package tui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/storage"
	"github.com/codebreakers/codebreakers/tui/widget"
)

func newHandleApp(t *testing.T, store *fakeStore) *app {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	m := newApp(Deps{Store: store, Games: registry()}, &fakeHub{}, Session{
		Identity: lobby.Identity{Account: "SHA256:new"}, Width: 80, Height: 24, Context: ctx,
	})
	m.pump = func(context.Context, tableConn) tea.Cmd { return nil }
	run(t, m, m.Init())
	return m
}

// TestNewHandleRefusedWhenTheAddressClaimedTooMany: a new key's first
// handle makes an account for good, so the hub meters claims per address;
// a refusal says why, keeps the screen and the typed handle, and claims
// nothing in storage.
func TestNewHandleRefusedWhenTheAddressClaimedTooMany(t *testing.T) {
	store := newFakeStore()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	hub := &fakeHub{claimErr: lobby.ErrTooManyClaims, renameErr: errors.New("a first handle is no rename")}
	m := newApp(Deps{Store: store, Games: registry()}, hub, Session{
		Identity: lobby.Identity{Account: "SHA256:new"}, Width: 80, Height: 24, Context: ctx,
	})
	m.pump = func(context.Context, tableConn) tea.Cmd { return nil }
	run(t, m, m.Init())
	typeText(t, m, "squat")
	press(t, m, "enter")
	if _, ok := m.top().(*handleScreen); !ok {
		t.Fatalf("a refused claim left the handle screen: %T", m.top())
	}
	if out := screenText(m); !strings.Contains(out, "Many new players have chosen handles from your address") || !strings.Contains(out, "squat") {
		t.Fatalf("the refusal is not said, or the handle typed is gone:\n%s", out)
	}
	if _, ok := store.accounts["SHA256:new"]; ok {
		t.Fatal("a refused claim made an account")
	}
	// Allowed again, the same screen claims it.
	hub.claimErr = nil
	press(t, m, "enter")
	if a, ok := store.accounts["SHA256:new"]; !ok || a.Handle != "squat" {
		t.Fatalf("the claim once allowed: %+v", store.accounts)
	}
}

func TestHandleScreenRejectsEscapesAndTakenHandles(t *testing.T) {
	store := newFakeStore()
	store.accounts["SHA256:other"] = storage.Account{ID: "SHA256:other", Handle: "Bo"}
	m := newHandleApp(t, store)
	if !strings.Contains(screenText(m), "Choose a handle") {
		t.Fatalf("first screen should ask for a handle:\n%s", screenText(m))
	}
	// No handle yet: the title's right says the tables, without a "·"
	// left hanging before them.
	if title := strings.Split(screenText(m), "\n")[0]; strings.Contains(title, " · 0 tables") || !strings.Contains(title, "0 tables") {
		t.Errorf("the handle screen's title: %q", title)
	}

	// An escape sequence typed or pasted is never echoed, and the rest is refused.
	send(m, keyMsg("\x1b[31mred"))
	send(m, tea.PasteMsg{Content: "\x1b]0;owned\x07"})
	out := m.View().Content
	if strings.Contains(out, "\x1b[31m") || strings.Contains(out, "\x1b]0;") || strings.Contains(out, "\x07") {
		t.Fatalf("escape from input reached the screen: %q", out)
	}
	press(t, m, "enter")
	if _, ok := m.top().(*handleScreen); !ok {
		t.Fatal("a handle with brackets was accepted")
	}
	if !strings.Contains(screenText(m), "! ") {
		t.Fatalf("no error shown for a bad handle:\n%s", screenText(m))
	}

	// Names kept for guests and bots are refused.
	press(t, m, "esc")
	typeText(t, m, "bot-Cy")
	press(t, m, "enter")
	if !strings.Contains(screenText(m), "kept for visitors and bots") {
		t.Fatalf("bot- handle accepted:\n%s", screenText(m))
	}

	// A taken handle (case-insensitive) says so and keeps the screen.
	press(t, m, "esc")
	typeText(t, m, "bo")
	press(t, m, "enter")
	if !strings.Contains(screenText(m), "That handle is taken") {
		t.Fatalf("taken handle not reported:\n%s", screenText(m))
	}

	// A good handle is claimed and leads home.
	press(t, m, "esc")
	typeText(t, m, "mara_7")
	press(t, m, "enter")
	if _, ok := m.top().(*homeScreen); !ok {
		t.Fatalf("after a good handle, expected home, got %T:\n%s", m.top(), screenText(m))
	}
	if store.accounts["SHA256:new"].Handle != "mara_7" {
		t.Fatalf("handle not stored: %+v", store.accounts)
	}
	if !strings.Contains(screenText(m), "mara_7") {
		t.Fatal("title bar does not show the handle")
	}
}

func TestReturningKeySkipsHandleScreen(t *testing.T) {
	store := newFakeStore()
	store.accounts["SHA256:new"] = storage.Account{ID: "SHA256:new", Handle: "kai"}
	m := newHandleApp(t, store)
	if _, ok := m.top().(*homeScreen); !ok {
		t.Fatalf("known key should go home, got %T", m.top())
	}
}

func TestGuestGetsHandleAndNote(t *testing.T) {
	m := newApp(Deps{Games: registry()}, &fakeHub{}, Session{
		Identity: lobby.Identity{Account: "guest:1", Guest: true}, Width: 80, Height: 24,
	})
	run(t, m, m.Init())
	if !strings.HasPrefix(m.id.Handle, "guest-") {
		t.Fatalf("guest handle %q", m.id.Handle)
	}
	if !strings.Contains(screenText(m), "guest") || !strings.Contains(screenText(m), "SSH key") {
		t.Fatalf("guest note missing:\n%s", screenText(m))
	}
}

func TestHomeNavigation(t *testing.T) {
	m := newTestApp(t, &fakeHub{}, nil, 80, 24)
	out := screenText(m)
	for _, want := range []string{"Quick play", "Create a table", "Join with a code", "Public tables", "My games", "How to play", "↑/↓ move"} {
		if !strings.Contains(out, want) {
			t.Errorf("home lacks %q", want)
		}
	}
	if !strings.Contains(out, "▸ Quick play") {
		t.Fatalf("cursor not on the first item:\n%s", out)
	}
	press(t, m, "j", "down", "down")
	if !strings.Contains(screenText(m), "▸ Join with a code") {
		t.Fatalf("j and down should move twice:\n%s", screenText(m))
	}
	press(t, m, "k")
	press(t, m, "enter")
	if _, ok := m.top().(*createScreen); !ok {
		t.Fatalf("enter on Create should open the form, got %T", m.top())
	}
	press(t, m, "esc")
	if _, ok := m.top().(*homeScreen); !ok {
		t.Fatalf("esc should go back home, got %T", m.top())
	}
	// ? opens the help overlay; esc closes it.
	press(t, m, "?")
	if !strings.Contains(screenText(m), "Keys on this screen") {
		t.Fatalf("? shows no help:\n%s", screenText(m))
	}
	press(t, m, "esc")
	if strings.Contains(screenText(m), "Keys on this screen") {
		t.Fatal("esc did not close help")
	}
	// q on home quits without asking.
	cmd := send(m, keyMsg("q"))
	if cmd == nil {
		t.Fatal("q did not quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("q did not quit")
	}
}

func TestJoinWithBadCodeSaysWhatToDo(t *testing.T) {
	h := &fakeHub{joinErr: engine.Illegal("That code matches no open table. Codes look like KQ7-M4X.")}
	m := newTestApp(t, h, nil, 80, 24)
	chooseHome(t, m, "Join with a code")
	typeText(t, m, "zzz999")
	press(t, m, "enter")
	if len(h.joined) != 1 || h.joined[0] != "zzz999" {
		t.Fatalf("join calls %v", h.joined)
	}
	if !strings.Contains(screenText(m), "That code matches no open table") {
		t.Fatalf("join error not shown:\n%s", screenText(m))
	}
	// tab switches to watching.
	press(t, m, "tab")
	if !strings.Contains(screenText(m), "WATCH A TABLE") || strings.Contains(screenText(m), "matches no") {
		t.Fatalf("tab should switch to watch:\n%s", screenText(m))
	}
}

func TestCreateFormBuildsSpec(t *testing.T) {
	m := newTestApp(t, &fakeHub{}, nil, 80, 24)
	chooseHome(t, m, "Create a table")
	cs := m.top().(*createScreen)
	// Seats 3 by default; one more seat, then two bots.
	press(t, m, "right", "down", "right", "right")
	spec := cs.spec()
	if spec.Game != "breakcode" || spec.Seats != 4 || spec.Bots != 2 || spec.Public {
		t.Fatalf("spec %+v", spec)
	}
	if spec.Options["aid"] != "on" || spec.BotLevel != "strong" {
		t.Fatalf("spec options %+v level %q", spec.Options, spec.BotLevel)
	}
	// Fewer seats clamp the bots so the creator still has a seat.
	press(t, m, "up", "left", "left")
	if spec := cs.spec(); spec.Seats != 2 || spec.Bots != 1 {
		t.Fatalf("after shrinking: %+v", spec)
	}
	// The Table field says what the choice shown means (a public table
	// was described as private).
	press(t, m, "down", "down", "down", "down")
	if out := screenText(m); !strings.Contains(out, "private: found only with its code") {
		t.Fatalf("Table field, private:\n%s", out)
	}
	press(t, m, "right")
	if out := screenText(m); !cs.spec().Public || !strings.Contains(out, "public: listed under Public tables") || strings.Contains(out, "private") {
		t.Fatalf("Table field, public:\n%s", out)
	}
	// On a field, enter only moves to the Create button (and its summary):
	// the key bar says so, and says create once the button is chosen.
	if bar := keyText(cs.shortHelp(m)...); !strings.Contains(bar, "enter review") || strings.Contains(bar, "create") {
		t.Fatalf("key bar on a field: %s", bar)
	}
	press(t, m, "enter")
	if _, ok := m.top().(*createScreen); !ok {
		t.Fatalf("enter on a field left the form: %T", m.top())
	}
	if bar := keyText(cs.shortHelp(m)...); !strings.Contains(bar, "enter create") {
		t.Fatalf("key bar on the button: %s", bar)
	}
}

func TestQuitDuringGameAsksFirst(t *testing.T) {
	st := dealt(t, 2, 1)
	v := tableView(st, engine.SeatViewer(0), nil, 1)
	v.Grace = 2 * time.Minute
	conn := newFakeConn(v)
	h := &fakeHub{conn: conn}
	m := newTestApp(t, h, nil, 80, 24)
	press(t, m, "enter", "enter") // quick play, the bots offered first
	if _, ok := m.top().(*tableScreen); !ok {
		t.Fatalf("quick play did not open the table: %T\n%s", m.top(), screenText(m))
	}
	cmd := send(m, keyMsg("q"))
	if cmd != nil {
		t.Fatal("q quit at once during a game")
	}
	if !strings.Contains(screenText(m), "Leave the game and quit?") {
		t.Fatalf("no confirmation:\n%s", screenText(m))
	}
	// The others are bots: it says how long the seat is held and what the
	// lobby does then (TestLeavingLastPersonSaysAbandoned), as esc does.
	if q := strings.Join(strings.Fields(screenText(m)), " "); !strings.Contains(q, "within 2 minutes") ||
		!strings.Contains(q, "abandoned and not recorded") || !strings.Contains(q, "Reconnect with the same key") {
		t.Errorf("the question does not say how long the seat is kept and what then:\n%s", screenText(m))
	}
	press(t, m, "n")
	if conn.left || m.confirmQuit {
		t.Fatal("n should stay at the table")
	}
	send(m, keyMsg("q"))
	cmd = send(m, keyMsg("y"))
	if cmd == nil {
		t.Fatal("no quit after confirming")
		return
	}
	if !conn.left {
		t.Fatal("quitting did not leave the table")
	}
}

func TestTinyAndHugeWindows(t *testing.T) {
	m := newTestApp(t, &fakeHub{}, nil, 80, 24)
	for _, sz := range [][2]int{{1, 1}, {0, 0}, {30, 10}, {59, 24}, {80, 19}} {
		send(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		checkFits(t, m, max(sz[0], 0), max(sz[1], 0))
		press(t, m, "down", "enter", "esc")
	}
	send(m, tea.WindowSizeMsg{Width: 40, Height: 10})
	out := screenText(m)
	if !strings.Contains(out, "at least") || strings.Count(strings.TrimSpace(out), "\n") != 0 {
		t.Fatalf("small window should show one line about the size:\n%q", out)
	}
	send(m, tea.WindowSizeMsg{Width: 10000, Height: 10000})
	checkFits(t, m, MaxWidth, MaxHeight)
	if !strings.Contains(screenText(m), "Quick play") {
		t.Fatal("huge window should draw home (clamped)")
	}
	press(t, m, "enter")
	checkFits(t, m, MaxWidth, MaxHeight)
}

// TestEveryScreenFits80x24 walks every screen at 80×24 and at the minimum.
func TestEveryScreenFits80x24(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {MinWidth, MinHeight}, {120, 40}} {
		w, h := sz[0], sz[1]
		store := newFakeStore()
		store.history = []storage.GameSummary{{ID: "8F3K2", Game: "breakcode", Moves: 12,
			Seats: []storage.SeatRecord{{AccountID: "SHA256:test", Handle: "mara"}, {Handle: "Bo", Bot: true}}}}
		hub := &fakeHub{tables: []lobby.TableSummary{{Code: "KQ7M4X", Game: "breakcode", GameName: "Break the Code", Public: true, Phase: lobby.Waiting, Seats: 4, Humans: 1, Open: 3, Host: "mara"}}}
		m := newTestApp(t, hub, store, w, h)
		check := func(name string) {
			t.Helper()
			checkFits(t, m, w, h)
			if t.Failed() {
				t.Fatalf("%s at %d×%d:\n%s", name, w, h, screenText(m))
			}
			press(t, m, "?")
			checkFits(t, m, w, h)
			press(t, m, "esc")
		}
		check("home")
		for i, name := range []string{"create", "join", "tables", "history", "replay-id", "rules"} {
			press(t, m, "home")
			chooseHome(t, m, []string{"Create a table", "Join with a code", "Public tables", "My games", "Replay a game", "How to play"}[i])
			check(name)
			if name == "rules" {
				press(t, m, "down", "enter")
				check("rules text")
				press(t, m, "end")
				check("rules end")
				press(t, m, "esc")
			}
			press(t, m, "esc")
		}
		// The table screens: waiting, and boards for 2–4 players.
		for n := 2; n <= 4; n++ {
			st := dealt(t, n, uint64(n))
			log := playFew(t, st, 9)
			for _, viewer := range []engine.Viewer{engine.SeatViewer(0), engine.Spectator()} {
				conn := newFakeConn(tableView(st, viewer, log, 1))
				hub.conn = conn
				press(t, m, "home", "enter")
				check("board")
				press(t, m, "n")
				check("notepad")
				press(t, m, "n", "c")
				typeText(t, m, "hello")
				check("chat")
				press(t, m, "esc")
				m.goHome()
			}
		}
		waiting := lobby.TableView{Version: 1, Code: "KQ7-M4X", Game: registry().Games()[0].Info(), Phase: lobby.Waiting,
			You: engine.SeatViewer(0), Host: true, Options: engine.Options{"aid": "on"},
			Seats: []lobby.SeatView{{Handle: "mara", Connected: true}, {Handle: "Bo", Bot: true, BotLevel: "strong"}, {}, {}},
			Chat:  []lobby.ChatLine{{Handle: "Bo", Text: "hi"}}}
		hub.conn = newFakeConn(waiting)
		press(t, m, "home", "enter")
		check("waiting")
		m.goHome()
	}
}

func TestStartKinds(t *testing.T) {
	for _, start := range []Start{{"join", "KQ7M4X"}, {"watch", "KQ7M4X"}} {
		st := dealt(t, 2, 1)
		h := &fakeHub{conn: newFakeConn(tableView(st, engine.Spectator(), nil, 1))}
		m := newApp(Deps{Games: registry()}, h, Session{
			Identity: lobby.Identity{Account: "SHA256:s", Handle: "kai"}, Width: 80, Height: 24, Start: start,
		})
		m.pump = func(context.Context, tableConn) tea.Cmd { return nil }
		run(t, m, m.Init())
		if _, ok := m.top().(*tableScreen); !ok {
			t.Fatalf("start %v: %T\n%s", start, m.top(), screenText(m))
		}
		press(t, m, "esc")
		if _, ok := m.top().(*homeScreen); !ok {
			t.Fatalf("esc from a started table should reach home: %T", m.top())
		}
	}
	m := newApp(Deps{Store: newFakeStore(), Games: registry()}, &fakeHub{}, Session{
		Identity: lobby.Identity{Account: "SHA256:s", Handle: "kai"}, Width: 80, Height: 24, Start: Start{"replay", "NOPE1"},
	})
	run(t, m, m.Init())
	if !strings.Contains(screenText(m), "No finished game has that id") {
		t.Fatalf("replay of a missing id:\n%s", screenText(m))
	}
}

// TestMoreScreensFit covers the screens the walk above does not reach: the
// handle entry, a finished board, the guess entry, the quit question and a
// replay, at 80×24 and at the minimum size.
func TestMoreScreensFit(t *testing.T) {
	g := finishedGame(t)
	for _, sz := range [][2]int{{80, 24}, {MinWidth, MinHeight}} {
		w, h := sz[0], sz[1]
		hm := newHandleApp(t, newFakeStore())
		send(hm, tea.WindowSizeMsg{Width: w, Height: h})
		checkFits(t, hm, w, h)

		final, _, err := engine.Replay(registry(), g.Record, -1)
		if err != nil {
			t.Fatal(err)
		}
		for _, viewer := range []engine.Viewer{engine.SeatViewer(0), engine.Spectator()} {
			conn := newFakeConn(tableView(final, viewer, nil, 1))
			m := openTable(t, conn)
			send(m, tea.WindowSizeMsg{Width: w, Height: h})
			checkFits(t, m, w, h)
			if !strings.Contains(screenText(m), "broke the code") {
				t.Fatalf("finished table lacks the result:\n%s", screenText(m))
			}
		}

		st := dealt(t, 4, 9)
		log := playFew(t, st, 5)
		conn := newFakeConn(tableView(st, engine.SeatViewer(st.Status().Active[0]), log, 1))
		m := openTable(t, conn)
		send(m, tea.WindowSizeMsg{Width: w, Height: h})
		press(t, m, "g")
		typeText(t, m, "1b 2w 3b 4w 6b 7w 8b 9w 0b")
		checkFits(t, m, w, h)
		press(t, m, "esc")
		send(m, keyMsg("q"))
		checkFits(t, m, w, h)
		press(t, m, "n")

		store := newFakeStore()
		store.games[g.ID] = g
		rm := newTestApp(t, &fakeHub{}, store, w, h)
		run(t, rm, rm.openReplay(g.ID))
		for _, k := range []string{"right", "right", "end", "v", "v", "v", "n"} {
			press(t, rm, k)
			checkFits(t, rm, w, h)
		}
	}
}

func TestPublicTablesJoinOrWatch(t *testing.T) {
	st := dealt(t, 2, 1)
	hub := &fakeHub{conn: newFakeConn(tableView(st, engine.Spectator(), nil, 1)), tables: []lobby.TableSummary{
		{Code: "AAA-BBB", GameName: "Break the Code", Phase: lobby.Waiting, Seats: 3, Humans: 1, Open: 2},
		{Code: "CCC-DDD", GameName: "Break the Code", Phase: lobby.Playing, Seats: 2, Humans: 2},
	}}
	m := newTestApp(t, hub, nil, 80, 24)
	chooseHome(t, m, "Public tables")
	if !strings.Contains(screenText(m), "AAA-BBB") || !strings.Contains(screenText(m), "2 open") {
		t.Fatalf("tables:\n%s", screenText(m))
	}
	press(t, m, "enter")
	if len(hub.joined) != 1 || hub.joined[0] != "AAA-BBB" {
		t.Fatalf("enter on a waiting table should join it: %v", hub.joined)
	}
	press(t, m, "esc", "down", "enter")
	if len(hub.joined) != 1 {
		t.Fatalf("enter on a table in play should watch, not join: %v", hub.joined)
	}
	if ts, ok := m.top().(*tableScreen); !ok || ts.seated() {
		t.Fatalf("watching: %T", m.top())
	}
}

// laidOutScreen offers a key only once it has been laid out, as a board's
// notepad offers scrolling once it knows it is longer than the board.
type laidOutScreen struct {
	plainScreen
	laidOut bool
}

func (s *laidOutScreen) title(*app) string              { return "laid out" }
func (s *laidOutScreen) update(*app, tea.Msg) tea.Cmd   { return nil }
func (s *laidOutScreen) body(_ *app, w, h int) []string { return wrapBlock("", w, h) }
func (s *laidOutScreen) capturing() bool                { return false }
func (s *laidOutScreen) setSize(*app, int, int)         { s.laidOut = true }
func (s *laidOutScreen) shortHelp(a *app) []key.Binding {
	if s.laidOut {
		return []key.Binding{withHelp(a.km.down, "↑/↓", "scroll"), a.km.back}
	}
	return []key.Binding{a.km.back}
}

// TestKeyBarShowsTheScreenAsLaidOut: the key bar is made after the screen
// is laid out for the frame, so a key that laying out makes work (a
// notepad that turns out to scroll) is on the bar in that same frame; it
// came a frame late (after the next key).
func TestKeyBarShowsTheScreenAsLaidOut(t *testing.T) {
	m := newTestApp(t, &fakeHub{}, nil, 80, 24)
	m.push(&laidOutScreen{})
	m.draw()
	if out := screenText(m); !strings.Contains(out, "↑/↓ scroll") {
		t.Errorf("the key bar lacks the key laying out made work:\n%s", out)
	}
}

// TestTitleBarIsItsPiecesJoined: the title bar written in one piece is
// the place in capitals, the rest of the title, the gap and the right part
// joined as before (a space, the title, spaces, the right part, a space),
// and cut with "…" when they do not fit, at every width.
func TestTitleBarIsItsPiecesJoined(t *testing.T) {
	st := stylesFor(true, false)
	title, end := widget.NewPainter(&st.title), widget.NewPainter(&st.titleEnd)
	joined := func(text, right string, w int) string {
		head, rest, more := strings.Cut(text, " · ")
		left := " " + st.title.Render(strings.ToUpper(head))
		if more {
			left += st.title.Render(" · " + rest)
		}
		r := st.titleEnd.Render(right) + " "
		gap := w - lipgloss.Width(left) - lipgloss.Width(r)
		if gap < 1 {
			return ansi.Truncate(left, w, "…")
		}
		return left + strings.Repeat(" ", gap) + r
	}
	// The titles take turns, so the place remembered (last) must change
	// with them.
	var last titlePlace
	for w := 0; w <= 90; w++ {
		for _, c := range [][2]string{
			{"table · ABCD · mara to ask", "move 7"},
			{"table · ABCD · kai to ask", "move 8"},
			{"home", ""},
			{"table · 李 é́ · kai", "12s ⏱"},
			{"", "right"},
			{"replay · 1A2B", "move 3"},
		} {
			want := joined(c[0], c[1], w)
			if got := titleBar(title, end, nil, c[0], c[1], w); got != want {
				t.Fatalf("%q %q at %d columns: %q, want %q", c[0], c[1], w, got, want)
			}
			if got := titleBar(title, end, &last, c[0], c[1], w); got != want {
				t.Fatalf("%q %q at %d columns, after another title: %q, want %q", c[0], c[1], w, got, want)
			}
		}
	}
}
