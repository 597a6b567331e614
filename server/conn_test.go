package server

import (
	"net"
	"slices"
	"testing"
	"time"
)

// deadlineConn records the deadlines set on it.
type deadlineConn struct {
	net.Conn
	set []time.Time
}

func (d *deadlineConn) SetDeadline(t time.Time) error { d.set = append(d.set, t); return nil }

// TestConnDeadlineMovesInSteps: the deadline the SSH library moves on
// every packet is set on the socket only once it moved by deadlineSlack,
// while an earlier deadline, none, or the hard deadline of a refused
// connection always take effect at once.
func TestConnDeadlineMovesInSteps(t *testing.T) {
	raw := &deadlineConn{}
	c := &trackedConn{Conn: raw}
	start := time.Now().Add(10 * time.Minute)
	for i := range 100 { // a hundred packets within half a second
		if err := c.SetDeadline(start.Add(time.Duration(i) * 5 * time.Millisecond)); err != nil {
			t.Fatal(err)
		}
	}
	if len(raw.set) != 1 || !raw.set[0].Equal(start) {
		t.Fatalf("set %v, want only the first deadline", raw.set)
	}
	later := start.Add(deadlineSlack)
	_ = c.SetDeadline(later)
	earlier := start.Add(-time.Millisecond)
	_ = c.SetDeadline(earlier)
	_ = c.SetDeadline(time.Time{})
	_ = c.SetDeadline(earlier)
	want := []time.Time{start, later, earlier, {}, earlier}
	if !slices.EqualFunc(raw.set, want, time.Time.Equal) {
		t.Errorf("set %v, want %v", raw.set, want)
	}

	hard := time.Now().Add(15 * time.Second)
	raw = &deadlineConn{}
	c = &trackedConn{Conn: raw, hardDeadline: hard}
	_ = c.SetDeadline(time.Time{})
	_ = c.SetDeadline(hard.Add(time.Hour))
	_ = c.SetDeadline(hard.Add(-time.Second))
	if want := []time.Time{hard, hard.Add(-time.Second)}; !slices.EqualFunc(raw.set, want, time.Time.Equal) {
		t.Errorf("refused connection: set %v, want %v", raw.set, want)
	}
}
