package coding

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

var names = []string{"Ann", "Bo", "Kai", "Lu"}

// fixedGame builds a game in round 1 with the given codes (already set),
// the first-player card at first, and the Hack cards in id order (the
// line holds 0–4). The leftover pile holds every other code card, letters
// first.
func fixedGame(t *testing.T, system string, codes []string, first engine.Seat) *state {
	t.Helper()
	players := make([]engine.Player, len(codes))
	for i := range players {
		players[i].Name = names[i]
	}
	s := newState(config{system: system, answerMillis: 30000, sheet: true}, players, 1)
	var used uint16
	for i, c := range codes {
		code, err := ParseCode(c)
		if err != nil {
			t.Fatal(err)
		}
		if used&code.mask() != 0 {
			t.Fatalf("card of %s dealt twice", c)
		}
		used |= code.mask()
		s.codes[i] = code
		s.ordered[i] = true
	}
	s.leftover = nil
	for c := range CodeCards {
		if used&(1<<c) == 0 {
			s.leftover = append(s.leftover, c)
		}
	}
	s.hackLine, s.hackDeck = nil, nil
	for id := range HackCards {
		if id < HackLine {
			s.hackLine = append(s.hackLine, id)
		} else {
			s.hackDeck = append(s.hackDeck, id)
		}
	}
	s.phase, s.round, s.first, s.toMove = Rounds, 1, first, first
	return s
}

func mustApply(t *testing.T, s *state, seat engine.Seat, action []byte) []engine.Event {
	t.Helper()
	evs, err := s.Apply(seat, action)
	if err != nil {
		t.Fatalf("Apply(%d, %s): %v", seat, action, err)
	}
	checkConserved(t, s)
	return evs
}

