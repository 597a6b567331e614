package ifthen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/rulelang"
	"github.com/codebreakers/codebreakers/engine/words"
)

// Phase says what the table is waiting for.
type Phase int

const (
	// Setup: the Mastermind All Knowing picks a Challenge and a loyalty.
	Setup Phase = iota
	// Turn: the Code Breaker to move plays or discards (anyone on the team may propose).
	Turn
	// Penalty: the Code Breaker to move draws the penalty they owe.
	Penalty
	// Vote: every Code Breaker answers the open proposal.
	Vote
	// PassLeft: each Code Breaker with cards picks one to hand on.
	PassLeft
	// RevealEvent: the round is over; the All Knowing reveals the next Event.
	RevealEvent
	// RevealHint: a Hint is paid for; the All Knowing reveals it.
	RevealHint
	// MastermindTurn: the Mastermind swaps with the Market or cycles a card.
	MastermindTurn
	// Finished: the game is over; View.Result says how.
	Finished
)

// String names the phase.
func (p Phase) String() string {
	return [...]string{"setup", "turn", "penalty", "vote", "pass left", "reveal event", "reveal hint",
		"mastermind turn", "finished"}[p]
}

// Placed is a card in the Code Line with the end on top.
type Placed struct {
	Card int `json:"card"`
	Up   int `json:"up"`
}

// lineEntry is one Valid card and the Invalid pile beside it.
type lineEntry struct {
	Placed
	invalid []Placed
}

// judgement is one play or discard and the engine's call, all public.
type judgement struct {
	turn  int
	seat  engine.Seat
	kind  string // "play", "discard", "lucky"
	card  Placed
	prev  Placed // the last Valid card it was judged against
	valid bool
}

// proposalState is an open team vote.
type proposalState struct {
	Proposal
	by    engine.Seat
	votes map[engine.Seat]bool
}

// state is one game in progress.
type state struct {
	engine.Untimed // nothing in If Then is timed

	n          int
	players    []engine.Player
	level      int
	mode       string
	seed       uint64
	firstRules bool // Challenges as first written (rules revision RulesFirst)
	draws      int  // random draws taken after the deal (see rngAt)
	ak         engine.Seat
	breakers   []engine.Seat
	challenge  int    // index into Challenges(); -1 until the Mastermind chooses
	offered    [2]int // the Mastermind's two Challenges
	loyal      bool
	cards      []Card
	deck       []int // draw deck, top first
	market     []Placed
	hands      [][]int // per seat
	akDeck     []int   // the Mastermind's own deck (top first)
	aside      []int   // back in the box
	discard    []int
	line       []lineEntry
	events     []int // Event deck, top first
	eventsUsed []int
	event      int // the Event card in force, -1 none
	keeps      []int
	hints      []Hint // revealed, in order
	hintsOut   int    // Hints bought or given so far (a first-rules Code that read three attributes had only one to show)
	spotlight  int    // Market slot marked by Spotlight, -1 none
	spotUp     int
	phase      Phase
	resume     Phase // where a vote or a hint reveal returns to
	toMove     engine.Seat
	turns      int
	round      int
	roundTurns int
	roundLen   int
	owed       int     // penalty cards owed in Penalty
	lastBad    *Placed // the Invalid card just played (for Second Chance)
	proposal   *proposalState
	passes     map[engine.Seat]int // Pass Left choices so far
	akTurn     bool                // the Mastermind's turn is due before the next round
	declined   []string            // proposal kinds turned down this turn: not asked again
	history    []judgement
	result     *engine.Result

	// beforeThird plays as revisions before RulesThird did (see there), so
	// their records replay as played.
	beforeThird bool
	// akDrew: the Mastermind has drawn the top of its pile this turn and now
	// sends one of its cards, the drawn one included, under the pile.
	akDrew bool
}

var _ engine.State = (*state)(nil)

// setAside is how many Number cards go back in the box at each level.
var setAside = [4]int{25, 25, 15, 5}

func newState(level int, mode string, players []engine.Player, seed uint64) *state {
	n := len(players)
	s := &state{
		n: n, players: slices.Clone(players), level: level, mode: mode, seed: seed,
		ak: engine.System, challenge: -1, event: -1, spotlight: -1,
		cards: Deck(), hands: make([][]int, n), passes: map[engine.Seat]int{},
	}
	rng := rngAt(seed, -1)
	first := 0
	if mode != ModeServer {
		s.ak = 0
		first = 1
	}
	for i := first; i < n; i++ {
		s.breakers = append(s.breakers, engine.Seat(i))
	}
	order := rng.Perm(CardCount)
	aside := setAside[level]
	s.aside, order = order[:aside], order[aside:]
	levelCh := challengeIndexes(level)
	picks := rng.Perm(len(levelCh))
	if mode == ModeMastermind {
		s.akDeck, s.aside = s.aside, nil
		s.hands[s.ak], s.akDeck = slices.Clone(s.akDeck[:3]), s.akDeck[3:]
		s.offered = [2]int{levelCh[picks[0]], levelCh[picks[1]]}
		s.phase = Setup
	} else {
		s.challenge = levelCh[picks[0]]
		s.phase = Turn
	}
	handSize := 3
	if len(s.breakers) == 1 {
		handSize = 6
	}
	for _, b := range s.breakers {
		s.hands[b], order = slices.Clone(order[:handSize]), order[handSize:]
	}
	for _, c := range order[:3] {
		s.market = append(s.market, Placed{Card: c, Up: rng.IntN(2)})
	}
	order = order[3:]
	s.line = []lineEntry{{Placed: Placed{Card: order[0], Up: rng.IntN(2)}}}
	s.deck = order[1:]
	s.events = rng.Perm(EventCards)
	s.toMove = s.breakers[0]
	s.startRound()
	return s
}

