package coding

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	cg "github.com/codebreakers/codebreakers/engine/coding"
	"github.com/codebreakers/codebreakers/tui/board"
	"github.com/codebreakers/codebreakers/tui/board/boardtest"
)

var names = []string{"mara", "Bo", "Kai", "Ana"}

// testKeys are the session's keys for this board (tui/keys.go).
func testKeys() KeyMap {
	b := func(k, help string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, help)) }
	return KeyMap{Keys: boardtest.Keys(), Tap: b("t", "tap"), Vote: b("v", "vote for data"), Stop: b("s", "stop")}
}

func plainStyles() board.Styles {
	s := lipgloss.NewStyle()
	return board.Styles{Heading: s, Strong: s, Dim: s, Selected: s, Error: s, Good: s}
}

// game is a live game with its full log, for driving and rendering.
type game struct {
	t   testing.TB
	st  engine.State
	log []engine.Event
}

func newGame(t testing.TB, n int, seed uint64, system string) *game {
	t.Helper()
	st, _, err := engine.Start(cg.Game{}, engine.Options{"system": system}, players(n), seed)
	if err != nil {
		t.Fatal(err)
	}
	return &game{t: t, st: st}
}

func players(n int) []engine.Player {
	ps := make([]engine.Player, n)
	for i := range n {
		ps[i] = engine.Player{Name: names[i]}
	}
	return ps
}

func (g *game) omni() cg.View { return g.st.View(engine.Omniscient()).(cg.View) }

func (g *game) view(s engine.Seat) cg.View { return g.st.View(engine.SeatViewer(s)).(cg.View) }

func (g *game) apply(s engine.Seat, a []byte) {
	g.t.Helper()
	evs, err := g.st.Apply(s, a)
	if err != nil {
		g.t.Fatalf("seat %d %s: %v", s, a, err)
	}
	g.log = append(g.log, evs...)
}

// botsUntil lets bots move until done says stop (bounded).
func (g *game) botsUntil(done func(cg.View) bool) {
	g.t.Helper()
	for range 400 {
		v := g.omni()
		if done(v) {
			return
		}
		if len(v.Active) == 0 {
			g.t.Fatalf("no one to move in phase %v", v.Phase)
		}
		s := v.Active[0]
		bot := &cg.Bot{Seat: s, Level: cg.LevelEasy, Seed: 7}
		a, err := bot.Act(g.view(s))
		if err != nil || a == nil {
			g.t.Fatalf("bot seat %d in %v: %s %v", s, v.Phase, a, err)
		}
		g.apply(s, a)
	}
	g.t.Fatalf("phase not reached; at %v", g.omni().Phase)
}

func phaseIs(p cg.Phase) func(cg.View) bool { return func(v cg.View) bool { return v.Phase == p } }

// wrongCode is a code that is not target's.
func (g *game) wrongCode(target engine.Seat) cg.Code {
	c := g.omni().Seats[target]
	w := cg.Code{Letter: c.Known[0], X1: c.Known[1], X2: c.Known[2]}
	w.Letter = (w.Letter + 1) % cg.Letters
	return w
}

func (g *game) code(s engine.Seat) cg.Code {
	k := g.omni().Seats[s].Known
	return cg.Code{Letter: k[0], X1: k[1], X2: k[2]}
}

func (g *game) board(viewer engine.Viewer, w, h int) *Board {
	b := New(new(plainStyles()), new(testKeys()))
	g.refresh(b, viewer, w, h)
	return b
}

func (g *game) refresh(b *Board, viewer engine.Viewer, w, h int) {
	v := g.st.View(viewer).(cg.View)
	b.SetView(v, board.Context{Viewer: viewer, Names: names[:len(v.Seats)], Status: g.st.Status(),
		Log: engine.FilterEvents(g.log, viewer), Width: w, Height: h})
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg(tea.Key{Code: tea.KeyEnter})
	case "esc":
		return tea.KeyPressMsg(tea.Key{Code: tea.KeyEscape})
	case "up":
		return tea.KeyPressMsg(tea.Key{Code: tea.KeyUp})
	case "down":
		return tea.KeyPressMsg(tea.Key{Code: tea.KeyDown})
	case "left":
		return tea.KeyPressMsg(tea.Key{Code: tea.KeyLeft})
	case "right":
		return tea.KeyPressMsg(tea.Key{Code: tea.KeyRight})
	case "backspace":
		return tea.KeyPressMsg(tea.Key{Code: tea.KeyBackspace})
	}
	return tea.KeyPressMsg(tea.Key{Code: []rune(k)[0], Text: k})
}

// press sends keys (a key of several letters that is not a named key is
// typed letter by letter) and returns the last action produced.
func press(b *Board, keys ...string) []byte {
	var last []byte
	for _, k := range keys {
		ks := []string{k}
		switch k {
		case "enter", "esc", "up", "down", "left", "right", "backspace":
		default:
			ks = strings.Split(k, "")
		}
		for _, one := range ks {
			if a, _ := b.Update(keyMsg(one)); a != nil {
				last = a
			}
		}
	}
	return last
}

// scenario is a game brought to one phase.
type scenario struct {
	name string
	g    *game
}

