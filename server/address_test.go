package server

import (
	"net"
	"strings"
	"testing"
)

// TestConnectCommand: the command players are told to run names the host
// and port they really reach, from -public-host and, for what it leaves
// out, the listening address; bad values are refused.
func TestConnectCommand(t *testing.T) {
	cases := []struct{ public, listen, want string }{
		{"", ":2222", "ssh -p 2222 localhost"},
		{"", "0.0.0.0:2222", "ssh -p 2222 localhost"},
		{"", "[::]:2222", "ssh -p 2222 localhost"},
		{"", "127.0.0.1:4321", "ssh -p 4321 127.0.0.1"},
		{"", "10.0.0.5:22", "ssh 10.0.0.5"},
		{"play.example.org", ":2222", "ssh -p 2222 play.example.org"},
		{"play.example.org:22", ":2222", "ssh play.example.org"},
		{"play.example.org:2200", "127.0.0.1:4321", "ssh -p 2200 play.example.org"},
		{"[2001:db8::1]:2200", ":2222", "ssh -p 2200 2001:db8::1"},
		{"203.0.113.7", ":22", "ssh 203.0.113.7"},
	}
	for _, c := range cases {
		pub, err := parsePublicHost(c.public)
		if err != nil {
			t.Errorf("%q: %v", c.public, err)
			continue
		}
		if got := connectCommand(pub, c.listen); got != c.want {
			t.Errorf("public %q listening on %q: %q, want %q", c.public, c.listen, got, c.want)
		}
	}
	for _, bad := range []string{"play example", "host;rm -rf /", "-oProxyCommand=x", "h:0", "h:70000", "h:port", "\x1b[2J", "ünï.example"} {
		if _, err := parsePublicHost(bad); err == nil {
			t.Errorf("PublicHost %q was accepted", bad)
		}
	}
}

// TestHintsNameThisServer: help, the errors that suggest a command and the
// arcade's own hints (Session.SSH) say the real command — the public host
// when one is set, else the address listened on — never a placeholder.
func TestHintsNameThisServer(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.PublicHost = "play.example.org:2200" })
	c := dial(t, ts.addr, withKey(newKey(t)))
	out, _, code := run(t, c, "help")
	if code != 0 || !strings.Contains(out, "ssh -t -p 2200 play.example.org join CODE") ||
		!strings.Contains(out, "  ssh -p 2200 play.example.org history\n") || strings.Contains(out, "HOST") {
		t.Errorf("help with a public host = %q (exit %d)", out, code)
	}
	for _, l := range strings.Split(out, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("help has a line wider than 80 columns: %q", l)
		}
	}
	_, errOut, _ := run(t, c, "join KQ7M4X")
	if !strings.Contains(errOut, "ssh -t -p 2200 play.example.org join KQ7M4X") {
		t.Errorf("join without a terminal = %q", errOut)
	}
	ptySession(t, c, 80, 24)
	if s := nextSession(t, ts.app); s.SSH != "ssh -t -p 2200 play.example.org" {
		t.Errorf("the arcade is told players connect with %q", s.SSH)
	}

	plain := startServer(t, nil)
	_, port, _ := net.SplitHostPort(plain.addr)
	out, _, _ = run(t, dial(t, plain.addr, withKey(newKey(t))), "help")
	if want := "ssh -t -p " + port + " 127.0.0.1 replay ID"; !strings.Contains(out, want) {
		t.Errorf("help without a public host lacks %q:\n%s", want, out)
	}
	if _, err := New(Config{HostKeyPath: t.TempDir() + "/k", App: newTestApp().build, PublicHost: "bad host"}); err == nil {
		t.Error("New accepted a public host with a space")
	}
}
