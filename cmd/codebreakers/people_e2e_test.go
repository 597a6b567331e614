package main

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/internal/seen"
	"github.com/codebreakers/codebreakers/cmd/codebreakers/loadtest"
	"github.com/codebreakers/codebreakers/lobby"
)

// seekPeople chooses Play people on home, then the first game (Break the
// Code) and the count in row downs (0: any number, 1: 2 players, …).
func seekPeople(tm *term, countRow int) {
	tm.t.Helper()
	if s := trySeek(tm, countRow); strings.Contains(s, seekRefused) {
		tm.t.Fatalf("%s: seeking refused:\n%s", tm.name, s)
	}
}

// seekRefused is what the count menu says when seeking comes too often.
const seekRefused = "You started seeking too often; wait a minute and try again."

// trySeek is seekPeople, returning the screen once the player is seeking,
// seated, or told that seeking comes too often.
func trySeek(tm *term, countRow int) string {
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
	return tm.waitUntil("seeking, seated or refused", func(s string) bool {
		return strings.Contains(s, "PLAY PEOPLE") && strings.Contains(s, "waiting") || seen.HasTurn(s) ||
			strings.Contains(s, seekRefused)
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
	// Every player comes from loopback: rated pairs from one address must
	// be allowed (TestRatedPairsFromOneAddressOverSSH).
	in, addr := startInstance(t, dataDir(t), "--leaderboard-min-games", "1", "--seek-bot-wait", "2s", "--rated-same-address")
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

// honestSeeker waits, from another address, in the pool of Break the Code
// at four players while the flood goes on beside it.
func honestSeeker(t *testing.T, in *instance) *lobby.Seeker {
	t.Helper()
	s, err := in.hub.Seek(lobby.Identity{Account: "SHA256:honest", Handle: "honest", Addr: "198.51.100.7"},
		lobby.SeekSpec{Game: "breakcode", Players: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Cancel)
	return s
}

// floodSeeks has open() give a session on home, which seeks Break the Code
// at four players and cancels (esc), until a seek is refused; it returns
// how many seeks went through, and checks that the pool holds the honest
// seeker and the flooder's one seek at most, at every step.
func floodSeeks(t *testing.T, in *instance, open func(i int) *term) int {
	t.Helper()
	for i := range 20 {
		tm := open(i)
		s := trySeek(tm, 3)
		if strings.Contains(s, seekRefused) {
			if n := in.hub.Seeking()["breakcode"]; n != 1 {
				t.Errorf("after a refused seek %d people seek Break the Code, want the honest one", n)
			}
			tm.send(keyEsc) // the menu still works: back home
			tm.waitFor("Quick play", "Play people")
			return i
		}
		waitSeeking(t, in, 2)
		tm.send(keyEsc)
		waitSeeking(t, in, 1)
	}
	t.Fatal("20 seeks in a row were never refused")
	return 0
}

// The attack: joining and leaving a pool as fast as keys allow pokes every
// seeker of the game and every home screen each time. Whether it comes
// from one key's session or from new guests on one connection, it is cut
// off at the limit (4 a minute here, so that even a slow run stays well
// inside the minute) with a clear message, a new connection from the same
// address is no fresh start, and the pool keeps only the seekers who are
// really there: the honest one waits on, untouched.
func TestSeekFloodIsLimitedOverSSH(t *testing.T) {
	const limit = 4
	flags := []string{"--seeks-per-minute", strconv.Itoa(limit)}
	t.Run("key", func(t *testing.T) {
		in, addr := startInstance(t, dataDir(t), flags...)
		honest := honestSeeker(t, in)
		key := newKey(t)
		tm := openTerm(t, dial(t, addr, withKey(key)), "flooder", termW, termH, "")
		register(tm, "flooder")
		if n := floodSeeks(t, in, func(int) *term { return tm }); n != limit {
			t.Errorf("%d seeks went through before the refusal, want %d", n, limit)
		}
		again := openTerm(t, dial(t, addr, withKey(key)), "flooder again", termW, termH, "")
		if s := trySeek(again, 3); !strings.Contains(s, seekRefused) {
			t.Errorf("a new connection of the same key seeks again:\n%s", s)
		}
		if st := honest.Status(); st.Over != "" || st.Seated || in.hub.Seeking()["breakcode"] != 1 {
			t.Errorf("the honest seeker after the flood: %+v, seeking %v", st, in.hub.Seeking())
		}
	})
	t.Run("guests on one connection", func(t *testing.T) {
		in, addr := startInstance(t, dataDir(t), flags...)
		honest := honestSeeker(t, in)
		c := dial(t, addr, asGuest())
		var last *term
		n := floodSeeks(t, in, func(i int) *term {
			if last != nil {
				_ = last.sess.Close() // a new session, a new guest, the same connection
			}
			last = openTerm(t, c, fmt.Sprintf("guest %d", i+1), termW, termH, "")
			return last
		})
		if n != limit {
			t.Errorf("%d seeks went through before the refusal, want %d", n, limit)
		}
		again := dial(t, addr, asGuest())
		if s := trySeek(openTerm(t, again, "new connection", termW, termH, ""), 3); !strings.Contains(s, seekRefused) {
			t.Errorf("a new connection from the same address seeks again:\n%s", s)
		}
		if st := honest.Status(); st.Over != "" || st.Seated || in.hub.Seeking()["breakcode"] != 1 {
			t.Errorf("the honest seeker after the flood: %+v, seeking %v", st, in.hub.Seeking())
		}
	})
}

// --seeks-per-minute reaches the pools: the operator may loosen or tighten
// the seek limit (the load generator loosens it: all its seekers share one
// address).
func TestSeeksPerMinuteFlag(t *testing.T) {
	in, _ := startInstance(t, dataDir(t), "--seeks-per-minute", "2")
	id := lobby.Identity{Account: "SHA256:ann", Handle: "ann", Addr: "198.51.100.7"}
	for i := range 3 {
		s, err := in.hub.Seek(id, lobby.SeekSpec{Game: "breakcode", Players: 4})
		if i < 2 && err != nil {
			t.Fatalf("seek %d: %v", i+1, err)
		}
		if i == 2 && !errors.Is(err, lobby.ErrTooManySeeks) {
			t.Fatalf("the third seek in a minute with --seeks-per-minute 2: %v", err)
		}
		if s != nil {
			s.Cancel()
		}
	}
}

// TestLoadtestSeekersAreAllSeated runs the load generator's seekers phase
// small against an arcade in-process: two people per game arrive over
// SSH, each on a new key, choose Play people, and every one is seated.
func TestLoadtestSeekersAreAllSeated(t *testing.T) {
	in, addr := startInstance(t, dataDir(t), "--seeks-per-minute", "1000", "--rated-same-address")
	r := loadtest.DriveSeekers(t.Context(), loadtest.Config{Seekers: 8, SeekRate: 20, StepTimeout: waitLimit}, addr, nil)
	if r.Seated != 8 || r.Errors != 0 || r.Wait.N != 8 {
		t.Fatalf("seated %d of 8, %d errors %v", r.Seated, r.Errors, r.Samples)
	}
	if r.Tables != 4 || r.Seating.N != 4 {
		t.Errorf("seated at %d tables (%d timed), want 4: one per game", r.Tables, r.Seating.N)
	}
	if n := len(in.hub.Seeking()); n != 0 {
		t.Errorf("people still seeking after all were seated: %v", in.hub.Seeking())
	}
}
