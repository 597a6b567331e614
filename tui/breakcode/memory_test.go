package breakcode

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/codebreakers/codebreakers/engine"
	bc "github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/tui/board"
	"github.com/codebreakers/codebreakers/tui/board/boardtest"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// boardMemory are the fields of Board that only remember what was drawn;
// cold forgets them. boardState are the rest: what the board shows.
var (
	boardMemory = []string{"paint", "logs", "seatNotes", "shortHelp", "frames", "labels", "heads", "drawn", "blocks", "lower", "logScratch", "qhead", "qlist", "sheetScratch", "lineRoom", "statusRoom", "fit", "fitW"}
	boardState  = []string{"st", "km", "v", "has", "c", "cursor", "numPick", "guessing", "confirm", "input",
		"notepad", "scroll", "noteOverflow", "err", "errWhy", "framed", "busy", "gen"}
)

// cold is a copy of b that has forgotten everything it drew: it draws
// every piece afresh from b's state.
func cold(b *Board) *Board {
	c := *b
	c.paint, c.logs = newPaint(b.st), widget.LogCache{}
	c.seatNotes, c.shortHelp, c.frames, c.labels, c.heads, c.drawn = nil, nil, nil, seatLabels{}, nil, drawnLines{}
	c.blocks, c.lower, c.logScratch, c.qhead, c.qlist = nil, lowerLines{}, nil, questionsHeadLine{}, questionList{}
	c.sheetScratch, c.lineRoom, c.statusRoom, c.fit, c.fitW = nil, nil, nil, 0, 0
	return &c
}

// TestColdForgetsEveryMemory: every field of Board is either state or a
// memory that cold forgets, so a memory added later is checked by
// TestRememberedPiecesAreNeverStale as soon as it is listed.
func TestColdForgetsEveryMemory(t *testing.T) {
	typ := reflect.TypeFor[Board]()
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		if !slices.Contains(boardMemory, name) && !slices.Contains(boardState, name) {
			t.Errorf("Board.%s is neither state nor memory: list it (and forget it in cold if it is memory)", name)
		}
	}
}

// colourBoardStyles are a session's looks for the board: colours, so that
// pieces are styled strings as on a real terminal.
func colourBoardStyles() Styles {
	p := boardtest.ColourPieces()
	return Styles{Styles: boardtest.ColourStyles(), TileBlack: p.Black, TileWhite: p.White, TileGreen: p.Green, TileHidden: p.Hidden}
}

