package tui

import (
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/rating"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/storage"
)

// TestLeavingAFinishedTableGoesHome: a table made from the create form,
// once finished and left, goes home, so a stray enter does not make a
// second table from the form.
func TestLeavingAFinishedTableGoesHome(t *testing.T) {
	players := []engine.Player{{Name: "mara"}, {Name: "Bo", Bot: true}, {Name: "Kai", Bot: true}}
	views := traceGame(t, players, 5, 12, -1, 4, engine.SeatViewer(0))
	conn := newFakeConn(views[0])
	h := &countingHub{fakeHub: fakeHub{conn: conn}}
	m := newTestApp(t, h, nil, 80, 24)
	chooseHome(t, m, "Create a table")
	if _, ok := m.top().(*createScreen); !ok {
		t.Fatalf("no create form: %T", m.top())
	}
	press(t, m, "enter", "enter") // jump to the button, create
	if _, ok := m.top().(*tableScreen); !ok || h.creates != 1 {
		t.Fatalf("the table did not open (%T, %d creates)", m.top(), h.creates)
	}
	showView(t, m, conn, views[len(views)-1])
	if v := conn.View(); v.Phase != lobby.Finished {
		t.Fatal("the traced game did not finish")
	}
	press(t, m, "esc")
	home, ok := m.top().(*homeScreen)
	if !ok || len(m.stack) != 1 {
		t.Fatalf("leaving a finished table went to %T (stack %d), want home", m.top(), len(m.stack))
	}
	if home.cursor != 0 || !strings.Contains(screenText(m), "▸ Quick play") {
		t.Errorf("home should start at its top:\n%s", screenText(m))
	}
	press(t, m, "enter")
	if h.creates != 1 {
		t.Errorf("a stray enter after leaving made another table (%d creates)", h.creates)
	}
}

// countingHub counts the tables created through it.
type countingHub struct {
	fakeHub
	creates int
}

func (h *countingHub) Create(id lobby.Identity, spec lobby.TableSpec) (tableConn, error) {
	h.creates++
	return h.fakeHub.Create(id, spec)
}

// TestEndScreenShowsTheGameID: every seat and spectator of a finished table
// is told the game's id and how to replay it, and v opens the replay there.
func TestEndScreenShowsTheGameID(t *testing.T) {
	g := finishedGame(t)
	players := []engine.Player{{Name: "mara"}, {Name: "Bo", Bot: true}, {Name: "Kai", Bot: true}}
	for _, viewer := range []engine.Viewer{engine.SeatViewer(0), engine.Spectator()} {
		views := traceGame(t, players, 5, 12, -1, 4, viewer)
		conn := newFakeConn(views[len(views)-1])
		store := newFakeStore()
		store.games[g.ID] = g
		m := newTestApp(t, &fakeHub{conn: conn}, store, 80, 24)
		m.ssh = "ssh -t -p 2200 play.example.org" // as the server says players reach it
		run(t, m, m.pushTable(conn))
		m.draw()
		s := screenText(m)
		if flat := strings.Join(strings.Fields(s), " "); !strings.Contains(s, "Game 8F3K2 is saved") || !strings.Contains(flat, "run ssh -t -p 2200 play.example.org replay 8F3K2") ||
			!strings.Contains(s, "V replay") || !strings.Contains(s, "press V to replay") {
			t.Errorf("viewer %v: the end screen does not say how to replay the game:\n%s", viewer, s)
		}
		// v and r are move keys in some games: pressed as the game ends
		// they neither open the replay nor ask for a rematch.
		press(t, m, "v", "r")
		if _, ok := m.top().(*tableScreen); !ok || conn.rematches != 0 {
			t.Errorf("viewer %v: v r on the end screen opened %T, asked %d rematches; want the table still", viewer, m.top(), conn.rematches)
		}
		press(t, m, "V")
		if _, ok := m.top().(*replayScreen); !ok {
			t.Errorf("viewer %v: V opened %T, want the replay", viewer, m.top())
		}
		press(t, m, "esc")
		if _, ok := m.top().(*tableScreen); !ok {
			t.Errorf("viewer %v: esc from the replay went to %T, want the table", viewer, m.top())
		}
	}
}

