package lobby

import (
	"testing"
	"time"
)

func TestReadingTime(t *testing.T) {
	d := 700 * time.Millisecond
	for _, c := range []struct {
		events int
		want   time.Duration
	}{{0, d}, {1, d}, {2, d + d/2}, {3, 2 * d}, {5, 3 * d}, {40, 4 * d}} {
		if got := readingTime(d, c.events); got != c.want {
			t.Errorf("readingTime(%v, %d) = %v, want %v", d, c.events, got, c.want)
		}
	}
	if got := readingTime(0, 9); got != 0 {
		t.Errorf("no delay: %v", got)
	}
}

// TestBotsMoveOneBeatApart: after each move, the next bot waits until the
// move has been on screen long enough to read — at least the bot delay,
// longer for a move that said more — so consecutive bot moves are seen one
// by one.
func TestBotsMoveOneBeatApart(t *testing.T) {
	const delay = 100 * time.Millisecond
	h := testHub(t, newMemStore(), func(c *Config) { c.BotDelay = delay })
	pauses := make(chan time.Duration, 16)
	h.pause = func(d time.Duration, quit <-chan struct{}) bool {
		pauses <- d
		return true
	}
	ann, err := h.QuickPlay(ident("ann"), "secret") // ann, then two bots
	if err != nil {
		t.Fatal(err)
	}
	if err := ann.Act(say(0)); err != nil {
		t.Fatal(err)
	}
	waitView(t, ann, "both bots' moves", func(v TableView) bool { return board(t, v).Moves == 3 })
	for i := range 2 {
		d := <-pauses
		// Each move before said two things (a public line and a private
		// one), so it stays up half a delay longer than the delay.
		if d <= delay+delay/4 || d > 4*delay {
			t.Errorf("bot %d waited %v after a two-line move, want about %v", i+1, d, readingTime(delay, 2))
		}
	}
}