func scenarios(t *testing.T, n int) []scenario {
	t.Helper()
	var out []scenario
	seed := uint64(10 + n)

	setup := newGame(t, n, seed, cg.SystemSpeed)
	// One seat has set its code, the others have not.
	setup.apply(0, cg.OrderAction(setup.view(0).Code.X2))
	out = append(out, scenario{"setup", setup})

	rounds := newGame(t, n, seed, cg.SystemSpeed)
	rounds.botsUntil(func(v cg.View) bool { return v.Phase == cg.Rounds && v.Round == 3 })
	out = append(out, scenario{"rounds", rounds})

	race := newGame(t, n, seed, cg.SystemSpeed)
	race.botsUntil(phaseIs(cg.Race))
	race.apply(1, cg.VoteAction())
	out = append(out, scenario{"race", race})

	answer := newGame(t, n, seed, cg.SystemSpeed)
	answer.botsUntil(phaseIs(cg.Race))
	answer.apply(1, cg.TapAction())
	out = append(out, scenario{"answer", answer})

	// A wrong answer puts seat 1 out with its code shown; the race goes on
	// (with 2 players the game ends: that is the finished screen).
	knocked := newGame(t, n, seed, cg.SystemSpeed)
	knocked.botsUntil(phaseIs(cg.Race))
	knocked.apply(1, cg.TapAction())
	knocked.apply(1, cg.DecodeAction(0, knocked.wrongCode(0)))
	out = append(out, scenario{"race after a knock-out", knocked})

	revealX := newGame(t, n, seed, cg.SystemSpeed)
	revealX.botsUntil(phaseIs(cg.Race))
	for revealX.omni().Phase == cg.Race {
		for _, s := range revealX.omni().Active {
			if revealX.omni().Phase == cg.Race && !revealX.omni().Seats[s].Voted {
				revealX.apply(s, cg.VoteAction())
			}
		}
	}
	out = append(out, scenario{"reveal X", revealX})

	counter := newGame(t, n, seed, cg.SystemCounter)
	counter.botsUntil(phaseIs(cg.Counter))
	out = append(out, scenario{"counter", counter})

	revealOne := newGame(t, n, seed, cg.SystemCounter)
	revealOne.botsUntil(phaseIs(cg.Counter))
	s := revealOne.omni().ToMove
	target := (s + 1) % engine.Seat(n)
	revealOne.apply(s, cg.DecodeAction(target, revealOne.wrongCode(target)))
	out = append(out, scenario{"reveal one", revealOne})
	return out
}

var sizes = [][2]int{{80, 24}, {80, 20}, {60, 20}, {60, 16}, {48, 16}}

// TestBoardFits renders every seat's and a spectator's board in every
// phase, for 2, 3 and 4 players, and checks it fits the window.
func TestBoardFits(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		for _, sc := range scenarios(t, n) {
			viewers := []engine.Viewer{engine.Spectator()}
			for s := range n {
				viewers = append(viewers, engine.SeatViewer(engine.Seat(s)))
			}
			for _, viewer := range viewers {
				for _, sz := range sizes {
					b := sc.g.board(viewer, sz[0], sz[1])
					checkFits(t, fmt.Sprintf("%dp %s viewer %+v %v", n, sc.name, viewer, sz), b.View(), sz[0], sz[1])
					// The decode entry and the details panel fit too.
					if b.canDecode() || b.canTap() {
						press(b, "g")
						checkFits(t, fmt.Sprintf("%dp %s entry %v", n, sc.name, sz), b.View(), sz[0], sz[1])
						press(b, "esc")
					}
					press(b, "n")
					checkFits(t, fmt.Sprintf("%dp %s details %v", n, sc.name, sz), b.View(), sz[0], sz[1])
				}
			}
		}
	}
}

func checkFits(t *testing.T, what, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) > h {
		t.Fatalf("%s: %d lines, more than %d:\n%s", what, len(lines), h, ansi.Strip(out))
	}
	for _, l := range lines {
		if lw := lipgloss.Width(l); lw > w {
			t.Fatalf("%s: line %d cells wide, more than %d: %q", what, lw, w, ansi.Strip(l))
		}
	}
}

// TestTurnAndWaitingAreShown: the seat to move is told so, the others are
// told whom they wait for.
func TestTurnAndWaitingAreShown(t *testing.T) {
	g := newGame(t, 3, 4, cg.SystemSpeed)
	g.botsUntil(phaseIs(cg.Rounds))
	mover := g.omni().ToMove
	out := ansi.Strip(g.board(engine.SeatViewer(mover), 80, 20).View())
	if !strings.Contains(out, "Your move") || !strings.Contains(out, "Hack card") {
		t.Fatalf("mover not told to move:\n%s", out)
	}
	other := (mover + 1) % 3
	out = ansi.Strip(g.board(engine.SeatViewer(other), 80, 20).View())
	if !strings.Contains(out, "Waiting for "+names[mover]) {
		t.Fatalf("waiting seat not told for whom:\n%s", out)
	}
	out = ansi.Strip(g.board(engine.Spectator(), 80, 20).View())
	if !strings.Contains(out, "Waiting for "+names[mover]) {
		t.Fatalf("spectator not told whose move:\n%s", out)
	}
}

