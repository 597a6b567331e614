package ifthen

import (
	"slices"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
)

// Roles of a seat.
const (
	RoleBreaker    = "breaker"
	RoleAllKnowing = "allknowing"
)

// SeatView is what the viewer knows about one seat.
type SeatView struct {
	Name     string `json:"name"`
	Bot      bool   `json:"bot,omitempty"`
	Role     string `json:"role"`
	HandSize int    `json:"hand_size"`
	// Hand is the seat's cards when the viewer may see them (their own seat,
	// or every seat in an omniscient view).
	Hand []Card `json:"hand,omitempty"`
	// Voted is set during a team vote once the seat has answered.
	Voted bool `json:"voted,omitempty"`
	// Passed is set during Pass Left once the seat has picked its card.
	Passed bool `json:"passed,omitempty"`
}

// LineCard is one Valid card of the Code Line and the Invalid pile beside it.
type LineCard struct {
	Card    Card    `json:"card"`
	Up      int     `json:"up"`
	Top     End     `json:"top"`
	Invalid []Tried `json:"invalid,omitempty"`
}

// Tried is a card shown with the end that was on top.
type Tried struct {
	Card Card `json:"card"`
	Up   int  `json:"up"`
	Top  End  `json:"top"`
}

// MarketCard is a face-up Market card as laid.
type MarketCard struct {
	Card      Card `json:"card"`
	Up        int  `json:"up"`
	Spotlight bool `json:"spotlight,omitempty"` // marked Valid by the Spotlight Event
	SpotUp    int  `json:"spot_up,omitempty"`   // the end that is Valid when Spotlight
}

// Judgement is one play or discard and the engine's call.
type Judgement struct {
	Turn  int         `json:"turn"`
	Seat  engine.Seat `json:"seat"`
	Kind  string      `json:"kind"` // "play", "discard" or "lucky" (thrown away unjudged)
	Card  Card        `json:"card"`
	Up    int         `json:"up"`
	Prev  End         `json:"prev"`  // the top of the last Valid card it was judged against
	Valid bool        `json:"valid"` // play: Valid; discard: rightly discarded
}

// ChallengeView is the Code, shown only to the All Knowing and in replays.
type ChallengeView struct {
	ID      string   `json:"id"`
	Level   int      `json:"level"`
	Text    string   `json:"text"`    // canonical rule-language form
	English string   `json:"english"` // plain words
	Hints   []string `json:"hints"`   // symbols of its Hint cards
}

// EventView is an Event card.
type EventView struct {
	Kind  EventKind `json:"kind"`
	Title string    `json:"title"`
	Text  string    `json:"text"`
}

// ProposalView is the open team vote.
type ProposalView struct {
	Kind string      `json:"kind"`
	By   engine.Seat `json:"by"`
	Card int         `json:"card,omitempty"`
	Text string      `json:"text,omitempty"`
	Yes  int         `json:"yes"`
	Need int         `json:"need"`
}

// HintView is a revealed Hint.
type HintView struct {
	Symbol string `json:"symbol"`
	Text   string `json:"text"`
}

