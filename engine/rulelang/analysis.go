package rulelang

// Lookback returns how many previous cards the rule reads (0 to 3).
func (r *Rule) Lookback() int { return r.shape.lookback }

// UsesPosition reports whether the rule reads n, the position in the line.
func (r *Rule) UsesPosition() bool { return r.shape.usesN }

// AttributesUsed returns the names of the attributes the rule reads from any
// card, in the attribute set's order.
func (r *Rule) AttributesUsed() []string {
	var mask uint8
	for _, m := range r.shape.read {
		mask |= m
	}
	return r.as.names(mask)
}

// AttributesOfCard returns the names of the attributes the rule reads from
// the candidate card itself.
func (r *Rule) AttributesOfCard() []string { return r.as.names(r.shape.read[0]) }

func (as *Attributes) names(mask uint8) []string {
	var out []string
	for i := range as.list {
		if mask&(1<<uint(i)) != 0 {
			out = append(out, as.list[i].Name)
		}
	}
	return out
}

// ShareSteps is how many plays ValidShare averages over.
const ShareSteps = 16

// Analysis is what content tests, bots and hints want to know about a rule,
// found by exploring every state its valid lines can reach.
type Analysis struct {
	Lookback     int      // previous cards read, 0 to 3
	UsesPosition bool     // whether n is read
	Attributes   []string // attributes read from any card
	// ValidShare is the average share of the universe that may be played,
	// over ShareSteps plays after the first Lookback cards, along lines where
	// each play is a uniformly random valid card.
	ValidShare float64
	// MinShare and MaxShare bound the share of valid cards over every
	// reachable line at least Lookback cards long.
	MinShare, MaxShare float64
	// CanGetStuck reports whether some valid line admits no card at all;
	// StuckLine is a shortest such line.
	CanGetStuck bool
	StuckLine   []Card
	// Trivial reports that every card is valid after every valid line.
	Trivial bool
	// States is the number of distinct states explored.
	States int
}

// Analyze explores the rule over its attributes' universe.
func (r *Rule) Analyze() (Analysis, error) {
	return r.AnalyzeOver(r.as.universe)
}

// AnalyzeOver is Analyze over a chosen set of cards (such as a deck's ends).
func (r *Rule) AnalyzeOver(univ []Card) (Analysis, error) {
	an := Analysis{
		Lookback:     r.shape.lookback,
		UsesPosition: r.shape.usesN,
		Attributes:   r.AttributesUsed(),
		Trivial:      true,
		MinShare:     1,
	}
	x, err := newExplorer([]*Rule{r}, univ)
	if err != nil {
		return an, err
	}
	type edge struct {
		weight int   // universe cards this candidate stands for
		to     int32 // state reached
	}
	visits := []visit{{st: x.start(), parent: -1}}
	seen := x.newIndex()
	seen.add(visits[0].st, 0)
	var out [][]edge
	var e env
	total := len(univ)
	memo := make([]Truth, len(univ))
	work := 0
	for i := 0; i < len(visits); i++ {
		s := visits[i].st
		if work += len(x.cands); work > maxSteps {
			return an, ErrTooComplex
		}
		x.env(s, &e)
		var edges []edge
		valid := 0
		for j := range memo {
			memo[j] = -1
		}
		for ci, c := range x.cands {
			jc := x.judge[c]
			if memo[jc] < 0 {
				e.cards[0] = x.univ[jc]
				memo[jc] = r.eval(&e)
			}
			if memo[jc] == False {
				an.Trivial = false
				continue
			}
			valid += x.mult[ci]
			t := x.after(s, c)
			j, ok := seen.lookup(t)
			if !ok {
				if len(visits) >= maxStates {
					return an, ErrTooComplex
				}
				j = int32(len(visits))
				seen.add(t, j)
				visits = append(visits, visit{st: t, parent: int32(i), card: c})
			}
			edges = append(edges, edge{weight: x.mult[ci], to: j})
		}
		out = append(out, edges)
		if valid == 0 && !an.CanGetStuck {
			an.CanGetStuck = true
			an.StuckLine = x.line(visits, int32(i))
		}
		if s.n > r.shape.lookback {
			share := float64(valid) / float64(total)
			an.MinShare = min(an.MinShare, share)
			an.MaxShare = max(an.MaxShare, share)
		}
	}
	an.States = len(visits)

	// Follow the distribution of states along random valid lines. Dense
	// slices, walked in order, keep the sums deterministic.
	dist := make([]float64, len(visits))
	next := make([]float64, len(visits))
	dist[0] = 1
	sum, steps := 0.0, 0
	for step := 1; step <= r.shape.lookback+ShareSteps; step++ {
		clear(next)
		alive, share := 0.0, 0.0
		for s, p := range dist {
			if p == 0 {
				continue
			}
			valid := 0
			for _, ed := range out[s] {
				valid += ed.weight
			}
			alive += p
			share += p * float64(valid) / float64(total)
			for _, ed := range out[s] {
				next[ed.to] += p * float64(ed.weight) / float64(valid)
			}
		}
		if alive == 0 {
			break
		}
		if step > r.shape.lookback {
			sum += share / alive
			steps++
		}
		dist, next = next, dist
	}
	if steps > 0 {
		an.ValidShare = sum / float64(steps)
	}
	return an, nil
}
