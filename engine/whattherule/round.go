package whattherule

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/rulelang"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/engine/words"
)

// startRound shuffles all 144 cards, deals ten to every player but the game
// master, and waits for the game master's rule.
func (s *state) startRound() []engine.Event {
	idx := len(s.history)
	gm := engine.Seat((int(s.firstGM) + idx) % s.n)
	r := round{
		gm:           gm,
		deck:         s.rng().Perm(DeckSize),
		hands:        make([][]int, s.n),
		below:        [][]int{nil},
		turns:        make([]int, s.n),
		pendingCard:  -1,
		guesser:      -1,
		proposed:     make([]int, s.n),
		proposer:     -1,
		lastHintTurn: -1000,
	}
	for i := range s.n {
		if engine.Seat(i) != gm {
			r.hands[i] = slices.Clone(r.deck[:HandStart])
			r.deck = r.deck[HandStart:]
		}
	}
	r.deck = slices.Clone(r.deck)
	r.toMove = s.nextPlayer(gm, gm)
	s.r = r
	s.phase = Setup
	return []engine.Event{{Kind: "round", Text: fmt.Sprintf("Round %d of %d: %s is the game master and chooses a rule.",
		idx+1, s.totalRounds(), s.name(gm))}}
}

// nextPlayer is the first seat after from, clockwise, that is not the game master.
func (s *state) nextPlayer(from, gm engine.Seat) engine.Seat {
	for i := 1; i <= s.n; i++ {
		c := engine.Seat((int(from) + i) % s.n)
		if c != gm {
			return c
		}
	}
	return from
}

// CheckRule parses a machine rule and checks that it makes a playable round:
// some card can start the line, and not every card always fits. Its errors
// are user-facing.
func CheckRule(text string) (*rulelang.Rule, error) {
	text = textsafe.Clean(text, MaxRuleText).String()
	if text == "" {
		return nil, engine.Illegal("Write a rule, like: shape != circle.")
	}
	rule, err := rulelang.Parse(attrs, text)
	if err != nil {
		return nil, engine.Illegal("That rule does not read: %v.", err)
	}
	an, err := rule.Analyze()
	if err != nil {
		return nil, engine.Illegal("That rule is too complex for the judge; write it more simply.")
	}
	switch {
	case an.Trivial:
		return nil, engine.Illegal("Every card always fits that rule, so nobody could ever play wrong.")
	case an.ValidShare == 0:
		return nil, engine.Illegal("No card can ever fit that rule; the line could never grow.")
	}
	return rule, nil
}

// ParseGuess reads a guess at a machine rule. Its errors are user-facing
// and point at the column where reading failed.
func ParseGuess(text string) (*rulelang.Rule, error) {
	g, err := rulelang.Parse(attrs, textsafe.Clean(text, MaxRuleText).String())
	if err != nil {
		return nil, engine.Illegal("Your guess does not read as a rule: %v.", err)
	}
	return g, nil
}

// setup takes the game master's rule.
func (s *state) setup(seat engine.Seat, a Action) ([]engine.Event, error) {
	if err := s.needGM(seat); err != nil {
		return nil, err
	}
	if s.phase != Setup {
		return nil, engine.Illegal("The rule for this round is already set.")
	}
	lib := Library()
	switch {
	case a.Rule != nil:
		rule, err := CheckRule(a.Rule.Text)
		if err != nil {
			return nil, err
		}
		return s.setMachine(rule, -1), nil
	case a.Library != nil:
		i := *a.Library
		if i < 0 || i >= len(lib) {
			return nil, engine.Illegal("Choose a library rule from 1 to %d.", len(lib))
		}
		return s.setMachine(rulelang.MustParse(attrs, lib[i].Text), i), nil
	case a.Draw != nil:
		g := *a.Draw
		if g < 0 || g > Fiendish {
			return nil, engine.Illegal("Draw from grade 1 to 4, or 0 for any grade.")
		}
		return s.drawRule(g), nil
	default:
		text := textsafe.Clean(a.Free.Text, MaxRuleText).String()
		if text == "" {
			return nil, engine.Illegal("Write your rule in a few words.")
		}
		s.r.mode, s.r.ruleText = Free, text
		s.phase = Turn
		return []engine.Event{
			{Kind: "rule", Text: fmt.Sprintf("%s has written a free rule and will judge every card by hand. %s plays first.", s.name(seat), s.name(s.r.toMove))},
			{Kind: "your-rule", Text: "Your rule: " + text, Others: s.name(seat) + "'s rule: " + text, Seats: []engine.Seat{seat}},
		}, nil
	}
}

