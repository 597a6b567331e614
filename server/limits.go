package server

import (
	"github.com/codebreakers/codebreakers/engine/words"

	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"time"
)

// Refusals shown to the player. They say what happened and what to do.
var (
	errTooManyConnections = errors.New("Too many new connections from your address. Wait a minute and try again.")
	errServerFull         = errors.New("The arcade is full right now. Please try again in a few minutes.")
	errTooManyCommands    = errors.New("Too many commands from your address. Wait a minute and try again.")
)

// limiter counts connections and sessions per client address (group, see
// limitGroup) and in total. New connections and exec commands are metered
// by token buckets per address; concurrent sessions are capped per address
// and globally.
type limiter struct {
	maxSessions      int
	maxSessionsPerIP int
	maxConnsPerIP    int     // connections (with or without sessions) per address
	perMinute        float64 // connection tokens refilled per minute
	burst            float64
	execPerMinute    float64 // exec command tokens refilled per minute (burst the same)
	now              func() time.Time

	mu       sync.Mutex
	sessions int
	clients  map[string]*clientState
	sweepAt  int
}

type clientState struct {
	conns, sessions int
	tokens          float64 // connection tokens
	execTokens      float64
	execWarned      bool // the refusals of this burst of commands were logged
	updated         time.Time
}

func newLimiter(cfg Config) *limiter {
	return &limiter{
		maxSessions:      cfg.MaxSessions,
		maxSessionsPerIP: cfg.MaxSessionsPerIP,
		maxConnsPerIP:    2*cfg.MaxSessionsPerIP + 2,
		perMinute:        float64(cfg.ConnectionsPerMinute),
		burst:            float64(cfg.ConnectionsPerMinute),
		execPerMinute:    float64(cfg.ExecPerMinute),
		now:              time.Now,
		clients:          make(map[string]*clientState),
		sweepAt:          1024,
	}
}

// clientIP is the client's address without the port, as bans and logs
// name it ("unknown" when it cannot be told).
func clientIP(addr net.Addr) string {
	if ip, ok := addrIP(addr); ok {
		return ip.String()
	}
	if addr == nil {
		return "unknown"
	}
	return addr.String()
}

// addrIP extracts the IP of a network address; IPv4 in IPv6 is unmapped.
func addrIP(addr net.Addr) (netip.Addr, bool) {
	var ip netip.Addr
	switch a := addr.(type) {
	case *net.TCPAddr:
		ip, _ = netip.AddrFromSlice(a.IP)
	case nil:
		return ip, false
	default:
		host, _, err := net.SplitHostPort(a.String())
		if err != nil {
			return ip, false
		}
		if ip, err = netip.ParseAddr(host); err != nil {
			return ip, false
		}
	}
	ip = ip.Unmap().WithZone("")
	return ip, ip.IsValid()
}

// limitGroup is the key per-address limits count against: an IPv4 address
// itself, or the IPv6 network of v6Prefix bits around an IPv6 address. One
// IPv6 customer is routinely given a whole /64 (often a /56 or a /48), so
// counting single IPv6 addresses would hand one client 2^64 fresh budgets.
func limitGroup(addr net.Addr, v6Prefix int) string {
	ip, ok := addrIP(addr)
	switch {
	case !ok:
		return clientIP(addr)
	case ip.Is4() || v6Prefix >= 128:
		return ip.String()
	}
	p, err := ip.Prefix(v6Prefix)
	if err != nil {
		return ip.String()
	}
	return p.String()
}

// admitConn counts a new connection from key. It always counts it (call
// releaseConn later either way) and returns the reason it must be refused,
// if any. hardClose is true for a flood, where even a polite refusal costs
// too much: the caller drops the connection without a handshake.
func (l *limiter) admitConn(key string) (refusal error, hardClose bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	c := l.client(key, now)
	c.conns++
	l.refill(c, now)
	switch {
	case c.conns > 2*l.maxConnsPerIP:
		return errTooManyConnections, true
	case c.tokens < 1:
		return errTooManyConnections, false
	case c.conns > l.maxConnsPerIP:
		c.tokens--
		return errTooManyConnections, false
	}
	c.tokens--
	return nil, false
}

// releaseConn undoes admitConn.
func (l *limiter) releaseConn(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c, ok := l.clients[key]; ok && c.conns > 0 {
		c.conns--
	}
}

// acquireSession reserves a session slot for key, or says why not.
func (l *limiter) acquireSession(key string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.client(key, l.now())
	if l.sessions >= l.maxSessions {
		return errServerFull
	}
	if c.sessions >= l.maxSessionsPerIP {
		return fmt.Errorf("You already have %s open from this address. Close one and try again.", words.Count(c.sessions, "session", "sessions"))
	}
	l.sessions++
	c.sessions++
	return nil
}

// allowExec spends one exec-command token of key. It returns
// errTooManyCommands when the bucket is empty; warn is true for the first
// refusal of a burst (log that one only).
func (l *limiter) allowExec(key string) (warn bool, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	c := l.client(key, now)
	l.refill(c, now)
	if c.execTokens < 1 {
		warn = !c.execWarned
		c.execWarned = true
		return warn, errTooManyCommands
	}
	c.execTokens--
	c.execWarned = false
	return false, nil
}

// releaseSession frees a slot taken by acquireSession.
func (l *limiter) releaseSession(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c, ok := l.clients[key]; ok && c.sessions > 0 {
		c.sessions--
		l.sessions--
	}
}

// active reports the number of sessions holding a slot.
func (l *limiter) active() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sessions
}

// client returns key's state, creating it with a full bucket. Now and then
// it forgets addresses with nothing open and a full bucket, so the map stays
// as small as the set of recent clients.
func (l *limiter) client(key string, now time.Time) *clientState {
	c, ok := l.clients[key]
	if ok {
		return c
	}
	if len(l.clients) >= l.sweepAt {
		for k, old := range l.clients {
			l.refill(old, now)
			if old.conns == 0 && old.sessions == 0 && old.tokens >= l.burst && old.execTokens >= l.execPerMinute {
				delete(l.clients, k)
			}
		}
		l.sweepAt = max(1024, 2*len(l.clients))
	}
	c = &clientState{tokens: l.burst, execTokens: l.execPerMinute, updated: now}
	l.clients[key] = c
	return c
}

func (l *limiter) refill(c *clientState, now time.Time) {
	elapsed := now.Sub(c.updated)
	if elapsed <= 0 {
		return
	}
	c.tokens = min(l.burst, c.tokens+elapsed.Minutes()*l.perMinute)
	c.execTokens = min(l.execPerMinute, c.execTokens+elapsed.Minutes()*l.execPerMinute)
	c.updated = now
}
