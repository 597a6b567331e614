package server

import (
	"bytes"
	"io"
	"time"
)

// Bracketed-paste markers. A paste that is cut short by the input limiter
// must still be closed, or the terminal reader would swallow every later key
// into a paste that never ends.
var (
	pasteStart = []byte("\x1b[200~")
	pasteEnd   = []byte("\x1b[201~")
)

// inputLimiter meters one session's input with a token bucket of bytes.
// Input beyond the budget is read from the connection and thrown away, so a
// pasted megabyte costs the server one quick read loop instead of a million
// key messages, and the SSH flow-control window never fills. It is used by
// a single reader goroutine (the program's input loop).
type inputLimiter struct {
	r       io.Reader
	rate    float64 // bytes refilled per second
	burst   float64
	now     func() time.Time
	onFlood func() // called when a flood starts being dropped

	tokens   float64
	updated  time.Time
	inPaste  bool   // the bytes passed so far opened a paste not yet closed
	flooding bool   // dropping; ends once the bucket is half full again
	pending  []byte // a paste-end marker still to hand out
	dropped  int64
}

func newInputLimiter(r io.Reader, perSecond, burst int, onFlood func()) *inputLimiter {
	now := time.Now
	return &inputLimiter{
		r: r, rate: float64(perSecond), burst: float64(burst), now: now, onFlood: onFlood,
		tokens: float64(burst), updated: now(),
	}
}

// Read reads from the session, passes on what the budget allows and drops
// the rest. It only returns with no data on an error.
func (l *inputLimiter) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if len(l.pending) > 0 {
		n := copy(p, l.pending)
		l.pending = l.pending[n:]
		return n, nil
	}
	for {
		n, err := l.r.Read(p)
		l.refill()
		allowed := min(n, int(l.tokens))
		l.tokens -= float64(allowed)
		l.trackPaste(p[:allowed])
		if allowed < n {
			l.dropped += int64(n - allowed)
			if !l.flooding {
				l.flooding = true
				if l.onFlood != nil {
					l.onFlood()
				}
			}
			if l.inPaste {
				l.inPaste = false
				c := copy(p[allowed:], pasteEnd)
				allowed += c
				l.pending = pasteEnd[c:]
			}
		} else if l.flooding && l.tokens >= l.burst/2 {
			l.flooding = false
		}
		if allowed > 0 || err != nil {
			return allowed, err //nolint:wrapcheck // io.EOF must pass through unwrapped
		}
	}
}

// Dropped reports how many bytes were thrown away so far.
func (l *inputLimiter) Dropped() int64 { return l.dropped }

func (l *inputLimiter) refill() {
	now := l.now()
	if elapsed := now.Sub(l.updated); elapsed > 0 {
		l.tokens = min(l.burst, l.tokens+elapsed.Seconds()*l.rate)
		l.updated = now
	}
}

// trackPaste notes whether the bytes passed leave a bracketed paste open.
// A marker split across two reads is missed; the worst case is one stray
// marker, which the terminal reader ignores.
func (l *inputLimiter) trackPaste(b []byte) {
	start, end := bytes.LastIndex(b, pasteStart), bytes.LastIndex(b, pasteEnd)
	switch {
	case start > end:
		l.inPaste = true
	case end > start:
		l.inPaste = false
	}
}
