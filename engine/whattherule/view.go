package whattherule

import (
	"slices"

	"github.com/codebreakers/codebreakers/engine"
)

// SeatView is what everyone knows about one seat.
type SeatView struct {
	Name     string `json:"name"`
	Bot      bool   `json:"bot,omitempty"`
	Score    int    `json:"score"`     // total so far (0 without points)
	HandSize int    `json:"hand_size"` // cards in hand this round
	Turns    int    `json:"turns"`     // turns taken this round
	// Voted is true once the seat answered the open hint vote or announcement.
	Voted bool `json:"voted,omitempty"`
	// Proposed is true once the seat used its hint proposal this round.
	Proposed bool `json:"proposed,omitempty"`
}

// RuleCard is the secret rule as the game master (and a replay) sees it.
type RuleCard struct {
	Mode    Mode   `json:"mode"`
	Text    string `json:"text"`              // canonical rule text, or the free rule's words
	English string `json:"english,omitempty"` // a machine rule in plain English
	Title   string `json:"title,omitempty"`   // library title, if drawn
	Grade   Grade  `json:"grade,omitempty"`
	Library bool   `json:"library,omitempty"`
}

// View is an immutable snapshot of a game for one viewer. It shares no
// memory with the state. Players and spectators never find the round's rule
// in it (Rule is nil for them) until the round is over and it moves to
// Rounds.
type View struct {
	Viewer  engine.Viewer `json:"viewer"`
	Players int           `json:"players"`
	Seats   []SeatView    `json:"seats"`
	Points  bool          `json:"points"` // false: the game is played without points

	Round       int         `json:"round"` // from 1
	TotalRounds int         `json:"total_rounds"`
	GM          engine.Seat `json:"gm"`
	Phase       Phase       `json:"phase"`
	ToMove      engine.Seat `json:"to_move"` // the player whose turn it is
	Mode        Mode        `json:"mode"`    // how the rule is judged (public)
	// Library is true when the rule was drawn from the library (public).
	Library bool `json:"library,omitempty"`

	// Rule is the secret rule: only for the game master and omniscient viewers.
	Rule *RuleCard `json:"rule,omitempty"`
	// Fits lists, for the game master of a machine rule, the 72 faces (ID
	// 0..71) that would fit next.
	Fits []Card `json:"fits,omitempty"`

	Hand []Card `json:"hand,omitempty"` // the viewer's own hand
	// Hands holds every hand, by seat, in an omniscient view only.
	Hands    [][]Card `json:"hands,omitempty"`
	Line     []Card   `json:"line"`  // the valid line, oldest first
	Below    [][]Card `json:"below"` // invalid cards under each spot; len(Line)+1 columns
	DrawPile int      `json:"draw_pile"`

	Revealed     []Card `json:"revealed,omitempty"`      // a hand on show, being judged
	PendingCard  *Card  `json:"pending_card,omitempty"`  // a card awaiting a free rule's verdict
	PendingGuess string `json:"pending_guess,omitempty"` // a guess awaiting a free rule's verdict

	Judgements  []Judgement   `json:"judgements"` // every verdict this round, in order
	Guesses     []GuessRecord `json:"guesses,omitempty"`
	CardsPlayed int           `json:"cards_played"`

	HintsOn  bool        `json:"hints_on,omitempty"`
	Hints    []string    `json:"hints,omitempty"`
	Proposer engine.Seat `json:"proposer"` // who proposed the open hint vote
	// HintDue is true when the game master may be expected to announce a hint.
	HintDue bool `json:"hint_due,omitempty"`

	// TimerMillis is the length of the running timer (0: none).
	TimerMillis int `json:"timer_ms,omitempty"`

	Rounds []RoundSummary `json:"rounds,omitempty"` // finished rounds, rules revealed
	Result *engine.Result `json:"result,omitempty"`
}

// IsGM reports whether the viewer is this round's game master.
func (v View) IsGM() bool { return v.Phase != Finished && v.Viewer.IsSeat(v.GM) }

// YourTurn reports whether the viewer is the player to move (in Turn or GuessOffer).
func (v View) YourTurn() bool {
	return (v.Phase == Turn || v.Phase == GuessOffer) && v.Viewer.IsSeat(v.ToMove)
}

// CanPlay reports whether the viewer may play a card or reveal now.
func (v View) CanPlay() bool { return v.Phase == Turn && v.Viewer.IsSeat(v.ToMove) }

