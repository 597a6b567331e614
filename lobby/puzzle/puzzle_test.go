package puzzle

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/analysis"
	"github.com/codebreakers/codebreakers/engine/analysis/analysistest"
	"github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/engine/coding"
	"github.com/codebreakers/codebreakers/engine/ifthen"
	"github.com/codebreakers/codebreakers/engine/whattherule"
	"github.com/codebreakers/codebreakers/lobby/analyst"
	"github.com/codebreakers/codebreakers/storage"
)

func registry() *engine.Registry {
	return engine.NewRegistry(breakcode.Game{}, coding.Game{}, ifthen.Game{}, whattherule.Game{})
}

type world struct {
	t     *testing.T
	db    *storage.DB
	reg   *engine.Registry
	clock time.Time
	svc   *Service
}

func newWorld(t *testing.T) *world {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "codebreakers.db"), storage.Options{Timeout: time.Second, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	w := &world{t: t, db: db, reg: registry(), clock: time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)}
	an := analyst.New(analyst.Config{Games: w.reg, Store: db})
	w.svc = New(db, an, w.reg, func() time.Time { return w.clock })
	return w
}

// finish stores a seeded bot game of g finished at the given time.
func (w *world) finish(g engine.Game, seed uint64, public bool, at time.Time, levels ...string) string {
	w.t.Helper()
	rec := analysistest.BotRecord(w.t, g, nil, seed, levels...)
	id, err := w.db.NewGameID()
	if err != nil {
		w.t.Fatal(err)
	}
	seats := make([]storage.SeatRecord, len(levels))
	for i := range seats {
		seats[i] = storage.SeatRecord{Handle: fmt.Sprintf("bot%d", i), Bot: true}
	}
	live := storage.LiveGame{ID: id, Public: public, Seats: seats, Record: rec, Started: at.Add(-time.Hour)}
	if err := w.db.StartGame(live); err != nil {
		w.t.Fatal(err)
	}
	st, _, err := engine.Replay(w.reg, rec, -1)
	if err != nil {
		w.t.Fatal(err)
	}
	res, _ := st.Result()
	if err := w.db.FinishGame(storage.FinishedGame{LiveGame: live, Result: res, Finished: at}); err != nil {
		w.t.Fatal(err)
	}
	return id
}

func (w *world) account(handle string) string {
	w.t.Helper()
	id := "SHA256:" + handle
	if _, err := w.db.ClaimHandle(id, handle); err != nil {
		w.t.Fatal(err)
	}
	return id
}