// drawRule sets a random library rule of grade g (0: any), preferring
// rules this game has not played yet.
func (s *state) drawRule(g Grade) []engine.Event {
	used := map[string]bool{}
	for _, h := range s.history {
		used[h.Rule] = true
	}
	var pick, fresh []int
	for i, lr := range Library() {
		if g == 0 || lr.Grade == g {
			pick = append(pick, i)
			if !used[rulelang.MustParse(attrs, lr.Text).String()] {
				fresh = append(fresh, i)
			}
		}
	}
	if len(fresh) > 0 { // rules not yet played this game, while they last
		pick = fresh
	}
	i := pick[s.rng().IntN(len(pick))]
	return s.setMachine(rulelang.MustParse(attrs, Library()[i].Text), i)
}

// setMachine starts play under a machine rule (lib is the library index, or -1).
func (s *state) setMachine(rule *rulelang.Rule, lib int) []engine.Event {
	r := &s.r
	r.mode, r.ruleText, r.rule = Machine, rule.String(), rule
	how := "has written a rule"
	if lib >= 0 {
		lr := Library()[lib]
		r.library, r.title, r.grade = true, lr.Title, lr.Grade
		how = fmt.Sprintf("has drawn %s %s rule from the library", article(lr.Grade.String()), lr.Grade)
	}
	s.phase = Turn
	return []engine.Event{
		{Kind: "rule", Text: fmt.Sprintf("%s %s; the machine judges every card. %s plays first.", s.name(r.gm), how, s.name(r.toMove))},
		{Kind: "your-rule", Text: "Your rule: " + rule.English(), Others: s.name(r.gm) + "'s rule: " + rule.English(), Seats: []engine.Seat{r.gm}},
	}
}

// play handles a card played from hand.
func (s *state) play(seat engine.Seat, card int) ([]engine.Event, error) {
	if err := s.needTurn(seat, Turn); err != nil {
		return nil, err
	}
	r := &s.r
	hand, ok := removeCard(r.hands[seat], card)
	if !ok {
		return nil, engine.Illegal("That card is not in your hand.")
	}
	r.hands[seat] = hand
	if r.mode == Free {
		r.pendingCard = card
		s.phase = JudgePlay
		return []engine.Event{{Kind: "play", Text: fmt.Sprintf("%s plays %s; %s is judging.",
			s.name(seat), CardOf(card), s.name(r.gm))}}, nil
	}
	r.pendingCard = card
	return s.resolvePlay(s.fits(card)), nil
}

// resolvePlay places the pending card where its verdict puts it.
func (s *state) resolvePlay(fits bool) []engine.Event {
	r := &s.r
	seat, card := r.toMove, r.pendingCard
	r.pendingCard = -1
	r.judgements = append(r.judgements, Judgement{Line: len(r.line), Card: CardOf(card), Fits: fits})
	r.played++
	if fits {
		r.line = append(r.line, card)
		r.below = append(r.below, nil)
		s.phase = GuessOffer
		return []engine.Event{{Kind: "fits", Text: fmt.Sprintf("%s played %s: it fits. %s may guess the rule.",
			s.name(seat), CardOf(card), s.name(seat))}}
	}
	col := len(r.line)
	r.below[col] = append(r.below[col], card)
	evs := []engine.Event{{Kind: "miss", Text: fmt.Sprintf("%s played %s: it does not fit.", s.name(seat), CardOf(card))}}
	evs = append(evs, s.drawEvents(seat, s.draw(seat, 1), 1)...)
	return append(evs, s.endTurn(seat)...)
}

// reveal shows the hand, claiming none of it fits.
func (s *state) reveal(seat engine.Seat) ([]engine.Event, error) {
	if err := s.needTurn(seat, Turn); err != nil {
		return nil, err
	}
	r := &s.r
	hand := r.hands[seat]
	if len(hand) == 0 {
		return nil, engine.Illegal("You have no cards to show.")
	}
	r.revealed = slices.Clone(hand)
	evs := []engine.Event{{Kind: "reveal", Text: fmt.Sprintf("%s shows their hand, saying none of it fits: %s.",
		s.name(seat), listCards(hand))}}
	if r.mode == Free {
		s.phase = JudgeReveal
		return evs, nil
	}
	fitting := s.fittingInHand()
	switch len(fitting) {
	case 0:
		return append(evs, s.resolveNoFit()...), nil
	case 1:
		return append(evs, s.resolveLay(fitting[0])...), nil
	}
	s.phase = JudgeReveal
	return append(evs, engine.Event{Kind: "choose", Text: fmt.Sprintf("Some of it fits: %s chooses a card to lay.", s.name(r.gm))}), nil
}