// TestKeyBarIsNeverCut: keys that do not fit on one line are left out of
// the bar by priority (the last listed first), never cut, and "?" (now "?
// more") stays on screen, as does every key left out, in the ? help.
func TestKeyBarIsNeverCut(t *testing.T) {
	st := dealt(t, 3, 1)
	conn := newFakeConn(tableView(st, engine.SeatViewer(0), nil, 1))
	m := newTestApp(t, &fakeHub{conn: conn}, nil, MinWidth, MinHeight)
	press(t, m, "enter", "enter") // quick play, the bots offered first
	ts, ok := m.top().(*tableScreen)
	if !ok {
		t.Fatalf("no table: %T", m.top())
	}
	all := ts.shortHelp(m)
	keys := m.keyBarLines(all)
	if len(keys) != keyBarHeight {
		t.Fatalf("the key bar takes %d lines: %q", len(keys), keys)
	}
	checkFits(t, m, MinWidth, MinHeight)
	lines := strings.Split(screenText(m), "\n")
	bar := lines[len(lines)-1]
	if strings.Contains(bar, "…") || !strings.Contains(bar, "? more") || !strings.Contains(bar, "enter ask") {
		t.Fatalf("at %d columns the key bar is %q: want the first keys and \"? more\", uncut", MinWidth, bar)
	}
	press(t, m, "?")
	help := screenText(m)
	for _, k := range all {
		if h := k.Help(); !strings.Contains(bar, h.Key+" "+h.Desc) && !strings.Contains(help, h.Desc) {
			t.Errorf("%q is neither in the key bar nor in the ? help:\n%s", h.Key+" "+h.Desc, help)
		}
	}
}

// TestSpectatorSeesTheWayOut: watching a game in play, the key bar shows
// esc (a spectator's bar was "n notepad · c chat · ? help", and a stranger
// who tried q left the arcade altogether), and esc leaves; a player in the
// same game keeps the game's keys and is asked before leaving.
func TestSpectatorSeesTheWayOut(t *testing.T) {
	players := []engine.Player{{Name: "mara"}, {Name: "bo"}}
	for _, viewer := range []engine.Viewer{engine.Spectator(), engine.SeatViewer(0)} {
		views := traceGame(t, players, 3, 3, -1, -1, viewer)
		v := views[len(views)-1]
		if v.Phase != lobby.Playing {
			t.Fatalf("the traced game is not in play: %v", v.Phase)
		}
		conn := newFakeConn(v)
		m := newTestApp(t, &fakeHub{conn: conn}, nil, 80, 24)
		run(t, m, send(m, tableOpenedMsg{conn: conn}))
		lines := strings.Split(screenText(m), "\n")
		bar := lines[len(lines)-1]
		if spectator := viewer.Kind != engine.ViewerSeat; spectator != strings.Contains(bar, "esc leave") {
			t.Errorf("viewer %v: key bar %q; esc leave shown only to spectators in play", viewer, bar)
		}
		press(t, m, "esc")
		_, still := m.top().(*tableScreen)
		if viewer.Kind == engine.ViewerSeat {
			if !still || !strings.Contains(screenText(m), "Leave this game?") {
				t.Errorf("a player's esc should ask first:\n%s", screenText(m))
			}
			continue
		}
		if still || !conn.left {
			t.Errorf("a spectator's esc did not leave (top %T, left %v)", m.top(), conn.left)
		}
	}
}

// TestLeavingAWatchedTableGoesBackToWatch: a table watched from the Watch
// list goes back to that list when left (it went home, and the list had
// to be found again), and the list opens the next table as before.
func TestLeavingAWatchedTableGoesBackToWatch(t *testing.T) {
	players := []engine.Player{{Name: "mara"}, {Name: "bo"}}
	views := traceGame(t, players, 3, 3, -1, -1, engine.Spectator())
	conn := newFakeConn(views[len(views)-1])
	h := &fakeHub{conn: conn, tables: []lobby.TableSummary{
		{Code: "CCC-DDD", GameName: "Break the Code", Phase: lobby.Playing, Seats: 2, Humans: 2}}}
	m := newTestApp(t, h, nil, 80, 24)
	chooseHome(t, m, "Watch")
	for range 2 {
		if _, ok := m.top().(*watchScreen); !ok || !strings.Contains(screenText(m), "CCC-DDD") {
			t.Fatalf("not on the Watch list: %T\n%s", m.top(), screenText(m))
		}
		press(t, m, "enter")
		if _, ok := m.top().(*tableScreen); !ok {
			t.Fatalf("enter on a live game did not watch it: %T\n%s", m.top(), screenText(m))
		}
		press(t, m, "esc")
	}
}

