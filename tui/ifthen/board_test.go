package ifthen

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	it "github.com/codebreakers/codebreakers/engine/ifthen"
	"github.com/codebreakers/codebreakers/tui/board"
	"github.com/codebreakers/codebreakers/tui/board/boardtest"
)

// testKeys are the session's keys for this board (tui/keys.go).
func testKeys() KeyMap {
	b := func(k, help string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, help)) }
	return KeyMap{Keys: boardtest.Keys(),
		Discard: b("d", "discard"), Hint: b("i", "buy hint"), FreeHint: b("u", "free hint"),
		Lucky: b("z", "lucky draw"), Second: b("s", "second chance"), Yes: b("y", "agree"),
		No: b("n", "decline"), Cycle: b("x", "cycle card"), ToBuilder: b("tab", "builder"), TypeIt: b("tab", "type it"),
		Builder: BuilderKeys{Next: key.NewBinding(key.WithKeys("space", "+", "="), key.WithHelp("space", "next choice")),
			Prev: key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "previous choice")), AddValue: b("a", "add value"),
			Remove: key.NewBinding(key.WithKeys("x", "backspace", "delete"), key.WithHelp("x", "delete"))}}
}

func plainStyles() Styles {
	s := lipgloss.NewStyle()
	return Styles{Styles: board.Styles{Heading: s, Strong: s, Dim: s, Selected: s, Error: s, Good: s}}
}

// colourStyles are the session's looks for this board (boardtest's).
func colourStyles() Styles {
	return Styles{Styles: boardtest.ColourStyles(), End: boardtest.ColourPieces().Ends}
}

func names(n int) []string { return []string{"mara", "Bo", "Kai", "Ana", "Lu", "Zed"}[:n] }

