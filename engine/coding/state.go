package coding

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
)

// RoundCount is the number of Data-and-Hack rounds before either system's end game.
const RoundCount = 4

type config struct {
	system       string
	answerMillis int
	sheet        bool
	// firstRules deals the Data cards as rules revision 1 did (see
	// RulesFirst): kept only so games recorded then replay as played.
	firstRules bool
}

// Held is a Hack card answered by the seat holding it. Answers are public.
type Held struct {
	Card  int         `json:"card"`
	Green bool        `json:"green"`
	From  engine.Seat `json:"from"`
	Round int         `json:"round"` // 1–4, or 0 for Counter Cracking turns
}

// NoData is a public "I cannot take a Data card" announcement: every kind in
// Kinds (those left on the table that the seat did not hold) covers the
// seat's code.
type NoData struct {
	Round int   `json:"round"`
	Kinds []int `json:"kinds"`
}

// Guess is a wrong public decode of a seat's code.
type Guess struct {
	By   engine.Seat `json:"by"`
	Code Code        `json:"code"`
}

// state is one game in progress.
type state struct {
	config
	n       int
	players []engine.Player

	codes    []Code
	ordered  []bool
	revealed [][3]bool
	out      []bool
	leftover []int // code cards not dealt, top first
	extras   []int // leftover cards dealt face up (Speed Cracking)

	dataTotal   int
	dataField   [DataKinds]int // copies left per kind
	dataCleared int
	data        [][]int // kinds held per seat, in order taken
	noData      [][]NoData

	hackLine    []int
	hackDeck    []int
	hackCleared []int
	hacks       [][]Held
	lastFrom    []engine.Seat // sender of each seat's latest Hack card, or -1

	guesses [][]Guess // wrong decodes per target
	wrongs  []int     // wrong decodes per decoder (Counter)

	phase   Phase
	round   int         // 1–4 during the rounds
	first   engine.Seat // holder of the first-player card
	toMove  engine.Seat
	acted   []bool // this round
	mayStop bool   // Counter: toMove just decoded right

	votes      []bool
	claims     int // taps so far
	claimant   engine.Seat
	xChoice    []int // pending X reveal choices (0 none, 1 X1, 2 X2)
	extraDeals int
	xRevealed  bool

	moves         int // accepted actions (a view's Turn, which seeds the bots)
	turns         int // turns of play taken: hacks and decodes; Status counts these
	plays         int // hacking turns taken
	firstDecodeAt int // plays taken before the first right decode (0: none yet)
	result        *engine.Result
}

var _ engine.State = (*state)(nil)

// newState deals a new game.
func newState(cfg config, players []engine.Player, seed uint64) *state {
	n := len(players)
	rng := rand.New(rand.NewPCG(seed, 0x636f64696e67)) // "coding"
	s := &state{
		config:   cfg,
		n:        n,
		players:  slices.Clone(players),
		codes:    make([]Code, n),
		ordered:  make([]bool, n),
		revealed: make([][3]bool, n),
		out:      make([]bool, n),
		data:     make([][]int, n),
		noData:   make([][]NoData, n),
		hacks:    make([][]Held, n),
		lastFrom: make([]engine.Seat, n),
		guesses:  make([][]Guess, n),
		wrongs:   make([]int, n),
		acted:    make([]bool, n),
		votes:    make([]bool, n),
		xChoice:  make([]int, n),
		toMove:   engine.System,
		claimant: engine.System,
	}
	letters := rng.Perm(Letters)
	digits := rng.Perm(Digits)
	for i := range n {
		s.codes[i] = Code{Letter: letters[i], X1: digits[2*i], X2: digits[2*i+1]}
		s.lastFrom[i] = engine.System
	}
	for _, l := range letters[n:] {
		s.leftover = append(s.leftover, l)
	}
	for _, d := range digits[2*n:] {
		s.leftover = append(s.leftover, Letters+d)
	}
	rng.Shuffle(len(s.leftover), func(i, j int) { s.leftover[i], s.leftover[j] = s.leftover[j], s.leftover[i] })
	copies := dataCopies(n, cfg.firstRules)
	for k := range DataKinds {
		s.dataField[k] = copies
	}
	s.dataTotal = copies * DataKinds
	deck := rng.Perm(HackCards)
	s.hackLine = deck[:HackLine:HackLine]
	s.hackDeck = deck[HackLine:]
	s.first = engine.Seat(rng.IntN(n))
	return s
}

