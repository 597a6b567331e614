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
	chatLines  []ChatLine
	chatLimits *keyedLimit // lines per account, connection and address
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
	t.chatLines = append(t.chatLines, ChatLine{At: now, Handle: c.id.handle(), Text: line, author: c.id})
	if n := len(t.chatLines); n > 2*ChatLen {
		t.chatLines = slices.Clone(t.chatLines[n-ChatLen:])
	}
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
	for i := len(t.chatLines) - 1; i >= 0; i-- {
		if l := t.chatLines[i]; strings.EqualFold(l.Handle.String(), handle) {
			return l.author, true
		}
	}
	return Identity{}, false
}
