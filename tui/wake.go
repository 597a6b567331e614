package tui

import (
	"context"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
)

// A session learns of what happens in the lobby (a table's change or end,
// a change on home, a countdown's beat) without a goroutine of its own
// waiting for it. The lobby calls a wake function, which must never block
// (Conn.Notify, Hub.OnChange); a timer does the same (time.AfterFunc). The
// wake leaves a note in the session's mailbox, and a goroutine started for
// the occasion hands the notes to the program one by one, then leaves.
// A parked Cmd per session (the way before) cost a goroutine and its
// stack for every session on a table or at home, all of which each
// garbage collection scanned; with the mailbox an idle session holds
// none, and a table's publish still never waits for a session.

// mailbox holds the notes for one session's program until it takes them.
// Notes with the same key coalesce: the message is made when it is
// delivered, so it says what is true then.
type mailbox struct {
	mu      sync.Mutex
	send    func(tea.Msg) // blocks until the program takes the message or has ended; nil once closed
	notes   []note
	running bool // a goroutine is delivering
}

// note is one message to make and deliver; key (when not nil) makes a
// later note with the same key replace it.
type note struct {
	key  any
	make func() tea.Msg
}

func newMailbox(send func(tea.Msg)) *mailbox { return &mailbox{send: send} }

// post leaves a note and makes sure a goroutine will deliver it. It never
// blocks: it is what the lobby's wake functions call.
func (m *mailbox) post(key any, make func() tea.Msg) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.send == nil {
		return // the program has ended
	}
	replaced := false
	if key != nil {
		for i := range m.notes {
			if m.notes[i].key == key {
				m.notes[i].make, replaced = make, true
				break
			}
		}
	}
	if !replaced {
		m.notes = append(m.notes, note{key, make})
	}
	if !m.running {
		m.running = true
		go m.deliver()
	}
}

// deliver hands the notes to the program, oldest first, until none is
// left.
func (m *mailbox) deliver() {
	for {
		m.mu.Lock()
		send := m.send
		if len(m.notes) == 0 || send == nil {
			m.notes = nil
			m.running = false
			m.mu.Unlock()
			return
		}
		n := m.notes[0]
		m.notes[0] = note{}
		m.notes = m.notes[1:]
		m.mu.Unlock()
		if msg := n.make(); msg != nil {
			send(msg)
		}
	}
}

// close drops the notes and every later one, once the program has ended:
// a wake still registered in the lobby then holds only this empty box.
func (m *mailbox) close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.send = nil
	m.notes = nil
}

// notifier is a table connection (*lobby.Conn) or a seek (*lobby.Seeker
// through lobbySeeker) that can wake the session itself: tests' fakes
// cannot, and are waited on.
type notifier interface {
	Notify(wake func())
}

// notifyTable is the pump of a table connection when the session has a
// mailbox: the connection's wake posts its change, or its end, to the
// program. It is set again after every change, which hands over a change
// that came in between; it returns no Cmd.
func (a *app) notifyTable(ctx context.Context, c tableConn) tea.Cmd {
	n, ok := c.(notifier)
	if !ok {
		return waitTable(ctx, c)
	}
	mail := a.mail
	n.Notify(func() { mail.post(c, func() tea.Msg { return tableNews(c) }) })
	return nil
}

// tableNews is what has happened at c: it ended, or it changed.
func tableNews(c tableConn) tea.Msg {
	select {
	case <-c.Done():
		return tableClosedMsg{conn: c, reason: c.Reason()}
	default:
		return tableChangedMsg{conn: c}
	}
}

// notifySeek is the pump of a seek when the session has a mailbox, as
// notifyTable is a table's.
func (a *app) notifySeek(ctx context.Context, s seekConn) tea.Cmd {
	n, ok := s.(notifier)
	if !ok {
		return waitSeek(ctx, s)
	}
	mail := a.mail
	n.Notify(func() { mail.post(s, func() tea.Msg { return seekChangedMsg{seek: s} }) })
	return nil
}

// lobbyNotifier is a hub that can call a function at its next change.
type lobbyNotifier interface {
	OnChange(f func()) (cancel func())
}

// lobbyNoteKey is the mailbox key of home's "the lobby changed".
type lobbyNoteKey struct{}

// notifyLobby has the next change of what home shows posted to the
// program, no sooner than calm from now: the change is asked for now,
// so that none in the meantime is missed, and held back on a timer if it
// comes early.
func (a *app) notifyLobby(n lobbyNotifier, calm time.Duration) {
	mail := a.mail
	due := time.Now().Add(calm)
	post := func() { mail.post(lobbyNoteKey{}, func() tea.Msg { return lobbyChangedMsg{} }) }
	a.lobbyCancel = n.OnChange(func() {
		if wait := time.Until(due); wait > 0 {
			time.AfterFunc(wait, post)
			return
		}
		post()
	})
}

// afterNote is a.after when the session has a mailbox: a timer posts
// fn's message, and no goroutine sleeps meanwhile.
func (a *app) afterNote(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
	mail := a.mail
	time.AfterFunc(d, func() {
		at := time.Now()
		mail.post(nil, func() tea.Msg { return fn(at) })
	})
	return nil
}