func mustRefuse(t *testing.T, s *state, seat engine.Seat, action []byte, want string) {
	t.Helper()
	before := dump(s)
	_, err := s.Apply(seat, action)
	if err == nil || !engine.IsIllegal(err) {
		t.Fatalf("Apply(%d, %s) = %v, want a refusal", seat, action, err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("Apply(%d, %s) refused with %q, want it to mention %q", seat, action, err, want)
	}
	if dump(s) != before {
		t.Fatalf("refused %s changed the state", action)
	}
}

// dump renders the whole state, hidden parts included.
func dump(s *state) string {
	b, err := json.Marshal(s.View(engine.Omniscient()))
	if err != nil {
		panic(err)
	}
	return fmt.Sprintf("%s|%+v|%v|%v|%d", b, s.codes, s.xChoice, s.votes, s.moves)
}

func omniJSON(t *testing.T, s *state) string {
	t.Helper()
	return dump(s)
}

// simplePlay is a legal hacking move for the seat to move: the first
// takeable Data card, the first Hack card, the first recipient.
func simplePlay(s *state) []byte {
	data := -1
	if ks := s.takeable(s.toMove); len(ks) > 0 {
		data = ks[0]
	}
	return PlayAction(data, s.hackLine[0], s.recipients(s.toMove)[0])
}

// anyData is the first Data card kind seat may take now, or -1.
func anyData(s *state, seat engine.Seat) int {
	if ks := s.takeable(seat); len(ks) > 0 {
		return ks[0]
	}
	return -1
}

func playRounds(t *testing.T, s *state) {
	t.Helper()
	for s.phase == Rounds {
		mustApply(t, s, s.toMove, simplePlay(s))
	}
}

// checkConserved checks that every card is in exactly one place.
func checkConserved(t *testing.T, s *state) {
	t.Helper()
	var seen uint16
	add := func(c int) {
		if seen&(1<<c) != 0 {
			t.Fatalf("code card %s is in two places", CardName(c))
		}
		seen |= 1 << c
	}
	for i, c := range s.codes {
		if !c.Valid() {
			t.Fatalf("seat %d holds %+v", i, c)
		}
		for p := range 3 {
			add(cardAt(c, p))
		}
	}
	for _, c := range slices.Concat(s.leftover, s.extras) {
		add(c)
	}
	if seen != 1<<CodeCards-1 {
		t.Fatalf("code cards missing: %016b", seen)
	}
	data := s.dataCleared
	for k := range DataKinds {
		data += s.dataField[k]
	}
	for i := range s.data {
		data += len(s.data[i])
		seenKind := map[int]bool{}
		for _, k := range s.data[i] {
			if seenKind[k] {
				t.Fatalf("seat %d holds two %s cards", i, DataLabel(k))
			}
			seenKind[k] = true
			if inDataRange(k, s.codes[i]) {
				t.Fatalf("seat %d holds a false Data card %s", i, DataLabel(k))
			}
		}
	}
	if data != s.dataTotal {
		t.Fatalf("data cards: %d accounted for, want %d", data, s.dataTotal)
	}
	hacks := slices.Concat(s.hackLine, s.hackDeck, s.hackCleared)
	for i := range s.hacks {
		for _, h := range s.hacks[i] {
			hacks = append(hacks, h.Card)
			if Hack(h.Card).Green(s.codes[i]) != h.Green {
				t.Fatalf("seat %d answered hack %d wrongly", i, h.Card)
			}
		}
		if s.system == SystemCounter && len(s.hacks[i]) > MaxHacksHeld {
			t.Fatalf("seat %d holds %d hack cards", i, len(s.hacks[i]))
		}
	}
	slices.Sort(hacks)
	for i, h := range hacks {
		if h != i {
			t.Fatalf("hack cards not conserved: %v", hacks)
		}
	}
	if len(hacks) != HackCards {
		t.Fatalf("hack cards: %d, want %d", len(hacks), HackCards)
	}
}

// The rulebook's Data card example: F98 may show "not 20–39".
func TestRulebookDataCardExample(t *testing.T) {
	s := fixedGame(t, SystemSpeed, []string{"F98", "D57"}, 0)
	mustRefuse(t, s, 0, PlayAction(Data80to99, 0, 1), "80–99")
	mustRefuse(t, s, 0, PlayAction(DataEF, 0, 1), "E–F")
	mustRefuse(t, s, 0, PlayAction(-1, 0, 1), "20–39")
	evs := mustApply(t, s, 0, PlayAction(Data20to39, 0, 1))
	if !slices.Equal(s.data[0], []int{Data20to39}) || !strings.Contains(evs[0].Text, "not in 20–39") {
		t.Fatalf("data %v, event %q", s.data[0], evs[0].Text)
	}
	if s.dataField[Data20to39] != 0 {
		t.Fatalf("2 players: %d copies of 20–39 left after Ann took the only one", s.dataField[Data20to39])
	}
}

// The rulebook's Hack card example: "X1 is even" sent to D57 is red.
func TestRulebookHackCardExample(t *testing.T) {
	s := fixedGame(t, SystemSpeed, []string{"F98", "D57"}, 0)
	const x1Even = 4
	if h := Hack(x1Even); h.Pos != PosX1 || h.Label() != "X1 in 0 2 4 6 8?" {
		t.Fatalf("card 4 is %+v %q", h, h.Label())
	}
	evs := mustApply(t, s, 0, PlayAction(Data20to39, x1Even, 1))
	if got := s.hacks[1]; len(got) != 1 || got[0].Green || got[0].Card != x1Even {
		t.Fatalf("Bo holds %+v", got)
	}
	if !strings.HasSuffix(evs[0].Text, "to Bo: red.") {
		t.Fatalf("event %q", evs[0].Text)
	}
	// The line is refilled from the deck.
	if len(s.hackLine) != HackLine || slices.Contains(s.hackLine, x1Even) {
		t.Fatalf("line %v", s.hackLine)
	}
}

// The crack sheet tips: "not 20–39" crosses out 2 and 3 at X1; a red "X1
// even" crosses out the even X1s; a green X2 {7,8,9} leaves only 7–9.
func TestRulebookCrackSheetExample(t *testing.T) {
	s := fixedGame(t, SystemSpeed, []string{"A01", "F95", "C46"}, 1)
	v := s.view(engine.SeatViewer(0))
	if sh := *v.Seats[1].Sheet; sh[PosX1] != 0b1111111100 || sh[PosLetter] != 0b111110 {
		t.Fatalf("start sheet %010b %06b", sh[PosX1], sh[PosLetter])
	}
	mustApply(t, s, 1, PlayAction(Data20to39, 4, 2)) // Bo: not 20–39; Kai answers X1 even: green
	v = s.view(engine.SeatViewer(0))
	if sh := *v.Seats[1].Sheet; sh[PosX1]&(1<<2|1<<3) != 0 || sh[PosX1] != 0b1111110000 {
		t.Fatalf("after 20–39, X1 %010b", sh[PosX1])
	}
	s.hacks[1] = append(s.hacks[1], Held{Card: 4, Green: false}, Held{Card: 16, Green: true}) // X1 even red; X2 {7,8,9} green
	v = s.view(engine.SeatViewer(0))
	sh := *v.Seats[1].Sheet
	if sh[PosX1]&0b0101010101 != 0 {
		t.Fatalf("even X1 left: %010b", sh[PosX1])
	}
	if sh[PosX2] != 1<<7|1<<8|1<<9 {
		t.Fatalf("X2 %010b, want 7–9", sh[PosX2])
	}
	// Bo's own view carries no sheet for Bo, and spectators get none.
	if s.view(engine.SeatViewer(1)).Seats[1].Sheet != nil || s.view(engine.Spectator()).Seats[1].Sheet != nil {
		t.Fatal("sheet shown where it should not be")
	}
}

// The sheet is a joint deduction: once Kai's letter is known to be B, B is
// not possible for anyone else, even without a fact about them.
func TestCrackSheetNoSharedCards(t *testing.T) {
	s := fixedGame(t, SystemCounter, []string{"A01", "F95", "B46"}, 1)
	s.revealed[2][PosLetter] = true
	v := s.view(engine.SeatViewer(0))
	if sh := *v.Seats[1].Sheet; sh[PosLetter] != 0b111100 {
		t.Fatalf("Bo's letters %06b, want C–F", sh[PosLetter])
	}
	// Bo's X1 is known to be 9 and Kai's X2 must then not be 9.
	s.revealed[1][PosX1] = true
	v = s.view(engine.SeatViewer(0))
	if sh := *v.Seats[2].Sheet; sh[PosX2]&(1<<9) != 0 || sh[PosX2]&(1<<0|1<<1) != 0 {
		t.Fatalf("Kai's X2 %010b", sh[PosX2])
	}
	if v.Seats[1].Candidates == 0 || v.Seats[2].Candidates == 0 {
		t.Fatal("no candidates left")
	}
}

func TestCannotTakeDataCard(t *testing.T) {
	s := fixedGame(t, SystemSpeed, []string{"A05", "F97", "C46"}, 0)
	// Only kinds that cover A05 are left: A–B and 00–19.
	s.dataTotal = 2
	s.dataField = [DataKinds]int{}
	s.dataField[DataAB], s.dataField[Data00to19] = 1, 1
	mustRefuse(t, s, 0, PlayAction(DataAB, 0, 1), "A05 is in A–B")
	evs := mustApply(t, s, 0, PlayAction(-1, 0, 1))
	if !strings.Contains(evs[0].Text, "Ann cannot take any Data card") || len(evs[0].Seats) != 0 {
		t.Fatalf("announcement %+v", evs[0])
	}
	want := []NoData{{Round: 1, Kinds: []int{DataAB, Data00to19}}}
	if fmt.Sprint(s.noData[0]) != fmt.Sprint(want) {
		t.Fatalf("announcements %+v", s.noData[0])
	}
	// The announcement narrows Ann's code for everyone.
	v := s.view(engine.SeatViewer(1))
	if sh := *v.Seats[0].Sheet; sh[PosLetter] != 0b000011 || sh[PosX1] != 0b11 {
		t.Fatalf("sheet after announcement: letters %06b X1 %010b", sh[PosLetter], sh[PosX1])
	}
	// Bo can take 00–19 and must.
	mustRefuse(t, s, 1, PlayAction(-1, s.hackLine[0], 2), "00–19")
}

func TestSetupOrdersDigitsPrivately(t *testing.T) {
	st, _, err := engine.Start(Game{}, nil, []engine.Player{{Name: "Ann"}, {Name: "Bo"}}, 7)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*state)
	if s.phase != Setup || len(s.Status().Active) != 2 {
		t.Fatalf("phase %v, active %v", s.phase, s.Status().Active)
	}
	c := s.codes[1]
	bad := 0
	for bad == c.X1 || bad == c.X2 {
		bad++
	}
	mustRefuse(t, s, 1, OrderAction(bad), "choose one of them")
	mustRefuse(t, s, 1, PlayAction(0, s.hackLine[0], 0), "digits in order")
	evs := mustApply(t, s, 1, OrderAction(c.X2))
	if s.codes[1] != (Code{c.Letter, c.X2, c.X1}) {
		t.Fatalf("code %v after ordering %v with X1=%d", s.codes[1], c, c.X2)
	}
	for _, e := range engine.FilterEvents(evs, engine.SeatViewer(0)) {
		if strings.Contains(e.Text, s.codes[1].String()) {
			t.Fatalf("Ann learns Bo's code: %q", e.Text)
		}
	}
	mustRefuse(t, s, 1, OrderAction(c.X1), "already set")
	if !slices.Equal(s.Status().Active, []engine.Seat{0}) {
		t.Fatalf("active %v", s.Status().Active)
	}
	mustApply(t, s, 0, OrderAction(s.codes[0].X1))
	if s.phase != Rounds || s.toMove != s.first || s.round != 1 {
		t.Fatalf("after setup: phase %v, to move %d, first %d", s.phase, s.toMove, s.first)
	}
}

