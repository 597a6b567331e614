// Package storage keeps Codebreakers' durable state in one bbolt file:
// accounts and their handles, finished games with a per-account index and
// stats, and the live move log of every game in progress.
//
// Every write goes through one writer goroutine that gathers whatever is
// pending and applies it in a single transaction (group commit), so many
// tables appending moves at the same time share each fsync; while writes
// keep coming it commits once every gatherGap (10 ms), so that commits,
// whose cost hardly depends on what they carry, carry more.
// Callers block until their own write is durable and get their own error
// back.
//
// Layout (all values are versioned JSON unless noted):
//
//	meta       "schema" → big-endian uint64 schema version; "health-probe" → time of the last probe write while writes failed
//	accounts   account id → account
//	handles    lowercased handle → account id (raw)
//	games      game id → finished game, all moves included
//	live       game id → header of a game in progress (its moves are in livemoves since schema 6, livelog since 7)
//	index      account id → bucket { big-endian (finish unix nanos, seq) → game id (raw) }
//	stats      account id → running totals by outcome, overall and per game
//	abandoned  game id → the header and moves of a live game that will never finish
//
// Since schema 2 (people, ratings and finished games anyone can find):
//
//	finished   big-endian finish nanos ‖ game id → the game's listing (seats, result, public, rated, top rating)
//	ratings    account id ‖ NUL ‖ game → rating, games, wins, last rated game
//	leaders    game ‖ NUL ‖ rating (8 bytes, sorting best first) ‖ account id → empty
//	ratinghist account id ‖ NUL ‖ game ‖ NUL ‖ big-endian finish nanos ‖ game id → rating after that game
//	ifthen     account id → If Then record per level (played, cleared, fewest turns)
//
// Since schema 3 (reviews of finished games):
//
//	analyses   game id → the game's analysis (engine/analysis.Report), computed after it finished
//
// Since schema 4 (the puzzle of the day):
//
//	puzzles     date ‖ NUL ‖ game → that day's puzzle of that game (a position of a finished game)
//	puzzletries date ‖ NUL ‖ game ‖ NUL ‖ account id → the account's one answer
//	streaks     account id ‖ NUL ‖ game → the account's puzzle record and streak at that game
//
// Since schema 6 (a move writes one small bucket, not three nested ones):
//
//	livemoves  len(game id) (1 byte) ‖ game id ‖ big-endian uint32 index → engine.Move JSON, of games in progress
//
// Since schema 7 (a move is put after every other key, so a commit's moves
// share the last page or two, whatever their games; see livelog.go):
//
//	livelog    big-endian uint64 sequence → len(game id) (1 byte) ‖ game id ‖ big-endian uint32 index ‖ engine.Move JSON
//
// and livemoves is gone. An ended game's entries stay in livelog until the
// oldest entries are trimmed, many at once. A live game's header records
// the first livelog sequence that holds its moves ("from"; headers written
// by earlier schema-7 builds lack it and own every entry of their id):
// readers skip entries of its id below that, which belong to an earlier
// game with the same id (forgotten, ForgetLive, and started again), so an
// id may be started again in the same file at any time.
//
// Before schema 6, live held a bucket per game { "header" → header;
// "moves" → bucket { big-endian uint32 index → move } }: each move then
// rewrote that game's two pages and the live bucket's page that points at
// them, besides the root's.
//
// A finished game's record, stats, listing, ratings and history are written
// in the one transaction that stores it, so they are exactly as durable as
// its moves.
package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Errors callers can test for with errors.Is.
var (
	// ErrLocked means another process (or another Open in this one) holds the file.
	ErrLocked = errors.New("database is in use")
	// ErrHandleTaken means another account already uses that handle (case-insensitively).
	ErrHandleTaken = errors.New("that handle is taken")
	// ErrNotFound means no such account, handle or game.
	ErrNotFound = errors.New("not found")
	// ErrGameExists means a game with that id was already started or finished.
	ErrGameExists = errors.New("game id already used")
	// ErrMoveOutOfOrder means AppendMove got an index other than the number of moves so far.
	ErrMoveOutOfOrder = errors.New("move out of order")
	// ErrSchemaTooNew means the file was written by a newer build.
	ErrSchemaTooNew = errors.New("data file schema is newer than this build")
	// ErrClosed means the DB was closed.
	ErrClosed = errors.New("database closed")
)

