package breakcode

import "testing"

// TestScratchLendsClearedTables: a table lent again after reset is the
// same memory, cleared by take (takeDirty keeps what was there, for
// callers that overwrite it), and two tables lent at once never share
// memory. The bot's golden games (TestBotMatchesGolden) play with arenas
// reused from decision to decision.
func TestScratchLendsClearedTables(t *testing.T) {
	s := new(scratch)
	a := zeroU64(s, 1024)
	for i := range a {
		a[i] = uint64(i + 1)
	}
	b := zeroU64(s, 512)
	if &a[0] == &b[0] {
		t.Fatal("two tables lent at once share memory")
	}
	s.u64.reset()
	c := zeroU64(s, 1000)
	if &c[0] != &a[0] && &c[0] != &b[0] {
		t.Error("a returned table was not lent again")
	}
	for i, x := range c {
		if x != 0 {
			t.Fatalf("lent table not cleared: [%d] = %d", i, x)
		}
	}
	d := dirtyU64(s, 100)
	if len(d) != 100 {
		t.Fatalf("dirty table of %d, want 100", len(d))
	}
	if z := zeroU64(nil, 8); len(z) != 8 {
		t.Fatal("a nil scratch lends nothing, but must still make the table")
	}
}
