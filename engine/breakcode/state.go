package breakcode

import (
	"fmt"
	"slices"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/words"
)

// state is one game in progress. Tile sets are bit masks over the 20
// physical tiles (see tiles.go).
type state struct {
	engine.Untimed // Break the Code has no timed moves

	n        int
	aid      bool
	players  []engine.Player
	handSize int
	hands    []uint32 // per seat
	centre   uint32   // the face-down centre (3–4 players) or the unused tiles (2 players)
	faceUp   []int    // face-up Question cards, in table order
	deck     []int    // draw pile; the top card is deck[0]
	asked    []Asked
	guesses  [][]guessRecord // per seat
	out      []bool          // 3–4 players: the seat has made its one guess
	gotIt    []bool          // the seat guessed right
	turns    int             // turns taken so far
	toMove   engine.Seat
	starter  engine.Seat
	phase    Phase
	result   *engine.Result
	// aidMemo remembers each seat's aid counts (see seatAid). It is derived
	// from the fields above, never part of the game: clone leaves it behind.
	aidMemo []aidMemo
	// pubMemo is the public record of the questions as views show it (see
	// public), derived like aidMemo and likewise left behind by clone.
	pubMemo *publicRecord
	// tileMemo holds the tiles of each seat's hand and, last, of the
	// centre, as views show them (see dealtTiles): derived, like pubMemo.
	tileMemo []tilesMemo
	// faceUpMemo is faceUp as views show it (see faceUpShown), derived
	// like pubMemo.
	faceUpMemo []int
}

type guessRecord struct {
	turn  int
	mask  uint32
	right bool
}

var _ engine.State = (*state)(nil)

func (s *state) centreSize() int {
	if s.n == 2 {
		return 0
	}
	return s.handSize
}

func (s *state) name(seat engine.Seat) string { return engine.SeatName(s.players, seat) }

// Status says whose move it is.
func (s *state) Status() engine.Status {
	return engine.StatusOf(s.turns+1, s.phase == Finished, func() []engine.Seat { return []engine.Seat{s.toMove} })
}

// Result reports how the game ended.
func (s *state) Result() (engine.Result, bool) { return engine.FinalResult(s.result) }

// View returns a View for v (see View's fields for what each viewer sees).
// It remembers each seat's aid counts between calls (see seatAid), so, like
// Apply, it must not run at the same time as another call on this state.
func (s *state) View(v engine.Viewer) any { return s.view(v) }

// BotView is seat's view without the aid, which bots never read (they
// count hands their own way, see knowledge.go): the aid is most of what a
// seat view costs, and the lobby builds a view for every bot move.
func (s *state) BotView(seat engine.Seat) any { return s.viewAid(engine.SeatViewer(seat), false) }

// Apply validates and applies one action from seat.
func (s *state) Apply(seat engine.Seat, data []byte) ([]engine.Event, error) {
	var a Action
	if err := engine.OpenApply(s.phase == Finished, data, &a, "Choose one move: ask a question or guess the tiles."); err != nil {
		return nil, err
	}
	if seat != s.toMove {
		return nil, engine.Illegal("It is %s's turn.", s.name(s.toMove))
	}
	if s.phase == LastChance {
		switch {
		case a.Guess != nil:
			return s.lastChanceGuess(seat, a.Guess.Tiles)
		case a.Pass:
			return s.lastChancePass(seat), nil
		default:
			return nil, engine.Illegal("%s broke your code: you may guess %s's tiles once to tie, or pass.",
				s.name(s.starter), s.name(s.starter))
		}
	}
	switch {
	case a.Ask != nil:
		return s.ask(seat, a.Ask.Card, a.Ask.Number)
	case a.Guess != nil:
		return s.guess(seat, a.Guess.Tiles)
	default:
		return nil, engine.Illegal("You cannot pass now; ask a question or guess the tiles.")
	}
}

// answerers lists who answers a question asked by asker, in narration order:
// the seats to the asker's left, then (with 4 players) the asker.
func (s *state) answerers(asker engine.Seat) []engine.Seat {
	var out []engine.Seat
	for i := 1; i < s.n; i++ {
		out = append(out, engine.Seat((int(asker)+i)%s.n))
	}
	if s.n == 4 {
		out = append(out, asker)
	}
	return out
}