// schemaVersion is the layout this build writes. Bump it and extend
// migrate when the layout changes.
const schemaVersion = 7

const (
	bucketMeta      = "meta"
	bucketAccounts  = "accounts"
	bucketHandles   = "handles"
	bucketGames     = "games"
	bucketLive      = "live"
	bucketIndex     = "index"
	bucketStats     = "stats"
	bucketAbandoned = "abandoned"

	bucketFinished   = "finished"
	bucketRatings    = "ratings"
	bucketLeaders    = "leaders"
	bucketRatingHist = "ratinghist"
	bucketIfThen     = "ifthen"
	// Since schema 3.
	bucketAnalyses = "analyses"
	// Since schema 4.
	bucketPuzzles     = "puzzles"
	bucketPuzzleTries = "puzzletries"
	bucketStreaks     = "streaks"
	// Since schema 5: small per-account preferences (the last quick-play
	// bot level of each game), keyed account NUL name.
	bucketPrefs = "prefs"
	// Schema 6 only: the moves of live games, all in one bucket, keyed by
	// game and index.
	bucketLiveMoves = "livemoves"
	// Since schema 7: the moves of live games, in the order they came.
	bucketLiveLog = "livelog"

	keySchema      = "schema"
	keyHealthProbe = "health-probe" // meta: written by WriteHealth while writes fail
	keyHeader      = "header"
	bucketMoves    = "moves"
)

// topBuckets lists every top-level bucket of the current schema.
func topBuckets() []string {
	return []string{bucketMeta, bucketAccounts, bucketHandles, bucketGames, bucketLive,
		bucketIndex, bucketStats, bucketAbandoned,
		bucketFinished, bucketRatings, bucketLeaders, bucketRatingHist, bucketIfThen,
		bucketAnalyses, bucketPuzzles, bucketPuzzleTries, bucketStreaks,
		bucketPrefs, bucketLiveLog}
}

// Options tunes Open.
type Options struct {
	// Timeout is how long Open waits for the file lock before failing with
	// ErrLocked. Default 1s.
	Timeout time.Duration
	// Logger receives storage warnings. Default slog.Default().
	Logger *slog.Logger
	// Observer, when set, is told about every write transaction (for
	// metrics). Nil: nothing is measured.
	Observer Observer
	// CheckTime bounds the consistency check of an existing file at Open
	// (default DefaultCheckTime; negative skips it). A file that fails the
	// check is refused; one too large to check in time is opened with a
	// loud warning saying how far the check got.
	CheckTime time.Duration
}

// Observer receives storage measurements. Calls come from the writer
// goroutine, so implementations must be quick and must not call back into
// the DB.
type Observer interface {
	// Commit reports one write transaction: how many callers' writes it
	// carried, how long it took including the fsync, and its error (nil
	// when it committed).
	Commit(writes int, took time.Duration, err error)
}