// fittingInHand lists the revealed cards the machine rule accepts now.
func (s *state) fittingInHand() []int {
	var out []int
	for _, c := range s.r.revealed {
		if s.fits(c) {
			out = append(out, c)
		}
	}
	return out
}

// resolveNoFit: the revealed hand goes under the pile and the player draws
// one card fewer than they showed.
func (s *state) resolveNoFit() []engine.Event {
	r := &s.r
	seat := r.toMove
	shown := r.revealed
	r.revealed = nil
	for _, c := range shown {
		r.judgements = append(r.judgements, Judgement{Line: len(r.line), Card: CardOf(c), Fits: false})
	}
	r.deck = append(r.deck, shown...)
	r.hands[seat] = nil
	evs := []engine.Event{{Kind: "nofit", Text: fmt.Sprintf("Right, none of it fits: %s's hand goes under the pile.", s.name(seat))}}
	evs = append(evs, s.drawEvents(seat, s.draw(seat, len(shown)-1), len(shown)-1)...)
	s.phase = GuessOffer
	return append(evs, engine.Event{Kind: "offer", Text: fmt.Sprintf("%s may guess the rule.", s.name(seat))})
}

// resolveLay: the game master lays a fitting card from the revealed hand,
// and the player draws one.
func (s *state) resolveLay(card int) []engine.Event {
	r := &s.r
	seat := r.toMove
	r.revealed = nil
	r.hands[seat], _ = removeCard(r.hands[seat], card)
	r.judgements = append(r.judgements, Judgement{Line: len(r.line), Card: CardOf(card), Fits: true})
	r.line = append(r.line, card)
	r.below = append(r.below, nil)
	r.played++
	evs := []engine.Event{{Kind: "lay", Text: fmt.Sprintf("Not so: %s fits, and %s lays it in the line.", CardOf(card), s.name(r.gm))}}
	evs = append(evs, s.drawEvents(seat, s.draw(seat, 1), 1)...)
	return append(evs, s.endTurn(seat)...)
}

// judge is a free rule's verdict on the pending play or guess.
func (s *state) judge(seat engine.Seat, fits bool) ([]engine.Event, error) {
	if err := s.needGM(seat); err != nil {
		return nil, err
	}
	switch s.phase {
	case JudgePlay:
		return s.resolvePlay(fits), nil
	case JudgeGuess:
		return s.resolveGuess(fits), nil
	case JudgeReveal:
		return nil, engine.Illegal("Choose a fitting card from the hand to lay, or say none fits.")
	}
	return nil, engine.Illegal("There is nothing to judge now.")
}

// lay is the game master choosing a fitting card from a revealed hand.
func (s *state) lay(seat engine.Seat, card int) ([]engine.Event, error) {
	if err := s.needGM(seat); err != nil {
		return nil, err
	}
	if s.phase != JudgeReveal {
		return nil, engine.Illegal("No hand is on show to lay a card from.")
	}
	if !slices.Contains(s.r.revealed, card) {
		return nil, engine.Illegal("That card is not in the hand on show.")
	}
	if s.r.mode == Machine && !s.fits(card) {
		return nil, engine.Illegal("That card does not fit your rule; lay one that does.")
	}
	return s.resolveLay(card), nil
}

// noFit is a free rule's game master agreeing that nothing in the hand fits.
func (s *state) noFit(seat engine.Seat) ([]engine.Event, error) {
	if err := s.needGM(seat); err != nil {
		return nil, err
	}
	if s.phase != JudgeReveal {
		return nil, engine.Illegal("No hand is on show.")
	}
	if s.r.mode == Machine {
		return nil, engine.Illegal("Some of the hand fits your rule; lay one of those cards.")
	}
	return s.resolveNoFit(), nil
}

