package breakcode

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	bc "github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/tui/board"
	"github.com/codebreakers/codebreakers/tui/board/boardtest"
	"github.com/codebreakers/codebreakers/tui/widget"
)

func testKeys() *KeyMap {
	return &KeyMap{Keys: boardtest.Keys(), Pass: key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "p"))}
}

func plainStyles() Styles {
	s := lipgloss.NewStyle()
	return Styles{Styles: board.Styles{Heading: s, Strong: s, Dim: s, Selected: s, Error: s, Good: s},
		TileBlack: s.Reverse(true), TileWhite: s.Bold(true), TileGreen: s.Underline(true), TileHidden: s}
}

func deal(t *testing.T, n int, seed uint64) engine.State {
	t.Helper()
	return dealOpts(t, n, seed, nil)
}

func dealOpts(t *testing.T, n int, seed uint64, opts engine.Options) engine.State {
	t.Helper()
	var players []engine.Player
	for i := range n {
		players = append(players, engine.Player{Name: []string{"mara", "Bo", "Kai", "Ana"}[i]})
	}
	st, _, err := engine.Start(bc.Game{}, opts, players, seed)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// ask plays k questions (the first face-up card each time).
func ask(t *testing.T, st engine.State, k int) []engine.Event {
	t.Helper()
	var log []engine.Event
	for range k {
		s := st.Status()
		if s.Finished {
			break
		}
		v := st.View(engine.SeatViewer(s.Active[0])).(bc.View)
		if len(v.FaceUp) == 0 {
			break
		}
		num := 0
		if ns := bc.CardNumbers(v.FaceUp[0]); ns != nil {
			num = ns[1]
		}
		evs, err := st.Apply(s.Active[0], bc.AskAction(v.FaceUp[0], num))
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, evs...)
	}
	return log
}

func render(st engine.State, viewer engine.Viewer, log []engine.Event, w, h int) (*Board, string) {
	return renderView(st.View(viewer).(bc.View), st.Status(), log, w, h)
}

func renderView(v bc.View, status engine.Status, log []engine.Event, w, h int) (*Board, string) {
	b := New(new(plainStyles()), testKeys())
	b.SetView(v, board.Context{
		Viewer: v.Viewer, Names: []string{"mara", "Bo", "Kai", "Ana"}[:len(v.Seats)],
		Status: status, Log: engine.FilterEvents(log, v.Viewer), Width: w, Height: h,
	})
	return b, ansi.Strip(b.View())
}

var tileToken = regexp.MustCompile(`\b[0-9][bwg]\b`)

// TestSeatBoardShowsOnlyOwnTiles renders each seat's board over many deals
// and checks that the only tiles drawn are the seat's own: no other hand,
// no centre tile, anywhere on the board or the notepad.
func TestSeatBoardShowsOnlyOwnTiles(t *testing.T) {
	for n := 2; n <= 4; n++ {
		for seed := uint64(1); seed <= 12; seed++ {
			// The aid is costly to compute with 4 players; it changes counts
			// shown, not which tiles, so most deals run without it.
			opts := engine.Options{"aid": "off"}
			if seed == 1 {
				opts = nil
			}
			st := dealOpts(t, n, seed, opts)
			log := ask(t, st, int(seed%7))
			omni := st.View(engine.Omniscient()).(bc.View)
			for s := range n {
				view := st.View(engine.SeatViewer(engine.Seat(s))).(bc.View)
				for _, size := range [][2]int{{80, 20}, {200, 60}, {60, 16}} {
					b, out := renderView(view, st.Status(), log, size[0], size[1])
					own := omni.Seats[s].Hand
					if got := tileToken.FindAllString(out, -1); len(got) != len(own) {
						t.Fatalf("%dp seed %d seat %d at %v: tiles drawn %v, own hand %s\n%s", n, seed, s, size, got, bc.FormatTiles(own), out)
					}
					for _, tile := range own {
						if !strings.Contains(out, tile.String()) {
							t.Fatalf("own tile %s missing:\n%s", tile, out)
						}
					}
					b.Update(tea.KeyPressMsg(tea.Key{Code: 'n', Text: "n"}))
					checkNotepadTiles(t, view, ansi.Strip(b.View()))
				}
			}
		}
	}
}

