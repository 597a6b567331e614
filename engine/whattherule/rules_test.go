package whattherule

import (
	"slices"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// The rulebook's worked example: Caro leads; Bob names the rule after hints
// were taken, holding three cards (2 + 7 = 9); Dina holds two (8), Alan
// five (5); Caro scores as much as the best player (9).
func TestScoreWorkedExample(t *testing.T) {
	const alan, bob, caro, dina = 0, 1, 2, 3
	pts, halved := Score(ScoreInput{GM: caro, Hands: []int{5, 3, 0, 2}, Guesser: bob, Hints: true, MinTurns: 3, CardsPlayed: 14})
	if want := []int{5, 9, 9, 8}; !slices.Equal(pts, want) || halved != nil {
		t.Fatalf("points %v halved %v, want %v", pts, halved, want)
	}
}

func TestScoreCases(t *testing.T) {
	base := ScoreInput{GM: 0, Hands: []int{0, 4, 7, 1}, Guesser: 2, MinTurns: 2, CardsPlayed: 10}
	cases := []struct {
		name   string
		change func(*ScoreInput)
		want   []int
		halved int
	}{
		{"right guess without hints earns 5", func(*ScoreInput) {}, []int{9, 6, 8, 9}, 0},
		{"right guess after hints earns 2", func(in *ScoreInput) { in.Hints = true }, []int{9, 6, 5, 9}, 0},
		{"before everyone had two turns", func(in *ScoreInput) { in.MinTurns = 1 }, []int{4, 6, 8, 9}, 1},
		{"before ten cards were played", func(in *ScoreInput) { in.CardsPlayed = 9 }, []int{4, 6, 8, 9}, 1},
		{"both early cases halve once", func(in *ScoreInput) { in.MinTurns, in.CardsPlayed = 0, 3 }, []int{4, 6, 8, 9}, 2},
		{"never found", func(in *ScoreInput) { in.Guesser = -1 }, []int{4, 6, 3, 9}, 1},
		{"never found, early, still halved once", func(in *ScoreInput) { in.Guesser, in.MinTurns = -1, 0 }, []int{4, 6, 3, 9}, 1},
		{"hints do not matter without a guesser", func(in *ScoreInput) { in.Guesser, in.Hints = -1, true }, []int{4, 6, 3, 9}, 1},
		{"a full hand scores nothing", func(in *ScoreInput) { in.Hands = []int{0, 10, 10, 10}; in.Guesser = -1 }, []int{0, 0, 0, 0}, 1},
		{"the game master in another seat", func(in *ScoreInput) { in.GM = 3; in.Hands = []int{2, 4, 7, 0} }, []int{8, 6, 8, 8}, 0},
		{"over ten cards score below zero, and so may the game master", func(in *ScoreInput) { in.Hands = []int{0, 12, 13, 11}; in.Guesser = -1 }, []int{-1, -2, -3, -1}, 1},
		{"below zero, halved rounding down", func(in *ScoreInput) { in.Hands = []int{0, 13, 14, 15}; in.Guesser = -1 }, []int{-2, -3, -4, -5}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := base
			in.Hands = slices.Clone(base.Hands)
			c.change(&in)
			pts, halved := Score(in)
			if !slices.Equal(pts, c.want) || len(halved) != c.halved {
				t.Fatalf("points %v halved %v, want %v with %d reasons", pts, halved, c.want, c.halved)
			}
		})
	}
}

// started deals a 4-player game and has the game master set a machine rule.
func started(t *testing.T, rule string, opts engine.Options) (*state, engine.Seat, []engine.Seat) {
	t.Helper()
	s := newTest(t, 4, 7, opts)
	gm := s.r.gm
	must(t, s, gm, RuleAction(rule))
	var order []engine.Seat
	for p := s.r.toMove; len(order) < 3; p = s.nextPlayer(p, gm) {
		order = append(order, p)
	}
	if s.phase != Turn || order[0] != engine.Seat((int(gm)+1)%4) {
		t.Fatalf("after the rule: phase %v, first player %d (gm %d)", s.phase, order[0], gm)
	}
	return s, gm, order
}

