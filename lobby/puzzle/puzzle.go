// Package puzzle is the puzzle of the day: every UTC day, for every game,
// one position of a real finished public game where one move is clearly
// worth more information than every other, shown as its seat saw it.
// Each account may answer once a day per game; answers, streaks and the
// day's solvers are kept in storage.
//
// A day's puzzle is chosen the first time anyone asks for it, from the
// analyses of the public games that finished in the fortnight before that
// day, so it never changes once shown and every process agrees on it
// (storage keeps the first one set).
package puzzle

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"sync"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/analysis"
	"github.com/codebreakers/codebreakers/storage"
)

// Store is what puzzles read and write (*storage.DB satisfies it).
type Store interface {
	FinishedGames(q storage.ListQuery) ([]storage.GameSummary, error)
	Game(id string) (storage.FinishedGame, error)
	PuzzleOf(date, game string) (storage.Puzzle, error)
	SetPuzzle(p storage.Puzzle) (storage.Puzzle, error)
	TryPuzzle(date, game, account string, choice int, at time.Time) (storage.PuzzleTry, storage.Streak, error)
	PuzzleTryOf(date, game, account string) (storage.PuzzleTry, error)
	StreakOf(account, game, today string) (storage.Streak, error)
	PuzzleSolvers(date, game string, limit int) ([]storage.Solver, int, error)
}

// Analyst gives a finished game's analysis (*analyst.Analyst satisfies it).
type Analyst interface {
	Report(ctx context.Context, g storage.FinishedGame) (analysis.Report, error)
}

// Selection rules: how far back games are looked for, how many are
// weighed, and what makes a best move "clearly better".
const (
	lookBack    = 14 * 24 * time.Hour
	maxGames    = 30
	minOptions  = 3
	minBestBits = 0.5
	minMargin   = 0.15 // bits over the second best, at least…
	minShare    = 0.15 // …and this share of the best
	// SolversShown is how many of a day's solvers a table lists.
	SolversShown = 10
)

// Service chooses, shows and scores puzzles.
type Service struct {
	store   Store
	analyst Analyst
	games   *engine.Registry
	now     func() time.Time
	// choosing serialises the first choice of a day's puzzle in this process.
	choosing sync.Mutex
}

// New returns the puzzle service; now is the clock (nil: time.Now).
func New(store Store, an Analyst, games *engine.Registry, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{store: store, analyst: an, games: games, now: now}
}

// Day is one game's puzzle of the day as one account sees it.
type Day struct {
	Puzzle storage.Puzzle
	// Try is the account's answer, nil before it answers.
	Try    *storage.PuzzleTry
	Streak storage.Streak
	// Solvers lists the first solvers of the day; Answered counts everyone
	// who answered.
	Solvers  []storage.Solver
	Answered int
}

// Mark is how option i of the puzzle reads beside its bits: "★ best",
// "yours" (the account's answer), both, or nothing — the same words in the
// arcade and over ssh.
func (d Day) Mark(i int) string {
	best, yours := i == d.Puzzle.Best, d.Try != nil && i == d.Try.Choice
	switch {
	case best && yours:
		return "★ best · yours"
	case best:
		return "★ best"
	case yours:
		return "yours"
	}
	return ""
}

// Today returns game's puzzle of the current UTC day for account ("" for
// a guest: no answer and no streak), choosing it first if nobody has yet.
func (s *Service) Today(ctx context.Context, game, account string) (Day, error) {
	date := s.now().UTC().Format(storage.DateLayout)
	p, err := s.puzzleOf(ctx, date, game)
	if err != nil {
		return Day{}, err
	}
	return s.day(p, account, date)
}

func (s *Service) day(p storage.Puzzle, account, date string) (Day, error) {
	d := Day{Puzzle: p}
	if p.None {
		return d, nil
	}
	if account != "" {
		t, err := s.store.PuzzleTryOf(date, p.Game, account)
		switch {
		case err == nil:
			d.Try = &t
		case !errors.Is(err, storage.ErrNotFound):
			return Day{}, err
		}
		if d.Streak, err = s.store.StreakOf(account, p.Game, date); err != nil {
			return Day{}, err
		}
	}
	var err error
	d.Solvers, d.Answered, err = s.store.PuzzleSolvers(date, p.Game, SolversShown)
	return d, err
}

// Answer records account's answer (an index into the puzzle's options) to
// today's puzzle of game and returns the day as it stands after it. A
// second answer the same day fails with an error matching
// storage.ErrAlreadyTried.
func (s *Service) Answer(ctx context.Context, game, account string, choice int) (Day, error) {
	if account == "" {
		return Day{}, errors.New("puzzle: guests cannot answer")
	}
	now := s.now().UTC()
	date := now.Format(storage.DateLayout)
	p, err := s.puzzleOf(ctx, date, game)
	if err != nil {
		return Day{}, err
	}
	if _, _, err := s.store.TryPuzzle(date, game, account, choice, now); err != nil {
		return Day{}, err
	}
	return s.day(p, account, date)
}

// Position is a puzzle's position exactly as its seat saw it.
type Position struct {
	View   any // the seat's view
	Status engine.Status
	Log    []engine.Event // every event the seat had seen, oldest first
	Game   storage.FinishedGame
}

// Position replays the puzzle's game to its position and returns what the
// seat saw there.
func (s *Service) Position(p storage.Puzzle) (Position, error) {
	g, err := s.store.Game(p.GameID)
	if err != nil {
		return Position{}, fmt.Errorf("puzzle position: %w", err)
	}
	st, evs, err := engine.Replay(s.games, g.Record, p.Move)
	if err != nil {
		return Position{}, fmt.Errorf("puzzle position: %w", err)
	}
	seat := engine.SeatViewer(p.Seat)
	return Position{View: st.View(seat), Status: st.Status(), Log: engine.FilterEvents(evs, seat), Game: g}, nil
}