// checkNotepadTiles fails unless the only tiles the notepad draws are
// those of the hands and centre sets the seat's own view lists as possible
// (some may be scrolled out of sight).
func checkNotepadTiles(t *testing.T, v bc.View, notes string) {
	t.Helper()
	var want []string
	for _, sv := range v.Seats {
		for _, set := range sv.PossibleHands.Sets() {
			for _, tile := range set {
				want = append(want, tile.String())
			}
		}
	}
	for _, set := range v.CentreSets.Sets() {
		for _, tile := range set {
			want = append(want, tile.String())
		}
	}
	got := tileToken.FindAllString(notes, -1)
	for _, tile := range got {
		i := slices.Index(want, tile)
		if i < 0 {
			t.Fatalf("notepad draws tiles %v, the listed sets hold %v\n%s", got, want, notes)
		}
		want = slices.Delete(want, i, i+1)
	}
}

// The notepad names the possible hands and centre sets when few remain,
// and draws no other tile, over whole games seen from every seat.
func TestNotepadListsOnlyPossibleSets(t *testing.T) {
	listed := 0
	for n := 2; n <= 4; n++ {
		for seed := uint64(1); seed <= 4; seed++ {
			st := dealOpts(t, n, seed, nil)
			var log []engine.Event
			for step := 0; !st.Status().Finished && step < 40; step++ {
				for s := range n {
					view := st.View(engine.SeatViewer(engine.Seat(s))).(bc.View)
					for _, size := range [][2]int{{80, 24}, {120, 40}} {
						b, _ := renderView(view, st.Status(), log, size[0], size[1])
						b.Update(tea.KeyPressMsg(tea.Key{Code: 'n', Text: "n"}))
						notes := ansi.Strip(b.View())
						checkNotepadTiles(t, view, notes)
						if strings.Contains(notes, "could be") || strings.Contains(notes, "must be") {
							listed++
						}
					}
				}
				log = append(log, ask(t, st, 1)...)
			}
		}
	}
	if listed == 0 {
		t.Fatal("no notepad listed a set: the test checks nothing")
	}
}

// TestSpectatorBoardShowsNoTiles: a live spectator sees answers only.
func TestSpectatorBoardShowsNoTiles(t *testing.T) {
	for n := 2; n <= 4; n++ {
		st := deal(t, n, uint64(40+n))
		log := ask(t, st, 5)
		b, out := render(st, engine.Spectator(), log, 80, 20)
		if got := tileToken.FindAllString(out, -1); len(got) != 0 {
			t.Fatalf("%dp spectator board draws tiles %v:\n%s", n, got, out)
		}
		if !strings.Contains(out, "You are watching") {
			t.Fatalf("spectator not told they watch:\n%s", out)
		}
		// No cursor or number picker on the questions: a spectator
		// chooses nothing.
		if regexp.MustCompile(`▸ \d |‹`).MatchString(out) {
			t.Fatalf("%dp spectator board has a question cursor:\n%s", n, out)
		}
		if a, _ := b.Update(tea.KeyPressMsg(tea.Key{Code: tea.KeyEnter})); a != nil {
			t.Fatal("a spectator produced an action")
		}
		if a, _ := b.Update(tea.KeyPressMsg(tea.Key{Code: 'g', Text: "g"})); a != nil || b.Capturing() {
			t.Fatal("a spectator opened the guess entry")
		}
	}
}

// TestOmniscientBoardShowsEverything: the replay view reveals every hand.
func TestOmniscientBoardShowsEverything(t *testing.T) {
	st := deal(t, 3, 9)
	_, out := render(st, engine.Omniscient(), nil, 100, 30)
	omni := st.View(engine.Omniscient()).(bc.View)
	want := 3*5 + 5
	if got := tileToken.FindAllString(out, -1); len(got) != want || len(omni.Centre) != 5 {
		t.Fatalf("omniscient board draws %d tiles, want %d:\n%s", len(got), want, out)
	}
}

