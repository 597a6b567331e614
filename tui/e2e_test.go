package tui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	bc "github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/storage"
)

// realHub is a hub with the real games over a real store in a temporary
// directory, closed when the test ends; bots move at once.
func realHub(t *testing.T, tune ...func(*lobby.Config)) (*storage.DB, *lobby.Hub, *engine.Registry) {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "arcade.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	reg := registry()
	cfg := lobby.Config{Games: reg, Store: db, BotDelay: -1}
	for _, f := range tune {
		f(&cfg)
	}
	hub, err := lobby.NewHub(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Close)
	return db, hub, reg
}

// TestSessionAgainstRealHub signs a new key in, quick-plays Break the Code
// against bots through the real hub and storage, asks questions on its
// turns, and quits (confirming) mid-game.
func TestSessionAgainstRealHub(t *testing.T) {
	db, hub, reg := realHub(t)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := New(Deps{Hub: hub, Store: db, Games: reg}, Session{
		Identity: lobby.Identity{Account: "SHA256:e2e"}, Width: 80, Height: 24, Context: ctx,
	}).(*app)
	// Keep the pump's waits out of the synchronous driver: the test runs
	// each one itself, bounded.
	pending := make(chan tea.Cmd, 4)
	m.pump = func(ctx context.Context, c tableConn) tea.Cmd {
		pending <- waitTable(ctx, c)
		return nil
	}
	m.waitLobby = func(context.Context, <-chan struct{}, time.Duration) tea.Cmd { return nil }
	// Countdown beats are not this test's business, and the synchronous
	// driver would sleep through each (the turn clock's first is minutes off).
	m.after = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	run(t, m, m.Init())
	typeText(t, m, "mara")
	press(t, m, "enter")
	if _, ok := m.top().(*homeScreen); !ok {
		t.Fatalf("not home after the handle: %T\n%s", m.top(), screenText(m))
	}
	press(t, m, "enter", "enter") // quick play, the bots offered first
	ts, ok := m.top().(*tableScreen)
	if !ok {
		t.Fatalf("quick play: %T\n%s", m.top(), screenText(m))
	}

	asked := 0
	for i := 0; i < 200 && asked < 3 && ts.view.Phase != lobby.Finished; i++ {
		if v, ok := ts.view.Board.(bc.View); ok && v.YourTurn() && v.Phase == bc.Playing && !ts.busy {
			press(t, m, "enter")
			if ts.err != "" {
				t.Fatalf("ask refused: %s", ts.err)
			}
			asked++
		}
		checkFits(t, m, 80, 24)
		var cmd tea.Cmd
		select {
		case cmd = <-pending:
		default:
			t.Fatal("no pump pending for the table")
		}
		msgs := make(chan tea.Msg, 1)
		go func() { msgs <- cmd() }()
		select {
		case msg := <-msgs:
			run(t, m, send(m, msg))
		case <-time.After(30 * time.Second):
			t.Fatalf("no table update in 30s (bounded wait, not a speed check)\n%s", screenText(m))
		}
	}
	if asked == 0 {
		t.Fatalf("never got a turn:\n%s", screenText(m))
	}
	out := screenText(m)
	if !strings.Contains(out, "mara asked") {
		t.Fatalf("the log does not show my questions:\n%s", out)
	}
	if ts.view.Phase == lobby.Playing {
		send(m, keyMsg("q"))
		if !m.confirmQuit {
			t.Fatal("quitting mid-game did not ask")
		}
		if cmd := send(m, keyMsg("y")); cmd == nil {
			t.Fatal("no quit after yes")
		}
	}
}

// TestHomeCountsNewSeekersLive: a session sitting on home, pressing
// nothing, is redrawn with the count of a game's seekers as soon as someone
// starts seeking it through the real hub, and again when they stop.
func TestHomeCountsNewSeekersLive(t *testing.T) {
	db, hub, reg := realHub(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := New(Deps{Hub: hub, Store: db, Games: reg}, Session{
		Identity: lobby.Identity{Account: "SHA256:home", Handle: "mara"}, Width: 80, Height: 24, Context: ctx,
	})
	term, stop := runInVT(ctx, t, m)
	defer stop()
	term.screen("nobody seeking yet")

	s, err := hub.Seek(lobby.Identity{Account: "SHA256:bo", Handle: "bo"}, lobby.SeekSpec{Game: "breakcode", Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	term.screen("Break the Code 1 seeking")
	s.Cancel()
	term.screen("nobody seeking yet")
}