// TestRememberedPiecesAreNeverStale follows games to their end (the centre
// or the hands revealed) as a seat and as a spectator, with keys pressed,
// the window resized, a seat taken over by a bot and errors shown between
// moves, and checks after every step that the board that remembers what it
// drew draws exactly what a board that forgot it all draws, key bar
// included.
func TestRememberedPiecesAreNeverStale(t *testing.T) {
	fitted := 0 // lines the board said it fitted, checked
	defer func() {
		if fitted == 0 {
			t.Error("the board fitted no line itself: FittedFrom is not checked")
		}
	}()
	steps := [][]string{{}, {"down"}, {"right"}, {"3"}, {"n"}, {"down", "down"}, {"n"}, {"g"}, {"1"}, {"esc"}, {"up"}}
	sizes := [][2]int{{100, 30}, {80, 24}, {60, 20}, {120, 40}, {100, 31}}
	for _, n := range []int{2, 3, 4} {
		for _, viewer := range []engine.Viewer{engine.SeatViewer(0), engine.SeatViewer(1), engine.Spectator()} {
			b := New(new(colourBoardStyles()), testKeys())
			// Two games on one board, as a rematch at a table: new
			// tiles, new notes, the same seats.
			for game := range 2 {
				st := deal(t, n, uint64(60+n+10*game))
				names := []string{"mara", "Björk", "李小龙", "Ana"}[:n]
				bots := make([]bool, n)
				var log []engine.Event
				check := func(what string) {
					t.Helper()
					got, want := b.ViewLines(), cold(b).ViewLines()
					if !slices.Equal(got, want) {
						t.Fatalf("%dp %v game %d, %s: the board drew\n%s\nwhere one that forgot what it drew draws\n%s",
							n, viewer, game, what, strings.Join(got, "\n"), strings.Join(want, "\n"))
					}
					fittedLinesFit(t, fmt.Sprintf("%dp %v game %d, %s", n, viewer, game, what), b, got, &fitted)
					if got, want := keyText(b.ShortHelp()), keyText(cold(b).ShortHelp()); got != want {
						t.Fatalf("%dp %v, %s: key bar %q, afresh %q", n, viewer, what, got, want)
					}
					if hs := b.helpState(); !slices.Contains(helpStates(), hs) {
						t.Fatalf("%dp %v, %s: the key bar's state %b is not one Shared makes a list for", n, viewer, what, hs)
					}
				}
				for move := 0; ; move++ {
					if move == 3 {
						bots[n-1] = true // a bot takes the last seat: its label says so
					}
					if move == 5 {
						names = append([]string{"mara2"}, names[1:]...) // a handle shown anew
					}
					sz := sizes[move%len(sizes)]
					b.SetView(st.View(viewer), board.Context{
						Viewer: viewer, Names: names, Bots: bots, Status: st.Status(),
						Log: engine.FilterEvents(log, viewer), Width: sz[0], Height: sz[1],
					})
					b.SetSize(sz[0], sz[1])
					check("a new move")
					for _, keys := range steps {
						press(b, keys...)
						b.SetSize(sz[0], sz[1])
						check("keys " + strings.Join(keys, " "))
					}
					b.SetError("that move is not allowed now")
					check("an error")
					b.SetSize(sz[1]+40, sz[0]/3)
					check("a resize")
					// A handle shown anew as wide as before: one seat's
					// head line changes and nothing else on the sheets.
					names = slices.Clone(names)
					names[1] = map[string]string{"Björk": "Bjørk", "Bjørk": "Björk"}[names[1]]
					b.SetView(st.View(viewer), board.Context{
						Viewer: viewer, Names: names, Bots: bots, Status: st.Status(),
						Log: engine.FilterEvents(log, viewer), Width: sz[0], Height: sz[1],
					})
					b.SetSize(sz[0], sz[1])
					check("a handle shown anew")
					// Narrower by a few columns, the answers packed anew
					// into as many lines as they had (or nearly); then so
					// narrow that the questions are cut.
					for _, nw := range []int{sz[0] - 3, sz[0] - 9, 26} {
						b.SetSize(nw, sz[1])
						check(fmt.Sprintf("%d columns", nw))
					}
					b.SetSize(sz[0], sz[1])
					check("the width again") // the next move may keep it
					if st.Status().Finished {
						break
					}
					log = append(log, playOne(t, st, move)...)
				}
				if !strings.Contains(strings.Join(b.ViewLines(), "\n"), "over") {
					t.Fatalf("%dp %v: the game did not end: the test misses the revealed tiles", n, viewer)
				}
			}
		}
	}
}

