package coding

import (
	"slices"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
)

// Phase says what the table is waiting for.
type Phase int

const (
	// Setup: every player privately chooses which digit is X1.
	Setup Phase = iota
	// Rounds: rounds 1–4; the player to move takes a Data card and sends a Hack card.
	Rounds
	// Race: Speed Cracking; anyone still in may tap or vote for more data.
	Race
	// Answer: Speed Cracking; the player who tapped names a code before the timer ends.
	Answer
	// RevealX: Speed Cracking; everyone still in privately picks an X card to show.
	RevealX
	// Counter: Counter Cracking; the player to move hacks or decodes (or stops
	// after a right decode).
	Counter
	// RevealOne: Counter Cracking; after a wrong decode the decoder shows one card.
	RevealOne
	// Finished: the game is over; View.Result says how.
	Finished
)

// String names the phase.
func (p Phase) String() string {
	return [...]string{"setup", "rounds", "race", "answer", "reveal X", "counter", "reveal one", "finished"}[p]
}

// MoreData is what a unanimous vote for more data would bring.
type MoreData int

const (
	// MoreNone: nothing more can be revealed.
	MoreNone MoreData = iota
	// MoreDeal: one leftover code card face up per player still in.
	MoreDeal
	// MoreRevealX: every player still in shows one X card of their choice.
	MoreRevealX
)

// SeatView is what the viewer knows about one seat.
type SeatView struct {
	Name string `json:"name"`
	Bot  bool   `json:"bot,omitempty"`
	// Known holds each position's value (letter index or digit) where the
	// viewer may see it, else -1: all three for the viewer's own seat and
	// in omniscient views, otherwise the cards turned face up.
	Known [3]int `json:"known"`
	// Revealed marks the positions turned face up for everyone.
	Revealed [3]bool `json:"revealed"`
	// Ordered is true once the seat has set its digit order (setup).
	Ordered bool `json:"ordered"`
	// Data lists the Data card kinds taken, in order.
	Data []int `json:"data"`
	// NoData lists the seat's "cannot take a Data card" announcements.
	NoData []NoData `json:"no_data,omitempty"`
	// Hacks lists the Hack cards answered, in order received.
	Hacks []Held `json:"hacks"`
	// Wrong lists wrong public decodes of this seat's code.
	Wrong []Guess `json:"wrong,omitempty"`
	// LastFrom is who sent this seat its latest Hack card (-1: nobody).
	LastFrom engine.Seat `json:"last_from"`
	// Acted is true once the seat has played in the current round.
	Acted bool `json:"acted,omitempty"`
	// Out is true once the seat has left the game.
	Out bool `json:"out,omitempty"`
	// WrongDecodes counts the seat's wrong decodes (Counter Cracking).
	WrongDecodes int `json:"wrong_decodes,omitempty"`
	// Voted is true while the seat's vote for more data stands.
	Voted bool `json:"voted,omitempty"`
	// Chosen is true once the seat has picked its X card in the reveal.
	Chosen bool `json:"chosen,omitempty"`
	// Choice is the position picked for the X card reveal (1 or 2), shown
	// only to the seat itself and in omniscient views until all have chosen.
	Choice int `json:"choice,omitempty"`
	// Sheet is the crack sheet for this seat: per position, the values the
	// viewer cannot yet rule out (bit v: value v). Set only in a seat's own
	// view, for the other seats, when the table has the sheet on.
	Sheet *[3]uint16 `json:"sheet,omitempty"`
	// Candidates counts the codes the viewer cannot yet rule out for this
	// seat (with the sheet, 0 otherwise).
	Candidates int `json:"candidates,omitempty"`
	// Possible lists those codes when there are at most ListedCodes, so
	// the sheet can name them (same conditions as Candidates).
	Possible []Code `json:"possible,omitempty"`
}

// ListedCodes is the most possible codes a crack sheet names one by one;
// more are only counted. Six three-character codes fit a sheet line.
const ListedCodes = 6

