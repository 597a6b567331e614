package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/analysis"
)

// ErrAlreadyTried means the account has already answered that day's puzzle.
var ErrAlreadyTried = errors.New("already answered today's puzzle")

// DateLayout is how puzzle days are written: UTC dates, "2026-11-26".
const DateLayout = "2006-01-02"

// Puzzle is one day's position of one game: a move of a finished public
// game, seen from the mover's seat, with every move they could have made.
type Puzzle struct {
	Date string `json:"date"` // UTC, DateLayout
	Game string `json:"game"`
	// None is true when no finished game offered a position that day.
	None   bool        `json:"none,omitempty"`
	GameID string      `json:"game_id,omitempty"`
	Move   int         `json:"move"` // index in the game's record: the position is before it
	Seat   engine.Seat `json:"seat"`
	Knew   string      `json:"knew,omitempty"`
	// Options are the moves to choose from with their expected bits; Best
	// indexes the right answer.
	Options []analysis.Option `json:"options,omitempty"`
	Best    int               `json:"best"`
}

// PuzzleTry is an account's answer to a day's puzzle.
type PuzzleTry struct {
	Account string    `json:"account"`
	Choice  int       `json:"choice"`
	Solved  bool      `json:"solved"`
	At      time.Time `json:"at"`
}

// Streak is an account's record at one game's puzzles: Current counts the
// days in a row up to the last one answered that were solved.
type Streak struct {
	Current    int    `json:"current"`
	Best       int    `json:"best"`
	Solved     int    `json:"solved"`
	Tried      int    `json:"tried"`
	LastSolved string `json:"last_solved,omitempty"` // date
}

// Solver is one line of a day's table of solvers.
type Solver struct {
	Handle string    `json:"handle"`
	At     time.Time `json:"at"`
}

type puzzleRecord struct {
	V int `json:"v"`
	Puzzle
}

type tryRecord struct {
	V int `json:"v"`
	PuzzleTry
}

type streakRecord struct {
	V int `json:"v"`
	Streak
}

func (r puzzleRecord) version() int { return r.V }
func (r tryRecord) version() int    { return r.V }
func (r streakRecord) version() int { return r.V }

func puzzleKey(date, game string) []byte { return []byte(date + "\x00" + game) }

func tryKey(date, game, account string) []byte {
	return []byte(date + "\x00" + game + "\x00" + account)
}

func streakKey(account, game string) []byte { return []byte(account + "\x00" + game) }

// SetPuzzle stores the puzzle of p.Date for p.Game unless one is stored
// already, and returns the one that stands (the first one set wins, so
// every server process and session sees the same puzzle all day).
func (db *DB) SetPuzzle(p Puzzle) (Puzzle, error) {
	if _, err := time.Parse(DateLayout, p.Date); err != nil || p.Game == "" {
		return Puzzle{}, fmt.Errorf("set puzzle %q %q: not a date and game", p.Date, p.Game)
	}
	val, err := json.Marshal(puzzleRecord{V: recordVersion, Puzzle: p})
	if err != nil {
		return Puzzle{}, fmt.Errorf("set puzzle: encode: %w", err)
	}
	stood := p
	err = db.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketPuzzles))
		if raw := b.Get(puzzleKey(p.Date, p.Game)); raw != nil {
			rec, err := decode[puzzleRecord](raw, "puzzle")
			if err != nil {
				return reject(err)
			}
			stood = rec.Puzzle
			return nil
		}
		return b.Put(puzzleKey(p.Date, p.Game), val)
	})
	if err != nil {
		return Puzzle{}, err
	}
	return stood, nil
}

// PuzzleOf returns the puzzle of date for game, or an error matching
// ErrNotFound when none has been chosen yet.
func (db *DB) PuzzleOf(date, game string) (Puzzle, error) {
	var raw []byte
	err := db.view(func(tx *bolt.Tx) error {
		raw = bytes.Clone(tx.Bucket([]byte(bucketPuzzles)).Get(puzzleKey(date, game)))
		return nil
	})
	if err != nil {
		return Puzzle{}, fmt.Errorf("read puzzle: %w", err)
	}
	if raw == nil {
		return Puzzle{}, fmt.Errorf("puzzle %s %s: %w", date, game, ErrNotFound)
	}
	rec, err := decode[puzzleRecord](raw, "puzzle")
	if err != nil {
		return Puzzle{}, err
	}
	return rec.Puzzle, nil
}

