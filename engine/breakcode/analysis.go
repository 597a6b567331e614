package breakcode

import (
	"fmt"
	"slices"

	"github.com/codebreakers/codebreakers/engine"
)

// QuestionValue is how much one question is expected to tell a seat.
type QuestionValue struct {
	Card   int     `json:"card"`
	Number int     `json:"number,omitempty"` // the named number for cards 18–21
	Bits   float64 `json:"bits"`             // expected information of the answers, in bits
}

// Analysis is what a seat can deduce at one moment, for replays ("possible
// centre sets: 212 → 58, 1.9 bits; best available 2.3 bits") and hints.
type Analysis struct {
	// Possible is, per seat, how many distinct hands it may still hold (0 for the seat itself).
	Possible []int `json:"possible"`
	// Targets is how many distinct answers remain for what the seat must
	// name: the opponent's hand (2 players) or the centre (3–4 players).
	Targets int `json:"targets"`
	// Uncertainty is the entropy of the target, in bits, weighting each
	// possibility by the physical deals that give it.
	Uncertainty float64 `json:"uncertainty"`
	// Questions lists every question the seat could ask now (each number of
	// cards 18–21 separately), most informative first. The bits are those the
	// strong bot uses (see Bot).
	Questions []QuestionValue `json:"questions"`
}

// Analyze works out what the seat viewing v knows. v must be a seat's view
// (not a spectator's or a replay's). It costs about as much as one strong
// bot move.
func Analyze(v View) (Analysis, error) {
	if v.Viewer.Kind != engine.ViewerSeat || v.Hand == nil {
		return Analysis{}, fmt.Errorf("breakcode: analysis needs a seat's view")
	}
	k := newKnowledge(v)
	bel := k.belief()
	counts := k.countsFrom(bel)
	a := Analysis{Possible: counts.hands, Targets: bel.target.len()}
	ws := make([]float64, 0, bel.target.len())
	for _, id := range bel.target.ids {
		ws = append(ws, bel.target.at(id))
	}
	slices.Sort(ws) // a fixed order keeps the float sum deterministic
	a.Uncertainty = entropy(ws)
	var vs []int
	for _, c := range v.FaceUp {
		nums := CardNumbers(c)
		if nums == nil {
			nums = []int{0}
		}
		for _, n := range nums {
			vs = append(vs, variantOf(c, n))
			a.Questions = append(a.Questions, QuestionValue{Card: c, Number: n})
		}
	}
	for i, bits := range k.questionInfo(bel, vs) {
		a.Questions[i].Bits = bits
	}
	slices.SortStableFunc(a.Questions, func(x, y QuestionValue) int {
		switch {
		case x.Bits > y.Bits:
			return -1
		case x.Bits < y.Bits:
			return 1
		}
		return 0
	})
	return a, nil
}
