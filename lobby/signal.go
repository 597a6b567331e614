package lobby

import "sync/atomic"

// signal is how a table or the matchmaker tells one session that
// something changed, without ever waiting for it: a one-slot coalescing
// channel (Updates) for a session that waits on it, or, once the session
// has set one (notify), a wake function called instead, for a session
// that holds no goroutine waiting.
type signal struct {
	ch   chan struct{}
	wake atomic.Pointer[func()]
}

func newSignal() signal { return signal{ch: make(chan struct{}, 1)} }

// poke signals without blocking. With a wake set, the signal is handed to
// it: checking after the poke means a signal left just before notify is
// never stranded on the channel.
func (s *signal) poke() {
	select {
	case s.ch <- struct{}{}:
	default:
	}
	if w := s.wake.Load(); w != nil {
		s.handOver(*w)
	}
}

// notify sets wake, and hands it a signal already waiting.
func (s *signal) notify(wake func()) {
	s.wake.Store(&wake)
	s.handOver(wake)
}

// call calls the wake, if one is set (an end to tell).
func (s *signal) call() {
	if w := s.wake.Load(); w != nil {
		(*w)()
	}
}

// handOver calls wake if a signal waits on the channel, taking it.
func (s *signal) handOver(wake func()) {
	select {
	case <-s.ch:
		wake()
	default:
	}
}