// DB is the open store. All methods are safe for concurrent use.
type DB struct {
	path     string
	bolt     *bolt.DB
	logger   *slog.Logger
	observer Observer

	// mu guards closed and sending on requests, so Close never races a send.
	mu         sync.RWMutex
	closed     bool
	requests   chan writeRequest
	writerDone chan struct{}
	// answers lends the 1-buffered channels writes are answered on (chan
	// error), one fewer allocation a write.
	answers sync.Pool
	// live is what the writer knows of the live log, and trimAfter when
	// it may trim the log next; only the writer goroutine touches them.
	live      *liveState
	trimAfter time.Time
	// gatherGap is how long the writer may hold a commit back for company
	// (the constant gatherGap; tests change it before any write,
	// benchmarks on the writer goroutine).
	gatherGap time.Duration

	// idMu guards reserved: ids handed out by NewGameID but not yet started.
	idMu     sync.Mutex
	reserved map[string]struct{}

	// healthMu guards the write health: the error of the last write
	// transaction when it failed (nil after a commit), since when writes
	// have failed, and when WriteHealth last probed.
	healthMu     sync.Mutex
	failing      error
	failingSince time.Time
	probedAt     time.Time
}

// schemaPlan says which version to open at and how to migrate older files;
// tests substitute their own to exercise the migration hook.
type schemaPlan struct {
	version int
	migrate func(tx *bolt.Tx, from int) error
}

// lockedError names the locked file; it matches ErrLocked.
type lockedError struct{ path string }

func (e *lockedError) Error() string {
	return fmt.Sprintf("%s is in use by another process; stop it or use --data-dir", e.path)
}

func (e *lockedError) Is(target error) bool { return target == ErrLocked }

// Open opens (creating when missing) the store at path. The parent directory
// is created with mode 0700 and the file with 0600; an existing file open to
// other users is made 0600 and a directory open to them warned about. It
// fails with an error matching ErrLocked when another holder keeps the file
// locked past opt.Timeout, with ErrSchemaTooNew for files from a newer
// build, and with ErrDamaged for a file that exists but is empty,
// unreadable, truncated or fails the consistency check (see
// Options.CheckTime): such a file is never silently replaced or served.
func Open(path string, opt Options) (*DB, error) {
	return open(path, opt, schemaPlan{version: schemaVersion, migrate: migrate})
}

