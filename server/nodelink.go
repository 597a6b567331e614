package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strings"
	"sync"
	"time"

	"charm.land/ssh"
	"charm.land/wish/v2"
	gossh "golang.org/x/crypto/ssh"
)

// The node link carries sessions between the nodes of a cluster. When a
// player on node A asks for a table that node B holds (or their seat is on
// B), A opens a session to B over SSH, authenticating with its own node key
// (its host key, never a player's), and asserts the player's identity in
// the session's environment; from then on it copies bytes between the
// player's channel and that session, and B runs the player's UI and lobby
// connection exactly as if the player were local.
//
// B listens for node links on a separate address (ServeNodes) that accepts
// only the keys of known nodes (ClusterConfig.Peers): it believes an
// asserted identity only from them, and the public port never reads one.
// One SSH connection from A to B carries every spliced session as its own
// channel, so a splice costs a channel, not a handshake.

// ClusterConfig links this node to the others of a cluster.
type ClusterConfig struct {
	// Node is this node's name.
	Node string
	// Peers are the public keys of the nodes allowed to carry sessions here
	// (and whose host keys this node accepts when it carries sessions to
	// them). A node's key is its SSH host key.
	Peers []gossh.PublicKey
	// Locate returns the node-link address of a node.
	Locate func(node string) (addr string, err error)
	// DialTimeout bounds connecting to another node (default 5s).
	DialTimeout time.Duration
}

// Environment names of an asserted identity on the node link.
const (
	assertAccount = "CODEBREAKERS_NODE_ACCOUNT"
	assertGuest   = "CODEBREAKERS_NODE_GUEST"
	assertIP      = "CODEBREAKERS_NODE_IP"
	assertConn    = "CODEBREAKERS_NODE_CONN"
)

// nodeExt is the Permissions extension naming the peer node a node-link
// connection authenticated as.
const nodeExt = "codebreakers-node"

// assertion is the player a node-link session runs as.
type assertion struct {
	id   Identity
	ip   string
	conn string
}

// newNodeServer builds the node-link SSH server.
func (s *Server) newNodeServer(signer ssh.Signer) (*ssh.Server, error) {
	peers := map[string]bool{}
	for _, k := range s.cfg.Cluster.Peers {
		peers[gossh.FingerprintSHA256(k)] = true
	}
	srv, err := wish.NewServer(
		func(srv *ssh.Server) error { srv.AddHostKey(signer); return nil },
		wish.WithPublicKeyAuth(func(ctx ssh.Context, key ssh.PublicKey) bool {
			fp := gossh.FingerprintSHA256(key)
			if !peers[fp] {
				return false
			}
			perms := ctx.Permissions()
			if perms.Extensions == nil {
				perms.Extensions = make(map[string]string)
			}
			perms.Extensions[nodeExt] = fp
			return true
		}),
	)
	if err != nil {
		return nil, fmt.Errorf("node link server: %w", err)
	}
	srv.Version = "Codebreakers-node"
	srv.HandshakeTimeout = s.cfg.HandshakeTimeout
	srv.Handler = s.handleSession
	srv.ConnCallback = func(ctx ssh.Context, conn net.Conn) net.Conn {
		ip := clientIP(conn.RemoteAddr())
		ctx.SetValue(connStateKey{}, &connState{id: randomHex(8), ip: ip, key: "node:" + ip, node: true})
		return conn
	}
	srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": s.handleSessionChannel}
	srv.RequestHandlers = map[string]ssh.RequestHandler{}
	srv.SubsystemHandlers = map[string]ssh.SubsystemHandler{}
	return srv, nil
}

// ServeNodes serves the node link on ln until Shutdown or Close. It needs
// Config.Cluster.
func (s *Server) ServeNodes(ln net.Listener) error {
	if s.nodeSSH == nil {
		_ = ln.Close()
		return errors.New("node link: no cluster configured")
	}
	return s.serveOn(s.nodeSSH, ln, "node link listening")
}