// dataCopies is how many copies of each Data card kind a game of n players
// lays out: one with 2 players (8 cards), two with 3 or 4 (16), so that
// after round 4 everyone can hold four. Rules revision 1 had it the other
// way round (firstRules).
func dataCopies(n int, firstRules bool) int {
	if (n == 2) == firstRules {
		return 2
	}
	return 1
}

func (s *state) name(seat engine.Seat) string { return engine.SeatName(s.players, seat) }

func (s *state) validSeat(seat engine.Seat) bool { return seat >= 0 && int(seat) < s.n }

// inCount is the number of players still in the game.
func (s *state) inCount() int {
	c := 0
	for _, o := range s.out {
		if !o {
			c++
		}
	}
	return c
}

// lastIn returns the one player still in (or System).
func (s *state) lastIn() engine.Seat {
	for i, o := range s.out {
		if !o {
			return engine.Seat(i)
		}
	}
	return engine.System
}

// nextIn is the first player still in to the left of seat.
func (s *state) nextIn(seat engine.Seat) engine.Seat {
	for i := 1; i <= s.n; i++ {
		c := engine.Seat((int(seat) + i) % s.n)
		if !s.out[c] {
			return c
		}
	}
	return seat
}

// Status says who may act now.
//
// Its Turn counts turns of play only, as the other games do: a hack or a
// decode. Setting codes, turning a card face up, choosing an X card and the
// race (taps, answers, votes) are steps inside or between turns, and a
// title reading "turn 4" in round 1 of a three-player game would count them.
func (s *state) Status() engine.Status {
	return engine.StatusOf(s.turns+1, s.phase == Finished, s.active)
}

func (s *state) active() []engine.Seat {
	var act []engine.Seat
	switch s.phase {
	case Setup:
		for i, ok := range s.ordered {
			if !ok {
				act = append(act, engine.Seat(i))
			}
		}
	case Rounds, Counter, RevealOne:
		act = []engine.Seat{s.toMove}
	case Answer:
		act = []engine.Seat{s.claimant}
	case Race:
		for i, o := range s.out {
			if !o {
				act = append(act, engine.Seat(i))
			}
		}
	case RevealX:
		for i, o := range s.out {
			if !o && s.xChoice[i] == 0 {
				act = append(act, engine.Seat(i))
			}
		}
	}
	return act
}

// Result reports how the game ended.
func (s *state) Result() (engine.Result, bool) { return engine.FinalResult(s.result) }

// Timer is the answer window while a Speed Cracking claim is open.
func (s *state) Timer() *engine.Timer {
	if s.phase != Answer {
		return nil
	}
	return engine.TimerAfter(s.answerMillis, TimeoutAction(s.claims))
}

// View returns a View for v (see View's fields for what each viewer sees).
func (s *state) View(v engine.Viewer) any { return s.view(v) }

// Apply validates and applies one action from seat.
func (s *state) Apply(seat engine.Seat, data []byte) ([]engine.Event, error) {
	var a Action
	if err := engine.OpenApply(s.phase == Finished, data, &a, "Choose exactly one move."); err != nil {
		return nil, err
	}
	if a.Timeout != nil {
		if seat != engine.System {
			return nil, engine.Illegal("Only the table's clock can end an answer window.")
		}
		return s.timeout(a.Timeout.Claim)
	}
	if !s.validSeat(seat) {
		return nil, engine.Illegal("Only a player in the game can do that.")
	}
	if s.out[seat] {
		return nil, engine.Illegal("You are out of this game; you can watch the rest.")
	}
	evs, err := s.dispatch(seat, a)
	if err == nil {
		s.moves++
	}
	return evs, err
}