func challengeIndexes(level int) []int {
	var out []int
	for i, c := range Challenges() {
		if c.Level == level {
			out = append(out, i)
		}
	}
	return out
}

// challengeOf is Challenge i under the rules this game is played by.
func (s *state) challengeOf(i int) Challenge { return challengeAt(i, s.firstRules) }

func (s *state) rule() *rulelang.Rule { return s.challengeOf(s.challenge).Rule() }

func (s *state) name(seat engine.Seat) string {
	if seat == engine.System {
		return "the All Knowing"
	}
	return engine.SeatName(s.players, seat)
}

func (s *state) end(p Placed) End { return s.cards[p.Card].End(p.Up) }

// lastValid is the end on top of the last Valid card.
func (s *state) lastValid() rulelang.Card { return s.end(s.line[len(s.line)-1].Placed).Rule() }

func (s *state) valid(e End) bool {
	return s.rule().Accepts([]rulelang.Card{s.lastValid()}, e.Rule())
}

func (s *state) invalidCount() int {
	total := 0
	for _, e := range s.line {
		total += len(e.invalid)
	}
	return total
}

// penaltyLevel is the Penalty card in force: 1, 2 or 3.
func (s *state) penaltyLevel() int {
	switch k := s.invalidCount(); {
	case k >= 6:
		return 3
	case k >= 3:
		return 2
	}
	return 1
}

func (s *state) penalty() int { return s.penaltyLevel() + 1 }

func (s *state) isBreaker(seat engine.Seat) bool { return slices.Contains(s.breakers, seat) }

func (s *state) withCards() []engine.Seat {
	var out []engine.Seat
	for _, b := range s.breakers {
		if len(s.hands[b]) > 0 {
			out = append(out, b)
		}
	}
	return out
}

func (s *state) reversed() bool { return s.event >= 0 && EventKindOf(s.event) == EventReversal }

// nextBreaker is the next Code Breaker with cards after seat, in the
// current direction (seat itself when it is the only one).
func (s *state) nextBreaker(seat engine.Seat) engine.Seat {
	i := slices.Index(s.breakers, seat)
	step := 1
	if s.reversed() {
		step = len(s.breakers) - 1
	}
	for k := 1; k <= len(s.breakers); k++ {
		b := s.breakers[(i+k*step)%len(s.breakers)]
		if len(s.hands[b]) > 0 {
			return b
		}
	}
	return seat
}

func (s *state) startRound() {
	s.round++
	s.roundTurns = 0
	s.roundLen = len(s.withCards())
	if len(s.breakers) == 1 {
		s.roundLen = 2
	}
}

// Status says who may act.
func (s *state) Status() engine.Status {
	return engine.StatusOf(s.turns+1, s.phase == Finished, s.active)
}

// active lists the seats whose move the game is waiting for.
func (s *state) active() []engine.Seat {
	var act []engine.Seat
	switch s.phase {
	case Setup, RevealEvent, RevealHint, MastermindTurn:
		act = []engine.Seat{s.ak}
	case Vote:
		for _, b := range s.breakers {
			if _, ok := s.proposal.votes[b]; !ok {
				act = append(act, b)
			}
		}
	case PassLeft:
		for _, b := range s.withCards() {
			if _, ok := s.passes[b]; !ok {
				act = append(act, b)
			}
		}
	default:
		act = []engine.Seat{s.toMove}
	}
	return act
}

// Result reports how the game ended.
func (s *state) Result() (engine.Result, bool) { return engine.FinalResult(s.result) }

// Apply validates and applies one action from seat.
func (s *state) Apply(seat engine.Seat, data []byte) ([]engine.Event, error) {
	var a Action
	if err := engine.OpenApply(s.phase == Finished, data, &a, "Choose exactly one move."); err != nil {
		return nil, err
	}
	if seat < 0 || int(seat) >= s.n {
		return nil, engine.Illegal("Only players at the table can move.")
	}
	switch {
	case a.Setup != nil:
		return s.applySetup(seat, *a.Setup)
	case a.Reveal != "":
		return s.applyReveal(seat, a.Reveal)
	case a.Swap != nil, a.Cycle != nil:
		return s.applyMastermind(seat, a)
	case a.Vote != nil:
		return s.applyVote(seat, a.Vote.Yes)
	case a.Propose != nil:
		return s.applyPropose(seat, *a.Propose)
	case a.Pass != nil:
		return s.applyPass(seat, a.Pass.Card)
	case a.Draw != nil:
		return s.applyDraw(seat, a.Draw.Market)
	default:
		return s.applyTurn(seat, a)
	}
}

func (s *state) waitingFor() error {
	switch s.phase {
	case Setup:
		return engine.Illegal("The All Knowing is choosing the Code.")
	case Vote:
		return engine.Illegal("The team is voting: answer the proposal first.")
	case PassLeft:
		return engine.Illegal("Pass Left: each Code Breaker with cards picks one to hand on.")
	case RevealEvent:
		return engine.Illegal("The round is over: the All Knowing reveals the next Event.")
	case RevealHint:
		return engine.Illegal("The All Knowing is revealing the Hint.")
	case MastermindTurn:
		return engine.Illegal("It is the All Knowing's turn.")
	case Penalty:
		return engine.Illegal("%s is drawing a penalty.", s.name(s.toMove))
	}
	return engine.Illegal("It is %s's turn.", s.name(s.toMove))
}

