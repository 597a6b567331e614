package server

import (
	"strings"
	"testing"
	"time"
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
