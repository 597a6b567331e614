package server

import (
	"github.com/codebreakers/codebreakers/engine/words"

	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// Refusals shown to the player. They say what happened and what to do.
var (
	errTooManyConnections = errors.New("Too many new connections from your address. Wait a minute and try again.")
	errServerFull         = errors.New("The arcade is full right now. Please try again in a few minutes.")
)

// limiter counts connections and sessions per client address and in total.
// New connections are metered by a token bucket per address; concurrent
// sessions are capped per address and globally.
type limiter struct {
	maxSessions      int
	maxSessionsPerIP int
	maxConnsPerIP    int     // connections (with or without sessions) per address
	perMinute        float64 // connection tokens refilled per minute
	burst            float64
	now              func() time.Time

	mu       sync.Mutex
	sessions int
	clients  map[string]*clientState
	sweepAt  int
}

type clientState struct {
	conns, sessions int
	tokens          float64
	updated         time.Time
}

func newLimiter(cfg Config) *limiter {
	return &limiter{
		maxSessions:      cfg.MaxSessions,
		maxSessionsPerIP: cfg.MaxSessionsPerIP,
		maxConnsPerIP:    2*cfg.MaxSessionsPerIP + 2,
		perMinute:        float64(cfg.ConnectionsPerMinute),
		burst:            float64(cfg.ConnectionsPerMinute),
		now:              time.Now,
		clients:          make(map[string]*clientState),
		sweepAt:          1024,
	}
}

// clientKey is the address a limit applies to: the IP without the port.
func clientKey(addr net.Addr) string {
	if tcp, ok := addr.(*net.TCPAddr); ok {
		return tcp.IP.String()
	}
	if addr == nil {
		return "unknown"
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return addr.String()
	}
	return host
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
			if old.conns == 0 && old.sessions == 0 && old.tokens >= l.burst {
				delete(l.clients, k)
			}
		}
		l.sweepAt = max(1024, 2*len(l.clients))
	}
	c = &clientState{tokens: l.burst, updated: now}
	l.clients[key] = c
	return c
}

func (l *limiter) refill(c *clientState, now time.Time) {
	elapsed := now.Sub(c.updated)
	if elapsed <= 0 {
		return
	}
	c.tokens = min(l.burst, c.tokens+elapsed.Minutes()*l.perMinute)
	c.updated = now
}