func (s *state) handCard(seat engine.Seat, i int) (int, error) {
	if i < 0 || i >= len(s.hands[seat]) {
		return 0, engine.Illegal("You have no card %d; pick one of your %s.", i+1, words.Count(len(s.hands[seat]), "card", "cards"))
	}
	return s.hands[seat][i], nil
}

func removeAt(xs []int, i int) []int { return slices.Delete(slices.Clone(xs), i, i+1) }

func (s *state) applyTurn(seat engine.Seat, a Action) ([]engine.Event, error) {
	if s.phase != Turn || seat != s.toMove {
		return nil, s.waitingFor()
	}
	if a.Play != nil {
		c, err := s.handCard(seat, a.Play.Card)
		if err != nil {
			return nil, err
		}
		if a.Play.Up != 0 && a.Play.Up != 1 {
			return nil, engine.Illegal("A card goes in with end A (0) or end B (1) on top.")
		}
		p := Placed{Card: c, Up: a.Play.Up}
		e := s.end(p)
		ok := s.valid(e)
		s.hands[seat] = removeAt(s.hands[seat], a.Play.Card)
		s.turns++
		s.history = append(s.history, judgement{turn: s.turns, seat: seat, kind: "play", card: p, prev: s.line[len(s.line)-1].Placed, valid: ok})
		if ok {
			s.line = append(s.line, lineEntry{Placed: p})
			s.spotlight = -1 // the Spotlight was about the old last card
			evs := []engine.Event{{Kind: "valid", Text: fmt.Sprintf("%s played %s: Valid.", s.name(seat), e)}}
			return s.endTurn(seat, evs), nil
		}
		last := &s.line[len(s.line)-1]
		last.invalid = append(last.invalid, p)
		s.lastBad = &p
		evs := []engine.Event{{Kind: "invalid", Text: fmt.Sprintf("%s played %s: Invalid.", s.name(seat), e)}}
		return s.startPenalty(seat, evs), nil
	}
	c, err := s.handCard(seat, a.Discard.Card)
	if err != nil {
		return nil, err
	}
	if s.event >= 0 && EventKindOf(s.event) == EventSilence {
		return nil, engine.Illegal("Silence is in force: no discarding until the next Event.")
	}
	s.turns++
	card := s.cards[c]
	either := s.valid(card.A) || s.valid(card.B)
	s.history = append(s.history, judgement{turn: s.turns, seat: seat, kind: "discard", card: Placed{Card: c}, prev: s.line[len(s.line)-1].Placed, valid: !either})
	if either {
		s.lastBad = nil
		evs := []engine.Event{{Kind: "discard_wrong", Text: fmt.Sprintf("%s tried to discard %s / %s, but one end is Valid: back to the hand.",
			s.name(seat), card.A, card.B)}}
		return s.startPenalty(seat, evs), nil
	}
	s.hands[seat] = removeAt(s.hands[seat], a.Discard.Card)
	s.discard = append(s.discard, c)
	evs := []engine.Event{{Kind: "discard", Text: fmt.Sprintf("%s discarded %s / %s: rightly, neither end is Valid.",
		s.name(seat), card.A, card.B)}}
	return s.endTurn(seat, evs), nil
}

// startPenalty charges the Code Breaker to move the current penalty.
func (s *state) startPenalty(seat engine.Seat, evs []engine.Event) []engine.Event {
	s.owed = s.penalty()
	if len(s.deck)+len(s.market) < s.owed {
		return s.lose(evs, fmt.Sprintf("%s owes %s but only %d %s left to draw.", s.name(seat), words.Count(s.owed, "card", "cards"), len(s.deck)+len(s.market), words.Plural(len(s.deck)+len(s.market), "is", "are")))
	}
	s.phase = Penalty
	evs = append(evs, engine.Event{Kind: "penalty", Text: fmt.Sprintf("%s must draw %s.", s.name(seat), words.Count(s.owed, "card", "cards"))})
	if len(s.market) == 0 { // nothing to choose: draw from the deck at once
		more, _ := s.applyDraw(seat, nil)
		evs = append(evs, more...)
	}
	return evs
}

