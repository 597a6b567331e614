package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/internal/seen"
)

var (
	// codingSheetRe is one crack sheet line: the values per position, or
	// the codes themselves once few are left.
	codingSheetRe = regexp.MustCompile(`may be L (\S+) · X1 (\S+) · X2 (\S+)|(?:could|must) be ([A-F][0-9][0-9])\b`)
	codingLeftRe  = regexp.MustCompile(`\b1 code left\b`)
	codingWhoseRe = regexp.MustCompile(`whose:.*\[(\S+)\]`)
	codingSureRe  = regexp.MustCompile(`(?m)^\s*(?:▸ )?(\S+)\s+\[.*\b1 code left\b`)
	// codingExtraRe is the race's line of extra cards turned face up.
	codingExtraRe = regexp.MustCompile(`Extra cards .*`)
)

// helpLine is the screen's key bar, every line of it as one.
func helpLine(screen string) string { return seen.KeyBar(screen) }

// codingGuess builds a code the crack sheet on screen still allows: the
// first code it names when few are left, else the first value possible at
// each position, with X2 unlike X1.
func codingGuess(screen string) string {
	m := codingSheetRe.FindStringSubmatch(screen)
	switch {
	case m == nil:
		return "A01"
	case m[4] != "":
		return m[4]
	}
	x1 := m[2][:1]
	x2 := strings.TrimLeft(m[3], x1)
	if x2 == "" || x2 == "–" {
		x2 = "0"
		if x1 == "0" {
			x2 = "1"
		}
	}
	return m[1][:1] + x1 + x2[:1]
}

// assertWinner checks that a finished board names a winner.
func assertWinner(t *testing.T, screen string) {
	t.Helper()
	if !strings.Contains(seen.Title(screen), "finished") || !strings.Contains(screen, "Game over") ||
		!strings.Contains(screen, "★ won") || !strings.Contains(screen, "wins") {
		t.Fatalf("the game ended without a winner shown:\n%s", screen)
	}
}

// codingDriver plays the human seats of a game of The Coding through the
// board's keys. It never taps in the race: it votes for more data while it
// may and leaves the tapping to the bots. In Counter Cracking it decodes
// when the crack sheet leaves one code, hacks while it can, and otherwise
// names a code the sheet still allows.
type codingDriver struct {
	t       *testing.T
	players []*term
	taps    int // claims a human won in the race
	// framed counts the hacking turns drawn with framed cards: the chosen
	// Hack card in a heavy frame and the arrows along the rows.
	framed int
}

// codingMove is the key the player should press on screen now, or "" when
// it has nothing useful to do.
func codingMove(screen string) string {
	if !strings.Contains(seen.Title(screen), "your turn") {
		return ""
	}
	help := helpLine(screen)
	switch {
	case strings.Contains(help, "enter set code"), strings.Contains(help, "enter show it"):
		return keyEnter
	case strings.Contains(help, "enter send") && strings.Contains(screen, "Name a code"):
		return keyEnter // the answer readied before tapping goes now
	case strings.Contains(help, "t tap") && codingLeftRe.MatchString(screen):
		return "t"
	case strings.Contains(help, "v vote for data"):
		return "v"
	case strings.Contains(help, "g decode"):
		return "g"
	case strings.Contains(help, "enter hack"):
		return keyEnter
	}
	return ""
}

// waitMove waits until some player has a move (returned with its key) or
// every player's game is over (nil).
func (d *codingDriver) waitMove() (*term, string) {
	d.t.Helper()
	return waitForMove(d.players, codingMove)
}

