package seen

import (
	"slices"
	"strings"
	"testing"
)

const board = ` BREAK THE CODE · table KQ7-M4X · turn 12 · your turn      mara
────────────────
▸ You (mara)  a 0b  b 3b  c 8b  d 8w  e 9w
  bot-Bo      [1182 possible]
  Break the Code · private table · code KQ7-M4X`

func TestReadsWhatThePlayerSees(t *testing.T) {
	if got := Title(board); !strings.HasPrefix(got, " BREAK THE CODE") || strings.Contains(got, "\n") {
		t.Errorf("Title = %q", got)
	}
	if n, ok := Turn(board); !ok || n != 12 {
		t.Errorf("Turn = %d, %v; want 12", n, ok)
	}
	if HasTurn("welcome\nturn 3 is not in the title") {
		t.Error("a turn below the title counted")
	}
	if code, ok := JoinCode(board); !ok || code != "KQ7-M4X" {
		t.Errorf("JoinCode = %q, %v", code, ok)
	}
	if got := OwnHand(board); !slices.Equal(got, []string{"0b", "3b", "8b", "8w", "9w"}) {
		t.Errorf("OwnHand = %v", got)
	}
	framed := "▸ You (mara)  ╭a───╮ ╭b───╮ ╭c───╮ ╭d───╮ ╭e───╮\n" +
		"              │ 0b │ │ 3b │ │ 8b │ │ 8w │ │ 9w │  [12 possible]\n" +
		"              ╰────╯ ╰────╯ ╰────╯ ╰────╯ ╰────╯\n" +
		"  Centre      ╭a───╮ ╭b───╮ ╭c───╮ ╭d───╮ ╭e───╮\n" +
		"              │ ?? │ │ ?? │ │ ?? │ │ ?? │ │ ?? │\n"
	if got := OwnHand(framed); !slices.Equal(got, []string{"0b", "3b", "8b", "8w", "9w"}) {
		t.Errorf("OwnHand of framed tiles = %v", got)
	}
	if OwnHand("no board here") != nil {
		t.Error("OwnHand found a hand on a screen without one")
	}
}

func TestGuessForAvoidsTheOwnHand(t *testing.T) {
	hand := []string{"0b", "0w", "1b", "5g", "9w"}
	got := strings.Fields(GuessFor(hand))
	if len(got) != 5 {
		t.Fatalf("GuessFor = %v, want five tiles", got)
	}
	if want := []string{"1w", "2b", "2w", "3b", "3w"}; !slices.Equal(got, want) {
		t.Errorf("GuessFor = %v, want %v", got, want)
	}
}

// TestKeyBarReadsEveryLineOfAWrappedBar: a key bar that wraps keeps its
// first keys on the line under the rule, so reading only the last line
// misses them (an If Then player on turn with a guess to offer had "enter
// play" on the first of two lines, and the test driver waited forever).
func TestKeyBarReadsEveryLineOfAWrappedBar(t *testing.T) {
	screen := " IF THEN · turn 9 · your turn\n" +
		"────────────\n" +
		"  Hand: 4 cards ─ Event: Silence\n" +
		"────────────\n" +
		" ↑/↓ card · ←/→ turn · enter play · u free hint\n" +
		" g guess the Code · c chat · ? help\n"
	bar := KeyBar(screen)
	for _, k := range []string{"enter play", "g guess", "? help"} {
		if !strings.Contains(bar, k) {
			t.Errorf("KeyBar = %q, lacks %q", bar, k)
		}
	}
	if strings.Contains(bar, "Hand") || strings.Contains(bar, "─") {
		t.Errorf("KeyBar = %q, reads above the rule", bar)
	}
	if got := KeyBar("no rule here\n y agree · n decline"); got != "y agree · n decline" {
		t.Errorf("without a rule, KeyBar = %q, want the last line", got)
	}
}
