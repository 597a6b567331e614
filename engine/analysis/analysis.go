// Package analysis is the contract for analysing a finished game: for each
// move that asks or reveals something, what the mover could know at that
// moment (from their seat's view, never the whole deal), how much the move
// was expected to tell them and how much it did, and the best move they had;
// then, per player, a summary in the spirit of a chess engine's review
// (bits gained, accuracy, the move that helped most and the one that cost
// most).
//
// Every game defines the figures the same way, over its own notion of
// "possibilities" (each game's Analyze documents it):
//
//   - Before and After count the distinct possibilities for what the mover
//     must find out, just before the move and once its outcome is known.
//   - Bits is the information the outcome actually gave, the surprisal
//     −log2 P(outcome) under the mover's belief just before the move (every
//     hidden deal, rule or Challenge still consistent with what the mover
//     could see, weighted as the game says). It is never negative.
//   - Expected is the information the chosen move was expected to give
//     before its outcome was known: the mean of Bits over its outcomes,
//     which for a move whose outcome the hidden information alone decides
//     (a question, a Hack card, a card played) is the entropy of its
//     outcomes. Best is the largest Expected among the moves the mover could
//     have made instead (Options). Bits averages to Expected, so luck is
//     Bits − Expected.
//   - A player's accuracy is the sum of Expected over their scored steps
//     divided by the sum of Best: a measure of choices, not of luck, between
//     0 and 1.
//
// Analysis is pure and deterministic: it replays the Record with the game
// engine and reads only seat views, so it gives the same figures live, after
// a restart or from an exported game. Its cost is bounded by a Budget
// counted in work, not time, so a budget cut is deterministic too.
package analysis

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/codebreakers/codebreakers/engine"
)

// Version numbers the meaning of the figures. A stored Report with another
// version is stale: compute it again from the Record.
const Version = 1

// Option is one move the mover could have made, with the information it was
// expected to give.
type Option struct {
	// Label names the move in words: "sum of your tiles", "3b/7w, 3b up".
	Label string `json:"label"`
	// Action is the move as the engine takes it (puzzles apply it).
	Action json.RawMessage `json:"action,omitempty"`
	// Bits is the expected information of the move (the entropy of its
	// outcomes under the mover's belief).
	Bits float64 `json:"bits"`
}

// Step is the analysis of one move of the Record.
type Step struct {
	// Move is the index of the move in Record.Moves (0-based).
	Move int         `json:"move"`
	Seat engine.Seat `json:"seat"`
	// Kind is the game's tag for the move: "ask", "guess", "hack", "play",
	// "discard", "reveal".
	Kind string `json:"kind"`
	// Text says what the move was: "asked: sum of your tiles".
	Text string `json:"text"`
	// Knew says what the mover could know then, in a few words:
	// "212 centre sets possible; notes on Bo (3) and Kai (2)".
	Knew string `json:"knew"`
	// Unit names what Before and After count: "centre sets", "hands",
	// "codes", "Challenges", "library rules".
	Unit   string `json:"unit"`
	Before int    `json:"before"`
	After  int    `json:"after"`
	// Bits is the information the outcome gave (see the package comment).
	Bits float64 `json:"bits"`
	// Expected is the information the chosen move was expected to give
	// (the mean of Bits over its outcomes).
	Expected float64 `json:"expected"`
	// Best is the largest expected information among Options, and BestMove
	// names that move.
	Best     float64 `json:"best"`
	BestMove string  `json:"best_move,omitempty"`
	// Options lists every move weighed, best first (ties in table order).
	Options []Option `json:"options,omitempty"`
	// Scored is true when the step counts toward accuracy: a question-like
	// move whose Best is positive. Guesses are reported but not scored.
	Scored bool `json:"scored"`
	// Chance is, for a guess, the probability the mover's belief gave the
	// thing guessed, and BestChance that of the likeliest candidate.
	Chance     float64 `json:"chance,omitempty"`
	BestChance float64 `json:"best_chance,omitempty"`
	// Gave is the information the move gave away about the mover's own
	// secret to someone who sees only the public table, and LeastGave the
	// least any move open to them would have given (The Coding's Data cards).
	Gave      float64 `json:"gave,omitempty"`
	LeastGave float64 `json:"least_gave,omitempty"`
	// Approx is true when the budget cut an exact count short and Expected
	// and the Options' bits are the bound named in Note.
	Approx bool   `json:"approx,omitempty"`
	Note   string `json:"note,omitempty"`
	// Hidden is replay commentary that uses what the mover could not see
	// (What the Rule?!: where the game master's rule stood). It is the only
	// field built from more than the mover's view.
	Hidden string `json:"hidden,omitempty"`
}

