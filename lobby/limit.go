package lobby

import (
	"strings"
	"time"
)

// window is a sliding-window counter of recent events, used for chat and
// wrong join codes. It is not safe for concurrent use; its owner locks.
type window struct {
	times  []time.Time
	warned bool // the owner already logged that this window is full
}

// prune forgets events older than span before now.
func (w *window) prune(now time.Time, span time.Duration) {
	i := 0
	for i < len(w.times) && now.Sub(w.times[i]) >= span {
		i++
	}
	w.times = append(w.times[:0], w.times[i:]...)
}

// count reports how many events happened within span before now, without
// forgetting older ones (a longer span may still need them).
func (w *window) count(now time.Time, span time.Duration) int {
	n := 0
	for i := len(w.times) - 1; i >= 0 && now.Sub(w.times[i]) < span; i-- {
		n++
	}
	return n
}

// add records an event at now.
func (w *window) add(now time.Time) { w.times = append(w.times, now) }

// rate is one limit: at most Max events per Span.
type rate struct {
	Max  int
	Span time.Duration
}

// limitKeys are the keys an action by id counts against: its account, its
// SSH connection and its address (group). A client without a key gets a
// new guest account for every session, and can open sessions one after
// another on one connection, so a limit counted per account alone is void
// for guests; the connection and the address are what such a client cannot
// renew at will (new connections are metered per address by the server).
// Keys that are unknown (empty, as in tests and tools) are left out.
func limitKeys(id Identity) []string {
	keys := make([]string, 0, 3)
	if id.Account != "" {
		keys = append(keys, "account "+id.Account)
	}
	if id.ConnID != "" {
		keys = append(keys, "conn "+id.ConnID)
	}
	if id.Addr != "" {
		keys = append(keys, "addr "+id.Addr)
	}
	return keys
}

// splitAddr splits limitKeys(id) into the account's and connection's keys
// and the address's, for limits that allow an address more than one
// account (the people behind one address) or count the address alone.
func splitAddr(id Identity) (keys, addr []string) {
	for _, k := range limitKeys(id) {
		if strings.HasPrefix(k, "addr ") {
			addr = append(addr, k)
		} else {
			keys = append(keys, k)
		}
	}
	return keys, addr
}

// keyedLimit meters events per key under one or more rates: an event is
// refused when any of the keys it counts against has used up any rate. Not
// safe for concurrent use; its owner locks (or owns it from one goroutine).
type keyedLimit struct {
	rates  []rate
	m      map[string]*window
	pruned time.Time
}

func newKeyedLimit(rates ...rate) *keyedLimit {
	return &keyedLimit{rates: rates, m: make(map[string]*window)}
}

// longest is the longest span among the rates: older events are useless.
func (k *keyedLimit) longest() time.Duration {
	var d time.Duration
	for _, r := range k.rates {
		d = max(d, r.Span)
	}
	return d
}

// blocked reports the first key that has used up a rate, or "". warn is
// true the first time that key is found blocked in a burst (log it once).
func (k *keyedLimit) blocked(keys []string, now time.Time) (key string, warn bool) {
	span := k.longest()
	for _, key := range keys {
		w := k.m[key]
		if w == nil {
			continue
		}
		w.prune(now, span)
		for _, r := range k.rates {
			if w.count(now, r.Span) >= r.Max {
				warn = !w.warned
				w.warned = true
				return key, warn
			}
		}
		w.warned = false
	}
	return "", false
}

// add records one event against every key.
func (k *keyedLimit) add(keys []string, now time.Time) {
	k.sweep(now)
	for _, key := range keys {
		w := k.m[key]
		if w == nil {
			w = &window{}
			k.m[key] = w
		}
		w.add(now)
	}
}

// sweep drops keys with no recent events, so the map stays as small as the
// set of people currently acting, at most once per longest span.
func (k *keyedLimit) sweep(now time.Time) {
	span := k.longest()
	if len(k.m) < 1024 || now.Sub(k.pruned) < span {
		return
	}
	k.pruned = now
	for key, w := range k.m {
		if w.prune(now, span); len(w.times) == 0 {
			delete(k.m, key)
		}
	}
}
