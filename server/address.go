// Where players reach this server: the hints the arcade and the commands
// print ("replay it with ssh -t -p 2222 play.example.org replay ID") use the
// host and port players really type, not a placeholder.

package server

import (
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
)

// publicAddr is the host and port players connect to; an empty port is
// the one the server listens on.
type publicAddr struct {
	host, port string
}

// hostName is what a host name may be: letters, digits, dots and dashes,
// as DNS allows, and nothing a shell or terminal would read otherwise.
var hostName = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$`)

// parsePublicHost reads Config.PublicHost: "HOST" or "HOST:PORT" (an IPv6
// address in brackets when it has a port). Empty is the zero publicAddr.
func parsePublicHost(v string) (publicAddr, error) {
	if v == "" {
		return publicAddr{}, nil
	}
	host, port := v, ""
	if h, p, err := net.SplitHostPort(v); err == nil {
		host, port = h, p
	}
	bad := fmt.Errorf("server config: PublicHost %q is not a host name or address, with an optional :PORT (like play.example.org or play.example.org:2222)", v)
	if net.ParseIP(host) == nil && !hostName.MatchString(host) {
		return publicAddr{}, bad
	}
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return publicAddr{}, bad
		}
	}
	return publicAddr{host: host, port: port}, nil
}

// connectCommand is the ssh command that reaches pub, its gaps filled from
// listen, the address the server listens on: no host is the listening
// host (localhost when it listens on every address), no port its port;
// port 22 goes without -p.
func connectCommand(pub publicAddr, listen string) string {
	lhost, lport, err := net.SplitHostPort(listen)
	if err != nil {
		lhost, lport = "", ""
	}
	host, port := pub.host, pub.port
	if host == "" {
		host = lhost
		if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
			host = "localhost"
		}
	}
	if port == "" {
		port = lport
	}
	if port == "" || port == "22" || port == "0" {
		return "ssh " + host
	}
	return "ssh -p " + port + " " + host
}

// connect holds the command that reaches the server: from the configured
// address at first, from the address it really listens on once it serves.
type connect struct {
	pub publicAddr
	cmd atomic.Pointer[string]
}

func (c *connect) listening(addr string) {
	cmd := connectCommand(c.pub, addr)
	c.cmd.Store(&cmd)
}

// SSHCommand is the ssh command line that reaches this server, without
// arguments or -t: "ssh -p 2222 play.example.org". It is made from
// Config.PublicHost and, for what that leaves out, the address the server
// listens on.
func (s *Server) SSHCommand() string {
	if p := s.connect.cmd.Load(); p != nil {
		return *p
	}
	return connectCommand(s.connect.pub, s.cfg.Addr)
}

// sshRun is the command that runs args on this server; tty asks for a
// terminal (-t), which the arcade's commands (join, watch, replay) need.
func (s *Server) sshRun(tty bool, args string) string {
	cmd := s.SSHCommand()
	if tty {
		cmd = "ssh -t" + strings.TrimPrefix(cmd, "ssh")
	}
	if args != "" {
		cmd += " " + args
	}
	return cmd
}