func TestSendingConstraintsThreePlayers(t *testing.T) {
	s := fixedGame(t, SystemSpeed, []string{"A01", "B23", "C45"}, 0)
	// Round 1: Ann first; she cannot send to herself.
	mustRefuse(t, s, 0, PlayAction(-1, 0, 0), "Bo or Kai")
	mustRefuse(t, s, 1, simplePlay(s), "Ann's turn")
	mustApply(t, s, 0, PlayAction(DataCD, 0, 1))
	// Bo may not send to Ann (she receives last), only to Kai.
	if got := s.recipients(1); !slices.Equal(got, []engine.Seat{2}) {
		t.Fatalf("Bo may send to %v", got)
	}
	mustRefuse(t, s, 1, PlayAction(DataAB+2, s.hackLine[0], 0), "to Kai")
	mustApply(t, s, 1, PlayAction(DataEF, s.hackLine[0], 2))
	if got := s.recipients(2); !slices.Equal(got, []engine.Seat{0}) {
		t.Fatalf("Kai may send to %v", got)
	}
	evs := mustApply(t, s, 2, PlayAction(DataAB, s.hackLine[0], 0))
	// The round is over and the first-player card passes left to Bo.
	if s.round != 2 || s.first != 1 || s.toMove != 1 || !strings.Contains(evs[len(evs)-1].Text, "Round 2") {
		t.Fatalf("round %d, first %d, to move %d", s.round, s.first, s.toMove)
	}
	// Bo got his last card from Ann, but in round 1: opening round 2 he has
	// received nothing this round and may send to anyone who has not acted.
	if got := s.recipients(1); !slices.Equal(got, []engine.Seat{0, 2}) {
		t.Fatalf("Bo may send to %v at the start of round 2, want Ann or Kai", got)
	}
	playRounds(t, s)
	for i := range 3 {
		if len(s.hacks[i]) != RoundCount || len(s.data[i])+len(s.noData[i]) > RoundCount {
			t.Fatalf("seat %d: %d hacks, %d data, %d announcements", i, len(s.hacks[i]), len(s.data[i]), len(s.noData[i]))
		}
	}
	if s.phase != Race || len(s.hackLine) != 0 || s.dataField != [DataKinds]int{} {
		t.Fatalf("after round 4: phase %v, line %v, data %v", s.phase, s.hackLine, s.dataField)
	}
}

