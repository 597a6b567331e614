package main

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/internal/seen"
)

// Terminal size for players in these tests.
const termW, termH = 100, 30

var tilesRe = regexp.MustCompile(`^\s+(\S+)\s+((?:\d[bwg] ?){4,5})$`)

// waitGame waits until the board is up (the bot may already have moved, so
// the turn number is not known) and returns the screen.
func waitGame(tm *term) string {
	tm.t.Helper()
	return tm.waitUntil("the game to start", func(s string) bool {
		return seen.HasTurn(s) && seen.OwnHand(s) != nil
	})
}

// register types a handle on the welcome screen.
func register(tm *term, handle string) {
	tm.t.Helper()
	tm.waitFor("Choose a handle")
	tm.send(handle, keyEnter)
}

// createTable has the host make a private table of three seats with one bot
// and returns its code.
func createTable(host *term) string {
	host.t.Helper()
	openHomeItem(host, "Create a table")
	host.waitFor("CREATE A TABLE", "which game?", "Break the Code")
	host.send(keyEnter) // Break the Code is first in the menu
	host.waitFor("CREATE A TABLE", "Bots")
	host.send(keyDown, keyRight) // Bots: 0 → 1
	host.waitUntil("one bot chosen", func(s string) bool {
		return regexp.MustCompile(`Bots\s+‹ 1 ›`).MatchString(s)
	})
	host.send(keyDown, keyDown, keyDown, keyDown, keyEnter)
	s := host.waitUntil("a join code", seen.HasJoinCode)
	code, _ := seen.JoinCode(s)
	return code
}

// framedRow is how a hand looks drawn as framed tiles (the viewer's own
// and the centre, when there is room): "│ 3b │ │ 3w │ │ 5g │ │ 7b │ │ 7w │".
func framedRow(tiles []string) string {
	parts := make([]string, len(tiles))
	for i, t := range tiles {
		parts[i] = "│ " + t + " │"
	}
	return strings.Join(parts, " ")
}

// handRow is how a hand looks in a board row: "a 3b  b 3w  c 5g  d 7b  e 7w".
func handRow(tiles []string) string {
	parts := make([]string, len(tiles))
	for i, t := range tiles {
		parts[i] = fmt.Sprintf("%c %s", 'a'+i, t)
	}
	return strings.Join(parts, "  ")
}

// driver plays the humans' turns: each asks questions until it has asked
// asksBeforeGuess times, then guesses (and is out unless lucky). The bot
// plays its own seat on the server.
type driver struct {
	t               *testing.T
	players         []*term
	asks            map[*term]int
	asksBeforeGuess int
}

func newDriver(t *testing.T, asksBeforeGuess int, players ...*term) *driver {
	return &driver{t: t, players: players, asks: map[*term]int{}, asksBeforeGuess: asksBeforeGuess}
}

// waitTurn waits until some player may act (returned) or every player's
// game is over (nil).
func (d *driver) waitTurn() *term {
	d.t.Helper()
	actor, _ := waitForMove(d.players, func(s string) string {
		if strings.Contains(seen.Title(s), "your turn") {
			return "turn"
		}
		return ""
	})
	return actor
}

// step plays one human turn and waits until the table has taken it. It
// returns false once the game is over.
func (d *driver) step() bool {
	d.t.Helper()
	p := d.waitTurn()
	if p == nil {
		return false
	}
	before := seen.Title(p.screen())
	if d.asks[p] < d.asksBeforeGuess {
		d.asks[p]++
		p.send(keyEnter)
	} else {
		p.send("g")
		p.waitFor("Guess the centre")
		p.send(seen.GuessFor(seen.OwnHand(p.screen())), keyEnter)
		p.waitFor("Press enter again")
		p.send(keyEnter)
	}
	p.waitUntil("the turn to pass", func(s string) bool { return seen.Title(s) != before })
	return true
}

// playToEnd plays until the game is over, within a bounded number of turns.
func (d *driver) playToEnd() {
	d.t.Helper()
	for range 200 {
		if !d.step() {
			return
		}
	}
	d.t.Fatal("the game did not end within 200 human turns")
}

// execRun runs a command without a PTY and returns stdout, stderr and the
// exit status.
func execRun(t *testing.T, c *gossh.Client, cmd string) (string, string, int) {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var stdout, stderr bytes.Buffer
	sess.Stdout, sess.Stderr = &stdout, &stderr
	err = sess.Run(cmd)
	var exit *gossh.ExitError
	switch {
	case errors.As(err, &exit):
		return stdout.String(), stderr.String(), exit.ExitStatus()
	case err != nil:
		t.Fatalf("run %q: %v", cmd, err)
	}
	return stdout.String(), stderr.String(), 0
}