// codeCells reads a code off the board: one line ("[E 9˙ ?]") or the
// viewer's framed cards ("│ E │ │ 9˙│ │ 2 │").
var codeCells = regexp.MustCompile(`\[([A-F?])˙? ([0-9?])˙? ([0-9?])˙?\]|│ ([A-F])[˙ ]│ │ ([0-9])[˙ ]│ │ ([0-9])[˙ ]│`)

// cellsOf is the three values a codeCells match read, space-separated.
func cellsOf(m []string) string {
	if m[1] == "" {
		return strings.Join(m[4:7], " ")
	}
	return strings.Join(m[1:4], " ")
}

// wantCells is how a seat's code must be drawn for a viewer.
func wantCells(g *game, viewer engine.Viewer, s engine.Seat) string {
	omni := g.omni().Seats[s]
	var parts []string
	for p := range 3 {
		if viewer.IsSeat(s) || omni.Revealed[p] {
			parts = append(parts, cg.ValueName(p, omni.Known[p]))
		} else {
			parts = append(parts, "?")
		}
	}
	return strings.Join(parts, " ")
}

// TestHiddenCodesStayHidden: in every phase each seat's board draws its own
// code and, of the others, only the cards turned face up; a spectator's
// board draws only face-up cards. A hidden code never appears anywhere on
// the board, the details panel included.
func TestHiddenCodesStayHidden(t *testing.T) {
	for _, n := range []int{2, 4} {
		for _, sc := range scenarios(t, n) {
			g := sc.g
			viewers := []engine.Viewer{engine.Spectator()}
			for s := range n {
				viewers = append(viewers, engine.SeatViewer(engine.Seat(s)))
			}
			for _, viewer := range viewers {
				b := g.board(viewer, 100, 40)
				out := ansi.Strip(b.View())
				press(b, "n")
				details := ansi.Strip(b.View())
				for _, text := range []string{out, details} {
					got := codeCells.FindAllStringSubmatch(text, -1)
					if len(got) != n {
						t.Fatalf("%dp %s %+v: %d code rows, want %d:\n%s", n, sc.name, viewer, len(got), n, text)
					}
					for s := range n {
						have := cellsOf(got[s])
						if want := wantCells(g, viewer, engine.Seat(s)); have != want {
							t.Fatalf("%dp %s %+v: seat %d drawn [%s], want [%s]:\n%s", n, sc.name, viewer, s, have, want, text)
						}
					}
					// The crack sheet may name a few possible codes, the
					// hidden one among them: those come from the viewer's
					// own view (engine tests hold them to that).
					for _, sv := range b.v.Seats {
						if len(sv.Possible) > 0 {
							text = strings.ReplaceAll(text, b.sheetText(sv), "")
						}
					}
					for s := range n {
						seat := engine.Seat(s)
						if viewer.IsSeat(seat) || g.omni().Seats[s].Revealed == [3]bool{true, true, true} {
							continue
						}
						c := g.code(seat)
						for _, form := range []string{c.String(), spaced(c)} {
							if strings.Contains(text, form) {
								t.Fatalf("%dp %s %+v: hidden code %s of seat %d drawn:\n%s", n, sc.name, viewer, form, s, text)
							}
						}
					}
				}
			}
		}
	}
}

// TestReplayShowsEveryCode: an omniscient replay draws every code.
func TestReplayShowsEveryCode(t *testing.T) {
	g := newGame(t, 3, 2, cg.SystemSpeed)
	g.botsUntil(phaseIs(cg.Rounds))
	b := New(new(plainStyles()), new(testKeys()))
	v := g.omni()
	b.SetView(v, board.Context{Viewer: engine.Omniscient(), Replay: true, Width: 80, Height: 20})
	out := ansi.Strip(b.View())
	for s := range 3 {
		if !strings.Contains(out, "["+spaced(g.code(engine.Seat(s)))+"]") {
			t.Fatalf("replay hides seat %d:\n%s", s, out)
		}
	}
	if a := press(b, "enter", "t", "v", "g", "1"); a != nil {
		t.Fatalf("replay produced an action %s", a)
	}
}

func TestOrderDigits(t *testing.T) {
	g := newGame(t, 2, 3, cg.SystemSpeed)
	c := *g.view(1).Code
	b := g.board(engine.SeatViewer(1), 80, 20)
	if out := ansi.Strip(b.View()); !strings.Contains(out, spaced(c)) || !strings.Contains(out, fmt.Sprintf("%02d", c.X2*10+c.X1)) {
		t.Fatalf("both orders not offered:\n%s", out)
	}
	if a := press(b, "down", "enter"); !bytes.Equal(a, cg.OrderAction(c.X2)) {
		t.Fatalf("swap sent %s, want %s", a, cg.OrderAction(c.X2))
	}
	if a := press(b, "1", "enter"); !bytes.Equal(a, cg.OrderAction(c.X1)) {
		t.Fatalf("keep sent %s", a)
	}
	g.apply(1, press(b, "2", "enter"))
	g.refresh(b, engine.SeatViewer(1), 80, 20)
	if out := ansi.Strip(b.View()); !strings.Contains(out, "Waiting for mara") {
		t.Fatalf("no waiting line after setting the code:\n%s", out)
	}
	if a := press(b, "enter"); a != nil {
		t.Fatalf("second order sent %s", a)
	}
}

