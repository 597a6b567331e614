package server

import (
	"bytes"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// BenchmarkExecHelp measures a whole short SSH visit: handshake,
// authentication with a key, one exec session, exit status.
func BenchmarkExecHelp(b *testing.B) {
	ts := startServer(b, func(c *Config) { c.ConnectionsPerMinute = 1 << 20 })
	key := newKey(b)
	b.ResetTimer()
	for b.Loop() {
		c, err := dialErr(ts.addr, withKey(key))
		if err != nil {
			b.Fatal(err)
		}
		sess, err := c.NewSession()
		if err != nil {
			b.Fatal(err)
		}
		out, err := sess.Output("help")
		if err != nil || !strings.Contains(string(out), "Codebreakers") {
			b.Fatalf("help: %v", err)
		}
		_ = c.Close()
	}
}

// BenchmarkPtySessionStart measures opening an interactive session on an
// existing connection until the first frame arrives, then quitting.
func BenchmarkPtySessionStart(b *testing.B) {
	ts := startServer(b, nil)
	c, err := dialErr(ts.addr, withKey(newKey(b)))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	b.ResetTimer()
	for b.Loop() {
		sess, err := c.NewSession()
		if err != nil {
			b.Fatal(err)
		}
		out := &screen{}
		sess.Stdout = out
		in, _ := sess.StdinPipe()
		if err := sess.RequestPty("xterm", 24, 80, nil); err != nil {
			b.Fatal(err)
		}
		if err := sess.Shell(); err != nil {
			b.Fatal(err)
		}
		for !strings.Contains(out.String(), "READY") {
			time.Sleep(100 * time.Microsecond)
		}
		_, _ = in.Write([]byte("q"))
		_ = sess.Wait()
		<-ts.app.sessions
	}
}

// channelPair opens a session channel between an SSH client and server on
// loopback and returns the server's end; the client's end is drained
// until the test ends.
func channelPair(b *testing.B) gossh.Channel {
	b.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	hostKey := newKey(b)
	got := make(chan gossh.Channel, 1)
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			close(got)
			return
		}
		cfg := &gossh.ServerConfig{NoClientAuth: true}
		cfg.AddHostKey(hostKey)
		sc, chans, reqs, err := gossh.NewServerConn(conn, cfg)
		if err != nil {
			close(got)
			return
		}
		b.Cleanup(func() { _ = sc.Close() })
		go gossh.DiscardRequests(reqs)
		ch, chReqs, err := (<-chans).Accept()
		if err != nil {
			close(got)
			return
		}
		go gossh.DiscardRequests(chReqs)
		got <- ch
	}()
	c, err := gossh.Dial("tcp", ln.Addr().String(), &gossh.ClientConfig{
		User: "bench", HostKeyCallback: gossh.InsecureIgnoreHostKey(),
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close() })
	ch, reqs, err := c.OpenChannel("session", nil)
	if err != nil {
		b.Fatal(err)
	}
	go gossh.DiscardRequests(reqs)
	go func() { _, _ = io.Copy(io.Discard, ch) }()
	server, ok := <-got
	if !ok {
		b.Fatal("the server end did not open")
	}
	return server
}

// BenchmarkFrameOntoChannel writes a one-line-changed frame of a game
// screen (no newline in it, as the renderer's frames have none) onto an
// SSH channel over loopback: through the SSH library's PTY writer as the
// session's Write did, and through the session's own crlfWriter.
func BenchmarkFrameOntoChannel(b *testing.B) {
	frame := []byte("\x1b[7;1H  \x1b[38;2;220;90;90m◆ 7\x1b[m  \x1b[2mseat 3\x1b[m  · ○ ○ ○ ○ ○ ○ ○ ○ ○ ○ ○ ○ ○\x1b[m\x1b[K" +
		"\x1b[24;1H a ask · g guess · c chat · ? help · esc leave\x1b[m\x1b[K\x1b[12;40H\x1b[?25h")
	for _, c := range []struct {
		name string
		wrap func(io.Writer) io.Writer
	}{
		{"ptyWriter", ssh.NewPtyWriter},
		{"crlfWriter", func(w io.Writer) io.Writer { return &crlfWriter{w: w} }},
	} {
		b.Run(c.name, func(b *testing.B) {
			w := c.wrap(channelPair(b))
			b.SetBytes(int64(len(frame)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := w.Write(frame); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLineEndings is the line-ending pass alone, without the channel:
// a frame (nothing to change) and text with newlines.
func BenchmarkLineEndings(b *testing.B) {
	frame := bytes.Repeat([]byte("\x1b[7;1H  \x1b[38;2;220;90;90m◆ 7\x1b[m · ○ ○ ○ ○ ○\x1b[m\x1b[K"), 40)
	text := bytes.Repeat([]byte("  3. ana asks: how many even? 2\n"), 40)
	for _, c := range []struct {
		name string
		wrap func(io.Writer) io.Writer
	}{
		{"ptyWriter", ssh.NewPtyWriter},
		{"crlfWriter", func(w io.Writer) io.Writer { return &crlfWriter{w: w} }},
	} {
		for _, in := range []struct {
			name string
			p    []byte
		}{{"frame", frame}, {"text", text}} {
			b.Run(c.name+"/"+in.name, func(b *testing.B) {
				w := c.wrap(io.Discard)
				b.SetBytes(int64(len(in.p)))
				b.ReportAllocs()
				for b.Loop() {
					_, _ = w.Write(in.p)
				}
			})
		}
	}
}