// TestPuzzleOfTheDay: the day's Break the Code puzzle comes from a public
// game finished before the day, at a position whose best question clearly
// beats the rest, seen by the seat that moved there; it stays the same all
// day; each key answers once; solving two days running makes a streak; the
// day's table lists the solvers.
func TestPuzzleOfTheDay(t *testing.T) {
	w := newWorld(t)
	yesterday := w.clock.Add(-20 * time.Hour)
	var public []string
	for seed := uint64(1); seed <= 3; seed++ {
		public = append(public, w.finish(breakcode.Game{}, seed, true, yesterday, "strong", "easy", "strong"))
	}
	w.finish(breakcode.Game{}, 9, false, yesterday, "easy", "easy") // private: never a puzzle
	mara, bo := w.account("mara"), w.account("bo")
	ctx := context.Background()

	d, err := w.svc.Today(ctx, breakcode.ID, mara)
	if err != nil {
		t.Fatal(err)
	}
	p := d.Puzzle
	if p.None || p.Date != "2026-11-26" || d.Try != nil {
		t.Fatalf("no puzzle: %+v", d)
	}
	found := false
	for _, id := range public {
		found = found || id == p.GameID
	}
	if !found {
		t.Fatalf("the puzzle's game %s is not one of the public games %v", p.GameID, public)
	}
	best := p.Options[p.Best].Bits
	for i, o := range p.Options {
		if i != p.Best && best-o.Bits < max(minMargin, minShare*best) {
			t.Errorf("option %q (%.3f bits) is too close to the best %.3f", o.Label, o.Bits, best)
		}
	}
	if p.Best == 0 && len(p.Options) > 3 {
		t.Logf("the best option came first (allowed, by the day's hash)")
	}
	pos, err := w.svc.Position(p)
	if err != nil {
		t.Fatal(err)
	}
	v, g := pos.View.(breakcode.View), pos.Game
	if (p.Move > 0 && len(pos.Log) == 0) || pos.Status.Finished {
		t.Fatalf("the position has no log, or is the end: %d events, %+v", len(pos.Log), pos.Status)
	}
	if !v.Viewer.IsSeat(p.Seat) || !v.CanAsk() || g.ID != p.GameID {
		t.Fatalf("the position is not the mover's, about to ask: viewer %+v, can ask %v", v.Viewer, v.CanAsk())
	}
	rep, err := analysis.Analyze(w.reg, g.Record)
	if err != nil {
		t.Fatal(err)
	}
	if i := rep.StepAt(p.Move); i < 0 || rep.Steps[i].Seat != p.Seat || !Eligible(rep.Steps[i]) {
		t.Fatalf("move %d is not an eligible step of the game's analysis", p.Move)
	}

	// A game finishing today changes nothing: the puzzle stands.
	w.finish(breakcode.Game{}, 4, true, w.clock.Add(-time.Minute), "strong", "strong")
	again, err := w.svc.Today(ctx, breakcode.ID, bo)
	if err != nil || again.Puzzle.GameID != p.GameID || again.Puzzle.Move != p.Move {
		t.Fatalf("the puzzle changed during the day: %+v %v", again.Puzzle, err)
	}

	w.clock = w.clock.Add(time.Minute)
	d, err = w.svc.Answer(ctx, breakcode.ID, mara, p.Best)
	if err != nil || d.Try == nil || !d.Try.Solved || d.Streak.Current != 1 || len(d.Solvers) != 1 || d.Solvers[0].Handle != "mara" {
		t.Fatalf("mara solves: %+v %v", d, err)
	}
	if _, err := w.svc.Answer(ctx, breakcode.ID, mara, (p.Best+1)%len(p.Options)); !errors.Is(err, storage.ErrAlreadyTried) {
		t.Fatalf("a second try the same day: %v", err)
	}
	d, err = w.svc.Answer(ctx, breakcode.ID, bo, (p.Best+1)%len(p.Options))
	if err != nil || d.Try.Solved || d.Answered != 2 || len(d.Solvers) != 1 {
		t.Fatalf("bo misses: %+v %v", d, err)
	}
	if _, err := w.svc.Answer(ctx, breakcode.ID, "", 0); err == nil {
		t.Fatal("a guest answered")
	}
	if d, err := w.svc.Today(ctx, breakcode.ID, ""); err != nil || d.Try != nil || d.Answered != 2 {
		t.Fatalf("a guest's view of the day: %+v %v", d, err)
	}

	// The next day: a new puzzle (from the games before it), one more try.
	w.clock = w.clock.Add(24 * time.Hour)
	d, err = w.svc.Today(ctx, breakcode.ID, mara)
	if err != nil || d.Puzzle.None || d.Puzzle.Date != "2026-11-27" || d.Try != nil || d.Streak.Current != 1 {
		t.Fatalf("the next day: %+v %v", d, err)
	}
	d, err = w.svc.Answer(ctx, breakcode.ID, mara, d.Puzzle.Best)
	if err != nil || d.Streak.Current != 2 || d.Streak.Best != 2 {
		t.Fatalf("two days running: %+v %v", d.Streak, err)
	}
}

// TestNoPuzzleWithoutPublicGames: a game with no public finished game
// before the day has no puzzle that day (and says so, all day).
func TestNoPuzzleWithoutPublicGames(t *testing.T) {
	w := newWorld(t)
	w.finish(coding.Game{}, 1, false, w.clock.Add(-time.Hour*30), "strong", "easy")
	d, err := w.svc.Today(context.Background(), coding.ID, "")
	if err != nil || !d.Puzzle.None {
		t.Fatalf("want no puzzle: %+v %v", d, err)
	}
	w.finish(coding.Game{}, 2, true, w.clock.Add(-time.Minute), "strong", "easy")
	if d, _ := w.svc.Today(context.Background(), coding.ID, ""); !d.Puzzle.None {
		t.Fatal("a game finished today made a puzzle for today")
	}
	if _, err := w.svc.Answer(context.Background(), coding.ID, w.account("kai"), 0); err == nil {
		t.Fatal("answered a day with no puzzle")
	}
	if _, err := w.svc.Today(context.Background(), "chess", ""); err == nil {
		t.Fatal("a puzzle of an unknown game")
	}
}

