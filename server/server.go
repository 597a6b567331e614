// Package server is Codebreakers' SSH front door: a wish server with a host
// key, limits, identity from the authenticated key, a Bubble Tea program per
// interactive session, and a few text commands for sessions without a
// terminal. It holds no game logic.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/ssh"
	"charm.land/wish/v2"
	gossh "golang.org/x/crypto/ssh"

	"github.com/codebreakers/codebreakers/server/frame"
)

// Reasons a session is ended from the server side. They are shown to the
// player as they leave.
var (
	errIdle     = errors.New("Disconnected after a while without input. Your seat is kept for a short time; reconnect to carry on.")
	errTooLong  = errors.New("This session reached its maximum length. Reconnect to carry on.")
	errShutdown = errors.New("The server is restarting. Games in progress are saved; reconnect in a minute to carry on.")
	errEnded    = errors.New("session ended")
	errStalled  = errors.New("The connection stopped taking output, so the session was closed.")
)

// refusedConnLifetime is how long a refused connection may stay open to read
// its refusal.
const refusedConnLifetime = 15 * time.Second

// Server is the SSH server. Create it with New, run it with Serve or
// ListenAndServe, stop it with Shutdown.
type Server struct {
	cfg    Config
	log    *slog.Logger
	ssh    *ssh.Server
	limits *limiter
	// channels maps a session's private key to its channel (see
	// sessionKeyEnv).
	channels sync.Map // session key → *channelState
	guests   *guestNames
	// bansSeen is the ban list generation last enforced on live sessions.
	bansSeen atomic.Uint64
	// nodeSSH serves the node link and links dials it on other nodes;
	// both nil without Config.Cluster.
	nodeSSH *ssh.Server
	links   *nodeLinks
	// connect is the command players run to reach this server (SSHCommand).
	connect connect
	// colours is every session's colour sequences reduced to a profile,
	// shared so that each session does not keep its own (frame.Colours).
	colours *frame.Colours

	mu        sync.Mutex
	listeners []net.Listener
	live      map[*liveSession]struct{}
	draining  bool
	sessions  sync.WaitGroup // one per registered session
}

// liveSession is a running session the server can end on shutdown.
type liveSession struct {
	cancel          context.CancelCauseFunc
	account, remote string // set once identified, under Server.mu
}

// New builds the server. It loads (or creates) the host key but does not
// listen yet.
func New(cfg Config) (*Server, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	pub, err := parsePublicHost(cfg.PublicHost)
	if err != nil {
		return nil, err
	}
	signer, err := LoadOrCreateHostKey(cfg.HostKeyPath)
	if err != nil {
		return nil, err
	}
	s := &Server{
		cfg:     cfg,
		log:     cfg.Logger,
		limits:  newLimiter(cfg),
		guests:  newGuestNames(),
		live:    make(map[*liveSession]struct{}),
		colours: &frame.Colours{},
	}
	s.connect.pub = pub
	srv, err := wish.NewServer(
		// The host key goes in first: with none, wish writes a fresh key
		// into the working directory.
		func(srv *ssh.Server) error { srv.AddHostKey(signer); return nil },
		wish.WithAddress(cfg.Addr),
		wish.WithPublicKeyAuth(publicKeyHandler),
		wish.WithKeyboardInteractiveAuth(keyboardInteractiveHandler),
		// The connection-level idle timeout is a backstop for connections
		// without sessions and dead clients; sessions track input idleness
		// themselves, which output cannot reset.
		wish.WithIdleTimeout(cfg.IdleTimeout+time.Minute),
		wish.WithMaxTimeout(cfg.MaxSessionTime+time.Minute),
	)
	if err != nil {
		return nil, fmt.Errorf("ssh server: %w", err)
	}
	srv.Version = "Codebreakers"
	srv.HandshakeTimeout = cfg.HandshakeTimeout
	srv.Handler = s.handleSession
	srv.ConnCallback = s.admitConn
	srv.ServerConfigCallback = func(ssh.Context) *gossh.ServerConfig {
		return &gossh.ServerConfig{
			Config: gossh.Config{
				KeyExchanges: []string{gossh.KeyExchangeMLKEM768X25519, gossh.KeyExchangeCurve25519},
				Ciphers:      []string{gossh.CipherChaCha20Poly1305, gossh.CipherAES256GCM, gossh.CipherAES128GCM},
				MACs:         []string{gossh.HMACSHA256ETM, gossh.HMACSHA512ETM},
			},
			MaxAuthTries: 6,
		}
	}
	srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": s.handleSessionChannel}
	srv.RequestHandlers = map[string]ssh.RequestHandler{}
	srv.SubsystemHandlers = map[string]ssh.SubsystemHandler{}
	srv.ConnectionFailedCallback = func(conn net.Conn, err error) {
		s.log.Debug("connection failed", "remote", clientIP(conn.RemoteAddr()), "err", err)
	}
	s.ssh = srv
	if cfg.Cluster != nil {
		if s.nodeSSH, err = s.newNodeServer(signer); err != nil {
			return nil, err
		}
		s.links = newNodeLinks(cfg.Cluster, signer)
	}
	return s, nil
}

