package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/rulelang"
	wtr "github.com/codebreakers/codebreakers/engine/whattherule"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/internal/seen"
)

// wtrMenu is What the Rule?!'s place on the "which game?" menu (the order
// of games() in serve.go).
const wtrMenu = 3

// Markers the What the Rule?! board puts on a screen.
const (
	wtrYourTurn   = "▸ Your turn:"
	wtrItFits     = "It fits!"
	wtrVoteHints  = "Agree? (y/n)"
	wtrVoteHint   = "Let it come (y)"
	wtrJudgeCard  = "Judge: does "
	wtrJudgeGuess = "Judge the guess:"
	wtrJudgeHand  = "Judge the shown hand:"
)

// The free rule the human game master writes in round 2, and the words of
// it that must stay off the players' screens until the round is over.
const (
	freeRule       = "Every card must show squares, said the kiwi"
	freeRuleMarker = "kiwi"
	rightFreeGuess = "squares only"
	wrongFreeGuess = "odd counts only"
)

// wrongMachineGuess reads as a rule but no card fits it, so it is never the
// library rule; nor does it contain one's text.
const wrongMachineGuess = "count > 6"

// rightFreeGuesses are the guesses ann accepts for her free rule: the
// players' words, and how a bot would say it.
var rightFreeGuesses = []string{rightFreeGuess, "shape == square", "The shape is square."}

// wtrCardRe reads a card off the hand's line: compact ("[3▲b]" selected)
// or framed (its face between borders, "┃3▲b┃" selected).
var wtrCardRe = regexp.MustCompile(`([\[┃]?)(\d)([○●△▲□■])([bw])`)

// shownCard is a card read off a screen.
type shownCard struct {
	face     string // "3▲b"
	square   bool
	selected bool
}

// handOnScreen reads the row after label ("Your hand", "Shown hand"), or
// nil when the screen has no such row.
func handOnScreen(screen, label string) []shownCard {
	for _, line := range strings.Split(screen, "\n") {
		i := strings.Index(line, label)
		if i < 0 {
			continue
		}
		var out []shownCard
		for _, m := range wtrCardRe.FindAllStringSubmatch(line[i+len(label):], -1) {
			out = append(out, shownCard{
				face:     m[2] + m[3] + m[4],
				square:   m[3] == "□" || m[3] == "■",
				selected: m[1] != "",
			})
		}
		return out
	}
	return nil
}

// faceText draws an engine card the way the board does: "3▲b".
func faceText(c wtr.Card) string {
	g := map[string][2]string{"circle": {"○", "●"}, "triangle": {"△", "▲"}, "square": {"□", "■"}}[c.Shape]
	glyph := g[0]
	if c.Filled {
		glyph = g[1]
	}
	return fmt.Sprintf("%d%s%c", c.Count, glyph, c.Color[0])
}

// lineWith returns the screen's line holding marker, or "".
func lineWith(screen, marker string) string {
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, marker) {
			return line
		}
	}
	return ""
}

// selectCard moves a board's cursor to card i of the row after label and
// waits until the screen shows it selected.
func selectCard(tm *term, label string, i int) {
	tm.t.Helper()
	for range 40 {
		tm.send(keyLeft)
	}
	for range i {
		tm.send(keyRight)
	}
	tm.waitUntil(fmt.Sprintf("card %d selected", i+1), func(s string) bool {
		cards := handOnScreen(s, label)
		return i < len(cards) && cards[i].selected
	})
}

// actAndWait sends keys to tm and waits until the line that prompted them
// has gone or changed: the table has taken the move.
func actAndWait(tm *term, marker string, keys ...string) {
	tm.t.Helper()
	before := lineWith(tm.screen(), marker)
	tm.send(keys...)
	tm.waitUntil("the move to be taken after "+strings.TrimSpace(marker), func(s string) bool {
		return lineWith(s, marker) != before
	})
}