// takeAssertion reads the player a node-link session runs as from its
// environment and returns the environment without it. Anything malformed
// is refused: a known node that asserts garbage is a bug, not a player.
func takeAssertion(env []string) (assertion, []string, error) {
	var a assertion
	var guest bool
	clean := env[:0:0]
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		switch name {
		case assertAccount:
			a.id.Account = value
		case assertGuest:
			guest = value == "1"
		case assertIP:
			a.ip = value
		case assertConn:
			a.conn = value
		default:
			clean = append(clean, kv)
		}
	}
	acct := a.id.Account
	switch {
	case len(acct) > 128 || strings.ContainsFunc(acct, func(r rune) bool { return r <= ' ' || r > '~' }):
		return a, nil, errors.New("node link: malformed account")
	case guest && strings.HasPrefix(acct, "guest:"):
		a.id.Guest = true
	case !guest && strings.HasPrefix(acct, "SHA256:"):
	default:
		return a, nil, errors.New("node link: no player asserted")
	}
	if _, err := netip.ParseAddr(a.ip); err != nil {
		return a, nil, fmt.Errorf("node link: bad player address %q", a.ip)
	}
	if len(a.conn) > 64 {
		a.conn = a.conn[:64]
	}
	return a, clean, nil
}

// nodeLinks are this node's connections to the others, one per address,
// dialled on first use and again after they drop.
type nodeLinks struct {
	cfg    *ClusterConfig
	signer ssh.Signer
	peers  map[string]bool

	mu      sync.Mutex
	clients map[string]*gossh.Client
}

func newNodeLinks(cfg *ClusterConfig, signer ssh.Signer) *nodeLinks {
	n := &nodeLinks{cfg: cfg, signer: signer, peers: map[string]bool{}, clients: map[string]*gossh.Client{}}
	for _, k := range cfg.Peers {
		n.peers[gossh.FingerprintSHA256(k)] = true
	}
	return n
}

// client returns the link to addr, dialling it when there is none.
func (n *nodeLinks) client(addr string) (*gossh.Client, error) {
	n.mu.Lock()
	c := n.clients[addr]
	n.mu.Unlock()
	if c != nil {
		return c, nil
	}
	timeout := n.cfg.DialTimeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User: n.cfg.Node,
		Auth: []gossh.AuthMethod{gossh.PublicKeys(n.signer)},
		HostKeyCallback: func(_ string, _ net.Addr, key gossh.PublicKey) error {
			if !n.peers[gossh.FingerprintSHA256(key)] {
				return fmt.Errorf("host key %s is not a known node's", gossh.FingerprintSHA256(key))
			}
			return nil
		},
		Timeout: timeout,
	})
	if err != nil {
		return nil, err
	}
	n.mu.Lock()
	if old := n.clients[addr]; old != nil {
		n.mu.Unlock()
		_ = c.Close()
		return old, nil
	}
	n.clients[addr] = c
	n.mu.Unlock()
	go func() { // forget it once it drops
		_ = c.Wait()
		n.mu.Lock()
		if n.clients[addr] == c {
			delete(n.clients, addr)
		}
		n.mu.Unlock()
	}()
	return c, nil
}

// session opens a session channel to addr, redialling once when the link
// it had turns out to be dead.
func (n *nodeLinks) session(addr string) (*gossh.Session, error) {
	for attempt := 0; ; attempt++ {
		c, err := n.client(addr)
		if err != nil {
			return nil, err
		}
		sess, err := c.NewSession()
		if err == nil || attempt > 0 {
			return sess, err
		}
		_ = c.Close()
		n.mu.Lock()
		if n.clients[addr] == c {
			delete(n.clients, addr)
		}
		n.mu.Unlock()
	}
}

// close drops every link.
func (n *nodeLinks) close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for addr, c := range n.clients {
		_ = c.Close()
		delete(n.clients, addr)
	}
}

// handoff is where a program asked its session to go.
type handoff struct {
	node, kind, code string
}

