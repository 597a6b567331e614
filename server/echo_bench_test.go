package server

import (
	"bytes"
	"io"
	"strconv"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// processCPU is the CPU time this process has used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// markerReader reads a session's output until a marker shows up in it.
type markerReader struct {
	r    io.Reader
	buf  []byte
	tail []byte
}

// waitFor reads until marker has been seen.
func (m *markerReader) waitFor(marker []byte) error {
	for {
		if i := bytes.Index(m.tail, marker); i >= 0 {
			m.tail = append(m.tail[:0], m.tail[i+len(marker):]...)
			return nil
		}
		if len(m.tail) > 256 { // keep what could start a marker
			m.tail = append(m.tail[:0], m.tail[len(m.tail)-64:]...)
		}
		n, err := m.r.Read(m.buf)
		if err != nil {
			return err
		}
		m.tail = append(m.tail, m.buf[:n]...)
	}
}

// BenchmarkPtyKeyEcho is one keypress over SSH on loopback until the frame
// it changed has arrived: the client's key, the server's input limiter,
// key scanner and program, the frame renderer, its outbox and the
// session's writer onto the channel, and the client reading the frame.
// cpu-µs/op is this process's CPU time (server and client both) per key,
// which a busy shared machine disturbs less than the wall time.
func BenchmarkPtyKeyEcho(b *testing.B) {
	ts := startServer(b, func(c *Config) {
		c.InputPerSecond, c.InputBurst = 1<<20, 1<<20
		c.FPS = 1 << 20 // every key drawn at once, not at the next frame time
	})
	ts.app.echo = true
	c, err := dialErr(ts.addr, withKey(newKey(b)))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Close()
	out, err := sess.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	in, err := sess.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
		b.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		b.Fatal(err)
	}
	screen := &markerReader{r: out, buf: make([]byte, 32<<10)}
	if err := screen.waitFor([]byte("keys=0;")); err != nil {
		b.Fatal(err)
	}
	keys := 0
	key := []byte("x")
	cpu := processCPU()
	b.ResetTimer()
	for b.Loop() {
		keys++
		if _, err := in.Write(key); err != nil {
			b.Fatal(err)
		}
		if err := screen.waitFor([]byte("keys=" + strconv.Itoa(keys) + ";")); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((processCPU()-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
}