// Addr is the configured listen address.
func (s *Server) Addr() string { return s.cfg.Addr }

// ListenAndServe listens on the configured address and serves until
// Shutdown or Close; it then returns ssh.ErrServerClosed.
func (s *Server) ListenAndServe() error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.cfg.Addr, err)
	}
	return s.Serve(ln)
}

// Serve serves connections from ln until Shutdown or Close; it then returns
// ErrServerClosed.
func (s *Server) Serve(ln net.Listener) error {
	s.connect.listening(ln.Addr().String())
	return s.serveOn(s.ssh, ln, "listening")
}

// serveOn serves srv on ln until Shutdown or Close, keeping ln so that
// Shutdown closes it; msg is the line logged once it listens.
func (s *Server) serveOn(srv *ssh.Server, ln net.Listener, msg string) error {
	s.mu.Lock()
	if s.draining {
		s.mu.Unlock()
		_ = ln.Close()
		return ErrServerClosed
	}
	s.listeners = append(s.listeners, ln)
	s.mu.Unlock()
	s.log.Info(msg, "addr", ln.Addr().String())
	// Every goroutine started for a connection descends from this one and
	// inherits its label, so a goroutine profile shows what connections
	// and their sessions hold (connGoroutineLabel).
	var err error
	pprof.Do(context.Background(), pprof.Labels(connGoroutineLabel, "conn"), func(context.Context) {
		err = srv.Serve(ln)
	})
	return err //nolint:wrapcheck // ErrServerClosed must stay comparable
}

// connGoroutineLabel is the profiler label (with the value "conn") of the
// goroutines that serve connections and their sessions.
const connGoroutineLabel = "codebreakers"

// ErrServerClosed is returned by Serve after Shutdown or Close.
var ErrServerClosed = ssh.ErrServerClosed

// Sessions reports how many sessions are open.
func (s *Server) Sessions() int { return s.limits.active() }

// Shutdown stops accepting connections, tells every open session that the
// server is going away, waits until they have ended or ctx expires, then
// closes every connection left.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stopAccepting()
	done := make(chan struct{})
	go func() {
		s.sessions.Wait()
		close(done)
	}()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = fmt.Errorf("shutdown: sessions still open: %w", ctx.Err())
	}
	if cerr := s.ssh.Close(); cerr != nil && !errors.Is(cerr, net.ErrClosed) && err == nil {
		err = fmt.Errorf("shutdown: %w", cerr)
	}
	s.closeNodes()
	return err
}

// Close closes the listeners and every connection at once.
func (s *Server) Close() error {
	s.stopAccepting()
	// The listeners are closed already; only other errors matter.
	s.closeNodes()
	if err := s.ssh.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("close: %w", err)
	}
	return nil
}

// EnforceBans ends every open session whose key or address the ban list
// now bans, telling the player why. The server calls it itself when it
// notices a changed list; call it after BanList.Reload for an immediate
// effect.
func (s *Server) EnforceBans() {
	if s.cfg.Bans == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for ls := range s.live {
		if ls.account == "" {
			continue // not identified yet; it is checked on its way in
		}
		if s.cfg.Bans.BannedKey(ls.account) || s.cfg.Bans.BannedAddr(ls.remote) {
			s.abuse("banned while connected", ls.account, ls.remote, "session ended")
			ls.cancel(errBanned)
		}
	}
}

// stopAccepting closes the listeners and asks every session to end.
func (s *Server) stopAccepting() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.draining = true
	for _, ln := range s.listeners {
		_ = ln.Close()
	}
	s.listeners = nil
	for ls := range s.live {
		ls.cancel(errShutdown)
	}
}