// TryPuzzle records account's one answer to the puzzle of date for game
// and updates its streak, in one durable write. A second answer fails with
// an error matching ErrAlreadyTried; an unknown puzzle with ErrNotFound.
func (db *DB) TryPuzzle(date, game, account string, choice int, at time.Time) (PuzzleTry, Streak, error) {
	var try PuzzleTry
	var streak Streak
	err := db.write(func(tx *bolt.Tx) error {
		raw := tx.Bucket([]byte(bucketPuzzles)).Get(puzzleKey(date, game))
		if raw == nil {
			return reject(fmt.Errorf("puzzle %s %s: %w", date, game, ErrNotFound))
		}
		p, err := decode[puzzleRecord](raw, "puzzle")
		if err != nil {
			return reject(err)
		}
		solved, err := PuzzleAnswer(p.Puzzle, choice)
		if err != nil {
			return reject(err)
		}
		tries := tx.Bucket([]byte(bucketPuzzleTries))
		key := tryKey(date, game, account)
		if tries.Get(key) != nil {
			return reject(fmt.Errorf("puzzle %s %s: %w", date, game, ErrAlreadyTried))
		}
		streaks := tx.Bucket([]byte(bucketStreaks))
		if raw := streaks.Get(streakKey(account, game)); raw != nil {
			rec, err := decode[streakRecord](raw, "streak")
			if err != nil {
				return reject(err)
			}
			streak = rec.Streak
		} else {
			streak = Streak{}
		}
		try = PuzzleTry{Account: account, Choice: choice, Solved: solved, At: at.UTC()}
		streak = NextStreak(streak, date, solved)
		tv, err := json.Marshal(tryRecord{V: recordVersion, PuzzleTry: try})
		if err != nil {
			return reject(err)
		}
		sv, err := json.Marshal(streakRecord{V: recordVersion, Streak: streak})
		if err != nil {
			return reject(err)
		}
		if err := tries.Put(key, tv); err != nil {
			return err
		}
		return streaks.Put(streakKey(account, game), sv)
	})
	if err != nil {
		return PuzzleTry{}, Streak{}, err
	}
	return try, streak, nil
}

// yesterday is the day before date ("" for a bad date).
func yesterday(date string) string {
	d, err := time.Parse(DateLayout, date)
	if err != nil {
		return ""
	}
	return d.AddDate(0, 0, -1).Format(DateLayout)
}

// PuzzleTryOf returns account's answer to the puzzle of date for game, or
// an error matching ErrNotFound when it has not answered.
func (db *DB) PuzzleTryOf(date, game, account string) (PuzzleTry, error) {
	var raw []byte
	err := db.view(func(tx *bolt.Tx) error {
		raw = bytes.Clone(tx.Bucket([]byte(bucketPuzzleTries)).Get(tryKey(date, game, account)))
		return nil
	})
	if err != nil {
		return PuzzleTry{}, fmt.Errorf("read puzzle answer: %w", err)
	}
	if raw == nil {
		return PuzzleTry{}, fmt.Errorf("puzzle answer: %w", ErrNotFound)
	}
	rec, err := decode[tryRecord](raw, "puzzle answer")
	if err != nil {
		return PuzzleTry{}, err
	}
	return rec.PuzzleTry, nil
}

// StreakOf returns account's record at game's puzzles (zero when it never
// answered one). A streak whose last solved day is before yesterday is
// over, so Current reads 0 however it was stored, as of today.
func (db *DB) StreakOf(account, game, today string) (Streak, error) {
	var raw []byte
	err := db.view(func(tx *bolt.Tx) error {
		raw = bytes.Clone(tx.Bucket([]byte(bucketStreaks)).Get(streakKey(account, game)))
		return nil
	})
	if err != nil || raw == nil {
		return Streak{}, err
	}
	rec, err := decode[streakRecord](raw, "streak")
	if err != nil {
		return Streak{}, err
	}
	return StreakAsOf(rec.Streak, today), nil
}

