package server

import (
	"github.com/codebreakers/codebreakers/engine/words"

	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// sessionKeyEnv carries a session's private id from its request filter to
// its handler, through the session's own environment. Clients cannot forge
// it: the filter drops any env request with this name.
const sessionKeyEnv = "CODEBREAKERS_SESSION_KEY"

// maxEnvBytes bounds one env request's payload (name plus value).
const maxEnvBytes = 1024

// connState is what the server tracks for one SSH connection. It lives in
// the connection's context.
type connState struct {
	key      string // client address for limits
	refusal  error  // non-nil: every session on this connection is refused with this message
	channels atomic.Int32
}

type connStateKey struct{}

func connStateFrom(ctx ssh.Context) *connState {
	if st, ok := ctx.Value(connStateKey{}).(*connState); ok {
		return st
	}
	// Only reachable if ConnCallback was bypassed; refuse rather than run unmetered.
	return &connState{key: "unknown", refusal: errServerFull}
}

// termSize is a terminal size in cells.
type termSize struct{ Width, Height int }

// resizeBox holds a session's latest (clamped) terminal size. The request
// filter writes it without ever blocking; the program's forwarder reads it.
// Resizes that arrive faster than the program takes them coalesce: only the
// latest size matters.
type resizeBox struct {
	mu      sync.Mutex
	size    termSize
	changed chan struct{} // 1-buffered: "size changed since you last looked"
}

func newResizeBox() *resizeBox {
	return &resizeBox{size: termSize{80, 24}, changed: make(chan struct{}, 1)}
}

func (b *resizeBox) set(s termSize) {
	b.mu.Lock()
	b.size = s
	b.mu.Unlock()
	select {
	case b.changed <- struct{}{}:
	default:
	}
}

func (b *resizeBox) get() termSize {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.size
}

// clampSize bounds a client-reported size. Zero means "unknown" (some
// clients send it without a terminal) and becomes 80×24.
func (s *Server) clampSize(w, h uint32) termSize {
	if w == 0 || h == 0 {
		return termSize{80, 24}
	}
	return termSize{
		Width:  int(min(w, uint32(s.cfg.MaxWidth))),
		Height: int(min(h, uint32(s.cfg.MaxHeight))),
	}
}

// handleSessionChannel replaces charm.land/ssh's session channel handler. It
// caps concurrent sessions per connection, then runs the default handler
// behind a filter on the session's request stream.
func (s *Server) handleSessionChannel(srv *ssh.Server, conn *gossh.ServerConn, newChan gossh.NewChannel, ctx ssh.Context) {
	st := connStateFrom(ctx)
	if int(st.channels.Add(1)) > s.cfg.MaxSessionsPerConn {
		st.channels.Add(-1)
		s.abuse("sessions per connection", accountOf(conn), st.key, "session channel rejected")
		_ = newChan.Reject(gossh.ResourceShortage,
			"at most "+words.Count(s.cfg.MaxSessionsPerConn, "session", "sessions")+" per connection")
		return
	}
	defer st.channels.Add(-1)

	id := randomHex(16)
	box := newResizeBox()
	s.boxes.Store(id, box)
	defer s.boxes.Delete(id)
	ssh.DefaultSessionHandler(srv, conn, &filteredChannel{NewChannel: newChan, s: s, account: accountOf(conn), remote: st.key, id: id, box: box}, ctx)
}

// filteredChannel accepts a session channel and hands the default handler a
// filtered copy of its request stream.
type filteredChannel struct {
	gossh.NewChannel
	s  *Server
	id string
	// account and remote name the client in abuse logs.
	account, remote string
	box             *resizeBox
}

// Accept accepts the channel and starts the filter.
func (c *filteredChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := c.NewChannel.Accept()
	if err != nil {
		return nil, nil, fmt.Errorf("accept session: %w", err)
	}
	out := make(chan *gossh.Request)
	go c.filter(reqs, out)
	return ch, out, nil
}

// ptyRequest is the wire form of a pty-req payload (RFC 4254 6.2).
type ptyRequest struct {
	Term              string
	Columns, Rows     uint32
	WidthPx, HeightPx uint32
	Modes             string
}

// windowChange is the wire form of a window-change payload (RFC 4254 6.7).
type windowChange struct {
	Columns, Rows     uint32
	WidthPx, HeightPx uint32
}

// envRequest is the wire form of an env payload (RFC 4254 6.4).
type envRequest struct {
	Name, Value string
}

// filter passes on only what the default handler should see, in order:
//   - pty-req once, before shell, with the size clamped and TERM checked;
//   - env up to the cap, small, never our private name;
//   - shell or exec once, preceded by our private session key.
//
// window-change is answered here and never forwarded: the default handler
// pushes each resize into a one-slot channel that nobody drains before the
// shell starts (or after the program ends), which blocks its request loop
// for good. Here a resize only updates the session's resizeBox.
// Everything else (signals, breaks, agent and X11 forwarding, subsystems)
// is refused.
func (c *filteredChannel) filter(in <-chan *gossh.Request, out chan<- *gossh.Request) {
	defer close(out)
	var started, hasPty, envFlood bool
	envs := 0
	for req := range in {
		switch req.Type {
		case "pty-req":
			var p ptyRequest
			if started || hasPty || gossh.Unmarshal(req.Payload, &p) != nil {
				_ = req.Reply(false, nil)
				continue
			}
			size := c.s.clampSize(p.Columns, p.Rows)
			p.Columns, p.Rows = uint32(size.Width), uint32(size.Height)
			p.WidthPx, p.HeightPx = 0, 0
			p.Term = cleanTerm(p.Term)
			req.Payload = gossh.Marshal(&p)
			c.box.set(size)
			hasPty = true
			out <- req
		case "window-change":
			var w windowChange
			if !hasPty || gossh.Unmarshal(req.Payload, &w) != nil {
				_ = req.Reply(false, nil)
				continue
			}
			c.box.set(c.s.clampSize(w.Columns, w.Rows))
			_ = req.Reply(true, nil)
		case "env":
			var e envRequest
			if started || envs >= c.s.cfg.MaxEnv || len(req.Payload) > maxEnvBytes ||
				gossh.Unmarshal(req.Payload, &e) != nil || strings.EqualFold(e.Name, sessionKeyEnv) {
				if envs >= c.s.cfg.MaxEnv && !envFlood {
					envFlood = true
					c.s.abuse("env flood", c.account, c.remote, "env requests beyond the cap refused")
				}
				_ = req.Reply(false, nil)
				continue
			}
			envs++
			out <- req
		case "shell", "exec":
			if started {
				_ = req.Reply(false, nil)
				continue
			}
			started = true
			out <- &gossh.Request{Type: "env", Payload: gossh.Marshal(&envRequest{sessionKeyEnv, c.id})}
			out <- req
		default:
			_ = req.Reply(false, nil)
		}
	}
}

// accountOf is the account a connection authenticated as, for logs: the
// fingerprint of the key that completed authentication, or "guest".
func accountOf(conn *gossh.ServerConn) string {
	if conn.Permissions != nil && conn.Permissions.Extensions[fingerprintExt] != "" {
		return conn.Permissions.Extensions[fingerprintExt]
	}
	return "guest"
}

// cleanTerm keeps a TERM value that looks like a terminal name.
func cleanTerm(term string) string {
	if term == "" || len(term) > 64 {
		return "xterm-256color"
	}
	for _, r := range term {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.+", r)) {
			return "xterm-256color"
		}
	}
	return term
}

// sessionBox finds the resize box of a session and returns its environment
// without the private key.
func (s *Server) sessionBox(env []string) (*resizeBox, []string) {
	var box *resizeBox
	clean := env[:0:0]
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		if name == sessionKeyEnv {
			if b, ok := s.boxes.Load(value); ok {
				box = b.(*resizeBox)
			}
			continue
		}
		clean = append(clean, kv)
	}
	if box == nil {
		box = newResizeBox()
	}
	return box, clean
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b)
}