// admitConn meters new connections per address. A refused connection still
// completes the handshake so its first session can print why; a flood is
// dropped at once.
func (s *Server) admitConn(ctx ssh.Context, conn net.Conn) net.Conn {
	ip := clientIP(conn.RemoteAddr())
	key := limitGroup(conn.RemoteAddr(), s.cfg.IPv6Prefix)
	refusal, hardClose := s.limits.admitConn(key)
	s.mu.Lock()
	draining := s.draining
	s.mu.Unlock()
	tc := &trackedConn{Conn: conn, release: func() { s.limits.releaseConn(key) }}
	if hardClose {
		s.abuse("connection flood", "", ip, "connection dropped before the handshake")
		_ = tc.Close()
		return nil
	}
	if g := s.cfg.Bans.Generation(); g != s.bansSeen.Load() {
		// The list changed: sessions open before the ban end now.
		s.bansSeen.Store(g)
		go s.EnforceBans()
	}
	switch {
	case draining:
		refusal = errShutdown
	case s.cfg.Bans.BannedAddr(ip):
		refusal = errBanned
		s.abuse("banned address", "", ip, "connection refused")
	case refusal != nil:
		s.abuse("connection rate", "", ip, "connection refused")
	}
	if refusal != nil {
		tc.hardDeadline = time.Now().Add(refusedConnLifetime)
		_ = tc.SetDeadline(time.Time{})
	}
	ctx.SetValue(connStateKey{}, &connState{id: randomHex(8), ip: ip, key: key, refusal: refusal})
	return tc
}

// trackedConn releases its limiter slot exactly once when closed, and can
// cap its deadline so a refused connection cannot linger.
type trackedConn struct {
	net.Conn
	release      func()
	once         sync.Once
	hardDeadline time.Time

	mu       sync.Mutex
	deadline time.Time // the deadline last set on Conn
	set      bool      // one was set
}

// deadlineSlack is how much later than the deadline set a new one may be
// and still be left unset. The SSH library moves a connection's deadline
// (its idle timeout, IdleTimeout plus a minute here) to now plus the
// timeout on every read and every write, so on every packet; setting a
// socket's deadline resets two runtime timers under the descriptor's
// lock. Keeping one that comes at most this much sooner closes an idle
// connection that much early, which a backstop of minutes does not feel.
const deadlineSlack = time.Second

// Close closes the connection and releases its slot.
func (c *trackedConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}

