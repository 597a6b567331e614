// The table's chat: a line sent (cleaned, muted or rate-limited) and the
// recent lines, which also tell who went by a handle.

package lobby

import (
	"slices"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/textsafe"
)

// chatRoom is the table's chat. Owned by the table goroutine.
type chatRoom struct {
	// chatLines only grows between trims (which copy), so published views
	// share it.
	chatLines  []ChatLine
	chatLimits *keyedLimit // lines per account, connection and address
}

// add appends a line, trimming the oldest once there are twice as many as
// a view shows.
func (r *chatRoom) add(l ChatLine) {
	r.chatLines = append(r.chatLines, l)
	if n := len(r.chatLines); n > 2*ChatLen {
		r.chatLines = slices.Clone(r.chatLines[n-ChatLen:])
	}
}

// recent returns the last ChatLen lines, capped so that an append by a
// reader cannot touch ours.
func (r *chatRoom) recent() []ChatLine {
	n := len(r.chatLines)
	return r.chatLines[max(0, n-ChatLen):n:n]
}

// author returns who wrote the latest line under handle, case-insensitively.
func (r *chatRoom) author(handle string) (Identity, bool) {
	for i := len(r.chatLines) - 1; i >= 0; i-- {
		if l := r.chatLines[i]; strings.EqualFold(l.Handle.String(), handle) {
			return l.author, true
		}
	}
	return Identity{}, false
}

// chat posts a sanitised, rate-limited line.
func (t *table) chat(c *Conn, text string) error {
	if c.viewer.Kind == engine.ViewerSeat {
		if _, err := t.seatOfConn(c); err != nil {
			return err
		}
	} else if _, ok := t.spectators[c]; !ok {
		return ErrNotHere
	}
	if t.cfg.Muted != nil && t.cfg.Muted(c.id.Account) {
		t.log.Warn("abuse", "kind", "muted chat", "account", c.id.Account, "detail", "chat refused", "code", t.code)
		return engine.Illegal("You are muted on this server, so your messages are not shown.")
	}
	line := textsafe.Clean(text, t.cfg.MaxChatLen)
	if line == "" {
		return engine.Illegal("There is nothing to send.")
	}
	now := t.cfg.Now()
	keys := limitKeys(c.id)
	if key, warn := t.chatLimits.blocked(keys, now); key != "" {
		if warn { // one line per burst, not one per refused message
			t.log.Warn("abuse", "kind", "chat rate", "account", c.id.Account, "remote", c.id.Addr,
				"detail", "chat refused", "code", t.code, "key", key)
		}
		return engine.Illegal("You are chatting too fast; wait a little and try again.")
	}
	t.chatLimits.add(keys, now)
	t.chatRoom.add(ChatLine{At: now, Handle: c.id.handle(), Text: line, author: c.id})
	t.dirty = true
	return nil
}

// whoIs finds who at the table goes by handle, case-insensitively: a
// person seated or watching, or else the author of a recent chat line (a
// guest who spammed and left can still be muted).
func (t *table) whoIs(handle string) (Identity, bool) {
	for _, s := range t.seats {
		if s.human() && strings.EqualFold(s.id.Handle, handle) {
			if s.conn != nil {
				return s.conn.id, true // the live session's connection and address
			}
			return s.id, true
		}
	}
	for c := range t.spectators {
		if strings.EqualFold(c.id.Handle, handle) {
			return c.id, true
		}
	}
	return t.chatRoom.author(handle)
}