func press(b *Board, keys ...string) []byte {
	var last []byte
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "enter":
			msg = tea.KeyPressMsg(tea.Key{Code: tea.KeyEnter})
		case "esc":
			msg = tea.KeyPressMsg(tea.Key{Code: tea.KeyEscape})
		case "down":
			msg = tea.KeyPressMsg(tea.Key{Code: tea.KeyDown})
		case "right":
			msg = tea.KeyPressMsg(tea.Key{Code: tea.KeyRight})
		default:
			msg = tea.KeyPressMsg(tea.Key{Code: []rune(k)[0], Text: k})
		}
		if a, _ := b.Update(msg); a != nil {
			last = a
		}
	}
	return last
}

func TestAskAndGuessActions(t *testing.T) {
	st := deal(t, 2, 3)
	me := st.Status().Active[0]
	view := st.View(engine.SeatViewer(me)).(bc.View)
	b, out := render(st, engine.SeatViewer(me), nil, 80, 20)
	if !strings.Contains(out, "Your turn") {
		t.Fatalf("no 'your turn':\n%s", out)
	}
	// Pick the third card with a digit, then ask it.
	act := press(b, "3", "enter")
	var a bc.Action
	if err := json.Unmarshal(act, &a); err != nil || a.Ask == nil || a.Ask.Card != view.FaceUp[2] {
		t.Fatalf("ask action %s (face up %v)", act, view.FaceUp)
	}
	if bc.NeedsNumber(a.Ask.Card) != (a.Ask.Number != 0) {
		t.Fatalf("number %d for card %d", a.Ask.Number, a.Ask.Card)
	}

	// A bad guess is refused with a sentence and sends nothing.
	if act := press(b, "g", "1", "b", "enter"); act != nil {
		t.Fatalf("short guess sent %s", act)
	}
	if out := ansi.Strip(b.View()); !strings.Contains(out, "exactly 5 tiles") {
		t.Fatalf("no count error:\n%s", out)
	}
	// A well-formed guess of tiles not in my hand is sent sorted.
	omni := st.View(engine.Omniscient()).(bc.View)
	other := omni.Seats[1-me].Hand
	b.input.SetValue(strings.ToUpper(bc.FormatTiles([]bc.Tile{other[4], other[3], other[2], other[1], other[0]})))
	act = press(b, "enter")
	if err := json.Unmarshal(act, &a); err != nil || a.Guess == nil || bc.FormatTiles(a.Guess.Tiles) != bc.FormatTiles(other) {
		t.Fatalf("guess action %s, want %s", act, bc.FormatTiles(other))
	}
	if b.Capturing() {
		t.Fatal("guess entry still open after sending")
	}
}

func TestWhichNumberCard(t *testing.T) {
	// Find a deal whose face-up row has a which-number card.
	for seed := uint64(1); seed < 200; seed++ {
		st := deal(t, 2, seed)
		me := st.Status().Active[0]
		v := st.View(engine.SeatViewer(me)).(bc.View)
		for i, card := range v.FaceUp {
			ns := bc.CardNumbers(card)
			if ns == nil {
				continue
			}
			b, _ := render(st, engine.SeatViewer(me), nil, 80, 20)
			keys := []string{string(rune('1' + i))}
			out := ansi.Strip(func() string { press(b, keys...); return b.View() }())
			if !strings.Contains(out, "[") {
				t.Fatalf("no number choice shown:\n%s", out)
			}
			act := press(b, "right", "enter")
			var a bc.Action
			if err := json.Unmarshal(act, &a); err != nil || a.Ask.Number != ns[1] {
				t.Fatalf("which-number ask %s, want number %d", act, ns[1])
			}
			return
		}
	}
	t.Skip("no which-number card face up in 200 deals")
}