// SetDeadline sets the deadline, never later than the hard deadline. A
// deadline less than deadlineSlack later than the one set is not set: the
// earlier one stays. An earlier deadline, or none, is always set.
func (c *trackedConn) SetDeadline(t time.Time) error {
	if !c.hardDeadline.IsZero() && (t.IsZero() || t.After(c.hardDeadline)) {
		t = c.hardDeadline
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.set && !c.deadline.IsZero() && !t.IsZero() && !t.Before(c.deadline) && t.Sub(c.deadline) < deadlineSlack {
		return nil
	}
	if err := c.Conn.SetDeadline(t); err != nil {
		return err //nolint:wrapcheck // net.Conn's own error, as the caller expects
	}
	c.deadline, c.set = t, true
	return nil
}

// maxCommandBytes bounds the command line of an exec request. Commands
// are a word and a code or id; the SSH library splits a command line with
// an algorithm quadratic in its length (a 250 KB line cost seconds of
// CPU), so anything longer is refused before it is split.
const maxCommandBytes = 512

// handleSession runs one session from admission to exit status.
func (s *Server) handleSession(sess ssh.Session) {
	st := connStateFrom(sess.Context())
	log := s.log.With("remote", st.ip, "conn", shortID(sess.Context().SessionID()))

	ch, env := s.sessionChannel(sess)
	defer ch.finish()
	// Everything the session writes to its player goes through one writer
	// on the channel, frames included.
	sess = wireSession(sess, ch.raw)
	var asserted *assertion
	if st.node {
		a, clean, err := takeAssertion(env)
		if err != nil {
			log.Warn("node link session refused", "err", err)
			writeLine(sess.Stderr(), err.Error())
			_ = sess.Exit(1)
			return
		}
		asserted, env = &a, clean
		// From here on the session is the player's: their address and
		// connection for limits, bans and logs.
		key := a.ip
		if ip, err := netip.ParseAddr(a.ip); err == nil {
			key = limitGroup(net.TCPAddrFromAddrPort(netip.AddrPortFrom(ip, 0)), s.cfg.IPv6Prefix)
		}
		st = &connState{id: a.conn, ip: a.ip, key: key}
		log = s.log.With("remote", st.ip, "conn", shortID(sess.Context().SessionID()), "via", "node link")
	}
	ctx, cancel := context.WithCancelCause(ch.ctx)
	defer cancel(errEnded)
	ls := &liveSession{cancel: cancel}
	registered := s.register(ls)
	if registered {
		// Deferred first so it runs last: Shutdown waits for the exit status.
		defer s.unregister(ls)
	}
	code := 1
	defer func() {
		if r := recover(); r != nil {
			log.Error("panic in session", "panic", r, "stack", string(debug.Stack()))
			writeLine(sess.Stderr(), "Something went wrong on our side and it has been logged. Sorry!")
			code = 1
		}
		_ = sess.Exit(code)
	}()

	if !registered {
		writeLine(sess.Stderr(), errShutdown.Error())
		return
	}
	if st.refusal != nil {
		writeLine(sess.Stderr(), st.refusal.Error())
		return
	}
	if err := s.limits.acquireSession(st.key); err != nil {
		s.abuse("session limit", "", st.ip, err.Error())
		writeLine(sess.Stderr(), err.Error())
		return
	}
	defer s.limits.releaseSession(st.key)

	id, err := identify(sess)
	if asserted != nil {
		id, err = asserted.id, nil
	}
	if err != nil {
		s.abuse("identity mismatch", "", st.ip, "user "+safeLog(sess.User()))
		writeLine(sess.Stderr(), err.Error())
		return
	}
	if s.cfg.Bans.BannedKey(id.Account) {
		s.abuse("banned key", id.Account, st.ip, "session refused")
		writeLine(sess.Stderr(), errBanned.Error())
		return
	}
	if raw := sess.RawCommand(); raw != "" {
		if warn, err := s.limits.allowExec(st.key); err != nil {
			if warn {
				s.abuse("command rate", id.Account, st.ip, "commands refused for a while")
			}
			writeLine(sess.Stderr(), err.Error())
			return
		}
		if len(raw) > maxCommandBytes {
			s.abuse("long command", id.Account, st.ip, fmt.Sprintf("%d-byte command refused", len(raw)))
			writeLine(sess.Stderr(), "That command is too long. Try `"+s.sshRun(false, "help")+"`.")
			return
		}
	}
	s.mu.Lock()
	ls.account, ls.remote = id.Account, st.ip
	s.mu.Unlock()
	id.ConnID, id.Addr = st.id, st.key
	if id.Guest {
		id.Handle = s.guests.take()
		defer s.guests.release(id.Handle)
	} else if s.cfg.Records != nil {
		if acct, err := s.cfg.Records.Account(id.Account); err == nil {
			id.Handle = acct.Handle
		}
	}

	args := sanitizeArgs(sess.Command())
	_, _, hasPty := sess.Pty()
	started := time.Now()
	log = log.With("account", id.Account, "pty", hasPty)
	log.Info("session start", "user", safeLog(sess.User()), "command", safeLog(argsSummary(args)))

	code = s.dispatch(ctx, cancel, sess, id, args, hasPty, ch.box, env)

	reason := "done"
	if cause := context.Cause(ctx); cause != nil && cause != errEnded && !errors.Is(cause, context.Canceled) {
		reason = cause.Error()
	}
	log.Info("session end", "exit", code, "duration", time.Since(started).Round(time.Millisecond).String(), "reason", reason)
}

func (s *Server) register(ls *liveSession) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.draining {
		return false
	}
	s.live[ls] = struct{}{}
	s.sessions.Add(1)
	return true
}

func (s *Server) unregister(ls *liveSession) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.live, ls)
	s.sessions.Done()
}

// abuse writes one structured line for every tripped limit and refused
// abuser, all with the same message so an operator can grep for them:
// kind says which limit, account and remote who, detail what was done.
func (s *Server) abuse(kind, account, remote, detail string) {
	s.log.Warn("abuse", "kind", kind, "account", account, "remote", remote, "detail", detail)
}

// safeLog makes client-chosen text harmless in an operator's log: quoted
// with escapes and cut short.
func safeLog(v string) string {
	const maxLen = 64
	if len(v) > maxLen {
		v = v[:maxLen]
	}
	q := strconv.QuoteToASCII(v)
	return q[1 : len(q)-1]
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
