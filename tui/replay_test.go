package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	bc "github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/storage"
)

// finishedGame plays a 2-player game to its end with strong bots.
func finishedGame(t *testing.T) storage.FinishedGame {
	t.Helper()
	rec := engine.Record{Game: bc.ID, Options: engine.Options{"aid": "off"}, Seed: 77,
		Players: []engine.Player{{Name: "mara"}, {Name: "Bo", Bot: true}}}
	st, opts, err := engine.Start(bc.Game{}, rec.Options, rec.Players, rec.Seed)
	if err != nil {
		t.Fatal(err)
	}
	rec.Options = opts
	bots := []engine.Bot{}
	for s := range 2 {
		b, err := bc.Game{}.NewBot(engine.Seat(s), bc.LevelStrong, uint64(s))
		if err != nil {
			t.Fatal(err)
		}
		bots = append(bots, b)
	}
	for i := 0; i < 200 && !st.Status().Finished; i++ {
		seat := st.Status().Active[0]
		act, err := bots[seat].Act(st.View(engine.SeatViewer(seat)))
		if err != nil || act == nil {
			t.Fatalf("bot: %v %s", err, act)
		}
		if _, err := st.Apply(seat, act); err != nil {
			t.Fatal(err)
		}
		rec.Moves = append(rec.Moves, engine.Move{Seat: seat, Action: act})
	}
	res, ok := st.Result()
	if !ok {
		t.Fatal("game did not finish")
	}
	return storage.FinishedGame{
		LiveGame: storage.LiveGame{ID: "8F3K2", Seats: []storage.SeatRecord{{AccountID: "SHA256:test", Handle: "mara"}, {Handle: "Bo", Bot: true}}, Record: rec},
		Result:   res,
	}
}

func TestReplayByIDSteps(t *testing.T) {
	g := finishedGame(t)
	store := newFakeStore()
	store.games[g.ID] = g
	m := newTestApp(t, &fakeHub{}, store, 80, 24)

	// An unknown id says what to do.
	press(t, m, "end", "up", "up", "enter")
	typeText(t, m, "nope")
	press(t, m, "enter")
	if !strings.Contains(screenText(m), "No finished game has that id") {
		t.Fatalf("unknown id:\n%s", screenText(m))
	}
	press(t, m, "esc", "enter")
	typeText(t, m, "8f3k2")
	press(t, m, "enter")
	r, ok := m.top().(*replayScreen)
	if !ok {
		t.Fatalf("replay not opened: %T\n%s", m.top(), screenText(m))
	}
	n := len(g.Record.Moves)
	out := screenText(m)
	if !strings.Contains(out, "step 0/") || !strings.Contains(out, "all hands shown") {
		t.Fatalf("replay start:\n%s", out)
	}
	// Every hand is revealed: 2 hands of 5 and the 10 unused tiles listed.
	if got := len(tileRE.FindAllString(out, -1)); got < 10 {
		t.Fatalf("replay shows %d tiles:\n%s", got, out)
	}
	checkFits(t, m, 80, 24)

	press(t, m, "right")
	if r.step != 1 || !strings.Contains(screenText(m), "step 1/") {
		t.Fatalf("step after →: %d", r.step)
	}
	_, events, err := engine.Replay(registry(), g.Record, 1)
	if err != nil || !strings.Contains(screenText(m), events[0].Text[:15]) {
		t.Fatalf("step 1 does not narrate %q:\n%s", events[0].Text, screenText(m))
	}
	press(t, m, "l", "l", "h")
	if r.step != 2 {
		t.Fatalf("l l h: step %d", r.step)
	}
	press(t, m, "end")
	if r.step != n || !strings.Contains(screenText(m), g.Result.Summary[:10]) {
		t.Fatalf("end: step %d/%d\n%s", r.step, n, screenText(m))
	}
	// The result is said once under the board, not again on the line
	// after the last move that said it.
	if footer := strings.Join(strings.Fields(ansi.Strip(strings.Join(r.footer(m, 80), "\n"))), " "); strings.Count(footer, g.Result.Summary) != 1 {
		t.Errorf("the end of the replay says the result %d times:\n%s", strings.Count(footer, g.Result.Summary), footer)
	}
	checkFits(t, m, 80, 24)
	press(t, m, "right")
	if r.step != n {
		t.Fatal("stepped past the end")
	}
	press(t, m, "home", "left")
	if r.step != 0 {
		t.Fatalf("home: step %d", r.step)
	}
	// v shows the game as seat 0 saw it: only that seat's five tiles.
	press(t, m, "v")
	out = screenText(m)
	if !strings.Contains(out, "as mara saw it") || len(tileRE.FindAllString(out, -1)) != 5 {
		t.Fatalf("view as seat 0:\n%s", out)
	}
	// space starts autoplay; a key stops it.
	if cmd := send(m, keyMsg("space")); cmd == nil || !r.play { // the tick is not run: the test ticks by hand
		t.Fatal("space did not start autoplay")
	}
	send(m, replayTickMsg{tick: r.tick})
	if r.step != 1 {
		t.Fatalf("tick: step %d", r.step)
	}
	press(t, m, "left")
	if r.play {
		t.Fatal("stepping did not pause")
	}
	press(t, m, "esc")
	if _, ok := m.top().(*codeScreen); !ok {
		t.Fatalf("esc from replay: %T", m.top())
	}
}

func TestReplayFromHistory(t *testing.T) {
	g := finishedGame(t)
	store := newFakeStore()
	store.games[g.ID] = g
	store.history = []storage.GameSummary{{ID: g.ID, Game: bc.ID, Seats: g.Seats, Result: g.Result, Moves: len(g.Record.Moves)}}
	m := newTestApp(t, &fakeHub{}, store, 80, 24)
	chooseHome(t, m, "My games")
	out := screenText(m)
	if !strings.Contains(out, "8F3K2") || !strings.Contains(out, "played 1") {
		t.Fatalf("history:\n%s", out)
	}
	press(t, m, "enter")
	if _, ok := m.top().(*replayScreen); !ok {
		t.Fatalf("enter on a past game: %T\n%s", m.top(), screenText(m))
	}
}

// TestExampleGameIDLooksLikeOne: the id shown as an example at home, in the
// replay box and in its error is as long as the ids given out now and uses
// their alphabet, so a player is not told to expect a five-letter id.
func TestExampleGameIDLooksLikeOne(t *testing.T) {
	if len(exampleGameID) != storage.GameIDLen {
		t.Fatalf("example id %q has %d characters, ids have %d", exampleGameID, len(exampleGameID), storage.GameIDLen)
	}
	for _, r := range exampleGameID {
		if !strings.ContainsRune("23456789ABCDEFGHJKMNPQRSTUVWXYZ", r) {
			t.Fatalf("example id %q has %q, which no id has", exampleGameID, r)
		}
	}
}