// View is an immutable snapshot of a game for one viewer. It shares no
// memory with the state.
type View struct {
	Viewer  engine.Viewer `json:"viewer"`
	Players int           `json:"players"`
	// System is SystemSpeed or SystemCounter.
	System string `json:"system"`
	Phase  Phase  `json:"phase"`
	// Round is 1–4 during the rounds, 0 otherwise.
	Round int `json:"round"`
	// First holds the first-player card.
	First engine.Seat `json:"first"`
	// ToMove is the seat to act in the rounds, in Counter Cracking and while
	// answering (the claimant); -1 when several seats may act.
	ToMove engine.Seat `json:"to_move"`
	// Active lists who may act now.
	Active []engine.Seat `json:"active"`
	// Seats is indexed by seat.
	Seats []SeatView `json:"seats"`
	// Code is the viewer's own code (in dealt order until set). Nil unless a seat.
	Code *Code `json:"code,omitempty"`
	// DataField counts the Data cards left per kind.
	DataField [DataKinds]int `json:"data_field"`
	// HackLine lists the face-up Hack cards; HackDeck counts the rest.
	HackLine []int `json:"hack_line"`
	HackDeck int   `json:"hack_deck"`
	// Recipients lists who the seat to move may send a Hack card to.
	Recipients []engine.Seat `json:"recipients,omitempty"`
	// Takeable lists the Data card kinds the viewer may take now (only in
	// the viewer's own view, on their turn).
	Takeable []int `json:"takeable,omitempty"`
	// MayStop is true after a right decode in Counter Cracking.
	MayStop bool `json:"may_stop,omitempty"`
	// Extras are the leftover code cards turned face up (held by nobody).
	Extras []int `json:"extras,omitempty"`
	// Leftover counts the code cards still face down in the leftover pile.
	Leftover int `json:"leftover"`
	// LeftoverCards lists them (omniscient only).
	LeftoverCards []int `json:"leftover_cards,omitempty"`
	// More says what a unanimous vote would bring now (race only).
	More MoreData `json:"more"`
	// Claim is the number of taps so far; Claimant is who is answering (-1: nobody).
	Claim    int         `json:"claim"`
	Claimant engine.Seat `json:"claimant"`
	// AnswerMillis is the answer window.
	AnswerMillis int `json:"answer_ms"`
	// SheetOn says whether the table shows the crack sheet.
	SheetOn bool `json:"sheet_on"`
	// Turn is the 1-based number of the next accepted move.
	Turn int `json:"turn"`
	// Result says how the game ended (nil while it runs).
	Result *engine.Result `json:"result,omitempty"`
}

// YourTurn reports whether the viewer may act now.
func (v View) YourTurn() bool {
	return v.Viewer.Kind == engine.ViewerSeat && slices.Contains(v.Active, v.Viewer.Seat)
}