// TestTwoPlayersBotAndSpectatorOverSSH is the whole story over real SSH:
// two keys register handles, one creates a private table, the other joins
// by its code, a bot takes the third seat, a spectator watches live, they
// play to the end, and the game is in both players' history and replays.
func TestTwoPlayersBotAndSpectatorOverSSH(t *testing.T) {
	_, addr := startInstance(t, dataDir(t))
	annKey, bobKey, cyKey := newKey(t), newKey(t), newKey(t)

	ann := openTerm(t, dial(t, addr, withKey(annKey)), "ann", termW, termH, "")
	register(ann, "ann")
	code := createTable(ann)
	// The way to join is said with this server's real port and host.
	_, port, _ := net.SplitHostPort(addr)
	ann.waitFor("or connect with: ssh -t -p " + port + " 127.0.0.1 join")

	bob := openTerm(t, dial(t, addr, withKey(bobKey)), "bob", termW, termH, "join "+code)
	register(bob, "bob")
	bob.waitFor("waiting for players", "bob", "ann")
	bob.send("r")
	ann.waitUntil("bob ready", func(s string) bool { return regexp.MustCompile(`bob\s+(✓ )?ready`).MatchString(s) })

	cy := openTermRec(t, dial(t, addr, withKey(cyKey)), "cy", termW, termH, "watch "+code, true)
	register(cy, "cy")
	cy.waitFor("You are watching")

	ann.send("s")
	annScreen := waitGame(ann)
	bobScreen := waitGame(bob)
	annHand, bobHand := seen.OwnHand(annScreen), seen.OwnHand(bobScreen)
	if annHand == nil || bobHand == nil {
		t.Fatalf("hands not shown:\n%s\n%s", annScreen, bobScreen)
	}
	if strings.Contains(annScreen, handRow(bobHand)) || strings.Contains(bobScreen, handRow(annHand)) {
		t.Fatal("a player sees another player's hand")
	}

	// Bob signs in again with the same key: the new session takes over his
	// seat and the old one is told why it lost it.
	bob2 := openTerm(t, dial(t, addr, withKey(bobKey)), "bob2", termW, termH, "")
	if got := seen.OwnHand(waitGame(bob2)); strings.Join(got, " ") != strings.Join(bobHand, " ") {
		t.Errorf("bob's second session shows hand %v, want %v", got, bobHand)
	}
	bob.waitFor("signed in elsewhere")

	newDriver(t, 2, ann, bob2).playToEnd()
	cy.waitUntil("the spectator to see the end", func(s string) bool { return strings.Contains(seen.Title(s), "finished") })

	// The finished game is in history, without a terminal.
	c := dial(t, addr, withKey(annKey))
	out, _, status := execRun(t, c, "history")
	if status != 0 || !strings.Contains(out, "Break the Code") || !strings.Contains(out, "ann, bob, bot-") {
		t.Fatalf("history (exit %d):\n%s", status, out)
	}
	id := regexp.MustCompile(`(?m)^([0-9A-Z]{5,14})\s+Break the Code`).FindStringSubmatch(out)
	if id == nil {
		t.Fatalf("no game id in history:\n%s", out)
	}
	stats, _, status := execRun(t, c, "stats")
	if status != 0 || !strings.Contains(stats, "played 1") || !strings.Contains(stats, "Break the Code") {
		t.Errorf("stats (exit %d):\n%s", status, stats)
	}
	bobOut, _, _ := execRun(t, dial(t, addr, withKey(bobKey)), "history")
	if !strings.Contains(bobOut, id[1]) {
		t.Errorf("bob's history lacks game %s:\n%s", id[1], bobOut)
	}

	// The text replay shows every hand.
	transcript, _, status := execRun(t, c, "replay "+id[1])
	if status != 0 || !strings.Contains(transcript, "Result:") {
		t.Fatalf("replay (exit %d):\n%s", status, transcript)
	}
	hands := map[string][]string{}
	for _, line := range strings.Split(transcript, "\n") {
		if m := tilesRe.FindStringSubmatch(line); m != nil {
			hands[m[1]] = strings.Fields(m[2])
		}
	}
	if strings.Join(hands["ann"], " ") != strings.Join(annHand, " ") || strings.Join(hands["bob"], " ") != strings.Join(bobHand, " ") {
		t.Errorf("transcript hands %v, want ann %v and bob %v", hands, annHand, bobHand)
	}

	// The spectator never saw a hidden tile while the game was live.
	var secrets []string
	for who, h := range hands {
		if who == "Centre" || len(h) == 5 {
			secrets = append(secrets, handRow(h), framedRow(h))
		}
	}
	secrets = append(secrets, "the centre is")
	live := 0
	for _, s := range cy.recorded() {
		if strings.Contains(seen.Title(s), "finished") {
			continue
		}
		live++
		for _, secret := range secrets {
			if strings.Contains(s, secret) {
				t.Fatalf("spectator saw %q while the game was live:\n%s", secret, s)
			}
		}
	}
	t.Logf("checked %d live spectator screens against %d secrets", live, len(secrets))
	if live == 0 {
		t.Error("no live spectator screens were recorded")
	}

	// And the replay opens in a terminal.
	rp := openTerm(t, c, "replay", termW, termH, "replay "+id[1])
	rp.waitFor("REPLAY")
}