func TestCentreGuessNeedsConfirmation(t *testing.T) {
	st := deal(t, 3, 5)
	me := st.Status().Active[0]
	b, _ := render(st, engine.SeatViewer(me), nil, 80, 20)
	omni := st.View(engine.Omniscient()).(bc.View)
	press(b, "g")
	b.input.SetValue(bc.FormatTiles(omni.Centre))
	if act := press(b, "enter"); act != nil {
		t.Fatal("one-shot guess sent without confirmation")
	}
	if !strings.Contains(ansi.Strip(b.View()), "enter again") {
		t.Fatal("no confirmation prompt")
	}
	if act := press(b, "enter"); act == nil {
		t.Fatal("confirmed guess not sent")
	}
}

func TestNotYourTurnExplains(t *testing.T) {
	st := deal(t, 3, 2)
	other := (st.Status().Active[0] + 1) % 3
	b, _ := render(st, engine.SeatViewer(other), nil, 80, 20)
	if act := press(b, "enter"); act != nil {
		t.Fatal("asked out of turn")
	}
	if out := ansi.Strip(b.View()); !strings.Contains(out, "turn; wait") {
		t.Fatalf("no explanation:\n%s", out)
	}
}

// TestTurnRefusalGoesWhenTheTurnComes: "wait for them" explains the table
// as it was when the key was pressed; once the turn is the viewer's it
// must not stay beside a board that says "your turn". A view that changes
// nothing it explained keeps it.
func TestTurnRefusalGoesWhenTheTurnComes(t *testing.T) {
	st := deal(t, 3, 2)
	active := st.Status().Active[0]
	next := (active + 1) % 3
	b, _ := render(st, engine.SeatViewer(next), nil, 80, 20)
	ctx := b.c
	press(b, "enter")
	if out := ansi.Strip(b.View()); !strings.Contains(out, "turn; wait") {
		t.Fatalf("no explanation:\n%s", out)
	}
	b.SetView(st.View(engine.SeatViewer(next)), ctx) // the same table (a chat line, a spectator)
	if out := ansi.Strip(b.View()); !strings.Contains(out, "turn; wait") {
		t.Fatalf("a view that changed nothing dropped the explanation:\n%s", out)
	}
	ask(t, st, 1) // the active seat asks; the turn passes to next
	if got := st.Status().Active[0]; got != next {
		t.Fatalf("after one question the turn is %d, want %d", got, next)
	}
	ctx.Status = st.Status()
	b.SetView(st.View(engine.SeatViewer(next)), ctx)
	if out := ansi.Strip(b.View()); strings.Contains(out, "wait for them") {
		t.Fatalf("the refusal stayed once it was the viewer's turn:\n%s", out)
	}
	b.SetError("The table refused that.") // a refusal from the table is the table's to clear
	b.SetView(st.View(engine.SeatViewer(next)), ctx)
	if out := ansi.Strip(b.View()); !strings.Contains(out, "The table refused that.") {
		t.Fatalf("a new view dropped the table's refusal:\n%s", out)
	}
}

func TestParseGuess(t *testing.T) {
	own := []bc.Tile{{Number: 0, Color: bc.Black}, {Number: 3, Color: bc.White}}
	cases := []struct {
		in   string
		want string // tiles, or a fragment of the error
	}{
		{"1b 2w 5g 8b 9w", "1b 2w 5g 8b 9w"},
		{"9W,8B,5,2w,1b", "1b 2w 5g 8b 9w"},
		{"1b2w5g8b9w", "1b 2w 5g 8b 9w"},
		{"5 5 1b 2w 4w", "1b 2w 4w 5g 5g"},
		{"1b 2w 5g 8b", "exactly 5"},
		{"1b 1b 5g 8b 9w", "appears twice"},
		{"0b 2w 5g 8b 9w", "0b is in your own hand, so it cannot be in the set you guess."},
		{"1x 2w 5g 8b 9w", "Not a tile"},
		{"", "Type 5 tiles"},
		{"5b 2w 5g 8b 9w", "green"},
		{"\x1b[31m 2w 5g 8b 9w", "Not a tile"},
	}
	for _, c := range cases {
		tiles, err := ParseGuess(c.in, 5, own)
		got := bc.FormatTiles(tiles)
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(strings.ToLower(got), strings.ToLower(c.want)) {
			t.Errorf("ParseGuess(%q) = %q, want %q", c.in, got, c.want)
		}
		if err != nil && strings.ContainsAny(got, "\x1b\x07") {
			t.Errorf("error echoes control bytes: %q", got)
		}
	}
}