// TestHackingTurn composes a turn with the arrows and number keys, checks
// the encoded action and that the engine accepts it: in the compact
// composer (columns: ←/→ column, ↑/↓ choose) and the framed one (rows:
// ↑/↓ row, ←/→ choose).
func TestHackingTurn(t *testing.T) {
	for _, sz := range []struct {
		w, h                  int
		framed                bool
		across, back, forward string // to the next column or row, to the first, along one
	}{{60, 20, false, "right", "left", "down"}, {120, 40, true, "down", "up", "right"}} {
		for _, n := range []int{2, 3, 4} {
			testHackingTurn(t, n, sz.w, sz.h, sz.framed, sz.across, sz.back, sz.forward)
		}
	}
}

func testHackingTurn(t *testing.T, n, w, h int, framed bool, across, back, forward string) {
	t.Helper()
	g := newGame(t, n, 21, cg.SystemSpeed)
	g.botsUntil(func(v cg.View) bool { return v.Phase == cg.Rounds && v.Round == 2 })
	me := g.omni().ToMove
	v := g.view(me)
	b := g.board(engine.SeatViewer(me), w, h)
	if out := ansi.Strip(b.View()); strings.Contains(out, "┗━━━━━┛") != framed {
		t.Fatalf("%dp %d×%d: framed composer %v, want %v:\n%s", n, w, h, !framed, framed, out)
	}
	// Last Data card, third Hack card, last recipient.
	a := press(b, back, back)
	for range len(v.Takeable) {
		press(b, forward)
	}
	press(b, "3")
	if len(v.Recipients) > 1 {
		press(b, across)
		for range len(v.Recipients) {
			press(b, forward)
		}
	}
	a = press(b, "enter")
	data := -1
	if len(v.Takeable) > 0 {
		data = v.Takeable[len(v.Takeable)-1]
	}
	want := cg.PlayAction(data, v.HackLine[2], v.Recipients[len(v.Recipients)-1])
	if !bytes.Equal(a, want) {
		t.Fatalf("%dp %d×%d: sent %s, want %s (takeable %v, line %v, to %v)\n%s", n, w, h, a, want, v.Takeable, v.HackLine, v.Recipients, ansi.Strip(b.View()))
	}
	g.apply(me, a)
	// Out of turn: enter explains instead of sending.
	g.refresh(b, engine.SeatViewer(me), w, h)
	if g.omni().ToMove != me {
		if a := press(b, "enter"); a != nil {
			t.Fatalf("sent out of turn: %s", a)
		}
		if !strings.Contains(ansi.Strip(b.View()), "wait for them") {
			t.Fatalf("no explanation:\n%s", ansi.Strip(b.View()))
		}
	}
}

func TestSpectatorCannotAct(t *testing.T) {
	for _, sc := range scenarios(t, 3) {
		b := sc.g.board(engine.Spectator(), 80, 20)
		if a := press(b, "enter", "t", "v", "s", "1", "down", "enter", "g", "A12", "enter"); a != nil {
			t.Fatalf("%s: spectator sent %s", sc.name, a)
		}
		if b.Capturing() {
			t.Fatalf("%s: spectator opened the entry", sc.name)
		}
	}
}

func TestRaceTapVoteAndAnswer(t *testing.T) {
	g := newGame(t, 3, 8, cg.SystemSpeed)
	g.botsUntil(phaseIs(cg.Race))
	b := g.board(engine.SeatViewer(2), 80, 20)
	out := ansi.Strip(b.View())
	if !strings.Contains(out, "tap (t)") || !strings.Contains(out, "vote (v)") {
		t.Fatalf("race prompt missing:\n%s", out)
	}
	if a := press(b, "v"); !bytes.Equal(a, cg.VoteAction()) {
		t.Fatalf("vote sent %s", a)
	}
	g.apply(2, cg.VoteAction())
	g.refresh(b, engine.SeatViewer(2), 80, 20)
	if a := press(b, "v"); a != nil {
		t.Fatalf("second vote sent %s", a)
	}
	if out := ansi.Strip(b.View()); !strings.Contains(out, "1 of 3") || !strings.Contains(out, "voted") {
		t.Fatalf("vote not shown:\n%s", out)
	}
	if a := press(b, "t"); !bytes.Equal(a, cg.TapAction()) {
		t.Fatalf("tap sent %s", a)
	}
	g.apply(2, cg.TapAction())
	g.refresh(b, engine.SeatViewer(2), 80, 20)
	if !b.Capturing() {
		t.Fatalf("answer entry did not open for the claimant:\n%s", ansi.Strip(b.View()))
	}
	if out := ansi.Strip(b.View()); !strings.Contains(out, "30 s") {
		t.Fatalf("answer window not shown:\n%s", out)
	}
	b.SetTimeLeft(12 * time.Second)
	if out := ansi.Strip(b.View()); !strings.Contains(out, "12 s left") {
		t.Fatalf("time left not shown:\n%s", out)
	}
	// Others see whom they wait for.
	other := g.board(engine.SeatViewer(0), 80, 20)
	if out := ansi.Strip(other.View()); !strings.Contains(out, "Waiting for Kai to name a code") {
		t.Fatalf("no waiting line:\n%s", out)
	}
	if a := press(other, "t"); a != nil {
		t.Fatalf("tap while another answers sent %s", a)
	}
	// A malformed code is refused with a sentence; the second target is chosen with ↓.
	if a := press(b, "Z12", "enter"); a != nil || !strings.Contains(ansi.Strip(b.View()), "letter A–F") {
		t.Fatalf("bad code: sent %s\n%s", a, ansi.Strip(b.View()))
	}
	b.input.SetValue("")
	want := g.code(1)
	a := press(b, "down", strings.ToLower(want.String()), "enter")
	if !bytes.Equal(a, cg.DecodeAction(1, want)) {
		t.Fatalf("answer sent %s, want %s", a, cg.DecodeAction(1, want))
	}
	g.apply(2, a)
	if v := g.omni(); v.Phase != cg.Finished || !v.Result.Won(2) {
		t.Fatalf("right answer did not win: %+v", v.Result)
	}
	g.refresh(b, engine.SeatViewer(2), 80, 20)
	if out := ansi.Strip(b.View()); !strings.Contains(out, "wins") || !strings.Contains(out, "★ won") {
		t.Fatalf("result not shown:\n%s", out)
	}
}