func (s *state) applyDraw(seat engine.Seat, market []int) ([]engine.Event, error) {
	if s.phase != Penalty || seat != s.toMove {
		return nil, s.waitingFor()
	}
	if len(market) > s.owed {
		return nil, engine.Illegal("You owe only %s.", words.Count(s.owed, "card", "cards"))
	}
	seen := map[int]bool{}
	for _, m := range market {
		if m < 0 || m >= len(s.market) || seen[m] {
			return nil, engine.Illegal("Pick different Market cards, numbered 1 to %d.", len(s.market))
		}
		seen[m] = true
	}
	fromDeck := s.owed - len(market)
	if fromDeck > len(s.deck) {
		return nil, engine.Illegal("The deck has only %s: take %d more from the Market.", words.Count(len(s.deck), "card", "cards"), fromDeck-len(s.deck))
	}
	var got []string
	var taken []string
	for _, m := range market {
		c := s.market[m].Card
		s.hands[seat] = append(s.hands[seat], c)
		got = append(got, s.cards[c].A.Code()+"/"+s.cards[c].B.Code())
		taken = append(taken, got[len(got)-1])
	}
	s.market = slices.DeleteFunc(slices.Clone(s.market), func(p Placed) bool {
		for _, m := range market {
			if s.market[m] == p {
				return true
			}
		}
		return false
	})
	if len(market) > 0 {
		s.spotlight = -1
	}
	for range fromDeck {
		c := s.deck[0]
		s.deck = s.deck[1:]
		s.hands[seat] = append(s.hands[seat], c)
		got = append(got, s.cards[c].A.Code()+"/"+s.cards[c].B.Code())
	}
	s.owed = 0
	s.lastBad = nil
	text := fmt.Sprintf("%s drew %d from the deck", s.name(seat), fromDeck)
	if len(taken) > 0 {
		text += " and took " + strings.Join(taken, ", ") + " from the Market"
	}
	evs := []engine.Event{
		{Kind: "draw", Text: text + "."},
		{Kind: "draw_private", Text: "You drew " + strings.Join(got, ", ") + ".",
			Others: s.name(seat) + " drew " + strings.Join(got, ", ") + ".", Seats: []engine.Seat{seat}},
	}
	s.phase = Turn
	return s.endTurn(seat, evs), nil
}

// endTurn moves play on after seat's turn: the round may end with an Event.
func (s *state) endTurn(seat engine.Seat, evs []engine.Event) []engine.Event {
	if s.phase == Finished {
		return evs
	}
	if len(s.withCards()) == 0 {
		return s.win(evs, "Every Code Breaker has emptied their hand: the team wins!")
	}
	s.phase = Turn
	s.declined = nil
	s.roundTurns++
	if s.roundTurns < s.roundLen {
		s.toMove = s.nextBreaker(seat)
		return evs
	}
	s.toMove = seat // the round's last mover; the next one is found after the Event
	if s.mode == ModeServer {
		return s.drawEvent(evs)
	}
	s.phase = RevealEvent
	return append(evs, engine.Event{Kind: "round_end", Text: "The round is over: the All Knowing reveals an Event."})
}

// nextRound starts a round after the Event (and the Mastermind's turn).
func (s *state) nextRound(evs []engine.Event) []engine.Event {
	if s.phase == Finished || s.phase == PassLeft {
		return evs
	}
	if s.akTurn {
		s.phase = MastermindTurn
		return append(evs, engine.Event{Kind: "mastermind_turn", Text: "The All Knowing takes a turn."})
	}
	s.phase = Turn
	last := s.toMove
	if len(s.hands[last]) > 0 && len(s.breakers) == 1 {
		s.toMove = last
	} else {
		s.toMove = s.nextBreaker(last)
	}
	s.startRound()
	if len(s.withCards()) == 0 {
		return s.win(evs, "Every Code Breaker has emptied their hand: the team wins!")
	}
	return evs
}

func (s *state) applyReveal(seat engine.Seat, what string) ([]engine.Event, error) {
	if seat != s.ak {
		return nil, engine.Illegal("Only the All Knowing reveals Events and Hints.")
	}
	switch {
	case what == "event" && s.phase == RevealEvent:
		s.akTurn = s.mode == ModeMastermind
		return s.drawEvent(nil), nil
	case what == "hint" && s.phase == RevealHint:
		s.phase = s.resume
		return s.revealHint(nil), nil
	}
	return nil, s.waitingFor()
}

