package server

import (
	"bytes"
	"io"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
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
	// last, when set, is stamped with the time of every read that brought
	// input: only input counts as activity.
	last *atomic.Int64
	// queued, when set (under mu), is called after bytes (or the read
	// error) were queued, from the pump goroutine; it must not block.
	queued func()

	// Owned by the pump goroutine (or by the caller of admit in tests).
	tokens   float64
	updated  time.Time
	inPaste  bool   // the bytes passed so far opened a paste not yet closed
	tail     []byte // the last few bytes passed, to find markers split across reads
	flooding bool   // dropping; ends once the bucket is half full again

	mu      sync.Mutex
	ready   *sync.Cond // broadcast when input (or the read error) is queued
	queue   []byte     // admitted bytes nobody has taken yet (≤ burst + a marker)
	err     error      // the connection's read error, once it came
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

// start starts the pump once, so that input is only consumed once someone
// takes it.
func (l *inputLimiter) start() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.started {
		l.started = true
		go l.pump()
	}
}

// handle returns a new detachable reader of l's input: a session carried
// to another node reads the rest of the player's input through one.
func (l *inputLimiter) handle() *limiterHandle { return &limiterHandle{l: l} }

// limiterHandle is one blocking reader of a limiter's input that can be
// detached.
type limiterHandle struct {
	l        *inputLimiter
	detached bool // guarded by l.mu
}

// Read hands out admitted input, waiting for some, until Detach.
func (h *limiterHandle) Read(p []byte) (int, error) {
	l := h.l
	l.start()
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.queue) == 0 && l.err == nil && !h.detached {
		l.ready.Wait()
	}
	if h.detached {
		return 0, io.EOF
	}
	if len(l.queue) > 0 {
		n := copy(p, l.queue)
		l.queue = l.queue[n:]
		return n, nil
	}
	return 0, l.err
}

// Detach ends h: a Read waiting returns io.EOF, and no later one takes
// input, which waits for whoever reads next.
func (h *limiterHandle) Detach() {
	h.l.mu.Lock()
	h.detached = true
	h.l.ready.Broadcast()
	h.l.mu.Unlock()
}

// take returns the input admitted so far (nil if none) and the read error
// once the connection has failed and everything before it was taken. It
// never waits.
func (l *inputLimiter) take() ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.queue) > 0 {
		b := l.queue
		l.queue = nil
		return b, nil
	}
	return nil, l.err
}

// pumpBufSize is the pump's read buffer. Keys and pastes arrive in small
// reads; a larger paste only takes more of them, and the buffer is held
// for the whole of every idle session.
const pumpBufSize = 1024

// pump reads the connection until it fails and queues what is admitted.
func (l *inputLimiter) pump() {
	buf := make([]byte, pumpBufSize)
	for {
		n, err := l.r.Read(buf)
		if n > 0 && l.last != nil {
			l.last.Store(time.Now().UnixNano())
		}
		passed := l.admit(buf[:n])
		l.mu.Lock()
		if room := int(l.burst) + len(pasteEnd) - len(l.queue); len(passed) > room {
			// The program is behind by a whole burst: drop the rest, and
			// close any paste the kept part may leave open (a stray end
			// marker is ignored by the key scanner).
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
		queued := l.queued
		l.mu.Unlock()
		if (len(passed) > 0 || err != nil) && queued != nil {
			queued()
		}
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

// keyInput hands a session's metered input to its program as key and
// paste messages. It keeps no goroutine while the player is idle: the
// limiter's pump wakes it when input is queued, and a goroutine of its own
// then delivers until nothing is left. An incomplete escape sequence
// waits on a timer for the rest of it.
type keyInput struct {
	lim     *inputLimiter
	send    func(tea.Msg) // blocks until the program takes the message or ends
	escWait time.Duration
	now     func() time.Time

	mu       sync.Mutex
	running  bool // a delivery goroutine is on its way
	detached bool // the program has ended: input is left for the next reader
	pending  []byte
	lastIn   time.Time // when pending last grew
	timer    *time.Timer
	scan     keyScanner // used only by the delivery goroutine
}

// escapeWait is how long an incomplete escape sequence waits for the rest
// of it before it is read as it is (as in Bubble Tea).
const escapeWait = uv.DefaultEscTimeout

// startKeyInput starts pumping lim's input into send.
func startKeyInput(lim *inputLimiter, send func(tea.Msg)) *keyInput {
	k := &keyInput{lim: lim, send: send, escWait: escapeWait, now: time.Now}
	lim.mu.Lock()
	lim.queued = k.wake
	lim.mu.Unlock()
	lim.start()
	k.wake() // input may have been queued before
	return k
}

// wake makes sure a delivery goroutine will look at the input.
func (k *keyInput) wake() {
	k.mu.Lock()
	if k.running {
		// It takes whatever is queued before it decides to leave, under
		// the same lock.
		k.mu.Unlock()
		return
	}
	k.running = true
	k.mu.Unlock()
	go k.deliver()
}

// deliver decodes and sends until no complete input is left, then leaves,
// arming the escape timer if an incomplete sequence remains.
func (k *keyInput) deliver() {
	for {
		msgs, more := k.next()
		for _, m := range msgs {
			k.send(m)
		}
		if !more {
			return
		}
	}
}

// next decodes what has been queued. more is false when the goroutine is
// to leave (running is then cleared).
func (k *keyInput) next() (msgs []tea.Msg, more bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.detached {
		k.running = false
		return nil, false
	}
	now := k.now()
	b, err := k.lim.take()
	if len(b) > 0 {
		k.pending = append(k.pending, b...)
		k.lastIn = now
	}
	expired := err != nil || now.Sub(k.lastIn) >= k.escWait
	n, msgs := k.scan.scan(k.pending, expired)
	k.pending = append(k.pending[:0], k.pending[n:]...)
	if len(k.pending) == 0 && cap(k.pending) > pumpBufSize {
		k.pending = nil // a paste's worth: let it go
	}
	if len(msgs) > 0 {
		return msgs, true
	}
	if len(k.pending) > 0 && !expired {
		wait := k.escWait - now.Sub(k.lastIn)
		if k.timer == nil {
			k.timer = time.AfterFunc(wait, k.wake)
		} else {
			k.timer.Reset(wait)
		}
	}
	k.running = false
	return nil, false
}

// detach stops taking input, once the program has ended: what the
// player types from then on waits in the limiter for whoever reads next
// (a session carried to another node).
func (k *keyInput) detach() {
	k.lim.mu.Lock()
	k.lim.queued = nil
	k.lim.mu.Unlock()
	k.mu.Lock()
	defer k.mu.Unlock()
	k.detached = true
	if k.timer != nil {
		k.timer.Stop()
	}
}
