package whattherule

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/rulelang"
)

// Bot plays one seat from that seat's View alone.
//
// As game master it always uses machine rules drawn from the library (any
// grade for "strong", easy or medium for "easy"), agrees to hints, announces
// one about once a lap when hints are on and gives the engine's graded
// hints. Should it inherit a free rule it cannot judge, it calls the round
// off rather than stall the table.
//
// As a player it keeps the hypotheses (the library plus a family of simple
// one-attribute rules) still consistent with every verdict on the table.
// "strong" plays the card that best mixes the chance it fits (a shorter
// hand) with how much its verdict would split the hypotheses, reveals its hand when none of them accepts any card,
// proposes hints when the round drags on, objects to hints once it is sure,
// and after every right play guesses the simplest consistent hypothesis.
// "easy" plays a random card that some hypothesis accepts (revealing its
// hand when none does) and guesses only when at most two hypotheses are
// left. Neither plays a card every hypothesis rejects (see
// TestBotsDoNotThrowTheGame).
type Bot struct {
	Seat  engine.Seat
	Level string
	Seed  uint64

	hyps []hypothesis // parsed once, on first use
}

var _ engine.Bot = (*Bot)(nil)

// hypothesis is one rule a bot thinks the game master might have.
type hypothesis struct {
	rule  *rulelang.Rule
	grade Grade
}

// Act returns the bot's move for view, or nil when it has nothing to do.
func (b *Bot) Act(view any) ([]byte, error) {
	v, err := engine.ViewAs[View](view)
	if err != nil {
		return nil, fmt.Errorf("whattherule bot: %w", err)
	}
	if !v.Viewer.IsSeat(b.Seat) || v.Phase == Finished {
		return nil, nil
	}
	rng := rand.New(rand.NewPCG(b.Seed, uint64(v.Round)<<32|uint64(len(v.Judgements))<<8|uint64(len(v.Guesses))))
	if v.GM == b.Seat {
		return b.actAsGM(v, rng), nil
	}
	return b.actAsPlayer(v, rng), nil
}

func (b *Bot) actAsGM(v View, rng *rand.Rand) []byte {
	if v.Mode == Free && v.Phase != Setup {
		return CallOffAction() // a bot cannot judge words it did not write
	}
	switch v.Phase {
	case Setup:
		if b.Level == LevelEasy {
			return DrawAction(Grade(1 + rng.IntN(2)))
		}
		return DrawAction(0)
	case JudgeReveal:
		fits := map[int]bool{}
		for _, c := range v.Fits {
			fits[c.ID%Faces] = true
		}
		for _, c := range v.Revealed {
			if fits[c.ID%Faces] {
				return LayAction(c.ID)
			}
		}
	case HintVote:
		if !v.Seats[b.Seat].Voted {
			return VoteAction(true)
		}
	case Turn:
		if v.HintDue && v.CanAnnounce() {
			return AnnounceAction()
		}
	case HintGive:
		return AutoHintAction()
	}
	return nil
}

func (b *Bot) actAsPlayer(v View, rng *rand.Rand) []byte {
	cands := b.consistent(v)
	switch {
	case v.CanVote():
		return VoteAction(len(cands) != 1) // sure of the rule: no help for the others
	case v.CanGuess():
		return b.guess(v, cands)
	case !v.CanPlay():
		return nil
	case len(v.Hand) == 0:
		return RevealAction() // cannot happen in a round that goes on; stay legal anyway
	}
	if b.Level == LevelEasy {
		return b.easyPlay(v, cands, rng)
	}
	if v.CanPropose() && v.Seats[b.Seat].Turns >= 3 && len(cands) > 3 {
		return ProposeHintsAction()
	}
	if len(cands) == 0 {
		return PlayAction(v.Hand[rng.IntN(len(v.Hand))].ID)
	}
	line := cardFaces(v.Line)
	best, bestYes, bestScore := 0, -1, -1.0
	for i, c := range v.Hand {
		yes := 0
		for _, h := range cands {
			if h.rule.Accepts(line, c.Face()) {
				yes++
			}
		}
		// Weigh the chance the card fits (a shorter hand) against what its
		// verdict teaches (the entropy of the split it makes).
		p := float64(yes) / float64(len(cands))
		score := entropy(p) + 0.6*p
		if yes > 0 && score > bestScore+1e-9 {
			best, bestYes, bestScore = i, yes, score
		}
	}
	if bestYes <= 0 {
		return RevealAction()
	}
	return PlayAction(v.Hand[best].ID)
}

