package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/codebreakers/codebreakers/storage"
)

// writeHealth is what WriteHealth knows of the writes of late.
type writeHealth struct {
	mu         sync.Mutex
	failing    error     // the last write's failure; nil once a write commits
	since      time.Time // when writes began failing
	probedAt   time.Time // WriteHealth's last write of its own
	probeEvery time.Duration
}

// healthProbeEvery is how often WriteHealth tries a write of its own while
// writes fail: a node taken out of rotation for failing writes gets no
// more writes from players, and would never be healthy again without it.
const healthProbeEvery = 5 * time.Second

// healthProbeTimeout bounds that write, so that a probe of a database
// that does not answer fails within a health check's time.
const healthProbeTimeout = 2 * time.Second

// noteWrite records how a write ended, with the driver's error as it came:
// a commit (nil) clears a failure; the database refusing writes (read-only,
// disk full, I/O error, permission denied, unreachable) sets it. A refusal
// of the data itself (a handle taken, an id used, a game not found) says
// nothing of the database's health and is ignored.
func (db *DB) noteWrite(err error) {
	if err != nil && !writeFailure(err) {
		return
	}
	h := &db.health
	h.mu.Lock()
	defer h.mu.Unlock()
	if err == nil {
		h.failing = nil
		return
	}
	if h.failing == nil {
		h.since = time.Now()
	}
	h.failing = classify(err)
}

// writeFailure reports whether err means the database is not taking
// writes, as opposed to refusing this one write for its data.
func writeFailure(err error) bool {
	if errors.Is(classify(err), storage.ErrUnavailable) {
		return true
	}
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || len(pgErr.Code) != 5 {
		return false
	}
	switch pgErr.Code[:2] {
	case "25", // invalid transaction state: 25006 read-only (a standby, default_transaction_read_only)
		"53", // insufficient resources: 53100 disk full, 53200 out of memory
		"57", // operator intervention: shutting down, a statement cancelled
		"58", // system error: 58030 I/O error
		"XX": // internal error: data corrupted
		return true
	}
	return pgErr.Code == "42501" // insufficient privilege: writes revoked
}

// WriteHealth reports whether writes to the shared database are failing:
// nil when the last write committed (or none failed), else its error with
// how long writes have been failing. While they fail, it tries a small
// write of its own every few seconds (rewriting a row of the schema's
// history unchanged), so the answer turns healthy once the database takes
// writes again even when nobody else writes.
func (db *DB) WriteHealth() error {
	h := &db.health
	h.mu.Lock()
	failing, since := h.failing, h.since
	every := h.probeEvery
	if every == 0 {
		every = healthProbeEvery
	}
	probe := failing != nil && (every < 0 || time.Since(h.probedAt) >= every)
	if probe {
		h.probedAt = time.Now()
	}
	h.mu.Unlock()
	if failing == nil {
		return nil
	}
	if probe {
		ctx, cancel := context.WithTimeout(context.Background(), min(db.timeout, healthProbeTimeout))
		defer cancel()
		_, err := db.pool.Exec(ctx, `UPDATE schema_migrations SET applied = applied
			WHERE version = (SELECT max(version) FROM schema_migrations)`)
		db.noteWrite(err)
		if err == nil {
			return nil
		}
		if writeFailure(err) {
			failing = classify(err)
		}
	}
	return fmt.Errorf("writes to the shared database (PostgreSQL) failing for %s: %w",
		time.Since(since).Round(time.Second), failing)
}