// TestRememberedDrawingMatchesAFreshBoard follows a game at many window
// sizes with one board, which keeps what it drew between frames, and checks
// every frame against a new board's, and that the memories stay bounded.
func TestRememberedDrawingMatchesAFreshBoard(t *testing.T) {
	st := deal(t, 3, 9)
	styled := Styles{Styles: board.Styles{
		Heading: lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#7D9CFF")),
		Strong:  lipgloss.NewStyle().Bold(true), Dim: lipgloss.NewStyle().Foreground(lipgloss.Color("#8A8A8A")),
		Selected: lipgloss.NewStyle().Bold(true), Error: lipgloss.NewStyle().Bold(true), Good: lipgloss.NewStyle().Underline(true)},
		TileBlack: lipgloss.NewStyle().Reverse(true), TileWhite: lipgloss.NewStyle().Bold(true),
		TileGreen: lipgloss.NewStyle().Bold(true).Underline(true), TileHidden: lipgloss.NewStyle().Faint(true),
	}
	viewer := engine.SeatViewer(1)
	kept := New(&styled, testKeys())
	var log []engine.Event
	for move := range 12 {
		v := st.View(viewer).(bc.View)
		for w := 20; w <= 240; w += 11 {
			for _, h := range []int{4, 12, 30} {
				c := board.Context{
					Viewer: viewer, Names: []string{"mara", "Björk", "李小龙"},
					Status: st.Status(), Log: engine.FilterEvents(log, viewer), Width: w, Height: h,
				}
				kept.SetView(v, c)
				fresh := New(&styled, testKeys())
				fresh.SetView(v, c)
				row := string(rune('1' + (move+w)%6)) // highlight a different row now and then
				press(kept, row)
				press(fresh, row)
				if got, want := kept.View(), fresh.View(); got != want {
					t.Fatalf("move %d at %d×%d: the board that remembers drew\n%s\nwhere a new board draws\n%s", move, w, h, got, want)
				}
			}
		}
		log = append(log, ask(t, st, 1)...)
	}
	if n := len(kept.seatNotes); n > 3 {
		t.Errorf("notes remembered for %d seats at a 3-seat table", n)
	}
}

// TestGuessNoteIsASentence: the notepad says how a guess went as a person
// would write it, not "turn 10 guessed a guess: right".
func TestGuessNoteIsASentence(t *testing.T) {
	hidden := guessNote(bc.GuessOutcome{Turn: 10, Right: true})
	if hidden != "Turn 10: made a guess, which was right." {
		t.Errorf("hidden guess note = %q", hidden)
	}
	shown := guessNote(bc.GuessOutcome{Turn: 4, Tiles: []bc.Tile{{Number: 1, Color: bc.Black}}})
	if !strings.HasPrefix(shown, "Turn 4: guessed 1b") || !strings.HasSuffix(shown, "which was wrong.") {
		t.Errorf("shown guess note = %q", shown)
	}
}