// easyPlay is the easy bot's turn: a random card that some rule still
// possible accepts, or, when none does, the hand revealed (a card no
// possible rule accepts costs a draw for nothing). With no rule left in
// mind (the game master's is none it knows) any card goes.
func (b *Bot) easyPlay(v View, cands []hypothesis, rng *rand.Rand) []byte {
	if len(cands) == 0 {
		return PlayAction(v.Hand[rng.IntN(len(v.Hand))].ID)
	}
	line := cardFaces(v.Line)
	var maybe []Card
	for _, c := range v.Hand {
		if slices.ContainsFunc(cands, func(h hypothesis) bool { return h.rule.Accepts(line, c.Face()) }) {
			maybe = append(maybe, c)
		}
	}
	if len(maybe) == 0 {
		return RevealAction()
	}
	return PlayAction(maybe[rng.IntN(len(maybe))].ID)
}

// entropy is the information, in bits, of a yes/no outcome with chance p.
func entropy(p float64) float64 {
	if p <= 0 || p >= 1 {
		return 0
	}
	return -p*math.Log2(p) - (1-p)*math.Log2(1-p)
}

// guess names the simplest consistent hypothesis, or ends the turn.
func (b *Bot) guess(v View, cands []hypothesis) []byte {
	if len(cands) == 0 || b.Level == LevelEasy && len(cands) > 2 {
		return NoGuessAction()
	}
	h := cands[0]
	if v.Mode == Free {
		return GuessAction(h.rule.English())
	}
	return GuessAction(h.rule.String())
}

// consistent returns the hypotheses that agree with every verdict of the
// round and with no wrong guess, simplest first.
func (b *Bot) consistent(v View) []hypothesis {
	if b.hyps == nil {
		b.hyps = hypotheses()
	}
	line := cardFaces(v.Line)
	var out []hypothesis
	for _, h := range b.hyps {
		if agrees(h.rule, line, v.Judgements) && !guessedWrong(h.rule, v) {
			out = append(out, h)
		}
	}
	return out
}

// agrees reports whether rule gives every verdict the table saw.
func agrees(rule *rulelang.Rule, line []rulelang.Card, js []Judgement) bool {
	for _, j := range js {
		if j.Line > len(line) || rule.Accepts(line[:j.Line], j.Card.Face()) != j.Fits {
			return false
		}
	}
	return true
}

// guessedWrong reports whether someone already guessed rule (or, for a
// machine rule, an equivalent one) and was told no.
func guessedWrong(rule *rulelang.Rule, v View) bool {
	for _, g := range v.Guesses {
		if g.Right {
			continue
		}
		if v.Mode == Free {
			if g.Text == rule.English() {
				return true
			}
			continue
		}
		if g.Text == rule.String() {
			return true
		}
		other, err := rulelang.Parse(attrs, g.Text)
		if err != nil {
			continue
		}
		if same, _, err := rulelang.Equivalent(rule, other); err == nil && same {
			return true
		}
	}
	return false
}

func cardFaces(cs []Card) []rulelang.Card {
	out := make([]rulelang.Card, len(cs))
	for i, c := range cs {
		out[i] = c.Face()
	}
	return out
}

// hypotheses is the library plus simple one-attribute rules, simplest first
// (by grade, then by length), without repeated texts.
func hypotheses() []hypothesis {
	texts := map[string]bool{}
	var out []hypothesis
	add := func(text string, g Grade) {
		r := rulelang.MustParse(attrs, text)
		if texts[r.String()] {
			return
		}
		texts[r.String()] = true
		out = append(out, hypothesis{rule: r, grade: g})
	}
	for _, lr := range Library() {
		add(lr.Text, lr.Grade)
	}
	for _, sh := range []string{"circle", "triangle", "square"} {
		add("shape == "+sh, Easy)
		add("shape != "+sh, Easy)
	}
	for k := 2; k <= 6; k++ {
		add(fmt.Sprintf("count <= %d", k-1), Easy)
		add(fmt.Sprintf("count >= %d", k), Easy)
	}
	for k := 1; k <= 6; k++ {
		add(fmt.Sprintf("count != %d", k), Easy)
	}
	add("not filled", Easy)
	for _, a := range []string{"shape", "count", "filled", "color"} {
		add(a+" == prev."+a, Medium)
	}
	slices.SortStableFunc(out, func(a, b hypothesis) int {
		return cmp.Or(cmp.Compare(a.grade, b.grade), cmp.Compare(len(a.rule.String()), len(b.rule.String())),
			strings.Compare(a.rule.String(), b.rule.String()))
	})
	return out
}