// step makes one move and waits until the table has taken it. It returns
// false once the game is over.
func (d *codingDriver) step() bool {
	d.t.Helper()
	p, move := d.waitMove()
	if p == nil {
		return false
	}
	screen := p.screen()
	before, _ := seen.Turn(screen)
	// The turn number counts hacks and decodes only: a step inside a turn
	// (setting the code, showing a card, a vote, the race's answer) is
	// taken when its key leaves the key bar.
	step := ""
	for _, k := range []string{"enter set code", "enter show it", "v vote for data", "enter send"} {
		if strings.Contains(helpLine(screen), k) {
			step = k
			break
		}
	}
	if help := helpLine(screen); strings.Contains(help, "enter hack") && strings.Contains(screen, "┗━━━━━┛") &&
		(strings.Contains(help, "←/→ choose") || !strings.Contains(help, "↑/↓")) {
		d.framed++
	}
	if move == "t" {
		d.tapAndAnswer(p, screen)
		return true
	}
	if move == "g" {
		sure := codingLeftRe.MatchString(screen)
		canHack := strings.Contains(helpLine(screen), "enter hack")
		switch {
		case sure:
			p.send("g")
			p.waitFor("Decode a code")
			p.send(keyEnter) // the entry is filled in with the one code left
		case canHack:
			p.send(keyEnter)
		default:
			p.send("g")
			p.waitFor("Decode a code")
			p.send(codingGuess(screen), keyEnter)
		}
	} else {
		p.send(move)
	}
	// A vote that completes the round turns more extra cards up and opens
	// the next vote at once, so the key can stay on the bar: the extra
	// cards changing shows that vote was taken too.
	extra := codingExtraRe.FindString(screen)
	p.waitUntil("the move to be taken", func(s string) bool {
		now, _ := seen.Turn(s)
		return strings.Contains(seen.Title(s), "finished") || now != before ||
			step != "" && !strings.Contains(helpLine(s), step) ||
			step == "v vote for data" && codingExtraRe.FindString(s) != extra
	})
	return true
}

// tapAndAnswer is the race when the crack sheet has pinned down an
// opponent's code: ready the answer, tap (enter), and once the claim is
// ours the driver sends the answer (enter again) on its next step. The
// bots keep playing meanwhile; if one taps first, or the game ends, the
// readied answer is simply dropped.
func (d *codingDriver) tapAndAnswer(p *term, screen string) {
	d.t.Helper()
	m := codingSureRe.FindStringSubmatch(screen)
	if m == nil {
		d.t.Fatalf("%s: no opponent with one code left:\n%s", p.name, screen)
	}
	target := m[1]
	readying := func(s string) bool { return strings.Contains(s, "Ready an answer") }
	over := func(s string) bool { return !strings.Contains(seen.Title(s), "your turn") }
	p.send("g")
	s := p.waitUntil("the answer entry", func(s string) bool { return readying(s) || over(s) })
	chosen := func(s string) string {
		if m := codingWhoseRe.FindStringSubmatch(s); m != nil {
			return m[1]
		}
		return ""
	}
	for range 3 {
		if !readying(s) || chosen(s) == target {
			break
		}
		// Wait for the choice itself to move: the bots change the screen too.
		prev := chosen(s)
		p.send(keyDown)
		s = p.waitUntil("the next target", func(s string) bool { return !readying(s) || chosen(s) != prev })
	}
	if !readying(s) {
		return // the race moved on without us
	}
	if chosen(s) != target {
		d.t.Fatalf("%s: cannot choose %s in the answer:\n%s", p.name, target, s)
	}
	sheets := codingSheetRe.FindAllString(s, -1)
	answer := codingGuess(sheets[len(sheets)-1]) // the entry's sheet is the target's
	p.send(strings.Repeat("\x7f", 8), answer, keyEnter)
	s = p.waitUntil("the tap to be taken", func(s string) bool {
		return strings.Contains(s, "Name a code") || !readying(s) || over(s)
	})
	if strings.Contains(s, "Name a code") {
		d.taps++
		d.t.Logf("%s tapped and names %s's code %s", p.name, target, answer)
	}
}

// playToEnd plays until the game is over, within a bounded number of moves.
func (d *codingDriver) playToEnd() {
	d.t.Helper()
	for range 300 {
		if !d.step() {
			return
		}
	}
	d.t.Fatal("the game did not end within 300 human moves")
}

