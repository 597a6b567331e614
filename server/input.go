package server

import (
	"bytes"
	"io"
	"sync"
	"time"
	"unicode/utf8"
)

// Bracketed-paste markers. A paste that is cut short by the input limiter
// must still be closed, or the terminal reader would swallow every later key
// into a paste that never ends.
var (
	pasteStart = []byte("\x1b[200~")
	pasteEnd   = []byte("\x1b[201~")
)

// inputLimiter meters one session's input with a token bucket of bytes.
// Its own goroutine reads the connection as fast as the client sends and
// throws away input beyond the budget, so a pasted megabyte costs the server
// one quick read loop instead of a million key messages, and a slow program
// never lets a backlog build up in the SSH window: at most one burst waits
// for the program.
type inputLimiter struct {
	r       io.Reader
	rate    float64 // bytes refilled per second
	burst   float64
	now     func() time.Time
	onFlood func() // called when a flood starts being dropped

	// Owned by the pump goroutine (or by the caller of admit in tests).
	tokens   float64
	updated  time.Time
	inPaste  bool   // the bytes passed so far opened a paste not yet closed
	tail     []byte // the last few bytes passed, to find markers split across reads
	flooding bool   // dropping; ends once the bucket is half full again

	mu      sync.Mutex
	ready   *sync.Cond
	queue   []byte // admitted bytes the program has not read yet (≤ burst + a marker)
	err     error  // the connection's read error, once it came
	dropped int64
	started bool
}

func newInputLimiter(r io.Reader, perSecond, burst int, onFlood func()) *inputLimiter {
	now := time.Now
	l := &inputLimiter{
		r: r, rate: float64(perSecond), burst: float64(burst), now: now, onFlood: onFlood,
		tokens: float64(burst), updated: now(),
	}
	l.ready = sync.NewCond(&l.mu)
	return l
}

// Read hands out admitted input, waiting for some. The pump starts on the
// first Read, so input is only consumed once the program reads.
func (l *inputLimiter) Read(p []byte) (int, error) { return l.read(p, nil) }

// read is Read for a reader that may be detached: once *detached is set
// (under l.mu) it returns io.EOF without taking any input, so input left
// over for the next reader (a session carried to another node) is never
// swallowed by a program that has ended.
func (l *inputLimiter) read(p []byte, detached *bool) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.started {
		l.started = true
		go l.pump()
	}
	for len(l.queue) == 0 && l.err == nil && (detached == nil || !*detached) {
		l.ready.Wait()
	}
	if detached != nil && *detached {
		return 0, io.EOF
	}
	if len(l.queue) > 0 {
		n := copy(p, l.queue)
		l.queue = l.queue[n:]
		return n, nil
	}
	return 0, l.err
}

// handle is one reader of a limiter's input that can be detached.
type limiterHandle struct {
	l        *inputLimiter
	detached bool // guarded by l.mu
}

// handle returns a new detachable reader of l's input.
func (l *inputLimiter) handle() *limiterHandle { return &limiterHandle{l: l} }

// Read reads admitted input until Detach.
func (h *limiterHandle) Read(p []byte) (int, error) { return h.l.read(p, &h.detached) }

// Detach ends h: a Read waiting returns io.EOF, and no later one takes input.
func (h *limiterHandle) Detach() {
	h.l.mu.Lock()
	h.detached = true
	h.l.ready.Broadcast()
	h.l.mu.Unlock()
}

// pump reads the connection until it fails and queues what is admitted.
func (l *inputLimiter) pump() {
	buf := make([]byte, 4096)
	for {
		n, err := l.r.Read(buf)
		passed := l.admit(buf[:n])
		l.mu.Lock()
		if room := int(l.burst) + len(pasteEnd) - len(l.queue); len(passed) > room {
			// The program is behind by a whole burst: drop the rest, and
			// close any paste the kept part may leave open (a stray end
			// marker is ignored by the terminal reader).
			keep := len(cutWhole(passed[:max(0, room-len(pasteEnd))]))
			l.dropped += int64(len(passed) - keep)
			passed = append(passed[:keep], pasteEnd...)
			l.inPaste, l.tail = false, nil
		}
		l.queue = append(l.queue, passed...)
		if err != nil {
			l.err = err
		}
		l.ready.Broadcast()
		l.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// admit applies the budget to one chunk and returns what may pass, with a
// paste-end marker added when a bracketed paste is cut short.
func (l *inputLimiter) admit(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	l.refill()
	allowed := min(len(b), int(l.tokens))
	if allowed < len(b) {
		allowed = len(cutWhole(b[:allowed]))
	}
	l.tokens -= float64(allowed)
	out := append([]byte(nil), b[:allowed]...)
	l.trackPaste(out)
	if allowed < len(b) {
		l.mu.Lock()
		l.dropped += int64(len(b) - allowed)
		l.mu.Unlock()
		if !l.flooding {
			l.flooding = true
			if l.onFlood != nil {
				l.onFlood()
			}
		}
		if l.inPaste {
			l.inPaste = false
			l.tail = nil
			out = append(out, pasteEnd...)
		}
	} else if l.flooding && l.tokens >= l.burst/2 {
		l.flooding = false
	}
	return out
}

// cutWhole trims b so that it does not end inside an escape sequence or a
// UTF-8 rune: half a sequence would reach the program as stray keys (a lone
// ESC is the Esc key, which asks to leave a game).
func cutWhole(b []byte) []byte {
	if i := bytes.LastIndexByte(b, 0x1b); i >= 0 && !escapeComplete(b[i:]) {
		b = b[:i]
	}
	for n := 0; n < utf8.UTFMax && len(b) > 0; n++ {
		r, size := utf8.DecodeLastRune(b)
		if r != utf8.RuneError || size != 1 {
			break
		}
		b = b[:len(b)-1]
	}
	return b
}

// escapeComplete reports whether seq, which starts with ESC, holds a whole
// escape sequence.
func escapeComplete(seq []byte) bool {
	if len(seq) < 2 {
		return false
	}
	switch seq[1] {
	case '[': // CSI: parameters, then a final byte
		for _, c := range seq[2:] {
			if c >= 0x40 && c <= 0x7e {
				return true
			}
		}
		return false
	case 'O': // SS3: one more byte
		return len(seq) >= 3
	case ']', 'P', '_', '^': // string sequences: BEL or ST ends them
		return bytes.IndexByte(seq, 0x07) > 0 || bytes.Contains(seq[2:], []byte("\x1b\\"))
	}
	return true // ESC plus one byte: Alt and a key
}

// Dropped reports how many bytes were thrown away so far.
func (l *inputLimiter) Dropped() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.dropped
}

func (l *inputLimiter) refill() {
	now := l.now()
	if elapsed := now.Sub(l.updated); elapsed > 0 {
		l.tokens = min(l.burst, l.tokens+elapsed.Seconds()*l.rate)
		l.updated = now
	}
}

// trackPaste notes whether the bytes passed leave a bracketed paste open,
// finding markers split across reads too.
func (l *inputLimiter) trackPaste(b []byte) {
	if len(b) == 0 {
		return
	}
	seen := append(l.tail, b...)
	start, end := bytes.LastIndex(seen, pasteStart), bytes.LastIndex(seen, pasteEnd)
	switch {
	case start > end:
		l.inPaste = true
	case end > start:
		l.inPaste = false
	}
	keep := min(len(seen), len(pasteStart)-1)
	l.tail = append(l.tail[:0:0], seen[len(seen)-keep:]...)
}