// Withholds reports whether account may not replay g yet: g is the
// puzzle of the day of its game (chosen already), and account has neither
// answered it nor played in it. A replay shows every hand and, with its
// analysis, the best move at every step: the puzzle's answer. The game is
// easy to find (the puzzle names the player who moved, whose profile lists
// their recent public games), so without this one look gave the answer and
// a place among the day's solvers. A guest ("") cannot answer, so the game
// is withheld from guests for the day: a guest session would otherwise
// read the answer for a key. Tomorrow the game is no puzzle and replays
// for everyone.
func (s *Service) Withholds(g storage.FinishedGame, account string) (bool, error) {
	date := s.now().UTC().Format(storage.DateLayout)
	p, err := s.store.PuzzleOf(date, g.Record.Game)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return false, nil // not chosen yet: nobody has seen it
	case err != nil:
		return false, err
	case p.None || p.GameID != g.ID:
		return false, nil
	case account == "":
		return true, nil
	}
	for _, st := range g.Seats {
		if st.AccountID == account {
			return false, nil // they played it: it holds nothing they have not seen
		}
	}
	_, err = s.store.PuzzleTryOf(date, p.Game, account)
	switch {
	case err == nil:
		return false, nil
	case errors.Is(err, storage.ErrNotFound):
		return true, nil
	}
	return false, err
}

// puzzleOf returns the stored puzzle of date for game, choosing it when
// there is none yet.
func (s *Service) puzzleOf(ctx context.Context, date, game string) (storage.Puzzle, error) {
	if _, ok := s.games.Lookup(game); !ok {
		return storage.Puzzle{}, fmt.Errorf("puzzle: unknown game %q", game)
	}
	p, err := s.store.PuzzleOf(date, game)
	if err == nil || !errors.Is(err, storage.ErrNotFound) {
		return p, err
	}
	s.choosing.Lock()
	defer s.choosing.Unlock()
	if p, err := s.store.PuzzleOf(date, game); err == nil {
		return p, nil
	}
	p, err = s.choose(ctx, date, game)
	if err != nil {
		return storage.Puzzle{}, err
	}
	return s.store.SetPuzzle(p)
}

// candidate is one eligible position.
type candidate struct {
	game storage.FinishedGame
	step analysis.Step
	key  uint64
}

// choose picks date's puzzle for game among the public games that finished
// in the fortnight before that day: the positions whose best move is
// clearly better than every other (Eligible), one of them drawn by a hash
// of the day, so that the choice looks random but is the same everywhere.
func (s *Service) choose(ctx context.Context, date, game string) (storage.Puzzle, error) {
	day, err := time.Parse(storage.DateLayout, date)
	if err != nil {
		return storage.Puzzle{}, err
	}
	list, err := s.store.FinishedGames(storage.ListQuery{Game: game, Since: day.Add(-lookBack), Limit: 200})
	if err != nil {
		return storage.Puzzle{}, fmt.Errorf("choose puzzle: %w", err)
	}
	var cands []candidate
	weighed := 0
	for _, sum := range list {
		if !sum.Finished.Before(day) || !sum.Public {
			continue
		}
		if weighed++; weighed > maxGames {
			break
		}
		g, err := s.store.Game(sum.ID)
		if err != nil {
			continue
		}
		rep, err := s.analyst.Report(ctx, g)
		if err != nil {
			if ctx.Err() != nil {
				return storage.Puzzle{}, ctx.Err()
			}
			continue
		}
		for _, st := range rep.Steps {
			if Eligible(st) {
				cands = append(cands, candidate{game: g, step: st, key: hashOf(date, game, g.ID, fmt.Sprint(st.Move))})
			}
		}
	}
	if len(cands) == 0 {
		return storage.Puzzle{Date: date, Game: game, None: true}, nil
	}
	c := slices.MinFunc(cands, func(a, b candidate) int {
		switch {
		case a.key < b.key:
			return -1
		case a.key > b.key:
			return 1
		}
		return 0
	})
	// Options in an order that gives nothing away: by a hash of the day and
	// the label, not best first.
	opts := distinct(c.step.Options)
	best := opts[0].Label
	slices.SortStableFunc(opts, func(a, b analysis.Option) int {
		ka, kb := hashOf(date, a.Label), hashOf(date, b.Label)
		switch {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return 0
	})
	return storage.Puzzle{Date: date, Game: game, GameID: c.game.ID, Move: c.step.Move, Seat: c.step.Seat,
		Knew: c.step.Knew, Options: opts, Best: slices.IndexFunc(opts, func(o analysis.Option) bool { return o.Label == best })}, nil
}

// Eligible reports whether a step makes a puzzle: a scored move with exact
// figures, at least three different options, and a best option worth half
// a bit or more that beats the second by 0.15 bits and by 15 % of
// itself.
func Eligible(st analysis.Step) bool {
	opts := distinct(st.Options)
	if !st.Scored || st.Approx || len(opts) < minOptions {
		return false
	}
	best, second := opts[0].Bits, opts[1].Bits
	return best >= minBestBits && best-second >= max(minMargin, minShare*best)
}

// distinct keeps the first of options that read the same (two copies of a
// card in hand are one move).
func distinct(opts []analysis.Option) []analysis.Option {
	var out []analysis.Option
	for _, o := range opts {
		if !slices.ContainsFunc(out, func(x analysis.Option) bool { return x.Label == o.Label }) {
			out = append(out, o)
		}
	}
	return out
}

func hashOf(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		_, _ = h.Write([]byte(p))
		_, _ = h.Write([]byte{0})
	}
	return h.Sum64()
}