// Loss is how much expected information the step gave up against the best move.
func (s Step) Loss() float64 { return math.Max(0, s.Best-s.Expected) }

// Summary is one player's review of a game.
type Summary struct {
	Seat engine.Seat `json:"seat"`
	Name string      `json:"name"`
	// Moves counts the player's scored steps; Guesses their guesses.
	Moves   int `json:"moves"`
	Guesses int `json:"guesses,omitempty"`
	// Bits sums the information every step of the player gained; Expected
	// and Best sum the scored steps' expected and best figures.
	Bits     float64 `json:"bits"`
	Expected float64 `json:"expected"`
	Best     float64 `json:"best"`
	// Accuracy is Expected / Best (1 when Best is 0; see Moves for whether
	// there was anything to score).
	Accuracy float64 `json:"accuracy"`
	// Gave sums the information the player's moves gave away (The Coding).
	Gave float64 `json:"gave,omitempty"`
	// Helped is the index in Report.Steps of the step that gained the most
	// bits, and Cost the scored step that gave up the most expected bits
	// against the best move (-1 when there is none, or nothing was lost);
	// never the same step (see Standouts).
	Helped int `json:"helped"`
	Cost   int `json:"cost"`
}

// Report is the analysis of one finished game.
type Report struct {
	Game    string `json:"game"`
	Version int    `json:"version"`
	// Steps holds one entry per analysed move, in the order of the Record.
	Steps     []Step    `json:"steps"`
	Summaries []Summary `json:"summaries"`
	// Cut is true when the budget ran out before every move was analysed;
	// the steps analysed so far are kept.
	Cut bool `json:"cut,omitempty"`
	// Work is the budget the analysis spent.
	Work int64 `json:"work"`
}

// StepAt returns the index in r.Steps of the step for Record move i, or -1.
func (r Report) StepAt(move int) int {
	for i, s := range r.Steps {
		if s.Move == move {
			return i
		}
		if s.Move > move {
			break
		}
	}
	return -1
}

// Analyzer is implemented by games that can analyse their finished games.
// Analyze replays rec (a game of that kind) and must read nothing but the
// seat views of the movers; it stops when b is spent.
type Analyzer interface {
	Analyze(rec engine.Record, b *Budget) (Report, error)
}

// Of returns the analyzer of the game rec belongs to, looked up in reg.
func Of(reg *engine.Registry, rec engine.Record) (Analyzer, error) {
	g, ok := reg.Lookup(rec.Game)
	if !ok {
		return nil, fmt.Errorf("analysis: unknown game %q", rec.Game)
	}
	a, ok := g.(Analyzer)
	if !ok {
		return nil, fmt.Errorf("analysis: %s has no analysis", g.Info().Name)
	}
	return a, nil
}

// Analyze analyses rec with the analyzer of its game within a fresh default budget.
func Analyze(reg *engine.Registry, rec engine.Record) (Report, error) {
	a, err := Of(reg, rec)
	if err != nil {
		return Report{}, err
	}
	return a.Analyze(rec, NewBudget(DefaultWork))
}

// Summarize builds each player's summary from the steps. players gives the
// names, by seat.
func Summarize(steps []Step, players []engine.Player) []Summary {
	out := make([]Summary, len(players))
	for i, p := range players {
		out[i] = Summary{Seat: engine.Seat(i), Name: p.Name, Helped: -1, Cost: -1}
	}
	for _, s := range steps {
		if s.Seat < 0 || int(s.Seat) >= len(out) {
			continue
		}
		sum := &out[s.Seat]
		sum.Bits += s.Bits
		sum.Gave += s.Gave
		if s.Kind == "guess" {
			sum.Guesses++
		}
		if !s.Scored {
			continue
		}
		sum.Moves++
		sum.Expected += s.Expected
		sum.Best += s.Best
	}
	for i := range out {
		out[i].Helped, out[i].Cost, _ = Standouts(steps, engine.Seat(i))
		out[i].Accuracy = 1
		if out[i].Best > 0 {
			out[i].Accuracy = math.Min(1, out[i].Expected/out[i].Best)
		}
	}
	return out
}