// drawEvent discards the Event in force, draws the next one and applies it.
func (s *state) drawEvent(evs []engine.Event) []engine.Event {
	if s.event >= 0 {
		s.eventsUsed = append(s.eventsUsed, s.event)
		s.event = -1
	}
	if len(s.events) == 0 {
		s.draws++
		s.events = slices.Clone(s.eventsUsed)
		rngAt(s.seed, s.draws).Shuffle(len(s.events), func(i, j int) { s.events[i], s.events[j] = s.events[j], s.events[i] })
		s.eventsUsed = nil
		evs = append(evs, engine.Event{Kind: "reshuffle", Text: "The Event deck is reshuffled."})
	}
	card := s.events[0]
	s.events = s.events[1:]
	kind := EventKindOf(card)
	evs = append(evs, engine.Event{Kind: "event", Text: fmt.Sprintf("Event: %s. %s", kind.Title(), kind.Text())})
	s.phase = Turn
	if kind.Keep() {
		s.keeps = append(s.keeps, card)
		return s.nextRound(evs)
	}
	s.event = card
	switch kind {
	case EventCleanSlate:
		best := -1
		for i, e := range s.line {
			if len(e.invalid) > 0 && (best < 0 || len(e.invalid) >= len(s.line[best].invalid)) {
				best = i
			}
		}
		if best >= 0 {
			for _, p := range s.line[best].invalid {
				s.discard = append(s.discard, p.Card)
			}
			evs = append(evs, engine.Event{Kind: "clean", Text: fmt.Sprintf("%s the Code Line; the penalty is now %d.",
				words.Count(len(s.line[best].invalid), "Invalid card leaves", "Invalid cards leave"), s.penaltyAfterClear(best))})
			s.line[best].invalid = nil
		}
	case EventFreshMarket:
		for _, p := range s.market {
			s.discard = append(s.discard, p.Card)
		}
		s.market = nil
		s.spotlight = -1
		if len(s.deck) < 3 {
			return s.lose(evs, "The deck cannot refill the Market.")
		}
		s.draws++
		rng := rngAt(s.seed, s.draws)
		for _, c := range s.deck[:3] {
			s.market = append(s.market, Placed{Card: c, Up: rng.IntN(2)})
		}
		s.deck = s.deck[3:]
	case EventPassLeft:
		holders := 1 // a lone holder passes too, to the next Code Breaker
		if s.beforeThird {
			holders = 2
		}
		if len(s.withCards()) >= holders && len(s.breakers) >= 2 {
			s.phase = PassLeft
			s.passes = map[engine.Seat]int{}
			return evs
		}
	case EventBurden:
		for _, b := range s.withCards() {
			if len(s.deck)+len(s.market) == 0 {
				return s.lose(evs, "Nothing is left to draw for the Burden.")
			}
			var c int
			if len(s.deck) > 0 {
				c, s.deck = s.deck[0], s.deck[1:]
			} else {
				c, s.market = s.market[0].Card, s.market[1:]
				s.spotlight = -1
			}
			s.hands[b] = append(s.hands[b], c)
			evs = append(evs, engine.Event{Kind: "draw_private", Text: fmt.Sprintf("You drew %s/%s.", s.cards[c].A.Code(), s.cards[c].B.Code()),
				Others: fmt.Sprintf("%s drew %s/%s.", s.name(b), s.cards[c].A.Code(), s.cards[c].B.Code()), Seats: []engine.Seat{b}})
		}
	case EventSpotlight:
		s.spotlight = -1
	search:
		for i, p := range s.market {
			for _, up := range []int{p.Up, 1 - p.Up} {
				if s.valid(s.cards[p.Card].End(up)) {
					s.spotlight, s.spotUp = i, up
					break search
				}
			}
		}
		if s.spotlight >= 0 {
			evs = append(evs, engine.Event{Kind: "spotlight", Text: fmt.Sprintf("Market card %d is Valid with %s on top.",
				s.spotlight+1, s.cards[s.market[s.spotlight].Card].End(s.spotUp))})
		} else {
			evs = append(evs, engine.Event{Kind: "spotlight", Text: "No Market card is Valid right now."})
		}
	}
	return s.nextRound(evs)
}

func (s *state) penaltyAfterClear(pile int) int {
	k := s.invalidCount() - len(s.line[pile].invalid)
	switch {
	case k >= 6:
		return 4
	case k >= 3:
		return 3
	}
	return 2
}

func (s *state) applyPass(seat engine.Seat, i int) ([]engine.Event, error) {
	if s.phase != PassLeft {
		return nil, s.waitingFor()
	}
	if !slices.Contains(s.withCards(), seat) {
		return nil, engine.Illegal("Only Code Breakers holding cards pass one.")
	}
	if _, done := s.passes[seat]; done {
		return nil, engine.Illegal("You have already picked a card to pass.")
	}
	if _, err := s.handCard(seat, i); err != nil {
		return nil, err
	}
	s.passes[seat] = i
	evs := []engine.Event{{Kind: "pass_pick", Text: fmt.Sprintf("%s picked a card to pass.", s.name(seat))}}
	holders := s.withCards()
	if len(s.passes) < len(holders) {
		return evs, nil
	}
	// Everyone has picked: hand them on together, each to the next Code Breaker.
	moving := map[engine.Seat]int{}
	for _, b := range holders {
		moving[b] = s.hands[b][s.passes[b]]
	}
	for _, b := range holders {
		s.hands[b] = removeAt(s.hands[b], s.passes[b])
	}
	for _, b := range holders {
		to := s.breakers[(slices.Index(s.breakers, b)+1)%len(s.breakers)]
		c := moving[b]
		s.hands[to] = append(s.hands[to], c)
		said := fmt.Sprintf("%s passed %s/%s to %s.", s.name(b), s.cards[c].A.Code(), s.cards[c].B.Code(), s.name(to))
		evs = append(evs, engine.Event{Kind: "pass", Text: said, Others: said, Seats: []engine.Seat{b, to}})
	}
	evs = append(evs, engine.Event{Kind: "passed", Text: "Cards were passed on."})
	s.passes = map[engine.Seat]int{}
	s.phase = Turn
	return s.nextRound(evs), nil
}

// Hint payments: the first needs the second Penalty and costs 3, the second
// needs the third Penalty and costs 6.
func (s *state) hintCost() (cost int, ok bool) {
	switch s.hintsOut {
	case 0:
		return 3, s.penaltyLevel() >= 2
	case 1:
		return 6, s.penaltyLevel() >= 3
	}
	return 0, false
}

func (s *state) hintsLeft() []Hint {
	var out []Hint
	for _, h := range s.challengeOf(s.challenge).Hints() {
		if !slices.Contains(s.hints, h) {
			out = append(out, h)
		}
	}
	return out
}

func (s *state) keepIndex(kind EventKind) int {
	return slices.IndexFunc(s.keeps, func(c int) bool { return EventKindOf(c) == kind })
}

