package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/codebreakers/codebreakers/engine/words"
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
	id      string // random name of the connection, for the lobby's limits
	ip      string // the client's address, for bans and logs
	key     string // what per-address limits count against (limitGroup)
	refusal error  // non-nil: every session on this connection is refused with this message
	// node is set on a node-link connection from another node of the
	// cluster: its sessions run as the players it asserts.
	node bool
	// keyOffered is set once the client has offered a public key, whether
	// or not it went on to sign with it.
	keyOffered atomic.Bool

	mu       sync.Mutex
	channels int         // session channels whose handlers have not returned
	opens    []time.Time // when the session channels of the last minute opened
	warned   bool        // this burst of refused channels was logged
}

type connStateKey struct{}

func connStateFrom(ctx context.Context) *connState {
	if st, ok := ctx.Value(connStateKey{}).(*connState); ok {
		return st
	}
	// Only reachable if ConnCallback was bypassed; refuse rather than run unmetered.
	return &connState{id: "unknown", ip: "unknown", key: "unknown", refusal: errServerFull}
}

// openChannel counts a new session channel, or says why it is refused:
// more than atOnce open, or perMinute opened within the last minute. warn
// is true for the first refusal of a burst (log that one only).
func (st *connState) openChannel(now time.Time, atOnce, perMinute int) (refusal string, warn bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	i := 0
	for i < len(st.opens) && now.Sub(st.opens[i]) >= time.Minute {
		i++
	}
	st.opens = append(st.opens[:0], st.opens[i:]...)
	switch {
	case st.channels >= atOnce:
		refusal = "at most " + words.Count(atOnce, "session", "sessions") + " at once per connection"
	case len(st.opens) >= perMinute:
		refusal = "at most " + words.Count(perMinute, "session", "sessions") + " a minute per connection"
	default:
		st.channels++
		st.opens = append(st.opens, now)
		st.warned = false
		return "", false
	}
	warn = !st.warned
	st.warned = true
	return refusal, warn
}

// closeChannel gives back a place taken by openChannel.
func (st *connState) closeChannel() {
	st.mu.Lock()
	st.channels--
	st.mu.Unlock()
}

// errChannelClosed ends a session whose channel the client closed while
// keeping the connection (OpenSSH connection sharing does this when a
// client is killed): the session ends with its channel, not with the
// connection.
var errChannelClosed = errors.New("the session's channel closed")

// channelState is one session channel, from its opening until its
// handler has returned.
type channelState struct {
	box *resizeBox
	// ctx ends when the channel closes (or the connection does); the
	// session's own context derives from it.
	ctx    context.Context
	cancel context.CancelCauseFunc
	// started is set when shell or exec is passed on: a handler will run,
	// and done closes when it has returned.
	started  atomic.Bool
	done     chan struct{}
	doneOnce sync.Once
	// raw is the channel as accepted, set before the session's handler
	// starts: the session's output is written to it (wireSession).
	raw gossh.Channel
}

func newChannelState(parent context.Context) *channelState {
	ctx, cancel := context.WithCancelCause(parent)
	return &channelState{box: newResizeBox(), ctx: ctx, cancel: cancel, done: make(chan struct{})}
}

// finish marks the handler returned.
func (c *channelState) finish() { c.doneOnce.Do(func() { close(c.done) }) }

// termSize is a terminal size in cells.
type termSize struct{ Width, Height int }

// resizeBox holds a session's latest (clamped) terminal size. The request
// filter writes it without ever blocking; once the program runs, every
// change is forwarded to it (see follow). Resizes that arrive faster than
// the program takes them coalesce: only the latest size matters.
type resizeBox struct {
	mu      sync.Mutex
	size    termSize
	sent    termSize       // the size the program was last given
	send    func(termSize) // nil until the program runs; blocks until taken
	stopped bool
	running bool // a goroutine is forwarding sizes
}

func newResizeBox() *resizeBox {
	return &resizeBox{size: termSize{80, 24}}
}

func (b *resizeBox) set(s termSize) {
	b.mu.Lock()
	b.size = s
	start := b.send != nil && !b.running && !b.stopped && s != b.sent
	b.running = b.running || start
	b.mu.Unlock()
	if start {
		go b.forward()
	}
}

