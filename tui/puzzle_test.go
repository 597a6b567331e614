package tui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/analysis"
	bc "github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/lobby/puzzle"
	"github.com/codebreakers/codebreakers/storage"
)

// fakePuzzles serves one Break the Code puzzle made from a finished game:
// the position before the first question asked after move 2.
type fakePuzzles struct {
	game    storage.FinishedGame
	p       storage.Puzzle
	tries   map[string]storage.PuzzleTry
	answers int
}

func newFakePuzzles(t *testing.T) *fakePuzzles {
	t.Helper()
	g := finishedGame(t)
	rep, err := analysis.Analyze(registry(), g.Record)
	if err != nil {
		t.Fatal(err)
	}
	st := rep.Steps[2]
	p := storage.Puzzle{Date: "2026-11-26", Game: bc.ID, GameID: g.ID, Move: st.Move, Seat: st.Seat, Knew: st.Knew,
		Options: st.Options, Best: 0}
	return &fakePuzzles{game: g, p: p, tries: map[string]storage.PuzzleTry{}}
}

func (f *fakePuzzles) day(game, account string) puzzle.Day {
	if game != bc.ID {
		return puzzle.Day{Puzzle: storage.Puzzle{Game: game, None: true}}
	}
	d := puzzle.Day{Puzzle: f.p, Answered: len(f.tries)}
	if t, ok := f.tries[account]; ok {
		d.Try = &t
		if t.Solved {
			d.Streak = storage.Streak{Current: 1, Best: 1, Solved: 1, Tried: 1}
		}
	}
	for acct, t := range f.tries {
		if t.Solved {
			d.Solvers = append(d.Solvers, storage.Solver{Handle: strings.TrimPrefix(acct, "SHA256:")})
		}
	}
	return d
}

func (f *fakePuzzles) Today(_ context.Context, game, account string) (puzzle.Day, error) {
	return f.day(game, account), nil
}

func (f *fakePuzzles) Answer(_ context.Context, game, account string, choice int) (puzzle.Day, error) {
	f.answers++
	if _, ok := f.tries[account]; ok {
		return puzzle.Day{}, storage.ErrAlreadyTried
	}
	if account == "" || game != bc.ID {
		return puzzle.Day{}, errors.New("no")
	}
	f.tries[account] = storage.PuzzleTry{Account: account, Choice: choice, Solved: choice == f.p.Best, At: time.Now()}
	return f.day(game, account), nil
}

// Withholds holds back the puzzle's game from an account that has not
// answered, as the service does for today's puzzle.
func (f *fakePuzzles) Withholds(g storage.FinishedGame, account string) (bool, error) {
	_, tried := f.tries[account]
	return g.ID == f.p.GameID && !tried, nil
}

func (f *fakePuzzles) Position(p storage.Puzzle) (puzzle.Position, error) {
	st, evs, err := engine.Replay(registry(), f.game.Record, p.Move)
	if err != nil {
		return puzzle.Position{}, err
	}
	seat := engine.SeatViewer(p.Seat)
	return puzzle.Position{View: st.View(seat), Status: st.Status(), Log: engine.FilterEvents(evs, seat), Game: f.game}, nil
}

// TestPuzzleOfTheDayScreens: the menu lists every game's puzzle; a puzzle
// shows the position as its seat saw it, then the moves; an answer needs a
// second enter, is taken once, and the result shows every move's bits with
// the best and the player's own marked; the screens fit 80×24.
func TestPuzzleOfTheDayScreens(t *testing.T) {
	fp := newFakePuzzles(t)
	store := newFakeStore()
	store.games[fp.game.ID] = fp.game
	m := newTestApp(t, &fakeHub{}, store, 80, 24)
	m.puzzles = fp
	m.now = func() time.Time { return time.Date(2026, 11, 26, 23, 30, 0, 0, time.FixedZone("UTC-5", -5*3600)) }
	chooseHome(t, m, "Puzzle of the day")
	out := screenText(m)
	if !strings.Contains(out, "Break the Code") || !strings.Contains(out, "not answered yet") {
		t.Fatalf("puzzle menu:\n%s", out)
	}
	// The title says which day's puzzles these are (it said "UTC day").
	if title := strings.SplitN(out, "\n", 2)[0]; !strings.HasSuffix(strings.TrimSpace(title), "2026-11-27 (UTC)") {
		t.Errorf("the puzzle menu's title does not give the UTC date: %q", title)
	}
	checkFits(t, m, 80, 24)
	press(t, m, "enter")
	s, ok := m.top().(*puzzleScreen)
	if !ok || s.pos == nil {
		t.Fatalf("puzzle not opened: %T\n%s", m.top(), screenText(m))
	}
	view := s.pos.View.(bc.View)
	out = screenText(m)
	if !strings.Contains(out, "about to move") || !strings.Contains(out, "a "+view.Hand[0].String()) {
		t.Fatalf("the position does not show the seat's own tiles %v:\n%s", view.Hand, out)
	}
	for i, sv := range view.Seats {
		if sv.Hand != nil && !view.Viewer.IsSeat(engine.Seat(i)) {
			t.Fatalf("the position shows seat %d's hidden tiles", i)
		}
	}
	checkFits(t, m, 80, 24)
	press(t, m, "enter")
	out = screenText(m)
	for _, o := range fp.p.Options {
		if !strings.Contains(out, o.Label) {
			t.Errorf("move %q not offered:\n%s", o.Label, out)
		}
	}
	if strings.Contains(out, "bits") {
		t.Errorf("the bits show before the answer:\n%s", out)
	}
	checkFits(t, m, 80, 24)
	press(t, m, "V") // not before an answer: the replay shows every hand
	if _, ok := m.top().(*puzzleScreen); !ok {
		t.Fatalf("V before answering opened %T", m.top())
	}
	press(t, m, "down", "enter")
	if fp.answers != 0 || !strings.Contains(screenText(m), "Press enter again") {
		t.Fatalf("one enter answered:\n%s", screenText(m))
	}
	press(t, m, "enter")
	out = screenText(m)
	if fp.answers != 1 || !strings.Contains(out, "Not the best move") || !strings.Contains(out, "★ best") || !strings.Contains(out, "yours") {
		t.Fatalf("after answering the second move:\n%s", out)
	}
	for _, o := range fp.p.Options {
		if !strings.Contains(out, o.Label) {
			t.Errorf("result lacks %q:\n%s", o.Label, out)
		}
	}
	checkFits(t, m, 80, 24)
	press(t, m, "enter", "enter") // answered: enter does nothing more
	if fp.answers != 1 {
		t.Fatalf("answered %d times", fp.answers)
	}
	// Answered, the game it came from opens at V (the screen said "replay
	// it" and offered no way to), and esc comes back to the answer.
	if lines := strings.Split(screenText(m), "\n"); !strings.Contains(lines[len(lines)-1], "V replay") {
		t.Errorf("the answered puzzle's key bar lacks V replay: %q", lines[len(lines)-1])
	}
	press(t, m, "V")
	if r, ok := m.top().(*replayScreen); !ok || r.game.ID != fp.game.ID {
		t.Fatalf("V on the answered puzzle opened %T, want the replay of %s\n%s", m.top(), fp.game.ID, screenText(m))
	}
	press(t, m, "esc")
	if _, ok := m.top().(*puzzleScreen); !ok {
		t.Fatalf("esc from the replay went to %T, want the puzzle", m.top())
	}
	press(t, m, "esc")
	if out := screenText(m); !strings.Contains(out, "✗ answered") {
		t.Fatalf("the menu does not show the answer:\n%s", out)
	}
}