// TestReadyAnswerThenTap: typing the answer first makes enter tap, and
// enter again send it once the claim is ours.
func TestReadyAnswerThenTap(t *testing.T) {
	g := newGame(t, 2, 5, cg.SystemSpeed)
	g.botsUntil(phaseIs(cg.Race))
	b := g.board(engine.SeatViewer(0), 60, 16)
	want := g.code(1)
	if a := press(b, "g", want.String(), "enter"); !bytes.Equal(a, cg.TapAction()) {
		t.Fatalf("ready answer: enter sent %s, want a tap", a)
	}
	g.apply(0, cg.TapAction())
	g.refresh(b, engine.SeatViewer(0), 60, 16)
	if a := press(b, "enter"); !bytes.Equal(a, cg.DecodeAction(1, want)) {
		t.Fatalf("answer sent %s", a)
	}
}

func TestRevealX(t *testing.T) {
	g := newGame(t, 2, 6, cg.SystemSpeed)
	g.botsUntil(phaseIs(cg.Race))
	for g.omni().Phase == cg.Race {
		for _, s := range g.omni().Active {
			if g.omni().Phase == cg.Race && !g.omni().Seats[s].Voted {
				g.apply(s, cg.VoteAction())
			}
		}
	}
	b := g.board(engine.SeatViewer(0), 80, 20)
	if a := press(b, "2", "enter"); !bytes.Equal(a, cg.RevealAction(cg.PosX2)) {
		t.Fatalf("X reveal sent %s", a)
	}
	g.apply(0, cg.RevealAction(cg.PosX2))
	g.refresh(b, engine.SeatViewer(0), 80, 20)
	if out := ansi.Strip(b.View()); !strings.Contains(out, "You will show your X2") || !strings.Contains(out, "Waiting for Bo") {
		t.Fatalf("choice not confirmed:\n%s", out)
	}
}

func TestCounterDecodeRevealStop(t *testing.T) {
	g := newGame(t, 3, 9, cg.SystemCounter)
	g.botsUntil(phaseIs(cg.Counter))
	me := g.omni().ToMove
	b := g.board(engine.SeatViewer(me), 80, 20)
	ts := b.targets()
	// A wrong decode of the first target…
	wrong := g.wrongCode(ts[0])
	a := press(b, "g", wrong.String(), "enter")
	if !bytes.Equal(a, cg.DecodeAction(ts[0], wrong)) {
		t.Fatalf("decode sent %s", a)
	}
	if b.Capturing() {
		t.Fatal("entry still open after sending")
	}
	g.apply(me, a)
	g.refresh(b, engine.SeatViewer(me), 80, 20)
	// …makes the decoder show a card: the second of the hidden three.
	if out := ansi.Strip(b.View()); !strings.Contains(out, "Turn one card face up") {
		t.Fatalf("no reveal choice:\n%s", out)
	}
	if a := press(b, "down", "enter"); !bytes.Equal(a, cg.RevealAction(cg.PosX1)) {
		t.Fatalf("reveal sent %s", a)
	}
	g.apply(me, cg.RevealAction(cg.PosX1))
	g.refresh(b, engine.SeatViewer(me), 80, 20)
	if out := ansi.Strip(b.View()); !strings.Contains(out, cg.ValueName(1, g.code(me).X1)+"˙") {
		t.Fatalf("shown card not marked on own code:\n%s", out)
	}
	// Later, a right decode lets the decoder stop.
	for range 20 {
		if g.omni().ToMove == me {
			break
		}
		g.botsUntil(func(v cg.View) bool { return v.ToMove == me || v.Phase != cg.Counter })
	}
	if g.omni().Phase != cg.Counter || g.omni().ToMove != me {
		t.Skip("the game moved on before the seat's turn came back")
	}
	g.refresh(b, engine.SeatViewer(me), 80, 20)
	target := b.targets()[0]
	g.apply(me, press(b, "g", g.code(target).String(), "enter"))
	g.refresh(b, engine.SeatViewer(me), 80, 20)
	if g.omni().Phase == cg.Finished {
		return
	}
	if out := ansi.Strip(b.View()); !strings.Contains(out, "stop (s)") {
		t.Fatalf("stop not offered:\n%s", out)
	}
	if a := press(b, "s"); !bytes.Equal(a, cg.StopAction()) {
		t.Fatalf("stop sent %s", a)
	}
}