func (s *state) dispatch(seat engine.Seat, a Action) ([]engine.Event, error) {
	switch s.phase {
	case Setup:
		if a.Order == nil {
			return nil, engine.Illegal("First put your two digits in order: choose which one is X1.")
		}
		return s.order(seat, a.Order.X1)
	case Rounds, Counter, RevealOne:
		if seat != s.toMove {
			return nil, engine.Illegal("It is %s's turn.", s.name(s.toMove))
		}
	}
	switch s.phase {
	case Rounds:
		if a.Play == nil {
			return nil, engine.Illegal("Round %d: take a Data card (if you can) and send a Hack card.", s.round)
		}
		return s.play(seat, *a.Play)
	case Counter:
		switch {
		case a.Play != nil:
			return s.play(seat, *a.Play)
		case a.Decode != nil:
			return s.decode(seat, *a.Decode)
		case a.Stop && s.mayStop:
			s.mayStop = false
			s.toMove = s.nextIn(seat)
			return []engine.Event{{Kind: "stop", Text: fmt.Sprintf("%s stops; %s's turn.", s.name(seat), s.name(s.toMove))}}, nil
		case a.Stop:
			return nil, engine.Illegal("You may stop only right after a right decode; hack or decode.")
		default:
			return nil, engine.Illegal("Hack (a Data card and a Hack card) or decode someone's code.")
		}
	case RevealOne:
		if a.Reveal == nil {
			return nil, engine.Illegal("Your decode was wrong: turn one of your code cards face up.")
		}
		return s.revealOne(seat, a.Reveal.Pos)
	case Race:
		switch {
		case a.Tap:
			return s.tap(seat), nil
		case a.Vote:
			return s.vote(seat)
		default:
			return nil, engine.Illegal("Tap to claim the answer, or vote for more data.")
		}
	case Answer:
		if seat != s.claimant {
			return nil, engine.Illegal("%s tapped first and is answering.", s.name(s.claimant))
		}
		if a.Decode == nil {
			return nil, engine.Illegal("Name a player and their full code, like F98.")
		}
		return s.answer(seat, *a.Decode)
	case RevealX:
		if a.Reveal == nil {
			return nil, engine.Illegal("Everyone is choosing an X card to turn face up.")
		}
		return s.chooseX(seat, a.Reveal.Pos)
	}
	return nil, engine.Illegal("That move is not possible now.")
}

// order sets a seat's digit order during setup.
func (s *state) order(seat engine.Seat, x1 int) ([]engine.Event, error) {
	if s.ordered[seat] {
		return nil, engine.Illegal("Your code is already set; waiting for the others.")
	}
	c := s.codes[seat]
	switch x1 {
	case c.X1:
	case c.X2:
		c.X1, c.X2 = c.X2, c.X1
	default:
		return nil, engine.Illegal("Your digits are %d and %d; choose one of them for X1.", c.X1, c.X2)
	}
	s.codes[seat] = c
	s.ordered[seat] = true
	evs := []engine.Event{
		{Kind: "order", Text: fmt.Sprintf("Your code is %s.", c), Others: fmt.Sprintf("%s's code is %s.", s.name(seat), c), Seats: []engine.Seat{seat}},
		{Kind: "order", Text: fmt.Sprintf("%s has set their code.", s.name(seat))},
	}
	if slices.Contains(s.ordered, false) {
		return evs, nil
	}
	s.phase, s.round, s.toMove = Rounds, 1, s.first
	return append(evs, engine.Event{Kind: "round",
		Text: fmt.Sprintf("Round 1 of %d: %s holds the first-player card.", RoundCount, s.name(s.first))}), nil
}

// takeable lists the Data card kinds seat may take now.
func (s *state) takeable(seat engine.Seat) []int {
	var ks []int
	for k := range DataKinds {
		if s.dataField[k] > 0 && !slices.Contains(s.data[seat], k) && !inDataRange(k, s.codes[seat]) {
			ks = append(ks, k)
		}
	}
	return ks
}

// recipients lists who seat may send a Hack card to now. It uses public
// facts only.
func (s *state) recipients(seat engine.Seat) []engine.Seat {
	return recipients(s.phase, s.n, seat, s.first, s.out, s.acted, s.lastFrom, func(i int) int { return len(s.hacks[i]) })
}