// TestPuzzleGuestCannotAnswer: a guest sees the puzzle but is told that an
// answer needs a key.
func TestPuzzleGuestCannotAnswer(t *testing.T) {
	fp := newFakePuzzles(t)
	m := newTestApp(t, &fakeHub{}, nil, 80, 24)
	m.id = lobby.Identity{Guest: true, Handle: "guest-1", Account: "guest:1"}
	m.puzzles = fp
	run(t, m, openPuzzles(m))
	press(t, m, "enter", "enter", "enter", "enter")
	if fp.answers != 0 || !strings.Contains(screenText(m), "needs an SSH key") {
		t.Fatalf("guest answer:\n%s", screenText(m))
	}
}

// noPuzzles has no puzzle of any game today, as on a new server.
type noPuzzles struct{}

func (noPuzzles) Today(_ context.Context, game, _ string) (puzzle.Day, error) {
	return puzzle.Day{Puzzle: storage.Puzzle{Game: game, None: true}}, nil
}
func (noPuzzles) Answer(context.Context, string, string, int) (puzzle.Day, error) {
	return puzzle.Day{}, errors.New("no puzzle")
}
func (noPuzzles) Withholds(storage.FinishedGame, string) (bool, error) { return false, nil }
func (noPuzzles) Position(storage.Puzzle) (puzzle.Position, error) {
	return puzzle.Position{}, errors.New("no puzzle")
}

// TestNoPuzzleTodaySaysWhy: with no puzzle (a new server, whose games all
// finished today) the menu says why and when there will be one — a day's
// puzzles come from games finished before it — not only "none today".
func TestNoPuzzleTodaySaysWhy(t *testing.T) {
	m := newTestApp(t, &fakeHub{}, nil, 80, 24)
	m.puzzles = noPuzzles{}
	chooseHome(t, m, "Puzzle of the day")
	// Said as the row is chosen, not as an error after enter, which is
	// not offered: there is nothing to open.
	out := strings.Join(strings.Fields(screenText(m)), " ")
	for _, want := range []string{"no puzzle today", "finished in the two weeks before today", "come back tomorrow"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q:\n%s", want, screenText(m))
		}
	}
	if bar := keyBarText(m); strings.Contains(bar, "enter") || strings.Contains(out, "! ") {
		t.Errorf("a game without a puzzle offers enter (%q) or says why as an error:\n%s", bar, screenText(m))
	}
	press(t, m, "enter")
	if _, ok := m.top().(*puzzleMenu); !ok {
		t.Errorf("enter on a game without a puzzle opened %T", m.top())
	}
	checkFits(t, m, 80, 24)
}

// TestPuzzleIntroFlowsAtAnyWidth: the menu's one-sentence introduction was
// two fixed lines made for 80 columns; in a 60-column window the first
// wrapped and left "pick the move" alone on a line. It flows now.
func TestPuzzleIntroFlowsAtAnyWidth(t *testing.T) {
	m := newTestApp(t, &fakeHub{}, nil, 60, 20)
	m.puzzles = noPuzzles{}
	chooseHome(t, m, "Puzzle of the day")
	for l := range strings.SplitSeq(screenText(m), "\n") {
		if strings.TrimSpace(l) == "pick the move" {
			t.Errorf("the introduction breaks mid-sentence:\n%s", screenText(m))
		}
	}
	flat := strings.Join(strings.Fields(screenText(m)), " ")
	if !strings.Contains(flat, "from a real finished game: pick the move that tells the most. One try a day.") {
		t.Errorf("the introduction is not all there:\n%s", screenText(m))
	}
	checkFits(t, m, 60, 20)
}
