package ifthen

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/enginetest"
)

func players(n int) []engine.Player { return enginetest.Players(n) }

func mustApply(t *testing.T, s *state, seat engine.Seat, action []byte) []engine.Event {
	t.Helper()
	evs, err := s.Apply(seat, action)
	if err != nil {
		t.Fatalf("%s by %d: %v", action, seat, err)
	}
	checkConserved(t, s)
	return evs
}

func mustRefuse(t *testing.T, s *state, seat engine.Seat, action []byte, want string) {
	t.Helper()
	before := omniJSON(t, s)
	_, err := s.Apply(seat, action)
	if err == nil || !engine.IsIllegal(err) || !strings.Contains(err.Error(), want) {
		t.Fatalf("%s by %d: got %v, want a refusal containing %q", action, seat, err, want)
	}
	if omniJSON(t, s) != before {
		t.Fatalf("refused %s changed the state", action)
	}
}

// withCode sets the Code to the Challenge with the given text.
func withCode(t *testing.T, s *state, text string) {
	t.Helper()
	i := slices.IndexFunc(Challenges(), func(c Challenge) bool { return c.Text == text })
	if i < 0 {
		t.Fatalf("no challenge %q", text)
	}
	s.challenge = i
}

// findCard returns a card id satisfying ok, not id in avoid.
func findCard(t *testing.T, ok func(Card) bool) int {
	t.Helper()
	for _, c := range Deck() {
		if ok(c) {
			return c.ID
		}
	}
	t.Fatal("no such card")
	return 0
}

// moveCard takes card id out of wherever it is and returns the state's pieces untouched otherwise.
func takeCard(s *state, id int) {
	del := func(xs []int) []int { return slices.DeleteFunc(slices.Clone(xs), func(c int) bool { return c == id }) }
	s.deck, s.aside, s.akDeck, s.discard = del(s.deck), del(s.aside), del(s.akDeck), del(s.discard)
	for i := range s.hands {
		s.hands[i] = del(s.hands[i])
	}
	s.market = slices.DeleteFunc(slices.Clone(s.market), func(p Placed) bool { return p.Card == id })
	for i := range s.line {
		s.line[i].invalid = slices.DeleteFunc(slices.Clone(s.line[i].invalid), func(p Placed) bool { return p.Card == id })
	}
	if s.line[0].Card == id { // swap the first Code Line card for the deck's top
		s.line[0].Card, s.deck = s.deck[0], s.deck[1:]
	}
}

// setLast makes card id (end A on top) the last Valid card.
func setLast(s *state, id int) {
	takeCard(s, id)
	s.line = append(s.line, lineEntry{Placed: Placed{Card: id}})
}

// giveCard puts card id into seat's hand.
func giveCard(s *state, seat engine.Seat, id int) {
	takeCard(s, id)
	s.hands[seat] = append(s.hands[seat], id)
}

