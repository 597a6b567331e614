package breakcode

import (
	"slices"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

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

// poisonedScratch returns a scratch whose arenas hold large tables full
// of nonzero garbage, as if earlier decisions had left them so: a table
// lent dirty that is read before it is written reads garbage.
func poisonedScratch() *scratch {
	s := new(scratch)
	const n = 1 << 17
	for range 4 {
		u64, u32, i32, u16 := make([]uint64, n), make([]uint32, n), make([]int32, n), make([]uint16, n)
		u8, f64 := make([]uint8, n), make([]float64, n)
		for i := range n {
			u64[i], u32[i], i32[i], u16[i] = 0x5a5a5a5a5a5a5a5a, 0x5a5a5a5a, -0x5a5a5a5a, 0x5a5a
			u8[i], f64[i] = 0x5a, 1e9
		}
		s.u64.free = append(s.u64.free, u64)
		s.u32.free = append(s.u32.free, u32)
		s.i32.free = append(s.i32.free, i32)
		s.u16.free = append(s.u16.free, u16)
		s.u8.free = append(s.u8.free, u8)
		s.f64.free = append(s.f64.free, f64)
	}
	return s
}

// TestDecisionIgnoresWhatScratchHeld: the strong bot's figures for every
// question (counted in full, and as bestQuestion prunes them) are the same
// whether its tables are new or lent by a scratch full of garbage, over
// seeded 3- and 4-player positions early and late. The subset counting
// zeroes its counters only as far as the questions it counts need.
func TestDecisionIgnoresWhatScratchHeld(t *testing.T) {
	for n := 3; n <= 4; n++ {
		for _, asks := range []int{0, 1, 2, 3, 5} {
			for seed := range uint64(4) {
				s := askedPosition(t, n, asks, seed)
				v := s.view(engine.SeatViewer(s.toMove))
				var vs []int
				for _, c := range v.FaceUp {
					nums := CardNumbers(c)
					if nums == nil {
						nums = []int{0}
					}
					for _, num := range nums {
						vs = append(vs, variantOf(c, num))
					}
				}
				for _, prune := range []bool{false, true} {
					fresh := newKnowledgeIn(v, nil)
					want := fresh.questionInfos(fresh.belief(), vs, prune)
					dirty := newKnowledgeIn(v, poisonedScratch())
					got := dirty.questionInfos(dirty.belief(), vs, prune)
					if !slices.Equal(got, want) {
						t.Fatalf("%d players, %d asked, seed %d, prune %v: figures %v on a used scratch, %v on new tables",
							n, asks, seed, prune, got, want)
					}
				}
			}
		}
	}
}
