// Package postgres keeps a cluster's shared state in PostgreSQL: accounts and
// handles, the register of game ids, finished games with their per-account
// index, stats, If Then records, ratings and rating history. It implements
// storage.Shared; each node combines it with its own bbolt file for live
// logs (storage.Split).
//
// The schema is versioned (see schema.go) and migrated on Open, under an
// advisory lock so that nodes starting together migrate once. Finishing a
// game is one transaction, settled by storage.Settle exactly as on one
// node, with the accounts it touches locked in a fixed order so two nodes
// finishing games of the same player never lose an update.
//
// Errors: a database that cannot be reached (refused, cut off, shutting
// down) gives errors matching storage.ErrUnavailable, so callers can wait
// and retry; everything else keeps the storage package's sentinels.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/codebreakers/codebreakers/storage"
)

// Options tunes Open.
type Options struct {
	// Timeout bounds each call (default 10s). A call that runs out of it
	// fails with storage.ErrUnavailable.
	Timeout time.Duration
	// MaxConns caps the pool (default 8).
	MaxConns int32
	Logger   *slog.Logger
}

// DB is the shared store. Its methods are safe for concurrent use.
type DB struct {
	pool    *pgxpool.Pool
	timeout time.Duration
	log     *slog.Logger
	health  writeHealth // how the writes of late ended (WriteHealth)
}

var _ storage.Shared = (*DB)(nil)

// migrateLock is the advisory lock key held while migrating.
const migrateLock = 0x636f6465 // "code"

// Open connects to the database at url (a postgres:// URL or a key=value
// string), checks it answers, and migrates its schema to this build's
// version. A database whose schema is newer fails with an error matching
// storage.ErrSchemaTooNew; one that cannot be reached, with one matching
// storage.ErrUnavailable.
func Open(ctx context.Context, url string, opt Options) (*DB, error) {
	if opt.Timeout <= 0 {
		opt.Timeout = 10 * time.Second
	}
	if opt.MaxConns <= 0 {
		opt.MaxConns = 8
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: bad URL: %w", err)
	}
	cfg.MaxConns = opt.MaxConns
	if cfg.ConnConfig.ConnectTimeout == 0 || cfg.ConnConfig.ConnectTimeout > opt.Timeout {
		cfg.ConnConfig.ConnectTimeout = min(opt.Timeout, 5*time.Second)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	db := &DB{pool: pool, timeout: opt.Timeout, log: opt.Logger}
	if err := db.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return db, nil
}

// SchemaVersion is the schema this build migrates to.
func SchemaVersion() int { return len(migrations) }

// migrate brings the schema to this build's version.
func (db *DB) migrate(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, max(db.timeout, time.Minute))
	defer cancel()
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("postgres: connect: %w", classify(err))
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, migrateLock); err != nil {
		return fmt.Errorf("postgres: lock for migration: %w", classify(err))
	}
	defer func() {
		_, _ = conn.Exec(context.Background(), `SELECT pg_advisory_unlock($1)`, migrateLock)
	}()
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version integer PRIMARY KEY,
		applied timestamptz NOT NULL DEFAULT now())`); err != nil {
		return fmt.Errorf("postgres: create schema_migrations: %w", classify(err))
	}
	var have int
	if err := conn.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&have); err != nil {
		return fmt.Errorf("postgres: read schema version: %w", classify(err))
	}
	if have > len(migrations) {
		return fmt.Errorf("postgres: %w: the database uses schema %d but this build knows up to %d; run a newer codebreakers",
			storage.ErrSchemaTooNew, have, len(migrations))
	}
	for v := have; v < len(migrations); v++ {
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, migrations[v]); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version) VALUES ($1)`, v+1)
			return err
		})
		if err != nil {
			return fmt.Errorf("postgres: migrate schema %d to %d: %w", v, v+1, classify(err))
		}
		db.log.Info("postgres: migrated schema", "version", v+1)
	}
	return nil
}

// ctx is the context of one call.
func (db *DB) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), db.timeout)
}

// Ping checks the database answers.
func (db *DB) Ping() error {
	ctx, cancel := db.ctx()
	defer cancel()
	if err := db.pool.Ping(ctx); err != nil {
		return fmt.Errorf("postgres: %w", classify(err))
	}
	return nil
}

// Close closes every connection. Calls after Close fail with
// storage.ErrClosed.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

// Pool is the connection pool, for tests and tools.
func (db *DB) Pool() *pgxpool.Pool { return db.pool }

// unavailable is a classified error: it matches storage.ErrUnavailable and
// keeps the driver's error for the message.
type unavailable struct{ err error }

func (u unavailable) Error() string {
	return storage.ErrUnavailable.Error() + ": " + u.err.Error()
}
func (u unavailable) Unwrap() []error { return []error{storage.ErrUnavailable, u.err} }

// classify turns driver errors into the storage package's: a lost or
// refused connection, a server shutting down or a call out of time is
// ErrUnavailable; a closed pool is ErrClosed; the rest pass unchanged.
func classify(err error) error {
	if err == nil {
		return nil
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case len(pgErr.Code) == 5 && pgErr.Code[:2] == "08", // connection exception
			pgErr.Code == "57P01", pgErr.Code == "57P02", pgErr.Code == "57P03", // shutting down, starting up
			pgErr.Code == "53300": // too many connections
			return unavailable{err}
		}
		return err
	}
	if strings.Contains(err.Error(), "closed pool") { // puddle.ErrClosedPool

		return fmt.Errorf("%w: %w", storage.ErrClosed, err)
	}
	var connErr *pgconn.ConnectError
	if errors.As(err, &connErr) || pgconn.Timeout(err) || pgconn.SafeToRetry(err) ||
		errors.Is(err, context.DeadlineExceeded) || isNetError(err) {
		return unavailable{err}
	}
	return err
}

// isNetError reports a network failure under the driver.
func isNetError(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}
