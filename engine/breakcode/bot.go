package breakcode

import (
	"fmt"
	"math/rand/v2"

	"github.com/codebreakers/codebreakers/engine"
)

// Bot plays one seat from that seat's View alone. It keeps no memory
// between moves: everything it knows is rebuilt from the view (own tiles,
// the answers heard, its own guesses), so it is deterministic for a seed and
// a sequence of views.
//
// "strong" keeps every deal of the unseen tiles that fits the answers, each
// physical deal weighing one, and asks the question whose answers carry the
// most expected information (Shannon entropy). With 3 players the joint of
// both opponents' answers is counted exactly over every deal (see
// knowledge.jointAnswers3); with 4 players it is factored into exact
// per-opponent marginals (see knowledge.marginals4). It
// guesses only when a single hand (2 players) or centre set (3–4 players)
// is left in its weighing, or when this is its last chance to win (see
// lastChance), as the spec's "Online adaptations" say. With 2 players a
// wrong guess would cost only the turn, yet it does not gamble on a likely
// hand: while two or more are left and turns remain, it asks.
//
// "easy" asks a random face-up question and guesses only when one hand (or
// centre set) is left, or when it is its last chance.
type Bot struct {
	Seat  engine.Seat
	Level string
	Seed  uint64
}

var _ engine.Bot = (*Bot)(nil)

// Act returns the bot's move for view, or nil when it is not its turn.
func (b *Bot) Act(view any) ([]byte, error) {
	v, err := engine.ViewAs[View](view)
	if err != nil {
		return nil, fmt.Errorf("breakcode bot: %w", err)
	}
	if !v.Viewer.IsSeat(b.Seat) || !v.YourTurn() {
		return nil, nil
	}
	rng := rand.New(rand.NewPCG(b.Seed, uint64(v.Turn)))
	buf := getScratch()
	defer putScratch(buf)
	k := newKnowledgeIn(v, buf)
	bel := k.belief()
	id, _ := bel.best()
	guessBest := func() []byte { return GuessAction(k.table.tiles[id]) }
	if v.Phase == LastChance {
		if id < 0 {
			return PassAction(), nil
		}
		return guessBest(), nil
	}
	if id >= 0 && (bel.target.len() == 1 || lastChance(v)) {
		return guessBest(), nil
	}
	// Every question the seat may ask now, in table order.
	var cards, numbers, vs []int
	for _, c := range v.FaceUp {
		nums := CardNumbers(c)
		if nums == nil {
			nums = []int{0}
		}
		for _, n := range nums {
			cards, numbers = append(cards, c), append(numbers, n)
			vs = append(vs, variantOf(c, n))
		}
	}
	if b.Level != LevelStrong {
		i := rng.IntN(len(cards))
		return AskAction(cards[i], numbers[i]), nil
	}
	best := k.bestQuestion(bel, vs)
	return AskAction(cards[best], numbers[best]), nil
}

// lastChance reports whether asking now cannot lead to a win for the seat
// to move: its question would take the last card (ending the game with no
// winner), or, with 3–4 players, someone already got it and this is the
// seat's last turn of the closing round.
func lastChance(v View) bool {
	if len(v.FaceUp) == 1 && v.DrawPile == 0 {
		return true
	}
	if !v.RoundClosing {
		return false
	}
	pos := func(s engine.Seat) int { return (int(s) - int(v.Starter) + v.Players) % v.Players }
	for s := range v.Players {
		if !v.Seats[s].Out && pos(engine.Seat(s)) > pos(v.ToMove) {
			return false // someone after this seat still plays this round
		}
	}
	return true
}
