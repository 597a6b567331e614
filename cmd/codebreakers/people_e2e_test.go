package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/internal/seen"
)

// seekPeople chooses Play people on home, then the first game (Break the
// Code) and the count in row downs (0: any number, 1: 2 players, …).
func seekPeople(tm *term, countRow int) {
	tm.t.Helper()
	tm.waitFor("Play people")
	tm.send("\x1b[H", keyDown, keyEnter) // home, then Play people: second, under Quick play
	tm.waitFor("PLAY PEOPLE", "which game?", "Break the Code")
	tm.send(keyEnter)
	tm.waitFor("how many players?", "Any number")
	for range countRow {
		tm.send(keyDown)
	}
	tm.send(keyEnter)
	tm.waitUntil("seeking or seated", func(s string) bool {
		return strings.Contains(s, "PLAY PEOPLE") && strings.Contains(s, "waiting") || seen.HasTurn(s)
	})
}

// waitSeeking waits until the hub counts n people seeking Break the Code.
func waitSeeking(t *testing.T, in *instance, n int) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for in.hub.Seeking()["breakcode"] != n {
		if time.Now().After(deadline) {
			t.Fatalf("Break the Code seekers = %d, want %d", in.hub.Seeking()["breakcode"], n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var profileRating = regexp.MustCompile(`Break the Code\s+([\d,]+)\??\s`)

// ratingIn reads the Break the Code rating from `profile` output.
func ratingIn(t *testing.T, out string) int {
	t.Helper()
	m := profileRating.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no Break the Code rating in:\n%s", out)
	}
	n, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestPlayPeopleOverSSH is the matchmaking story over real SSH: two keys
// choose Play people for Break the Code at 2 players and are seated at one
// table without a code; they play to the end (ann wins); their ratings move
// in opposite directions and `top breakcode` lists both; a third key finds
// the game under Watch → finished and replays it with every hand shown. A
// seeker who cancels or disconnects is gone from the pool; one who waits
// past the limit is offered bots. A player sitting on home sees the
// seekers come and go without pressing a key.
func TestPlayPeopleOverSSH(t *testing.T) {
	in, addr := startInstance(t, dataDir(t), "--leaderboard-min-games", "1", "--seek-bot-wait", "2s")
	annKey, bobKey, cyKey, deeKey := newKey(t), newKey(t), newKey(t), newKey(t)

	ann := openTerm(t, dial(t, addr, withKey(annKey)), "ann", termW, termH, "")
	register(ann, "ann")
	seekPeople(ann, 1)
	ann.waitFor("2 players", "rated", "Looking for one opponent near 1,500")
	waitSeeking(t, in, 1)

	bob := openTerm(t, dial(t, addr, withKey(bobKey)), "bob", termW, termH, "")
	register(bob, "bob")
	bob.waitFor("Break the Code 1 seeking") // home shows where people wait
	seekPeople(bob, 1)

	annScreen, bobScreen := waitGame(ann), waitGame(bob)
	annHand, bobHand := seen.OwnHand(annScreen), seen.OwnHand(bobScreen)
	if annHand == nil || bobHand == nil || !strings.Contains(annScreen, "bob") || !strings.Contains(bobScreen, "ann") {
		t.Fatalf("not seated together:\n%s\n%s", annScreen, bobScreen)
	}
	waitSeeking(t, in, 0)

	// Bob asks whenever it is his turn; Ann guesses Bob's tiles on hers and
	// wins.
	d := newDriver(t, 0, ann, bob)
	for range 50 {
		p := d.waitTurn()
		if p == nil {
			break
		}
		screen := p.screen()
		before := seen.Title(screen)
		switch {
		case p == bob && !strings.Contains(screen, "to tie"):
			p.send(keyEnter)
		default: // ann guesses right; bob's last chance to tie is a wrong guess
			guess := strings.Join(bobHand, " ")
			if p == bob {
				guess = seen.GuessFor(bobHand)
			}
			p.send("g")
			p.waitFor("Guess your opponent's tiles")
			p.send(guess, keyEnter)
			if s := p.waitUntil("a confirmation or the next turn", func(s string) bool {
				return strings.Contains(s, "Press enter again") || seen.Title(s) != before
			}); seen.Title(s) == before {
				p.send(keyEnter)
			}
		}
		p.waitUntil("the turn to pass", func(s string) bool { return seen.Title(s) != before })
	}
	ann.waitUntil("the end", func(s string) bool { return strings.Contains(seen.Title(s), "finished") })

	c := dial(t, addr, withKey(cyKey))
	annProfile, _, status := execRun(t, c, "profile ann")
	bobProfile, _, status2 := execRun(t, c, "profile bob")
	if status != 0 || status2 != 0 {
		t.Fatalf("profiles:\n%s\n%s", annProfile, bobProfile)
	}
	if a, b := ratingIn(t, annProfile), ratingIn(t, bobProfile); a <= 1500 || b >= 1500 {
		t.Errorf("ratings after ann beat bob: ann %d, bob %d (want ann up, bob down)", a, b)
	}
	top, _, status := execRun(t, c, "top breakcode")
	ai, bi := strings.Index(top, " ann "), strings.Index(top, " bob ")
	if status != 0 || ai < 0 || bi < 0 || ai > bi {
		t.Errorf("top breakcode must list ann then bob:\n%s", top)
	}

	// A third key finds the game under Watch → finished and replays it.
	cy := openTerm(t, c, "cy", termW, termH, "")
	register(cy, "cy")
	cy.waitFor("Watch")
	cy.send(keyDown, keyDown, keyDown, keyDown, keyDown, keyEnter) // Watch
	cy.waitFor("WATCH")
	cy.send("\t")
	s := cy.waitFor("WATCH · finished", "ann, bob")
	if !strings.Contains(s, "★ 1,500") {
		t.Errorf("the finished game is not listed as rated:\n%s", s)
	}
	cy.send(keyEnter)
	cy.waitFor("REPLAY")
	cy.send("\x1b[F") // end: the last step
	cy.waitUntil("every hand shown", func(s string) bool {
		return strings.Contains(s, handRow(annHand)) && strings.Contains(s, handRow(bobHand))
	})

	// A seeker who cancels, or whose connection drops, leaves the pool at
	// once; one who waits past the limit is offered bots.
	deeClient := dial(t, addr, withKey(deeKey))
	dee := openTerm(t, deeClient, "dee", termW, termH, "")
	register(dee, "dee")
	eve := dial(t, addr, withKey(newKey(t)))
	et := openTerm(t, eve, "eve", termW, termH, "")
	register(et, "eve")
	et.waitFor("nobody seeking yet")
	seekPeople(dee, 2) // 3 players: nobody else is seeking that
	waitSeeking(t, in, 1)
	et.waitFor("Break the Code 1 seeking") // eve's home follows the pool, no key pressed
	dee.send(keyEsc)
	waitSeeking(t, in, 0)
	et.waitFor("nobody seeking yet")
	seekPeople(dee, 2)
	waitSeeking(t, in, 1)
	dee.waitFor("press b to fill the seats with bots")
	dee.send("b")
	waitGame(dee)
	waitSeeking(t, in, 0)

	seekPeople(et, 2)
	waitSeeking(t, in, 1)
	_ = eve.Close()
	waitSeeking(t, in, 0)
}