// View is an immutable snapshot of a game for one viewer. It shares no
// memory with the state.
type View struct {
	Viewer     engine.Viewer `json:"viewer"`
	Level      int           `json:"level"`
	Mode       string        `json:"mode"`
	Phase      Phase         `json:"phase"`
	AllKnowing engine.Seat   `json:"all_knowing"` // engine.System when the server
	Breakers   []engine.Seat `json:"breakers"`
	Seats      []SeatView    `json:"seats"`
	// Hand is the viewer's own cards (nil unless a seat with cards).
	Hand    []Card       `json:"hand,omitempty"`
	Line    []LineCard   `json:"line"`
	Market  []MarketCard `json:"market"`
	Deck    int          `json:"deck"`    // cards in the draw deck
	Discard int          `json:"discard"` // cards in the discard pile
	// Invalid is how many Invalid cards lie in the Code Line; Penalty is how
	// many cards a mistake costs now (2, 3 or 4).
	Invalid int `json:"invalid"`
	Penalty int `json:"penalty"`
	Owed    int `json:"owed,omitempty"` // cards the player to move must draw (Penalty phase)
	// TakeBack is set in the Penalty phase after an Invalid play: Second Chance could undo it.
	TakeBack bool `json:"take_back,omitempty"`
	// HintCost is what the next Hint costs from the deck, 0 when none may be bought now.
	HintCost int            `json:"hint_cost,omitempty"`
	Hints    []HintView     `json:"hints,omitempty"` // revealed
	HintsOut int            `json:"hints_out"`       // Hints bought or given so far (at most 2)
	Event    *EventView     `json:"event,omitempty"` // the Event in force
	Keeps    []EventView    `json:"keeps,omitempty"` // kept Event cards the team holds
	Events   int            `json:"events"`          // cards left in the Event deck
	Proposal *ProposalView  `json:"proposal,omitempty"`
	Declined []string       `json:"declined,omitempty"` // proposal kinds turned down this turn
	History  []Judgement    `json:"history"`
	CanGuess bool           `json:"can_guess,omitempty"` // one Code Breaker still holds cards
	Turn     int            `json:"turn"`
	Round    int            `json:"round"`
	ToMove   engine.Seat    `json:"to_move"`
	Active   []engine.Seat  `json:"active"`
	Result   *engine.Result `json:"result,omitempty"`
	// Hidden from Code Breakers and spectators: the Code, the Mastermind's
	// offered Challenges, loyalty and cards.
	Challenge *ChallengeView  `json:"challenge,omitempty"`
	Offered   []ChallengeView `json:"offered,omitempty"`
	Loyal     *bool           `json:"loyal,omitempty"`
	AKDeck    int             `json:"ak_deck,omitempty"` // the Mastermind's deck size (public)
	// AKDrew is set while the Mastermind, having drawn from its pile, must
	// send a card under it (public: everyone saw the draw).
	AKDrew bool `json:"ak_drew,omitempty"`
	// FirstRules is set for a game recorded under the first rules
	// (RulesFirst), whose Challenges differ from Challenges().
	FirstRules bool `json:"first_rules,omitempty"`
}

// YourTurn reports whether the viewer is among the seats that may act.
func (v View) YourTurn() bool {
	return v.Viewer.Kind == engine.ViewerSeat && slices.Contains(v.Active, v.Viewer.Seat)
}

// IsAllKnowing reports whether the viewer is the All Knowing seat.
func (v View) IsAllKnowing() bool {
	return v.AllKnowing >= 0 && v.Viewer.IsSeat(v.AllKnowing)
}

func (s *state) challengeView(i int) ChallengeView {
	c := s.challengeOf(i)
	r := c.Rule()
	cv := ChallengeView{ID: c.ID, Level: c.Level, Text: r.String(), English: r.English()}
	for _, h := range c.Hints() {
		cv.Hints = append(cv.Hints, h.Symbol())
	}
	return cv
}

func eventView(card int) EventView {
	k := EventKindOf(card)
	return EventView{Kind: k, Title: k.Title(), Text: k.Text()}
}

// View returns a View for v.
func (s *state) View(v engine.Viewer) any { return s.view(v) }

