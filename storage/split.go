package storage

import (
	"errors"
	"fmt"

	"github.com/codebreakers/codebreakers/engine"
)

// Shared is a database that many nodes share: accounts, handles, finished
// games and everything read from them, and the register of game ids, so
// that no two nodes ever start games with one id. storage/postgres
// implements it.
type Shared interface {
	Accounts
	Records
	// ReserveGameID records id as used; an id already reserved (or a game
	// already stored under it) fails with an error matching ErrGameExists.
	ReserveGameID(id string) error
	Ping() error
	// WriteHealth is nil unless the database's recent writes are failing
	// (DB.WriteHealth is the node file's).
	WriteHealth() error
	Close() error
}

// Split is the store of one node of a cluster: accounts and records in the
// Shared database, the live logs of this node's games in its own bbolt
// file. A finished game is one transaction in the shared database; only
// then is its live log dropped here, so a crash in between leaves the log,
// the game resumes finished on the next start, and FinishGame, finding the
// game already stored, just drops the log.
type Split struct {
	Shared
	live *DB
}

// NewSplit combines a node's bbolt file (for live logs only) with the
// shared database. Close closes both.
func NewSplit(live *DB, shared Shared) *Split { return &Split{Shared: shared, live: live} }

// Live is the node's own bbolt file (for backups of its live logs).
func (s *Split) Live() *DB { return s.live }

// NewGameID draws an id unused on this node and reserves it in the shared
// register, drawing again when another node holds it.
func (s *Split) NewGameID() (string, error) {
	for range 20 {
		id, err := s.live.NewGameID()
		if err != nil {
			return "", err
		}
		err = s.Shared.ReserveGameID(id)
		if err == nil {
			return id, nil
		}
		s.live.release(id)
		if !errors.Is(err, ErrGameExists) {
			return "", fmt.Errorf("new game id: %w", err)
		}
	}
	return "", errors.New("new game id: no free id found")
}

// StartGame stores a new live game in the node's file, unless the shared
// database already holds a finished game under its id: the node's file
// forgets a game's id once it is finished there (and never knew the ids
// another node finished).
func (s *Split) StartGame(g LiveGame) error {
	switch _, err := s.Shared.Game(g.ID); {
	case err == nil:
		return fmt.Errorf("start game %s: finished already: %w", g.ID, ErrGameExists)
	case !errors.Is(err, ErrNotFound):
		return fmt.Errorf("start game %s: look for it in the shared database: %w", g.ID, err)
	}
	return s.live.StartGame(g)
}

// AppendMove appends to a live game's log in the node's file.
func (s *Split) AppendMove(gameID string, index int, m engine.Move) error {
	return s.live.AppendMove(gameID, index, m)
}

// AbandonGame sets a live game aside in the node's file.
func (s *Split) AbandonGame(gameID string) error { return s.live.AbandonGame(gameID) }

// LiveGames lists the node's games in progress.
func (s *Split) LiveGames() ([]LiveGame, error) { return s.live.LiveGames() }

// FinishGame stores the game in the shared database (one transaction),
// then drops its live log here. A game the shared database already has
// while its log is still here was stored before a crash: the log goes and
// the call succeeds.
func (s *Split) FinishGame(g FinishedGame) error {
	err := s.Shared.FinishGame(g)
	if errors.Is(err, ErrGameExists) && s.live.isLive(g.ID) {
		err = nil
	}
	if err != nil {
		return err
	}
	if err := s.live.ForgetLive(g.ID); err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("finish game %s: stored, but its live log stays: %w", g.ID, err)
	}
	return nil
}

// Ping checks both the node's file and the shared database.
func (s *Split) Ping() error {
	return errors.Join(s.live.Ping(), s.Shared.Ping())
}

// WriteHealth reports failing writes to the node's file or the shared
// database: nil while both take writes, else each failure, one line.
func (s *Split) WriteHealth() error {
	live, shared := s.live.WriteHealth(), s.Shared.WriteHealth()
	switch {
	case live == nil:
		return shared
	case shared == nil:
		return live
	}
	return fmt.Errorf("%w; %w", live, shared)
}

// Close closes the shared database and the node's file.
func (s *Split) Close() error {
	return errors.Join(s.Shared.Close(), s.live.Close())
}