// TestShortHelpMatchesMoves: the key bar lists only keys that work now.
func TestShortHelpMatchesMoves(t *testing.T) {
	g := newGame(t, 2, 3, cg.SystemSpeed)
	g.botsUntil(phaseIs(cg.Race))
	help := func(b *Board) []string {
		var ks []string
		for _, k := range b.ShortHelp() {
			ks = append(ks, k.Help().Key)
		}
		return ks
	}
	if ks := help(g.board(engine.SeatViewer(0), 80, 20)); !slices.Contains(ks, "t") || !slices.Contains(ks, "v") {
		t.Fatalf("race help %v", ks)
	}
	if ks := help(g.board(engine.Spectator(), 80, 20)); slices.Contains(ks, "t") || slices.Contains(ks, "enter") {
		t.Fatalf("spectator help offers moves: %v", ks)
	}
}

// TestWholeGamesByKeys plays games where every move comes from a board's
// keys: the moves the board offers by default are always legal.
func TestWholeGamesByKeys(t *testing.T) {
	for _, system := range []string{cg.SystemSpeed, cg.SystemCounter} {
		for n := 2; n <= 4; n++ {
			for seed := uint64(1); seed <= 3; seed++ {
				g := newGame(t, n, seed, system)
				for step := 0; ; step++ {
					v := g.omni()
					if v.Phase == cg.Finished {
						break
					}
					if step > 300 {
						t.Fatalf("%s %dp seed %d: not finished after 300 moves (phase %v)", system, n, seed, v.Phase)
					}
					me := v.Active[0]
					b := g.board(engine.SeatViewer(me), 80, 24)
					var keys []string
					switch v.Phase {
					case cg.Race:
						keys = []string{"t"}
					case cg.Answer, cg.Counter:
						if v.Phase == cg.Counter && step%3 != 0 && b.canHack() {
							keys = []string{"enter"}
							break
						}
						if v.Phase == cg.Counter {
							press(b, "g")
						}
						target := b.targets()[0]
						code := g.code(target)
						if step%2 == 0 {
							code = g.wrongCode(target)
						}
						keys = append(keys, code.String(), "enter")
					default:
						keys = []string{"enter"}
					}
					a := press(b, keys...)
					if a == nil {
						t.Fatalf("%s %dp seed %d phase %v: keys %v sent nothing:\n%s", system, n, seed, v.Phase, keys, ansi.Strip(b.View()))
					}
					g.apply(me, a)
					if v.Phase == cg.Counter && g.omni().MayStop && step%2 == 1 {
						b = g.board(engine.SeatViewer(me), 80, 24)
						g.apply(me, press(b, "s"))
					}
				}
			}
		}
	}
}

// TestSureCodeIsPrefilled: when the crack sheet leaves one code, the entry
// starts with it as a suggestion: enter sends it, and typing the code (or
// another) replaces it instead of adding to it ("E61E61").
func TestSureCodeIsPrefilled(t *testing.T) {
	for _, sc := range scenarios(t, 2) {
		g := sc.g
		for g.omni().Phase == cg.RevealX {
			s := g.omni().Active[0]
			g.apply(s, cg.RevealAction(cg.PosX1))
		}
		if g.omni().Phase != cg.Race {
			continue
		}
		for s := range engine.Seat(2) {
			v := g.view(s)
			if v.Seats[1-s].Candidates != 1 {
				continue
			}
			b := g.board(engine.SeatViewer(s), 80, 20)
			press(b, "g")
			want := g.code(1 - s).String()
			if got := b.input.Value(); got != want {
				t.Fatalf("prefilled %q, want %q", got, want)
			}
			if !strings.Contains(ansi.Strip(b.View()), want) {
				t.Fatalf("the suggestion is not shown:\n%s", ansi.Strip(b.View()))
			}
			press(b, want)
			if got := b.input.Value(); got != want {
				t.Fatalf("typing %q over the suggestion gave %q", want, got)
			}
			b2 := g.board(engine.SeatViewer(s), 80, 20)
			press(b2, "g", "backspace", "A")
			if got := b2.input.Value(); got != "A" {
				t.Fatalf("backspace then A over the suggestion gave %q", got)
			}
			return
		}
	}
	t.Skip("no sure code in these scenarios")
}

