package breakcode

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// bitByBit is the word-index transform one index bit per pass, as the
// transforms were written before addWords took two at a time: op(hi, lo)
// is what the upper half's word becomes.
func bitByBit(f []uint64, op func(hi, lo uint64) uint64) {
	for step := 1; step < len(f); step <<= 1 {
		for base := 0; base < len(f); base += 2 * step {
			for w := range step {
				f[base+step+w] = op(f[base+step+w], f[base+w])
			}
		}
	}
}

// TestWordTransformsMatchBitByBit holds addWords, subWords and orWords to
// the pass-per-bit transforms word for word, on random words (lanes that
// carry and borrow included) for every table size the aid and the bot use
// and the small ones around the odd last bit; and checks subWords undoes
// addWords.
func TestWordTransformsMatchBitByBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 4))
	for bitsN := 0; bitsN <= 14; bitsN++ {
		n := 1 << bitsN
		for range 3 {
			f := make([]uint64, n)
			for i := range f {
				f[i] = rng.Uint64()
				if rng.IntN(2) == 0 {
					f[i] &= 0x0003_0001_0007_0002 // small lanes, as counts are
				}
			}
			for _, tc := range []struct {
				name string
				fast func([]uint64)
				op   func(hi, lo uint64) uint64
			}{
				{"addWords", addWords, func(hi, lo uint64) uint64 { return hi + lo }},
				{"subWords", subWords, func(hi, lo uint64) uint64 { return hi - lo }},
				{"orWords", orWords, func(hi, lo uint64) uint64 { return hi | lo }},
			} {
				want, got := slices.Clone(f), slices.Clone(f)
				bitByBit(want, tc.op)
				tc.fast(got)
				if !slices.Equal(got, want) {
					t.Fatalf("%s over %d words differs from the pass-per-bit transform", tc.name, n)
				}
			}
			g := slices.Clone(f)
			addWords(g)
			subWords(g)
			if !slices.Equal(g, f) {
				t.Fatalf("subWords(addWords(f)) over %d words is not f", n)
			}
		}
	}
}
