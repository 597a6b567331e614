package tui

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/lobby"
)

// TestMailboxCoalescesAndNeverBlocks: notes with the same key wait as
// one (the newest), notes without a key each get through, a post returns
// while the program is not taking messages, and nothing is delivered
// once the box is closed.
func TestMailboxCoalescesAndNeverBlocks(t *testing.T) {
	got := make(chan tea.Msg)
	m := newMailbox(func(msg tea.Msg) { got <- msg }) // takes a message only when the test reads
	say := func(s string) func() tea.Msg { return func() tea.Msg { return s } }

	m.post("a", say("a1")) // its delivery blocks until the test reads
	posted := make(chan struct{})
	go func() {
		defer close(posted)
		m.post("b", say("b1"))
		m.post("b", say("b2")) // replaces b1
		m.post(nil, say("tick"))
		m.post(nil, say("tick"))
	}()
	select {
	case <-posted:
	case <-time.After(10 * time.Second): // a ceiling against hangs, not a speed check
		t.Fatal("post waited for a program that was not taking messages")
	}
	var order []tea.Msg
	for range 4 {
		order = append(order, <-got)
	}
	want := []tea.Msg{"a1", "b2", "tick", "tick"}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("delivered %v, want %v", order, want)
		}
	}

	m.close()
	m.post("c", say("c"))
	select {
	case msg := <-got:
		t.Fatalf("delivered %v after close", msg)
	case <-time.After(50 * time.Millisecond):
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.running || len(m.notes) > 0 {
		t.Fatalf("closed box still running=%v with %d notes", m.running, len(m.notes))
	}
}

// TestSessionWithSendWaitsOnNothing: a session given Send returns no Cmd
// that waits for the lobby or a table (run would hang on one): home's
// next change, and every change and the end of a table it sits at,
// arrive through Send; the countdown's beat does too. Once the session
// has closed, nothing more is sent.
func TestSessionWithSendWaitsOnNothing(t *testing.T) {
	// A turn clock just over its warning, so that the player's first beat
	// comes within a second.
	db, hub, reg := realHub(t, func(c *lobby.Config) { c.TurnTime = turnWarning + time.Second })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sent := make(chan tea.Msg, 64)
	m := New(Deps{Hub: hub, Store: db, Games: reg}, Session{
		Identity: lobby.Identity{Account: "SHA256:mail", Handle: "mara"}, Width: 80, Height: 24, Context: ctx,
		Send: func(msg tea.Msg) { sent <- msg },
	}).(*app)
	next := func(what string, ok func(tea.Msg) bool) tea.Msg {
		t.Helper()
		deadline := time.After(30 * time.Second) // a ceiling against hangs, not a speed check
		for {
			select {
			case msg := <-sent:
				if ok(msg) {
					return msg
				}
				run(t, m, send(m, msg))
			case <-deadline:
				t.Fatalf("no %s through Send", what)
			}
		}
	}

	run(t, m, m.Init()) // would hang on a waiting Cmd
	if !m.lobbyWait {
		t.Fatal("home is not watching the lobby")
	}
	if _, err := hub.Create(lobby.Identity{Account: "SHA256:bo", Handle: "bo"}, lobby.TableSpec{Game: "breakcode", Seats: 2}); err != nil {
		t.Fatal(err)
	}
	run(t, m, send(m, next("lobby change", func(msg tea.Msg) bool { _, ok := msg.(lobbyChangedMsg); return ok })))

	press(t, m, "enter", "enter") // quick play against bots
	ts, ok := m.top().(*tableScreen)
	if !ok {
		t.Fatalf("quick play: %T", m.top())
	}
	msg := next("table change", func(msg tea.Msg) bool { c, ok := msg.(tableChangedMsg); return ok && c.conn == ts.conn })
	run(t, m, send(m, msg))
	if !ts.view.Deadline.IsZero() {
		next("countdown beat", func(msg tea.Msg) bool { c, ok := msg.(tableTickMsg); return ok && c.conn == ts.conn })
	}

	ts.conn.Leave()
	next("table end", func(msg tea.Msg) bool { c, ok := msg.(tableClosedMsg); return ok && c.conn == ts.conn })

	m.Close()
	if _, err := hub.Create(lobby.Identity{Account: "SHA256:cy", Handle: "cy"}, lobby.TableSpec{Game: "breakcode", Seats: 2}); err != nil {
		t.Fatal(err)
	}
	// A wake still registered in the lobby finds the box closed.
	m.mail.post(nil, func() tea.Msg { return "late" })
	select {
	case msg := <-sent:
		if msg == "late" {
			t.Fatal("a closed session was still sent messages")
		}
	case <-time.After(50 * time.Millisecond):
	}
}

// TestSeekWithSendWaitsOnNothing: a session seeking people with Send
// holds no Cmd waiting for its pool; the match arrives through Send and
// opens the table.
func TestSeekWithSendWaitsOnNothing(t *testing.T) {
	_, hub, reg := realHub(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sent := make(chan tea.Msg, 64)
	mara := lobby.Identity{Account: "SHA256:mara", Handle: "mara"}
	m := New(Deps{Hub: hub, Games: reg}, Session{
		Identity: mara, Width: 80, Height: 24, Context: ctx,
		Send: func(msg tea.Msg) { sent <- msg },
	}).(*app)
	run(t, m, m.Init())
	spec := lobby.SeekSpec{Game: "breakcode", Players: 2}
	run(t, m, m.seek(spec)) // would hang on a waiting pump
	if _, ok := m.top().(*seekScreen); !ok {
		t.Fatalf("not seeking: %T", m.top())
	}
	if _, err := hub.Seek(lobby.Identity{Account: "SHA256:bo", Handle: "bo"}, spec); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(30 * time.Second) // a ceiling against hangs, not a speed check
	for {
		if _, ok := m.top().(*tableScreen); ok {
			break
		}
		select {
		case msg := <-sent:
			if _, tick := msg.(seekTickMsg); !tick {
				run(t, m, send(m, msg))
			}
		case <-deadline:
			t.Fatalf("the match never reached the session: %T", m.top())
		}
	}
	m.Close()
}