// Standouts returns the indexes in steps of seat's step that helped most
// (the most bits gained) and the one that cost most (the scored step that
// gave up the most expected bits against the best move), -1 for none.
//
// They are never the same step: calling one move both "helped most" and
// "cost most" tells the player nothing. A step that is both keeps the role
// it stands out in more — helped when the bits it gained are at least the
// expected bits it gave up, cost otherwise — and the other role goes to
// the runner-up. only is true when there was no runner-up: that step was
// the only one of seat's that mattered either way.
func Standouts(steps []Step, seat engine.Seat) (helped, cost int, only bool) {
	helped, cost = mostGained(steps, seat, -1), mostLost(steps, seat, -1)
	if helped < 0 || helped != cost {
		return helped, cost, false
	}
	if s := steps[helped]; s.Bits >= s.Loss() {
		cost = mostLost(steps, seat, helped)
		return helped, cost, cost < 0
	}
	helped = mostGained(steps, seat, cost)
	return helped, cost, helped < 0
}

// mostGained is the index of seat's step, other than skip, that gained the
// most bits (the first among equals), or -1 when none gained any.
func mostGained(steps []Step, seat engine.Seat, skip int) int {
	best := -1
	for i, s := range steps {
		if i != skip && s.Seat == seat && s.Bits > 0 && (best < 0 || s.Bits > steps[best].Bits) {
			best = i
		}
	}
	return best
}

// mostLost is the index of seat's scored step, other than skip, that gave
// up the most expected bits (the first among equals), or -1 when none lost
// any.
func mostLost(steps []Step, seat engine.Seat, skip int) int {
	worst := -1
	for i, s := range steps {
		if i != skip && s.Seat == seat && s.Scored && s.Loss() > 1e-9 && (worst < 0 || s.Loss() > steps[worst].Loss()) {
			worst = i
		}
	}
	return worst
}

// Entropy returns the Shannon entropy, in bits, of a distribution given by
// nonnegative weights (they need not sum to one). Zero weights are skipped.
// Callers that need a figure independent of map order pass the weights in a
// fixed order.
func Entropy(weights []float64) float64 {
	total := 0.0
	for _, w := range weights {
		total += w
	}
	if total <= 0 {
		return 0
	}
	h := 0.0
	for _, w := range weights {
		if w > 0 {
			p := w / total
			h -= p * math.Log2(p)
		}
	}
	return Clean(h)
}

// Binary is the entropy of a yes/no outcome with probability p.
func Binary(p float64) float64 { return Entropy([]float64{p, 1 - p}) }

// Surprisal is the information of an outcome that kept after of before
// equally likely (or equally weighted) possibilities: log2(before/after).
// It is 0 when nothing was ruled out or when either count is not positive.
func Surprisal(before, after float64) float64 {
	if before <= 0 || after <= 0 || after >= before {
		return 0
	}
	return Clean(math.Log2(before / after))
}

// Clean rounds away the float noise below a billionth of a bit, so that
// figures computed by different routes print and compare the same.
func Clean(x float64) float64 {
	r := math.Round(x*1e9) / 1e9
	if r == 0 {
		return 0 // no negative zero
	}
	return r
}

// Rank sorts options best first, keeping the table order among equals, and
// returns the best one (the zero Option when there is none).
func Rank(opts []Option) Option {
	// Insertion sort: a stable sort of a handful of options, no allocation.
	for i := 1; i < len(opts); i++ {
		for j := i; j > 0 && opts[j].Bits > opts[j-1].Bits+1e-12; j-- {
			opts[j], opts[j-1] = opts[j-1], opts[j]
		}
	}
	if len(opts) == 0 {
		return Option{}
	}
	return opts[0]
}