// A busy board (its last move still on its way) holds back every key that
// could make a move, changing nothing for it, and lets the cursor, the row
// numbers, typing and the notepad work.
func TestBusyBoardHoldsMoves(t *testing.T) {
	st := deal(t, 2, 3)
	me := st.Status().Active[0]
	view := st.View(engine.SeatViewer(me)).(bc.View)
	b, _ := render(st, engine.SeatViewer(me), nil, 80, 20)
	b.SetBusy(true)
	if a := press(b, "3"); a != nil || b.cursor != 2 {
		t.Fatalf("a row number while busy: action %q, cursor %d", a, b.cursor)
	}
	for _, k := range []string{"enter", "g", "p"} {
		if a := press(b, k); !board.IsHeld(a) {
			t.Fatalf("%s while busy: action %q, want it held", k, a)
		}
	}
	if b.Capturing() || b.cursor != 2 {
		t.Fatalf("a held key changed the board: entry open %v, cursor %d", b.Capturing(), b.cursor)
	}
	press(b, "n")
	if !b.Overlay() {
		t.Fatal("the notepad did not open while busy")
	}
	press(b, "n")

	// In the guess entry, typing works and enter is held with the text kept.
	b.SetBusy(false)
	press(b, "g")
	b.SetBusy(true)
	press(b, "1", "b")
	if a := press(b, "enter"); !board.IsHeld(a) || !b.Capturing() || b.input.Value() != "1b" {
		t.Fatalf("enter in the entry while busy: action %q, open %v, text %q", a, b.Capturing(), b.input.Value())
	}
	press(b, "esc")

	// Once the move is answered, enter asks the third card again.
	b.SetBusy(false)
	var a bc.Action
	if act := press(b, "enter"); json.Unmarshal(act, &a) != nil || a.Ask == nil || a.Ask.Card != view.FaceUp[2] {
		t.Fatalf("ask after the wait: %s", act)
	}
}

// TestFramedTilesAndTheirCompactFallback: with room, the viewer's tiles
// and the centre are framed tiles (the position letter in the top border,
// the tile inside, the centre face down as ??); at 80×24 with four players
// they fall back, by useFramed's rule, to one line of codes; and neither
// form shows a tile the seat may not see.
func TestFramedTilesAndTheirCompactFallback(t *testing.T) {
	const boardH = 19 // an 80×24 table screen's board
	st := deal(t, 3, 1)
	hand := st.View(engine.SeatViewer(0)).(bc.View).Hand
	_, framed := render(st, engine.SeatViewer(0), nil, 80, boardH)
	var mid []string
	for _, tile := range hand {
		mid = append(mid, "│ "+tile.String()+" │")
	}
	for _, want := range []string{
		"You (mara)  ╭a───╮ ╭b───╮ ╭c───╮ ╭d───╮ ╭e───╮",
		strings.Join(mid, " "),
		"Centre      ╭a───╮",
		"│ ?? │ │ ?? │ │ ?? │ │ ?? │ │ ?? │",
		"╰────╯ ╰────╯ ╰────╯ ╰────╯ ╰────╯",
	} {
		if !strings.Contains(framed, want) {
			t.Errorf("3 players at 80×24: no %q in\n%s", want, framed)
		}
	}
	if got := tileToken.FindAllString(framed, -1); len(got) != len(hand) {
		t.Errorf("3 players, framed: tiles drawn %v, want only the seat's own %v", got, hand)
	}

	st4 := deal(t, 4, 1)
	hand4 := st4.View(engine.SeatViewer(0)).(bc.View).Hand
	_, compact := render(st4, engine.SeatViewer(0), nil, 80, boardH)
	if strings.Contains(compact, "╭") || !strings.Contains(compact, "You (mara)  "+handText(hand4)) || !strings.Contains(compact, "Centre      a ??  b ??") {
		t.Errorf("4 players at 80×24: want the compact codes\n%s", compact)
	}
	if _, big := render(st4, engine.SeatViewer(0), nil, 120, 35); !strings.Contains(big, "╭a───╮") {
		t.Errorf("4 players at 120×40: want framed tiles\n%s", big)
	}

	for _, c := range []struct {
		h, blocks, seats, framedRows, w int
		was                             bool
		want                            bool
	}{
		{19, 4, 3, 2, 60, false, true},  // 3 players at 80×24
		{19, 5, 4, 2, 60, false, false}, // 4 players at 80×24
		{20, 5, 4, 2, 60, false, false}, // … without a notice under the board
		{21, 5, 4, 2, 60, false, true},
		{20, 5, 4, 2, 60, true, true}, // framed stays framed a line short
		{19, 5, 4, 2, 60, true, false},
		{30, 4, 3, 2, framedWidth - 1, false, false}, // too narrow
		{30, 4, 3, 0, 60, false, false},              // nothing to frame (a spectator of two)
	} {
		if got := useFramed(c.h, c.blocks, c.seats, c.framedRows, c.w, c.was); got != c.want {
			t.Errorf("useFramed(%+v) = %v", c, got)
		}
	}
}

