package breakcode

// The subset transforms of the aid and the bot run, past the tile bits
// packed inside a word, over the tile bits that index words: for each such
// bit, the upper half of every block combines with its lower half. Each
// pass streams the whole table (up to 128 KB) through the cache, so two
// bits are taken per pass here: the four quarters of a block of 4·step
// words are combined at once, halving the passes. A last lone bit, when
// the number of word bits is odd, takes a pass of its own.
//
// Sums and differences are worked out on whole words, exactly modulo
// 2^64, so lanes packed in a word may borrow from or carry into each
// other on the way; the result is the same word the pass-per-bit order
// gives (TestWordTransformsMatchBitByBit), and so the same lanes wherever
// that order's lanes end in range.

// addWords is the zeta transform over the word index: every word takes
// the sum of the words whose index is a subset of its own.
func addWords(f []uint64) {
	step := 1
	for ; 4*step <= len(f); step *= 4 {
		for base := 0; base+4*step <= len(f); base += 4 * step {
			q0 := f[base : base+step]
			q1 := f[base+step : base+2*step][:len(q0)]
			q2 := f[base+2*step : base+3*step][:len(q0)]
			q3 := f[base+3*step : base+4*step][:len(q0)]
			for w, a := range q0 {
				b := q1[w] + a
				q1[w] = b
				q3[w] += q2[w] + b
				q2[w] += a
			}
		}
	}
	if 2*step <= len(f) {
		for base := 0; base+2*step <= len(f); base += 2 * step {
			lo := f[base : base+step]
			hi := f[base+step : base+2*step][:len(lo)]
			for w, a := range lo {
				hi[w] += a
			}
		}
	}
}

// subWords inverts addWords (the Möbius transform over the word index).
func subWords(f []uint64) {
	step := 1
	for ; 4*step <= len(f); step *= 4 {
		for base := 0; base+4*step <= len(f); base += 4 * step {
			q0 := f[base : base+step]
			q1 := f[base+step : base+2*step][:len(q0)]
			q2 := f[base+2*step : base+3*step][:len(q0)]
			q3 := f[base+3*step : base+4*step][:len(q0)]
			for w, a := range q0 {
				b, c := q1[w], q2[w]
				q3[w] += a - b - c
				q1[w] = b - a
				q2[w] = c - a
			}
		}
	}
	if 2*step <= len(f) {
		for base := 0; base+2*step <= len(f); base += 2 * step {
			lo := f[base : base+step]
			hi := f[base+step : base+2*step][:len(lo)]
			for w, a := range lo {
				hi[w] -= a
			}
		}
	}
}

// orWords is addWords in the or-and semiring: every word takes the union
// of the words whose index is a subset of its own.
func orWords(f []uint64) {
	step := 1
	for ; 4*step <= len(f); step *= 4 {
		for base := 0; base+4*step <= len(f); base += 4 * step {
			q0 := f[base : base+step]
			q1 := f[base+step : base+2*step][:len(q0)]
			q2 := f[base+2*step : base+3*step][:len(q0)]
			q3 := f[base+3*step : base+4*step][:len(q0)]
			for w, a := range q0 {
				b, c := q1[w], q2[w]
				q3[w] |= a | b | c
				q1[w] = b | a
				q2[w] = c | a
			}
		}
	}
	if 2*step <= len(f) {
		for base := 0; base+2*step <= len(f); base += 2 * step {
			lo := f[base : base+step]
			hi := f[base+step : base+2*step][:len(lo)]
			for w, a := range lo {
				hi[w] |= a
			}
		}
	}
}