func (b *resizeBox) get() termSize {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.size
}

// follow hands every later size to send, starting from sent (the size the
// program started with), until stop. No goroutine waits between resizes:
// one is started for each burst of them.
func (b *resizeBox) follow(sent termSize, send func(termSize)) {
	b.mu.Lock()
	b.sent, b.send = sent, send
	b.mu.Unlock()
	b.set(b.get()) // a resize that came in the meantime
}

// stop ends the forwarding: later sizes are kept but not sent.
func (b *resizeBox) stop() {
	b.mu.Lock()
	b.stopped = true
	b.mu.Unlock()
}

// forward sends the latest size until the program has it.
func (b *resizeBox) forward() {
	for {
		b.mu.Lock()
		size := b.size
		if size == b.sent || b.stopped {
			b.running = false
			b.mu.Unlock()
			return
		}
		b.sent = size
		b.mu.Unlock()
		b.send(size) // returns when the program takes it or has ended
	}
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
// caps session channels per connection (at once and per minute), runs the
// default handler behind a filter on the session's request stream, and
// ends the session when its channel closes.
//
// The default handler's request loop and the filter in front of it run
// only until the session starts: the filter then ends the loop (the
// default handler returns) and this goroutine answers the rest of the
// stream itself (drain), so a running session costs one goroutine for its
// requests instead of two. The stream ends when the channel closes, but
// the session handler the default handler started
// runs on with the connection's context, which lives as long as the TCP
// connection: a client that closes a channel and keeps the connection
// (OpenSSH's ControlMaster does when a client is killed) would leave a
// session playing on, its seat "connected", and its slot free for the
// next channel. So the session runs under the channel's own context,
// cancelled here, and the slot is held until its handler has returned.
func (s *Server) handleSessionChannel(srv *ssh.Server, conn *gossh.ServerConn, newChan gossh.NewChannel, ctx ssh.Context) {
	st := connStateFrom(ctx)
	if st.node { // a node link carries many players' sessions: their own limits apply on arrival
		id := randomHex(16)
		ch := newChannelState(ctx)
		s.channels.Store(id, ch)
		defer s.channels.Delete(id)
		fc := &filteredChannel{NewChannel: newChan, s: s, account: "node", remote: st.ip, id: id, ch: ch, node: true}
		ssh.DefaultSessionHandler(srv, conn, fc, ctx)
		fc.drain()
		ch.cancel(errChannelClosed)
		if ch.started.Load() {
			select {
			case <-ch.done:
			case <-ctx.Done():
			}
		}
		return
	}
	if refusal, warn := st.openChannel(time.Now(), s.cfg.MaxSessionsPerConn, s.cfg.SessionsPerConnPerMinute); refusal != "" {
		if warn {
			s.abuse("sessions per connection", accountOf(conn), st.ip, refusal+"; session channels refused")
		}
		_ = newChan.Reject(gossh.ResourceShortage, refusal)
		return
	}
	defer st.closeChannel()

	id := randomHex(16)
	ch := newChannelState(ctx)
	s.channels.Store(id, ch)
	defer s.channels.Delete(id)
	fc := &filteredChannel{NewChannel: newChan, s: s, account: accountOf(conn), remote: st.ip, id: id, ch: ch}
	ssh.DefaultSessionHandler(srv, conn, fc, ctx)
	fc.stopStartTimer()
	fc.drain()
	ch.cancel(errChannelClosed)
	if ch.started.Load() {
		select {
		case <-ch.done:
		case <-ctx.Done():
		}
	}
}

// filteredChannel accepts a session channel and hands the default handler a
// filtered copy of its request stream.
type filteredChannel struct {
	gossh.NewChannel
	s  *Server
	id string
	// account and remote name the client in abuse logs.
	account, remote string
	ch              *channelState
	// rest is the request stream after shell or exec, handed over by the
	// filter for drain; nil when the stream ended before.
	rest <-chan *gossh.Request
	// hasPty is set by the filter when a pty was granted, before rest.
	hasPty bool
	// node marks a node link's channel, which has no start deadline.
	node bool
	// startTimer closes the channel if it has not started in time
	// (Config.SessionStartTimeout); nil for a node link's.
	startTimer *time.Timer
}

// Accept accepts the channel and starts the filter.
func (c *filteredChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := c.NewChannel.Accept()
	if err != nil {
		return nil, nil, fmt.Errorf("accept session: %w", err)
	}
	c.ch.raw = ch
	if !c.node {
		// Until shell or exec, nothing reads the channel: what the client
		// sends on it stays in memory, up to the channel's window (2 MiB,
		// fixed by the SSH library). A client that never starts would hold
		// 6 MiB per connection for the connection's idle timeout (16
		// minutes), 200 MiB per address: such a channel is closed.
		c.startTimer = time.AfterFunc(c.s.cfg.SessionStartTimeout, func() {
			if !c.ch.started.Load() {
				c.s.log.Debug("session channel closed: no shell or command in time", "remote", c.remote)
				_ = ch.Close()
			}
		})
	}
	out := make(chan *gossh.Request)
	go c.filter(reqs, out)
	return ch, out, nil
}

// stopStartTimer stops the start deadline set by Accept, if any.
func (c *filteredChannel) stopStartTimer() {
	if c.startTimer != nil {
		c.startTimer.Stop()
	}
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
//
// Once shell or exec is passed on, nothing more ever is: the filter closes
// out, which ends the default handler's request loop (its session handler
// runs on), and leaves the rest of in to drain.
func (c *filteredChannel) filter(in <-chan *gossh.Request, out chan<- *gossh.Request) {
	defer close(out)
	var hasPty, envFlood bool
	envs := 0
	for req := range in {
		switch req.Type {
		case "pty-req":
			var p ptyRequest
			if hasPty || gossh.Unmarshal(req.Payload, &p) != nil {
				_ = req.Reply(false, nil)
				continue
			}
			size := c.s.clampSize(p.Columns, p.Rows)
			p.Columns, p.Rows = uint32(size.Width), uint32(size.Height)
			p.WidthPx, p.HeightPx = 0, 0
			p.Term = cleanTerm(p.Term)
			req.Payload = gossh.Marshal(&p)
			c.ch.box.set(size)
			hasPty = true
			out <- req
		case "window-change":
			c.answerResize(req, hasPty)
		case "env":
			var e envRequest
			if envs >= c.s.cfg.MaxEnv || len(req.Payload) > maxEnvBytes ||
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
			c.ch.started.Store(true)
			c.stopStartTimer()
			out <- &gossh.Request{Type: "env", Payload: gossh.Marshal(&envRequest{sessionKeyEnv, c.id})}
			out <- req
			c.rest, c.hasPty = in, hasPty
			return
		default:
			_ = req.Reply(false, nil)
		}
	}
}

// drain answers a started session's requests until its channel closes:
// a resize updates the session's size, everything else is refused (a
// second shell or exec, pty-req, env, signals, ...). It runs on the
// channel handler's goroutine once the default handler has returned, and
// returns at once when the session never started.
func (c *filteredChannel) drain() {
	if c.rest == nil {
		return
	}
	for req := range c.rest {
		if req.Type == "window-change" {
			c.answerResize(req, c.hasPty)
			continue
		}
		_ = req.Reply(false, nil)
	}
}

// answerResize answers a window-change request, before or after the
// session starts: with a pty granted, the session's size follows it
// (clamped); without one, or malformed, it is refused.
func (c *filteredChannel) answerResize(req *gossh.Request, hasPty bool) {
	var w windowChange
	if !hasPty || gossh.Unmarshal(req.Payload, &w) != nil {
		_ = req.Reply(false, nil)
		return
	}
	c.ch.box.set(c.s.clampSize(w.Columns, w.Rows))
	_ = req.Reply(true, nil)
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

// sessionChannel finds the channel of a session and returns the session's
// environment without the private key.
func (s *Server) sessionChannel(sess ssh.Session) (*channelState, []string) {
	var ch *channelState
	env := sess.Environ()
	clean := env[:0:0]
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		if name == sessionKeyEnv {
			if c, ok := s.channels.Load(value); ok {
				ch = c.(*channelState)
			}
			continue
		}
		clean = append(clean, kv)
	}
	if ch == nil {
		// Only when the channel handler was bypassed: end with the connection.
		ch = newChannelState(sess.Context())
	}
	return ch, clean
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b)
}
