package breakcode

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// tiles parses "1b 2w 5g" into tiles, failing the test on a typo.
func tiles(t *testing.T, s string) []Tile {
	t.Helper()
	var out []Tile
	for _, f := range strings.Fields(s) {
		p, err := ParseTile(f)
		if err != nil {
			t.Fatalf("bad tile in test: %v", err)
		}
		out = append(out, p)
	}
	return out
}

// physicalSet places tiles into physical indices, taking the second green 5
// when the first is already used by taken.
func physicalSet(t *testing.T, ts []Tile, taken uint32) uint32 {
	t.Helper()
	var m uint32
	for _, x := range ts {
		p := indexOf(x)
		if p == 10 && (taken|m)&(1<<10) != 0 {
			p = 11
		}
		if (taken|m)&(1<<p) != 0 {
			t.Fatalf("tile %v dealt twice", x)
		}
		m |= 1 << p
	}
	return m
}

// fixedGame builds a game with chosen hands; the centre (or the unused
// tiles with 2 players) gets every other tile. faceUp lists the face-up
// cards; the draw pile holds the rest of the 21.
func fixedGame(t *testing.T, hands []string, faceUp []int, starter engine.Seat) *state {
	t.Helper()
	names := []string{"mara", "Bo", "Kai", "Lu"}
	players := make([]engine.Player, len(hands))
	for i := range players {
		players[i].Name = names[i]
	}
	s := newState(true, players, 1)
	var taken uint32
	for i, h := range hands {
		s.hands[i] = physicalSet(t, tiles(t, h), taken)
		taken |= s.hands[i]
	}
	s.centre = (1<<tileCount - 1) &^ taken
	s.faceUp = slices.Clone(faceUp)
	s.deck = nil
	for c := 1; c <= CardCount; c++ {
		if !slices.Contains(faceUp, c) {
			s.deck = append(s.deck, c)
		}
	}
	s.starter, s.toMove = starter, starter
	return s
}

func mustApply(t *testing.T, s *state, seat engine.Seat, action []byte) []engine.Event {
	t.Helper()
	evs, err := s.Apply(seat, action)
	if err != nil {
		t.Fatalf("Apply(%d, %s): %v", seat, action, err)
	}
	return evs
}

func answerText(t *testing.T, hand string, card, number int) string {
	t.Helper()
	ts := tiles(t, hand)
	sortTiles(ts)
	return FormatAnswer(card, answerFor(ts, variantOf(card, number)))
}

func TestHandTables(t *testing.T) {
	for _, c := range []struct{ size, distinct, physical int }{{5, 12444, 15504}, {4, 4029, 4845}} {
		h := handsOfSize(c.size)
		if len(h.masks) != c.distinct {
			t.Errorf("%d-tile hands: %d distinct, want %d", c.size, len(h.masks), c.distinct)
		}
		phys := 0
		for _, m := range h.masks {
			if m&(1<<10) != 0 && m&(1<<11) == 0 {
				phys += 2 // a lone green 5 can be either physical tile
			} else {
				phys++
			}
		}
		if phys != c.physical {
			t.Errorf("%d-tile hands: %d physical sets, want %d", c.size, phys, c.physical)
		}
	}
}