func TestTwoPlayersSendBack(t *testing.T) {
	s := fixedGame(t, SystemCounter, []string{"A01", "B23"}, 1)
	if s.dataTotal != 8 {
		t.Fatalf("2 players use %d Data cards, want 8", s.dataTotal)
	}
	mustApply(t, s, 1, simplePlay(s))
	if !slices.Equal(s.recipients(0), []engine.Seat{1}) {
		t.Fatalf("Ann may send to %v", s.recipients(0))
	}
	mustApply(t, s, 0, simplePlay(s))
	if s.round != 2 || s.first != 0 || s.toMove != 0 {
		t.Fatalf("round %d first %d to move %d", s.round, s.first, s.toMove)
	}
	playRounds(t, s)
	if s.phase != Counter || s.toMove != 1 {
		t.Fatalf("counter starts: phase %v, to move %d", s.phase, s.toMove)
	}
}

func TestCounterCracking(t *testing.T) {
	s := fixedGame(t, SystemCounter, []string{"A01", "B23", "C45"}, 0)
	playRounds(t, s)
	// The card passed left four times: Bo starts.
	if s.phase != Counter || s.toMove != 1 || s.first != 1 {
		t.Fatalf("phase %v to move %d", s.phase, s.toMove)
	}
	mustApply(t, s, 1, PlayAction(anyData(s, 1), s.hackLine[0], 2))
	// Kai may not send back to Bo, who just sent to him.
	mustRefuse(t, s, 2, PlayAction(anyData(s, 2), s.hackLine[0], 1), "to Ann, not")
	mustApply(t, s, 2, PlayAction(anyData(s, 2), s.hackLine[0], 0))
	mustRefuse(t, s, 0, StopAction(), "only right after a right decode")
	mustRefuse(t, s, 0, DecodeAction(0, s.codes[0]), "another player")
	// A wrong decode: Ann turns one card face up, then Bo plays.
	evs := mustApply(t, s, 0, DecodeAction(1, Code{1, 3, 2}))
	if s.phase != RevealOne || !strings.Contains(evs[0].Text, "wrong") || len(s.guesses[1]) != 1 {
		t.Fatalf("phase %v, events %v", s.phase, evs)
	}
	mustRefuse(t, s, 0, RevealAction(3), "hidden code cards")
	mustApply(t, s, 0, RevealAction(PosX2))
	if !s.revealed[0][PosX2] || s.toMove != 1 || s.phase != Counter {
		t.Fatalf("revealed %v, to move %d", s.revealed[0], s.toMove)
	}
	// The five-card limit: Ann and Kai hold five each, so Bo cannot hack.
	if len(s.hacks[0]) != MaxHacksHeld || len(s.hacks[2]) != MaxHacksHeld || len(s.recipients(1)) != 0 {
		t.Fatalf("hacks held %d %d, Bo may send to %v", len(s.hacks[0]), len(s.hacks[2]), s.recipients(1))
	}
	mustRefuse(t, s, 1, PlayAction(anyData(s, 1), s.hackLine[0], 2), "decode someone instead")
	// A right decode: Kai is out; Bo may play on or stop.
	evs = mustApply(t, s, 1, DecodeAction(2, s.codes[2]))
	if !s.out[2] || !s.mayStop || s.toMove != 1 || s.revealed[2] != [3]bool{true, true, true} {
		t.Fatalf("after right decode: out %v, may stop %v, to move %d: %v", s.out, s.mayStop, s.toMove, evs)
	}
	mustApply(t, s, 1, StopAction())
	if s.toMove != 0 {
		t.Fatalf("to move %d after stop", s.toMove)
	}
	// Ann's second and third wrong decodes put her out; Bo wins.
	mustApply(t, s, 0, DecodeAction(1, Code{1, 3, 4}))
	mustApply(t, s, 0, RevealAction(PosLetter))
	mustApply(t, s, 1, DecodeAction(0, Code{5, 9, 8}))
	mustApply(t, s, 1, RevealAction(PosX1))
	evs = mustApply(t, s, 0, DecodeAction(1, Code{1, 3, 5}))
	r, ok := s.Result()
	if !ok || !slices.Equal(r.Winners, []engine.Seat{1}) || s.wrongs[0] != 3 || !s.out[0] {
		t.Fatalf("result %+v %v, events %v", r, ok, evs)
	}
	mustRefuse(t, s, 1, StopAction(), "over")
}

