package breakcode

import (
	"slices"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
)

// Phase says what the table is waiting for.
type Phase int

const (
	// Playing: the player to move asks a question or guesses.
	Playing Phase = iota
	// LastChance: in a 2-player game the starting player has just broken the
	// code, and the other player may make one immediate guess (right ties,
	// wrong loses) or pass.
	LastChance
	// Finished: the game is over; View.Result says how.
	Finished
)

// String names the phase.
func (p Phase) String() string {
	switch p {
	case Playing:
		return "playing"
	case LastChance:
		return "last chance"
	default:
		return "finished"
	}
}

// Answer is one seat's answer to one question.
type Answer struct {
	Seat engine.Seat `json:"seat"`
	Code uint8       `json:"code"` // encoded answer (see FormatAnswer)
	Text string      `json:"text"` // phrased: "27", "yes", "d, e", "a b | c d e", "none"
}

// Asked is one question put to the table and every answer it got, in seat
// order. Answers are public.
type Asked struct {
	Turn     int         `json:"turn"` // the turn number on which it was asked (1-based)
	Asker    engine.Seat `json:"asker"`
	Card     int         `json:"card"`
	Number   int         `json:"number,omitempty"` // for cards 18–21
	Question string      `json:"question"`         // phrased, e.g. "where are your 8s or 9s? (8)"
	Answers  []Answer    `json:"answers"`
}

// Note is one line of a notepad: an answer heard from one seat.
type Note struct {
	Turn   int    `json:"turn"`
	Card   int    `json:"card"`
	Number int    `json:"number,omitempty"`
	Label  string `json:"label"` // compact question, e.g. "8s/9s (8)"
	Code   uint8  `json:"code"`
	Text   string `json:"text"` // phrased answer
}

// GuessOutcome is one guess a seat made. Tiles are shown only where the
// viewer may know them: every guess in a 2-player game is said out loud,
// while with 3–4 players only the guesser (and a replay) sees what they wrote.
type GuessOutcome struct {
	Turn  int    `json:"turn"`
	Tiles []Tile `json:"tiles,omitempty"`
	Right bool   `json:"right"`
}

// SeatView is what the viewer knows about one seat.
type SeatView struct {
	Name string `json:"name"`
	Bot  bool   `json:"bot,omitempty"`
	// Hand is the seat's tiles when the viewer may see them: the viewer's own
	// seat, or every seat in an omniscient view. Nil otherwise.
	Hand []Tile `json:"hand,omitempty"`
	// Notes is the notepad line for this seat: every answer it gave, oldest first.
	Notes []Note `json:"notes"`
	// Guesses lists the seat's guesses, oldest first.
	Guesses []GuessOutcome `json:"guesses,omitempty"`
	// Out is true once a 3–4-player seat has made its one guess.
	Out bool `json:"out,omitempty"`
	// GotIt is true once the seat has guessed right ("I got it!" / broke the code).
	GotIt bool `json:"got_it,omitempty"`
	// Possible is the aid: how many distinct hands this seat may still hold
	// given everything the viewer knows. 0 when not computed (aid off, the
	// viewer's own seat, spectators and replays).
	Possible int `json:"possible,omitempty"`
	// Marks are the aid's pencil marks: for each position of the seat's
	// sorted hand (a, b, …), the tiles it may still show there, given all
	// the viewer knows. Nil when not computed (as Possible).
	Marks TileSets `json:"marks,omitempty"`
	// PossibleHands lists those hands when there are at most ListedMax of
	// them (same conditions as Possible), so the notepad can name them.
	PossibleHands TileSets `json:"possible_hands,omitempty"`
}

// View is an immutable snapshot of a game for one viewer. It shares no
// memory the state writes: what it shares with the state (the public
// record of the questions, the seat's aid lists) is never written again,
// and a view is read-only.
type View struct {
	Viewer   engine.Viewer `json:"viewer"`
	Players  int           `json:"players"`
	HandSize int           `json:"hand_size"` // tiles per player: 5, or 4 with 4 players
	// CentreSize is the number of face-down centre tiles (0 with 2 players).
	CentreSize int `json:"centre_size"`
	// Seats is indexed by seat.
	Seats []SeatView `json:"seats"`
	// Hand is the viewer's own tiles in screen order (nil unless a seat).
	Hand []Tile `json:"hand,omitempty"`
	// Centre holds the centre tiles when the viewer may see them: in an
	// omniscient view, or for a seat that has looked at them by guessing.
	Centre []Tile `json:"centre,omitempty"`
	// Unused lists the tiles out of play in a 2-player game (omniscient only).
	Unused []Tile `json:"unused,omitempty"`
	// CentrePossible is the aid for 3–4 players: how many centre sets the
	// viewer cannot yet rule out (0 when not computed).
	CentrePossible int `json:"centre_possible,omitempty"`
	// CentreMarks are the pencil marks of the centre, position by position
	// (nil when not computed, or once the viewer has seen the centre).
	CentreMarks TileSets `json:"centre_marks,omitempty"`
	// CentreSets lists those centre sets when there are at most ListedMax.
	CentreSets TileSets `json:"centre_sets,omitempty"`
	Aid        bool     `json:"aid"` // whether the table shows the aid counts
	// FaceUp lists the face-up Question cards (card numbers) in table order.
	FaceUp   []int `json:"face_up"`
	DrawPile int   `json:"draw_pile"` // cards left in the draw pile
	// Asked is every question asked so far, oldest first.
	Asked   []Asked     `json:"asked"`
	Turn    int         `json:"turn"` // 1-based number of the current turn
	ToMove  engine.Seat `json:"to_move"`
	Starter engine.Seat `json:"starter"` // the seat that took the first turn
	Phase   Phase       `json:"phase"`
	// RoundClosing is true in a 3–4-player game once someone guessed right:
	// the round is being completed and then the game ends.
	RoundClosing bool           `json:"round_closing,omitempty"`
	Result       *engine.Result `json:"result,omitempty"`
}