func open(path string, opt Options, plan schemaPlan) (*DB, error) {
	if opt.Timeout <= 0 {
		opt.Timeout = time.Second
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if opt.CheckTime == 0 {
		opt.CheckTime = DefaultCheckTime
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create data directory for %s: %w", path, err)
	}
	fresh, err := precheck(path)
	if err != nil {
		return nil, err
	}
	checkPermissions(path, opt.Logger)
	var bdb *bolt.DB
	err = safely(func() error {
		var err error
		// The free-page list stays synced (no NoFreelistSync): it costs each
		// commit one page of ~6, but without it every Open rebuilds the list
		// by walking every page, unbounded and before the bounded check
		// below — 265 ms instead of 0.8 ms for a 120 MB file
		// (BenchmarkOpenFreelist), so seconds to minutes for a large one,
		// and in a goroutine where a damaged page would crash the process
		// rather than be reported as ErrDamaged.
		bdb, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: opt.Timeout})
		return err
	})
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, &lockedError{path: path}
	}
	if err != nil {
		if fresh {
			return nil, fmt.Errorf("open database %s: %w", path, err)
		}
		return nil, damaged(path, "cannot be opened (%v)", err)
	}
	if !fresh && opt.CheckTime > 0 {
		// Checked once this process holds the lock: nobody writes meanwhile.
		res, err := checkFile(path, opt.CheckTime)
		if err != nil {
			_ = bdb.Close()
			return nil, damaged(path, "failed its consistency check (%v)", err)
		}
		if res.complete {
			opt.Logger.Info("database checked", "path", path, "pages", res.pages, "took", res.took.Round(time.Millisecond).String())
		} else {
			opt.Logger.Warn("DATABASE ONLY PARTLY CHECKED: it is too large to check within the start-up bound; starting anyway. Verify it with `codebreakers backup`, which checks every page, or raise the bound",
				"path", path, "pages_checked", res.pages, "took", res.took.Round(time.Millisecond).String(), "bound", opt.CheckTime.String())
		}
	}
	if err := bdb.Update(func(tx *bolt.Tx) error { return prepare(tx, plan) }); err != nil {
		_ = bdb.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	var live *liveState
	if err := bdb.View(func(tx *bolt.Tx) error {
		var err error
		live, err = loadLiveState(tx)
		return err
	}); err != nil {
		_ = bdb.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	db := &DB{
		live:       live,
		gatherGap:  gatherGap,
		path:       path,
		bolt:       bdb,
		logger:     opt.Logger,
		observer:   opt.Observer,
		requests:   make(chan writeRequest, 256),
		writerDone: make(chan struct{}),
		reserved:   make(map[string]struct{}),
	}
	go db.writeLoop()
	return db, nil
}

// prepare creates the buckets of a new file, or checks and migrates the
// schema of an existing one.
func prepare(tx *bolt.Tx, plan schemaPlan) error {
	meta, err := tx.CreateBucketIfNotExists([]byte(bucketMeta))
	if err != nil {
		return fmt.Errorf("create meta bucket: %w", err)
	}
	if raw := meta.Get([]byte(keySchema)); raw != nil {
		if len(raw) != 8 {
			return fmt.Errorf("schema version is corrupt (%d bytes)", len(raw))
		}
		have := int(binary.BigEndian.Uint64(raw))
		if have > plan.version {
			return fmt.Errorf("%w: the file uses schema %d but this build knows up to %d; run a newer codebreakers or use another --data-dir",
				ErrSchemaTooNew, have, plan.version)
		}
		for from := have; from < plan.version; from++ {
			if err := plan.migrate(tx, from); err != nil {
				return fmt.Errorf("migrate schema %d to %d: %w", from, from+1, err)
			}
		}
	}
	for _, name := range topBuckets() {
		if _, err := tx.CreateBucketIfNotExists([]byte(name)); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	version := binary.BigEndian.AppendUint64(nil, uint64(plan.version))
	if err := tx.Bucket([]byte(bucketMeta)).Put([]byte(keySchema), version); err != nil {
		return fmt.Errorf("record schema version: %w", err)
	}
	return nil
}

// migrate upgrades a file from schema version from to from+1 inside the
// opening transaction.
func migrate(tx *bolt.Tx, from int) error {
	switch from {
	case 1:
		return migrateTo2(tx)
	case 2:
		return migrateTo3(tx)
	case 3:
		return migrateTo4(tx)
	case 4:
		return migrateTo5(tx)
	case 5:
		return migrateTo6(tx)
	case 6:
		return migrateTo7(tx)
	default:
		return fmt.Errorf("no migration from schema %d", from)
	}
}

// Path returns the file the DB was opened from.
func (db *DB) Path() string { return db.path }

// Ping checks that the file can still be read (for health checks); it
// fails with ErrClosed after Close.
func (db *DB) Ping() error {
	if err := db.view(func(tx *bolt.Tx) error {
		if tx.Bucket([]byte(bucketMeta)) == nil {
			return errors.New("meta bucket missing")
		}
		return nil
	}); err != nil {
		return fmt.Errorf("database %s: %w", db.path, err)
	}
	return nil
}

// Close waits for every pending write to be committed, then closes the file.
// Writes submitted after Close fail with ErrClosed.
func (db *DB) Close() error {
	db.mu.Lock()
	if db.closed {
		db.mu.Unlock()
		return nil
	}
	db.closed = true
	close(db.requests)
	db.mu.Unlock()
	<-db.writerDone
	if err := db.bolt.Close(); err != nil {
		return fmt.Errorf("close database %s: %w", db.path, err)
	}
	return nil
}

// view runs a short read-only transaction. fn must copy anything it keeps.
func (db *DB) view(fn func(tx *bolt.Tx) error) error {
	if err := db.bolt.View(fn); err != nil {
		if errors.Is(err, bolt.ErrDatabaseNotOpen) {
			return ErrClosed
		}
		return err
	}
	return nil
}
