package tui

import (
	"strings"
	"testing"

	bc "github.com/codebreakers/codebreakers/engine/breakcode"
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