// PuzzleSolvers returns who solved the puzzle of date for game, first
// solver first (at most limit of them, all when limit <= 0), and how many
// answered it.
func (db *DB) PuzzleSolvers(date, game string, limit int) ([]Solver, int, error) {
	var solvers []Solver
	answered := 0
	err := db.view(func(tx *bolt.Tx) error {
		accounts := tx.Bucket([]byte(bucketAccounts))
		prefix := []byte(date + "\x00" + game + "\x00")
		c := tx.Bucket([]byte(bucketPuzzleTries)).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			answered++
			rec, err := decode[tryRecord](v, "puzzle answer")
			if err != nil {
				return err
			}
			if !rec.Solved {
				continue
			}
			handle := ""
			if raw := accounts.Get([]byte(rec.Account)); raw != nil {
				if a, err := decode[accountRecord](raw, "account"); err == nil {
					handle = a.Handle
				}
			}
			solvers = append(solvers, Solver{Handle: handle, At: rec.At})
		}
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("read puzzle solvers: %w", err)
	}
	slices.SortStableFunc(solvers, func(a, b Solver) int { return a.At.Compare(b.At) })
	if limit > 0 && len(solvers) > limit {
		solvers = solvers[:limit]
	}
	return solvers, answered, nil
}

// PuzzleAnswer says whether choice solves p: a move worth as many bits as
// the best (two copies of a card are the same move). A choice that is no
// move of p, or a day without a puzzle, is an error.
func PuzzleAnswer(p Puzzle, choice int) (bool, error) {
	if p.None || choice < 0 || choice >= len(p.Options) || p.Best < 0 || p.Best >= len(p.Options) {
		return false, fmt.Errorf("puzzle %s %s has no answer %d", p.Date, p.Game, choice)
	}
	return p.Options[choice].Bits >= p.Options[p.Best].Bits-1e-9, nil
}

// NextStreak is s after an answer on date: solving the day after the last
// solved day grows the streak, solving after a gap starts it again, and a
// miss ends it.
func NextStreak(s Streak, date string, solved bool) Streak {
	s.Tried++
	if !solved {
		s.Current = 0
		return s
	}
	s.Solved++
	if yesterday(date) == s.LastSolved {
		s.Current++
	} else {
		s.Current = 1
	}
	s.Best = max(s.Best, s.Current)
	s.LastSolved = date
	return s
}

// StreakAsOf is s as of today: a streak whose last solved day is before
// yesterday has lapsed.
func StreakAsOf(s Streak, today string) Streak {
	if s.LastSolved != today && s.LastSolved != yesterday(today) {
		s.Current = 0
	}
	return s
}

// EncodePuzzle, EncodePuzzleTry and EncodeStreak are the stored forms, as
// every store keeps them; the Decode functions read them back.
func EncodePuzzle(p Puzzle) ([]byte, error) {
	return json.Marshal(puzzleRecord{V: recordVersion, Puzzle: p})
}

// DecodePuzzle reads what EncodePuzzle wrote.
func DecodePuzzle(raw []byte) (Puzzle, error) {
	rec, err := decode[puzzleRecord](raw, "puzzle")
	return rec.Puzzle, err
}

// EncodePuzzleTry is an answer as stored.
func EncodePuzzleTry(t PuzzleTry) ([]byte, error) {
	return json.Marshal(tryRecord{V: recordVersion, PuzzleTry: t})
}

// DecodePuzzleTry reads what EncodePuzzleTry wrote.
func DecodePuzzleTry(raw []byte) (PuzzleTry, error) {
	rec, err := decode[tryRecord](raw, "puzzle answer")
	return rec.PuzzleTry, err
}

// EncodeStreak is a streak as stored.
func EncodeStreak(s Streak) ([]byte, error) {
	return json.Marshal(streakRecord{V: recordVersion, Streak: s})
}

// DecodeStreak reads what EncodeStreak wrote.
func DecodeStreak(raw []byte) (Streak, error) {
	rec, err := decode[streakRecord](raw, "streak")
	return rec.Streak, err
}