// recipients is shared with views: in the rounds, players who have not
// acted (the first player only once everyone else has); in Counter
// Cracking, players still in holding fewer than five Hack cards, never the
// latest sender to seat unless only two players are in.
//
// In the rounds the rule against sending back needs no check of its own:
// whoever sent to seat this round has acted. The round's first player
// received nothing this round, so they may send to anyone (the spec: the
// sender picks among the players who have not acted); the card they got
// in the round before does not bind them.
func recipients(phase Phase, n int, seat, first engine.Seat, out, acted []bool, lastFrom []engine.Seat, held func(int) int) []engine.Seat {
	ins := 0
	for _, o := range out {
		if !o {
			ins++
		}
	}
	var rs []engine.Seat
	for i := range n {
		r := engine.Seat(i)
		if r == seat || out[i] || (phase == Counter && ins > 2 && r == lastFrom[seat]) {
			continue
		}
		switch phase {
		case Rounds:
			if acted[i] || r == first {
				continue
			}
		case Counter:
			if held(i) >= MaxHacksHeld {
				continue
			}
		default:
			continue
		}
		rs = append(rs, r)
	}
	if phase == Rounds && len(rs) == 0 && seat != first {
		rs = []engine.Seat{first}
	}
	return rs
}

// play is a hacking turn: a Data card (or announcement) and a Hack card.
func (s *state) play(seat engine.Seat, m PlayMove) ([]engine.Event, error) {
	if !slices.Contains(s.hackLine, m.Hack) {
		if len(s.hackLine) == 0 {
			return nil, engine.Illegal("No Hack card is left; decode someone instead.")
		}
		return nil, engine.Illegal("That Hack card is not face up; pick one of the %d in the line.", len(s.hackLine))
	}
	rs := s.recipients(seat)
	if !slices.Contains(rs, m.To) {
		if len(rs) == 0 {
			return nil, engine.Illegal("Nobody can receive a Hack card from you now; decode someone instead.")
		}
		names := make([]string, len(rs))
		for i, r := range rs {
			names[i] = s.name(r)
		}
		return nil, engine.Illegal("You can send a Hack card to %s, not to that player.", joinOr(names))
	}
	can := s.takeable(seat)
	var lead string
	switch {
	case m.Data != nil:
		k := *m.Data
		switch {
		case k < 0 || k >= DataKinds:
			return nil, engine.Illegal("There is no Data card kind %d.", k)
		case s.dataField[k] == 0:
			return nil, engine.Illegal("No %s Data card is left on the table.", DataLabel(k))
		case slices.Contains(s.data[seat], k):
			return nil, engine.Illegal("You already hold a %s Data card.", DataLabel(k))
		case inDataRange(k, s.codes[seat]):
			return nil, engine.Illegal("Your code %s is in %s, so you cannot take that card.", s.codes[seat], DataLabel(k))
		}
		s.dataField[k]--
		s.data[seat] = append(s.data[seat], k)
		lead = fmt.Sprintf("%s shows their code is not in %s", s.name(seat), DataLabel(k))
	case len(can) > 0:
		labels := make([]string, len(can))
		for i, k := range can {
			labels[i] = DataLabel(k)
		}
		return nil, engine.Illegal("You can take a Data card (%s); take one first.", strings.Join(labels, ", "))
	default:
		var kinds []int
		for k := range DataKinds {
			if s.dataField[k] > 0 && !slices.Contains(s.data[seat], k) {
				kinds = append(kinds, k)
			}
		}
		if len(kinds) > 0 {
			s.noData[seat] = append(s.noData[seat], NoData{Round: s.round, Kinds: kinds})
			lead = fmt.Sprintf("%s cannot take any Data card", s.name(seat))
		} else {
			lead = fmt.Sprintf("%s has no Data card left to take", s.name(seat))
		}
	}
	i := slices.Index(s.hackLine, m.Hack)
	if len(s.hackDeck) > 0 {
		s.hackLine[i] = s.hackDeck[0]
		s.hackDeck = s.hackDeck[1:]
	} else {
		s.hackLine = slices.Delete(s.hackLine, i, i+1)
	}
	h := Hack(m.Hack)
	green := h.Green(s.codes[m.To])
	round := 0
	if s.phase == Rounds {
		round = s.round
	}
	s.hacks[m.To] = append(s.hacks[m.To], Held{Card: m.Hack, Green: green, From: seat, Round: round})
	s.lastFrom[m.To] = seat
	s.plays++
	s.turns++
	answer := "red"
	if green {
		answer = "green"
	}
	evs := []engine.Event{{Kind: "play", Text: fmt.Sprintf("%s and sends \"%s\" to %s: %s.",
		lead, h.Label(), s.name(m.To), answer)}}
	if s.phase == Counter {
		s.mayStop = false
		s.toMove = s.nextIn(seat)
		return evs, nil
	}
	s.acted[seat] = true
	if m.To != s.first {
		s.toMove = m.To
		return evs, nil
	}
	return append(evs, s.endRound()...), nil
}