// TestEndScreenShowsRatingChanges: the end of a rated game says what it
// did to each player's rating (it said nothing: a player had to find their
// profile to learn it), read from the stored game; a game that changed no
// rating says nothing of ratings, and one the table says is casual is not
// read back at all (every session at every casual table read its whole
// record when the game ended, for nothing to show).
func TestEndScreenShowsRatingChanges(t *testing.T) {
	players := []engine.Player{{Name: "mara"}, {Name: "Bo", Bot: true}, {Name: "Kai", Bot: true}}
	views := traceGame(t, players, 5, 12, -1, 4, engine.SeatViewer(0))
	for _, rated := range []bool{true, false} {
		g := finishedGame(t)
		if rated {
			g.Changes = []storage.RatingChange{
				{Seat: 0, Before: rating.Rating{R: 1500, RD: 350}, After: rating.Rating{R: 1662, RD: 290}},
				{Seat: 1, Before: rating.Rating{R: 1412, RD: 40}, After: rating.Rating{R: 1400.4, RD: 40}},
			}
		}
		store := newFakeStore()
		store.games[g.ID] = g
		end := views[len(views)-1]
		end.Rated = rated
		conn := newFakeConn(end)
		m := newTestApp(t, &fakeHub{conn: conn}, store, 80, 24)
		run(t, m, send(m, tableOpenedMsg{conn: conn}))
		if reads := store.gameReads; reads != map[bool]int{true: 1, false: 0}[rated] {
			t.Errorf("rated %v: the stored game was read %d times", rated, reads)
		}
		out := strings.Join(strings.Fields(screenText(m)), " ")
		want := "Ratings: mara 1,500? → 1,662? (+162) · Bo 1,412 → 1,400 (-12)"
		if rated != strings.Contains(out, want) || (!rated && strings.Contains(out, "Ratings:")) {
			t.Errorf("rated %v: want the line %q only when rated:\n%s", rated, want, screenText(m))
		}
		if !strings.Contains(out, "Game 8F3K2 is saved") {
			t.Errorf("the replay line is gone:\n%s", screenText(m))
		}
		checkFits(t, m, 80, 24)
	}
}

// askToLeave opens a game of players three turns in, seen by seat 0 with a
// 90 s grace, presses esc, and returns the app and its screen as one line
// of words.
func askToLeave(t *testing.T, players []engine.Player, rated bool, change ...func(*lobby.TableView)) (*app, string) {
	t.Helper()
	views := traceGame(t, players, 3, 3, -1, -1, engine.SeatViewer(0))
	v := views[len(views)-1]
	v.Rated, v.Grace = rated, 90*time.Second
	for _, f := range change {
		f(&v)
	}
	conn := newFakeConn(v)
	m := newTestApp(t, &fakeHub{conn: conn}, nil, 80, 24)
	run(t, m, send(m, tableOpenedMsg{conn: conn}))
	press(t, m, "esc")
	return m, strings.Join(strings.Fields(screenText(m)), " ")
}

// TestLeavingARatedGameWarnsOfTheLoss: esc in a rated game says that not
// coming back counts as a loss (it asked as for any game); a casual game
// asks as before.
func TestLeavingARatedGameWarnsOfTheLoss(t *testing.T) {
	players := []engine.Player{{Name: "mara"}, {Name: "bo"}}
	for _, rated := range []bool{true, false} {
		m, out := askToLeave(t, players, rated)
		if !strings.Contains(out, "y/n") || rated != strings.Contains(out, "counts as a loss") {
			t.Errorf("rated %v: the leave question:\n%s", rated, screenText(m))
		}
		// It says how long the seat is held, and what then ("a little
		// while" left it to guess).
		if !strings.Contains(out, "held for 90 seconds") || !strings.Contains(out, "a bot plays it") {
			t.Errorf("rated %v: the leave question does not say how long the seat is held:\n%s", rated, screenText(m))
		}
		checkFits(t, m, 80, 24)
	}
}

// TestLeavingLastPersonSaysAbandoned: the last person at a table of bots is
// told the truth: nobody is left to play, so unless someone comes back in
// time the game is abandoned and not recorded (lobby:
// TestLastPersonLeavingBotsAbandonsUnrecorded) — not that a bot plays on.
// With another person connected, the question is the usual one.
func TestLeavingLastPersonSaysAbandoned(t *testing.T) {
	for _, bot := range []bool{true, false} {
		players := []engine.Player{{Name: "mara"}, {Name: "bo", Bot: bot}}
		m, out := askToLeave(t, players, true)
		last := strings.Contains(out, "last person") && strings.Contains(out, "abandoned and not recorded") &&
			strings.Contains(out, "within 90 seconds")
		if !strings.Contains(out, "y/n") || last != bot || bot == strings.Contains(out, "a bot plays it") {
			t.Errorf("bo a bot %v: the leave question:\n%s", bot, screenText(m))
		}
		checkFits(t, m, 80, 24)
	}
}