func TestSpeedRaceTapAnswerAndFoul(t *testing.T) {
	s := fixedGame(t, SystemSpeed, []string{"A01", "B23", "C45"}, 0)
	playRounds(t, s)
	if s.Timer() != nil || len(s.Status().Active) != 3 {
		t.Fatalf("race: timer %v active %v", s.Timer(), s.Status().Active)
	}
	// Bo's tap is received first: he alone may answer, with a timer.
	mustApply(t, s, 1, TapAction())
	mustRefuse(t, s, 2, TapAction(), "Bo tapped first")
	tm := s.Timer()
	if tm == nil || tm.DelayMillis != 30000 || string(tm.Action) != string(TimeoutAction(1)) {
		t.Fatalf("timer %+v", tm)
	}
	mustRefuse(t, s, 1, tm.Action, "clock")
	mustRefuse(t, s, engine.System, TimeoutAction(7), "No answer window 7")
	// The window runs out: a foul; Bo is out with his code shown.
	evs := mustApply(t, s, engine.System, tm.Action)
	if !s.out[1] || s.phase != Race || !strings.Contains(evs[0].Text, "B23") || s.Timer() != nil {
		t.Fatalf("after foul: out %v phase %v: %v", s.out, s.phase, evs)
	}
	mustRefuse(t, s, 1, TapAction(), "out of this game")
	// Kai answers wrongly: out, and Ann is the last player standing.
	mustApply(t, s, 2, TapAction())
	mustRefuse(t, s, 2, DecodeAction(1, s.codes[1]), "still in")
	evs = mustApply(t, s, 2, DecodeAction(0, Code{0, 1, 0}))
	r, ok := s.Result()
	if !ok || !slices.Equal(r.Winners, []engine.Seat{0}) || s.revealed[2] != [3]bool{true, true, true} {
		t.Fatalf("result %+v: %v", r, evs)
	}
}

