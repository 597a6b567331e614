package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/internal/seen"
)

// ifThenMove is the key a Code Breaker presses on screen now, or "" when
// it has nothing to do. It always plays the highlighted card as it lies,
// draws penalties from the deck and agrees to every proposal: a plain
// player, but one who moves the game on every time.
func ifThenMove(screen string) string {
	if !strings.Contains(seen.Title(screen), "your turn") {
		return ""
	}
	help := helpLine(screen)
	for _, k := range []struct{ help, key string }{
		{"enter play", keyEnter},
		{"enter draw", keyEnter},
		{"enter pass it", keyEnter},
		{"enter reveal", keyEnter},
		{"y agree", "y"},
	} {
		if strings.Contains(help, k.help) {
			return k.key
		}
	}
	return ""
}

var (
	ifThenOwedRe = regexp.MustCompile(`Penalty: draw (\d+)`)
	ifThenDeckRe = regexp.MustCompile(`· deck (\d+) ·`)
	// The Code is shown to everyone once the game is over, won or lost.
	ifThenResultRe = regexp.MustCompile(`the team (wins|loses)|Code: `)
)

// penaltyShortfall is how many cards of a penalty shown on screen the draw
// deck cannot cover, and so must come from the Market.
func penaltyShortfall(screen string) int {
	owed, deck := ifThenOwedRe.FindStringSubmatch(screen), ifThenDeckRe.FindStringSubmatch(screen)
	if owed == nil || deck == nil {
		return 0
	}
	o, _ := strconv.Atoi(owed[1])
	d, _ := strconv.Atoi(deck[1])
	return max(0, o-d)
}

// ifThenDriver plays the Code Breakers' seats of an If Then game.
type ifThenDriver struct {
	t       *testing.T
	players []*term
	guessed bool // the team has put a guess of the Code to the vote
}

// step makes one move and waits until the table has taken it. It returns
// false once the game is over.
func (d *ifThenDriver) step() bool {
	d.t.Helper()
	actor, move := waitForMove(d.players, ifThenMove)
	if actor == nil {
		return false
	}
	s := actor.screen()
	before := seen.Title(s) + "\n" + helpLine(s)
	if !d.guessed && strings.Contains(helpLine(s), "g guess") {
		// Once in the game, when the team may guess, one player types a
		// guess of the Code and puts it to the team's vote.
		d.guessed = true
		actor.send("g")
		actor.waitUntil("the guess builder", func(s string) bool { return strings.Contains(helpLine(s), "tab type it") })
		actor.send("\t")
		actor.waitFor("rule ›")
		// The field starts with the builder's draft: ctrl+u clears it.
		actor.send("\x15", "bg != prev.bg", keyEnter)
		actor.waitUntil("the guess to go to the vote", func(s string) bool {
			return !strings.Contains(helpLine(s), "tab") && seen.Title(s)+"\n"+helpLine(s) != before
		})
		d.t.Logf("%s put a guess to the vote", actor.name)
		return true
	}
	if move == keyEnter && strings.Contains(helpLine(s), "enter draw") {
		// Whatever the deck cannot cover is taken from the Market.
		for i := range penaltyShortfall(s) {
			actor.send(strconv.Itoa(i + 1))
		}
	}
	actor.send(move)
	actor.waitUntil("the move to be taken", func(s string) bool { return seen.Title(s)+"\n"+helpLine(s) != before })
	return true
}

// playToEnd plays until the game is over, within a bounded number of moves.
func (d *ifThenDriver) playToEnd() {
	d.t.Helper()
	for range 400 {
		if !d.step() {
			return
		}
	}
	d.t.Fatal("the game did not end within 400 moves")
}

// TestIfThenTwoCodeBreakersOverSSH: two keys, both Code Breakers, with the
// server as the All Knowing, play a Level 0 game of If Then to a result
// through the real keys.
func TestIfThenTwoCodeBreakersOverSSH(t *testing.T) {
	_, addr := startInstance(t, dataDir(t))
	annKey, bobKey := newKey(t), newKey(t)
	ann := openTerm(t, dial(t, addr, withKey(annKey)), "ann", termW, termH, "")
	register(ann, "ann")
	// Seats 3 → 2, then down past Bots and Bot level to Level: 1 → 0.
	code := createGameTable(ann, menuIfThen, "If Then", keyLeft, keyDown, keyDown, keyDown, keyLeft)
	ann.waitFor("Level: 0", "All Knowing: server")

	bob := openTerm(t, dial(t, addr, withKey(bobKey)), "bob", termW, termH, "join "+code)
	register(bob, "bob")
	bob.waitFor("waiting for players", "ann")
	bob.send("r")
	ann.waitUntil("bob ready", func(s string) bool { return regexp.MustCompile(`bob\s+(✓ )?ready`).MatchString(s) })
	ann.send("s")

	d := &ifThenDriver{t: t, players: []*term{ann, bob}}
	d.playToEnd()
	for _, p := range []*term{ann, bob} {
		end := p.screen()
		if !strings.Contains(seen.Title(end), "finished") || !strings.Contains(end, "The game is over.") ||
			!ifThenResultRe.MatchString(end) {
			t.Fatalf("%s: the game ended without a result shown:\n%s", p.name, end)
		}
	}

	// The transcript reveals the Code and what each Code Breaker still held.
	transcript := lastTranscript(t, dial(t, addr, withKey(annKey)), "If Then")
	for _, row := range []string{`Code\s+\S.*\(.+\)`, `ann\s+\S.*`, `bob\s+\S.*`} {
		if !regexp.MustCompile(`(?m)^  ` + row + `$`).MatchString(transcript) {
			t.Errorf("the transcript lacks a row %q:\n%s", row, transcript)
		}
	}
	// A guess put to the vote was agreed and judged.
	if d.guessed && (!strings.Contains(transcript, "proposes to") || !strings.Contains(transcript, "The team agrees") ||
		!regexp.MustCompile(`guessed the Code exactly|That is not the Code`).MatchString(transcript)) {
		t.Errorf("the team's guess was not voted on and judged:\n%s", transcript)
	}
}
