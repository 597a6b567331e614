package postgres

import (
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/codebreakers/codebreakers/storage"
)

// SetPuzzle stores p unless its day and game have a puzzle already, and
// returns the one that stands (the first one set, whichever node set it).
func (db *DB) SetPuzzle(p storage.Puzzle) (storage.Puzzle, error) {
	if _, err := time.Parse(storage.DateLayout, p.Date); err != nil || p.Game == "" {
		return storage.Puzzle{}, fmt.Errorf("set puzzle %q %q: not a date and game", p.Date, p.Game)
	}
	raw, err := storage.EncodePuzzle(p)
	if err != nil {
		return storage.Puzzle{}, fmt.Errorf("set puzzle: encode: %w", err)
	}
	ctx, cancel := db.ctx()
	defer cancel()
	_, err = db.pool.Exec(ctx, `INSERT INTO puzzles (day, game, puzzle) VALUES ($1, $2, $3)
		ON CONFLICT (day, game) DO NOTHING`, p.Date, p.Game, raw)
	db.noteWrite(err)
	if err != nil {
		return storage.Puzzle{}, fmt.Errorf("set puzzle: %w", classify(err))
	}
	return db.PuzzleOf(p.Date, p.Game)
}

// PuzzleOf returns the puzzle of date for game, or an error matching
// storage.ErrNotFound.
func (db *DB) PuzzleOf(date, game string) (storage.Puzzle, error) {
	ctx, cancel := db.ctx()
	defer cancel()
	var raw []byte
	err := db.pool.QueryRow(ctx, `SELECT puzzle FROM puzzles WHERE day = $1 AND game = $2`, date, game).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return storage.Puzzle{}, fmt.Errorf("puzzle %s %s: %w", date, game, storage.ErrNotFound)
	}
	if err != nil {
		return storage.Puzzle{}, fmt.Errorf("read puzzle: %w", classify(err))
	}
	return storage.DecodePuzzle(raw)
}

// TryPuzzle records account's one answer and its new streak in one
// transaction; the answer's key decides between two nodes taking a second
// answer at once (storage.ErrAlreadyTried).
func (db *DB) TryPuzzle(date, game, account string, choice int, at time.Time) (storage.PuzzleTry, storage.Streak, error) {
	ctx, cancel := db.ctx()
	defer cancel()
	var try storage.PuzzleTry
	var streak storage.Streak
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var raw []byte
		err := tx.QueryRow(ctx, `SELECT puzzle FROM puzzles WHERE day = $1 AND game = $2`, date, game).Scan(&raw)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("puzzle %s %s: %w", date, game, storage.ErrNotFound)
		}
		if err != nil {
			return err
		}
		p, err := storage.DecodePuzzle(raw)
		if err != nil {
			return err
		}
		solved, err := storage.PuzzleAnswer(p, choice)
		if err != nil {
			return err
		}
		try = storage.PuzzleTry{Account: account, Choice: choice, Solved: solved, At: at.UTC()}
		tryRaw, err := storage.EncodePuzzleTry(try)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO puzzle_tries (day, game, account, solved, at, try) VALUES ($1, $2, $3, $4, $5, $6)`,
			date, game, account, solved, try.At, tryRaw); err != nil {
			var pgErr *pgconn.PgError
			if errors.As(err, &pgErr) && pgErr.Code == "23505" { // unique_violation
				return fmt.Errorf("puzzle %s %s: %w", date, game, storage.ErrAlreadyTried)
			}
			return err
		}
		err = tx.QueryRow(ctx, `SELECT streak FROM puzzle_streaks WHERE account = $1 AND game = $2 FOR UPDATE`,
			account, game).Scan(&raw)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			streak = storage.Streak{}
		case err != nil:
			return err
		default:
			if streak, err = storage.DecodeStreak(raw); err != nil {
				return err
			}
		}
		streak = storage.NextStreak(streak, date, solved)
		streakRaw, err := storage.EncodeStreak(streak)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO puzzle_streaks (account, game, streak) VALUES ($1, $2, $3)
			ON CONFLICT (account, game) DO UPDATE SET streak = excluded.streak`, account, game, streakRaw)
		return err
	})
	db.noteWrite(err)
	if err != nil {
		if errors.Is(err, storage.ErrAlreadyTried) || errors.Is(err, storage.ErrNotFound) {
			return storage.PuzzleTry{}, storage.Streak{}, err
		}
		return storage.PuzzleTry{}, storage.Streak{}, fmt.Errorf("answer puzzle: %w", classify(err))
	}
	return try, streak, nil
}

// PuzzleTryOf returns account's answer, or an error matching
// storage.ErrNotFound.
func (db *DB) PuzzleTryOf(date, game, account string) (storage.PuzzleTry, error) {
	ctx, cancel := db.ctx()
	defer cancel()
	var raw []byte
	err := db.pool.QueryRow(ctx, `SELECT try FROM puzzle_tries WHERE day = $1 AND game = $2 AND account = $3`,
		date, game, account).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return storage.PuzzleTry{}, fmt.Errorf("puzzle answer: %w", storage.ErrNotFound)
	}
	if err != nil {
		return storage.PuzzleTry{}, fmt.Errorf("read puzzle answer: %w", classify(err))
	}
	return storage.DecodePuzzleTry(raw)
}

// StreakOf returns account's record at game's puzzles as of today.
func (db *DB) StreakOf(account, game, today string) (storage.Streak, error) {
	ctx, cancel := db.ctx()
	defer cancel()
	var raw []byte
	err := db.pool.QueryRow(ctx, `SELECT streak FROM puzzle_streaks WHERE account = $1 AND game = $2`, account, game).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return storage.Streak{}, nil
	}
	if err != nil {
		return storage.Streak{}, fmt.Errorf("read puzzle streak: %w", classify(err))
	}
	s, err := storage.DecodeStreak(raw)
	if err != nil {
		return storage.Streak{}, err
	}
	return storage.StreakAsOf(s, today), nil
}

// PuzzleSolvers returns who solved the day's puzzle, first first, and how
// many answered it.
func (db *DB) PuzzleSolvers(date, game string, limit int) ([]storage.Solver, int, error) {
	ctx, cancel := db.ctx()
	defer cancel()
	var answered int
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM puzzle_tries WHERE day = $1 AND game = $2`, date, game).
		Scan(&answered); err != nil {
		return nil, 0, fmt.Errorf("count puzzle answers: %w", classify(err))
	}
	if limit <= 0 {
		limit = answered
	}
	rows, err := db.pool.Query(ctx, `SELECT coalesce(a.handle, ''), t.try FROM puzzle_tries t
		LEFT JOIN accounts a ON a.id = t.account
		WHERE t.day = $1 AND t.game = $2 AND t.solved
		ORDER BY t.at, t.account LIMIT $3`, date, game, limit)
	if err != nil {
		return nil, 0, fmt.Errorf("read puzzle solvers: %w", classify(err))
	}
	defer rows.Close()
	var out []storage.Solver
	for rows.Next() {
		var handle string
		var raw []byte
		if err := rows.Scan(&handle, &raw); err != nil {
			return nil, 0, fmt.Errorf("read puzzle solvers: %w", classify(err))
		}
		t, err := storage.DecodePuzzleTry(raw)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, storage.Solver{Handle: handle, At: t.At})
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("read puzzle solvers: %w", classify(err))
	}
	return out, answered, nil
}