// voteNo has p say no to hints, which closes the vote for everyone, and
// waits until no screen still asks: a stale question answered with n
// would open the notes instead.
func voteNo(ps []wtrPlayer, p wtrPlayer, marker string) {
	p.tm.t.Helper()
	actAndWait(p.tm, marker, "n")
	for _, q := range ps {
		q.tm.waitUntil("the hint vote to close", func(s string) bool {
			return !strings.Contains(s, wtrVoteHints) && !strings.Contains(s, wtrVoteHint)
		})
	}
}

// typeGuess opens the guess entry, types text and sends it.
func typeGuess(tm *term, text string) {
	tm.t.Helper()
	tm.send("g")
	tm.waitFor("guess ›")
	tm.send(text)
	tail := text[max(0, len(text)-16):] // a long entry scrolls
	tm.waitFor(tail)
	tm.send(keyEnter)
	// The entry closes at once; the offer to guess goes only when the table
	// has taken the guess.
	tm.waitUntil("the guess to be taken", func(s string) bool {
		return !strings.Contains(s, "guess ›") && !strings.Contains(s, wtrItFits)
	})
}

// createWTRTable has the host make a private What the Rule?! table of four
// seats, one a bot, for two rounds, and returns its join code.
func createWTRTable(host *term) string {
	host.t.Helper()
	openHomeItem(host, "Create a table")
	host.waitFor("which game?", "What the Rule?!")
	for range wtrMenu {
		host.send(keyDown)
	}
	host.send(keyEnter)
	host.waitFor("CREATE A TABLE", "What the Rule?!", "Seats")
	// Seats 3 → 4; Bots 0 → 1; past the bot level; Rounds each → 1 → 2.
	host.send(keyRight, keyDown, keyRight, keyDown, keyDown, keyRight, keyRight)
	host.waitUntil("four seats, one bot, two rounds", func(s string) bool {
		return formRowRe("Seats", "4").MatchString(s) && formRowRe("Bots", "1").MatchString(s) &&
			formRowRe("Rounds", "2").MatchString(s)
	})
	host.send(keyEnter) // enter on a row jumps to the button…
	host.waitFor("▸ [ Create the table ]")
	host.send(keyEnter) // …and creates
	s := host.waitUntil("a join code", seen.HasJoinCode)
	code, _ := seen.JoinCode(s)
	return code
}

// formRowRe matches a create-table row showing value.
func formRowRe(label, value string) *regexp.Regexp {
	return regexp.MustCompile(regexp.QuoteMeta(label) + `\s+‹ ` + regexp.QuoteMeta(value) + ` ›`)
}

// wtrOracle reads the game in progress from the store, as a test oracle
// that knows the secret rule. Only the test's choice of keys uses it; the
// screens are checked never to show the rule to a player.
type wtrOracle struct {
	t  *testing.T
	in *instance
}

// view replays the live game and returns the all-seeing view.
func (o wtrOracle) view() wtr.View {
	o.t.Helper()
	live, err := o.in.db.LiveGames()
	if err != nil {
		o.t.Fatalf("oracle: live games: %v", err)
	}
	if len(live) != 1 {
		o.t.Fatalf("oracle: %d live games, want 1", len(live))
	}
	st, _, err := engine.Replay(games(), live[0].Record, -1)
	if err != nil {
		o.t.Fatalf("oracle: replay: %v", err)
	}
	v, ok := st.View(engine.Omniscient()).(wtr.View)
	if !ok || v.Rule == nil {
		o.t.Fatalf("oracle: no rule in the all-seeing view: %#v", st.View(engine.Omniscient()))
	}
	return v
}

// fits reports, for each card of seat's hand, whether it fits the machine
// rule next.
func (o wtrOracle) fits(v wtr.View, seat engine.Seat) []bool {
	o.t.Helper()
	rule, err := rulelang.Parse(wtr.Attributes(), v.Rule.Text)
	if err != nil {
		o.t.Fatalf("oracle: parse %q: %v", v.Rule.Text, err)
	}
	line := make([]rulelang.Card, len(v.Line))
	for i, c := range v.Line {
		line[i] = c.Face()
	}
	out := make([]bool, len(v.Hands[seat]))
	for i, c := range v.Hands[seat] {
		out[i] = rule.Accepts(line, c.Face())
	}
	return out
}

// wtrPlayer is a human at the table with the seat they hold.
type wtrPlayer struct {
	tm   *term
	seat engine.Seat
}