func deal(t *testing.T, n int, mode string, seed uint64) engine.State {
	t.Helper()
	var players []engine.Player
	for _, nm := range names(n) {
		players = append(players, engine.Player{Name: nm})
	}
	st, _, err := engine.Start(it.Game{}, engine.Options{"level": "2", "allknowing": mode}, players, seed)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func render(t *testing.T, st engine.State, v engine.Viewer, log []engine.Event) (*Board, string) {
	t.Helper()
	b := New(new(plainStyles()), new(testKeys()))
	n := len(st.View(engine.Omniscient()).(it.View).Seats)
	r, _ := st.Result()
	var res *engine.Result
	if st.Status().Finished {
		res = &r
	}
	b.SetView(st.View(v), board.Context{Viewer: v, Names: names(n), Status: st.Status(),
		Log: engine.FilterEvents(log, v), Result: res, Width: 80, Height: 24})
	out := b.View()
	lines := strings.Split(out, "\n")
	if len(lines) > 24 {
		t.Fatalf("%d lines at 80×24:\n%s", len(lines), out)
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 80 {
			t.Fatalf("line %d cells wide at 80×24: %q", w, l)
		}
	}
	return b, ansi.Strip(out)
}

func press(b *Board, k string) []byte {
	var msg tea.KeyPressMsg
	switch k {
	case "enter":
		msg = tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		msg = tea.KeyPressMsg{Code: tea.KeyEscape}
	case "left":
		msg = tea.KeyPressMsg{Code: tea.KeyLeft}
	case "down":
		msg = tea.KeyPressMsg{Code: tea.KeyDown}
	default:
		msg = tea.KeyPressMsg{Code: rune(k[0]), Text: k}
	}
	a, _ := b.Update(msg)
	return a
}

// codeTexts are the ways the Code could show on screen.
func codeTexts(st engine.State) []string {
	v := st.View(engine.Omniscient()).(it.View)
	if v.Challenge == nil {
		return nil
	}
	return []string{v.Challenge.English, v.Challenge.Text}
}

// botMove lets the first active seat's bot play one move and returns its events.
func botMove(t *testing.T, st engine.State, bots []engine.Bot) []engine.Event {
	t.Helper()
	a := st.Status().Active[0]
	act, err := bots[a].Act(st.View(engine.SeatViewer(a)))
	if err != nil {
		t.Fatal(err)
	}
	evs, err := st.Apply(a, act)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func TestCodeNeverRendersForBreakersOrSpectators(t *testing.T) {
	for _, mode := range []string{it.ModeServer, it.ModePlayer, it.ModeMastermind} {
		for g := range 4 {
			n := 3 + g%3
			st := deal(t, n, mode, uint64(g+1))
			bots := make([]engine.Bot, n)
			for i := range bots {
				bots[i], _ = it.Game{}.NewBot(engine.Seat(i), []string{it.LevelStrong, it.LevelEasy}[g%2], uint64(i))
			}
			var log []engine.Event
			for step := 0; !st.Status().Finished; step++ {
				if step > 400 {
					t.Fatal("game did not end")
				}
				if step%3 == 0 {
					view := st.View(engine.Omniscient()).(it.View)
					viewers := []engine.Viewer{engine.Spectator()}
					for _, s := range view.Breakers {
						viewers = append(viewers, engine.SeatViewer(s))
					}
					for _, v := range viewers {
						_, out := render(t, st, v, log)
						for _, c := range codeTexts(st) {
							if strings.Contains(out, c) {
								t.Fatalf("%s: the Code %q renders for %+v:\n%s", mode, c, v, out)
							}
						}
					}
					if view.AllKnowing >= 0 && view.Phase != it.Setup {
						_, out := render(t, st, engine.SeatViewer(view.AllKnowing), log)
						if !strings.Contains(out, "Code: ") {
							t.Fatalf("the All Knowing does not see the Code:\n%s", out)
						}
					}
				}
				log = append(log, botMove(t, st, bots)...)
			}
			_, out := render(t, st, engine.Spectator(), log)
			if !strings.Contains(out, "The game is over.") {
				t.Fatalf("finished game:\n%s", out)
			}
		}
	}
}

func decode(t *testing.T, a []byte) it.Action {
	t.Helper()
	var act it.Action
	if err := json.Unmarshal(a, &act); err != nil {
		t.Fatalf("action %s: %v", a, err)
	}
	return act
}

func TestBreakerKeys(t *testing.T) {
	st := deal(t, 3, it.ModeServer, 9)
	me := st.Status().Active[0]
	b, out := render(t, st, engine.SeatViewer(me), nil)
	for _, want := range []string{"Your turn", "Code Line", "Market", "Your hand", "│", "Team:"} {
		if !strings.Contains(out, want) {
			t.Fatalf("board lacks %q:\n%s", want, out)
		}
	}
	press(b, "down")
	press(b, "left") // turn card 2 over
	act := decode(t, press(b, "enter"))
	if act.Play == nil || act.Play.Card != 1 || act.Play.Up != 1 {
		t.Fatalf("enter sent %+v", act)
	}
	if a := decode(t, press(b, "d")); a.Discard == nil || a.Discard.Card != 1 {
		t.Fatalf("d sent %+v", a)
	}
	if a := decode(t, press(b, "i")); a.Propose == nil || a.Propose.Kind != it.ProposeHint {
		t.Fatalf("i sent %+v", a)
	}
	if a := press(b, "g"); a != nil || b.Capturing() {
		t.Fatalf("guess opened with three Code Breakers holding cards")
	}
	// Another seat cannot play.
	other := (me + 1) % 3
	b2, out := render(t, st, engine.SeatViewer(other), nil)
	if press(b2, "enter") != nil || !strings.Contains(out, "Waiting") {
		t.Fatalf("a waiting seat moved:\n%s", out)
	}
	// A spectator sees no hand.
	_, out = render(t, st, engine.Spectator(), nil)
	if strings.Contains(out, "Your hand") || !strings.Contains(out, "watching") {
		t.Fatalf("spectator board:\n%s", out)
	}
}

func TestPenaltyVoteAndGuessKeys(t *testing.T) {
	st := deal(t, 2, it.ModePlayer, 4) // one Code Breaker: seat 1
	var log []engine.Event
	// Play until a penalty is owed.
	for range 12 {
		v := st.View(engine.SeatViewer(1)).(it.View)
		if v.Phase == it.Penalty {
			break
		}
		if v.Phase == it.RevealEvent {
			evs, _ := st.Apply(0, it.RevealAction("event"))
			log = append(log, evs...)
			continue
		}
		evs, err := st.Apply(1, it.PlayAction(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, evs...)
	}
	v := st.View(engine.SeatViewer(1)).(it.View)
	if v.Phase != it.Penalty {
		t.Skip("no penalty in this deal")
	}
	b, out := render(t, st, engine.SeatViewer(1), log)
	if !strings.Contains(out, "Penalty: draw") {
		t.Fatalf("penalty not shown:\n%s", out)
	}
	press(b, "2")
	if a := decode(t, press(b, "enter")); a.Draw == nil || len(a.Draw.Market) != 1 || a.Draw.Market[0] != 1 {
		t.Fatalf("draw sent %+v", a)
	}
	// The guess field: one Code Breaker may always guess.
	if _, err := st.Apply(1, it.DrawAction()); err != nil {
		t.Fatal(err)
	}
	if st.View(engine.SeatViewer(1)).(it.View).Phase != it.Turn {
		if _, err := st.Apply(0, it.RevealAction("event")); err != nil {
			t.Fatal(err)
		}
	}
	b, _ = render(t, st, engine.SeatViewer(1), log)
	press(b, "g")
	if !b.Capturing() || !b.Overlay() {
		t.Fatal("guess builder did not open")
	}
	// The builder starts with "the card played's background colour is
	// different from the last Valid card's"; go down to "send".
	if out := ansi.Strip(b.View()); !strings.Contains(out, "Reads: The background colour is different") {
		t.Fatalf("builder preview:\n%s", out)
	}
	for range 12 {
		press(b, "down")
	}
	a := decode(t, press(b, "enter"))
	if a.Propose == nil || a.Propose.Kind != it.ProposeGuess || a.Propose.Text != "bg != prev.bg" {
		t.Fatalf("built guess sent %+v", a)
	}
	// Build "if the last card's size is small then number is even".
	press(b, "g")
	b.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if !b.typing {
		t.Fatal("tab did not switch to typing")
	}
	b.input.SetValue("")
	for _, r := range "bg != prev.bg" {
		b.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if out := ansi.Strip(b.View()); !strings.Contains(out, "Reads:") {
		t.Fatalf("no preview of the guess:\n%s", out)
	}
	a = decode(t, press(b, "enter"))
	if a.Propose == nil || a.Propose.Kind != it.ProposeGuess || a.Propose.Text != "bg != prev.bg" {
		t.Fatalf("guess sent %+v", a)
	}
	// The All Knowing sees the Code.
	_, out = render(t, st, engine.SeatViewer(0), log)
	if !strings.Contains(out, "Code: ") {
		t.Fatalf("All Knowing board:\n%s", out)
	}
}

func TestMastermindSetupKeys(t *testing.T) {
	st := deal(t, 4, it.ModeMastermind, 3)
	b, out := render(t, st, engine.SeatViewer(0), nil)
	v := st.View(engine.SeatViewer(0)).(it.View)
	if !strings.Contains(out, v.Offered[1].English[:20]) || !strings.Contains(out, "loyalty") {
		t.Fatalf("setup board:\n%s", out)
	}
	press(b, "down")
	press(b, "left")
	a := decode(t, press(b, "enter"))
	if a.Setup == nil || a.Setup.Challenge != 1 || a.Setup.Loyal {
		t.Fatalf("setup sent %+v", a)
	}
	_, out = render(t, st, engine.SeatViewer(1), nil)
	for _, o := range v.Offered {
		if strings.Contains(out, o.English) {
			t.Fatalf("a Code Breaker sees an offered Code:\n%s", out)
		}
	}
	_ = fmt.Sprint()
}

// silenced plays seeded bot games until a Code Breaker is to play a card
// with Silence in force, and returns that state and the seat.
func silenced(t *testing.T) (engine.State, engine.Seat) {
	t.Helper()
	for seed := uint64(1); seed < 200; seed++ {
		st := deal(t, 3, it.ModeServer, seed)
		bots := make([]engine.Bot, 3)
		for i := range bots {
			bots[i], _ = it.Game{}.NewBot(engine.Seat(i), it.LevelEasy, seed)
		}
		for step := 0; step < 300 && !st.Status().Finished; step++ {
			a := st.Status().Active[0]
			v := st.View(engine.SeatViewer(a)).(it.View)
			if v.Phase == it.Turn && v.Event != nil && v.Event.Kind == it.EventSilence && len(v.Hand) > 0 {
				return st, a
			}
			act, err := bots[a].Act(v)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.Apply(a, act); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Fatal("no seeded game reached a turn under Silence")
	return nil, 0
}

// TestSilenceOffersNoDiscard: while Silence is in force the key bar does
// not offer d (the engine refuses it), the prompt says so, and d explains
// instead of sending a move bound to fail.
func TestSilenceOffersNoDiscard(t *testing.T) {
	st, me := silenced(t)
	b, out := render(t, st, engine.SeatViewer(me), nil)
	for _, k := range b.ShortHelp() {
		if k.Help().Desc == "discard" {
			t.Errorf("under Silence the key bar offers %q %q:\n%s", k.Help().Key, k.Help().Desc, out)
		}
	}
	if !strings.Contains(out, "no discarding") || strings.Contains(out, "discard one (d)") {
		t.Errorf("the prompt does not say Silence forbids discarding:\n%s", out)
	}
	if a := press(b, "d"); a != nil {
		t.Errorf("d under Silence sent %s", a)
	}
	if !strings.Contains(ansi.Strip(b.View()), "Silence") {
		t.Errorf("d under Silence did not say why:\n%s", ansi.Strip(b.View()))
	}
	// Enter still plays.
	if a := decode(t, press(b, "enter")); a.Play == nil {
		t.Errorf("enter under Silence sent %+v", a)
	}
}

// TestWatchersAndFinishedGamesTakeNoMoves: a spectator in every phase the
// bots reach, and every seat once the game is over, is offered no move key
// on the key bar, and no key of theirs makes a move, opens the guess or moves
// a cursor over cards they cannot play.
func TestWatchersAndFinishedGamesTakeNoMoves(t *testing.T) {
	moveKeys := []string{"enter", "left", "down", "1", "2", "d", "i", "u", "z", "s", "y", "n", "x", "g", "tab", " "}
	check := func(st engine.State, log []engine.Event, v engine.Viewer, what string) {
		b, out := render(t, st, v, log)
		for _, k := range b.ShortHelp() {
			t.Fatalf("%s: the key bar offers %q %q:\n%s", what, k.Help().Key, k.Help().Desc, out)
		}
		for _, k := range moveKeys {
			if a := press(b, k); a != nil || b.Capturing() || b.Overlay() {
				t.Fatalf("%s: %q made %s (guess open %v)", what, k, a, b.Capturing())
			}
		}
		if after := ansi.Strip(b.View()); after != out {
			t.Fatalf("%s: the move keys changed the board:\n%s\nto\n%s", what, out, after)
		}
		if v.Kind != engine.ViewerSeat || st.Status().Finished {
			if strings.Contains(out, "› ") || strings.Contains(out, "turns the card") {
				t.Fatalf("%s: the board shows a card cursor:\n%s", what, out)
			}
		}
	}
	for g, mode := range []string{it.ModeServer, it.ModePlayer, it.ModeMastermind} {
		n := 3 + g
		st := deal(t, n, mode, uint64(g+11))
		bots := make([]engine.Bot, n)
		for i := range bots {
			bots[i], _ = it.Game{}.NewBot(engine.Seat(i), it.LevelStrong, uint64(i))
		}
		var log []engine.Event
		for step := 0; !st.Status().Finished; step++ {
			if step > 400 {
				t.Fatal("game did not end")
			}
			phase := st.View(engine.Omniscient()).(it.View).Phase
			check(st, log, engine.Spectator(), fmt.Sprintf("%s: spectator in %v", mode, phase))
			log = append(log, botMove(t, st, bots)...)
		}
		check(st, log, engine.Spectator(), mode+": spectator after the end")
		for s := range engine.Seat(n) {
			check(st, log, engine.SeatViewer(s), fmt.Sprintf("%s: seat %d after the end", mode, s))
		}
	}
}

// TestMastermindSendsADrawnCardUnder: once the Mastermind has drawn from
// its pile (x), the board asks which card goes under it, offers no swap,
// and enter sends the card under the cursor.
func TestMastermindSendsADrawnCardUnder(t *testing.T) {
	st := deal(t, 4, it.ModeMastermind, 3)
	bots := make([]engine.Bot, 4)
	for i := range bots {
		bots[i], _ = it.Game{}.NewBot(engine.Seat(i), it.LevelEasy, 3)
	}
	for step := 0; st.View(engine.SeatViewer(0)).(it.View).Phase != it.MastermindTurn; step++ {
		if step > 300 || st.Status().Finished {
			t.Fatal("the seeded game never reached the Mastermind's turn")
		}
		botMove(t, st, bots)
	}
	b, _ := render(t, st, engine.SeatViewer(0), nil)
	a := decode(t, press(b, "x"))
	if a.Cycle == nil {
		t.Fatalf("x sent %+v", a)
	}
	if _, err := st.Apply(0, it.CycleAction(a.Cycle.Card)); err != nil {
		t.Fatal(err)
	}
	b, out := render(t, st, engine.SeatViewer(0), nil)
	if !strings.Contains(out, "pick a card to send under it") || strings.Contains(out, "swap") {
		t.Fatalf("after the draw:\n%s", out)
	}
	press(b, "down")
	press(b, "down")
	press(b, "down")
	a = decode(t, press(b, "enter"))
	if a.Cycle == nil || a.Cycle.Card != 3 {
		t.Fatalf("enter sent %+v, want the fourth card under the pile", a)
	}
	if _, err := st.Apply(0, it.CycleAction(a.Cycle.Card)); err != nil {
		t.Fatal(err)
	}
	if v := st.View(engine.SeatViewer(0)).(it.View); v.AKDrew || len(v.Hand) != 3 {
		t.Fatalf("after sending it under: drew %v, hand %d", v.AKDrew, len(v.Hand))
	}
}

// TestFinishedCodeIsSaidInFull: at the end of a game (and in its replay)
// the Code is the answer everyone waited for; a long one is wrapped over as
// many lines as it needs, not cut with … after two, and comes first so
// that a short window (a replay's board above its step) cuts the round's
// details rather than the answer.
func TestFinishedCodeIsSaidInFull(t *testing.T) {
	st := deal(t, 3, it.ModeServer, 5)
	bots := make([]engine.Bot, 3)
	for i := range bots {
		bots[i], _ = it.Game{}.NewBot(engine.Seat(i), it.LevelStrong, uint64(i))
	}
	for step := 0; !st.Status().Finished; step++ {
		if step > 400 {
			t.Fatal("game did not end")
		}
		botMove(t, st, bots)
	}
	long := "If the previous card's background colour is red, then the background colour is not red; " +
		"otherwise the background colour is the same as the previous card's background colour, " +
		"and the number is at most 7."
	for _, c := range []struct {
		replay bool
		w, h   int
	}{{false, 80, 24}, {true, 80, 24}, {false, 60, 20}, {true, 60, 8}} {
		replay := c.replay
		v := st.View(engine.Spectator()).(it.View)
		ch := *v.Challenge
		ch.English = long
		v.Challenge = &ch
		r, _ := st.Result()
		b := New(new(plainStyles()), new(testKeys()))
		b.SetView(v, board.Context{Viewer: engine.Spectator(), Names: names(3), Status: st.Status(),
			Result: &r, Replay: replay, Width: c.w, Height: c.h})
		out := strings.Join(strings.Fields(ansi.Strip(b.View())), " ")
		if !strings.Contains(out, "Code: "+long) {
			t.Errorf("replay %v at %d×%d: the finished Code is cut:\n%s", replay, c.w, c.h, ansi.Strip(b.View()))
		}
	}
}

// TestShortWindowSaysWhatItLeavesOut: at 60 columns (a board of 16 rows, as
// under the bars and strip of a 60×20 window) a long Code Line shows its
// newest cards after "+N", a space apart and over their Invalid cards (the
// count was glued to the first card, "+104BMy"); a hand with more cards
// than fit says which are shown and how to reach the rest (the others were
// not mentioned at all).
func TestShortWindowSaysWhatItLeavesOut(t *testing.T) {
	glued := regexp.MustCompile(`Code Line\+\d+[^\d\s]`)
	cardRow := regexp.MustCompile(`^ (› |  )\d+ \[`)
	sawSkip, sawHidden := false, false
	for g := range 3 {
		n := 3 + g
		st := deal(t, n, it.ModeServer, uint64(g+21))
		bots := make([]engine.Bot, n)
		for i := range bots {
			bots[i], _ = it.Game{}.NewBot(engine.Seat(i), it.LevelEasy, uint64(i))
		}
		for step := 0; !st.Status().Finished && step < 400; step++ {
			for s := range engine.Seat(n) {
				b := New(new(plainStyles()), new(testKeys()))
				b.SetView(st.View(engine.SeatViewer(s)), board.Context{Viewer: engine.SeatViewer(s), Names: names(n),
					Status: st.Status(), Width: 60, Height: 16})
				out := ansi.Strip(b.View())
				lines := strings.Split(out, "\n")
				shown := 0
				for i, l := range lines {
					if glued.MatchString(l) {
						t.Fatalf("the count of cards left out is glued to a card:\n%s", out)
					}
					if strings.HasPrefix(l, " Code Line+") {
						sawSkip = true
						if i+1 < len(lines) && strings.HasPrefix(lines[i+1], " Invalid") {
							first := strings.IndexFunc(l[len(" Code Line+"):], func(r rune) bool { return r == ' ' })
							col := len(" Code Line+") + first + strings.IndexFunc(l[len(" Code Line+")+first:], func(r rune) bool { return r != ' ' })
							if inv := lines[i+1]; len(inv) > col && inv[col-1] != ' ' {
								t.Fatalf("the Invalid cards stand off the Code Line's (column %d):\n%s", col, out)
							}
						}
					}
					if cardRow.MatchString(l) {
						shown++
					}
				}
				if hand := len(st.View(engine.SeatViewer(s)).(it.View).Hand); shown > 0 && shown < hand {
					sawHidden = true
					if !strings.Contains(out, fmt.Sprintf("of %d, ↑/↓ for the rest", hand)) {
						t.Fatalf("%d of %d cards shown, and nothing says so:\n%s", shown, hand, out)
					}
				}
			}
			botMove(t, st, bots)
		}
	}
	if !sawSkip || !sawHidden {
		t.Errorf("the games never showed a cut Code Line (%v) or a cut hand (%v): the test checks nothing", sawSkip, sawHidden)
	}
}