func TestPlayValidAndInvalidCards(t *testing.T) {
	s, gm, p := started(t, "color == white", nil)
	white := cardID(t, "circle", 3, true, "white", 0)
	black := cardID(t, "square", 2, false, "black", 0)
	black2 := cardID(t, "square", 5, false, "black", 1)
	setHand(t, s, p[0], white, black)
	setHand(t, s, p[1], black2)
	drawn := cardID(t, "triangle", 1, true, "black", 0)
	setTop(t, s, drawn)

	refuse(t, s, p[1], PlayAction(black2))    // not their turn
	refuse(t, s, gm, PlayAction(white))       // the game master does not play
	refuse(t, s, p[0], PlayAction(black2))    // not in hand
	refuse(t, s, p[0], GuessAction("filled")) // no guess before a right play

	evs := must(t, s, p[0], PlayAction(white))
	if !slices.Equal(s.r.line, []int{white}) || s.phase != GuessOffer || s.r.toMove != p[0] {
		t.Fatalf("after a fitting card: line %v phase %v", s.r.line, s.phase)
	}
	if len(s.r.hands[p[0]]) != 1 || !strings.Contains(evs[0].Text, "fits") {
		t.Fatalf("hand %v, events %v", s.r.hands[p[0]], evs)
	}
	refuse(t, s, p[0], PlayAction(black)) // must guess or pass first
	must(t, s, p[0], NoGuessAction())
	if s.phase != Turn || s.r.toMove != p[1] {
		t.Fatalf("turn did not pass: %v to %d", s.phase, s.r.toMove)
	}
	// An invalid card goes below the next free spot, and its player draws one.
	evs = must(t, s, p[1], PlayAction(black2))
	if len(s.r.below) != 2 || !slices.Equal(s.r.below[1], []int{black2}) || len(s.r.below[0]) != 0 {
		t.Fatalf("below %v", s.r.below)
	}
	if !slices.Equal(s.r.hands[p[1]], []int{drawn}) {
		t.Fatalf("drew %v, want %d", s.r.hands[p[1]], drawn)
	}
	if s.r.toMove != p[2] || s.phase != Turn {
		t.Fatal("an invalid play must end the turn")
	}
	private := 0
	for _, e := range evs {
		if len(e.Seats) > 0 {
			private++
			if !slices.Equal(e.Seats, []engine.Seat{p[1]}) || !strings.Contains(e.Text, CardOf(drawn).String()) {
				t.Fatalf("private draw event %+v", e)
			}
		} else if strings.Contains(e.Text, CardOf(drawn).String()) {
			t.Fatalf("public event names the drawn card: %q", e.Text)
		}
	}
	if private != 1 {
		t.Fatalf("want one private draw event, got %d", private)
	}
	if s.r.played != 2 {
		t.Fatalf("played %d", s.r.played)
	}
}

func TestRevealAllWrong(t *testing.T) {
	s, _, p := started(t, "color == white", nil)
	hand := []int{cardID(t, "circle", 1, true, "black", 0), cardID(t, "circle", 2, true, "black", 0), cardID(t, "square", 2, true, "black", 0)}
	setHand(t, s, p[0], hand...)
	top := s.r.deck[:2]
	top = slices.Clone(top)
	deckBefore := len(s.r.deck)
	must(t, s, p[0], RevealAction())
	if !slices.Equal(s.r.hands[p[0]], top) {
		t.Fatalf("drew %v, want the top two %v", s.r.hands[p[0]], top)
	}
	if !slices.Equal(s.r.deck[len(s.r.deck)-3:], hand) || len(s.r.deck) != deckBefore+3-2 {
		t.Fatal("the revealed hand must go under the pile")
	}
	if s.phase != GuessOffer {
		t.Fatalf("a right reveal lets the player guess; phase %v", s.phase)
	}
	if len(s.r.judgements) != 3 || s.r.judgements[0].Fits {
		t.Fatalf("judgements %v", s.r.judgements)
	}
	must(t, s, p[0], GuessAction("color != black")) // equivalent: right
	if len(s.history) != 1 || s.history[0].Reason != EndGuessed || s.history[0].Guesser != p[0] {
		t.Fatalf("history %+v", s.history)
	}
}

