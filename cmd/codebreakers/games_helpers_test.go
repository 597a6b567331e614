package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/internal/seen"
)

// Menu positions of the games on the "which game?" screen, in the order
// the registry in serve.go lists them.
const (
	menuBreakcode = iota
	menuCoding
	menuIfThen
)

// createGameTable has the host open the create-table form of the game at
// menu position game, type form (keys that set the form's rows, starting on
// the Seats row), create the table and return its join code.
func createGameTable(host *term, game int, gameName string, form ...string) string {
	host.t.Helper()
	openHomeItem(host, "Create a table")
	host.waitFor("which game?", gameName)
	for range game {
		host.send(keyDown)
	}
	host.send(keyEnter)
	host.waitFor("CREATE A TABLE", gameName, "Seats")
	host.send(form...)
	host.send(keyEnter) // enter on any row jumps to the button…
	host.waitUntil("the create button selected", func(s string) bool {
		return strings.Contains(s, "▸ [ Create the table ]")
	})
	host.send(keyEnter) // …and enter on the button creates
	s := host.waitUntil("a join code", seen.HasJoinCode)
	code, _ := seen.JoinCode(s)
	return code
}

// openHomeItem moves the home menu's cursor to the item labelled label,
// wherever the menu puts it, and opens it.
func openHomeItem(host *term, label string) {
	host.t.Helper()
	host.waitFor(label)
	host.send("\x1b[H") // home: the first item
	chosen := regexp.MustCompile(`▸ ` + regexp.QuoteMeta(label))
	for range 12 {
		if chosen.MatchString(host.screen()) {
			host.send(keyEnter)
			return
		}
		before := host.screen()
		host.send(keyDown)
		host.waitUntil("the cursor to move", func(s string) bool { return s != before })
	}
	host.t.Fatalf("no home item %q:\n%s", label, host.screen())
}

// formRow matches a create-table row showing value, e.g. formRow("Bots", "2").
func formRow(label, value string) *regexp.Regexp {
	return regexp.MustCompile(regexp.QuoteMeta(label) + `\s+‹ ` + regexp.QuoteMeta(value) + ` ›`)
}

// lastTranscript finds the newest game of gameName in the key's history
// and returns its plain-text replay.
func lastTranscript(t *testing.T, c *gossh.Client, gameName string) string {
	t.Helper()
	out, _, status := execRun(t, c, "history")
	if status != 0 {
		t.Fatalf("history (exit %d):\n%s", status, out)
	}
	id := regexp.MustCompile(`(?m)^([0-9A-Z]{5,14})\s+` + regexp.QuoteMeta(gameName)).FindStringSubmatch(out)
	if id == nil {
		t.Fatalf("no %s game in history:\n%s", gameName, out)
	}
	transcript, _, status := execRun(t, c, "replay "+id[1])
	if status != 0 || !strings.Contains(transcript, "Result:") {
		t.Fatalf("replay %s (exit %d):\n%s", id[1], status, transcript)
	}
	return transcript
}

// waitForMove waits until one of players has a move, as moveOf reads it
// off that player's screen (non-empty: the key to press), and returns the
// player and the move; or, once every player's game is over, nil. On a
// timeout it shows every player's screen: the one who should move may be
// any of them.
func waitForMove(players []*term, moveOf func(screen string) string) (*term, string) {
	t := players[0].t
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		finished := 0
		screens := make([]string, len(players))
		for i, p := range players {
			s := p.screen()
			screens[i] = s
			if m := moveOf(s); m != "" {
				return p, m
			}
			if strings.Contains(seen.Title(s), "finished") {
				finished++
			}
		}
		if finished == len(players) {
			return nil, ""
		}
		if time.Now().After(deadline) {
			var b strings.Builder
			for i, p := range players {
				fmt.Fprintf(&b, "\n%s's screen:\n%s\n", p.name, screens[i])
			}
			t.Fatalf("timed out waiting for someone's move or the end;%s", b.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