// view builds the snapshot for viewer.
func (s *state) view(viewer engine.Viewer) View {
	v := View{
		Viewer:       viewer,
		Players:      s.n,
		System:       s.system,
		Phase:        s.phase,
		Round:        s.round,
		First:        s.first,
		ToMove:       s.toMove,
		Active:       s.active(),
		DataField:    s.dataField,
		HackLine:     slices.Clone(s.hackLine),
		HackDeck:     len(s.hackDeck),
		MayStop:      s.mayStop,
		Extras:       slices.Clone(s.extras),
		Leftover:     len(s.leftover),
		Claim:        s.claims,
		Claimant:     s.claimant,
		AnswerMillis: s.answerMillis,
		SheetOn:      s.sheet,
		Turn:         s.moves + 1,
	}
	if s.phase == Answer {
		v.ToMove = s.claimant
	}
	if s.phase == Race {
		v.More = s.moreData()
	}
	if s.phase == Rounds || s.phase == Counter {
		v.Recipients = s.recipients(s.toMove)
	}
	omni := viewer.Kind == engine.ViewerOmniscient
	me := engine.System
	if viewer.Kind == engine.ViewerSeat && s.validSeat(viewer.Seat) {
		me = viewer.Seat
	}
	v.Seats = make([]SeatView, s.n)
	for i := range s.n {
		seat := engine.Seat(i)
		sv := SeatView{
			Name:         s.players[i].Name,
			Bot:          s.players[i].Bot,
			Revealed:     s.revealed[i],
			Ordered:      s.ordered[i],
			Data:         append([]int{}, s.data[i]...),
			Hacks:        append([]Held{}, s.hacks[i]...),
			Wrong:        slices.Clone(s.guesses[i]),
			LastFrom:     s.lastFrom[i],
			Acted:        s.phase == Rounds && s.acted[i],
			Out:          s.out[i],
			WrongDecodes: s.wrongs[i],
			Voted:        s.phase == Race && s.votes[i],
			Chosen:       s.phase == RevealX && s.xChoice[i] != 0,
		}
		if omni || seat == me {
			sv.Choice = s.xChoice[i]
		}
		for _, nd := range s.noData[i] {
			sv.NoData = append(sv.NoData, NoData{Round: nd.Round, Kinds: slices.Clone(nd.Kinds)})
		}
		for p := range 3 {
			sv.Known[p] = -1
			if omni || seat == me || s.revealed[i][p] {
				sv.Known[p] = s.codes[i].At(p)
			}
		}
		v.Seats[i] = sv
	}
	if me != engine.System {
		c := s.codes[me]
		v.Code = &c
		if s.phase == Rounds || s.phase == Counter {
			if s.toMove == me {
				v.Takeable = s.takeable(me)
			}
		}
		if s.sheet {
			k := newKnowledge(v)
			for i := range s.n {
				if i == int(me) {
					continue
				}
				sh := k.sheet(i)
				v.Seats[i].Sheet = &sh
				v.Seats[i].Candidates = len(k.cands[i])
				if len(k.cands[i]) <= ListedCodes {
					v.Seats[i].Possible = slices.Clone(k.cands[i])
				}
			}
		}
	}
	if omni {
		v.LeftoverCards = slices.Clone(s.leftover)
	}
	if s.result != nil {
		r := *s.result
		r.Winners = slices.Clone(r.Winners)
		r.Scores = slices.Clone(r.Scores)
		v.Result = &r
	}
	return v
}

// RevealText lists, for a plain-text transcript, each seat's code as far
// as this view knows it ("?" for a card it may not see) and how the seat
// ended, then the leftover code cards, face up and, when the view holds
// them, face down. An omniscient view shows every card.
func (v View) RevealText() [][2]string {
	won := map[engine.Seat]bool{}
	if v.Result != nil {
		for _, w := range v.Result.Winners {
			won[w] = true
		}
	}
	rows := make([][2]string, 0, len(v.Seats)+2)
	for i, sv := range v.Seats {
		var code strings.Builder
		for p, k := range sv.Known {
			if k < 0 {
				code.WriteString("?")
			} else {
				code.WriteString(ValueName(p, k))
			}
		}
		switch {
		case won[engine.Seat(i)]:
			code.WriteString("  won")
		case sv.Out:
			code.WriteString("  out")
		}
		rows = append(rows, [2]string{sv.Name, code.String()})
	}
	if len(v.Extras) > 0 {
		rows = append(rows, [2]string{"Face up", cardNames(v.Extras)})
	}
	if len(v.LeftoverCards) > 0 {
		rows = append(rows, [2]string{"Face down", cardNames(v.LeftoverCards)})
	}
	return rows
}

// cardNames writes code cards as "8 A 2".
func cardNames(cards []int) string {
	names := make([]string, len(cards))
	for i, c := range cards {
		names[i] = CardName(c)
	}
	return strings.Join(names, " ")
}