func TestRevealOneFits(t *testing.T) {
	s, gm, p := started(t, "color == white", nil)
	fit := cardID(t, "circle", 4, false, "white", 0)
	hand := []int{cardID(t, "circle", 1, true, "black", 0), fit}
	setHand(t, s, p[0], hand...)
	top := s.r.deck[0]
	must(t, s, p[0], RevealAction())
	if !slices.Equal(s.r.line, []int{fit}) || !slices.Equal(s.r.hands[p[0]], []int{hand[0], top}) {
		t.Fatalf("line %v hand %v", s.r.line, s.r.hands[p[0]])
	}
	if s.phase != Turn || s.r.toMove != p[1] {
		t.Fatal("after a wrong reveal the turn passes without a guess")
	}
	// Two fitting cards: the game master chooses, and only a fitting one.
	fit2, fit3 := cardID(t, "square", 4, false, "white", 0), cardID(t, "square", 6, true, "white", 0)
	wrong := cardID(t, "square", 6, true, "black", 0)
	setHand(t, s, p[1], fit2, wrong, fit3)
	must(t, s, p[1], RevealAction())
	if s.phase != JudgeReveal {
		t.Fatalf("phase %v", s.phase)
	}
	refuse(t, s, p[1], LayAction(fit2))
	refuse(t, s, gm, LayAction(wrong))
	refuse(t, s, gm, NoFitAction())
	must(t, s, gm, LayAction(fit3))
	if !slices.Equal(s.r.line, []int{fit, fit3}) || len(s.r.hands[p[1]]) != 3 {
		t.Fatalf("line %v hand %v", s.r.line, s.r.hands[p[1]])
	}
	checkConserved(t, s)
}

func TestGuessByExactEquivalence(t *testing.T) {
	s, _, p := started(t, "shape == circle or shape == triangle", nil)
	setHand(t, s, p[0], cardID(t, "circle", 1, true, "black", 0), cardID(t, "circle", 2, true, "black", 0))
	setHand(t, s, p[1], cardID(t, "triangle", 1, true, "black", 0), cardID(t, "circle", 3, true, "black", 0))
	must(t, s, p[0], PlayAction(s.r.hands[p[0]][0]))
	msg := refuse(t, s, p[0], GuessAction("shape =="))
	if !strings.Contains(msg, "column") {
		t.Fatalf("a syntax error should point at a column: %q", msg)
	}
	must(t, s, p[0], GuessAction("shape == circle")) // incomplete: wrong
	if len(s.history) != 0 || s.r.guesses[0].Right || s.r.toMove != p[1] {
		t.Fatalf("an incomplete guess must be wrong: %+v", s.r.guesses)
	}
	must(t, s, p[1], PlayAction(s.r.hands[p[1]][0]))
	must(t, s, p[1], GuessAction("shape != square"))
	if len(s.history) != 1 || s.history[0].Guesser != p[1] {
		t.Fatalf("an equivalent guess must be right: %+v", s.history)
	}
}

func TestRoundEndsWhenAHandEmpties(t *testing.T) {
	s, _, p := started(t, "color == white", nil)
	setHand(t, s, p[0], cardID(t, "circle", 1, true, "white", 0))
	must(t, s, p[0], PlayAction(s.r.hands[p[0]][0]))
	if len(s.history) != 0 {
		t.Fatal("the round ends at the end of the turn, after the chance to guess")
	}
	must(t, s, p[0], NoGuessAction())
	if len(s.history) != 1 || s.history[0].Reason != EndHandEmpty {
		t.Fatalf("history %+v", s.history)
	}
}

func TestRoundEndsWhenThePileRunsOut(t *testing.T) {
	s, gm, p := started(t, "color == white", nil)
	black := cardID(t, "circle", 1, true, "black", 0)
	setHand(t, s, p[0], black, cardID(t, "circle", 2, true, "black", 0))
	// Leave one card in the pile: the invalid play draws it.
	for len(s.r.deck) > 1 {
		s.r.line = append(s.r.line, s.r.deck[0])
		s.r.below = append(s.r.below, nil)
		s.r.deck = s.r.deck[1:]
	}
	must(t, s, p[0], PlayAction(black))
	if len(s.history) != 1 || s.history[0].Reason != EndDeckEmpty {
		t.Fatalf("history %+v", s.history)
	}
	sum := s.history[0]
	if len(sum.Halved) != 1 || sum.Points[gm] != max(sum.Points[p[1]], sum.Points[p[2]], sum.Points[p[0]])/2 {
		t.Fatalf("unfound rule: the game master's points halve: %+v", sum)
	}
}