// endRound passes the first-player card left and starts the next round or
// the chosen system's end game.
func (s *state) endRound() []engine.Event {
	s.first = engine.Seat((int(s.first) + 1) % s.n)
	clear(s.acted)
	if s.round < RoundCount {
		s.round++
		s.toMove = s.first
		return []engine.Event{{Kind: "round",
			Text: fmt.Sprintf("Round %d of %d: %s holds the first-player card.", s.round, RoundCount, s.name(s.first))}}
	}
	s.round = 0
	if s.system == SystemCounter {
		s.phase = Counter
		s.toMove = s.first
		return []engine.Event{{Kind: "counter",
			Text: fmt.Sprintf("Counter Cracking begins with %s: hack or decode.", s.name(s.first))}}
	}
	for k := range DataKinds {
		s.dataCleared += s.dataField[k]
		s.dataField[k] = 0
	}
	s.hackCleared = append(s.hackCleared, s.hackLine...)
	s.hackCleared = append(s.hackCleared, s.hackDeck...)
	s.hackLine, s.hackDeck = nil, nil
	s.phase = Race
	s.toMove = engine.System
	return []engine.Event{{Kind: "race",
		Text: "The rounds are over and the table is cleared: tap to name a code, or vote for more data."}}
}

// decode is a Counter Cracking decoding turn.
func (s *state) decode(seat engine.Seat, m DecodeMove) ([]engine.Event, error) {
	target, c, err := s.checkGuess(seat, m)
	if err != nil {
		return nil, err
	}
	said := fmt.Sprintf("%s decodes %s as %s", s.name(seat), s.name(target), c)
	s.turns++
	if c == s.codes[target] {
		s.out[target] = true
		s.revealed[target] = [3]bool{true, true, true}
		if s.firstDecodeAt == 0 {
			s.firstDecodeAt = s.plays + 1
		}
		evs := []engine.Event{{Kind: "decode", Text: said + ": right! " + s.name(target) + " is out."}}
		if s.inCount() == 1 {
			return append(evs, s.finish(seat, fmt.Sprintf("%s has the last hidden code and wins.", s.name(seat)))), nil
		}
		s.mayStop = true
		return append(evs, engine.Event{Kind: "play-on", Text: s.name(seat) + " may play on or stop."}), nil
	}
	s.guesses[target] = append(s.guesses[target], Guess{By: seat, Code: c})
	s.wrongs[seat]++
	s.mayStop = false
	evs := []engine.Event{{Kind: "decode", Text: said + ": wrong."}}
	if s.wrongs[seat] < 3 {
		s.phase = RevealOne
		return append(evs, engine.Event{Kind: "reveal-one",
			Text: s.name(seat) + " must turn one code card face up."}), nil
	}
	s.out[seat] = true
	s.revealed[seat] = [3]bool{true, true, true}
	evs = append(evs, engine.Event{Kind: "out",
		Text: fmt.Sprintf("That was %s's third wrong decode: their code %s is shown and they are out.", s.name(seat), s.codes[seat])})
	if s.inCount() == 1 {
		w := s.lastIn()
		return append(evs, s.finish(w, fmt.Sprintf("%s has the last hidden code and wins.", s.name(w)))), nil
	}
	s.toMove = s.nextIn(seat)
	return evs, nil
}

// checkGuess validates a named code for seat's decode or answer.
func (s *state) checkGuess(seat engine.Seat, m DecodeMove) (engine.Seat, Code, error) {
	if !s.validSeat(m.Target) || m.Target == seat || s.out[m.Target] {
		return 0, Code{}, engine.Illegal("Name another player who is still in.")
	}
	c, err := ParseCode(m.Code)
	if err != nil {
		return 0, Code{}, engine.Illegal("That is not a code: %v.", err)
	}
	return m.Target, c, nil
}

