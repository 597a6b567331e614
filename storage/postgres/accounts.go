package postgres

import (
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/codebreakers/codebreakers/storage"
)

// now is the time stored for "now": PostgreSQL keeps microseconds, so the
// value handed back is the one a later read returns.
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// Account returns the account with that id, or an error matching
// storage.ErrNotFound.
func (db *DB) Account(id string) (storage.Account, error) {
	ctx, cancel := db.ctx()
	defer cancel()
	a := storage.Account{ID: id}
	err := db.pool.QueryRow(ctx, `SELECT handle, created, last_seen FROM accounts WHERE id = $1`, id).
		Scan(&a.Handle, &a.Created, &a.LastSeen)
	if errors.Is(err, pgx.ErrNoRows) {
		return storage.Account{}, fmt.Errorf("account %q: %w", id, storage.ErrNotFound)
	}
	if err != nil {
		return storage.Account{}, fmt.Errorf("read account %q: %w", id, classify(err))
	}
	a.Created, a.LastSeen = a.Created.UTC(), a.LastSeen.UTC()
	return a, nil
}

// ClaimHandle gives the account the handle, creating the account or
// renaming it (freeing its old handle). Another account's handle in any
// letter case fails with an error matching storage.ErrHandleTaken, also
// when two nodes claim it at the same moment (the unique index decides).
func (db *DB) ClaimHandle(id, handle string) (storage.Account, error) {
	if err := storage.CheckClaim(id, handle); err != nil {
		return storage.Account{}, err
	}
	ctx, cancel := db.ctx()
	defer cancel()
	at := now()
	acct := storage.Account{ID: id, Handle: handle, LastSeen: at}
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var owner string
		err := tx.QueryRow(ctx, `SELECT id FROM accounts WHERE lower(handle) = lower($1)`, handle).Scan(&owner)
		switch {
		case err == nil && owner != id:
			return fmt.Errorf("claim handle %q: %w", handle, storage.ErrHandleTaken)
		case err != nil && !errors.Is(err, pgx.ErrNoRows):
			return err
		}
		return tx.QueryRow(ctx, `
			INSERT INTO accounts (id, handle, created, last_seen) VALUES ($1, $2, $3, $3)
			ON CONFLICT (id) DO UPDATE SET handle = excluded.handle, last_seen = excluded.last_seen
			RETURNING created`, id, handle, at).Scan(&acct.Created)
	})
	db.noteWrite(err)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" { // unique_violation: claimed meanwhile
		return storage.Account{}, fmt.Errorf("claim handle %q: %w", handle, storage.ErrHandleTaken)
	}
	if err != nil {
		if errors.Is(err, storage.ErrHandleTaken) {
			return storage.Account{}, err
		}
		return storage.Account{}, fmt.Errorf("claim handle %q: %w", handle, classify(err))
	}
	acct.Created = acct.Created.UTC()
	return acct, nil
}

// Touch records that the account was seen now.
func (db *DB) Touch(id string) error {
	ctx, cancel := db.ctx()
	defer cancel()
	tag, err := db.pool.Exec(ctx, `UPDATE accounts SET last_seen = $2 WHERE id = $1`, id, now())
	db.noteWrite(err)
	if err != nil {
		return fmt.Errorf("touch account %q: %w", id, classify(err))
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("touch account %q: %w", id, storage.ErrNotFound)
	}
	return nil
}

// HandleOwner returns the account holding handle in any letter case.
func (db *DB) HandleOwner(handle string) (string, error) {
	ctx, cancel := db.ctx()
	defer cancel()
	var owner string
	err := db.pool.QueryRow(ctx, `SELECT id FROM accounts WHERE lower(handle) = lower($1)`, handle).Scan(&owner)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("handle %q: %w", handle, storage.ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("look up handle %q: %w", handle, classify(err))
	}
	return owner, nil
}

// ReserveGameID records id as used by some node; an id already reserved or
// stored fails with an error matching storage.ErrGameExists.
func (db *DB) ReserveGameID(id string) error {
	if err := storage.CheckGameID(id); err != nil {
		return fmt.Errorf("reserve game id: %w", err)
	}
	ctx, cancel := db.ctx()
	defer cancel()
	tag, err := db.pool.Exec(ctx, `INSERT INTO game_ids (id) VALUES ($1) ON CONFLICT DO NOTHING`, id)
	db.noteWrite(err)
	if err != nil {
		return fmt.Errorf("reserve game id %s: %w", id, classify(err))
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("reserve game id %s: %w", id, storage.ErrGameExists)
	}
	return nil
}

// EachAccount calls fn for every account, in id order, a page at a time.
func (db *DB) EachAccount(fn func(storage.Account) error) error {
	after := ""
	for {
		page, err := db.accountPage(after)
		if err != nil {
			return fmt.Errorf("read accounts: %w", classify(err))
		}
		for _, a := range page {
			if err := fn(a); err != nil {
				return err
			}
		}
		if len(page) < exportPage {
			return nil
		}
		after = page[len(page)-1].ID
	}
}

func (db *DB) accountPage(after string) ([]storage.Account, error) {
	ctx, cancel := db.ctx()
	defer cancel()
	rows, err := db.pool.Query(ctx, `SELECT id, handle, created, last_seen FROM accounts WHERE id COLLATE "C" > $1
		ORDER BY id COLLATE "C" LIMIT $2`, after, exportPage)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []storage.Account
	for rows.Next() {
		var a storage.Account
		if err := rows.Scan(&a.ID, &a.Handle, &a.Created, &a.LastSeen); err != nil {
			return nil, err
		}
		a.Created, a.LastSeen = a.Created.UTC(), a.LastSeen.UTC()
		out = append(out, a)
	}
	return out, rows.Err()
}