// TestFramedCodeAndItsCompactFallback: the viewer's own code is drawn as
// three framed cards (position in the top border, value inside) where the
// board has room (useFramed: by size and seats), and as one line of codes
// where it has not; in both the values read without colour, and the
// opponents keep their one-line codes.
func TestFramedCodeAndItsCompactFallback(t *testing.T) {
	for _, c := range []struct {
		n, w, h int
		framed  bool
	}{{2, 80, 24, true}, {4, 80, 24, true}, {4, 120, 40, true}, {3, 60, 20, true}, {4, 60, 20, false}, {2, 80, 12, false}} {
		g := scenarios(t, c.n)[0].g
		viewer := engine.SeatViewer(0)
		out := ansi.Strip(g.board(viewer, c.w, c.h).View())
		got := codeCells.FindAllStringSubmatch(out, -1)
		if len(got) == 0 {
			t.Fatalf("%dp %d×%d: no code drawn:\n%s", c.n, c.w, c.h, out)
		}
		if want := wantCells(g, viewer, 0); cellsOf(got[0]) != want {
			t.Errorf("%dp %d×%d: own code [%s], want [%s]:\n%s", c.n, c.w, c.h, cellsOf(got[0]), want, out)
		}
		framed := strings.Contains(out, "╭L──╮ ╭X1─╮ ╭X2─╮") && strings.Contains(out, "╰───╯ ╰───╯ ╰───╯") && got[0][1] == ""
		if framed != c.framed {
			t.Errorf("%dp %d×%d: framed %v, want %v:\n%s", c.n, c.w, c.h, framed, c.framed, out)
		}
		if strings.Count(out, "╭L──╮") > 1 {
			t.Errorf("%dp %d×%d: more than one framed code:\n%s", c.n, c.w, c.h, out)
		}
	}
	for seats := 2; seats <= 4; seats++ {
		if !useFramed(80, 24, seats) || useFramed(80, 16, seats) {
			t.Errorf("%d seats: framed at 80×24 %v, at 80×16 %v", seats, useFramed(80, 24, seats), useFramed(80, 16, seats))
		}
	}
}

// TestFramedDataAndHackCardsAndTheirCompactFallback: the Data cards left,
// the Hack line and the hacking turn's composer are drawn as framed cards
// where the board has room (useFramedTable: by size and seats) and as
// text where it has not. Framed, every Hack card on the line shows its
// number, position and values, every Data kind left its range (a stack of
// two marked ×2), the chosen cards have a heavy frame and the key bar's
// arrows follow the rows; all of it reads without colour (plain styles).
func TestFramedDataAndHackCardsAndTheirCompactFallback(t *testing.T) {
	for _, c := range []struct {
		n, w, h int
		framed  bool
	}{{2, 80, 19, true}, {3, 80, 19, false}, {4, 80, 19, false}, {4, 120, 35, true}, {3, 100, 30, true}, {2, 70, 40, false}} {
		g := newGame(t, c.n, 21, cg.SystemSpeed)
		g.botsUntil(func(v cg.View) bool { return v.Phase == cg.Rounds && v.Round == 2 })
		mover := g.omni().ToMove
		what := fmt.Sprintf("%dp %d×%d", c.n, c.w, c.h)
		if got := useFramedTable(c.w, c.h, c.n); got != c.framed {
			t.Fatalf("%s: useFramedTable %v, want %v", what, got, c.framed)
		}
		for _, viewer := range []engine.Viewer{engine.SeatViewer(mover), engine.SeatViewer((mover + 1) % engine.Seat(c.n)), engine.Spectator()} {
			b := g.board(viewer, c.w, c.h)
			out := ansi.Strip(b.View())
			checkFits(t, what, b.View(), c.w, c.h)
			v := g.view(mover)
			composing := viewer.IsSeat(mover)
			for i, id := range v.HackLine {
				hc := cg.Hack(id)
				compact := fmt.Sprintf("%d %s", i+1, hc.Label())
				framed := fmt.Sprintf("%d %s", i+1, posShort(hc.Pos))
				if c.framed && (!strings.Contains(out, framed) || !strings.Contains(out, hackFace(hc)) || strings.Contains(out, compact)) {
					t.Errorf("%s viewer %+v: Hack card %q not framed as %q %q:\n%s", what, viewer, compact, framed, hackFace(hc), out)
				}
				if !c.framed && !strings.Contains(out, compact) {
					t.Errorf("%s viewer %+v: Hack card %q not listed:\n%s", what, viewer, compact, out)
				}
			}
			stacks := 0
			for k, n := range g.omni().DataField {
				if n == 0 {
					continue
				}
				if n > 1 {
					stacks++
				}
				want := "│" + center(cg.DataLabel(k), cardFace) + "│"
				if !c.framed {
					want = cg.DataLabel(k)
				}
				if !strings.Contains(out, want) {
					t.Errorf("%s viewer %+v: Data kind %s left but not drawn as %q:\n%s", what, viewer, cg.DataLabel(k), want, out)
				}
			}
			if c.framed && strings.Count(out, "╭×2───╮") != stacks {
				t.Errorf("%s: %d stacks of two Data cards, not all marked ×2:\n%s", what, stacks, out)
			}
			heavy := strings.Count(out, "┗━━━━━┛")
			if want := 0; c.framed && composing {
				want = 1 // the chosen Hack card
				if len(v.Takeable) > 0 {
					want++ // and the chosen Data card
				}
				if heavy != want {
					t.Errorf("%s: %d heavy frames in the composer, want %d:\n%s", what, heavy, want, out)
				}
			} else if heavy != 0 {
				t.Errorf("%s viewer %+v: %d heavy frames, none chosen:\n%s", what, viewer, heavy, out)
			}
			if composing {
				var keys []string
				for _, k := range b.ShortHelp() {
					keys = append(keys, k.Help().Key+" "+k.Help().Desc)
				}
				bar := strings.Join(keys, " · ")
				if want := map[bool]string{true: "↑/↓ row", false: "↓ choose"}[c.framed]; !strings.Contains(bar, want) {
					t.Errorf("%s: key bar %q, want %q", what, bar, want)
				}
			}
		}
	}
}

