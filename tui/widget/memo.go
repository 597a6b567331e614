package widget

// DefaultMemo is how many entries a Memo holds when its Max is zero: more
// than a frame's worth of lines and pieces, little memory.
const DefaultMemo = 512

// Memo remembers a board's drawn pieces by their inputs for the frames to
// come. Once it holds Max entries it forgets them all and starts afresh, so
// a long game cannot make it grow without bound. The zero value is ready to
// use. A Memo belongs to one board: it is not safe for concurrent use.
type Memo[K comparable, V any] struct {
	Max int // entries held before forgetting; 0 means DefaultMemo
	m   map[K]V
}

// Get returns the value remembered for k.
func (m *Memo[K, V]) Get(k K) (V, bool) {
	v, ok := m.m[k]
	return v, ok
}

// Put remembers v for k and returns v.
func (m *Memo[K, V]) Put(k K, v V) V {
	limit := m.Max
	if limit <= 0 {
		limit = DefaultMemo
	}
	if m.m == nil || len(m.m) >= limit {
		// No size hint: most memos (a session's title bar, a quiet
		// board) hold a handful of entries for as long as the session
		// lasts, and a map grows on its own where more are needed.
		m.m = make(map[K]V)
	}
	m.m[k] = v
	return v
}

// Len is how many entries are remembered now.
func (m *Memo[K, V]) Len() int { return len(m.m) }

// Widths remembers Width by string: boards measure the same lines on every
// frame, and lines with glyphs outside Width's fast path cost a grapheme
// walk each time.
type Widths struct{ memo Memo[string, int] }

// Of is Width(s), remembered.
func (w *Widths) Of(s string) int {
	if n, ok := w.memo.Get(s); ok {
		return n
	}
	return w.memo.Put(s, Width(s))
}