// revealOne turns one of seat's hidden cards face up after a wrong decode.
func (s *state) revealOne(seat engine.Seat, pos int) ([]engine.Event, error) {
	if pos < 0 || pos > 2 || s.revealed[seat][pos] {
		return nil, engine.Illegal("Choose one of your hidden code cards (%s).", s.hiddenNames(seat))
	}
	s.revealed[seat][pos] = true
	s.phase = Counter
	s.toMove = s.nextIn(seat)
	return []engine.Event{{Kind: "reveal", Text: fmt.Sprintf("%s shows their %s: %s. %s's turn.",
		s.name(seat), PosName(pos), ValueName(pos, s.codes[seat].At(pos)), s.name(s.toMove))}}, nil
}

func (s *state) hiddenNames(seat engine.Seat) string {
	var names []string
	for p := range 3 {
		if !s.revealed[seat][p] {
			names = append(names, PosName(p))
		}
	}
	return strings.Join(names, ", ")
}

// tap is the first claim the table receives in the race.
func (s *state) tap(seat engine.Seat) []engine.Event {
	s.claims++
	s.claimant = seat
	s.phase = Answer
	clear(s.votes)
	return []engine.Event{{Kind: "tap", Text: fmt.Sprintf("%s tapped first and has %d s to name a code.",
		s.name(seat), s.answerMillis/1000)}}
}

// answer resolves a claim in the race.
func (s *state) answer(seat engine.Seat, m DecodeMove) ([]engine.Event, error) {
	target, c, err := s.checkGuess(seat, m)
	if err != nil {
		return nil, err
	}
	said := fmt.Sprintf("%s names %s's code: %s", s.name(seat), s.name(target), c)
	if c == s.codes[target] {
		s.firstDecodeAt = s.plays + 1
		return []engine.Event{{Kind: "decode", Text: said + ": right!"},
			s.finish(seat, fmt.Sprintf("%s decoded %s first and wins.", s.name(seat), s.name(target)))}, nil
	}
	s.guesses[target] = append(s.guesses[target], Guess{By: seat, Code: c})
	return append([]engine.Event{{Kind: "decode", Text: said + ": wrong."}},
		s.knockOut(seat, "is wrong")...), nil
}

// timeout ends an open claim whose answer window ran out: a foul.
func (s *state) timeout(claim int) ([]engine.Event, error) {
	if s.phase != Answer || claim != s.claims {
		return nil, engine.Illegal("No answer window %d is open.", claim)
	}
	s.moves++
	return s.knockOut(s.claimant, "ran out of time (a foul)"), nil
}

// knockOut puts a claimant out of the race with their code shown.
func (s *state) knockOut(seat engine.Seat, why string) []engine.Event {
	s.out[seat] = true
	s.revealed[seat] = [3]bool{true, true, true}
	s.claimant = engine.System
	s.phase = Race
	clear(s.votes)
	evs := []engine.Event{{Kind: "out", Text: fmt.Sprintf("%s %s and is out; their code was %s.", s.name(seat), why, s.codes[seat])}}
	if s.inCount() == 1 {
		w := s.lastIn()
		return append(evs, s.finish(w, fmt.Sprintf("%s is the last player standing and wins.", s.name(w))))
	}
	return evs
}

// moreData says what a unanimous vote would bring now.
func (s *state) moreData() MoreData {
	switch {
	case len(s.leftover) > 0 && (s.n < 4 || s.extraDeals == 0):
		return MoreDeal
	case !s.xRevealed:
		return MoreRevealX
	default:
		return MoreNone
	}
}

// vote records a vote for more data and acts once everyone still in agrees.
func (s *state) vote(seat engine.Seat) ([]engine.Event, error) {
	more := s.moreData()
	if more == MoreNone {
		return nil, engine.Illegal("No more data can be revealed; someone has to tap.")
	}
	if s.votes[seat] {
		return nil, engine.Illegal("You already voted; waiting for the others.")
	}
	s.votes[seat] = true
	votes := 0
	for i, v := range s.votes {
		if v && !s.out[i] {
			votes++
		}
	}
	evs := []engine.Event{{Kind: "vote", Text: fmt.Sprintf("%s votes for more data (%d of %d).", s.name(seat), votes, s.inCount())}}
	if votes < s.inCount() {
		return evs, nil
	}
	clear(s.votes)
	if more == MoreRevealX {
		s.phase = RevealX
		return append(evs, engine.Event{Kind: "reveal-x", Text: "Everyone chooses one X card to turn face up together."}), nil
	}
	k := min(s.inCount(), len(s.leftover))
	dealt := s.leftover[:k]
	s.leftover = slices.Clone(s.leftover[k:])
	s.extras = append(s.extras, dealt...)
	s.extraDeals++
	names := make([]string, len(dealt))
	for i, c := range dealt {
		names[i] = CardName(c)
	}
	return append(evs, engine.Event{Kind: "deal",
		Text: fmt.Sprintf("Extra cards turned face up, held by nobody: %s.", strings.Join(names, " "))}), nil
}

