package coding

import (
	"encoding/json"
	"math"
	"slices"
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
	// The easy bot taps as soon as it is sure too: waiting would hand the
	// race to whoever taps first.
	if a := botMove(t, s, 1, LevelEasy); !a.Tap {
		t.Fatalf("sure easy bot played %+v, want a tap", a)
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

// codingBlunder says how a bot's move throws the game in a way the crack
// sheet makes plain, or "": not tapping in the race, or hacking in Counter
// Cracking, while one opponent has a single possible code; naming a code
// the public facts rule out; naming an unsure code while sure of another.
func codingBlunder(v View, action []byte) string {
	var a Action
	if err := json.Unmarshal(action, &a); err != nil {
		return "unreadable move"
	}
	k := newKnowledge(v)
	me := int(v.Viewer.Seat)
	sure := false
	for i, sv := range v.Seats {
		if i != me && !sv.Out && len(k.cands[i]) == 1 {
			sure = true
		}
	}
	if a.Decode != nil {
		c, err := ParseCode(a.Decode.Code)
		t := int(a.Decode.Target)
		switch {
		case err != nil || t < 0 || t >= len(k.cands):
			return "named no code"
		case !slices.Contains(k.cands[t], c):
			return "named a code the public facts rule out"
		case sure && len(k.cands[t]) > 1:
			return "named an unsure code while sure of another"
		}
		return ""
	}
	switch {
	case v.Phase == Race && sure && !a.Tap:
		return "did not tap with a code it knows"
	case v.Phase == Counter && sure && (a.Play != nil || a.Stop):
		return "hacked or stopped with a code it knows"
	}
	return ""
}

// Bots of both levels, in both systems and every size, never throw the
// game in a way the crack sheet makes plain.
func TestBotsDoNotThrowTheGame(t *testing.T) {
	games := 10
	if testing.Short() || raceEnabled {
		games = 2
	}
	for _, level := range []string{LevelStrong, LevelEasy} {
		for n := 2; n <= 4; n++ {
			for _, system := range []string{SystemSpeed, SystemCounter} {
				for g := range games {
					seed := uint64(51_000 + 100*n + g)
					st, _, err := engine.Start(Game{}, engine.Options{"system": system}, make([]engine.Player, n), seed)
					if err != nil {
						t.Fatal(err)
					}
					bots := make([]engine.Bot, n)
					for i := range bots {
						bots[i], _ = Game{}.NewBot(engine.Seat(i), level, seed+uint64(i))
					}
					for step := 0; !st.Status().Finished; step++ {
						if step > 500 {
							t.Fatalf("%s bots, seed %d: the game did not end", level, seed)
						}
						moved := false
						for _, seat := range st.Status().Active {
							v := st.View(engine.SeatViewer(seat)).(View)
							a, err := bots[seat].Act(v)
							if err != nil {
								t.Fatal(err)
							}
							if a == nil {
								continue
							}
							if b := codingBlunder(v, a); b != "" {
								t.Errorf("%s bot, %d players, %s, seed %d, turn %d: %s (%s)", level, n, system, seed, v.Turn, b, a)
							}
							if _, err := st.Apply(seat, a); err != nil {
								t.Fatalf("%s bot move %s refused: %v", level, a, err)
							}
							moved = true
							break
						}
						if !moved {
							tm := st.Timer()
							if tm == nil {
								t.Fatalf("%s bots, seed %d: stuck", level, seed)
							}
							if _, err := st.Apply(engine.System, tm.Action); err != nil {
								t.Fatal(err)
							}
						}
					}
				}
			}
		}
	}
}