// handText is a hand as the compact form writes it: "a 3b  b 3w  c 5g".
func handText(ts []bc.Tile) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = string(rune('a'+i)) + " " + t.String()
	}
	return strings.Join(parts, "  ")
}

// stateOf prints b without its caches of drawn pieces, for PureView.
func stateOf(b *Board) string {
	c := *b
	c.paint, c.logs, c.seatNotes = paint{}, widget.LogCache{}, nil
	c.shortHelp, c.labels, c.frames, c.heads, c.drawn = nil, seatLabels{}, nil, nil, drawnLines{}
	c.blocks, c.lower, c.logScratch, c.qhead, c.qlist = nil, lowerLines{}, nil, questionsHeadLine{}, questionList{}
	c.sheetScratch, c.fit, c.fitW = nil, 0, 0
	return fmt.Sprintf("%+v", c)
}

// Drawing changes nothing: through a game, with the notepad opened and
// scrolled past its end, the guess entry open and an error shown, every
// frame is drawn twice the same and leaves the board as it was.
func TestViewChangesNothing(t *testing.T) {
	for _, n := range []int{2, 3} {
		st := deal(t, n, uint64(40+n))
		var log []engine.Event
		for turn := range 12 {
			me := st.Status().Active[0]
			b := New(new(plainStyles()), testKeys())
			for _, sz := range [][2]int{{80, 24}, {60, 20}} {
				b.SetView(st.View(engine.SeatViewer(me)), board.Context{
					Viewer: engine.SeatViewer(me), Names: []string{"mara", "Bo", "Kai"}[:n],
					Status: st.Status(), Log: engine.FilterEvents(log, engine.SeatViewer(me)), Width: sz[0], Height: sz[1],
				})
				state := func() string { return stateOf(b) }
				for i, keys := range [][]string{{}, {"n"}, {"down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down"}, {"k"}, {"n"}, {"g", "1", "b"}, {"enter"}, {"esc", "down", "right"}} {
					press(b, keys...)
					boardtest.PureView(t, fmt.Sprintf("%dp turn %d %dx%d step %d", n, turn, sz[0], sz[1], i), b, state)
				}
				b.SetError("that move is not allowed now")
				boardtest.PureView(t, fmt.Sprintf("%dp turn %d error", n, turn), b, state)
			}
			log = append(log, ask(t, st, 1)...)
		}
	}
}

// TestNotepadOffersScrollAsItOpens: a notepad longer than the board offers
// ↑/↓ scroll from the moment it opens; it showed only once a key had
// scrolled it (its length was learnt at the next SetSize).
func TestNotepadOffersScrollAsItOpens(t *testing.T) {
	st := dealOpts(t, 3, 5, nil)
	log := ask(t, st, 3)
	view := st.View(engine.SeatViewer(st.Status().Active[0])).(bc.View)
	b, _ := renderView(view, st.Status(), log, 80, 19)
	b.Update(tea.KeyPressMsg(tea.Key{Code: 'n', Text: "n"}))
	before := b.View()
	b.Update(tea.KeyPressMsg(tea.Key{Code: tea.KeyDown}))
	if b.View() == before {
		t.Fatal("the notepad does not scroll at 80×19: the test checks nothing")
	}
	b.Update(tea.KeyPressMsg(tea.Key{Code: tea.KeyUp}))
	var keys []string
	for _, k := range b.ShortHelp() {
		keys = append(keys, k.Help().Key+" "+k.Help().Desc)
	}
	b2, _ := renderView(view, st.Status(), log, 80, 19)
	b2.Update(tea.KeyPressMsg(tea.Key{Code: 'n', Text: "n"}))
	var first []string
	for _, k := range b2.ShortHelp() {
		first = append(first, k.Help().Key+" "+k.Help().Desc)
	}
	if !slices.Contains(first, "↑/↓ scroll") {
		t.Errorf("a notepad that scrolls opens with keys %v (after a scroll: %v)", first, keys)
	}
}