// chooseX records one player's private choice for the X card reveal and
// shows every choice once all are in.
func (s *state) chooseX(seat engine.Seat, pos int) ([]engine.Event, error) {
	if s.xChoice[seat] != 0 {
		return nil, engine.Illegal("You already chose; waiting for the others.")
	}
	if pos != PosX1 && pos != PosX2 {
		return nil, engine.Illegal("Choose X1 (1) or X2 (2) to turn face up.")
	}
	s.xChoice[seat] = pos
	evs := []engine.Event{
		{Kind: "choose-x", Text: fmt.Sprintf("You will show your %s.", PosName(pos)),
			Others: fmt.Sprintf("%s will show their %s.", s.name(seat), PosName(pos)), Seats: []engine.Seat{seat}},
		{Kind: "choose-x", Text: fmt.Sprintf("%s has chosen a card to show.", s.name(seat))},
	}
	var parts []string
	for i, o := range s.out {
		if !o && s.xChoice[i] == 0 {
			return evs, nil
		}
	}
	for i, o := range s.out {
		if o {
			continue
		}
		p := s.xChoice[i]
		s.revealed[i][p] = true
		parts = append(parts, fmt.Sprintf("%s %s=%d", s.name(engine.Seat(i)), PosName(p), s.codes[i].At(p)))
		s.xChoice[i] = 0
	}
	s.xRevealed = true
	s.phase = Race
	return append(evs, engine.Event{Kind: "reveal-x", Text: "Shown together: " + strings.Join(parts, ", ") + "."}), nil
}

// finish records the result and returns the closing event.
func (s *state) finish(winner engine.Seat, summary string) engine.Event {
	s.phase = Finished
	s.toMove = engine.System
	s.claimant = engine.System
	s.result = &engine.Result{Winners: []engine.Seat{winner}, Summary: summary}
	return engine.Event{Kind: "end", Text: summary}
}

func joinOr(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// clone deep-copies the state (tests use it to vary hidden cards).
func (s *state) clone() *state {
	c := *s
	c.players = slices.Clone(s.players)
	c.codes = slices.Clone(s.codes)
	c.ordered = slices.Clone(s.ordered)
	c.revealed = slices.Clone(s.revealed)
	c.out = slices.Clone(s.out)
	c.leftover = slices.Clone(s.leftover)
	c.extras = slices.Clone(s.extras)
	c.data = cloneAll(s.data)
	c.noData = make([][]NoData, s.n)
	for i, nds := range s.noData {
		for _, nd := range nds {
			c.noData[i] = append(c.noData[i], NoData{Round: nd.Round, Kinds: slices.Clone(nd.Kinds)})
		}
	}
	c.hackLine = slices.Clone(s.hackLine)
	c.hackDeck = slices.Clone(s.hackDeck)
	c.hackCleared = slices.Clone(s.hackCleared)
	c.hacks = cloneAll(s.hacks)
	c.lastFrom = slices.Clone(s.lastFrom)
	c.guesses = cloneAll(s.guesses)
	c.wrongs = slices.Clone(s.wrongs)
	c.acted = slices.Clone(s.acted)
	c.votes = slices.Clone(s.votes)
	c.xChoice = slices.Clone(s.xChoice)
	if s.result != nil {
		r := *s.result
		r.Winners = slices.Clone(r.Winners)
		c.result = &r
	}
	return &c
}

func cloneAll[T any](xs [][]T) [][]T {
	out := make([][]T, len(xs))
	for i := range xs {
		out[i] = slices.Clone(xs[i])
	}
	return out
}