// TestLeavingABotlessGameSaysAbandoned: at a table no bot can take a seat
// at (lobby: TestNoBotSeatLeftAbandonsTheGame), the leave question says the
// game ends for everyone, abandoned and not recorded, if the player stays
// away past the grace (it said "a bot plays it"), and a rated game's
// question does not promise a loss that will not be recorded; so does the
// quit question.
func TestLeavingABotlessGameSaysAbandoned(t *testing.T) {
	players := []engine.Player{{Name: "mara"}, {Name: "bo"}}
	for _, rated := range []bool{true, false} {
		noBot := func(v *lobby.TableView) { v.NoBot = true }
		m, out := askToLeave(t, players, rated, noBot)
		if !strings.Contains(out, "y/n") || !strings.Contains(out, "held for 90 seconds") ||
			!strings.Contains(out, "no bot can take it") || !strings.Contains(out, "ends for everyone, abandoned and not recorded") ||
			strings.Contains(out, "a bot plays it") || strings.Contains(out, "counts as a loss") {
			t.Errorf("rated %v: the leave question:\n%s", rated, screenText(m))
		}
		checkFits(t, m, 80, 24)
		press(t, m, "n", "q")
		if q := strings.Join(strings.Fields(screenText(m)), " "); !strings.Contains(q, "Leave the game and quit?") ||
			!strings.Contains(q, "ends for everyone") || strings.Contains(q, "a bot plays it") {
			t.Errorf("rated %v: the quit question:\n%s", rated, screenText(m))
		}
		checkFits(t, m, 80, 24)
	}
}

// TestKeyBarIsTheKeysKeptDrawn: the key bar drawn for a list of keys is
// ShortHelpView of the keys kept (keptKeys) at every width, whether every
// key fits (the bar drawn to measure them is the bar), some are left out
// ("?" then says "more") or only the keys that must show are left.
func TestKeyBarIsTheKeysKeptDrawn(t *testing.T) {
	m := newTestApp(t, &fakeHub{}, nil, MinWidth, MinHeight)
	km := m.km
	lists := [][]key.Binding{
		nil,
		{km.back, km.quit},
		{km.ready, km.start, km.chat, km.help, km.leave},
		{km.rematch, km.replayGame, km.chat, km.ready, km.start, km.refresh, km.watch, km.help, km.leave},
		{km.help, km.back},
	}
	dropped := 0
	for w := 4; w <= 110; w++ {
		m.width = w
		h := m.helpModel()
		fits := func(ks []key.Binding) bool {
			return h.Ellipsis == "" || !strings.HasSuffix(ansi.Strip(h.ShortHelpView(ks)), h.Ellipsis)
		}
		for _, ks := range lists {
			kept := keptKeys(ks, fits)
			if len(kept) != len(ks) {
				dropped++
			}
			want := h.ShortHelpView(kept)
			if got := m.keyBarFor(ks); got != want {
				t.Fatalf("at %d columns the key bar of %d keys is %q, want %q", w, len(ks), got, want)
			}
		}
	}
	if dropped == 0 {
		t.Fatal("no width left a key out: the test does not cover that case")
	}
}

// TestShortHelpViewIsTheHelpModels: the key bar drawn from the shared
// looks' prefixes and suffixes is the help model's ShortHelpView byte for
// byte, for every set of looks, at every width from none to wide, with
// keys disabled, keys not in ASCII and text on more than one line.
func TestShortHelpViewIsTheHelpModels(t *testing.T) {
	km := newKeys()
	off := km.start
	off.SetEnabled(false)
	lists := [][]key.Binding{
		nil,
		{off},
		{km.back, km.quit},
		{km.ready, off, km.start, km.chat, km.help, km.leave},
		{km.rematch, km.replayGame, km.chat, km.ready, km.start, km.refresh, km.watch, km.help, km.leave},
		{withHelp(km.chat, "←/→", "choose · 李 é"), km.help, off},
		{km.help, withHelp(km.chat, "c", "two\nlines"), km.leave},
		{withHelp(km.chat, "", ""), km.help},
	}
	for basic := range 2 {
		for dark := range 2 {
			l := looksFor(dark == 1, basic == 1)
			if !l.bar.ok {
				t.Fatalf("looks %d/%d: the help styles are not all a line's prefix and suffix", basic, dark)
			}
			for w := 0; w <= 120; w++ {
				h := l.help
				h.SetWidth(w)
				for _, ks := range lists {
					if got, want := l.bar.shortHelpView(h, ks), h.ShortHelpView(ks); got != want {
						t.Fatalf("looks %d/%d at %d columns: %q, want %q", basic, dark, w, got, want)
					}
				}
			}
		}
	}
}