func (s *state) ask(seat engine.Seat, card, number int) ([]engine.Event, error) {
	slot := slices.Index(s.faceUp, card)
	if slot < 0 {
		return nil, engine.Illegal("That card is not on the table; pick one of the %s face-up cards.", countWord(len(s.faceUp)))
	}
	v := variantOf(card, number)
	if v < 0 {
		if nums := CardNumbers(card); nums != nil {
			return nil, engine.Illegal("Name the number you ask about: %d or %d.", nums[0], nums[1])
		}
		return nil, engine.Illegal("That card asks about no particular number; leave the number out.")
	}
	table := handsOfSize(s.handSize)
	q := Asked{Turn: s.turns + 1, Asker: seat, Card: card, Number: number, Question: Question(card, number, s.handSize)}
	var parts []string
	commas := false
	for _, who := range s.answerers(seat) {
		code := table.answers[table.id(s.hands[who])][v]
		text := FormatAnswer(card, code)
		q.Answers = append(q.Answers, Answer{Seat: who, Code: code, Text: text})
		parts = append(parts, s.name(who)+" "+text)
		commas = commas || strings.Contains(text, ",")
	}
	sep := ", "
	if commas {
		sep = "; "
	}
	s.asked = append(s.asked, q)
	events := []engine.Event{{
		Kind: "ask",
		Text: fmt.Sprintf("%s asked: %s → %s", s.name(seat), q.Question, strings.Join(parts, sep)),
	}}
	// The asked card is discarded; the top of the draw pile takes its place.
	if len(s.deck) > 0 {
		s.faceUp[slot] = s.deck[0]
		s.deck = s.deck[1:]
	} else {
		s.faceUp = slices.Delete(s.faceUp, slot, slot+1)
	}
	s.turns++
	if len(s.faceUp) == 0 {
		return append(events, s.questionsRanOut()...), nil
	}
	return append(events, s.advance(seat)...), nil
}

func countWord(n int) string {
	words := []string{"no", "one", "two", "three", "four", "five", "six"}
	if n >= 0 && n < len(words) {
		return words[n]
	}
	return fmt.Sprint(n)
}

// checkGuess reads a guess of want tiles into a physical set.
func checkGuess(tiles []Tile, want int, whose string) (uint32, error) {
	if len(tiles) != want {
		return 0, engine.Illegal("Name exactly %d tiles for %s, like 1b 2w 5g 8b 9w.", want, whose)
	}
	for _, t := range tiles {
		if t.Number < 0 || t.Number > 9 || t.Color > Green || (t.Color == Green) != (t.Number == 5) {
			return 0, engine.Illegal("%v is not a tile; numbers are 0–9, black or white, and both 5s are green.", t)
		}
	}
	m, err := maskOf(tiles)
	if err != nil {
		return 0, engine.Illegal("That guess cannot be right: %v.", err)
	}
	return m, nil
}

func (s *state) guess(seat engine.Seat, tiles []Tile) ([]engine.Event, error) {
	if s.n == 2 {
		return s.guessOpponent(seat, tiles)
	}
	return s.guessCentre(seat, tiles)
}

func (s *state) other(seat engine.Seat) engine.Seat { return 1 - seat }

// guessOpponent is a 2-player guess, said out loud.
func (s *state) guessOpponent(seat engine.Seat, tiles []Tile) ([]engine.Event, error) {
	opp := s.other(seat)
	m, err := checkGuess(tiles, s.handSize, s.name(opp)+"'s tiles")
	if err != nil {
		return nil, err
	}
	right := canonical(m) == canonical(s.hands[opp])
	s.guesses[seat] = append(s.guesses[seat], guessRecord{turn: s.turns + 1, mask: m, right: right})
	s.turns++
	said := fmt.Sprintf("%s guessed %s's tiles: %s", s.name(seat), s.name(opp), FormatTiles(tilesOf(m)))
	if !right {
		s.toMove = opp
		return []engine.Event{{Kind: "guess", Text: said + " — wrong."}}, nil
	}
	s.gotIt[seat] = true
	events := []engine.Event{{Kind: "guess", Text: said + " — right!"}}
	if seat == s.starter {
		s.phase = LastChance
		s.toMove = opp
		return append(events, engine.Event{Kind: "last-chance",
			Text: fmt.Sprintf("%s may guess %s's tiles once to tie.", s.name(opp), s.name(seat))}), nil
	}
	return append(events, s.finish([]engine.Seat{seat}, false,
		fmt.Sprintf("%s broke the code in %s.", s.name(seat), words.Count(s.turns, "turn", "turns")))), nil
}

func (s *state) lastChanceGuess(seat engine.Seat, tiles []Tile) ([]engine.Event, error) {
	opp := s.other(seat)
	m, err := checkGuess(tiles, s.handSize, s.name(opp)+"'s tiles")
	if err != nil {
		return nil, err
	}
	right := canonical(m) == canonical(s.hands[opp])
	s.guesses[seat] = append(s.guesses[seat], guessRecord{turn: s.turns + 1, mask: m, right: right})
	s.turns++
	said := fmt.Sprintf("%s guessed %s's tiles: %s", s.name(seat), s.name(opp), FormatTiles(tilesOf(m)))
	if right {
		s.gotIt[seat] = true
		return []engine.Event{{Kind: "guess", Text: said + " — right!"},
			s.finish([]engine.Seat{s.starter, seat}, true,
				fmt.Sprintf("%s and %s both broke the code: a tie.", s.name(s.starter), s.name(seat)))}, nil
	}
	return []engine.Event{{Kind: "guess", Text: said + " — wrong."},
		s.finish([]engine.Seat{opp}, false, fmt.Sprintf("%s broke the code in %s.", s.name(opp), words.Count(s.turns-1, "turn", "turns")))}, nil
}