// firstWith returns the first player whose screen shows one of markers,
// and which marker, waiting until one does or done holds for every screen.
func firstWith(t *testing.T, ps []wtrPlayer, done func(string) bool, markers ...string) (wtrPlayer, string, bool) {
	t.Helper()
	var who wtrPlayer
	var which string
	found := false
	ps[0].tm.waitUntil("someone to act or the round to end", func(string) bool {
		all := true
		for _, p := range ps {
			s := p.tm.screen()
			for _, m := range markers {
				if strings.Contains(s, m) {
					who, which, found = p, m, true
					return true
				}
			}
			all = all && done(s)
		}
		return all
	})
	return who, which, found
}

// prefix is the first n runes of s.
func prefix(s string, n int) string {
	r := []rune(s)
	return string(r[:min(n, len(r))])
}

// leaks returns the first secret found on a screen, or "".
func leaks(screen string, secrets []string) string {
	for _, sec := range secrets {
		if strings.Contains(screen, sec) {
			return sec
		}
	}
	return ""
}

// TestWhatTheRuleOverSSH is issue 7's acceptance test. Three keys and a bot
// sit at a table. Round 1: the bot is game master and draws a library rule;
// the players play through the real keys (a miss, a fit, a wrong guess and
// a right one) until one names the rule. Round 2: a human game master
// writes a free rule and judges every play and guess by hand. No player's
// screen, nor a spectator's, shows either rule before its round is over.
func TestWhatTheRuleOverSSH(t *testing.T) {
	in, addr := startInstance(t, dataDir(t))
	annKey := newKey(t)
	ann := openTermRec(t, dial(t, addr, withKey(annKey)), "ann", termW, termH, "", true)
	register(ann, "ann")
	code := createWTRTable(ann)

	bob := openTermRec(t, dial(t, addr, withKey(newKey(t))), "bob", termW, termH, "join "+code, true)
	register(bob, "bob")
	bob.waitFor("waiting for players", "bob", "ann")
	cy := openTermRec(t, dial(t, addr, withKey(newKey(t))), "cy", termW, termH, "join "+code, true)
	register(cy, "cy")
	cy.waitFor("waiting for players", "cy", "bob", "ann")
	bob.send("r")
	cy.send("r")
	ann.waitUntil("bob and cy ready", func(s string) bool {
		return regexp.MustCompile(`bob\s+(✓ )?ready`).MatchString(s) && regexp.MustCompile(`cy\s+(✓ )?ready`).MatchString(s)
	})
	dee := openTermRec(t, dial(t, addr, withKey(newKey(t))), "dee", termW, termH, "watch "+code, true)
	register(dee, "dee")
	dee.waitFor("You are watching")
	ann.send("s")

	// Seats: ann 0 (host), bob 1, cy 2 in the order they joined; the bot
	// takes the last seat and, being a bot, leads round 1.
	players := []wtrPlayer{{ann, 0}, {bob, 1}, {cy, 2}}
	for _, p := range players {
		p.tm.waitFor("Round 1 of 2", "machine rule (library)")
	}
	oracle := wtrOracle{t: t, in: in}
	v := oracle.view()
	if v.GM != 3 || !v.Seats[3].Bot {
		t.Fatalf("round 1 game master is seat %d (bot %v), want the bot in seat 3", v.GM, v.Seats[v.GM].Bot)
	}
	secret := *v.Rule
	t.Logf("round 1 rule (oracle): %q — %s", secret.Text, secret.English)

	playMachineRound(t, players, oracle, secret.Text)

	// Round 1 is over: the rule is revealed to everyone, and ann leads round 2.
	ann.waitFor("Round 2 of 2", "You are the game master.")
	for _, p := range players[1:] {
		p.tm.waitFor("Round 2 of 2", "Round 1 is over", "named the rule", "The rule was:")
	}

	ann.send("f")
	ann.waitFor("free rule ›")
	ann.send(freeRule)
	ann.waitFor(freeRule)
	ann.send(keyEnter)
	ann.waitFor("Your rule: ", freeRuleMarker, "free rule")
	playFreeRound(t, players)

	// The game is over: now bob may read the free rule in the notes.
	bob.waitFor("The game is over.", "Round 2 is over", "named the rule")
	bob.send("n")
	bob.waitFor(freeRuleMarker)

	// No player or spectator saw round 1's rule while it was live, and
	// nobody but ann saw the free rule before round 2 ended. Long texts
	// wrap or are cut on a screen, so their first words are checked.
	round1 := []string{prefix(secret.English, 20), prefix(secret.Title, 20)}
	if len(secret.Text) >= 8 { // a rule as short as "filled" reads like a card
		round1 = append(round1, prefix(secret.Text, 16))
	}
	dee.waitFor("The game is over.")
	checked, gmSaw, typed := 0, 0, 0
	for _, p := range append(players, wtrPlayer{dee, engine.System}) {
		for _, s := range p.tm.recorded() {
			switch {
			case strings.Contains(s, "Round 1 of 2 ·"):
				if strings.Contains(s, "guess ›") {
					if strings.Contains(s, secret.Text[max(0, len(secret.Text)-16):]) {
						typed++ // the guesser's own typing: proof the check can see it
					}
					continue
				}
				if sec := leaks(s, round1); sec != "" {
					t.Fatalf("%s saw round 1's rule %q while it was live:\n%s", p.tm.name, sec, s)
				}
				checked++
			case strings.Contains(s, "Round 2 of 2 ·") && p.seat == 0:
				if strings.Contains(s, freeRuleMarker) {
					gmSaw++ // the check below can see a rule on a screen
				}
			case strings.Contains(s, "Round 2 of 2 ·"):
				if sec := leaks(s, []string{freeRule, freeRuleMarker}); sec != "" {
					t.Fatalf("%s saw the free rule %q while round 2 was live:\n%s", p.tm.name, sec, s)
				}
				checked++
			}
		}
	}
	t.Logf("checked %d live screens for the rules", checked)
	if checked == 0 || gmSaw == 0 || typed == 0 {
		t.Fatalf("recorded %d live player screens, %d with ann's own free rule and %d with the right guess being typed; want some of each",
			checked, gmSaw, typed)
	}

	// The finished game is in ann's history.
	out, _, status := execRun(t, dial(t, addr, withKey(annKey)), "history")
	if status != 0 || !strings.Contains(out, "What the Rule?!") {
		t.Errorf("history (exit %d):\n%s", status, out)
	}
}

