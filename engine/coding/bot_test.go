package coding

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

func botMove(t *testing.T, s *state, seat engine.Seat, level string) Action {
	t.Helper()
	a, err := (&Bot{Seat: seat, Level: level, Seed: 3}).Act(s.View(engine.SeatViewer(seat)))
	if err != nil || a == nil {
		t.Fatalf("bot %s for seat %d: %s %v", level, seat, a, err)
	}
	var act Action
	if err := json.Unmarshal(a, &act); err != nil {
		t.Fatal(err)
	}
	if _, err := s.clone().Apply(seat, a); err != nil {
		t.Fatalf("bot move %s refused: %v", a, err)
	}
	return act
}

// narrow leaves exactly one possible code for seat by recording a wrong
// public guess for every other code that fits.
func narrow(s *state, seat engine.Seat) {
	s.revealed[seat][PosLetter], s.revealed[seat][PosX1] = true, true
	for x2 := range Digits {
		c := s.codes[seat]
		if x2 != c.X2 && x2 != c.X1 {
			c.X2 = x2
			s.guesses[seat] = append(s.guesses[seat], Guess{By: 0, Code: c})
		}
	}
}

func TestBotsDecodeWhenSure(t *testing.T) {
	for _, level := range []string{LevelStrong, LevelEasy} {
		s := fixedGame(t, SystemCounter, []string{"A01", "B23", "C45"}, 0)
		playRounds(t, s)
		narrow(s, 2)
		a := botMove(t, s, s.toMove, level)
		if a.Decode == nil || a.Decode.Target != 2 || a.Decode.Code != "C45" {
			t.Fatalf("%s bot played %+v", level, a)
		}
	}
}

func TestRaceBotsTapWhenSure(t *testing.T) {
	s := fixedGame(t, SystemSpeed, []string{"A15", "C37", "E92"}, 0) // nobody is pinned down after round 4
	playRounds(t, s)
	if a := botMove(t, s, 0, LevelStrong); !a.Vote {
		t.Fatalf("unsure strong bot played %+v, want a vote", a)
	}
	narrow(s, 2)
	if a := botMove(t, s, 0, LevelStrong); !a.Tap {
		t.Fatalf("sure strong bot played %+v, want a tap", a)
	}
	// The easy bot votes first and taps only on its next chance.
	if a := botMove(t, s, 1, LevelEasy); !a.Vote {
		t.Fatalf("easy bot played %+v, want a vote first", a)
	}
	mustApply(t, s, 1, VoteAction())
	if a := botMove(t, s, 1, LevelEasy); !a.Tap {
		t.Fatalf("easy bot played %+v after voting, want a tap", a)
	}
	mustApply(t, s, 1, TapAction())
	if a := botMove(t, s, 1, LevelEasy); a.Decode == nil || a.Decode.Code != "E92" {
		t.Fatalf("easy bot answered %+v", a)
	}
	// A bot with nothing to do says so.
	if a, err := (&Bot{Seat: 0, Level: LevelStrong}).Act(s.View(engine.SeatViewer(0))); a != nil || err != nil {
		t.Fatalf("idle bot: %s %v", a, err)
	}
}

func TestStrongBotHacksForInformation(t *testing.T) {
	if got := hackInfo(Hack(4), allCodes()); math.Abs(got-1) > 1e-9 {
		t.Fatalf("X1 even over all codes: %v bits, want 1", got)
	}
	s := fixedGame(t, SystemSpeed, []string{"A01", "B23"}, 0)
	// Bo's X1 is known: a Hack card about X1 would tell nothing.
	s.revealed[1][PosX1] = true
	s.hackLine = []int{4, 0}
	a := botMove(t, s, 0, LevelStrong)
	if a.Play == nil || a.Play.Hack != 0 {
		t.Fatalf("strong bot played %+v, want the letter card", a)
	}
}

// The strong bot shows the Data card that tells least: with A01, "not
// 20–39" … "not 80–99" each rule out a fifth of the numbers, while C–D and
// E–F rule out a third of the letters.
func TestStrongBotTakesQuietestData(t *testing.T) {
	s := fixedGame(t, SystemSpeed, []string{"A01", "B23"}, 0)
	a := botMove(t, s, 0, LevelStrong)
	if a.Play == nil || a.Play.Data == nil || *a.Play.Data < Data20to39 {
		t.Fatalf("strong bot played %+v", a)
	}
}