func (s *state) applyPropose(seat engine.Seat, p Proposal) ([]engine.Event, error) {
	if !s.isBreaker(seat) {
		return nil, engine.Illegal("Only Code Breakers make proposals.")
	}
	if s.phase != Turn && !(s.phase == Penalty && p.Kind == ProposeSecondChance) {
		return nil, s.waitingFor()
	}
	if slices.Contains(s.declined, p.Kind) {
		return nil, engine.Illegal("The team turned that down this turn; try again next turn.")
	}
	var what string
	switch p.Kind {
	case ProposeHint:
		cost, ok := s.hintCost()
		if !ok || s.hintsOut >= 2 {
			return nil, engine.Illegal("No Hint can be bought now: the first needs 3 Invalid cards in the Code Line, the second 6.")
		}
		if len(s.deck) < cost {
			return nil, engine.Illegal("A Hint costs %s from the deck, which has only %d.", words.Count(cost, "card", "cards"), len(s.deck))
		}
		what = fmt.Sprintf("pay %s from the deck for a Hint", words.Count(cost, "card", "cards"))
	case ProposeFreeHint:
		if s.keepIndex(EventFreeHint) < 0 {
			return nil, engine.Illegal("The team holds no Free Hint.")
		}
		if s.hintsOut >= 2 {
			return nil, engine.Illegal("Both Hints are already out.")
		}
		what = "use the Free Hint"
	case ProposeLuckyDraw:
		if s.keepIndex(EventLuckyDraw) < 0 {
			return nil, engine.Illegal("The team holds no Lucky Draw.")
		}
		c, err := s.handCard(seat, p.Card)
		if err != nil {
			return nil, err
		}
		// Which card stays unsaid: the team may not talk about the cards in
		// their hands, and a proposal turned down leaves it there. (Games
		// under earlier revisions tell it as they did.)
		what = fmt.Sprintf("use the Lucky Draw on one of %s's cards", s.name(seat))
		if s.beforeThird {
			what = fmt.Sprintf("use the Lucky Draw on %s's card %s/%s", s.name(seat), s.cards[c].A.Code(), s.cards[c].B.Code())
		}
	case ProposeSecondChance:
		if s.keepIndex(EventSecondChance) < 0 {
			return nil, engine.Illegal("The team holds no Second Chance.")
		}
		if s.phase != Penalty || s.lastBad == nil {
			return nil, engine.Illegal("Second Chance is for right after an Invalid play.")
		}
		what = fmt.Sprintf("use Second Chance: %s takes the Invalid card back", s.name(s.toMove))
	case ProposeGuess:
		if len(s.withCards()) != 1 {
			return nil, engine.Illegal("The team may guess the Code only when one Code Breaker still holds cards.")
		}
		r, err := rulelang.Parse(rulelang.IfThenAttributes(), p.Text)
		if err != nil {
			return nil, engine.Illegal("That guess does not read as a rule: %v.", err)
		}
		if r.Lookback() > 1 || r.UsesPosition() {
			return nil, engine.Illegal("A Code looks only at the last Valid card: leave out prev2, prev3 and n.")
		}
		p.Text = r.String()
		what = "guess the Code: " + strings.TrimSuffix(r.English(), ".")
	default:
		return nil, engine.Illegal("Propose a hint, free_hint, lucky_draw, second_chance or guess.")
	}
	if p.Kind != ProposeLuckyDraw {
		p.Card = 0
	}
	if p.Kind != ProposeGuess {
		p.Text = ""
	}
	s.proposal = &proposalState{Proposal: p, by: seat, votes: map[engine.Seat]bool{seat: true}}
	s.resume = s.phase
	s.phase = Vote
	evs := []engine.Event{{Kind: "propose", Text: fmt.Sprintf("%s proposes to %s.", s.name(seat), what)}}
	return s.settleVote(evs), nil
}

func (s *state) applyVote(seat engine.Seat, yes bool) ([]engine.Event, error) {
	if s.phase != Vote {
		return nil, engine.Illegal("There is no proposal to vote on.")
	}
	if !s.isBreaker(seat) {
		return nil, engine.Illegal("Only Code Breakers vote.")
	}
	if _, done := s.proposal.votes[seat]; done {
		return nil, engine.Illegal("You have already voted.")
	}
	s.proposal.votes[seat] = yes
	word := "agrees"
	if !yes {
		word = "declines"
	}
	return s.settleVote([]engine.Event{{Kind: "vote", Text: fmt.Sprintf("%s %s.", s.name(seat), word)}}), nil
}