// Scores through real rounds: a quick right guess halves the game master's
// points; a guess after hints earns 2.
func TestScoringThroughPlay(t *testing.T) {
	s, gm, p := started(t, "color == white", nil)
	w := func(count, copy int) int { return cardID(t, "circle", count, true, "white", copy) }
	setHand(t, s, p[0], w(1, 0), w(2, 0), w(3, 0))
	must(t, s, p[0], PlayAction(w(1, 0)))
	must(t, s, p[0], GuessAction("color == white"))
	sum := s.history[0]
	if sum.Points[p[0]] != 10-2+5 || sum.Points[p[1]] != 0 || sum.Points[gm] != 13/2 || len(sum.Halved) != 2 {
		t.Fatalf("quick guess: %+v", sum)
	}
	if s.scores[p[0]] != 13 || s.scores[gm] != 6 {
		t.Fatalf("totals %v", s.scores)
	}

	// Round 2: hints, then ten cards and two turns each, then a right guess.
	gm2 := s.r.gm
	if gm2 != (gm+1)%4 {
		t.Fatalf("the game master passes clockwise: %d then %d", gm, gm2)
	}
	must(t, s, gm2, RuleAction("filled"))
	must(t, s, s.r.toMove, ProposeHintsAction())
	if s.phase != HintVote {
		t.Fatal("no vote")
	}
	for _, a := range s.active() {
		must(t, s, a, VoteAction(true))
	}
	if !s.r.hintsOn || s.phase != Turn {
		t.Fatal("unanimous yes must turn hints on")
	}
	for i := 0; i < 12; i++ {
		seat := s.r.toMove
		must(t, s, seat, PlayAction(s.r.hands[seat][0]))
		if s.phase == GuessOffer {
			must(t, s, seat, NoGuessAction())
		}
	}
	for s.phase != GuessOffer {
		seat := s.r.toMove
		c := s.r.hands[seat][0]
		for _, id := range s.r.hands[seat] {
			if CardOf(id).Filled {
				c = id
			}
		}
		must(t, s, seat, PlayAction(c))
	}
	guesser := s.r.toMove
	hand := len(s.r.hands[guesser])
	must(t, s, guesser, GuessAction("filled == true"))
	sum = s.history[1]
	if sum.Points[guesser] != 10-hand+2 || len(sum.Halved) != 0 {
		t.Fatalf("guess after hints: %+v (hand %d)", sum, hand)
	}
	best := slices.Max(sum.Points)
	if sum.Points[gm2] != best {
		t.Fatalf("the game master scores the best player's points: %+v", sum)
	}
}

func TestHintsNeedEveryoneAndAnyoneCanBlock(t *testing.T) {
	s, gm, p := started(t, "color == white", nil)
	refuse(t, s, gm, AnnounceAction()) // not agreed yet
	must(t, s, p[1], ProposeHintsAction())
	refuse(t, s, p[1], VoteAction(true)) // the proposer already agreed
	refuse(t, s, p[0], PlayAction(s.r.hands[p[0]][0]))
	must(t, s, gm, VoteAction(true))
	must(t, s, p[0], VoteAction(false))
	if s.r.hintsOn || s.phase != Turn {
		t.Fatal("one no must stop hints")
	}
	refuse(t, s, p[1], ProposeHintsAction()) // one proposal each per round
	must(t, s, p[2], ProposeHintsAction())
	for _, a := range s.active() {
		must(t, s, a, VoteAction(true))
	}
	if !s.r.hintsOn {
		t.Fatal("hints should be on")
	}
	must(t, s, gm, AnnounceAction())
	refuse(t, s, gm, VoteAction(true))
	must(t, s, p[0], VoteAction(true))
	must(t, s, p[1], VoteAction(false))
	if s.phase != Turn || len(s.r.hints) != 0 {
		t.Fatal("one objection blocks the hint")
	}
	must(t, s, gm, AnnounceAction())
	for _, a := range s.active() {
		must(t, s, a, VoteAction(true))
	}
	if s.phase != HintGive {
		t.Fatalf("phase %v", s.phase)
	}
	refuse(t, s, gm, HintAction("   "))
	evs := must(t, s, gm, AutoHintAction())
	if len(s.r.hints) != 1 || !strings.Contains(evs[0].Text, "colour") {
		t.Fatalf("auto hint %v", evs)
	}
	must(t, s, gm, AnnounceAction())
	for _, a := range s.active() {
		must(t, s, a, VoteAction(true))
	}
	must(t, s, gm, HintAction("think \x1b[31mof snow"))
	if got := s.r.hints[1]; strings.ContainsRune(got, 0x1b) {
		t.Fatalf("hint not cleaned: %q", got)
	}
}