func TestSpeedRightAnswerWins(t *testing.T) {
	s := fixedGame(t, SystemSpeed, []string{"A01", "B23"}, 0)
	playRounds(t, s)
	mustApply(t, s, 0, TapAction())
	mustApply(t, s, 0, DecodeAction(1, s.codes[1]))
	if r, ok := s.Result(); !ok || !slices.Equal(r.Winners, []engine.Seat{0}) {
		t.Fatalf("result %+v", r)
	}
}

func TestSpeedVotesForMoreData(t *testing.T) {
	s := fixedGame(t, SystemSpeed, []string{"A01", "B23", "C45"}, 0)
	playRounds(t, s)
	// 3 players leave 7 cards: two deals of three, then one card, then the X reveal.
	for deal, want := range []int{3, 3, 1} {
		if s.moreData() != MoreDeal {
			t.Fatalf("deal %d: more is %v", deal, s.moreData())
		}
		mustApply(t, s, 0, VoteAction())
		mustRefuse(t, s, 0, VoteAction(), "already voted")
		mustApply(t, s, 1, VoteAction())
		if len(s.extras) != 3*deal {
			t.Fatal("dealt before everyone voted")
		}
		evs := mustApply(t, s, 2, VoteAction())
		if got := len(s.extras) - 3*deal; got != want || !strings.Contains(evs[len(evs)-1].Text, "held by nobody") {
			t.Fatalf("deal %d gave %d cards: %v", deal, got, evs)
		}
	}
	if s.moreData() != MoreRevealX {
		t.Fatalf("more is %v", s.moreData())
	}
	for i := range 3 {
		mustApply(t, s, engine.Seat(i), VoteAction())
	}
	if s.phase != RevealX {
		t.Fatalf("phase %v", s.phase)
	}
	mustRefuse(t, s, 0, RevealAction(PosLetter), "X1 (1) or X2 (2)")
	evs := mustApply(t, s, 0, RevealAction(PosX2))
	for _, e := range engine.FilterEvents(evs, engine.SeatViewer(1)) {
		if strings.Contains(e.Text, "X2") {
			t.Fatalf("Bo learns Ann's choice early: %q", e.Text)
		}
	}
	if s.revealed[0][PosX2] {
		t.Fatal("revealed before everyone chose")
	}
	mustApply(t, s, 1, RevealAction(PosX1))
	evs = mustApply(t, s, 2, RevealAction(PosX1))
	if !s.revealed[0][PosX2] || !s.revealed[1][PosX1] || !s.revealed[2][PosX1] || s.phase != Race {
		t.Fatalf("after reveal: %v, phase %v", s.revealed, s.phase)
	}
	if !strings.Contains(evs[len(evs)-1].Text, "Ann X2=1") {
		t.Fatalf("reveal event %q", evs[len(evs)-1].Text)
	}
	mustRefuse(t, s, 1, VoteAction(), "someone has to tap")
	// The extras belong to nobody, which the sheet uses.
	v := s.view(engine.SeatViewer(0))
	for _, e := range s.extras {
		if e >= Letters {
			if v.Seats[1].Sheet[PosX2]&(1<<(e-Letters)) != 0 {
				t.Fatalf("extra %s still possible for Bo", CardName(e))
			}
		}
	}
}