// TestCodingSpeedCrackingWithBotsOverSSH: one key and two bots play a
// Speed Cracking game of The Coding to a result through the real keys.
func TestCodingSpeedCrackingWithBotsOverSSH(t *testing.T) {
	_, addr := startInstance(t, dataDir(t))
	annKey := newKey(t)
	ann := openTerm(t, dial(t, addr, withKey(annKey)), "ann", termW, termH, "")
	register(ann, "ann")
	createGameTable(ann, menuCoding, "The Coding", keyDown, keyRight, keyRight) // Bots: 0 → 2
	ann.waitFor("bot · strong", "System: speed")
	ann.send("s")
	ann.waitUntil("the game to start", seen.HasTurn)

	d := &codingDriver{t: t, players: []*term{ann}}
	d.playToEnd()
	end := ann.screen()
	assertWinner(t, end)
	// A claim is only made when the crack sheet leaves one code: it must win.
	if d.taps > 0 && !regexp.MustCompile(`(?m)^\s+ann\s+\[.*★ won`).MatchString(end) {
		t.Errorf("ann named a code the sheet was sure of, but did not win:\n%s", end)
	}
	checkCodingReveal(t, end, lastTranscript(t, dial(t, addr, withKey(annKey)), "The Coding"), "ann", "bot-")
}

// checkCodingReveal checks that the transcript reveals every code just as
// the finished board showed it.
func checkCodingReveal(t *testing.T, screen, transcript string, names ...string) {
	t.Helper()
	for _, name := range names {
		shown := regexp.MustCompile(`(?m)^\s+(`+regexp.QuoteMeta(name)+`\S*)\s+\[(\S) (\S) (\S)\]`).FindAllStringSubmatch(screen, -1)
		if len(shown) == 0 {
			t.Fatalf("the finished board shows no code for %s:\n%s", name, screen)
		}
		for _, m := range shown {
			row := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(m[1]) + `\s+` + m[2] + m[3] + m[4] + `\b`)
			if !row.MatchString(transcript) {
				t.Errorf("the transcript does not reveal %s's code %s%s%s:\n%s", m[1], m[2], m[3], m[4], transcript)
			}
		}
	}
}

// TestCodingCounterCrackingTwoKeysOverSSH: two keys play a Counter
// Cracking game of The Coding to a result through the real keys.
func TestCodingCounterCrackingTwoKeysOverSSH(t *testing.T) {
	_, addr := startInstance(t, dataDir(t))
	annKey, bobKey := newKey(t), newKey(t)
	ann := openTerm(t, dial(t, addr, withKey(annKey)), "ann", termW, termH, "")
	register(ann, "ann")
	// Seats 3 → 2, then down past Bots and Bot level to System: speed → counter.
	code := createGameTable(ann, menuCoding, "The Coding", keyLeft, keyDown, keyDown, keyDown, keyRight)
	ann.waitFor("System: counter")

	bob := openTerm(t, dial(t, addr, withKey(bobKey)), "bob", termW, termH, "join "+code)
	register(bob, "bob")
	bob.waitFor("waiting for players", "ann")
	bob.send("r")
	ann.waitUntil("bob ready", func(s string) bool { return regexp.MustCompile(`bob\s+(✓ )?ready`).MatchString(s) })
	ann.send("s")

	d := &codingDriver{t: t, players: []*term{ann, bob}}
	d.playToEnd()
	// Two players at 100×30 have room for framed Data and Hack cards.
	if d.framed == 0 {
		t.Errorf("no hacking turn was drawn with framed cards and the arrows along their rows")
	}
	end := ann.screen()
	assertWinner(t, end)
	assertWinner(t, bob.screen())
	checkCodingReveal(t, end, lastTranscript(t, dial(t, addr, withKey(bobKey)), "The Coding"), "ann", "bob")
}
