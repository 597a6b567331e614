package analysis

// DefaultWork is the work one game's analysis may spend: about a few seconds
// of one core in the worst case the benchmarks found, whatever the game.
const DefaultWork = 4_000_000_000

// Budget bounds the work of one analysis. Work is counted in each game's
// elementary steps (a deal visited, a rule judged on a card), never in time,
// so where a budget cuts an analysis short is the same on every machine and
// on every run. A nil *Budget is unlimited.
type Budget struct {
	left, spent int64
}

// NewBudget returns a budget of work units.
func NewBudget(work int64) *Budget { return &Budget{left: work} }

// Afford reports whether n more units fit in the budget, without spending them.
func (b *Budget) Afford(n int64) bool { return b == nil || n <= b.left }

// Spend takes n units from the budget and reports whether they fitted; once
// it returns false the budget is spent and stays so.
func (b *Budget) Spend(n int64) bool {
	if b == nil {
		return true
	}
	if n > b.left {
		b.spent += b.left
		b.left = 0
		return false
	}
	b.left -= n
	b.spent += n
	return true
}

// Spent is the work taken from the budget so far (0 for a nil budget).
func (b *Budget) Spent() int64 {
	if b == nil {
		return 0
	}
	return b.spent
}

// Left is the work still available (a very large number for a nil budget).
func (b *Budget) Left() int64 {
	if b == nil {
		return 1<<63 - 1
	}
	return b.left
}