// settleVote closes the vote when someone said no or everyone said yes.
func (s *state) settleVote(evs []engine.Event) []engine.Event {
	p := s.proposal
	for _, yes := range p.votes {
		if !yes {
			s.proposal, s.phase = nil, s.resume
			s.declined = append(s.declined, p.Kind)
			return append(evs, engine.Event{Kind: "vote_failed", Text: "The proposal is turned down."})
		}
	}
	if len(p.votes) < len(s.breakers) {
		return evs
	}
	s.proposal, s.phase = nil, s.resume
	evs = append(evs, engine.Event{Kind: "vote_passed", Text: "The team agrees."})
	switch p.Kind {
	case ProposeHint:
		cost, _ := s.hintCost()
		s.discard = append(s.discard, s.deck[:cost]...)
		s.deck = s.deck[cost:]
		evs = append(evs, engine.Event{Kind: "hint_paid", Text: fmt.Sprintf("The team pays %s from the deck.", words.Count(cost, "card", "cards"))})
		return s.hintPaid(evs)
	case ProposeFreeHint:
		k := s.keepIndex(EventFreeHint)
		s.eventsUsed = append(s.eventsUsed, s.keeps[k])
		s.keeps = removeAt(s.keeps, k)
		return s.hintPaid(evs)
	case ProposeLuckyDraw:
		k := s.keepIndex(EventLuckyDraw)
		s.eventsUsed = append(s.eventsUsed, s.keeps[k])
		s.keeps = removeAt(s.keeps, k)
		c := s.hands[p.by][p.Card]
		s.hands[p.by] = removeAt(s.hands[p.by], p.Card)
		s.discard = append(s.discard, c)
		s.history = append(s.history, judgement{turn: s.turns, seat: p.by, kind: "lucky", card: Placed{Card: c}, prev: s.line[len(s.line)-1].Placed, valid: true})
		evs = append(evs, engine.Event{Kind: "lucky", Text: fmt.Sprintf("%s throws away %s/%s unjudged.", s.name(p.by),
			s.cards[c].A.Code(), s.cards[c].B.Code())})
		if len(s.withCards()) == 0 {
			return s.win(evs, "Every Code Breaker has emptied their hand: the team wins!")
		}
		if len(s.hands[s.toMove]) == 0 && s.phase == Turn {
			s.toMove = s.nextBreaker(s.toMove)
		}
		return evs
	case ProposeSecondChance:
		k := s.keepIndex(EventSecondChance)
		s.eventsUsed = append(s.eventsUsed, s.keeps[k])
		s.keeps = removeAt(s.keeps, k)
		last := &s.line[len(s.line)-1]
		bad := last.invalid[len(last.invalid)-1]
		last.invalid = last.invalid[:len(last.invalid)-1]
		s.hands[s.toMove] = append(s.hands[s.toMove], bad.Card)
		s.lastBad, s.owed = nil, 0
		s.phase = Turn
		evs = append(evs, engine.Event{Kind: "second_chance", Text: fmt.Sprintf("%s takes the Invalid card back and draws nothing.", s.name(s.toMove))})
		return s.endTurn(s.toMove, evs)
	case ProposeGuess:
		return s.judgeGuess(p.Text, evs)
	}
	return evs
}

func (s *state) hintPaid(evs []engine.Event) []engine.Event {
	if s.mode == ModeServer {
		return s.revealHint(evs)
	}
	s.phase = RevealHint
	return append(evs, engine.Event{Kind: "hint_wait", Text: "The All Knowing reveals the Hint."})
}

func (s *state) revealHint(evs []engine.Event) []engine.Event {
	s.hintsOut++
	left := s.hintsLeft()
	if len(left) == 0 { // only a first-rules Code that read three attributes (see RulesFirst)
		return append(evs, engine.Event{Kind: "hint", Text: "No second Hint: the Code reads all three of the other attributes."})
	}
	s.draws++
	h := left[rngAt(s.seed, s.draws).IntN(len(left))]
	s.hints = append(s.hints, h)
	return append(evs, engine.Event{Kind: "hint", Text: fmt.Sprintf("Hint %s: %s", h.Symbol(), h.Text())})
}

func (s *state) judgeGuess(text string, evs []engine.Event) []engine.Event {
	as := rulelang.IfThenAttributes()
	guess := rulelang.MustParse(as, text) // checked when proposed
	// A guess is right when it calls every end Valid or Invalid as the Code
	// does after every possible last Valid card: the Code Line opens with a
	// dealt card, so any end can be the one a card is judged against.
	var same bool
	var err error
	if s.beforeThird {
		same, _, err = rulelang.Equivalent(guess, s.rule())
	} else {
		same, _, err = rulelang.EquivalentAfterAnyCard(guess, s.rule(), as.Universe())
	}
	if err == nil && same {
		return s.win(evs, "The team guessed the Code exactly: Master Code Breakers!")
	}
	cost := s.penalty()
	if len(s.breakers) == 1 {
		cost *= 2
	}
	evs = append(evs, engine.Event{Kind: "guess_wrong", Text: fmt.Sprintf("That is not the Code. The team throws away %s from the deck.", words.Count(cost, "card", "cards"))})
	if len(s.deck) < cost {
		return s.lose(evs, "The deck cannot pay for the wrong guess.")
	}
	s.discard = append(s.discard, s.deck[:cost]...)
	s.deck = s.deck[cost:]
	return evs
}

func (s *state) applySetup(seat engine.Seat, m SetupMove) ([]engine.Event, error) {
	if s.phase != Setup || seat != s.ak {
		return nil, s.waitingFor()
	}
	if m.Challenge != 0 && m.Challenge != 1 {
		return nil, engine.Illegal("Choose Challenge 0 or 1.")
	}
	s.challenge = s.offered[m.Challenge]
	s.loyal = m.Loyal
	s.phase = Turn
	return []engine.Event{
		{Kind: "setup", Text: "The All Knowing has chosen a Code and a loyalty. Break it!"},
		{Kind: "setup_private", Text: fmt.Sprintf("You chose %q and are %s.", s.challengeOf(s.challenge).Rule().English(), loyaltyWord(m.Loyal)),
			Others: fmt.Sprintf("%s, the All Knowing, chose %q and is %s.", s.name(s.ak), s.challengeOf(s.challenge).Rule().English(), loyaltyThird(m.Loyal)),
			Seats:  []engine.Seat{s.ak}},
	}, nil
}