func TestFourPlayersGetOneDeal(t *testing.T) {
	s := fixedGame(t, SystemSpeed, []string{"A01", "B23", "C45", "D67"}, 0)
	playRounds(t, s)
	for i := range 4 {
		mustApply(t, s, engine.Seat(i), VoteAction())
	}
	if len(s.extras) != 4 || len(s.leftover) != 0 || s.moreData() != MoreRevealX {
		t.Fatalf("extras %v leftover %v more %v", s.extras, s.leftover, s.moreData())
	}
}

func TestRefusalsLeaveStateUntouched(t *testing.T) {
	s := fixedGame(t, SystemSpeed, []string{"A01", "B23", "C45"}, 0)
	for _, c := range []struct {
		seat   engine.Seat
		action string
		want   string
	}{
		{0, `{}`, "exactly one"},
		{0, `{"tap":true,"vote":true}`, "exactly one"},
		{0, `{"play":{"hack":0,"to":1},"x":1}`, "could not be read"},
		{0, `{"play":{"hack":0,"to":1}} {}`, "trailing"},
		{0, `{"play":{"data":9,"hack":0,"to":1}}`, "no Data card kind"},
		{0, `{"play":{"data":1,"hack":19,"to":1}}`, "not face up"},
		{0, `{"play":{"data":1,"hack":0,"to":7}}`, "not to that player"},
		{5, `{"tap":true}`, "Only a player"},
		{engine.System, `{"tap":true}`, "Only a player"},
		{0, `{"tap":true}`, "Round 1"},
		{0, `{"decode":{"target":1,"code":"B23"}}`, "Round 1"},
		{0, `{"order":{"x1":0}}`, "Round 1"},
	} {
		mustRefuse(t, s, c.seat, []byte(c.action), c.want)
	}
}

func TestParseCode(t *testing.T) {
	for in, want := range map[string]string{"F98": "F98", "d 0 5": "D05", " a19": "A19"} {
		c, err := ParseCode(in)
		if err != nil || c.String() != want {
			t.Errorf("ParseCode(%q) = %v, %v", in, c, err)
		}
	}
	for _, bad := range []string{"", "G12", "A11", "A1", "A123", "12A"} {
		if _, err := ParseCode(bad); err == nil {
			t.Errorf("ParseCode(%q) accepted", bad)
		}
	}
	if c, _ := ParseCode("D05"); c.Number() != 5 {
		t.Errorf("D05 is number %d", c.Number())
	}
}

