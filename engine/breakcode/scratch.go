package breakcode

import "sync"

// scratch lends the large working tables of one computation — a bot's
// decision — and takes them all back at its end, for the next one. They are
// sized by the unseen tiles (2^15 or 2^16 entries: a hand-id table, sets of
// possible hands, subset transforms), about a megabyte a decision, and
// allocated afresh they were most of the bytes a busy server allocated per
// move, which its collector then had to chase. A nil *scratch lends
// nothing: every table is a new allocation, as before.
type scratch struct {
	u64   arena[uint64]
	u32   arena[uint32]
	i32   arena[int32]
	u16   arena[uint16]
	bools arena[bool]
	f64   arena[float64]
	u8    arena[uint8]
	// aid is the one aid solver it lends (see newAidSolverIn).
	aid aidSolver
}

// scratchPool holds the arenas not in use. A pool rather than a field of
// each bot: a megabyte kept per bot would stay live at every table with a
// bot; pooled, there are about as many as decisions under way at once (the
// lobby caps those at half the cores), and the collector may drop idle
// ones. It holds no state a decision could see: every table it lends is
// cleared or overwritten before use.
var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// getScratch takes an arena from the pool; putScratch returns it with
// everything it lent. Nothing lent may be used after putScratch.
func getScratch() *scratch { return scratchPool.Get().(*scratch) }

func putScratch(s *scratch) {
	s.u64.reset()
	s.u32.reset()
	s.i32.reset()
	s.u16.reset()
	s.bools.reset()
	s.f64.reset()
	s.u8.reset()
	scratchPool.Put(s)
}

// arena lends slices of one element type: free ones wait for the next
// take, lent ones until reset.
type arena[T any] struct {
	free, lent [][]T
}

// take lends a slice of n elements, all zero.
func (a *arena[T]) take(n int) []T {
	s := a.takeDirty(n)
	clear(s)
	return s
}

// takeDirty lends a slice of n elements holding whatever an earlier use
// left: only for tables the caller fills entirely before reading.
func (a *arena[T]) takeDirty(n int) []T {
	best := -1
	for i, s := range a.free {
		if cap(s) >= n && (best < 0 || cap(s) < cap(a.free[best])) {
			best = i
		}
	}
	var s []T
	if best >= 0 {
		s = a.free[best][:n]
		a.free[best] = a.free[len(a.free)-1]
		a.free = a.free[:len(a.free)-1]
	} else {
		s = make([]T, n)
	}
	a.lent = append(a.lent, s)
	return s
}

func (a *arena[T]) reset() {
	a.free = append(a.free, a.lent...)
	clear(a.lent)
	a.lent = a.lent[:0]
}

// Lending through a possibly nil *scratch: nil makes a new slice.

func zeroU64(s *scratch, n int) []uint64 {
	if s == nil {
		return make([]uint64, n)
	}
	return s.u64.take(n)
}

func dirtyU64(s *scratch, n int) []uint64 {
	if s == nil {
		return make([]uint64, n)
	}
	return s.u64.takeDirty(n)
}

func zeroU32(s *scratch, n int) []uint32 {
	if s == nil {
		return make([]uint32, n)
	}
	return s.u32.take(n)
}

func dirtyU32(s *scratch, n int) []uint32 {
	if s == nil {
		return make([]uint32, n)
	}
	return s.u32.takeDirty(n)
}

func dirtyI32(s *scratch, n int) []int32 {
	if s == nil {
		return make([]int32, n)
	}
	return s.i32.takeDirty(n)
}

func dirtyU8(s *scratch, n int) []uint8 {
	if s == nil {
		return make([]uint8, n)
	}
	return s.u8.takeDirty(n)
}

func dirtyU16(s *scratch, n int) []uint16 {
	if s == nil {
		return make([]uint16, n)
	}
	return s.u16.takeDirty(n)
}

func zeroF64(s *scratch, n int) []float64 {
	if s == nil {
		return make([]float64, n)
	}
	return s.f64.take(n)
}

func dirtyF64(s *scratch, n int) []float64 {
	if s == nil {
		return make([]float64, n)
	}
	return s.f64.takeDirty(n)
}

func zeroBools(s *scratch, n int) []bool {
	if s == nil {
		return make([]bool, n)
	}
	return s.bools.take(n)
}