// guess names the rule.
func (s *state) guess(seat engine.Seat, text string) ([]engine.Event, error) {
	if err := s.needTurn(seat, GuessOffer); err != nil {
		return nil, err
	}
	r := &s.r
	text = textsafe.Clean(text, MaxRuleText).String()
	if text == "" {
		return nil, engine.Illegal("Write your guess, or end your turn without one.")
	}
	if r.mode == Free {
		r.pendingGuess = text
		s.phase = JudgeGuess
		end := "." // no second full stop after a guess that has one: "It is red." is judged
		if strings.HasSuffix(text, ".") || strings.HasSuffix(text, "!") || strings.HasSuffix(text, "?") {
			end = ""
		}
		return []engine.Event{{Kind: "guess", Text: fmt.Sprintf("%s guesses: \"%s\"%s %s is judging.", s.name(seat), text, end, s.name(r.gm))}}, nil
	}
	g, err := ParseGuess(text)
	if err != nil {
		return nil, err
	}
	same, _, err := rulelang.Equivalent(s.machineRule(), g)
	if errors.Is(err, rulelang.ErrTooComplex) {
		return nil, engine.Illegal("That guess is too complex to compare; write it more simply.")
	}
	if err != nil {
		return nil, fmt.Errorf("whattherule: compare guess: %w", err)
	}
	r.pendingGuess = g.String()
	return s.resolveGuess(same), nil
}

// resolveGuess ends the round on a right guess, or the turn on a wrong one.
func (s *state) resolveGuess(right bool) []engine.Event {
	r := &s.r
	seat, text := r.toMove, r.pendingGuess
	r.pendingGuess = ""
	r.guesses = append(r.guesses, GuessRecord{Seat: seat, Text: text, Right: right})
	if !right {
		evs := []engine.Event{{Kind: "wrong", Text: fmt.Sprintf("%s guessed \"%s\": that is not the rule.", s.name(seat), text)}}
		return append(evs, s.endTurn(seat)...)
	}
	r.turns[seat]++
	r.totalTurns++
	r.guesser = seat
	evs := []engine.Event{{Kind: "right", Text: fmt.Sprintf("%s guessed \"%s\": that is the rule!", s.name(seat), text)}}
	return append(evs, s.endRound(EndGuessed)...)
}

// callOff stops a free-rule round: nobody scores for it.
func (s *state) callOff(seat engine.Seat) ([]engine.Event, error) {
	if err := s.needGM(seat); err != nil {
		return nil, err
	}
	if s.r.mode != Free || s.phase == Setup {
		return nil, engine.Illegal("Only a round with a free rule can be called off.")
	}
	evs := []engine.Event{{Kind: "calloff", Text: fmt.Sprintf("%s calls the round off; it scores nothing.", s.name(seat))}}
	return append(evs, s.endRound(EndCalledOff)...), nil
}

// endTurn closes seat's turn: the round ends if their hand or the pile is
// empty; otherwise the next player moves.
func (s *state) endTurn(seat engine.Seat) []engine.Event {
	r := &s.r
	r.turns[seat]++
	r.totalTurns++
	switch {
	case len(r.hands[seat]) == 0:
		return s.endRound(EndHandEmpty)
	case len(r.deck) == 0:
		return s.endRound(EndDeckEmpty)
	}
	r.toMove = s.nextPlayer(seat, r.gm)
	s.phase = Turn
	return nil
}

// timeout applies an expired timer.
func (s *state) timeout(seq int) ([]engine.Event, error) {
	if seq != s.moves {
		return nil, engine.Illegal("That timer is stale.")
	}
	if s.Timer() == nil {
		return nil, engine.Illegal("Nothing is timed now.")
	}
	r := &s.r
	switch s.phase {
	case Setup:
		evs := []engine.Event{{Kind: "timeout", Text: fmt.Sprintf("%s took too long; a rule is drawn from the library.", s.name(r.gm))}}
		return append(evs, s.drawRule(0)...), nil
	case Turn:
		evs := []engine.Event{{Kind: "timeout", Text: fmt.Sprintf("%s ran out of time; the turn passes.", s.name(r.toMove))}}
		return append(evs, s.endTurn(r.toMove)...), nil
	case GuessOffer:
		evs := []engine.Event{{Kind: "timeout", Text: fmt.Sprintf("%s ran out of time to guess.", s.name(r.toMove))}}
		return append(evs, s.endTurn(r.toMove)...), nil
	case JudgeReveal:
		if r.mode == Machine {
			return s.resolveLay(s.fittingInHand()[0]), nil
		}
	case HintVote:
		s.phase = Turn
		r.votes = nil
		return []engine.Event{{Kind: "hints-no", Text: "Not everyone answered in time: no hints."}}, nil
	case HintCheck:
		return s.hintAllowed(), nil
	case HintGive:
		if r.mode == Machine {
			return s.giveAutoHint(), nil
		}
		r.lastHintTurn = r.totalTurns
		s.phase = Turn
		return []engine.Event{{Kind: "timeout", Text: "No hint came in time; play goes on."}}, nil
	}
	// A free rule left unjudged: the round cannot go on fairly.
	evs := []engine.Event{{Kind: "timeout", Text: fmt.Sprintf("%s did not judge in time; the round is called off.", s.name(r.gm))}}
	return append(evs, s.endRound(EndCalledOff)...), nil
}