// loyaltyThird is loyaltyWord told about the Mastermind to others.
func loyaltyThird(loyal bool) string {
	if loyal {
		return "True (wins with the team)"
	}
	return "False (wins if the team loses)"
}

func loyaltyWord(loyal bool) string {
	if loyal {
		return "True (you win with the team)"
	}
	return "False (you win if the team loses)"
}

func (s *state) applyMastermind(seat engine.Seat, a Action) ([]engine.Event, error) {
	if s.phase != MastermindTurn || seat != s.ak {
		return nil, s.waitingFor()
	}
	hand := s.hands[s.ak]
	var evs []engine.Event
	if a.Swap != nil {
		if s.akDrew {
			return nil, engine.Illegal("You drew from your pile: now send one of your cards under it.")
		}
		if a.Swap.Card < 0 || a.Swap.Card >= len(hand) {
			return nil, engine.Illegal("You have no card %d.", a.Swap.Card+1)
		}
		if a.Swap.Market < 0 || a.Swap.Market >= len(s.market) {
			return nil, engine.Illegal("The Market has no card %d.", a.Swap.Market+1)
		}
		if a.Swap.Up != 0 && a.Swap.Up != 1 {
			return nil, engine.Illegal("Lay the card with end A (0) or end B (1) on top.")
		}
		out := s.market[a.Swap.Market].Card
		in := hand[a.Swap.Card]
		s.market = slices.Clone(s.market)
		s.market[a.Swap.Market] = Placed{Card: in, Up: a.Swap.Up}
		s.hands[s.ak] = slices.Clone(hand)
		s.hands[s.ak][a.Swap.Card] = out
		if s.spotlight == a.Swap.Market {
			s.spotlight = -1
		}
		evs = append(evs, engine.Event{Kind: "swap", Text: fmt.Sprintf("The All Knowing swapped %s/%s into the Market for %s/%s.",
			s.cards[in].End(a.Swap.Up).Code(), s.cards[in].End(1-a.Swap.Up).Code(), s.cards[out].A.Code(), s.cards[out].B.Code())})
	} else {
		if a.Cycle.Card < 0 || a.Cycle.Card >= len(hand) {
			return nil, engine.Illegal("You have no card %d.", a.Cycle.Card+1)
		}
		if len(s.akDeck) == 0 && !s.akDrew {
			return nil, engine.Illegal("Your deck is empty: swap with the Market instead.")
		}
		if !s.beforeThird {
			return s.cycleDrawFirst(a.Cycle.Card), nil
		}
		out := hand[a.Cycle.Card]
		s.hands[s.ak] = append(removeAt(hand, a.Cycle.Card), s.akDeck[0])
		s.akDeck = append(slices.Clone(s.akDeck[1:]), out)
		evs = append(evs, engine.Event{Kind: "cycle", Text: "The All Knowing cycled a card through their deck."})
	}
	s.akTurn = false
	return s.nextRound(evs), nil
}

// cycleDrawFirst is the Mastermind's second action as the rulebook orders
// it: draw the top card of its own pile first, then, seeing it, send one
// card of the hand, the drawn one included, to the bottom. It takes two
// moves: the first draws (its card is not read), the second names the card
// that goes under. Revisions before RulesThird did both in one move, the
// card chosen before the draw was seen.
func (s *state) cycleDrawFirst(i int) []engine.Event {
	if !s.akDrew {
		top := s.akDeck[0]
		s.akDeck = slices.Clone(s.akDeck[1:])
		s.hands[s.ak] = append(slices.Clone(s.hands[s.ak]), top)
		s.akDrew = true
		code := s.cards[top].A.Code() + "/" + s.cards[top].B.Code()
		return []engine.Event{
			{Kind: "cycle_draw", Text: "The All Knowing draws from their own pile and will send a card under it."},
			{Kind: "draw_private", Text: "You drew " + code + ": now send a card under your pile.",
				Others: s.name(s.ak) + ", the All Knowing, drew " + code + ".", Seats: []engine.Seat{s.ak}},
		}
	}
	out := s.hands[s.ak][i]
	s.hands[s.ak] = removeAt(s.hands[s.ak], i)
	s.akDeck = append(slices.Clone(s.akDeck), out)
	s.akDrew, s.akTurn = false, false
	evs := []engine.Event{{Kind: "cycle", Text: "The All Knowing cycled a card through their deck."}}
	return s.nextRound(evs)
}

func (s *state) finish(evs []engine.Event, teamWon bool, summary string) []engine.Event {
	r := engine.Result{Summary: summary}
	if teamWon {
		r.Winners = slices.Clone(s.breakers)
	}
	if s.ak >= 0 {
		akWins := teamWon
		if s.mode == ModeMastermind {
			akWins = teamWon == s.loyal
			summary += fmt.Sprintf(" The All Knowing was %s.", map[bool]string{true: "True", false: "False"}[s.loyal])
			r.Summary = summary
		}
		if akWins {
			r.Winners = append([]engine.Seat{s.ak}, r.Winners...)
		}
	}
	s.result = &r
	s.phase = Finished
	s.proposal = nil
	return append(evs, engine.Event{Kind: "end", Text: summary + " The Code was: " + s.challengeOf(s.challenge).Rule().English()})
}

func (s *state) win(evs []engine.Event, summary string) []engine.Event {
	return s.finish(evs, true, summary)
}
func (s *state) lose(evs []engine.Event, summary string) []engine.Event {
	return s.finish(evs, false, "The team loses. "+summary)
}