// playOne plays the next move: a question, a wrong guess on the fifth
// (the turn passes and the cards face up stay, and the move after is
// drawn as wide as this one: only whose turn it is changes), or from the
// tenth move a right guess (the seat's opponent's hand or the centre),
// which ends the game; a last chance is passed.
func playOne(t *testing.T, st engine.State, move int) []engine.Event {
	t.Helper()
	seat := st.Status().Active[0]
	v := st.View(engine.SeatViewer(seat)).(bc.View)
	var act []byte
	switch {
	case v.Phase == bc.LastChance:
		act = bc.PassAction()
	case move == 4:
		act = bc.GuessAction(v.Hand) // never the code: it is the seat's own tiles
	case move >= 10 || len(v.FaceUp) == 0:
		all := st.View(engine.Omniscient()).(bc.View)
		right := all.Centre
		if v.CentreSize == 0 {
			right = all.Seats[1-seat].Hand
		}
		act = bc.GuessAction(right)
	default:
		num := 0
		if ns := bc.CardNumbers(v.FaceUp[0]); ns != nil {
			num = ns[0]
		}
		act = bc.AskAction(v.FaceUp[0], num)
	}
	evs, err := st.Apply(seat, act)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// keyText is a key bar's keys and what they do.
func keyText(ks []key.Binding) string {
	var b strings.Builder
	for _, k := range ks {
		b.WriteString(k.Help().Key + " " + k.Help().Desc + "; ")
	}
	return b.String()
}

// TestFacesAreTheTilesDrawn: the tiles drawn ahead with the styles are
// every tile, each as a board draws it itself, so boards with and without
// them draw the same frames.
func TestFacesAreTheTilesDrawn(t *testing.T) {
	st := colourBoardStyles()
	faced := st.WithFaces()
	if len(faced.faces) != 60 {
		t.Fatalf("%d tiles drawn ahead, want 60 (10 numbers × 3 colours × padded or not)", len(faced.faces))
	}
	for k, face := range faced.faces {
		if want := st.drawTile(k); face != want {
			t.Errorf("tile %v (padded %v) drawn ahead as %q, a board draws %q", k.t, k.padded, face, want)
		}
	}
	for _, viewer := range []engine.Viewer{engine.SeatViewer(0), engine.Spectator()} {
		st3 := deal(t, 3, 5)
		log := ask(t, st3, 4)
		c := board.Context{Viewer: viewer, Names: []string{"mara", "Bo", "Kai"}, Status: st3.Status(),
			Log: engine.FilterEvents(log, viewer), Width: 100, Height: 30}
		with, without := New(&faced, testKeys()), New(&st, testKeys())
		for _, b := range []*Board{with, without} {
			b.SetView(st3.View(viewer), c)
			b.SetSize(100, 30)
			press(b, "n")
		}
		if got, want := with.ViewLines(), without.ViewLines(); !slices.Equal(got, want) {
			t.Errorf("%v: with its tiles drawn ahead the board drew\n%s\nwithout\n%s", viewer, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestPackOntoIsPackOfAll: packing more items on after lines packed
// before (a seat's notes growing by a move's answers) makes the lines
// packing all of them at once makes, at widths where the items fill lines
// exactly, overflow them and are cut.
func TestPackOntoIsPackOfAll(t *testing.T) {
	items := []string{"sum 27", "8s/9s (8): d, e", "yes", "no", "black 2", "a long answer that is wider than the narrow widths", "c", "5s: none", "李小龙 asked: b"}
	for _, w := range []int{10, 12, 17, 24, 40, 80} {
		for cut := range len(items) + 1 {
			before, lastW := packOnto(nil, 0, items[:cut], w)
			shared := slices.Clone(before)
			got, gotW := packOnto(before, lastW, items[cut:], w)
			want, wantW := packOnto(nil, 0, items, w)
			if !slices.Equal(got, want) || gotW != wantW {
				t.Errorf("w %d, %d items then %d: packed on %q (last %d cells), at once %q (last %d)", w, cut, len(items)-cut, got, gotW, want, wantW)
			}
			if !slices.Equal(before, shared) {
				t.Errorf("w %d, cut %d: packing on changed the lines packed before: %q, were %q", w, cut, before, shared)
			}
			if len(want) > 0 && widget.Width(want[len(want)-1]) != wantW {
				t.Errorf("w %d: the last line %q is %d cells, packOnto says %d", w, want[len(want)-1], widget.Width(want[len(want)-1]), wantW)
			}
		}
	}
}

// TestSeatNotesAreTheViews: what the board keeps of the seats' notes to
// know them again is the drawn view's own slice, not a copy of it: the
// board holds that view anyway, and a copy was some KB of strings a board
// that a collection scanned. Move after move, as the notes grow, the board
// keeps the newest view's.
func TestSeatNotesAreTheViews(t *testing.T) {
	st := deal(t, 3, 5)
	b := New(new(colourBoardStyles()), testKeys())
	var log []engine.Event
	for move := range 6 {
		v := st.View(engine.SeatViewer(0))
		b.SetView(v, board.Context{Viewer: engine.SeatViewer(0), Names: []string{"mara", "Bo", "Kai"}, Status: st.Status(),
			Log: engine.FilterEvents(log, engine.SeatViewer(0)), Width: 100, Height: 30})
		b.SetSize(100, 30)
		_ = b.ViewLines()
		kept := 0
		for i, sv := range v.(bc.View).Seats {
			if len(sv.Notes) == 0 || i >= len(b.seatNotes) {
				continue
			}
			kept++
			if got := b.seatNotes[i].notes; len(got) != len(sv.Notes) || &got[0] != &sv.Notes[0] {
				t.Fatalf("move %d, seat %d: the board keeps its own copy of the seat's %d notes", move, i, len(sv.Notes))
			}
		}
		if move >= 2 && kept == 0 {
			t.Fatalf("move %d: no seat's notes were drawn: the test checks nothing", move)
		}
		log = append(log, ask(t, st, 1)...)
	}
}

// TestPaintersRememberOnlyWhatRepeats: through a game with the aid on, the
// board's painters remember the few texts every frame repeats (headings,
// names, the turn's prompt), not the ones a move makes new — the deck's
// count, the aid's counts of possible hands, the highlighted question —
// which are each drawn once and kept where the line they are in is kept;
// remembered, they were dozens of strings a board for the collector.
func TestPaintersRememberOnlyWhatRepeats(t *testing.T) {
	st := deal(t, 3, 7)
	b := New(new(colourBoardStyles()), testKeys())
	var log []engine.Event
	for move := 0; move < 14 && !st.Status().Finished; move++ {
		b.SetView(st.View(engine.SeatViewer(0)), board.Context{Viewer: engine.SeatViewer(0), Names: []string{"mara", "Bo", "Kai"},
			Status: st.Status(), Log: engine.FilterEvents(log, engine.SeatViewer(0)), Width: 100, Height: 30})
		b.SetSize(100, 30)
		_ = b.ViewLines()
		press(b, "down")
		_ = b.ViewLines()
		log = append(log, ask(t, st, 1)...)
	}
	p := &b.paint
	for name, pt := range map[string]*widget.Painter{"Dim": &p.Dim, "Selected": &p.Selected, "Strong": &p.Strong, "Heading": &p.Heading} {
		if n := pt.Len(); n > 4 {
			t.Errorf("the %s painter remembers %d texts after a game, want at most 4", name, n)
		}
	}
	if !strings.Contains(strings.Join(b.ViewLines(), "\n"), "possible]") {
		t.Fatal("the aid's counts were not drawn: the test checks nothing")
	}
}

// TestSeatLabelsRememberInTwoSlices: what the sheets' labels are made
// from (the context's names and bots, the view's) is kept in two slices,
// not four, and still tells a change of any of them from none.
func TestSeatLabelsRememberInTwoSlices(t *testing.T) {
	st := deal(t, 3, 7)
	b := New(new(colourBoardStyles()), testKeys())
	c := board.Context{Viewer: engine.SeatViewer(0), Names: []string{"mara", "Bo", "Kai"}, Bots: []bool{false, false, true},
		Status: st.Status(), Width: 100, Height: 30}
	b.SetView(st.View(engine.SeatViewer(0)), c)
	var m seatLabels
	// Two slices; the race detector's instrumentation may add one. Four
	// slices were four.
	if n := testing.AllocsPerRun(10, func() { m = seatLabels{}; m.remember(b) }); n > 3 {
		t.Errorf("remembering the labels' sources took %.0f objects, want 2", n)
	}
	if !m.same(b) {
		t.Fatal("the labels' sources differ from the board they were taken from")
	}
	for name, change := range map[string]func(c *board.Context){
		"a context name": func(c *board.Context) { c.Names = []string{"mara", "Bob", "Kai"} },
		"a context bot":  func(c *board.Context) { c.Bots = []bool{false, true, true} },
		"no names":       func(c *board.Context) { c.Names = nil },
		"the viewer":     func(c *board.Context) { c.Viewer = engine.SeatViewer(1) },
	} {
		c2 := c
		change(&c2)
		b.SetView(st.View(c2.Viewer), c2)
		if m.same(b) {
			t.Errorf("%s changed and the labels' sources still read the same", name)
		}
	}
	v := st.View(engine.SeatViewer(0))
	b.SetView(v, c)
	if !m.same(b) {
		t.Fatal("the board set back as it was reads as changed")
	}
}

// fittedLinesFit checks that every line the board says it fitted
// (FittedFrom) is at most the board's width wide, that it says none for
// another width, and counts the lines checked into n.
func fittedLinesFit(t *testing.T, what string, b *Board, lines []string, n *int) {
	t.Helper()
	w := b.c.Width
	if from := b.FittedFrom(w + 1); from < len(lines) {
		t.Fatalf("%s: the board says it fitted lines from %d to %d columns, not drawn at that width", what, from, w+1)
	}
	for i := min(b.FittedFrom(w), len(lines)); i < len(lines); i++ {
		*n++
		if got := widget.Width(lines[i]); got > w {
			t.Fatalf("%s: line %d, which the board says it fitted to %d columns, is %d wide: %q", what, i, w, got, lines[i])
		}
	}
}

// TestSharedKeysGiveEveryBoardOneList: boards drawn with keys made Shared
// (as every session's are) read the key bar's list from the keys, the
// same array for all, and keep none of their own; each list reads as
// the list a board with its own keys makes for that state.
func TestSharedKeysGiveEveryBoardOneList(t *testing.T) {
	shared := testKeys().Shared()
	a, b := New(new(colourBoardStyles()), &shared), New(new(colourBoardStyles()), &shared)
	own := New(new(colourBoardStyles()), testKeys())
	for _, st := range helpStates() {
		got, same := a.helpFor(st), b.helpFor(st)
		if len(got) > 0 && &got[0] != &same[0] {
			t.Errorf("state %b: two boards with shared keys hold two lists", st)
		}
		if want := own.helpFor(st); keyText(got) != keyText(want) {
			t.Errorf("state %b: shared keys give %q, a board's own %q", st, keyText(got), keyText(want))
		}
	}
	if len(a.shortHelp) != 0 || len(b.shortHelp) != 0 {
		t.Errorf("boards with shared keys remembered lists of their own (%d, %d)", len(a.shortHelp), len(b.shortHelp))
	}
	if len(own.shortHelp) == 0 {
		t.Error("a board with keys of its own remembered no list: the test does not reach it")
	}
}
