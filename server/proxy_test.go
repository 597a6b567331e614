package server

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pires/go-proxyproto"
	gossh "golang.org/x/crypto/ssh"
)

// v1Header is a PROXY protocol v1 line claiming the client is src.
func v1Header(src string) string {
	return "PROXY TCP4 " + src + " 127.0.0.1 40000 2222\r\n"
}

// acceptOne accepts one connection on ln and reports its remote address and
// what could be read from it.
func acceptOne(t *testing.T, ln net.Listener) (addr string, data string, err error) {
	t.Helper()
	c, err := ln.Accept()
	if err != nil {
		t.Fatalf("accept: %v", err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(waitLimit))
	addr = c.RemoteAddr().String()
	buf := make([]byte, 5)
	n, err := io.ReadFull(c, buf)
	return addr, string(buf[:n]), err
}

// send dials ln and writes payload.
func send(t *testing.T, ln net.Listener, payload string) {
	t.Helper()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if _, err := io.WriteString(c, payload); err != nil {
		t.Fatal(err)
	}
}

func proxied(t *testing.T, trusted ...string) net.Listener {
	t.Helper()
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := ProxyListener(raw, trusted, waitLimit)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	return ln
}

func TestProxyListenerBelievesOnlyTrustedPeers(t *testing.T) {
	t.Run("trusted peer with header", func(t *testing.T) {
		ln := proxied(t, "127.0.0.0/8")
		send(t, ln, v1Header("203.0.113.7")+"hello")
		addr, data, err := acceptOne(t, ln)
		if err != nil || data != "hello" {
			t.Fatalf("read %q, %v", data, err)
		}
		if addr != "203.0.113.7:40000" {
			t.Fatalf("remote address %s, want the one from the header", addr)
		}
	})
	t.Run("trusted peer without header", func(t *testing.T) {
		ln := proxied(t, "127.0.0.1")
		send(t, ln, "SSH-2.0-x\r\n")
		_, _, err := acceptOne(t, ln)
		if !errors.Is(err, proxyproto.ErrNoProxyProtocol) {
			t.Fatalf("a trusted peer without a header was served: err = %v", err)
		}
	})
	t.Run("untrusted peer with header is refused", func(t *testing.T) {
		ln := proxied(t, "10.0.0.0/8")
		send(t, ln, v1Header("203.0.113.7")+"hello")
		addr, data, err := acceptOne(t, ln)
		if !errors.Is(err, proxyproto.ErrSuperfluousProxyHeader) || data != "" {
			t.Fatalf("header from an untrusted peer: read %q, err = %v", data, err)
		}
		if strings.HasPrefix(addr, "203.0.113.7") {
			t.Fatalf("an untrusted header was believed: %s", addr)
		}
	})
	t.Run("untrusted peer without header keeps its own address", func(t *testing.T) {
		ln := proxied(t, "10.0.0.0/8")
		send(t, ln, "hello")
		addr, data, err := acceptOne(t, ln)
		if err != nil || data != "hello" || !strings.HasPrefix(addr, "127.0.0.1:") {
			t.Fatalf("direct connection: %s %q %v", addr, data, err)
		}
	})
}

func TestParseTrusted(t *testing.T) {
	got, err := ParseTrusted("10.0.0.0/8, 192.168.1.5 ,fd00::/8")
	if err != nil || strings.Join(got, "|") != "10.0.0.0/8|192.168.1.5|fd00::/8" {
		t.Fatalf("ParseTrusted = %q, %v", got, err)
	}
	if got, err := ParseTrusted(""); err != nil || len(got) != 0 {
		t.Fatalf("empty list: %q, %v", got, err)
	}
	for _, bad := range []string{"10.0.0.0/33", "example.com", "10.0.0"} {
		if _, err := ParseTrusted(bad); err == nil {
			t.Errorf("ParseTrusted(%q) accepted it", bad)
		}
	}
	if _, err := ProxyListener(nil, nil, 0); err == nil {
		t.Error("ProxyListener with no trusted peers should refuse")
	}
}

// lockedBuffer is a log sink safe for the server's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// sshThrough opens an SSH client over a TCP connection that first sends
// prefix (a PROXY header, or nothing).
func sshThrough(addr, prefix string) (*gossh.Client, error) {
	conn, err := net.DialTimeout("tcp", addr, waitLimit)
	if err != nil {
		return nil, err
	}
	_ = conn.SetDeadline(time.Now().Add(waitLimit))
	if _, err := io.WriteString(conn, prefix); err != nil {
		_ = conn.Close()
		return nil, err
	}
	cc, chans, reqs, err := gossh.NewClientConn(conn, addr, &gossh.ClientConfig{
		User:            "player",
		Auth:            []gossh.AuthMethod{asGuest()},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(),
	})
	if err != nil {
		_ = conn.Close()
		return nil, err
	}
	return gossh.NewClient(cc, chans, reqs), nil
}

func TestProxyProtocolAddressReachesTheServer(t *testing.T) {
	var logs lockedBuffer
	srv, err := New(Config{
		HostKeyPath: filepath.Join(t.TempDir(), "host_ed25519"),
		Logger:      slog.New(slog.NewTextHandler(&logs, nil)),
		App:         newTestApp().build,
	})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := ProxyListener(raw, []string{"127.0.0.1/32"}, waitLimit)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		_ = srv.Close()
		<-done
	})
	addr := raw.Addr().String()

	c, err := sshThrough(addr, v1Header("203.0.113.7"))
	if err != nil {
		t.Fatalf("SSH through a trusted PROXY header: %v", err)
	}
	run(t, c, "help")
	_ = c.Close()
	if !strings.Contains(logs.String(), "remote=203.0.113.7") {
		t.Fatalf("the server did not see the header's address; logs:\n%s", logs.String())
	}

	// Without the header, a connection from the trusted balancer is not served.
	if c, err := sshThrough(addr, ""); err == nil {
		_ = c.Close()
		t.Fatal("a headerless connection from the trusted balancer got an SSH session")
	}
}

func TestProxyHeaderFromUntrustedPeerIsRefused(t *testing.T) {
	srv, err := New(Config{
		HostKeyPath: filepath.Join(t.TempDir(), "host_ed25519"),
		Logger:      testLogger(),
		App:         newTestApp().build,
	})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := ProxyListener(raw, []string{"10.0.0.0/8"}, waitLimit)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		_ = srv.Close()
		<-done
	})
	addr := raw.Addr().String()

	if c, err := sshThrough(addr, v1Header("203.0.113.7")); err == nil {
		_ = c.Close()
		t.Fatal("a PROXY header from an untrusted peer was accepted")
	}
	// The same peer connecting directly is served under its own address.
	c, err := sshThrough(addr, "")
	if err != nil {
		t.Fatalf("direct connection from an untrusted peer: %v", err)
	}
	run(t, c, "help")
	_ = c.Close()
}
