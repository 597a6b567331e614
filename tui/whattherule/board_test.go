package whattherule

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	wtr "github.com/codebreakers/codebreakers/engine/whattherule"
	"github.com/codebreakers/codebreakers/tui/board"
	"github.com/codebreakers/codebreakers/tui/board/boardtest"
)

// testKeys are the session's keys for this board (tui/keys.go).
func testKeys() KeyMap {
	b := func(help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], help))
	}
	return KeyMap{Keys: boardtest.Keys(), Pass: b("p", "p"),
		Reveal: b("reveal hand", "r"), Propose: b("propose hints", "i"), Yes: b("yes", "y"), No: b("no", "n"),
		Announce: b("announce hint", "a"), Write: b("write rule", "w"), Build: b("rule builder", "u"),
		Free: b("free rule", "f"), Library: b("library", "b"), Draw: b("draw a rule", "d"),
		CallOff: b("call off round", "x"), TypeHint: b("type hint", "t"), BuildGuess: b("build a guess", "u"),
		ToBuilder: b("builder", "tab"), ToTyping: b("type it", "tab"),
		Builder: BuilderKeys{Next: b("next choice", "space", "+", "="), Prev: b("previous choice", "-"),
			AddIf: b("add an if clause", "i"), AddThen: b("add a then clause", "t"),
			AddElse: b("add an otherwise clause", "o"), Remove: b("remove clause", "x"), Join: b("all / any", "a")}}
}

func plainStyles() Styles {
	s := lipgloss.NewStyle()
	return Styles{Styles: board.Styles{Heading: s, Strong: s, Dim: s, Selected: s, Error: s, Good: s},
		CardBlack: s.Reverse(true), CardWhite: s.Bold(true)}
}

// colourStyles are the session's looks for this board (boardtest's).
func colourStyles() Styles {
	p := boardtest.ColourPieces()
	return Styles{Styles: boardtest.ColourStyles(), CardBlack: p.Black, CardWhite: p.White}
}

