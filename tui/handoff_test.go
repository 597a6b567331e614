package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/lobby"
)

// TestJoinElsewhereHandsOff: a code another node holds ends the program
// with a handoff naming the node, so the server carries the session there.
func TestJoinElsewhereHandsOff(t *testing.T) {
	h := &fakeHub{joinErr: &lobby.ElsewhereError{Node: "b", Code: "KQ7M4X", Kind: "join"}}
	m := newTestApp(t, h, nil, 80, 24)
	if _, _, _, ok := m.Handoff(); ok {
		t.Fatal("a fresh session asks for a handoff")
	}
	chooseHome(t, m, "Join with a code")
	typeText(t, m, "kq7-m4x")
	press(t, m, "enter")
	node, kind, code, ok := m.Handoff()
	if !ok || node != "b" || kind != "join" || code != "KQ7M4X" || !m.quitting {
		t.Fatalf("handoff = %q %q %q %v (quitting %v)", node, kind, code, ok, m.quitting)
	}
}

// TestSeatElsewhereResumesThere: a player signing in with a seat held on
// another node is carried there to resume it.
func TestSeatElsewhereResumesThere(t *testing.T) {
	h := &fakeHub{elsewhere: &lobby.ElsewhereError{Node: "a", Code: "AAAAAA", Kind: "resume"}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := newApp(Deps{Store: newFakeStore(), Games: registry()}, h, Session{
		Identity: lobby.Identity{Account: "SHA256:test", Handle: "mara"}, Width: 80, Height: 24, Context: ctx,
	})
	run(t, m, m.Init())
	if node, kind, _, ok := m.Handoff(); !ok || node != "a" || kind != "resume" {
		t.Fatalf("handoff = %q %q %v", node, kind, ok)
	}
}

// TestEndScreenSaysWhenTheGameIsNotSavedYet: while the records database is
// down, the end screen says the game is kept and not yet in the history,
// instead of calling it saved.
func TestEndScreenSaysWhenTheGameIsNotSavedYet(t *testing.T) {
	players := []engine.Player{{Name: "mara"}, {Name: "Bo", Bot: true}, {Name: "Kai", Bot: true}}
	views := traceGame(t, players, 5, 12, -1, 4, engine.SeatViewer(0))
	end := views[len(views)-1]
	end.Unsaved = "The records database is not answering, so this game is not in your history yet."
	conn := newFakeConn(end)
	m := newTestApp(t, &fakeHub{conn: conn}, nil, 80, 24)
	run(t, m, m.pushTable(conn))
	m.draw()
	s := screenText(m)
	if !strings.Contains(s, "records database is not answering") || strings.Contains(s, "is saved") {
		t.Fatalf("end screen while unsaved:\n%s", s)
	}
}
