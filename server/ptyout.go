package server

import (
	"bytes"
	"io"
	"sync"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// wiredSession is an interactive session whose output goes straight to its
// SSH channel through a crlfWriter instead of through the SSH library's
// session.Write. That one looks the session's emulated-PTY flag up in the
// connection's context and runs bytes.ReplaceAll twice, two whole copies,
// on every write; a session's frames are most of what the server writes
// (issue 20's profiles put it at a tenth of a busy server's CPU). The bytes
// the client receives are the same (TestCRLFWriterIsPtyWriter).
//
// Only Write changes: Stderr and the rest are the session's own.
type wiredSession struct {
	ssh.Session
	out *crlfWriter
}

// Write writes p to the session's channel with each bare \n as \r\n.
func (s *wiredSession) Write(p []byte) (int, error) { return s.out.Write(p) }

// wireSession returns the session to write a session's output to: raw is
// the channel the session was accepted as (nil if the channel handler was
// bypassed). When the SSH library emulates a PTY for the session, its
// output is written to raw through a crlfWriter, with the same line
// endings as the library's; otherwise the session is used as it is.
func wireSession(sess ssh.Session, raw gossh.Channel) ssh.Session {
	// session.Write converts exactly when a PTY was requested and the
	// server emulates it (charm.land/ssh session.go), and a session's PTY
	// is settled before its handler runs.
	if _, _, hasPty := sess.Pty(); raw == nil || !hasPty || !sess.EmulatedPty() {
		return sess
	}
	return &wiredSession{Session: sess, out: &crlfWriter{w: raw}}
}

// crlfKeepAbove is the capacity past which the conversion buffer is let go
// after a write rather than kept for the next one.
const crlfKeepAbove = 16 << 10

// crlfWriter writes to w what charm.land/ssh's ptyWriter would: every \n
// not already preceded by \r (within the same write) becomes \r\n. It
// takes one pass, and writes p itself, copying nothing, when there is no
// such \n, which is the case for every frame (the renderer moves the
// cursor instead of writing newlines). Each Write is one write to w, and
// writes are serialised: the channel's packet buffer is not safe for two
// writers at once.
type crlfWriter struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte // the converted bytes, kept for the next write that needs them
}

// Write converts and writes p. Like ptyWriter, it reports at most len(p)
// bytes written.
func (c *crlfWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := p
	if i := bareLF(p, 0); i >= 0 {
		c.buf = appendCRLF(c.buf[:0], p, i)
		out = c.buf
	}
	n, err := c.w.Write(out)
	if cap(c.buf) > crlfKeepAbove {
		c.buf = nil
	}
	return min(n, len(p)), err //nolint:wrapcheck // a writer's error, passed through as ptyWriter does
}

// bareLF is the index of the first \n in p at or after from that does not
// follow a \r, or -1.
func bareLF(p []byte, from int) int {
	for from < len(p) {
		i := bytes.IndexByte(p[from:], '\n')
		if i < 0 {
			return -1
		}
		i += from
		if i == 0 || p[i-1] != '\r' {
			return i
		}
		from = i + 1
	}
	return -1
}

// appendCRLF appends p to dst with a \r before each bare \n; first is the
// index of the first one.
//
// ptyWriter replaces every \n with \r\n, then every \r\r\n with \r\n. The
// first step leaves \n only as the end of a \r\n it wrote, so a \r\r\n
// after it is exactly a \r that came before a \n in p, and the two cannot
// overlap (the pattern ends in \n and starts with \r): the result is p
// with \r inserted before each \n that p did not already precede with \r.
func appendCRLF(dst, p []byte, first int) []byte {
	if need := len(p) + len(p)/16 + 1; cap(dst) < need {
		dst = make([]byte, 0, need)
	}
	j := 0
	for i := first; i >= 0; i = bareLF(p, i+1) {
		dst = append(dst, p[j:i]...)
		dst = append(dst, '\r')
		j = i // the \n goes out with the next run
	}
	return append(dst, p[j:]...)
}