// YourTurn reports whether the viewer is the seat that must act now.
func (v View) YourTurn() bool {
	return v.Phase != Finished && v.Viewer.IsSeat(v.ToMove)
}

// CanAsk reports whether the viewer may ask a question now.
func (v View) CanAsk() bool { return v.YourTurn() && v.Phase == Playing }

// CanGuess reports whether the viewer may guess now.
func (v View) CanGuess() bool { return v.YourTurn() }

// CanPass reports whether the viewer may decline the 2-player answering guess.
func (v View) CanPass() bool { return v.YourTurn() && v.Phase == LastChance }

// GuessSize is how many tiles a guess names: the opponent's hand with 2
// players, the centre with 3 or 4.
func (v View) GuessSize() int {
	if v.Players == 2 {
		return v.HandSize
	}
	return v.CentreSize
}

// view builds the snapshot for viewer.
func (s *state) view(viewer engine.Viewer) View { return s.viewAid(viewer, s.aid) }

// viewAid builds the snapshot for viewer, with a seat's aid worked out
// only when aid is set (and the table has it on).
func (s *state) viewAid(viewer engine.Viewer, aid bool) View {
	v := View{
		Viewer:     viewer,
		Players:    s.n,
		HandSize:   s.handSize,
		CentreSize: s.centreSize(),
		Aid:        s.aid,
		FaceUp:     s.faceUpShown(),
		DrawPile:   len(s.deck),
		Turn:       s.turns + 1,
		ToMove:     s.toMove,
		Starter:    s.starter,
		Phase:      s.phase,
		RoundClosing: s.n > 2 && slices.Contains(s.gotIt, true) &&
			s.phase != Finished,
	}
	omni := viewer.Kind == engine.ViewerOmniscient
	// The questions, their answers and the seats' notes are public: every
	// view shares the one record of them (see public).
	pub := s.public()
	v.Asked = pub.asked
	v.Seats = make([]SeatView, s.n)
	for i := range s.n {
		seat := engine.Seat(i)
		sv := SeatView{
			Name:  s.players[i].Name,
			Bot:   s.players[i].Bot,
			Notes: pub.notes[i],
			Out:   s.n > 2 && s.out[i],
			GotIt: s.gotIt[i],
		}
		if omni || viewer.IsSeat(seat) {
			sv.Hand = s.dealtTiles(i)
		}
		for _, g := range s.guesses[i] {
			out := GuessOutcome{Turn: g.turn, Right: g.right}
			if s.n == 2 || omni || viewer.IsSeat(seat) {
				out.Tiles = tilesOf(g.mask)
			}
			sv.Guesses = append(sv.Guesses, out)
		}
		v.Seats[i] = sv
	}
	if viewer.Kind == engine.ViewerSeat && int(viewer.Seat) >= 0 && int(viewer.Seat) < s.n {
		me := int(viewer.Seat)
		v.Hand = s.dealtTiles(me)
		if s.n > 2 && s.out[me] {
			v.Centre = s.dealtTiles(s.n)
		}
		if s.aid && aid {
			// The aid's lists are the seat's memo's own (seatAid), shared
			// read-only by every view of this seat until what it knows
			// changes: nothing is carved for a view.
			counts := s.seatAid(me, v)
			for i := range s.n {
				if i != me {
					v.Seats[i].Possible = counts.hands[i]
					v.Seats[i].PossibleHands = tileSetsOf(counts.handSets[i])
					v.Seats[i].Marks = tileSetsOf(counts.marks[i])
				}
			}
			v.CentrePossible = counts.centre
			v.CentreSets = tileSetsOf(counts.centreSets)
			v.CentreMarks = tileSetsOf(counts.centreMarks)
		}
	}
	if omni {
		if s.n > 2 {
			v.Centre = s.dealtTiles(s.n)
		} else {
			v.Unused = s.dealtTiles(s.n)
		}
	}
	if s.result != nil {
		r := *s.result
		r.Winners = slices.Clone(r.Winners)
		r.Scores = slices.Clone(r.Scores)
		v.Result = &r
	}
	return v
}

// tilesMemo is a set of dealt tiles as views show them, with the mask it
// was written from.
type tilesMemo struct {
	mask  uint32
	tiles []Tile
}