func (s *state) view(v engine.Viewer) View {
	omni := v.Kind == engine.ViewerOmniscient
	knows := omni || (s.ak >= 0 && v.IsSeat(s.ak))
	out := View{
		Viewer: v, Level: s.level, Mode: s.mode, Phase: s.phase, AllKnowing: s.ak,
		Breakers: slices.Clone(s.breakers), Deck: len(s.deck), Discard: len(s.discard),
		Invalid: s.invalidCount(), Penalty: s.penalty(), Events: len(s.events),
		Turn: s.turns + 1, Round: s.round, ToMove: s.toMove, Active: s.Status().Active,
		HintsOut: s.hintsOut,
		CanGuess: len(s.withCards()) == 1 && s.phase != Finished, AKDeck: len(s.akDeck),
		FirstRules: s.firstRules, AKDrew: s.akDrew,
	}
	if s.phase == Penalty {
		out.Owed = s.owed
		out.TakeBack = s.lastBad != nil
	}
	if s.challenge >= 0 {
		if cost, ok := s.hintCost(); ok && s.hintsOut < 2 {
			out.HintCost = cost
		}
	}
	for i := range s.n {
		seat := engine.Seat(i)
		sv := SeatView{Name: s.name(seat), Bot: s.players[i].Bot, Role: RoleBreaker, HandSize: len(s.hands[i])}
		if seat == s.ak {
			sv.Role = RoleAllKnowing
		}
		if omni || v.IsSeat(seat) {
			sv.Hand = s.cardsOf(s.hands[i])
		}
		if s.proposal != nil {
			_, sv.Voted = s.proposal.votes[seat]
		}
		if s.phase == PassLeft {
			_, sv.Passed = s.passes[seat]
		}
		out.Seats = append(out.Seats, sv)
	}
	if v.Kind == engine.ViewerSeat && int(v.Seat) >= 0 && int(v.Seat) < s.n {
		out.Hand = s.cardsOf(s.hands[v.Seat])
	}
	for _, e := range s.line {
		lc := LineCard{Card: s.cards[e.Card], Up: e.Up, Top: s.end(e.Placed)}
		for _, p := range e.invalid {
			lc.Invalid = append(lc.Invalid, Tried{Card: s.cards[p.Card], Up: p.Up, Top: s.end(p)})
		}
		out.Line = append(out.Line, lc)
	}
	for i, p := range s.market {
		mc := MarketCard{Card: s.cards[p.Card], Up: p.Up}
		if i == s.spotlight {
			mc.Spotlight, mc.SpotUp = true, s.spotUp
		}
		out.Market = append(out.Market, mc)
	}
	for _, h := range s.hints {
		out.Hints = append(out.Hints, HintView{Symbol: h.Symbol(), Text: h.Text()})
	}
	if s.event >= 0 {
		ev := eventView(s.event)
		out.Event = &ev
	}
	for _, k := range s.keeps {
		out.Keeps = append(out.Keeps, eventView(k))
	}
	if p := s.proposal; p != nil {
		pv := ProposalView{Kind: p.Kind, By: p.by, Card: p.Card, Text: p.Text, Need: len(s.breakers)}
		for _, yes := range p.votes {
			if yes {
				pv.Yes++
			}
		}
		out.Proposal = &pv
	}
	out.Declined = slices.Clone(s.declined)
	out.History = make([]Judgement, 0, len(s.history))
	for _, j := range s.history {
		out.History = append(out.History, Judgement{Turn: j.turn, Seat: j.seat, Kind: j.kind, Card: s.cards[j.card.Card], Up: j.card.Up, Prev: s.end(j.prev), Valid: j.valid})
	}
	if s.result != nil {
		r, _ := s.Result()
		out.Result = &r
	}
	if knows {
		if s.challenge >= 0 {
			cv := s.challengeView(s.challenge)
			out.Challenge = &cv
		}
		if s.mode == ModeMastermind {
			if s.phase == Setup {
				out.Offered = []ChallengeView{s.challengeView(s.offered[0]), s.challengeView(s.offered[1])}
			} else {
				loyal := s.loyal
				out.Loyal = &loyal
			}
		}
	}
	if s.phase == Finished && s.mode == ModeMastermind && out.Loyal == nil {
		loyal := s.loyal // revealed at the end
		out.Loyal = &loyal
	}
	if s.phase == Finished && out.Challenge == nil && s.challenge >= 0 {
		cv := s.challengeView(s.challenge) // the Code is shown once the game is over
		out.Challenge = &cv
	}
	return out
}

func (s *state) cardsOf(ids []int) []Card {
	out := make([]Card, 0, len(ids))
	for _, c := range ids {
		out = append(out, s.cards[c])
	}
	return out
}

// RevealText lists, for a plain-text transcript, what this view holds of
// the game's hidden side: the Code, the Mastermind's loyalty, and every
// hand it may see, each card as its two ends. An omniscient view of a
// finished game shows it all.
func (v View) RevealText() [][2]string {
	var rows [][2]string
	if c := v.Challenge; c != nil {
		rows = append(rows, [2]string{"Code", c.English + " (" + c.Text + ")"})
	}
	if v.Loyal != nil {
		side := "against the team"
		if *v.Loyal {
			side = "with the team"
		}
		rows = append(rows, [2]string{"Loyalty", "the Mastermind played " + side})
	}
	for _, sv := range v.Seats {
		switch {
		case sv.HandSize == 0 && sv.Role == RoleBreaker:
			rows = append(rows, [2]string{sv.Name, "no cards left"})
		case len(sv.Hand) > 0:
			ends := make([]string, len(sv.Hand))
			for i, c := range sv.Hand {
				ends[i] = c.A.Code() + "/" + c.B.Code()
			}
			rows = append(rows, [2]string{sv.Name, strings.Join(ends, " ")})
		}
	}
	return rows
}