// TestStatusLinesSayEachCase: the lines under the sheets say whose turn it
// is and what the viewer can do, each line one space in from the edge,
// for every case: watching, the viewer's turn and another's, a last
// chance (the viewer's and another's), broken the code, out, the game
// over, the last round and an error; a replay has none.
func TestStatusLinesSayEachCase(t *testing.T) {
	seats := []bc.SeatView{{Name: "mara"}, {Name: "Bo"}, {Name: "Kai"}}
	with := func(f func(*bc.SeatView)) []bc.SeatView {
		s := slices.Clone(seats)
		f(&s[0])
		return s
	}
	me, watcher := engine.SeatViewer(0), engine.Spectator()
	for _, c := range []struct {
		v      bc.View
		replay bool
		err    string
		want   []string
	}{
		{v: bc.View{Viewer: watcher, Seats: seats, ToMove: 1}, want: []string{" You are watching. Bo is to move."}},
		{v: bc.View{Viewer: me, Seats: seats, ToMove: 0}, want: []string{" ▸ Your turn: ask a question (enter) or guess the code (g)."}},
		{v: bc.View{Viewer: me, Seats: seats, ToMove: 0, CentreSize: 2}, want: []string{" ▸ Your turn: ask a question (enter) or guess the centre (g)."}},
		{v: bc.View{Viewer: me, Seats: seats, ToMove: 2}, want: []string{" Waiting for Kai to ask or guess."}},
		{v: bc.View{Viewer: me, Seats: seats, ToMove: 0, Phase: bc.LastChance}, want: []string{" Your last chance: guess the code to tie (g), or pass (p)."}},
		{v: bc.View{Viewer: me, Seats: seats, ToMove: 1, Phase: bc.LastChance}, want: []string{" Bo has a last chance to tie."}},
		{v: bc.View{Viewer: me, Seats: with(func(s *bc.SeatView) { s.GotIt = true }), ToMove: 1, RoundClosing: true},
			want: []string{" ✓ You broke the code! Waiting for the round to finish.", " Someone broke the code: this is the last round."}},
		{v: bc.View{Viewer: me, Seats: with(func(s *bc.SeatView) { s.GotIt = true })[:2], ToMove: 1, Phase: bc.LastChance},
			want: []string{" ✓ You broke the code! Bo has a last chance to tie."}},
		{v: bc.View{Viewer: me, Seats: with(func(s *bc.SeatView) { s.Out = true }), ToMove: 1},
			want: []string{" You have guessed and are out; you still answer questions."}},
		{v: bc.View{Viewer: me, Seats: seats, Phase: bc.Finished, RoundClosing: true}, want: []string{" The game is over."}},
		{v: bc.View{Viewer: me, Seats: seats, ToMove: 2}, err: "not your turn", want: []string{" Waiting for Kai to ask or guess.", " ! not your turn"}},
		{v: bc.View{Viewer: me, Seats: seats, ToMove: 2}, replay: true, want: []string{}},
	} {
		b := New(new(colourBoardStyles()), testKeys())
		b.v, b.has, b.err = c.v, true, c.err
		b.c = board.Context{Viewer: c.v.Viewer, Replay: c.replay, Names: []string{"mara", "Bo", "Kai"}, Width: 80, Height: 24}
		var got []string
		for _, l := range b.statusLines(80) {
			got = append(got, ansi.Strip(l))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%+v: status lines %q, want %q", c.v, got, c.want)
		}
	}
}