// playMachineRound plays round 1 under the bot's library rule: the first
// human turn lays a fitting card and declines to guess, the second plays a
// card that does not fit (or guesses wrong after a fit), and the one after
// names the rule. The oracle only picks which card to play and the words
// of the right guess.
func playMachineRound(t *testing.T, ps []wtrPlayer, o wtrOracle, rule string) {
	t.Helper()
	turns, offers := 0, 0
	newRound := func(s string) bool { return strings.Contains(s, "Round 2 of 2") }
	for range 60 {
		p, marker, ok := firstWith(t, ps, newRound, wtrYourTurn, wtrItFits, wtrVoteHints, wtrVoteHint)
		if !ok {
			if offers < 3 {
				t.Fatalf("round 1 ended after %d guess offers, before the right guess", offers)
			}
			return
		}
		switch marker {
		case wtrVoteHints, wtrVoteHint:
			voteNo(ps, p, marker)
		case wtrYourTurn:
			v := o.view()
			screen := handOnScreen(p.tm.screen(), "Your hand ")
			hand := v.Hands[p.seat]
			if len(screen) != len(hand) {
				t.Fatalf("%s's screen shows %d cards, the engine %d", p.tm.name, len(screen), len(hand))
			}
			for i, c := range hand {
				if screen[i].face != faceText(c) {
					t.Fatalf("%s's card %d shows %s, the engine has %s", p.tm.name, i+1, screen[i].face, faceText(c))
				}
			}
			fits := o.fits(v, p.seat)
			wantFit := turns != 1
			pick := -1
			for i, f := range fits {
				if f == wantFit {
					pick = i
					break
				}
			}
			turns++
			switch {
			case pick >= 0:
				selectCard(p.tm, "Your hand ", pick)
				actAndWait(p.tm, wtrYourTurn, keyEnter)
			case wantFit: // nothing fits: show the hand
				actAndWait(p.tm, wtrYourTurn, "r")
			default: // everything fits
				selectCard(p.tm, "Your hand ", 0)
				actAndWait(p.tm, wtrYourTurn, keyEnter)
			}
		case wtrItFits:
			offers++
			switch offers {
			case 1:
				actAndWait(p.tm, wtrItFits, "p")
			case 2:
				typeGuess(p.tm, wrongMachineGuess)
				p.tm.waitFor("that is not the rule")
			default:
				typeGuess(p.tm, rule)
				for _, q := range ps {
					q.tm.waitFor("Round 2 of 2")
				}
				return
			}
		}
	}
	t.Fatal("round 1 did not end within 60 moves")
}