func TestParseTile(t *testing.T) {
	for in, want := range map[string]string{"3b": "3b", "7W": "7w", "5g": "5g", "5": "5g", " 0b ": "0b"} {
		got, err := ParseTile(in)
		if err != nil || got.String() != want {
			t.Errorf("ParseTile(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "5b", "3", "3g", "10b", "xb", "3x"} {
		if _, err := ParseTile(bad); err == nil {
			t.Errorf("ParseTile(%q) accepted", bad)
		}
	}
}

// The rulebook's worked examples, in our own hands.
func TestRulebookAnswers(t *testing.T) {
	cases := []struct {
		name, hand   string
		card, number int
		want         string
	}{
		{"a 5 on c", "1b 3w 5g 7b 8w", cardFives, 0, "c"},
		{"two 5s", "5g 5g 6b 7w 9b", cardFives, 0, "a, b"},
		{"asking for the 2s", "2b 4w 6b 7w 9b", 18, 2, "a"},
		{"asking for the 1s", "2b 4w 6b 7w 9b", 18, 1, "none"},
		{"same colour groups", "0b 1b 3w 4w 6w", cardSameColour, 0, "a b | c d e"},
		{"green 5s share a colour", "3w 5g 5g 7b 9b", cardSameColour, 0, "b c | d e"},
		{"no same colour", "0b 1w 2b 3w 4b", cardSameColour, 0, "none"},
		{"consecutive groups", "2b 3w 4b 6b 7w", cardConsecutive, 0, "a b c | d e"},
		{"equal numbers are not consecutive", "3b 3w 4b 8b 9w", cardConsecutive, 0, "b c | d e"},
		{"sum", "1b 2w 5g 8b 9w", 1, 0, "25"},
		{"left sum", "1b 2w 5g 8b 9w", 2, 0, "8"},
		{"right sum", "1b 2w 5g 8b 9w", 3, 0, "22"},
		{"middle sum", "1b 2w 5g 8b 9w", 4, 0, "15"},
		{"black sum", "1b 2w 5g 8b 9w", 5, 0, "9"},
		{"white sum", "1b 2w 5g 8b 9w", 6, 0, "11"},
		{"no white", "1b 3b 5g 8b 9b", 6, 0, "0"},
		{"range", "1b 2w 5g 8b 9w", 7, 0, "8"},
		{"odd, 5 counts", "1b 2w 5g 8b 9w", 8, 0, "3"},
		{"even, 0 counts", "0b 2w 5g 8b 9w", 9, 0, "3"},
		{"black count, green is not black", "1b 2w 5g 8b 9w", 10, 0, "2"},
		{"white count", "1b 2w 5g 8b 9w", 11, 0, "2"},
		{"pairs", "1b 1w 5g 5g 9w", 12, 0, "2"},
		{"c is a 5", "1b 2w 5g 8b 9w", cardCAbove4, 0, "yes"},
		{"c is a 4", "1b 2w 4g 8b 9w", cardCAbove4, 0, "no"},
		{"zeros", "0b 0w 5g 8b 9w", cardZeros, 0, "a, b"},
		{"eights", "1b 2w 5g 8b 8w", 21, 8, "d, e"},
		// 4-tile hands: c is the third tile; the right sum is b c d, the middle b c.
		{"4 tiles right sum", "1b 2w 6b 8w", 3, 0, "16"},
		{"4 tiles middle", "1b 2w 6b 8w", 4, 0, "8"},
		{"4 tiles c", "1b 2w 6b 8w", cardCAbove4, 0, "yes"},
	}
	for _, c := range cases {
		hand := strings.Replace(c.hand, "4g", "4w", 1)
		if got := answerText(t, hand, c.card, c.number); got != c.want {
			t.Errorf("%s: %s asked %q → %q, want %q", c.name, hand, Question(c.card, c.number, 5), got, c.want)
		}
	}
}

func TestSortBlackBeforeWhite(t *testing.T) {
	s := fixedGame(t, []string{"3w 3b 1w 5g 9b", "5g 0b 0w 2b 2w"}, []int{1, 2, 3, 4, 5, 6}, 0)
	v := s.view(engine.SeatViewer(0))
	if got := FormatTiles(v.Hand); got != "1w 3b 3w 5g 9b" {
		t.Errorf("hand shown as %q, want 1w 3b 3w 5g 9b", got)
	}
}

func TestDealConservesTiles(t *testing.T) {
	for n := 2; n <= 4; n++ {
		for seed := range uint64(50) {
			s := newState(true, make([]engine.Player, n), seed)
			checkConserved(t, s)
			if len(s.faceUp) != FaceUpCards || len(s.deck) != CardCount-FaceUpCards {
				t.Fatalf("cards dealt %d up, %d in pile", len(s.faceUp), len(s.deck))
			}
		}
	}
}

func checkConserved(t *testing.T, s *state) {
	t.Helper()
	var all uint32
	for i, h := range s.hands {
		if all&h != 0 {
			t.Fatalf("seat %d shares a tile", i)
		}
		if got := popcount(h); got != s.handSize {
			t.Fatalf("seat %d holds %d tiles, want %d", i, got, s.handSize)
		}
		all |= h
	}
	if all&s.centre != 0 || all|s.centre != 1<<tileCount-1 {
		t.Fatalf("tiles not conserved: hands %b centre %b", all, s.centre)
	}
	cards := slices.Concat(s.faceUp, s.deck)
	for _, a := range s.asked {
		cards = append(cards, a.Card)
	}
	slices.Sort(cards)
	want := make([]int, CardCount)
	for i := range want {
		want[i] = i + 1
	}
	if !slices.Equal(cards, want) {
		t.Fatalf("question cards not conserved: %v", cards)
	}
}

func popcount(m uint32) int {
	c := 0
	for ; m != 0; m &= m - 1 {
		c++
	}
	return c
}

func omniJSON(t *testing.T, s *state) string {
	t.Helper()
	b, err := json.Marshal(s.View(engine.Omniscient()))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestIllegalActionsLeaveStateUntouched(t *testing.T) {
	s := fixedGame(t, []string{"1b 2w 5g 8b 9w", "0b 3w 4b 6w 7b"}, []int{1, 7, 13, 14, 18, 21}, 0)
	before := omniJSON(t, s)
	cases := []struct {
		seat   engine.Seat
		action string
		want   string
	}{
		{0, `{"ask":{"card":2}}`, "That card is not on the table; pick one of the six face-up cards."},
		{0, `{"ask":{"card":18}}`, "Name the number you ask about: 1 or 2."},
		{0, `{"ask":{"card":18,"number":3}}`, "Name the number you ask about: 1 or 2."},
		{0, `{"ask":{"card":7,"number":8}}`, "leave the number out"},
		{1, `{"ask":{"card":1}}`, "It is mara's turn."},
		{0, `{"pass":true}`, "You cannot pass now"},
		{0, `{}`, "Choose one move"},
		{0, `{"ask":{"card":1},"pass":true}`, "Choose one move"},
		{0, `{"guess":{"tiles":["1b","2w"]}}`, "Name exactly 5 tiles"},
		{0, `{"guess":{"tiles":["1b","1b","2w","3w","4w"]}}`, "only one 1b"},
		{0, `{"guess":{"tiles":["1b","5g","5g","5g","4w"]}}`, "only two 5g"},
		{0, `{"guess":{"tiles":["1b","2w","5b","8b","9w"]}}`, "could not be read"},
		{0, `{"ask":{"card":1,"extra":1}}`, "could not be read"},
		{0, `not json`, "could not be read"},
	}
	for _, c := range cases {
		_, err := s.Apply(c.seat, []byte(c.action))
		if err == nil || !engine.IsIllegal(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Apply(%d, %s) = %v, want an illegal-move error containing %q", c.seat, c.action, err, c.want)
		}
		if after := omniJSON(t, s); after != before {
			t.Fatalf("Apply(%d, %s) changed the state", c.seat, c.action)
		}
	}
}

func TestAskTwoPlayers(t *testing.T) {
	s := fixedGame(t, []string{"1b 2w 5g 8b 9w", "0b 3w 4b 6w 7b"}, []int{1, 7, 13, 14, 18, 21}, 0)
	evs := mustApply(t, s, 0, AskAction(1, 0))
	if len(evs) != 1 || evs[0].Text != "mara asked: sum of your tiles → Bo 20" || len(evs[0].Seats) != 0 {
		t.Fatalf("events %+v", evs)
	}
	if s.toMove != 1 || slices.Contains(s.faceUp, 1) || len(s.faceUp) != 6 {
		t.Fatalf("after asking: to move %d, face up %v", s.toMove, s.faceUp)
	}
	evs = mustApply(t, s, 1, AskAction(21, 8))
	if want := "Bo asked: where are your 8s or 9s? (8) → mara d"; evs[0].Text != want {
		t.Fatalf("event %q, want %q", evs[0].Text, want)
	}
	v := s.view(engine.SeatViewer(1))
	notes := v.Seats[0].Notes
	if len(notes) != 1 || notes[0].Label != "8s/9s (8)" || notes[0].Text != "d" {
		t.Fatalf("Bo's notepad for mara: %+v", notes)
	}
	if len(v.Seats[1].Notes) != 1 || v.Seats[1].Notes[0].Text != "20" {
		t.Fatalf("Bo's own answers: %+v", v.Seats[1].Notes)
	}
}

func TestWrongGuessSaysOnlyWrong(t *testing.T) {
	s := fixedGame(t, []string{"1b 2w 5g 8b 9w", "0b 3w 4b 6w 7b"}, []int{1, 7, 13, 14, 18, 21}, 0)
	// One tile off in colour, like the rulebook's example.
	evs := mustApply(t, s, 0, GuessAction(tiles(t, "0b 3w 4w 6w 7b")))
	if len(evs) != 1 || !strings.HasSuffix(evs[0].Text, "— wrong.") {
		t.Fatalf("events %+v", evs)
	}
	if strings.Contains(evs[0].Text, "4b") || strings.Count(evs[0].Text, "right") > 0 {
		t.Fatalf("a wrong guess revealed more than wrong: %q", evs[0].Text)
	}
	if s.toMove != 1 || s.phase != Playing {
		t.Fatalf("after a wrong guess: to move %d, phase %v", s.toMove, s.phase)
	}
	v := s.view(engine.SeatViewer(0))
	if g := v.Seats[0].Guesses; len(g) != 1 || g[0].Right {
		t.Fatalf("mara's guesses %+v", g)
	}
	// Guesses may be named in any order.
	mustApply(t, s, 1, AskAction(1, 0))
	evs = mustApply(t, s, 0, GuessAction(tiles(t, "7b 6w 4b 3w 0b")))
	if s.phase != LastChance || !strings.HasSuffix(evs[0].Text, "— right!") {
		t.Fatalf("after the starter's right guess: phase %v, events %+v", s.phase, evs)
	}
}

func TestTwoPlayerTieRule(t *testing.T) {
	hands := []string{"1b 2w 5g 8b 9w", "0b 3w 4b 6w 7b"}
	faceUp := []int{1, 7, 13, 14, 18, 21}
	right0, right1 := GuessAction(tiles(t, hands[1])), GuessAction(tiles(t, hands[0]))
	wrong := GuessAction(tiles(t, "0w 3w 4b 6w 7b"))

	t.Run("non-starter wins at once", func(t *testing.T) {
		s := fixedGame(t, hands, faceUp, 1)
		mustApply(t, s, 1, AskAction(1, 0))
		mustApply(t, s, 0, right0)
		if r, ok := s.Result(); !ok || !slices.Equal(r.Winners, []engine.Seat{0}) {
			t.Fatalf("result %+v", r)
		}
	})
	for _, c := range []struct {
		name    string
		answer  []byte
		winners []engine.Seat
		draw    bool
	}{
		{"answer right ties", right1, []engine.Seat{0, 1}, true},
		{"answer wrong loses", wrong, []engine.Seat{0}, false},
		{"pass loses", PassAction(), []engine.Seat{0}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := fixedGame(t, hands, faceUp, 0)
			evs := mustApply(t, s, 0, right0)
			if s.phase != LastChance || s.toMove != 1 || len(evs) != 2 {
				t.Fatalf("after the starter's right guess: phase %v, to move %d, events %+v", s.phase, s.toMove, evs)
			}
			if _, err := s.Apply(1, AskAction(1, 0)); !engine.IsIllegal(err) {
				t.Fatalf("asking during the last chance: %v", err)
			}
			mustApply(t, s, 1, c.answer)
			r, ok := s.Result()
			if !ok || !slices.Equal(r.Winners, c.winners) || r.Draw != c.draw {
				t.Fatalf("result %+v, want winners %v draw %v", r, c.winners, c.draw)
			}
			if _, err := s.Apply(0, AskAction(1, 0)); !engine.IsIllegal(err) {
				t.Fatalf("acting after the end: %v", err)
			}
		})
	}
}

func TestQuestionsRunOut(t *testing.T) {
	s := fixedGame(t, []string{"1b 2w 5g 8b 9w", "0b 3w 4b 6w 7b"}, []int{1, 2, 3, 4, 5, 6}, 0)
	seat := engine.Seat(0)
	for i := 0; i < CardCount; i++ {
		if _, ok := s.Result(); ok {
			t.Fatalf("game ended after %d questions", i)
		}
		card := s.faceUp[0]
		num := 0
		if nums := CardNumbers(card); nums != nil {
			num = nums[1]
		}
		mustApply(t, s, seat, AskAction(card, num))
		seat = 1 - seat
		if i >= CardCount-FaceUpCards && len(s.faceUp) != CardCount-1-i {
			t.Fatalf("after %d questions %d cards face up", i+1, len(s.faceUp))
		}
	}
	r, ok := s.Result()
	if !ok || len(r.Winners) != 0 || !r.Draw {
		t.Fatalf("result %+v %v, want a draw with no winner", r, ok)
	}
}

func TestThreePlayersRoundIsCompleted(t *testing.T) {
	hands := []string{"1b 2w 5g 8b 9w", "0b 3w 4b 6w 7b", "0w 1w 2b 3b 4w"}
	centre := "5g 6b 7w 8w 9b"
	right := GuessAction(tiles(t, centre))
	s := fixedGame(t, hands, []int{1, 7, 13, 14, 18, 21}, 1)
	evs := mustApply(t, s, 1, AskAction(1, 0))
	if want := "Bo asked: sum of your tiles → Kai 10, mara 25"; evs[0].Text != want {
		t.Fatalf("event %q, want %q", evs[0].Text, want)
	}
	// The round runs Bo, Kai, mara: after Kai's right guess mara still plays.
	evs = mustApply(t, s, 2, right)
	var private, public []engine.Event
	for _, e := range evs {
		if len(e.Seats) > 0 {
			private = append(private, e)
		} else {
			public = append(public, e)
		}
	}
	if len(private) != 1 || !slices.Equal(private[0].Seats, []engine.Seat{2}) || !strings.Contains(private[0].Text, centre) {
		t.Fatalf("private events %+v", private)
	}
	for _, e := range public {
		if strings.Contains(e.Text, "9b") {
			t.Fatalf("a public event shows centre tiles: %q", e.Text)
		}
	}
	if _, ok := s.Result(); ok || s.toMove != 0 {
		t.Fatalf("the round must go on to mara; to move %d", s.toMove)
	}
	v := s.view(engine.SeatViewer(2))
	if FormatTiles(v.Centre) != centre || !v.Seats[2].Out || !v.Seats[2].GotIt {
		t.Fatalf("Kai's view after guessing: centre %v seat %+v", v.Centre, v.Seats[2])
	}
	if sv := s.view(engine.SeatViewer(0)); sv.Centre != nil || !sv.RoundClosing || sv.Seats[2].Guesses[0].Tiles != nil {
		t.Fatalf("mara sees %+v", sv)
	}
	// mara guesses wrong; the round is complete (Bo started it): Kai alone wins.
	mustApply(t, s, 0, GuessAction(tiles(t, "5g 6b 7w 8w 9w")))
	r, ok := s.Result()
	if !ok || !slices.Equal(r.Winners, []engine.Seat{2}) {
		t.Fatalf("result %+v %v", r, ok)
	}
}

func TestThreePlayersEveryoneWrong(t *testing.T) {
	hands := []string{"1b 2w 5g 8b 9w", "0b 3w 4b 6w 7b", "0w 1w 2b 3b 4w"}
	wrong := GuessAction(tiles(t, "5g 6b 7w 8w 9w"))
	s := fixedGame(t, hands, []int{1, 7, 13, 14, 18, 21}, 0)
	mustApply(t, s, 0, wrong)
	mustApply(t, s, 1, AskAction(7, 0))
	if s.toMove != 2 {
		t.Fatalf("out seats must be skipped; to move %d", s.toMove)
	}
	// mara, out, still answers.
	if a := s.asked[0].Answers; len(a) != 2 || a[1].Seat != 0 {
		t.Fatalf("answers %+v", a)
	}
	mustApply(t, s, 2, wrong)
	mustApply(t, s, 1, AskAction(1, 0))
	if s.toMove != 1 {
		t.Fatalf("Bo plays alone; to move %d", s.toMove)
	}
	mustApply(t, s, 1, wrong)
	r, ok := s.Result()
	if !ok || len(r.Winners) != 0 {
		t.Fatalf("result %+v %v, want no winner", r, ok)
	}
}

func TestFourPlayersAskerAnswersToo(t *testing.T) {
	hands := []string{"1b 2w 5g 8b", "0b 3w 4b 6w", "0w 1w 2b 3b", "4w 6b 7b 7w"}
	s := fixedGame(t, hands, []int{1, 7, 13, 14, 18, 21}, 2)
	evs := mustApply(t, s, 2, AskAction(1, 0))
	if want := "Kai asked: sum of your tiles → Lu 24, mara 16, Bo 13, Kai 6"; evs[0].Text != want {
		t.Fatalf("event %q, want %q", evs[0].Text, want)
	}
	if s.toMove != 3 {
		t.Fatalf("to move %d, want 3", s.toMove)
	}
	v := s.view(engine.SeatViewer(3))
	if v.CentrePossible == 0 || v.Seats[0].Possible == 0 || v.Seats[3].Possible != 0 {
		t.Fatalf("aid counts: centre %d, seats %+v", v.CentrePossible, v.Seats)
	}
	// Four centre tiles: 5g 8w 9b 9w.
	mustApply(t, s, 3, GuessAction(tiles(t, "9w 9b 8w 5g")))
	if !s.gotIt[3] || s.toMove != 0 {
		t.Fatalf("Lu's right guess: got %v, to move %d", s.gotIt[3], s.toMove)
	}
	mustApply(t, s, 0, AskAction(7, 0))
	mustApply(t, s, 1, GuessAction(tiles(t, "9w 9b 8w 5g")))
	r, ok := s.Result()
	if !ok || !slices.Equal(r.Winners, []engine.Seat{1, 3}) {
		t.Fatalf("result %+v %v, want Bo and Lu", r, ok)
	}
}

func TestPhrasing(t *testing.T) {
	if got := Question(21, 8, 5); got != "where are your 8s or 9s? (8)" {
		t.Errorf("Question(21, 8) = %q", got)
	}
	if got := Question(1, 0, 5); got != "sum of your tiles" {
		t.Errorf("Question(1) = %q", got)
	}
	for c := 1; c <= CardCount; c++ {
		if q := Question(c, 0, 5); q == "" || strings.HasPrefix(q, "card") {
			t.Errorf("card %d has no question", c)
		}
		if ShortQuestion(c, 0) == "" {
			t.Errorf("card %d has no label", c)
		}
	}
}

func TestInfoAndRegistry(t *testing.T) {
	g := Game{}
	info := g.Info()
	if info.ID != "breakcode" || info.MinPlayers != 2 || info.MaxPlayers != 4 || !info.HasBotLevel("easy") {
		t.Fatalf("info %+v", info)
	}
	if _, _, err := engine.Start(g, engine.Options{"aid": "maybe"}, make([]engine.Player, 2), 1); err == nil {
		t.Fatal("aid=maybe accepted")
	}
	if _, _, err := engine.Start(g, nil, make([]engine.Player, 5), 1); err == nil {
		t.Fatal("5 players accepted")
	}
	st, _, err := engine.Start(g, engine.Options{"aid": "off"}, make([]engine.Player, 3), 1)
	if err != nil {
		t.Fatal(err)
	}
	v := st.View(engine.SeatViewer(0)).(View)
	if v.Aid || v.CentrePossible != 0 || v.Seats[1].Possible != 0 {
		t.Fatalf("aid off but counts shown: %+v", v)
	}
	if _, err := g.NewBot(0, "genius", 1); err == nil {
		t.Fatal("unknown bot level accepted")
	}
}

func TestAnalyze(t *testing.T) {
	s := fixedGame(t, []string{"1b 2w 5g 8b 9w", "0b 3w 4b 6w 7b"}, []int{1, 7, 13, 14, 18, 21}, 0)
	if _, err := Analyze(s.view(engine.Spectator())); err == nil {
		t.Fatal("a spectator's view was analysed")
	}
	a, err := Analyze(s.view(engine.SeatViewer(0)))
	if err != nil {
		t.Fatal(err)
	}
	// mara holds one green 5, so the other is unseen: Bo's 5 tiles come from
	// 15 distinct tiles, every set a different hand.
	if a.Possible[1] != 3003 || a.Targets != 3003 || a.Possible[0] != 0 {
		t.Fatalf("analysis %+v", a)
	}
	if len(a.Questions) != 8 || a.Questions[0].Bits < a.Questions[len(a.Questions)-1].Bits {
		t.Fatalf("questions %+v", a.Questions)
	}
	for _, q := range a.Questions {
		if q.Card == cardCAbove4 && (q.Bits < 0.8 || q.Bits > 1) {
			t.Errorf("c > 4 is worth %.2f bits; about 1 expected", q.Bits)
		}
	}
	if a.Uncertainty < 11.5 || a.Uncertainty > 11.56 { // log2(3003) ≈ 11.55
		t.Fatalf("uncertainty %.3f bits", a.Uncertainty)
	}
	mustApply(t, s, 0, AskAction(1, 0))
	mustApply(t, s, 1, AskAction(7, 0))
	b, _ := Analyze(s.view(engine.SeatViewer(0)))
	if b.Targets >= a.Targets || b.Targets != b.Possible[1] {
		t.Fatalf("after hearing a sum: %d targets (was %d), %d possible", b.Targets, a.Targets, b.Possible[1])
	}
}

func TestViewMoveHelpers(t *testing.T) {
	s := fixedGame(t, []string{"1b 2w 5g 8b", "0b 3w 4b 6w", "0w 1w 2b 3b", "4w 6b 7b 7w"}, []int{1, 7, 13, 14, 18, 21}, 0)
	v := s.view(engine.SeatViewer(0))
	if !v.CanAsk() || !v.CanGuess() || v.CanPass() || v.GuessSize() != 4 {
		t.Fatalf("seat 0 on turn: ask %v guess %v pass %v size %d", v.CanAsk(), v.CanGuess(), v.CanPass(), v.GuessSize())
	}
	if w := s.view(engine.SeatViewer(1)); w.CanAsk() || w.CanGuess() {
		t.Fatal("a waiting seat may act")
	}
	s2 := fixedGame(t, []string{"1b 2w 5g 8b 9w", "0b 3w 4b 6w 7b"}, []int{1, 7, 13, 14, 18, 21}, 0)
	mustApply(t, s2, 0, GuessAction(tiles(t, "0b 3w 4b 6w 7b")))
	if w := s2.view(engine.SeatViewer(1)); w.CanAsk() || !w.CanGuess() || !w.CanPass() || w.GuessSize() != 5 {
		t.Fatalf("last chance helpers wrong: %+v", w)
	}
}