// CanGuess reports whether the viewer may name the rule now.
func (v View) CanGuess() bool { return v.Phase == GuessOffer && v.Viewer.IsSeat(v.ToMove) }

// CanPropose reports whether the viewer may propose hints now.
func (v View) CanPropose() bool {
	if v.Phase != Turn || v.HintsOn || v.Viewer.Kind != engine.ViewerSeat {
		return false
	}
	s := int(v.Viewer.Seat)
	return s >= 0 && s < len(v.Seats) && !v.Seats[s].Proposed
}

// CanVote reports whether the viewer has a hint vote or announcement to answer.
func (v View) CanVote() bool {
	if v.Viewer.Kind != engine.ViewerSeat {
		return false
	}
	s := int(v.Viewer.Seat)
	if s < 0 || s >= len(v.Seats) || v.Seats[s].Voted {
		return false
	}
	return v.Phase == HintVote || v.Phase == HintCheck && v.Viewer.Seat != v.GM
}

// CanAnnounce reports whether the viewer, as game master, may announce a hint.
func (v View) CanAnnounce() bool {
	return v.IsGM() && v.Phase == Turn && v.HintsOn && len(v.Hints) < maxHints
}

// view builds the snapshot for viewer.
func (s *state) view(viewer engine.Viewer) View {
	r := &s.r
	omni := viewer.Kind == engine.ViewerOmniscient
	v := View{
		Viewer:      viewer,
		Players:     s.n,
		Points:      s.set.Points,
		Round:       min(len(s.history)+1, s.totalRounds()),
		TotalRounds: s.totalRounds(),
		GM:          r.gm,
		Phase:       s.phase,
		ToMove:      r.toMove,
		Mode:        r.mode,
		Library:     r.library,
		Line:        cardsOf(r.line),
		DrawPile:    len(r.deck),
		Judgements:  slices.Clone(r.judgements),
		Guesses:     slices.Clone(r.guesses),
		CardsPlayed: r.played,
		HintsOn:     r.hintsOn,
		Hints:       slices.Clone(r.hints),
		Proposer:    r.proposer,
		HintDue:     s.hintDue(),
		Revealed:    cardsOf(r.revealed),
	}
	if len(v.Revealed) == 0 {
		v.Revealed = nil
	}
	if s.phase == Finished {
		v.Round = len(s.history)
	}
	v.Below = make([][]Card, len(r.below))
	for i, col := range r.below {
		v.Below[i] = cardsOf(col)
	}
	if r.pendingCard >= 0 {
		c := CardOf(r.pendingCard)
		v.PendingCard = &c
	}
	if s.phase == JudgeGuess {
		v.PendingGuess = r.pendingGuess
	}
	if t := s.Timer(); t != nil {
		v.TimerMillis = t.DelayMillis
	}
	v.Seats = make([]SeatView, s.n)
	for i := range s.n {
		sv := SeatView{
			Name:     s.players[i].Name,
			Bot:      s.players[i].Bot,
			Score:    s.scores[i],
			HandSize: len(r.hands[i]),
			Turns:    r.turns[i],
			Proposed: r.proposed[i] >= maxProposals,
		}
		if len(r.votes) == s.n {
			sv.Voted = r.votes[i] != 0
		}
		v.Seats[i] = sv
	}
	gmSees := s.phase != Finished && viewer.IsSeat(r.gm)
	if (gmSees || omni) && r.mode != NoRule {
		v.Rule = &RuleCard{Mode: r.mode, Text: r.ruleText, Title: r.title, Grade: r.grade, Library: r.library}
		if r.mode == Machine {
			v.Rule.English = s.machineRule().English()
			if s.phase != Finished {
				line := facesOf(r.line)
				for i := range Faces {
					if s.machineRule().Accepts(line, faces[i]) {
						v.Fits = append(v.Fits, CardOf(i))
					}
				}
			}
		}
	}
	if viewer.Kind == engine.ViewerSeat && int(viewer.Seat) >= 0 && int(viewer.Seat) < s.n {
		v.Hand = cardsOf(r.hands[viewer.Seat])
	}
	if omni {
		v.Hands = make([][]Card, s.n)
		for i := range s.n {
			v.Hands[i] = cardsOf(r.hands[i])
		}
	}
	for _, h := range s.history {
		v.Rounds = append(v.Rounds, h.clone())
	}
	if s.result != nil {
		res := *s.result
		res.Winners = slices.Clone(res.Winners)
		res.Scores = slices.Clone(res.Scores)
		v.Result = &res
	}
	return v
}