// TestLeaveQuestionSaysWhatHappensOverSSH: the question esc asks in a game
// says what the lobby will really do if the player stays away: with another
// person playing, a bot plays the seat once it has been held for the grace
// time; as the last person among bots, the game is abandoned and not
// recorded. A player whose seat a bot took is still its holder: signing in
// again puts him back in it, the bot out, and home, when a bot takes it
// while he is there, says so and takes him back.
func TestLeaveQuestionSaysWhatHappensOverSSH(t *testing.T) {
	_, addr := startInstance(t, dataDir(t), "--grace", "2s")
	annKey, bobKey := newKey(t), newKey(t)
	ann := openTerm(t, dial(t, addr, withKey(annKey)), "ann", termW, termH, "")
	register(ann, "ann")
	code := createTable(ann)
	bob := openTerm(t, dial(t, addr, withKey(bobKey)), "bob", termW, termH, "join "+code)
	register(bob, "bob")
	bob.waitFor("waiting for players", "bob", "ann")
	bob.send("r")
	ann.waitUntil("bob ready", func(s string) bool { return regexp.MustCompile(`bob\s+(✓ )?ready`).MatchString(s) })
	ann.send("s")
	waitGame(ann)
	bobHand := seen.OwnHand(waitGame(bob))

	asked := func(tm *term, what string, says ...string) {
		t.Helper()
		tm.waitUntil(what, func(s string) bool {
			flat := strings.Join(strings.Fields(s), " ")
			for _, w := range says {
				if !strings.Contains(flat, w) {
					return false
				}
			}
			return true
		})
	}
	ann.send(keyEsc)
	asked(ann, "the leave question with bob playing", "Leave this game?", "held for 2 seconds", "a bot plays it. y/n")
	ann.send("n")

	bob.send("q")
	asked(bob, "the quit question", "Leave the game and quit?", "held for 2 seconds", "a bot plays it")
	bob.send("y")
	asked(ann, "a bot in bob's seat", "bob left; a bot took the seat.")
	ann.send(keyEsc)
	asked(ann, "the leave question as the last person", "You are the last person playing",
		"within 2 seconds", "abandoned and not recorded. y/n")
	ann.send("n")

	bob2 := openTerm(t, dial(t, addr, withKey(bobKey)), "bob2", termW, termH, "")
	if got := seen.OwnHand(waitGame(bob2)); strings.Join(got, " ") != strings.Join(bobHand, " ") {
		t.Fatalf("bob signing in again after a bot took his seat sees hand %v, want his own %v:\n%s", got, bobHand, bob2.screen())
	}
	ann.send(keyEsc)
	asked(ann, "the leave question with bob back", "Leave this game?", "a bot plays it. y/n")
	ann.send("n")

	// Bob leaves for home; when his grace runs out a bot takes the seat,
	// and home, told by the lobby, says so while still offering it back.
	bob2.send(keyEsc)
	asked(bob2, "bob's leave question", "Leave this game?", "y/n")
	bob2.send("y")
	asked(bob2, "home saying a bot plays bob's seat", "Back to your game", "a bot plays your seat till you are back")
	bob2.send(keyEnter)
	if got := seen.OwnHand(waitGame(bob2)); strings.Join(got, " ") != strings.Join(bobHand, " ") {
		t.Fatalf("bob going back from home sees hand %v, want his own %v:\n%s", got, bobHand, bob2.screen())
	}
}