func (s *state) lastChancePass(seat engine.Seat) []engine.Event {
	opp := s.other(seat)
	s.turns++
	return []engine.Event{{Kind: "pass", Text: fmt.Sprintf("%s passed.", s.name(seat))},
		s.finish([]engine.Seat{opp}, false, fmt.Sprintf("%s broke the code in %s.", s.name(opp), words.Count(s.turns-1, "turn", "turns")))}
}

// guessCentre is a 3–4-player guess: written down, checked privately.
func (s *state) guessCentre(seat engine.Seat, tiles []Tile) ([]engine.Event, error) {
	m, err := checkGuess(tiles, s.centreSize(), "the centre")
	if err != nil {
		return nil, err
	}
	right := canonical(m) == canonical(s.centre)
	s.guesses[seat] = append(s.guesses[seat], guessRecord{turn: s.turns + 1, mask: m, right: right})
	s.out[seat] = true
	s.gotIt[seat] = right
	s.turns++
	events := []engine.Event{{
		Kind:   "centre",
		Text:   fmt.Sprintf("You guessed %s; the centre is %s.", FormatTiles(tilesOf(m)), FormatTiles(tilesOf(s.centre))),
		Others: fmt.Sprintf("%s guessed %s; the centre is %s.", s.name(seat), FormatTiles(tilesOf(m)), FormatTiles(tilesOf(s.centre))),
		Seats:  []engine.Seat{seat},
	}}
	if right {
		events = append(events, engine.Event{Kind: "guess", Text: fmt.Sprintf("%s guessed the centre: I got it!", s.name(seat))})
	} else {
		events = append(events, engine.Event{Kind: "guess", Text: fmt.Sprintf("%s guessed the centre wrong and is out.", s.name(seat))})
	}
	return append(events, s.advance(seat)...), nil
}

// advance passes the turn after seat has played. With 3–4 players it skips
// seats that are out, and ends the game when everyone is out or when a round
// in which someone guessed right is complete.
func (s *state) advance(seat engine.Seat) []engine.Event {
	if s.n == 2 {
		s.toMove = s.other(seat)
		return nil
	}
	pos := func(x engine.Seat) int { return (int(x) - int(s.starter) + s.n) % s.n }
	next := engine.Seat(-1)
	for i := 1; i <= s.n; i++ {
		c := engine.Seat((int(seat) + i) % s.n)
		if !s.out[c] {
			next = c
			break
		}
	}
	someone := slices.Contains(s.gotIt, true)
	if next < 0 || (someone && pos(next) <= pos(seat)) {
		return []engine.Event{s.finishCentre()}
	}
	s.toMove = next
	return nil
}

// finishCentre ends a 3–4-player game: every right guesser wins.
func (s *state) finishCentre() engine.Event {
	var winners []engine.Seat
	var names []string
	for i, ok := range s.gotIt {
		if ok {
			winners = append(winners, engine.Seat(i))
			names = append(names, s.name(engine.Seat(i)))
		}
	}
	if len(winners) == 0 {
		return s.finish(nil, false, "Everyone guessed wrong; nobody broke the code.")
	}
	return s.finish(winners, len(winners) > 1,
		fmt.Sprintf("%s broke the code in %s.", joinNames(names), words.Count(s.turns, "turn", "turns")))
}

// questionsRanOut ends the game when no face-up card is left.
func (s *state) questionsRanOut() []engine.Event {
	if s.n > 2 && slices.Contains(s.gotIt, true) {
		return []engine.Event{s.finishCentre()}
	}
	return []engine.Event{s.finish(nil, true, "The questions ran out; nobody broke the code.")}
}

func joinNames(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// finish records the result and returns the closing event.
func (s *state) finish(winners []engine.Seat, draw bool, summary string) engine.Event {
	s.phase = Finished
	s.result = &engine.Result{Winners: winners, Draw: draw, Summary: summary}
	return engine.Event{Kind: "end", Text: summary}
}

// clone deep-copies the state (tests use it to vary hidden tiles).
func (s *state) clone() *state {
	c := *s
	c.players = slices.Clone(s.players)
	c.hands = slices.Clone(s.hands)
	c.faceUp = slices.Clone(s.faceUp)
	c.deck = slices.Clone(s.deck)
	c.asked = make([]Asked, len(s.asked))
	for i := range s.asked {
		c.asked[i] = s.asked[i].clone()
	}
	c.guesses = make([][]guessRecord, s.n)
	for i := range s.guesses {
		c.guesses[i] = slices.Clone(s.guesses[i])
	}
	c.aidMemo = nil // a copy's hidden tiles may be dealt again
	c.pubMemo = nil
	c.tileMemo = nil
	c.faceUpMemo = nil
	c.out = slices.Clone(s.out)
	c.gotIt = slices.Clone(s.gotIt)
	if s.result != nil {
		r := *s.result
		r.Winners = slices.Clone(r.Winners)
		c.result = &r
	}
	return &c
}