// playFreeRound plays round 2: ann judges by hand that only squares fit.
// The first two plays by people try a card that is not a square, later
// ones a square; the first guess after a fit is wrong, the next right
// (unless the bot, also playing, names the rule first).
func playFreeRound(t *testing.T, ps []wtrPlayer) {
	t.Helper()
	gm := ps[0]
	turns, offers, judgedCards, rightGuesses := 0, 0, 0, 0
	over := func(s string) bool { return strings.Contains(s, "The game is over.") }
	for range 100 {
		p, marker, ok := firstWith(t, ps, over, wtrYourTurn, wtrItFits, wtrVoteHints, wtrVoteHint,
			wtrJudgeCard, wtrJudgeGuess, wtrJudgeHand)
		if !ok {
			// The bot may name the rule before the people do; either way
			// ann judged cards and a right guess by hand.
			if judgedCards == 0 || rightGuesses == 0 {
				t.Fatalf("round 2 ended with %d cards and %d right guesses judged by hand", judgedCards, rightGuesses)
			}
			return
		}
		if strings.HasPrefix(marker, "Judge") && p.seat != gm.seat {
			t.Fatalf("%s is asked to judge, but ann is the game master:\n%s", p.tm.name, p.tm.screen())
		}
		switch marker {
		case wtrVoteHints, wtrVoteHint:
			voteNo(ps, p, marker)
		case wtrJudgeCard:
			verdict := "n"
			if strings.Contains(lineWith(p.tm.screen(), marker), "square") {
				verdict = "y"
			}
			judgedCards++
			actAndWait(p.tm, marker, verdict)
		case wtrJudgeGuess:
			line := lineWith(p.tm.screen(), marker)
			verdict := "n"
			for _, g := range rightFreeGuesses {
				if strings.Contains(line, `"`+g+`"`) {
					verdict = "y"
					rightGuesses++
				}
			}
			actAndWait(p.tm, marker, verdict)
		case wtrJudgeHand:
			pick := -1
			for i, c := range handOnScreen(p.tm.screen(), "Shown hand ") {
				if c.square {
					pick = i
					break
				}
			}
			if pick < 0 {
				actAndWait(p.tm, marker, "n")
				break
			}
			selectCard(p.tm, "Shown hand ", pick)
			actAndWait(p.tm, marker, keyEnter)
		case wtrYourTurn:
			hand := handOnScreen(p.tm.screen(), "Your hand ")
			wantSquare := turns >= 2
			turns++
			pick := -1
			for i, c := range hand {
				if c.square == wantSquare {
					pick = i
					break
				}
			}
			switch {
			case pick >= 0:
				selectCard(p.tm, "Your hand ", pick)
				actAndWait(p.tm, wtrYourTurn, keyEnter)
			case wantSquare: // no square: show the hand
				actAndWait(p.tm, wtrYourTurn, "r")
			default:
				selectCard(p.tm, "Your hand ", 0)
				actAndWait(p.tm, wtrYourTurn, keyEnter)
			}
		case wtrItFits:
			offers++
			if offers == 1 {
				typeGuess(p.tm, wrongFreeGuess)
			} else {
				typeGuess(p.tm, rightFreeGuess)
			}
		}
	}
	t.Fatal("round 2 did not end within 100 moves")
}