func TestSetupByLevel(t *testing.T) {
	for level := range 4 {
		for _, mode := range []string{ModeServer, ModePlayer, ModeMastermind} {
			for n := 2; n <= 6; n++ {
				st, err := Game{}.New(engine.Options{"level": fmt.Sprint(level), "allknowing": mode}, players(n), 5)
				if mode == ModeMastermind && n < 3 {
					if err == nil || !engine.IsIllegal(err) {
						t.Fatalf("mastermind with %d players: %v", n, err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				s := st.(*state)
				checkConserved(t, s)
				hand := 3
				if len(s.breakers) == 1 {
					hand = 6
				}
				for _, b := range s.breakers {
					if len(s.hands[b]) != hand {
						t.Fatalf("level %d %s %dp: hand of %d", level, mode, n, len(s.hands[b]))
					}
				}
				aside := len(s.aside)
				if mode == ModeMastermind {
					aside = len(s.akDeck) + len(s.hands[s.ak])
					if len(s.hands[s.ak]) != 3 || len(s.aside) != 0 || s.phase != Setup || s.challenge != -1 {
						t.Fatalf("mastermind setup wrong: %+v", s.View(engine.Omniscient()))
					}
				}
				if aside != setAside[level] || len(s.market) != 3 || len(s.line) != 1 {
					t.Fatalf("level %d: %d set aside, market %d, line %d", level, aside, len(s.market), len(s.line))
				}
				if want := CardCount - setAside[level] - hand*len(s.breakers) - 4; len(s.deck) != want {
					t.Fatalf("level %d %s %dp: deck %d, want %d", level, mode, n, len(s.deck), want)
				}
				if mode != ModeMastermind && Challenges()[s.challenge].Level != level {
					t.Fatalf("challenge of level %d at level %d", Challenges()[s.challenge].Level, level)
				}
				if mode == ModeServer && len(s.breakers) != n || mode != ModeServer && s.toMove != 1 {
					t.Fatalf("%s: breakers %v, first %d", mode, s.breakers, s.toMove)
				}
			}
		}
	}
}

func TestPlayAndDiscardJudging(t *testing.T) {
	s := newState(0, ModeServer, players(3), 1)
	withCode(t, s, "bg != prev.bg")
	yellowBoth := func(c Card) bool { return c.A.BG == 0 && c.B.BG == 0 }
	last := findCard(t, yellowBoth)
	setLast(s, last)
	// Both ends yellow: a right discard.
	rest := slices.DeleteFunc(Deck(), func(c Card) bool { return c.ID == last })
	both := -1
	mixed := -1
	for _, c := range rest {
		if both < 0 && yellowBoth(c) {
			both = c.ID
		}
		if mixed < 0 && c.A.BG == 0 && c.B.BG != 0 {
			mixed = c.ID
		}
	}
	s.discard = append(s.discard, s.hands[0]...)
	s.hands[0] = nil
	giveCard(s, 0, both)
	giveCard(s, 0, mixed)
	s.toMove = 0
	mustApply(t, s, 0, DiscardAction(0))
	if slices.Contains(s.hands[0], both) || !slices.Contains(s.discard, both) || s.phase != Turn {
		t.Fatalf("right discard not taken: hand %v", s.hands[0])
	}
	// End B is Valid: the discard is wrong, the card stays and a penalty of 2 is owed.
	s.toMove = 0
	s.roundTurns = 0
	mustApply(t, s, 0, DiscardAction(0))
	if !slices.Contains(s.hands[0], mixed) || s.phase != Penalty || s.owed != 2 {
		t.Fatalf("wrong discard: hand %v phase %v owed %d", s.hands[0], s.phase, s.owed)
	}
	mustRefuse(t, s, 0, DrawAction(0, 1, 2), "owe only 2")
	deck := len(s.deck)
	m := s.market[1].Card
	mustApply(t, s, 0, DrawAction(1))
	if len(s.deck) != deck-1 || !slices.Contains(s.hands[0], m) || len(s.market) != 2 || len(s.hands[0]) != 3 {
		t.Fatalf("penalty draw: deck %d→%d, hand %v", deck, len(s.deck), s.hands[0])
	}
	// Playing the mixed card with the yellow end up is Invalid and piles beside the last Valid card.
	s.toMove, s.phase = 0, Turn
	i := slices.Index(s.hands[0], mixed)
	mustApply(t, s, 0, PlayAction(i, 0))
	if got := s.line[len(s.line)-1].invalid; len(got) != 1 || got[0].Card != mixed {
		t.Fatalf("invalid pile %v", got)
	}
	mustApply(t, s, 0, DrawAction())
	// With end B up it is Valid.
	giveCard(s, 0, mixed)
	s.toMove, s.phase = 0, Turn
	mustApply(t, s, 0, PlayAction(len(s.hands[0])-1, 1))
	if top := s.line[len(s.line)-1]; top.Card != mixed || top.Up != 1 {
		t.Fatalf("valid play not on the line: %+v", top)
	}
}

func TestPenaltyThresholdsAndCleanSlate(t *testing.T) {
	s := newState(1, ModeServer, players(3), 2)
	pile := func(entry, k int) {
		for range k {
			c := s.deck[0]
			s.deck = s.deck[1:]
			s.line[entry].invalid = append(s.line[entry].invalid, Placed{Card: c})
		}
	}
	s.line = append(s.line, lineEntry{Placed: Placed{Card: s.deck[0]}})
	s.deck = s.deck[1:]
	if s.penalty() != 2 {
		t.Fatalf("start penalty %d", s.penalty())
	}
	pile(0, 2)
	pile(1, 1)
	if s.penalty() != 3 {
		t.Fatalf("3 invalid: penalty %d", s.penalty())
	}
	pile(1, 3)
	if s.penalty() != 4 {
		t.Fatalf("6 invalid: penalty %d", s.penalty())
	}
	if v := s.view(engine.SeatViewer(0)); v.HintCost != 3 {
		t.Fatalf("first hint cost %d", v.HintCost)
	}
	// Clean Slate takes the pile of 4; 2 remain, so the penalty goes back to 2.
	s.events = []int{int(EventCleanSlate) * 2}
	s.eventsUsed = slices.DeleteFunc(rangeInts(EventCards), func(c int) bool { return c == int(EventCleanSlate)*2 })
	s.drawEvent(nil)
	checkConserved(t, s)
	if len(s.line[1].invalid) != 0 || len(s.line[0].invalid) != 2 || s.penalty() != 2 {
		t.Fatalf("after Clean Slate: piles %d/%d, penalty %d", len(s.line[0].invalid), len(s.line[1].invalid), s.penalty())
	}
}

func rangeInts(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// forceEvent makes the next Event card one of the given kind.
func forceEvent(s *state, k EventKind) {
	card := int(k) * 2
	if s.event == card || slices.Contains(s.keeps, card) {
		card++
	}
	s.events = slices.DeleteFunc(slices.Clone(s.events), func(c int) bool { return c == card })
	s.eventsUsed = slices.DeleteFunc(slices.Clone(s.eventsUsed), func(c int) bool { return c == card })
	s.keeps = slices.DeleteFunc(slices.Clone(s.keeps), func(c int) bool { return c == card })
	if s.event == card {
		s.event = -1
	}
	s.events = append([]int{card}, s.events...)
}

func TestRoundsEventsAndDirection(t *testing.T) {
	s := newState(1, ModeServer, players(3), 3)
	forceEvent(s, EventReversal)
	// Three turns make a round; then the Event is drawn at once (server All Knowing).
	for range 3 {
		playSafe(t, s)
	}
	if s.event < 0 || EventKindOf(s.event) != EventReversal || s.round != 2 {
		t.Fatalf("after round 1: event %d, round %d", s.event, s.round)
	}
	// Reversed: the player after the round's last mover in the other direction.
	last := s.history[len(s.history)-1].seat
	want := s.breakers[(slices.Index(s.breakers, last)+len(s.breakers)-1)%len(s.breakers)]
	if s.phase == Penalty {
		mustApply(t, s, s.toMove, DrawAction())
	}
	if s.toMove != want && len(s.hands[want]) > 0 {
		t.Fatalf("reversed order: %d to move, want %d", s.toMove, want)
	}
	// Silence forbids discards until the next Event.
	forceEvent(s, EventSilence)
	s.drawEvent(nil)
	checkConserved(t, s)
	mustRefuse(t, s, s.toMove, DiscardAction(0), "Silence")
}

// playSafe plays the mover's first card, paying any penalty from the deck.
func playSafe(t *testing.T, s *state) {
	t.Helper()
	seat := s.toMove
	mustApply(t, s, seat, PlayAction(0, 0))
	if s.phase == Penalty {
		mustApply(t, s, seat, DrawAction())
	}
}

func TestPassLeftAndBurden(t *testing.T) {
	s := newState(1, ModeServer, players(3), 4)
	hands := [][]int{slices.Clone(s.hands[0]), slices.Clone(s.hands[1]), slices.Clone(s.hands[2])}
	forceEvent(s, EventPassLeft)
	s.drawEvent(nil)
	if s.phase != PassLeft || len(s.Status().Active) != 3 {
		t.Fatalf("pass left: phase %v active %v", s.phase, s.Status().Active)
	}
	mustApply(t, s, 0, PassAction(0))
	mustRefuse(t, s, 0, PassAction(1), "already")
	mustApply(t, s, 1, PassAction(1))
	evs := mustApply(t, s, 2, PassAction(2))
	if !slices.Contains(s.hands[1], hands[0][0]) || !slices.Contains(s.hands[2], hands[1][1]) || !slices.Contains(s.hands[0], hands[2][2]) {
		t.Fatalf("cards did not move left: %v → %v", hands, s.hands)
	}
	for _, e := range evs {
		if e.Kind == "pass" && len(e.Seats) != 2 {
			t.Fatalf("a passed card is told to %v", e.Seats)
		}
	}
	deck := len(s.deck)
	forceEvent(s, EventBurden)
	s.drawEvent(nil)
	if len(s.deck) != deck-3 || len(s.hands[0]) != 4 {
		t.Fatalf("burden: deck %d→%d, hand %d", deck, len(s.deck), len(s.hands[0]))
	}
	// Not enough to draw for an Event: the team loses.
	s.discard = append(s.discard, s.deck...)
	s.deck = nil
	for _, p := range s.market {
		s.discard = append(s.discard, p.Card)
	}
	s.market = nil
	forceEvent(s, EventBurden)
	s.drawEvent(nil)
	checkConserved(t, s)
	if r, ok := s.Result(); !ok || len(r.Winners) != 0 {
		t.Fatalf("burden with nothing to draw: %+v %v", r, ok)
	}
}

func TestSpotlightFreshMarketAndKeeps(t *testing.T) {
	s := newState(1, ModeServer, players(3), 5)
	forceEvent(s, EventSpotlight)
	s.drawEvent(nil)
	v := s.view(engine.SeatViewer(0))
	for i, m := range v.Market {
		if m.Spotlight && !s.valid(m.Card.End(m.SpotUp)) {
			t.Fatalf("spotlit Market card %d is not Valid", i)
		}
	}
	old := slices.Clone(s.market)
	forceEvent(s, EventFreshMarket)
	s.drawEvent(nil)
	checkConserved(t, s)
	for _, p := range old {
		if !slices.Contains(s.discard, p.Card) {
			t.Fatalf("old Market card %d not discarded", p.Card)
		}
	}
	for _, k := range []EventKind{EventFreeHint, EventSecondChance, EventLuckyDraw} {
		forceEvent(s, k)
		s.drawEvent(nil)
		checkConserved(t, s)
	}
	if len(s.keeps) != 3 || s.event != -1 {
		t.Fatalf("keeps %v, in force %d", s.keeps, s.event)
	}
	// Lucky Draw: the team agrees, the card goes unjudged.
	seat := s.toMove
	c := s.hands[seat][0]
	mustApply(t, s, seat, ProposeAction(Proposal{Kind: ProposeLuckyDraw, Card: 0}))
	if s.phase != Vote {
		t.Fatalf("phase %v after proposing", s.phase)
	}
	for _, b := range s.breakers {
		if b != seat {
			mustApply(t, s, b, VoteAction(true))
		}
	}
	if slices.Contains(s.hands[seat], c) || !slices.Contains(s.discard, c) || len(s.keeps) != 2 {
		t.Fatalf("lucky draw not used")
	}
	// Free Hint: a no vote turns it down, and it cannot be asked again this turn.
	mustApply(t, s, seat, ProposeAction(Proposal{Kind: ProposeFreeHint}))
	other := s.breakers[(slices.Index(s.breakers, seat)+1)%3]
	mustApply(t, s, other, VoteAction(false))
	mustRefuse(t, s, seat, ProposeAction(Proposal{Kind: ProposeFreeHint}), "turned that down")
	// Second Chance after an Invalid play.
	withCode(t, s, "bg != prev.bg")
	last := s.end(s.line[len(s.line)-1].Placed)
	bad := findCard(t, func(c Card) bool { return c.A.BG == last.BG && s.whereIs(c.ID) != "line" })
	giveCard(s, seat, bad)
	s.phase, s.toMove, s.declined = Turn, seat, nil
	mustApply(t, s, seat, PlayAction(len(s.hands[seat])-1, 0))
	mustApply(t, s, seat, ProposeAction(Proposal{Kind: ProposeSecondChance}))
	for _, b := range s.breakers {
		if b != seat {
			mustApply(t, s, b, VoteAction(true))
		}
	}
	if !slices.Contains(s.hands[seat], bad) || s.invalidCount() != 0 || len(s.keeps) != 1 {
		t.Fatalf("second chance: hand %v invalid %d keeps %v", s.hands[seat], s.invalidCount(), s.keeps)
	}
}

func (s *state) whereIs(id int) string {
	for _, e := range s.line {
		if e.Card == id {
			return "line"
		}
	}
	return ""
}

func TestHintsAreVotedAndPaid(t *testing.T) {
	s := newState(2, ModeServer, players(2), 6)
	mustRefuse(t, s, 0, ProposeAction(Proposal{Kind: ProposeHint}), "No Hint")
	for range 3 {
		s.line[0].invalid = append(s.line[0].invalid, Placed{Card: s.deck[0]})
		s.deck = s.deck[1:]
	}
	deck := len(s.deck)
	mustApply(t, s, 1, ProposeAction(Proposal{Kind: ProposeHint}))
	if s.Status().Active[0] != 0 {
		t.Fatalf("vote waits for %v", s.Status().Active)
	}
	evs := mustApply(t, s, 0, VoteAction(true))
	if len(s.deck) != deck-3 || len(s.hints) != 1 {
		t.Fatalf("hint: deck %d→%d, hints %v (%v)", deck, len(s.deck), s.hints, evs)
	}
	if !slices.Contains(Challenges()[s.challenge].Hints(), s.hints[0]) {
		t.Fatalf("revealed hint %v is not the Code's", s.hints[0])
	}
	mustRefuse(t, s, 0, ProposeAction(Proposal{Kind: ProposeHint}), "No Hint")
}

func TestOneBreakerAndGuess(t *testing.T) {
	s := newState(1, ModePlayer, players(2), 7)
	if len(s.breakers) != 1 || len(s.hands[1]) != 6 || s.roundLen != 2 {
		t.Fatalf("one breaker: %v hand %d round %d", s.breakers, len(s.hands[1]), s.roundLen)
	}
	mustRefuse(t, s, 0, PlayAction(0, 0), "")
	playSafe(t, s)
	if s.phase != Turn || s.toMove != 1 {
		t.Fatalf("one breaker takes two turns: phase %v to move %d", s.phase, s.toMove)
	}
	playSafe(t, s)
	if s.phase != RevealEvent || !slices.Equal(s.Status().Active, []engine.Seat{0}) {
		t.Fatalf("the All Knowing paces the Event: %v %v", s.phase, s.Status().Active)
	}
	mustRefuse(t, s, 1, RevealAction("event"), "Only the All Knowing")
	mustApply(t, s, 0, RevealAction("event"))
	if s.phase == PassLeft || s.phase == RevealEvent {
		t.Fatalf("phase %v after the Event", s.phase)
	}
	// The All Knowing sees the Code; the Code Breaker does not.
	if s.view(engine.SeatViewer(0)).Challenge == nil || s.view(engine.SeatViewer(1)).Challenge != nil {
		t.Fatal("the Code is shown to the wrong seat")
	}
	// A wrong guess costs double the penalty with one Code Breaker.
	withCode(t, s, "bg != prev.bg")
	s.phase = Turn
	deck := len(s.deck)
	mustApply(t, s, 1, ProposeAction(Proposal{Kind: ProposeGuess, Text: "bg == prev.bg"}))
	if len(s.deck) != deck-2*s.penalty() {
		t.Fatalf("wrong guess: deck %d→%d", deck, len(s.deck))
	}
	mustRefuse(t, s, 1, ProposeAction(Proposal{Kind: ProposeGuess, Text: "bg != prev2.bg"}), "last Valid card")
	mustRefuse(t, s, 1, ProposeAction(Proposal{Kind: ProposeGuess, Text: "bg !="}), "does not read")
	// An equivalent rule in other words wins.
	mustApply(t, s, 1, ProposeAction(Proposal{Kind: ProposeGuess, Text: "not (prev.bg = bg)"}))
	r, ok := s.Result()
	if !ok || !r.Won(1) || !r.Won(0) {
		t.Fatalf("right guess: %+v", r)
	}
}

func TestGuessNeedsOneBreakerWithCards(t *testing.T) {
	s := newState(1, ModeServer, players(3), 8)
	mustRefuse(t, s, 0, ProposeAction(Proposal{Kind: ProposeGuess, Text: "bg != prev.bg"}), "one Code Breaker")
	s.discard = append(s.discard, s.hands[1]...)
	s.discard = append(s.discard, s.hands[2]...)
	s.hands[1], s.hands[2] = nil, nil
	mustApply(t, s, 2, ProposeAction(Proposal{Kind: ProposeGuess, Text: "bg != prev.bg"}))
	if s.phase != Vote {
		t.Fatalf("inactive Code Breakers vote too: phase %v", s.phase)
	}
}

func TestMastermind(t *testing.T) {
	s := newState(2, ModeMastermind, players(4), 9)
	ak := s.view(engine.SeatViewer(0))
	if len(ak.Offered) != 2 || ak.Challenge != nil || len(ak.Hand) != 3 {
		t.Fatalf("mastermind view: %+v", ak)
	}
	if v := s.view(engine.SeatViewer(1)); v.Offered != nil || v.Seats[0].Hand != nil {
		t.Fatal("a Code Breaker sees the Mastermind's secrets")
	}
	mustRefuse(t, s, 1, PlayAction(0, 0), "choosing")
	mustApply(t, s, 0, SetupAction(1, false))
	if s.challenge != s.offered[1] || s.loyal {
		t.Fatal("setup not applied")
	}
	for s.phase == Turn || s.phase == Penalty {
		playSafe(t, s)
	}
	if s.phase != RevealEvent {
		t.Fatalf("phase %v at round end", s.phase)
	}
	mustApply(t, s, 0, RevealAction("event"))
	for s.phase == PassLeft {
		a := s.Status().Active[0]
		mustApply(t, s, a, PassAction(0))
	}
	if s.phase != MastermindTurn {
		t.Fatalf("phase %v after the Event", s.phase)
	}
	in := s.hands[0][1]
	out := s.market[2].Card
	mustApply(t, s, 0, SwapAction(1, 2, 1))
	if s.market[2] != (Placed{Card: in, Up: 1}) || !slices.Contains(s.hands[0], out) || s.phase != Turn {
		t.Fatalf("swap: market %v hand %v phase %v", s.market, s.hands[0], s.phase)
	}
	// A False Mastermind wins when the team loses.
	s.finish(nil, false, "test")
	if r, _ := s.Result(); !slices.Equal(r.Winners, []engine.Seat{0}) {
		t.Fatalf("winners %v", r.Winners)
	}
	if v := s.view(engine.SeatViewer(1)); v.Loyal == nil || *v.Loyal {
		t.Fatal("loyalty not revealed at the end")
	}
}

func TestBotsFinishGames(t *testing.T) {
	games := 40
	if raceEnabled || testing.Short() {
		games = 8
	}
	for _, level := range []string{LevelStrong, LevelEasy} {
		won, turns := 0, 0
		for g := range games {
			n := 2 + g%5
			mode := []string{ModeServer, ModePlayer, ModeMastermind}[g%3]
			if mode == ModeMastermind && n < 3 {
				mode = ModeServer
			}
			st, _, err := engine.Start(Game{}, engine.Options{"level": fmt.Sprint(g % 4), "allknowing": mode}, players(n), uint64(g))
			if err != nil {
				t.Fatal(err)
			}
			bots := make([]engine.Bot, n)
			for i := range bots {
				bots[i], _ = Game{}.NewBot(engine.Seat(i), level, uint64(g*10+i))
			}
			for step := 0; !st.Status().Finished; step++ {
				if step > 3000 {
					t.Fatalf("%s bots: game %d did not end", level, g)
				}
				a := st.Status().Active[0]
				act, err := bots[a].Act(st.View(engine.SeatViewer(a)))
				if err != nil || act == nil {
					t.Fatalf("bot %d: %s %v", a, act, err)
				}
				if _, err := st.Apply(a, act); err != nil {
					t.Fatalf("%s bot %d move %s refused in %v: %v", level, a, act, st.(*state).phase, err)
				}
			}
			r, _ := st.Result()
			if len(r.Winners) > 0 && r.Won(st.(*state).breakers[0]) {
				won++
			}
			turns += st.Status().Turn
		}
		t.Logf("%s bots: team won %d of %d games, %.1f turns on average", level, won, games, float64(turns)/float64(games))
	}
}
