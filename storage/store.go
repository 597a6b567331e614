package storage

import (
	"errors"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/analysis"
)

// The interfaces below are the seams between the arcade and where its
// state lives. The server, the UI and the hub read and write only through
// them; *DB (one bbolt file) implements all of them and stays the default.
// A cluster splits them (see Split): accounts and records go to a shared
// database every node reads (storage/postgres), while each node keeps the
// live logs of its own tables in its own bbolt file, where a move is one
// fast local fsync.
//
// Later kinds of records (analysis of finished games, say) slot in the same
// way: a method on Records, implemented by *DB and by the shared store, and
// written inside FinishGame's one transaction when they belong to a game.

// Accounts keeps accounts and their handles.
type Accounts interface {
	// Account returns the account with that id, or an error matching
	// ErrNotFound.
	Account(id string) (Account, error)
	// ClaimHandle gives the account the handle (creating or renaming it);
	// another account's handle in any letter case fails with ErrHandleTaken.
	ClaimHandle(id, handle string) (Account, error)
	// Touch records that the account was seen now (ErrNotFound if unknown).
	Touch(id string) error
	// HandleOwner returns the account holding handle in any letter case,
	// or an error matching ErrNotFound.
	HandleOwner(handle string) (string, error)
	// EachAccount calls fn for every account (for export), in id order.
	EachAccount(fn func(Account) error) error
}

// Records keeps finished games and everything read from them: history,
// stats, ratings, leaderboards, profiles and the list of finished games.
type Records interface {
	// FinishGame stores a finished game with its per-account index, stats,
	// If Then records, listing and rating changes, all at once: either all
	// of it is stored or none. A game id already finished fails with an
	// error matching ErrGameExists.
	FinishGame(FinishedGame) error
	Game(id string) (FinishedGame, error)
	History(accountID string, limit int) ([]GameSummary, error)
	Stats(accountID string) (Stats, error)
	Ratings(account string) ([]GameRating, error)
	Leaderboard(q LeaderQuery) ([]Leader, error)
	Profile(handle string, recent int) (Profile, error)
	FinishedGames(q ListQuery) ([]GameSummary, error)
	CountFinished(since time.Time) (int, error)
	// EachFinishedGame calls fn for every finished game with every move
	// (for export), in no promised order.
	EachFinishedGame(fn func(FinishedGame) error) error
	// SaveAnalysis stores the analysis of a finished game (ErrNotFound for
	// a game not finished); Analysis reads it back (ErrNotFound if none).
	SaveAnalysis(id string, rep analysis.Report) error
	Analysis(id string) (analysis.Report, error)
	Puzzles
}

// Puzzles keeps the puzzle of the day: each day's puzzle per game (the
// first one set stands), every account's one answer to it, and each
// account's streak per game. Days are UTC dates written in DateLayout.
type Puzzles interface {
	// SetPuzzle stores p unless its day and game have one, and returns the
	// one that stands.
	SetPuzzle(p Puzzle) (Puzzle, error)
	// PuzzleOf returns the puzzle of date for game, or an error matching
	// ErrNotFound.
	PuzzleOf(date, game string) (Puzzle, error)
	// TryPuzzle records account's one answer (ErrAlreadyTried for a second
	// one; ErrNotFound with no puzzle) and its new streak, together.
	TryPuzzle(date, game, account string, choice int, at time.Time) (PuzzleTry, Streak, error)
	// PuzzleTryOf returns account's answer, or an error matching ErrNotFound.
	PuzzleTryOf(date, game, account string) (PuzzleTry, error)
	// StreakOf returns account's record at game's puzzles as of today.
	StreakOf(account, game, today string) (Streak, error)
	// PuzzleSolvers returns who solved the day's puzzle, first first (at
	// most limit; all when limit <= 0), and how many answered it.
	PuzzleSolvers(date, game string, limit int) ([]Solver, int, error)
}

// LiveLog keeps the move logs of the games in progress on one node.
type LiveLog interface {
	// NewGameID returns an id no other game has or will get.
	NewGameID() (string, error)
	StartGame(LiveGame) error
	AppendMove(gameID string, index int, m engine.Move) error
	AbandonGame(gameID string) error
	LiveGames() ([]LiveGame, error)
}

// Store is everything one node reads and writes.
type Store interface {
	Accounts
	Records
	LiveLog
	// Ping checks the store can still be read (for health checks).
	Ping() error
	Close() error
}

// ErrUnavailable means the store could not be reached (a shared database
// that is down or cut off). Nothing was written; the same call may
// succeed later, so callers that must not lose a write retry it.
var ErrUnavailable = errors.New("the records database is unreachable")

// The implementations the rest of the program relies on.
var (
	_ Store   = (*DB)(nil)
	_ Store   = (*Split)(nil)
	_ LiveLog = (*DB)(nil)
)