// handoffOf reads a model's request to carry its session to another node.
func handoffOf(model any) (handoff, bool) {
	m, ok := model.(interface {
		Handoff() (node, kind, code string, ok bool)
	})
	if !ok {
		return handoff{}, false
	}
	node, kind, code, ok := m.Handoff()
	return handoff{node: node, kind: kind, code: code}, ok
}

// errNoSplice is what a player hears when a table is on another node and
// this one cannot carry them there.
const errNoSplice = "That table is on another server of this arcade, and this server could not take you there"

// splice carries the session to another node and copies bytes both ways
// until the session there ends, the player leaves, or this server ends
// the session (idle, shutdown). It returns the exit status.
func (s *Server) splice(ctx context.Context, sess ssh.Session, id Identity, h handoff, box *resizeBox,
	in io.Reader, term string, env []string) int {
	st := connStateFrom(sess.Context())
	log := s.log.With("account", id.Account, "node", h.node, "kind", h.kind, "code", h.code)
	fail := func(why string, err error) int {
		log.Warn("splice failed", "why", why, "err", err)
		writeLine(sess, "")
		writeLine(sess, errNoSplice+" ("+why+"). Please try again in a minute.")
		return 1
	}
	if s.links == nil || s.cfg.Cluster.Locate == nil {
		return fail("this server is not linked to the others", nil)
	}
	addr, err := s.cfg.Cluster.Locate(h.node)
	if err != nil {
		return fail("server "+h.node+" cannot be found", err)
	}
	remote, err := s.links.session(addr)
	if err != nil {
		return fail("server "+h.node+" does not answer", err)
	}
	defer remote.Close()
	guest := "0"
	if id.Guest {
		guest = "1"
	}
	for _, kv := range [][2]string{{assertAccount, id.Account}, {assertGuest, guest}, {assertIP, st.ip}, {assertConn, id.ConnID}} {
		if err := remote.Setenv(kv[0], kv[1]); err != nil {
			return fail("server "+h.node+" refused this server", err)
		}
	}
	for _, kv := range env {
		if name, value, ok := strings.Cut(kv, "="); ok && (name == "COLORTERM" || name == "NO_COLOR" || name == "LANG") {
			_ = remote.Setenv(name, value)
		}
	}
	size := box.get()
	if err := remote.RequestPty(term, size.Height, size.Width, gossh.TerminalModes{}); err != nil {
		return fail("server "+h.node+" refused a terminal", err)
	}
	remote.Stdin = in
	remote.Stdout = sess
	remote.Stderr = sess.Stderr()
	cmd := ""
	switch h.kind {
	case "join", "watch":
		cmd = h.kind + " " + h.code
	}
	if cmd == "" {
		err = remote.Shell()
	} else {
		err = remote.Start(cmd)
	}
	if err != nil {
		return fail("server "+h.node+" refused the session", err)
	}
	log.Info("session carried to another node")
	done := make(chan error, 1)
	go func() { done <- remote.Wait() }()
	// Resizes follow the player.
	box.follow(size, func(sz termSize) { _ = remote.WindowChange(sz.Height, sz.Width) })
	defer box.stop()
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = remote.Signal(gossh.SIGHUP)
		_ = remote.Close()
		err = <-done
		if cause := context.Cause(ctx); cause == errIdle || cause == errTooLong || cause == errShutdown || cause == errBanned {
			writeLine(sess, "")
			writeLine(sess, cause.Error())
			return 0
		}
		return 1
	}
	var exit *gossh.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitStatus()
	}
	// The link dropped (the other node died or was cut off).
	log.Warn("node link lost mid-session", "err", err)
	_, _ = io.WriteString(sess, "\x1b[?1049l\x1b[?25h") // the other node cannot restore the screen now
	writeLine(sess, "")
	writeLine(sess, "The connection to server "+h.node+" was lost. Reconnect to carry on: your seat is kept for a while.")
	return 1
}

// closeNodes closes the node-link server and this node's links.
func (s *Server) closeNodes() {
	if s.nodeSSH != nil {
		_ = s.nodeSSH.Close()
	}
	if s.links != nil {
		s.links.close()
	}
}