// TestEveryGameMakesPuzzles: each game's analyses offer eligible positions
// in ordinary bot games, so every game can have a puzzle.
func TestEveryGameMakesPuzzles(t *testing.T) {
	reg := registry()
	for _, c := range []struct {
		g      engine.Game
		opts   engine.Options
		levels []string
		games  uint64 // bot games looked at (4 unless told)
	}{
		{breakcode.Game{}, nil, []string{"strong", "easy"}, 0},
		// A hacking turn that opens a round offers a Hack card to either
		// opponent (ten options), and a clear best among ten is rarer: about
		// one three-player game in five has an eligible position.
		{coding.Game{}, nil, []string{"strong", "easy", "strong"}, 8},
		// Plays are yes/no, worth a bit at most, and often about as much as
		// each other: clear puzzles are rarer (about one play in 8 at level 0,
		// one in 50 at levels 1–3).
		{ifthen.Game{}, engine.Options{"level": "0"}, []string{"strong", "strong", "easy"}, 0},
		{whattherule.Game{}, nil, []string{"strong", "easy", "strong"}, 0},
	} {
		games := c.games
		if games == 0 {
			games = 4
		}
		eligible := 0
		for seed := uint64(1); seed <= games; seed++ {
			rep, err := analysis.Analyze(reg, analysistest.BotRecord(t, c.g, c.opts, seed, c.levels...))
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range rep.Steps {
				if Eligible(st) {
					eligible++
				}
			}
		}
		if eligible == 0 {
			t.Errorf("%s: no eligible position in %d games", c.g.Info().Name, games)
		}
	}
}

// TestPuzzleGameIsWithheldUntilAnswered: a replay of the puzzle's game
// shows the best move at every step, and the game is easy to find (the
// puzzle names its player, whose profile lists it). Until an account has
// answered, the day's puzzle game is withheld from it, and from guests all
// day; not from those who played it, nor any other game, nor once the day
// is over.
func TestPuzzleGameIsWithheldUntilAnswered(t *testing.T) {
	w := newWorld(t)
	yesterday := w.clock.Add(-20 * time.Hour)
	var public []string
	for seed := uint64(1); seed <= 3; seed++ {
		public = append(public, w.finish(breakcode.Game{}, seed, true, yesterday, "strong", "easy", "strong"))
	}
	mara := w.account("mara")
	withholds := func(id, account string) bool {
		t.Helper()
		g, err := w.db.Game(id)
		if err != nil {
			t.Fatal(err)
		}
		if account == "player" { // someone who sat in it
			g.Seats[1].AccountID, account = "SHA256:player", "SHA256:player"
		}
		held, err := w.svc.Withholds(g, account)
		if err != nil {
			t.Fatal(err)
		}
		return held
	}
	if withholds(public[0], mara) || withholds(public[0], "") {
		t.Fatal("a game is withheld before any puzzle of the day was chosen")
	}
	ctx := context.Background()
	d, err := w.svc.Today(ctx, breakcode.ID, mara)
	if err != nil || d.Puzzle.None {
		t.Fatalf("no puzzle: %+v %v", d, err)
	}
	p := d.Puzzle
	if !withholds(p.GameID, mara) || !withholds(p.GameID, "") {
		t.Error("the puzzle's game replays before its answer")
	}
	if withholds(p.GameID, "player") {
		t.Error("the puzzle's game is withheld from someone who played it")
	}
	for _, id := range public {
		if id != p.GameID && withholds(id, mara) {
			t.Errorf("game %s, not the puzzle's, is withheld", id)
		}
	}
	if _, err := w.svc.Answer(ctx, breakcode.ID, mara, 0); err != nil {
		t.Fatal(err)
	}
	if withholds(p.GameID, mara) {
		t.Error("the puzzle's game is withheld after the answer")
	}
	if !withholds(p.GameID, "") {
		t.Error("a guest replays the puzzle's game once someone answered")
	}
	w.clock = w.clock.Add(24 * time.Hour)
	if withholds(p.GameID, "") {
		t.Error("yesterday's puzzle game is withheld today")
	}
}