func press(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

func typeText(b *Board, s string) {
	for _, r := range s {
		b.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

var names = []string{"mara", "Bo", "Kai", "Ana", "Lin", "Oz", "Pia", "Quin", "Rue", "Sol"}

func deal(t *testing.T, n int, seed uint64, opts engine.Options) engine.State {
	t.Helper()
	players := make([]engine.Player, n)
	for i := range players {
		players[i].Name = names[i]
	}
	st, _, err := engine.Start(wtr.Game{}, opts, players, seed)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func context(st engine.State, v engine.Viewer, log []engine.Event, w, h int) board.Context {
	n := len(st.View(engine.Omniscient()).(wtr.View).Seats)
	return board.Context{Viewer: v, Names: names[:n], Bots: make([]bool, n), Status: st.Status(),
		Log: engine.FilterEvents(log, v), Width: w, Height: h}
}

func render(st engine.State, v engine.Viewer, log []engine.Event, w, h int) (*Board, string) {
	b := New(new(plainStyles()), new(testKeys()))
	b.SetView(st.View(v), context(st, v, log, w, h))
	return b, b.View()
}

// checkFits fails if the drawing is wider or taller than its space.
func checkFits(t *testing.T, out string, w, h int, what string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) > h {
		t.Fatalf("%s: %d lines, more than %d:\n%s", what, len(lines), h, out)
	}
	for _, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Fatalf("%s: line %d cells wide, more than %d: %q", what, lw, w, l)
		}
	}
}

// secretsOf lists the texts that give the round's rule away.
func secretsOf(st engine.State) []string {
	v := st.View(engine.Omniscient()).(wtr.View)
	if v.Rule == nil || v.Phase == wtr.Finished {
		return nil
	}
	var out []string
	for _, s := range []string{v.Rule.Text, v.Rule.English, v.Rule.Title} {
		said := s == ""
		for _, r := range v.Rounds { // a rule played again was revealed before
			said = said || strings.Contains(r.Rule+r.English+r.Title, s)
		}
		if !said {
			out = append(out, s)
		}
	}
	return out
}

// play drives a game: bots everywhere, except that a free rule's game
// master judges at random. Every state reached is handed to visit.
func play(t *testing.T, st engine.State, seed uint64, free bool, visit func(st engine.State, log []engine.Event)) {
	t.Helper()
	n := len(st.View(engine.Omniscient()).(wtr.View).Seats)
	bots := make([]engine.Bot, n)
	for i := range bots {
		bots[i], _ = wtr.Game{}.NewBot(engine.Seat(i), wtr.LevelStrong, seed+uint64(i))
	}
	rng := rand.New(rand.NewPCG(seed, 5))
	var log []engine.Event
	for step := 0; !st.Status().Finished && step < 600; step++ {
		visit(st, log)
		om := st.View(engine.Omniscient()).(wtr.View)
		var seat engine.Seat
		var a []byte
		switch {
		case om.Phase == wtr.Setup && free:
			seat, a = om.GM, wtr.FreeAction("zebra quartz rule "+fmt.Sprint(om.Round))
		case om.Mode == wtr.Free && (om.Phase == wtr.JudgePlay || om.Phase == wtr.JudgeGuess):
			seat, a = om.GM, wtr.JudgeAction(rng.IntN(2) == 0)
		case om.Mode == wtr.Free && om.Phase == wtr.JudgeReveal:
			seat, a = om.GM, wtr.NoFitAction()
		case om.Phase == wtr.Turn && step%9 == 4 && st.View(engine.SeatViewer(om.ToMove)).(wtr.View).CanPropose():
			seat, a = om.ToMove, wtr.ProposeHintsAction()
		case om.Phase == wtr.Turn && om.Mode == wtr.Free && step%7 == 3:
			seat, a = om.ToMove, wtr.RevealAction()
		default:
			for _, s := range st.Status().Active {
				if act, _ := bots[s].Act(st.View(engine.SeatViewer(s))); act != nil {
					seat, a = s, act
					break
				}
			}
		}
		if a == nil {
			t.Fatalf("step %d: nobody moves in %v", step, om.Phase)
		}
		evs, err := st.Apply(seat, a)
		if err != nil {
			t.Fatalf("step %d: %s by %d: %v", step, a, seat, err)
		}
		log = append(log, evs...)
	}
	visit(st, log)
}

// Every seat and a spectator, at 80×24 and in a narrow window, in every
// phase the bots reach: nothing drawn past the edges, and nobody but the
// game master ever sees the rule before the round ends.
func TestRenderFitsAndHidesTheRule(t *testing.T) {
	sizes := [][2]int{{80, 24}, {60, 16}, {120, 40}}
	phases := map[wtr.Phase]bool{}
	for g, n := range []int{3, 4, 6, 10} {
		for _, free := range []bool{false, true} {
			st := deal(t, n, uint64(10+g), engine.Options{"rounds": "2", "turn_time": "1m"})
			step := 0
			play(t, st, uint64(g), free, func(st engine.State, log []engine.Event) {
				step++
				om := st.View(engine.Omniscient()).(wtr.View)
				phases[om.Phase] = true
				if step%4 != 0 && (om.Phase == wtr.Turn || om.Phase == wtr.GuessOffer) {
					return
				}
				secrets := secretsOf(st)
				// The spectator, the game master, the player to move and one more.
				viewers := []engine.Viewer{engine.Spectator(), engine.SeatViewer(om.GM),
					engine.SeatViewer(om.ToMove), engine.SeatViewer(engine.Seat(step % n))}
				for k, v := range viewers {
					for _, sz := range [][2]int{sizes[0], sizes[1+(step+k)%2]} {
						b, out := render(st, v, log, sz[0], sz[1])
						checkFits(t, out, sz[0], sz[1], fmt.Sprintf("%d players, %v, viewer %+v", n, om.Phase, v))
						if v.IsSeat(om.GM) {
							b.Update(press("n"))
							checkFits(t, b.View(), sz[0], sz[1], "game master's notes")
							continue
						}
						// The log may quote old guesses that happen to be this
						// round's rule (the engine's tests cover events); look
						// at everything else the board draws.
						b, out = render(st, v, nil, sz[0], sz[1])
						// Open the notes too: they show finished rounds only.
						b.Update(press("n"))
						notes := b.View()
						checkFits(t, notes, sz[0], sz[1], "notes")
						for _, s := range secrets {
							if strings.Contains(out, s) || strings.Contains(notes, s) {
								t.Fatalf("viewer %+v sees the rule %q in %v:\n%s", v, s, om.Phase, out)
							}
						}
					}
				}
			})
		}
	}
	for _, p := range []wtr.Phase{wtr.Setup, wtr.Turn, wtr.GuessOffer, wtr.JudgePlay, wtr.JudgeGuess, wtr.JudgeReveal, wtr.HintVote, wtr.Finished} {
		if !phases[p] {
			t.Errorf("phase %v never rendered", p)
		}
	}
}

// The game master sees the rule card and the preview; a player does not.
func TestGameMasterRuleCard(t *testing.T) {
	st := deal(t, 4, 3, nil)
	gm := st.View(engine.Omniscient()).(wtr.View).GM
	if _, err := st.Apply(gm, wtr.RuleAction("if color == black then count <= 3 else count >= 4")); err != nil {
		t.Fatal(err)
	}
	_, out := render(st, engine.SeatViewer(gm), nil, 80, 24)
	if !strings.Contains(out, "Your rule") || !strings.Contains(out, "36 of 72") {
		t.Fatalf("game master's board lacks the rule card:\n%s", out)
	}
	_, out = render(st, engine.SeatViewer((gm+1)%4), nil, 80, 24)
	if strings.Contains(out, "Your rule") || strings.Contains(out, "count <= 3") {
		t.Fatalf("a player sees the rule:\n%s", out)
	}
}

// Keys: the game master writes a rule with a live preview and sends it; a
// player plays the selected card, reveals, guesses and votes.
func TestKeysMakeActions(t *testing.T) {
	st := deal(t, 3, 8, nil)
	gm := st.View(engine.Omniscient()).(wtr.View).GM
	b, _ := render(st, engine.SeatViewer(gm), nil, 80, 24)
	if a, _ := b.Update(press("w")); a != nil || !b.Capturing() {
		t.Fatal("w should open the rule entry")
	}
	typeText(b, "shape != circle")
	b.c.Width, b.c.Height = 80, 24
	out := b.View()
	if !strings.Contains(out, "48 of 72") || !strings.Contains(out, "✓") {
		t.Fatalf("no live preview:\n%s", out)
	}
	checkFits(t, out, 80, 24, "rule entry")
	typeText(b, " and")
	if a, _ := b.Update(press("enter")); a != nil || !strings.Contains(b.View(), "column") {
		t.Fatalf("a broken rule must be refused on the board:\n%s", b.View())
	}
	for range 4 {
		b.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	a, _ := b.Update(press("enter"))
	if string(a) != string(wtr.RuleAction("shape != circle")) {
		t.Fatalf("sent %s", a)
	}
	if _, err := st.Apply(gm, a); err != nil {
		t.Fatal(err)
	}
	p := st.Status().Active[0]
	b, _ = render(st, engine.SeatViewer(p), nil, 80, 24)
	hand := st.View(engine.SeatViewer(p)).(wtr.View).Hand
	b.Update(press("right"))
	a, _ = b.Update(press("enter"))
	if string(a) != string(wtr.PlayAction(hand[1].ID)) {
		t.Fatalf("enter sent %s, want the second card", a)
	}
	if a, _ := b.Update(press("r")); string(a) != string(wtr.RevealAction()) {
		t.Fatalf("r sent %s", a)
	}
	if a, _ := b.Update(press("i")); string(a) != string(wtr.ProposeHintsAction()) {
		t.Fatalf("i sent %s", a)
	}
	// Play the circle-free card, then guess.
	for _, c := range hand {
		if c.Shape != "circle" {
			if _, err := st.Apply(p, wtr.PlayAction(c.ID)); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	b.SetView(st.View(engine.SeatViewer(p)), context(st, engine.SeatViewer(p), nil, 80, 24))
	b.Update(press("g"))
	if !b.Capturing() {
		t.Fatal("g should open the guess entry")
	}
	typeText(b, "shape in {triangle, square}")
	if !strings.Contains(b.View(), "reads as") {
		t.Fatalf("guess entry gives no feedback:\n%s", b.View())
	}
	a, _ = b.Update(press("enter"))
	if string(a) != string(wtr.GuessAction("shape in {triangle, square}")) {
		t.Fatalf("guess sent %s", a)
	}
	// A spectator's keys do nothing.
	sb, _ := render(st, engine.Spectator(), nil, 80, 24)
	for _, k := range []string{"enter", "r", "g", "y", "w", "d"} {
		if a, _ := sb.Update(press(k)); a != nil {
			t.Fatalf("spectator key %s sent %s", k, a)
		}
	}
}

func TestLibraryBrowser(t *testing.T) {
	st := deal(t, 3, 8, nil)
	gm := st.View(engine.Omniscient()).(wtr.View).GM
	b, _ := render(st, engine.SeatViewer(gm), nil, 80, 24)
	b.Update(press("b"))
	if !b.Overlay() {
		t.Fatal("b should open the library")
	}
	b.Update(press("down"))
	b.Update(press("down"))
	out := b.View()
	checkFits(t, out, 80, 24, "library")
	if !strings.Contains(out, wtr.Library()[2].Title) {
		t.Fatalf("library lacks its rules:\n%s", out)
	}
	if a, _ := b.Update(press("enter")); string(a) != string(wtr.LibraryAction(2)) {
		t.Fatalf("sent %s", a)
	}
}

// Votes: y and n answer a hint proposal.
func TestHintVoteKeys(t *testing.T) {
	st := deal(t, 3, 8, nil)
	gm := st.View(engine.Omniscient()).(wtr.View).GM
	if _, err := st.Apply(gm, wtr.DrawAction(0)); err != nil {
		t.Fatal(err)
	}
	p := st.Status().Active[0]
	if _, err := st.Apply(p, wtr.ProposeHintsAction()); err != nil {
		t.Fatal(err)
	}
	b, out := render(st, engine.SeatViewer(gm), nil, 80, 24)
	if !strings.Contains(out, "proposes hints") {
		t.Fatalf("no vote prompt:\n%s", out)
	}
	if a, _ := b.Update(press("n")); string(a) != string(wtr.VoteAction(false)) {
		t.Fatalf("n sent %s", a)
	}
	if a, _ := b.Update(press("y")); string(a) != string(wtr.VoteAction(true)) {
		t.Fatalf("y sent %s", a)
	}
}

// The builder makes a rule from clauses without typing, with a preview.
func TestRuleBuilder(t *testing.T) {
	st := deal(t, 3, 8, nil)
	gm := st.View(engine.Omniscient()).(wtr.View).GM
	b, _ := render(st, engine.SeatViewer(gm), nil, 80, 24)
	b.Update(press("u"))
	if !b.Overlay() {
		t.Fatal("u should open the builder")
	}
	keys := func(ks ...string) {
		for _, k := range ks {
			if k == " " {
				b.Update(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
				continue
			}
			b.Update(press(k))
		}
	}
	// if: this card's color is black
	keys("i", "right", " ", " ", " ", "right", "right", " ")
	// then: count is at most 3
	keys("down", "left", "left", " ", "right", " ", " ", " ", "right", " ", " ")
	// otherwise: count is at least 4
	keys("o", "right", " ", "right", " ", " ", " ", " ", " ", "right", " ", " ", " ")
	out := b.View()
	checkFits(t, out, 80, 24, "builder")
	if !strings.Contains(out, "36 of 72") {
		t.Fatalf("builder has no preview:\n%s", out)
	}
	a, _ := b.Update(press("enter"))
	if want := wtr.RuleAction("if color == black then count <= 3 else count >= 4"); string(a) != string(want) {
		t.Fatalf("builder sent %s, want %s\n%s", a, want, out)
	}
	if _, err := st.Apply(gm, a); err != nil {
		t.Fatal(err)
	}
	// Removing every clause leaves nothing to send.
	b.Update(press("u"))
	b.bld = newBuilder(b.km.Builder)
	b.mode = modeBuilder
	keys("x")
	if a, _ := b.Update(press("enter")); a != nil || b.err == "" {
		t.Fatalf("an empty builder sent %s", a)
	}
}

// refresh hands the board the state's latest view for viewer v.
func refresh(b *Board, st engine.State, v engine.Viewer) {
	b.SetView(st.View(v), context(st, v, nil, 80, 24))
}

func apply(t *testing.T, st engine.State, seat engine.Seat, a []byte) {
	t.Helper()
	if _, err := st.Apply(seat, a); err != nil {
		t.Fatalf("%s by %d: %v", a, seat, err)
	}
}

// A free rule's game master judges plays and guesses with y and n, judges
// a shown hand with enter or n, and calls the round off with x twice.
func TestGameMasterJudgingKeys(t *testing.T) {
	st := deal(t, 3, 8, nil)
	gm := st.View(engine.Omniscient()).(wtr.View).GM
	gv := engine.SeatViewer(gm)
	b, _ := render(st, gv, nil, 80, 24)
	b.Update(press("f"))
	typeText(b, "only cards I like")
	a, _ := b.Update(press("enter"))
	if string(a) != string(wtr.FreeAction("only cards I like")) {
		t.Fatalf("free rule sent %s", a)
	}
	apply(t, st, gm, a)
	p := st.Status().Active[0]
	apply(t, st, p, wtr.PlayAction(st.View(engine.SeatViewer(p)).(wtr.View).Hand[0].ID))
	refresh(b, st, gv)
	if out := b.View(); !strings.Contains(out, "does") || !strings.Contains(out, "fit?") {
		t.Fatalf("no judging prompt:\n%s", out)
	}
	if a, _ := b.Update(press("y")); string(a) != string(wtr.JudgeAction(true)) {
		t.Fatalf("y sent %s", a)
	}
	apply(t, st, gm, wtr.JudgeAction(true))
	apply(t, st, p, wtr.NoGuessAction())
	p2 := st.Status().Active[0]
	apply(t, st, p2, wtr.RevealAction())
	refresh(b, st, gv)
	shown := st.View(gv).(wtr.View).Revealed
	b.Update(press("right"))
	if a, _ := b.Update(press("enter")); string(a) != string(wtr.LayAction(shown[1].ID)) {
		t.Fatalf("enter sent %s, want laying the second shown card", a)
	}
	if a, _ := b.Update(press("n")); string(a) != string(wtr.NoFitAction()) {
		t.Fatalf("n sent %s", a)
	}
	if a, _ := b.Update(press("x")); a != nil || !strings.Contains(b.View(), "x again") {
		t.Fatal("the first x asks for confirmation")
	}
	if a, _ := b.Update(press("x")); string(a) != string(wtr.CallOffAction()) {
		t.Fatalf("second x sent %s", a)
	}
	// A player's board shows the shown hand but offers no judging.
	pb, out := render(st, engine.SeatViewer(p), nil, 80, 24)
	if !strings.Contains(out, "shows") {
		t.Fatalf("the shown hand is not on the table:\n%s", out)
	}
	for _, k := range []string{"y", "n", "enter", "x"} {
		if a, _ := pb.Update(press(k)); a != nil && k != "n" {
			t.Fatalf("player key %s sent %s", k, a)
		}
	}
}

// Hints on a machine rule: announce with a, then enter for a graded hint or
// t to type one; the notes list hints and finished rounds.
func TestHintKeysAndNotes(t *testing.T) {
	st := deal(t, 3, 8, nil)
	gm := st.View(engine.Omniscient()).(wtr.View).GM
	gv := engine.SeatViewer(gm)
	apply(t, st, gm, wtr.RuleAction("color == white"))
	p := st.Status().Active[0]
	apply(t, st, p, wtr.ProposeHintsAction())
	for _, s := range st.Status().Active {
		apply(t, st, s, wtr.VoteAction(true))
	}
	b, _ := render(st, gv, nil, 80, 24)
	if a, _ := b.Update(press("a")); string(a) != string(wtr.AnnounceAction()) {
		t.Fatalf("a sent %s", a)
	}
	apply(t, st, gm, wtr.AnnounceAction())
	for _, s := range st.Status().Active {
		apply(t, st, s, wtr.VoteAction(true))
	}
	refresh(b, st, gv)
	if a, _ := b.Update(press("enter")); string(a) != string(wtr.AutoHintAction()) {
		t.Fatalf("enter sent %s", a)
	}
	b.Update(press("t"))
	typeText(b, "think of snow")
	a, _ := b.Update(press("enter"))
	if string(a) != string(wtr.HintAction("think of snow")) {
		t.Fatalf("typed hint sent %s", a)
	}
	apply(t, st, gm, a)
	pb, out := render(st, engine.SeatViewer(p), nil, 80, 24)
	if !strings.Contains(out, "think of snow") {
		t.Fatalf("the hint is not shown:\n%s", out)
	}
	pb.Update(press("n"))
	if !pb.Overlay() || !strings.Contains(pb.View(), "hint 1: think of snow") {
		t.Fatalf("notes lack the hint:\n%s", pb.View())
	}
	pb.Update(press("esc"))
	if pb.Overlay() {
		t.Fatal("esc should close the notes")
	}
	if len(pb.ShortHelp()) == 0 || len(pb.FullHelp()) == 0 {
		t.Fatal("no help")
	}
}

// Ten players all show in the seat lines, even at 60 columns.
func TestTenSeatsShow(t *testing.T) {
	st := deal(t, 10, 2, nil)
	for _, w := range []int{60, 80} {
		_, out := render(st, engine.Spectator(), nil, w, 24)
		checkFits(t, out, w, 24, "ten seats")
		for _, n := range names {
			if !strings.Contains(out, n) {
				t.Fatalf("%s is missing at width %d:\n%s", n, w, out)
			}
		}
	}
}

// TestFramedCardsAndTheirCompactFallback: a player's hand is drawn as
// framed cards where the board has room (useFramed: by size and seats), as
// one line of codes where it has not; either way, without colour, every
// card's face (count, shape solid or open, colour letter) is on the hand's
// line, in the engine's order, and the selected one is marked (a heavy
// frame, or brackets).
func TestFramedCardsAndTheirCompactFallback(t *testing.T) {
	st, _ := midRound(t, 3, nil) // six players, a machine rule, a player to move
	om := st.View(engine.Omniscient()).(wtr.View)
	seat := om.ToMove
	hand := om.Hands[seat]
	for _, c := range []struct {
		w, h   int
		framed bool
	}{{80, 24, true}, {120, 40, true}, {62, 24, false}, {80, 15, false}} {
		b, _ := render(st, engine.SeatViewer(seat), nil, c.w, c.h)
		b.Update(press("right"))
		out := ansi.Strip(b.View())
		checkFits(t, out, c.w, c.h, "hand")
		lines := strings.Split(out, "\n")
		row := -1
		for i, l := range lines {
			if strings.Contains(l, "Your hand") {
				row = i
			}
		}
		if row < 0 {
			t.Fatalf("%d×%d: no hand:\n%s", c.w, c.h, out)
		}
		line := lines[row]
		var want strings.Builder
		for i, card := range hand {
			face := strconv.Itoa(card.Count) + glyph(card) + string(card.Color[0])
			switch {
			case i == 1 && c.framed:
				face = "┃" + face + "┃"
			case i == 1:
				face = "[" + face + "]"
			case c.framed:
				face = "│" + face + "│"
			default:
				face = " " + face + " "
			}
			want.WriteString(face)
		}
		// The space after a row's last card is dropped (cardRow).
		if w := strings.TrimRight(want.String(), " "); !strings.Contains(line, w) {
			t.Errorf("%d×%d: hand line %q lacks %q", c.w, c.h, line, w)
		}
		framed := row > 0 && row+1 < len(lines) && strings.Contains(lines[row-1], "╭───╮┏━━━┓") && strings.Contains(lines[row+1], "╰───╯┗━━━┛")
		if framed != c.framed {
			t.Errorf("%d×%d: framed %v, want %v:\n%s", c.w, c.h, framed, c.framed, out)
		}
	}
}

// TestUseFramedRule pins where hands are framed: at 80×24 for every number
// of seats, not at 60 columns nor under 16 lines, and by size and seats
// only.
func TestUseFramedRule(t *testing.T) {
	for seats := 2; seats <= 10; seats++ {
		if !useFramed(80, 24, seats) {
			t.Errorf("%d seats at 80×24: not framed", seats)
		}
		if useFramed(60, 24, seats) || useFramed(80, 15, seats) {
			t.Errorf("%d seats: framed at 60×24 or 80×15", seats)
		}
	}
	if !useFramed(framedMinWidth, 16, 4) || useFramed(framedMinWidth-1, 16, 4) || useFramed(framedMinWidth, 16, 5) {
		t.Errorf("the rule's edges moved: width %d, 16 lines for four seats", framedMinWidth)
	}
}

// moveKeys are every key a seat in play might use to make or compose a
// move on this board (n, the round notes, is left out: anyone may read them).
var moveKeys = []string{"enter", "left", "right", "down", "1", "2", "p", "r", "i", "y", "a", "w", "u", "f", "b", "d", "x", "t", "g", "tab", " "}

// TestWatchersAndFinishedGamesTakeNoMoves: a spectator in every phase the
// bots reach, and every seat once the game is over, is offered no move key
// on the key bar and no key of theirs makes a move, opens an entry or moves a
// cursor over cards that cannot be played.
func TestWatchersAndFinishedGamesTakeNoMoves(t *testing.T) {
	for _, free := range []bool{false, true} {
		st := deal(t, 3, 21, nil)
		check := func(st engine.State, log []engine.Event, v engine.Viewer, what string) {
			b, out := render(st, v, log, 80, 24)
			for _, k := range b.ShortHelp() {
				if h := k.Help(); h.Key != "n" {
					t.Fatalf("%s: the key bar offers %q %q:\n%s", what, h.Key, h.Desc, out)
				}
			}
			for _, k := range moveKeys {
				if a, _ := b.Update(press(k)); a != nil || b.Capturing() || b.Overlay() {
					t.Fatalf("%s: %q made %s (entry open %v, overlay %v)", what, k, a, b.Capturing(), b.Overlay())
				}
			}
			if after := b.View(); after != out {
				t.Fatalf("%s: the move keys changed the board:\n%s\nto\n%s", what, out, after)
			}
		}
		play(t, st, 21, free, func(st engine.State, log []engine.Event) {
			om := st.View(engine.Omniscient()).(wtr.View)
			check(st, log, engine.Spectator(), fmt.Sprintf("spectator in %v", om.Phase))
			if st.Status().Finished {
				for s := range engine.Seat(3) {
					check(st, log, engine.SeatViewer(s), fmt.Sprintf("seat %d after the end", s))
				}
			}
		})
	}
}

// TestLongHandWrapsInsteadOfBeingCut: a hand grows past the ten cards
// dealt (each card that does not fit draws one), and a row wider than the
// board was cut at its edge: at 60 columns the tenth card read "4■…", its
// colour hidden, and at 80 columns a framed hand of fourteen lost its last
// cards. The cards now go on as many rows as they need.
func TestLongHandWrapsInsteadOfBeingCut(t *testing.T) {
	st, _ := midRound(t, 3, nil)
	om := st.View(engine.Omniscient()).(wtr.View)
	seat := om.ToMove
	for _, c := range []struct{ w, h, n int }{{60, 20, 10}, {80, 24, 14}, {120, 40, 25}} {
		v := st.View(engine.SeatViewer(seat)).(wtr.View)
		for len(v.Hand) < c.n {
			v.Hand = append(v.Hand, v.Hand[len(v.Hand)%len(v.Hand)])
		}
		b := New(new(plainStyles()), new(testKeys()))
		b.SetView(v, context(st, engine.SeatViewer(seat), nil, c.w, c.h))
		for range c.n - 1 {
			b.Update(press("right")) // the last card chosen: drawn in brackets or a heavy frame
		}
		out := ansi.Strip(b.View())
		checkFits(t, out, c.w, c.h, "long hand")
		var faces strings.Builder
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "Your hand") || strings.HasPrefix(l, "           ") {
				if strings.Contains(l, "…") {
					t.Errorf("%d×%d: a hand row is cut: %q", c.w, c.h, l)
				}
				faces.WriteString(l)
			}
		}
		got := faces.String()
		for i, card := range v.Hand {
			face := strconv.Itoa(card.Count) + glyph(card) + string(card.Color[0])
			if strings.Count(got, face) < countFace(v.Hand[:i+1], face) {
				t.Errorf("%d×%d: card %d (%s) of %d is not shown whole:\n%s", c.w, c.h, i+1, face, c.n, out)
				break
			}
		}
	}
}

// countFace is how many of cards show face.
func countFace(cards []wtr.Card, face string) int {
	n := 0
	for _, c := range cards {
		if strconv.Itoa(c.Count)+glyph(c)+string(c.Color[0]) == face {
			n++
		}
	}
	return n
}