// endRound scores the round, reveals the rule and starts the next round or
// ends the game.
func (s *state) endRound(why EndReason) []engine.Event {
	r := &s.r
	sum := RoundSummary{
		Round: len(s.history) + 1, GM: r.gm, Mode: r.mode, Rule: r.ruleText,
		Title: r.title, Grade: r.grade, Library: r.library, Reason: why, Guesser: r.guesser,
		Hints: r.hintsOn, Turns: r.totalTurns, CardsPlayed: r.played, Guesses: slices.Clone(r.guesses),
		Line: cardsOf(r.line), Judgements: slices.Clone(r.judgements),
	}
	if r.mode == Machine {
		sum.English = s.machineRule().English()
	}
	if r.pendingCard >= 0 { // called off mid-judgement: the card goes back
		r.hands[r.toMove] = append(r.hands[r.toMove], r.pendingCard)
		r.pendingCard = -1
	}
	hands := make([]int, s.n)
	minTurns := -1
	for i := range s.n {
		hands[i] = len(r.hands[i])
		if engine.Seat(i) != r.gm && (minTurns < 0 || r.turns[i] < minTurns) {
			minTurns = r.turns[i]
		}
	}
	if s.set.Points && why != EndCalledOff {
		sum.Points, sum.Halved = Score(ScoreInput{
			GM: r.gm, Hands: hands, Guesser: r.guesser, Hints: r.hintsOn,
			MinTurns: minTurns, CardsPlayed: r.played,
		})
		for i, p := range sum.Points {
			s.scores[i] += p
		}
	}
	s.history = append(s.history, sum)
	var evs []engine.Event
	rule := sum.Rule
	if sum.English != "" {
		rule = sum.English
	}
	reason := map[EndReason]string{
		EndGuessed:   fmt.Sprintf("%s named the rule", s.name(r.guesser)),
		EndHandEmpty: fmt.Sprintf("%s has no cards left", s.name(r.toMove)),
		EndDeckEmpty: "the draw pile ran out",
		EndCalledOff: "it was called off",
	}[why]
	evs = append(evs, engine.Event{Kind: "round-end", Text: fmt.Sprintf("Round %d is over: %s. The rule was: %s", sum.Round, reason, rule)})
	if sum.Points != nil {
		var parts []string
		for i, p := range sum.Points {
			parts = append(parts, fmt.Sprintf("%s %+d", s.name(engine.Seat(i)), p))
		}
		text := "Points: " + strings.Join(parts, ", ") + "."
		if len(sum.Halved) > 0 {
			text += " The game master's points are halved: " + strings.Join(sum.Halved, "; ") + "."
		}
		evs = append(evs, engine.Event{Kind: "points", Text: text})
	}
	if len(s.history) >= s.totalRounds() {
		return append(evs, s.finish())
	}
	return append(evs, s.startRound()...)
}

// finish ends the game: the highest total wins (ties share the win).
func (s *state) finish() engine.Event {
	s.phase = Finished
	res := &engine.Result{}
	found := 0
	for _, h := range s.history {
		if h.Reason == EndGuessed {
			found++
		}
	}
	if !s.set.Points {
		res.Draw = true
		res.Summary = fmt.Sprintf("%d of %d rules %s found; this game had no points.", found, len(s.history), words.Plural(found, "was", "were"))
	} else {
		best := slices.Max(s.scores)
		var names []string
		for i, sc := range s.scores {
			if sc == best {
				res.Winners = append(res.Winners, engine.Seat(i))
				names = append(names, s.name(engine.Seat(i)))
			}
		}
		res.Scores = slices.Clone(s.scores)
		res.Draw = len(res.Winners) > 1
		if res.Draw {
			res.Summary = fmt.Sprintf("%s tie with %s.", joinNames(names), words.Count(best, "point", "points"))
		} else {
			res.Summary = fmt.Sprintf("%s wins with %s.", names[0], words.Count(best, "point", "points"))
		}
	}
	s.result = res
	return engine.Event{Kind: "end", Text: res.Summary}
}

func joinNames(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// article is "an" before a word that starts with a vowel, else "a".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
}