func TestGameEndsAfterEachLeadsOnce(t *testing.T) {
	s := newTest(t, 3, 11, nil)
	gms := map[engine.Seat]bool{}
	for s.phase != Finished {
		gms[s.r.gm] = true
		must(t, s, s.r.gm, RuleAction("color == white"))
		seat := s.r.toMove
		setHand(t, s, seat, cardID(t, "square", 2, false, "white", 0))
		must(t, s, seat, PlayAction(s.r.hands[seat][0]))
		must(t, s, seat, GuessAction("color == white"))
	}
	if len(gms) != 3 || len(s.history) != 3 {
		t.Fatalf("rounds %d led by %v", len(s.history), gms)
	}
	res, ok := s.Result()
	if !ok || len(res.Scores) != 3 || len(res.Winners) == 0 {
		t.Fatalf("result %+v", res)
	}
	for _, w := range res.Winners {
		if res.Scores[w] != slices.Max(res.Scores) {
			t.Fatalf("winner %d does not have the top score: %+v", w, res)
		}
	}
}

func TestAgreedRoundsAndNoPoints(t *testing.T) {
	s := newTest(t, 5, 3, engine.Options{OptRounds: "2", OptPoints: "off"})
	for s.phase != Finished {
		must(t, s, s.r.gm, DrawAction(Easy))
		seat := s.r.toMove
		must(t, s, seat, ProposeHintsAction())
		for _, a := range s.active() {
			must(t, s, a, VoteAction(false))
			break
		}
		// Give up quickly: the game master cannot call off a machine rule.
		refuse(t, s, s.r.gm, CallOffAction())
		s.r.deck = s.r.deck[:1]
		must(t, s, seat, PlayAction(s.r.hands[seat][0]))
		if s.phase == GuessOffer {
			must(t, s, seat, NoGuessAction())
		}
	}
	res, _ := s.Result()
	if len(s.history) != 2 || res.Scores != nil || len(res.Winners) != 0 || !res.Draw {
		t.Fatalf("history %d, result %+v", len(s.history), res)
	}
	for _, h := range s.history {
		if h.Points != nil {
			t.Fatal("no points in this mode")
		}
	}
	// Two players always play without points.
	two := newTest(t, 2, 1, engine.Options{OptPoints: "on"})
	if two.set.Points {
		t.Fatal("two players must play without points")
	}
}

func TestSetupRefusesBadRules(t *testing.T) {
	s := newTest(t, 3, 5, nil)
	gm := s.r.gm
	for _, bad := range []string{"", "shape ==", "count > 6", "count >= 1", "shape == circle and shape == square"} {
		refuse(t, s, gm, RuleAction(bad))
	}
	refuse(t, s, gm, LibraryAction(len(Library())))
	refuse(t, s, gm, DrawAction(9))
	refuse(t, s, (gm+1)%3, RuleAction("filled"))
	refuse(t, s, gm, FreeAction("\x1b[2J"))
	if s.View(engine.SeatViewer((gm+1)%3)).(View).Rule != nil {
		t.Fatal("a player sees a rule")
	}
}

