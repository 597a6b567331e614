package server

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/pires/go-proxyproto"
)

// DefaultProxyHeaderTimeout bounds how long a connection from a trusted
// load balancer may take to send its PROXY header.
const DefaultProxyHeaderTimeout = 5 * time.Second

// ProxyListener wraps ln to understand the PROXY protocol (v1 and v2) sent
// by a TCP load balancer, so per-address limits, bans and logs see the
// player's address instead of the balancer's.
//
// Only peers in trusted (IP addresses or CIDR ranges, e.g. "10.0.0.5" or
// "10.0.0.0/24") are believed, and they must send a header: a connection
// from them without one is closed. Anyone else may still connect directly
// and is known by their own address, but a header from them is refused and
// the connection closed, because believing it would let any client claim
// any address. The header is read on the connection's own goroutine (when
// its address is first asked for), so a slow sender never holds up Accept.
func ProxyListener(ln net.Listener, trusted []string, headerTimeout time.Duration) (net.Listener, error) {
	if len(trusted) == 0 {
		return nil, errors.New("PROXY protocol: no trusted load-balancer addresses given")
	}
	policy, err := proxyproto.PolicyFromRanges(trusted, proxyproto.REQUIRE, proxyproto.REJECT)
	if err != nil {
		return nil, fmt.Errorf("PROXY protocol: %w", err)
	}
	if headerTimeout <= 0 {
		headerTimeout = DefaultProxyHeaderTimeout
	}
	return &proxyproto.Listener{
		Listener:          ln,
		ConnPolicy:        policy,
		ReadHeaderTimeout: headerTimeout,
	}, nil
}

// ParseTrusted splits a comma- or space-separated list of IP addresses and
// CIDR ranges, checking each, for ProxyListener. An empty list is allowed
// (PROXY protocol off).
func ParseTrusted(list string) ([]string, error) {
	fields := strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' })
	for _, f := range fields {
		if strings.Contains(f, "/") {
			if _, _, err := net.ParseCIDR(f); err != nil {
				return nil, fmt.Errorf("%q is not a CIDR range like 10.0.0.0/24", f)
			}
		} else if net.ParseIP(f) == nil {
			return nil, fmt.Errorf("%q is not an IP address or CIDR range", f)
		}
	}
	return fields, nil
}
