package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	bc "github.com/codebreakers/codebreakers/engine/breakcode"
	it "github.com/codebreakers/codebreakers/engine/ifthen"
	"github.com/codebreakers/codebreakers/lobby"
)

// quickApp is a session of id on store and hub, with games.
func quickApp(t *testing.T, id lobby.Identity, h hubAPI, store AccountStore, games ...engine.Game) *app {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	m := newApp(Deps{Store: store, Games: engine.NewRegistry(games...)}, h, Session{Identity: id, Width: 80, Height: 24, Context: ctx})
	m.pump = func(context.Context, tableConn) tea.Cmd { return nil }
	m.waitLobby = func(context.Context, <-chan struct{}, time.Duration) tea.Cmd { return nil }
	run(t, m, m.Init())
	return m
}

// TestQuickPlayChoosesTheBotLevel: quick play asks how strong the bots
// should be, deals at the level chosen, and offers that level first next
// time — in a later session too, for an account with a key.
func TestQuickPlayChoosesTheBotLevel(t *testing.T) {
	st := dealt(t, 3, 1)
	h := &fakeHub{conn: newFakeConn(tableView(st, engine.SeatViewer(0), nil, 1))}
	store := newFakeStore()
	mara := lobby.Identity{Account: "SHA256:mara", Handle: "mara"}
	m := quickApp(t, mara, h, store, bc.Game{})
	press(t, m, "enter") // Quick play (one game: no game menu)
	s := screenText(m)
	if !strings.Contains(s, "how strong are the bots?") || !strings.Contains(s, "▸ easy") || !strings.Contains(s, "suggested") {
		t.Fatalf("quick play should ask for the level, the game's default chosen:\n%s", s)
	}
	press(t, m, "up", "enter") // strong
	if h.quickLevel != "strong" {
		t.Fatalf("quick play dealt with %q bots, want strong", h.quickLevel)
	}
	if _, ok := m.top().(*tableScreen); !ok {
		t.Fatalf("no table after choosing: %T", m.top())
	}

	// A new session of the same key offers strong first.
	m2 := quickApp(t, mara, h, store, bc.Game{})
	press(t, m2, "enter")
	if s := screenText(m2); !strings.Contains(s, "▸ strong") || !strings.Contains(s, "your last choice") {
		t.Fatalf("the next session should offer the last choice first:\n%s", s)
	}
	press(t, m2, "enter")
	if h.quickLevel != "strong" {
		t.Errorf("enter on the offered level dealt %q", h.quickLevel)
	}
}

// TestGuestQuickPlayLevelLastsTheSession: a guest's choice is offered again
// in the same session and kept nowhere else.
func TestGuestQuickPlayLevelLastsTheSession(t *testing.T) {
	st := dealt(t, 3, 1)
	h := &fakeHub{conn: newFakeConn(tableView(st, engine.SeatViewer(0), nil, 1))}
	store := newFakeStore()
	guest := lobby.Identity{Account: "guest:1", Handle: "guest-abc", Guest: true}
	m := quickApp(t, guest, h, store, bc.Game{})
	press(t, m, "enter", "up", "enter") // strong
	if h.quickLevel != "strong" {
		t.Fatalf("dealt %q", h.quickLevel)
	}
	if len(store.prefs) != 0 {
		t.Errorf("a guest's choice was stored: %v", store.prefs)
	}
	m.goHome()
	press(t, m, "enter")
	if s := screenText(m); !strings.Contains(s, "▸ strong") {
		t.Errorf("the guest's choice should be offered again this session:\n%s", s)
	}
	if m3 := quickApp(t, guest, h, store, bc.Game{}); true {
		press(t, m3, "enter")
		if s := screenText(m3); !strings.Contains(s, "▸ easy") {
			t.Errorf("a new guest session should start from the default:\n%s", s)
		}
	}
}

// TestQuickPlayTeammatesPlayWell: in a cooperative game the level offered
// first is the strongest (the game's default), not the middle one.
func TestQuickPlayTeammatesPlayWell(t *testing.T) {
	h := &fakeHub{}
	m := quickApp(t, lobby.Identity{Account: "SHA256:mara", Handle: "mara"}, h, newFakeStore(), it.Game{})
	press(t, m, "enter")
	if s := screenText(m); !strings.Contains(s, "▸ strong") {
		t.Errorf("If Then's quick play should offer strong teammates first:\n%s", s)
	}
}
