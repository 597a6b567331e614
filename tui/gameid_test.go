package tui

import (
	"strings"
	"testing"

	bc "github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/storage"
)

// Game ids grew to storage.GameIDLen characters so that they cannot be
// guessed; the arcade must take them whole in its replay box and show them
// whole wherever a player may need to read one.
func TestLongGameIDsAreTypedAndShownWhole(t *testing.T) {
	g := finishedGame(t)
	g.ID = "8F3KQ7M4XH9PRT"
	if len(g.ID) != storage.GameIDLen {
		t.Fatalf("the sample id has %d characters, ids have %d", len(g.ID), storage.GameIDLen)
	}
	store := newFakeStore()
	store.games[g.ID] = g
	store.history = []storage.GameSummary{{ID: g.ID, Game: bc.ID, Seats: g.Seats, Result: g.Result, Moves: len(g.Record.Moves)}}

	m := newTestApp(t, &fakeHub{}, store, 80, 24)
	chooseHome(t, m, "Replay a game")
	typeText(t, m, " "+strings.ToLower(g.ID)+" ")
	press(t, m, "enter")
	if _, ok := m.top().(*replayScreen); !ok {
		t.Fatalf("a %d-character id typed into the replay box did not open the game: %T\n%s", len(g.ID), m.top(), screenText(m))
	}
	if !strings.Contains(screenText(m), "game "+g.ID) {
		t.Errorf("the replay's title cuts the id:\n%s", screenText(m))
	}

	m = newTestApp(t, &fakeHub{}, store, 80, 24)
	chooseHome(t, m, "My games")
	if !strings.Contains(screenText(m), g.ID) {
		t.Errorf("My games cuts the id:\n%s", screenText(m))
	}
}

// TestReplayBoxSaysTheShellCommand: the replay box says how to replay from
// a shell, with the command that reaches this server.
func TestReplayBoxSaysTheShellCommand(t *testing.T) {
	m := newTestApp(t, &fakeHub{}, nil, 80, 24)
	m.ssh = "ssh -t -p 2200 play.example.org"
	chooseHome(t, m, "Replay a game")
	if flat := strings.Join(strings.Fields(screenText(m)), " "); !strings.Contains(flat, "From a shell: ssh -t -p 2200 play.example.org replay ID") {
		t.Errorf("the replay box does not say the shell command:\n%s", screenText(m))
	}
	checkFits(t, m, 80, 24)
}

// TestMyGamesRowsKeepToOneLine: with ids of storage.GameIDLen the columns
// fell out of line with their headings, and a long list of players wrapped
// onto a line of its own, looking like another row. Each game is one line,
// its columns under their headings.
func TestMyGamesRowsKeepToOneLine(t *testing.T) {
	g := finishedGame(t)
	g.ID = "8F3KQ7M4XH9PRT"
	seats := []storage.SeatRecord{{Handle: "mara"}, {Handle: "bartholomew-long"}, {Handle: "bot-Cy", Bot: true}, {Handle: "kai"}}
	store := newFakeStore()
	store.history = []storage.GameSummary{{ID: g.ID, Game: bc.ID, Seats: seats, Result: g.Result, Moves: 12},
		{ID: "7ZVRDAHSUYDMV6", Game: bc.ID, Seats: seats[:2], Result: g.Result, Moves: 9}}
	m := newTestApp(t, &fakeHub{}, store, 80, 24)
	chooseHome(t, m, "My games")
	lines := strings.Split(screenText(m), "\n")
	head, first := -1, -1
	for i, l := range lines {
		if strings.Contains(l, "players") && strings.Contains(l, "game") {
			head = i
		}
		if strings.Contains(l, g.ID) {
			first = i
		}
	}
	if head < 0 || first != head+1 || !strings.Contains(lines[first+1], "7ZVRDAHSUYDMV6") {
		t.Fatalf("the rows are not one line each under the headings:\n%s", screenText(m))
	}
	if at, want := strings.Index(lines[head], "game"), strings.Index(lines[first+1], "Break the Code"); at != want {
		t.Errorf("the game column starts at %d, its heading at %d:\n%s", want, at, screenText(m))
	}
	checkFits(t, m, 80, 24)
}

// TestPublicTablesRowsKeepToOneLine: in a 60-column window a public table's
// row wrapped, its host alone on the next line like another row, and the
// heading "watching" stood one column off its numbers.
func TestPublicTablesRowsKeepToOneLine(t *testing.T) {
	h := &fakeHub{tables: []lobby.TableSummary{
		{Code: "V27CXM", GameName: "Break the Code", Phase: lobby.Waiting, Public: true, Seats: 3, Humans: 1, Open: 2, Host: "bartholomew-long"},
		{Code: "KQ7M4X", GameName: "Break the Code", Phase: lobby.Playing, Public: true, Seats: 3, Humans: 2, Bots: 1, Spectators: 12, Host: "kai"}}}
	for _, w := range []int{60, 80} {
		m := newTestApp(t, h, nil, w, 24)
		chooseHome(t, m, "Public tables")
		lines := strings.Split(screenText(m), "\n")
		head := -1
		for i, l := range lines {
			if strings.Contains(l, "code") && strings.Contains(l, "game") {
				head = i
			}
		}
		if head < 0 || !strings.Contains(lines[head+1], "V27-CXM") || !strings.Contains(lines[head+2], "KQ7-M4X") {
			t.Fatalf("at %d columns the rows are not one line each under the headings:\n%s", w, screenText(m))
		}
		if w == 80 {
			if at, want := strings.Index(lines[head], "watching"), strings.Index(lines[head+2], "12"); at != want {
				t.Errorf("the watching column starts at %d, its heading at %d:\n%s", want, at, screenText(m))
			}
		}
		checkFits(t, m, w, 24)
	}
}
