package tui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/lobby"
)

// hubAPI is the part of *lobby.Hub the UI uses. Screens depend on this
// rather than the concrete hub so tests can drive them with a fake table.
type hubAPI interface {
	Create(id lobby.Identity, spec lobby.TableSpec) (tableConn, error)
	Join(id lobby.Identity, code string) (tableConn, error)
	Watch(id lobby.Identity, code string) (tableConn, error)
	QuickPlay(id lobby.Identity, game, level string) (tableConn, error)
	Resume(id lobby.Identity) (tableConn, bool)
	// SeatElsewhere is a seat the account holds on another node of the
	// cluster (nil: none, or one node).
	SeatElsewhere(id lobby.Identity) *lobby.ElsewhereError
	PublicTables() []lobby.TableSummary
	// PublicCounts counts the tables PublicTables lists, by phase.
	PublicCounts() (waiting, playing int)
	Online() (sessions, tables int)
	Seek(id lobby.Identity, spec lobby.SeekSpec) (seekConn, error)
	Seeking() map[string]int
	// Changed is closed at the next change of what home shows.
	Changed() <-chan struct{}
	// HeldSeats are the tables where the account holds a seat in a game
	// waiting or in play, the newest (the one Resume returns to) first.
	HeldSeats(account string) []lobby.TableSummary
	// AllowRename counts a change of handle, or refuses it when the
	// account, connection or address changes handles too often.
	AllowRename(id lobby.Identity) error
	// AllowClaim counts a new key's first handle, or refuses it when the
	// address has claimed too many lately.
	AllowClaim(id lobby.Identity) error
}

// seekConn is the part of *lobby.Seeker the UI uses.
type seekConn interface {
	Updates() <-chan struct{}
	Status() lobby.SeekStatus
	Cancel()
	// Seat is the table found, or nil while still seeking.
	Seat() tableConn
	PlayBots() (tableConn, error)
}

// lobbySeeker adapts *lobby.Seeker to seekConn.
type lobbySeeker struct{ *lobby.Seeker }

func (s lobbySeeker) Seat() tableConn {
	if c := s.Seeker.Conn(); c != nil {
		return c
	}
	return nil
}

func (s lobbySeeker) PlayBots() (tableConn, error) { return wrapConn(s.Seeker.PlayBots()) }

func (l lobbyHub) Seek(id lobby.Identity, spec lobby.SeekSpec) (seekConn, error) {
	s, err := l.h.Seek(id, spec)
	if err != nil || s == nil {
		return nil, err
	}
	return lobbySeeker{s}, nil
}
func (l lobbyHub) Seeking() map[string]int { return l.h.Seeking() }

// tableConn is the part of *lobby.Conn the UI uses.
type tableConn interface {
	Updates() <-chan struct{}
	View() lobby.TableView
	Act(action []byte) error
	Chat(text string) error
	SetReady(ready bool) error
	Start() error
	Rematch() error
	Leave()
	Done() <-chan struct{}
	Reason() string
}

// lobbyHub adapts *lobby.Hub to hubAPI, taking care that a nil *lobby.Conn
// never becomes a non-nil interface.
type lobbyHub struct{ h *lobby.Hub }

func wrapConn(c *lobby.Conn, err error) (tableConn, error) {
	if err != nil || c == nil {
		return nil, err
	}
	return c, nil
}

func (l lobbyHub) Create(id lobby.Identity, spec lobby.TableSpec) (tableConn, error) {
	return wrapConn(l.h.Create(id, spec))
}
func (l lobbyHub) Join(id lobby.Identity, code string) (tableConn, error) {
	return wrapConn(l.h.Join(id, code))
}
func (l lobbyHub) Watch(id lobby.Identity, code string) (tableConn, error) {
	return wrapConn(l.h.Watch(id, code))
}
func (l lobbyHub) QuickPlay(id lobby.Identity, game, level string) (tableConn, error) {
	return wrapConn(l.h.QuickPlayLevel(id, game, level))
}
func (l lobbyHub) Resume(id lobby.Identity) (tableConn, bool) {
	c, ok := l.h.Resume(id)
	if !ok || c == nil {
		return nil, false
	}
	return c, true
}
func (l lobbyHub) SeatElsewhere(id lobby.Identity) *lobby.ElsewhereError {
	return l.h.SeatElsewhere(id)
}
func (l lobbyHub) PublicTables() []lobby.TableSummary  { return l.h.PublicTables() }
func (l lobbyHub) PublicCounts() (int, int)            { return l.h.PublicCounts() }
func (l lobbyHub) Online() (int, int)                  { return l.h.Online() }
func (l lobbyHub) Changed() <-chan struct{}            { return l.h.Changed() }
func (l lobbyHub) OnChange(f func()) func()            { return l.h.OnChange(f) }
func (l lobbyHub) AllowRename(id lobby.Identity) error { return l.h.AllowRename(id) }
func (l lobbyHub) AllowClaim(id lobby.Identity) error  { return l.h.AllowClaim(id) }

func (l lobbyHub) HeldSeats(account string) []lobby.TableSummary {
	return l.h.HeldSeats(account)
}

// lobbyChangedMsg says what home shows has changed (tables, seats).
type lobbyChangedMsg struct{}

// lobbyCalm is the least time between two redraws of home for lobby
// changes: a busy server changes often, and a home screen need not follow
// faster than a person reads.
const lobbyCalm = time.Second

// waitLobby waits calm, then until ch closes (a change since ch was
// taken), or the session ends. Taking ch before the calm means no change
// in the meantime is missed: it closed ch, so the wait ends at once.
func waitLobby(ctx context.Context, ch <-chan struct{}, calm time.Duration) tea.Cmd {
	if ch == nil {
		return nil // a hub that tells no changes
	}
	return func() tea.Msg {
		if calm > 0 {
			t := time.NewTimer(calm)
			defer t.Stop()
			select {
			case <-ctx.Done():
				return nil
			case <-t.C:
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-ch:
			return lobbyChangedMsg{}
		}
	}
}