func TestFreeRuleJudgedByHand(t *testing.T) {
	s := newTest(t, 3, 9, engine.Options{OptJudgeTime: "30s"})
	gm := s.r.gm
	must(t, s, gm, FreeAction("cards that \x1b]0;x\x07remind me of winter"))
	if strings.ContainsAny(s.r.ruleText, "\x1b\x07") {
		t.Fatalf("free rule not cleaned: %q", s.r.ruleText)
	}
	p := s.r.toMove
	c := s.r.hands[p][0]
	must(t, s, p, PlayAction(c))
	if s.phase != JudgePlay || s.r.pendingCard != c {
		t.Fatal("a free rule waits for the game master")
	}
	tm := s.Timer()
	if tm == nil || tm.DelayMillis != 30_000 {
		t.Fatalf("timer %+v", tm)
	}
	refuse(t, s, p, JudgeAction(true))
	refuse(t, s, engine.System, TimeoutAction(s.moves-1)) // stale
	refuse(t, s, gm, TimeoutAction(s.moves))              // only the clock
	must(t, s, gm, JudgeAction(true))
	must(t, s, p, GuessAction("snowy things"))
	if s.phase != JudgeGuess {
		t.Fatal("guess waits for judgement")
	}
	must(t, s, gm, JudgeAction(false))
	p2 := s.r.toMove
	must(t, s, p2, RevealAction())
	if s.phase != JudgeReveal {
		t.Fatal("reveal waits for judgement")
	}
	must(t, s, gm, NoFitAction())
	if s.phase != GuessOffer {
		t.Fatal("after no fit the player may guess")
	}
	must(t, s, p2, NoGuessAction())
	// The game master sleeps: the clock calls the round off.
	p3 := s.r.toMove
	must(t, s, p3, PlayAction(s.r.hands[p3][0]))
	must(t, s, engine.System, s.Timer().Action)
	if len(s.history) != 1 || s.history[0].Reason != EndCalledOff || s.history[0].Points != nil {
		t.Fatalf("history %+v", s.history)
	}
	if s.scores[gm] != 0 {
		t.Fatal("a called-off round scores nothing")
	}
}

func TestTimersKeepThingsMoving(t *testing.T) {
	s := newTest(t, 3, 2, engine.Options{OptTurnTime: "30s"})
	gm := s.r.gm
	if tm := s.Timer(); tm == nil || tm.DelayMillis != SetupMillis {
		t.Fatalf("setup timer %+v", tm)
	}
	must(t, s, engine.System, s.Timer().Action) // draws a library rule
	if s.r.mode != Machine || !s.r.library {
		t.Fatal("a slow game master gets a library rule")
	}
	p := s.r.toMove
	must(t, s, engine.System, s.Timer().Action)
	if s.r.toMove == p || s.r.turns[p] != 1 {
		t.Fatal("a slow player loses the turn")
	}
	must(t, s, s.r.toMove, ProposeHintsAction())
	must(t, s, engine.System, s.Timer().Action)
	if s.r.hintsOn || s.phase != Turn {
		t.Fatal("an unanswered vote fails")
	}
	_ = gm
	none := newTest(t, 3, 2, nil)
	must(t, none, none.r.gm, DrawAction(0))
	if none.Timer() != nil {
		t.Fatal("no turn timer unless the table chose one")
	}
}

func TestRuleStaysHiddenUntilTheRoundEnds(t *testing.T) {
	s, gm, p := started(t, "if color == white then count <= 3 else count >= 4", nil)
	eng := s.machineRule().English()
	for _, v := range []engine.Viewer{engine.SeatViewer(p[0]), engine.Spectator()} {
		view := s.View(v).(View)
		if view.Rule != nil || view.Fits != nil {
			t.Fatalf("viewer %+v sees the rule", v)
		}
	}
	gv := s.View(engine.SeatViewer(gm)).(View)
	if gv.Rule == nil || gv.Rule.English != eng || len(gv.Fits) != 36 {
		t.Fatalf("the game master's rule card: %+v, %d fit", gv.Rule, len(gv.Fits))
	}
}

// A bot leads the first round when the table has one; then the lead passes on.
func TestFirstGameMasterIsABot(t *testing.T) {
	players := []engine.Player{{Name: "ann"}, {Name: "bo"}, {Name: "bot", Bot: true}, {Name: "kai"}}
	for seed := range uint64(5) {
		st, _, err := engine.Start(Game{}, nil, players, seed)
		if err != nil {
			t.Fatal(err)
		}
		if s := st.(*state); s.r.gm != 2 || s.r.toMove != 3 {
			t.Fatalf("seed %d: game master %d, first player %d", seed, s.r.gm, s.r.toMove)
		}
	}
}
