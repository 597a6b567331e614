package coding

import (
	"slices"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// Scenario tests of the rulebook's end games, one rule each, on fixed codes.

// Counter Cracking: after a right decode the decoder may play on with a
// second decode, and the last hidden code wins at once.
func TestCounterPlayOnWithASecondDecode(t *testing.T) {
	s := fixedGame(t, SystemCounter, []string{"A01", "B23", "C45"}, 2)
	playRounds(t, s)
	me := s.toMove
	var others []engine.Seat
	for i := range engine.Seat(3) {
		if i != me {
			others = append(others, i)
		}
	}
	mustApply(t, s, me, DecodeAction(others[0], s.codes[others[0]]))
	if !s.mayStop || s.toMove != me {
		t.Fatalf("after a right decode: may stop %v, to move %d", s.mayStop, s.toMove)
	}
	v := s.view(engine.SeatViewer(me))
	if !v.MayStop || !slices.Equal(v.Active, []engine.Seat{me}) {
		t.Fatalf("the decoder's view: may stop %v, active %v", v.MayStop, v.Active)
	}
	// The player decoded is out: no one may decode them again.
	mustRefuse(t, s, me, DecodeAction(others[0], s.codes[others[0]]), "still in")
	mustApply(t, s, me, DecodeAction(others[1], s.codes[others[1]]))
	r, ok := s.Result()
	if !ok || !slices.Equal(r.Winners, []engine.Seat{me}) {
		t.Fatalf("result %+v %v, want the decoder alone", r, ok)
	}
}

// Counter Cracking: playing on may be a hack instead, after which the turn
// passes left as after any hack.
func TestCounterPlayOnWithAHack(t *testing.T) {
	s := fixedGame(t, SystemCounter, []string{"A01", "B23", "C45", "D67"}, 0)
	playRounds(t, s)
	me := s.toMove
	target := (me + 2) % 4
	mustApply(t, s, me, DecodeAction(target, s.codes[target]))
	rs := s.recipients(me)
	if slices.Contains(rs, target) || len(rs) == 0 {
		t.Fatalf("after decoding %d, %d may send to %v", target, me, rs)
	}
	mustApply(t, s, me, PlayAction(anyData(s, me), s.hackLine[0], rs[0]))
	if s.mayStop || s.toMove != s.nextIn(me) || s.toMove == target {
		t.Fatalf("after playing on with a hack: may stop %v, to move %d", s.mayStop, s.toMove)
	}
	mustRefuse(t, s, s.toMove, StopAction(), "only right after a right decode")
}

// Counter Cracking: with every Data card gone the Data step is skipped;
// naming one is refused.
func TestCounterSkipsTheDataStepWhenNoneIsLeft(t *testing.T) {
	s := fixedGame(t, SystemCounter, []string{"A01", "B23", "C45", "D67"}, 0)
	playRounds(t, s)
	if left := dataLeft(s); left != 0 {
		t.Fatalf("4 players × 4 rounds left %d Data cards, want none", left)
	}
	me := s.toMove
	mustRefuse(t, s, me, PlayAction(DataEF, s.hackLine[0], s.recipients(me)[0]), "No E–F Data card is left")
	evs := mustApply(t, s, me, PlayAction(-1, s.hackLine[0], s.recipients(me)[0]))
	if !strings.Contains(evs[0].Text, "has no Data card left to take") || len(s.noData[me]) != 0 {
		t.Fatalf("event %q, announcements %v: skipping is not an announcement", evs[0].Text, s.noData[me])
	}
}

func dataLeft(s *state) int {
	n := 0
	for _, c := range s.dataField {
		n += c
	}
	return n
}

// Counter Cracking: a Data card that can be taken must be taken, as in the
// rounds.
func TestCounterMustTakeADataCardWhenOneFits(t *testing.T) {
	s := fixedGame(t, SystemCounter, []string{"A01", "B23", "C45"}, 0)
	playRounds(t, s)
	me := s.toMove
	if len(s.takeable(me)) == 0 {
		t.Skip("no Data card fits this deal") // 3 players leave four cards
	}
	mustRefuse(t, s, me, PlayAction(-1, s.hackLine[0], s.recipients(me)[0]), "take one first")
}

// Speed Cracking with 2 players: extra cards are dealt two at a time, as
// often as both agree, until the ten leftover cards are all face up; then
// the X card reveal; then nothing more.
func TestSpeedTwoPlayersDealUntilNoneLeft(t *testing.T) {
	s := fixedGame(t, SystemSpeed, []string{"A01", "B23"}, 0)
	playRounds(t, s)
	if len(s.leftover) != 10 {
		t.Fatalf("%d leftover cards, want 10", len(s.leftover))
	}
	for deal := 1; deal <= 5; deal++ {
		if s.moreData() != MoreDeal {
			t.Fatalf("deal %d: more is %v", deal, s.moreData())
		}
		mustApply(t, s, 0, VoteAction())
		mustApply(t, s, 1, VoteAction())
		if len(s.extras) != 2*deal {
			t.Fatalf("after deal %d: %d extras", deal, len(s.extras))
		}
	}
	if s.moreData() != MoreRevealX {
		t.Fatalf("with no leftover card: more is %v", s.moreData())
	}
	mustApply(t, s, 1, VoteAction())
	mustApply(t, s, 0, VoteAction())
	mustApply(t, s, 0, RevealAction(PosX1))
	mustApply(t, s, 1, RevealAction(PosX2))
	if !s.revealed[0][PosX1] || !s.revealed[1][PosX2] || s.revealed[0][PosLetter] || s.moreData() != MoreNone {
		t.Fatalf("after the reveal: %v, more %v", s.revealed, s.moreData())
	}
	// Every player still sees only what is public of the other.
	v := s.view(engine.SeatViewer(0))
	if v.Seats[1].Known != [3]int{-1, -1, s.codes[1].X2} {
		t.Fatalf("Ann knows Bo's code as %v", v.Seats[1].Known)
	}
}

// Speed Cracking: a player who is out has no vote; those still in decide,
// and the deal gives one card per player still in.
func TestSpeedVotesCountOnlyPlayersStillIn(t *testing.T) {
	s := fixedGame(t, SystemSpeed, []string{"A01", "B23", "C45", "D67"}, 0)
	playRounds(t, s)
	mustApply(t, s, 3, TapAction())
	mustApply(t, s, 3, DecodeAction(0, Code{0, 1, 2})) // wrong: Lu is out
	mustRefuse(t, s, 3, VoteAction(), "out of this game")
	for _, seat := range []engine.Seat{0, 1} {
		mustApply(t, s, seat, VoteAction())
	}
	if len(s.extras) != 0 {
		t.Fatal("dealt before everyone still in voted")
	}
	mustApply(t, s, 2, VoteAction())
	if len(s.extras) != 3 || len(s.leftover) != 1 {
		t.Fatalf("one deal to three players: %d extras, %d left", len(s.extras), len(s.leftover))
	}
	// With 4 players there is one deal only: next comes the X card reveal.
	if s.moreData() != MoreRevealX {
		t.Fatalf("more is %v", s.moreData())
	}
}

// Speed Cracking: a wrong answer is public: the claimant's code is shown
// and the code they named is ruled out for its target on every sheet.
func TestSpeedWrongAnswerIsPublic(t *testing.T) {
	s := fixedGame(t, SystemSpeed, []string{"A01", "B23", "C45"}, 0)
	playRounds(t, s)
	named := s.codes[1]
	named.X1, named.X2 = named.X2, named.X1 // B32: right cards, wrong order
	mustApply(t, s, 2, TapAction())
	mustApply(t, s, 2, DecodeAction(1, named))
	if !s.out[2] || s.revealed[2] != [3]bool{true, true, true} {
		t.Fatalf("after a wrong answer: out %v, revealed %v", s.out, s.revealed[2])
	}
	v := s.view(engine.SeatViewer(0))
	if v.Seats[2].Known != [3]int{s.codes[2].Letter, s.codes[2].X1, s.codes[2].X2} {
		t.Fatalf("Ann sees Kai's code as %v", v.Seats[2].Known)
	}
	if len(v.Seats[1].Wrong) != 1 || v.Seats[1].Wrong[0].Code != named {
		t.Fatalf("Ann sees Bo's wrong guesses as %v", v.Seats[1].Wrong)
	}
	if slices.Contains(newKnowledge(v).cands[1], named) {
		t.Fatalf("%s is still possible for Bo on Ann's sheet", named)
	}
}

// With 3 or 4 players two players may each take a Data card of the same
// kind (two copies lie out); with 2 players there is one.
func TestDataCopiesShared(t *testing.T) {
	s := fixedGame(t, SystemSpeed, []string{"A01", "B23", "C45"}, 0)
	mustApply(t, s, 0, PlayAction(DataEF, s.hackLine[0], 1))
	mustApply(t, s, 1, PlayAction(DataEF, s.hackLine[0], 2))
	if s.dataField[DataEF] != 0 {
		t.Fatalf("%d E–F cards left after two were taken", s.dataField[DataEF])
	}
	mustRefuse(t, s, 2, PlayAction(DataEF, s.hackLine[0], 0), "No E–F Data card is left")
}
