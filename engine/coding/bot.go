package coding

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/codebreakers/codebreakers/engine"
)

// Bot plays one seat from that seat's View alone. It keeps no memory
// between moves: what it knows is rebuilt from the view (its own code and
// the public facts), so it is deterministic for a seed and a sequence of
// views.
//
// Both levels take Data cards truthfully (the engine allows nothing else).
// "strong" takes the Data card, and shows the card, that tells the others
// least about its own code; sends the Hack card and recipient whose answer
// is least predictable (the most information); decodes or taps as soon as
// one opponent has a single possible code, risks a first wrong decode in
// Counter Cracking when one opponent is down to two, taps on even odds in
// a Speed race of three or more (where waiting for certainty means racing
// everyone who reaches it too), and otherwise votes for more data. "easy" plays random legal hacks and decodes (or taps) only
// when sure. Neither level waits once it knows a code, nor names a code
// the public facts rule out (see TestBotsDoNotThrowTheGame).
//
// When nothing more can be learned (no vote left in the race, no Hack card
// it may send in Counter Cracking) both levels name the likeliest code.
type Bot struct {
	Seat  engine.Seat
	Level string
	Seed  uint64
}

var _ engine.Bot = (*Bot)(nil)

// Act returns the bot's move for view, or nil when it has nothing to do.
func (b *Bot) Act(view any) ([]byte, error) {
	v, err := engine.ViewAs[View](view)
	if err != nil {
		return nil, fmt.Errorf("coding bot: %w", err)
	}
	if !v.Viewer.IsSeat(b.Seat) || !v.YourTurn() || v.Code == nil {
		return nil, nil
	}
	rng := rand.New(rand.NewPCG(b.Seed, uint64(v.Turn)))
	strong := b.Level == LevelStrong
	me := int(b.Seat)
	switch v.Phase {
	case Setup:
		if strong && rng.IntN(2) == 0 {
			return OrderAction(v.Code.X2), nil
		}
		return OrderAction(v.Code.X1), nil
	case RevealOne:
		return RevealAction(b.bestReveal(v, []int{PosLetter, PosX1, PosX2}, strong)), nil
	case RevealX:
		return RevealAction(b.bestReveal(v, []int{PosX1, PosX2}, strong)), nil
	}
	k := newKnowledge(v)
	target, size := fewest(v, k, me)
	switch v.Phase {
	case Answer:
		return b.guess(rng, k, target), nil
	case Race:
		voted := v.Seats[me].Voted
		in := 0
		for _, sv := range v.Seats {
			if !sv.Out {
				in++
			}
		}
		switch {
		case size == 1:
			return TapAction(), nil // a code it knows: say it before anyone else
		case strong && size == 2 && in >= 3:
			// Even odds now beat waiting for certainty that everyone
			// still in reaches at the same moment.
			return TapAction(), nil
		case v.More == MoreNone:
			return TapAction(), nil
		case !voted:
			return VoteAction(), nil
		default:
			return nil, nil
		}
	case Counter:
		if size == 1 || (strong && size == 2 && v.Seats[me].WrongDecodes == 0) {
			return b.guess(rng, k, target), nil
		}
		if v.MayStop {
			return StopAction(), nil
		}
		if len(v.HackLine) == 0 || len(v.Recipients) == 0 {
			return b.guess(rng, k, target), nil
		}
	}
	if v.Phase != Rounds && v.Phase != Counter {
		return nil, nil
	}
	data := -1
	if len(v.Takeable) > 0 {
		if strong {
			data = b.quietestData(v)
		} else {
			data = v.Takeable[rng.IntN(len(v.Takeable))]
		}
	}
	if !strong {
		return PlayAction(data, v.HackLine[rng.IntN(len(v.HackLine))], v.Recipients[rng.IntN(len(v.Recipients))]), nil
	}
	bestInfo, card, to := -1.0, v.HackLine[0], v.Recipients[0]
	for _, r := range v.Recipients {
		for _, h := range v.HackLine {
			if info := hackInfo(Hack(h), k.cands[r]); info > bestInfo+1e-9 {
				bestInfo, card, to = info, h, r
			}
		}
	}
	return PlayAction(data, card, to), nil
}

// fewest finds the opponent still in with the fewest possible codes.
func fewest(v View, k *knowledge, me int) (engine.Seat, int) {
	best, size := engine.System, math.MaxInt
	for i, sv := range v.Seats {
		if i == me || sv.Out {
			continue
		}
		if n := len(k.cands[i]); n > 0 && n < size {
			best, size = engine.Seat(i), n
		}
	}
	return best, size
}

// guess names a random possible code of target (any code if the facts
// somehow leave none).
func (b *Bot) guess(rng *rand.Rand, k *knowledge, target engine.Seat) []byte {
	if target < 0 {
		return DecodeAction(engine.Seat((int(b.Seat)+1)%len(k.cands)), Code{Letter: 0, X1: 0, X2: 1})
	}
	cs := k.cands[target]
	return DecodeAction(target, cs[rng.IntN(len(cs))])
}

// hackInfo is the expected information (bits) of asking h of a seat with
// the given possible codes.
func hackInfo(h HackCard, cands []Code) float64 {
	if len(cands) == 0 {
		return 0
	}
	g := 0
	for _, c := range cands {
		if h.Green(c) {
			g++
		}
	}
	p := float64(g) / float64(len(cands))
	if p == 0 || p == 1 {
		return 0
	}
	return -p*math.Log2(p) - (1-p)*math.Log2(1-p)
}

// ownPublic lists the codes the others cannot yet rule out for the bot.
func (b *Bot) ownPublic(v View) []Code {
	sv := v.Seats[b.Seat]
	for p := range 3 {
		if !sv.Revealed[p] {
			sv.Known[p] = -1
		}
	}
	var excluded uint16
	for _, e := range v.Extras {
		excluded |= 1 << e
	}
	return publicCandidates(&sv, excluded)
}

// quietestData picks the takeable Data card that rules out the fewest of
// the codes the others still think possible for the bot.
func (b *Bot) quietestData(v View) int {
	pub := b.ownPublic(v)
	best, cost := v.Takeable[0], math.MaxInt
	for _, k := range v.Takeable {
		n := 0
		for _, c := range pub {
			if inDataRange(k, c) {
				n++
			}
		}
		if n < cost {
			best, cost = k, n
		}
	}
	return best
}

// bestReveal picks which hidden position to show: for strong, the one that
// leaves the others the most possible codes; otherwise the first hidden.
func (b *Bot) bestReveal(v View, positions []int, strong bool) int {
	sv := v.Seats[b.Seat]
	var hidden []int
	for _, p := range positions {
		if !sv.Revealed[p] {
			hidden = append(hidden, p)
		}
	}
	if len(hidden) == 0 {
		return positions[0]
	}
	if !strong {
		return hidden[0]
	}
	pub := b.ownPublic(v)
	best, most := hidden[0], -1
	for _, p := range hidden {
		n := 0
		for _, c := range pub {
			if c.At(p) == v.Code.At(p) {
				n++
			}
		}
		if n > most {
			best, most = p, n
		}
	}
	return best
}