// TestHeldCardsFramedWhereThereIsRoom: where useFramedHeld allows (four
// players at 120×35, the board of a 120×40 session), each seat's Data
// cards and answered Hack cards are a row of framed cards under its name,
// in every phase and for every viewer, and the board still fits; each
// answered card carries its answer as ✓ or ✗ without colour. With less
// room (three players at 100×25, the e2e terminal's board) they stay a
// line of text.
func TestHeldCardsFramedWhereThereIsRoom(t *testing.T) {
	if !useFramedHeld(120, 35, 4) || useFramedHeld(100, 25, 3) || useFramedHeld(80, 19, 2) {
		t.Fatalf("useFramedHeld: 4p 120×35 %v, 3p 100×25 %v, 2p 80×19 %v", useFramedHeld(120, 35, 4), useFramedHeld(100, 25, 3), useFramedHeld(80, 19, 2))
	}
	for _, sc := range scenarios(t, 4) {
		omni := sc.g.omni()
		for _, viewer := range []engine.Viewer{engine.SeatViewer(0), engine.SeatViewer(2), engine.Spectator()} {
			what := fmt.Sprintf("%s viewer %+v", sc.name, viewer)
			b := sc.g.board(viewer, 120, 35)
			checkFits(t, what, b.View(), 120, 35)
			out := ansi.Strip(b.View())
			for s, sv := range omni.Seats {
				// The row of cards: not-cards for the Data cards, then the
				// Hack cards with their answers, in order.
				var top, mid, bottom []string
				for _, k := range sv.Data {
					top, mid, bottom = append(top, "╭not──╮"), append(mid, "│"+center(cg.DataLabel(k), cardFace)+"│"), append(bottom, "╰─────╯")
				}
				for _, h := range sv.Hacks {
					c := cg.Hack(h.Card)
					mark := map[bool]string{true: "✓", false: "✗"}[h.Green]
					top = append(top, "╭"+posShort(c.Pos)+strings.Repeat("─", cardFace-len(posShort(c.Pos)))+"╮")
					mid, bottom = append(mid, "│"+hackFace(c)+"│"), append(bottom, "╰──"+mark+"──╯")
				}
				if len(top) == 0 {
					continue
				}
				row := strings.Join(top, " ") + "\n" + strings.Join(mid, " ") + "\n" + strings.Join(bottom, " ")
				if !strings.Contains(stripIndent(out), row) {
					t.Errorf("%s: seat %d's cards not drawn as\n%s\nin\n%s", what, s, row, out)
				}
			}
		}
	}
	g := scenarios(t, 3)[1].g // rounds
	out := ansi.Strip(g.board(engine.SeatViewer(0), 100, 25).View())
	if strings.Contains(out, "╭not──╮") || !strings.Contains(out, "not "+cg.DataLabel(g.omni().Seats[1].Data[0])) {
		t.Errorf("3p 100×25: held cards not a line of text:\n%s", out)
	}
}

// stripIndent drops the leading spaces of every line of s, so rows of
// cards can be found whatever they are indented by.
func stripIndent(s string) string {
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimLeft(l, " ")
	}
	return strings.Join(ls, "\n")
}

// TestWatchersAndFinishedGamesOfferNoMoves: a spectator in every phase, and
// every seat once the game is over, sees no move key on the key bar (only
// the details, n), and the move keys change nothing on the board.
func TestWatchersAndFinishedGamesOfferNoMoves(t *testing.T) {
	check := func(g *game, viewer engine.Viewer, what string) {
		b := g.board(viewer, 80, 24)
		before := b.View()
		for _, k := range b.ShortHelp() {
			if h := k.Help(); h.Key != "n" {
				t.Fatalf("%s: the key bar offers %q %q:\n%s", what, h.Key, h.Desc, before)
			}
		}
		if a := press(b, "up", "down", "left", "right", "1", "2", "enter", "t", "v", "s", "x", "g", "A12", "enter"); a != nil {
			t.Fatalf("%s: the keys made %s", what, a)
		}
		if b.Capturing() {
			t.Fatalf("%s: the keys opened the entry", what)
		}
		// A key that does nothing may say why (a "! …" line), as enter
		// alone does; nothing else may change.
		after := b.View()
		only := g.board(viewer, 80, 24)
		press(only, "enter")
		if want := only.View(); after != want {
			t.Fatalf("%s: the move keys changed the board:\n%s\nto\n%s", what, want, after)
		}
		for _, l := range strings.Split(after, "\n") {
			if l = strings.TrimSpace(l); strings.HasPrefix(l, "! ") && !strings.Contains(l, "watching") && !strings.Contains(l, "over") {
				t.Fatalf("%s: a move key says %q, not why it does nothing", what, l)
			}
		}
	}
	for _, sc := range scenarios(t, 3) {
		check(sc.g, engine.Spectator(), "spectator in "+sc.name)
	}
	for _, system := range []string{cg.SystemSpeed, cg.SystemCounter} {
		g := newGame(t, 3, 31, system)
		for seat := range engine.Seat(3) {
			g.apply(seat, cg.OrderAction(g.view(seat).Code.X1))
		}
		g.botsUntil(phaseIs(cg.Finished))
		check(g, engine.Spectator(), system+": spectator after the end")
		for seat := range engine.Seat(3) {
			check(g, engine.SeatViewer(seat), fmt.Sprintf("%s: seat %d after the end", system, seat))
		}
	}
}