// TestTurnCountsTurnsOfPlay: the turn a title shows (Status.Turn) counts
// hacks and decodes, as the other games count their turns of play; setting
// codes and turning a card face up after a wrong decode are not turns. A
// play-test read "turn 4" in round 1 of a three-player game.
func TestTurnCountsTurnsOfPlay(t *testing.T) {
	st, _, err := engine.Start(Game{}, nil, []engine.Player{{Name: "Ann"}, {Name: "Bo"}, {Name: "Kai"}}, 7)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*state)
	for seat := range engine.Seat(3) {
		mustApply(t, s, seat, OrderAction(s.codes[seat].X1))
	}
	if got := s.Status().Turn; s.phase != Rounds || got != 1 {
		t.Fatalf("after setting the codes: phase %v, turn %d; want the first turn of round 1", s.phase, got)
	}
	mustApply(t, s, s.toMove, simplePlay(s))
	if got := s.Status().Turn; got != 2 {
		t.Fatalf("after the first hack: turn %d, want 2", got)
	}

	s = fixedGame(t, SystemCounter, []string{"A01", "B23", "C45"}, 0)
	playRounds(t, s) // 4 rounds × 3 players
	if got := s.Status().Turn; got != 13 {
		t.Fatalf("after four rounds of three hacks: turn %d, want 13", got)
	}
	mustApply(t, s, 1, PlayAction(anyData(s, 1), s.hackLine[0], 2))
	mustApply(t, s, 2, PlayAction(anyData(s, 2), s.hackLine[0], 0))
	mustApply(t, s, 0, DecodeAction(1, Code{1, 3, 2})) // wrong: Ann turns a card face up
	if got := s.Status().Turn; got != 16 {
		t.Fatalf("after two hacks and a decode: turn %d, want 16", got)
	}
	mustApply(t, s, 0, RevealAction(PosX2))
	if got := s.Status().Turn; got != 16 || s.toMove != 1 {
		t.Fatalf("after turning a card face up: turn %d (want 16, still), to move %d", got, s.toMove)
	}
}

// TestRoundOrderFourPlayers follows four rounds of four players: each
// round's first player may send to any other player (the card they got in
// the round before does not bind them), everyone after sends only to
// players who have not acted, never to the first player while another is
// left, and the first player receives last. The first-player card moves
// one seat left after each round.
func TestRoundOrderFourPlayers(t *testing.T) {
	s := fixedGame(t, SystemSpeed, []string{"A01", "B23", "C45", "D67"}, 2)
	for round := 1; round <= RoundCount; round++ {
		first := s.first
		if want := engine.Seat((2 + round - 1) % 4); first != want || s.round != round {
			t.Fatalf("round %d: first player %d (round %d), want %d", round, first, s.round, want)
		}
		var others []engine.Seat
		for i := range engine.Seat(4) {
			if i != first {
				others = append(others, i)
			}
		}
		if got := s.recipients(first); !slices.Equal(got, others) {
			t.Fatalf("round %d: the first player may send to %v, want %v", round, got, others)
		}
		order := []engine.Seat{first}
		for step := 0; step < 4; step++ {
			seat := s.toMove
			rs := s.recipients(seat)
			var want []engine.Seat
			for _, o := range others {
				if !s.acted[o] && o != seat {
					want = append(want, o)
				}
			}
			if len(want) == 0 {
				want = []engine.Seat{first}
			}
			if !slices.Equal(rs, want) {
				t.Fatalf("round %d: %d may send to %v, want %v", round, seat, rs, want)
			}
			// Send to the last choice, so the order differs from seat order.
			mustApply(t, s, seat, PlayAction(anyData(s, seat), s.hackLine[0], rs[len(rs)-1]))
			if step < 3 {
				order = append(order, s.toMove)
			}
		}
		if got := s.hacks[first]; got[len(got)-1].From != order[3] || got[len(got)-1].Round != round {
			t.Fatalf("round %d: the first player's last card %+v, want it from %d", round, got[len(got)-1], order[3])
		}
	}
	for i := range 4 {
		if len(s.hacks[i]) != RoundCount || len(s.data[i])+len(s.noData[i]) != RoundCount {
			t.Fatalf("seat %d after round 4: %d hacks, %d data, %d announcements", i, len(s.hacks[i]), len(s.data[i]), len(s.noData[i]))
		}
	}
}