// dealtTiles returns the tiles of seat i's hand (i < s.n) or of the centre
// (i == s.n: the unused tiles with 2 players), written once and shared,
// read-only as every view is, by every view that may show them: the deal
// never changes in a game, and a seat's view used to write its hand out
// twice (the seat's and the view's own) after every move. Only a view
// that may show the tiles is handed them, as before; the mask is checked
// so that tiles dealt again (tests do) are never shown stale.
func (s *state) dealtTiles(i int) []Tile {
	if len(s.tileMemo) != s.n+1 {
		s.tileMemo = make([]tilesMemo, s.n+1)
	}
	mask := s.centre
	if i < s.n {
		mask = s.hands[i]
	}
	m := &s.tileMemo[i]
	if m.tiles == nil || m.mask != mask {
		m.mask, m.tiles = mask, tilesOf(mask)
	}
	return m.tiles
}

// faceUpShown returns a copy of the face-up cards, shared (read-only, as
// every view is) by the views built until the cards change: faceUp itself
// is written in place when a card is taken.
func (s *state) faceUpShown() []int {
	if !slices.Equal(s.faceUpMemo, s.faceUp) || (s.faceUpMemo == nil) != (s.faceUp == nil) {
		s.faceUpMemo = slices.Clip(slices.Clone(s.faceUp))
	}
	return s.faceUpMemo
}

// publicRecord is what every view shows alike of the questions: each
// question asked with its answers, and each seat's answers as notes. It
// is made once for each question asked (public) and shared, read-only as
// every view is, by all the views built until the next one — a table
// builds a view for every seat and spectator after every change, and
// each used to hold its own copy, some KB of strings for the collector.
type publicRecord struct {
	n     int      // how many questions it holds (len(state.asked) then)
	asked []Asked  // nil before the first question
	notes [][]Note // by seat: never nil, capped at its end
}

// public returns the public record of s's questions, made anew only when a
// question was asked since it was last made. Questions are only ever
// appended to s.asked and never changed once there, so the count says
// whether it is current. A new record carries the notes of the one before
// on, so each note's label is made once.
func (s *state) public() *publicRecord {
	if p := s.pubMemo; p != nil && p.n == len(s.asked) {
		return p
	}
	prev := s.pubMemo
	if prev != nil && (prev.n > len(s.asked) || len(prev.notes) != s.n) {
		prev = nil
	}
	p := &publicRecord{n: len(s.asked), notes: make([][]Note, s.n)}
	// The answers and the notes each go in one array made at its size.
	// Each slice into them is capped at its own end, so appending to one
	// never writes over the next.
	answers, notesOf := 0, make([]int, s.n)
	for _, a := range s.asked {
		answers += len(a.Answers)
		for _, ans := range a.Answers {
			if int(ans.Seat) >= 0 && int(ans.Seat) < s.n {
				notesOf[ans.Seat]++
			}
		}
	}
	if len(s.asked) > 0 {
		p.asked = make([]Asked, len(s.asked))
		all := make([]Answer, 0, answers)
		for i, a := range s.asked {
			start := len(all)
			all = append(all, a.Answers...)
			p.asked[i] = a
			p.asked[i].Answers = nil
			if a.Answers != nil {
				p.asked[i].Answers = all[start:len(all):len(all)]
			}
		}
	}
	notes := make([]Note, 0, answers)
	for i := range s.n {
		p.notes[i] = []Note{}
		if notesOf[i] == 0 {
			continue
		}
		seat := engine.Seat(i)
		start, from := len(notes), 0
		if prev != nil {
			notes = append(notes, prev.notes[i]...)
			from = prev.n
		}
		for _, a := range s.asked[from:] {
			for _, ans := range a.Answers {
				if ans.Seat == seat {
					notes = append(notes, Note{
						Turn: a.Turn, Card: a.Card, Number: a.Number,
						Label: ShortQuestion(a.Card, a.Number), Code: ans.Code, Text: ans.Text,
					})
				}
			}
		}
		p.notes[i] = notes[start:len(notes):len(notes)]
	}
	s.pubMemo = p
	return p
}

func (a Asked) clone() Asked {
	a.Answers = slices.Clone(a.Answers)
	return a
}

// RevealText lists, for a plain-text transcript, every set of tiles this
// view holds, one row each as a label and the tiles: the seats' hands,
// then the centre and the tiles out of play. An omniscient view holds the
// whole deal; a hand the view hides is left out.
func (v View) RevealText() [][2]string {
	rows := make([][2]string, 0, len(v.Seats)+2)
	for _, sv := range v.Seats {
		if sv.Hand != nil {
			rows = append(rows, [2]string{sv.Name, tileText(sv.Hand)})
		}
	}
	if len(v.Centre) > 0 {
		rows = append(rows, [2]string{"Centre", tileText(v.Centre)})
	}
	if len(v.Unused) > 0 {
		rows = append(rows, [2]string{"Out of play", tileText(v.Unused)})
	}
	return rows
}

// tileText writes tiles as a transcript shows them: "3b 3w 5g 7b 7w".
func tileText(ts []Tile) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return strings.Join(parts, " ")
}
