package storage

import (
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// maxGroup caps how many requests share one transaction, so one commit
// never grows without bound under a flood of writers.
const maxGroup = 1024

// writeRequest is one caller's write, applied by the writer goroutine.
//
// apply must check everything it can before it changes anything, and return
// such a refusal wrapped by reject: then it has changed nothing and the rest
// of the group can still commit. Any other error aborts the group's
// transaction, and each request is then retried in a transaction of its own.
// apply may therefore run twice and must touch nothing outside tx except
// results it fully overwrites.
type writeRequest struct {
	apply func(tx *bolt.Tx) error
	done  chan error // 1-buffered: the writer never blocks answering
}

// rejection marks an error returned by apply before any change was made.
type rejection struct{ err error }

func (r rejection) Error() string { return r.err.Error() }
func (r rejection) Unwrap() error { return r.err }

// reject marks err as a clean refusal (nothing written).
func reject(err error) error { return rejection{err: err} }

// write submits apply to the writer goroutine and waits until it has been
// committed (fsynced) or refused.
func (db *DB) write(apply func(tx *bolt.Tx) error) error {
	done, _ := db.answers.Get().(chan error)
	if done == nil {
		done = make(chan error, 1)
	}
	req := writeRequest{apply: apply, done: done}
	db.mu.RLock()
	if db.closed {
		db.mu.RUnlock()
		db.answers.Put(done)
		return ErrClosed
	}
	db.requests <- req
	db.mu.RUnlock()
	err := <-done
	// The writer answers each request exactly once and the answer has been
	// taken, so the channel goes back empty and nobody else holds it.
	db.answers.Put(done)
	return err
}

// gatherGap is how often the writer commits while writes keep coming: after
// a commit that carried more than one write, the next one starts gatherGap
// after it started, carrying every write that came meanwhile (up to
// maxGroup; a commit taking longer than gatherGap is followed at once).
// A commit costs about the same CPU whatever it carries — two fdatasyncs
// (which on a small VM cost CPU, not only waiting), the meta and free-list
// pages, the root and branch pages — and a write little beside it, so
// fuller commits cost less a write. Waiting only for as many writes as the
// previous commit carried (until 080e7b8's 6 ms) settled at ~2 writes a
// commit on the 2,000-table floor, commits following each other as fast as
// the disk took them; a fixed period caps commits at 100 a second under
// load, ~5.7 writes each at 560 writes/s, and halves the writer's CPU per
// write (BenchmarkFloorPaced writer-µs/write, BENCHMARKS.md issue 20) for
// ~6 ms more at the median and p99 of a write. Writes that come one at a
// time (the previous commit was alone) never wait.
const gatherGap = 10 * time.Millisecond

// writeLoop is the only goroutine that writes to the file. It takes the
// first pending request, gathers every other one already waiting (and,
// while writes keep coming, every one that comes until gatherGap after the
// previous commit started), and commits them together. It returns once
// requests is closed and drained.
func (db *DB) writeLoop() {
	defer close(db.writerDone)
	group := make([]writeRequest, 0, 64)
	var timer *time.Timer
	var prevStart time.Time
	prevWrites := 0
	for first := range db.requests {
		group = drain(db.requests, append(group[:0], first))
		if prevWrites > 1 && len(group) < maxGroup {
			if until := time.Until(prevStart.Add(db.gatherGap)); until > 0 {
				if timer == nil {
					timer = time.NewTimer(until)
				} else {
					timer.Reset(until)
				}
				group = gather(db.requests, group, maxGroup, timer.C)
				timer.Stop()
			}
		}
		prevStart, prevWrites = time.Now(), len(group)
		db.commit(group)
		clear(group) // drop references to finished closures
		db.trim()
	}
}

// drain adds to group every request already waiting, up to maxGroup.
func drain(requests <-chan writeRequest, group []writeRequest) []writeRequest {
	for len(group) < maxGroup {
		select {
		case req, ok := <-requests:
			if !ok {
				return group
			}
			group = append(group, req)
		default:
			return group
		}
	}
	return group
}

// gather adds requests to group as they come until it holds want of them,
// deadline fires or requests is closed.
func gather(requests <-chan writeRequest, group []writeRequest, want int, deadline <-chan time.Time) []writeRequest {
	for len(group) < want {
		select {
		case req, ok := <-requests:
			if !ok {
				return group
			}
			group = append(group, req)
		case <-deadline:
			return group
		}
	}
	return group
}

// trimRetry is how long the writer waits to trim the live log again after
// a trim failed (a full disk, say), so a failing trim is not retried after
// every commit.
const trimRetry = 10 * time.Second

// trim trims the live log (trimLog) in a transaction of its own once enough
// of it is garbage: after the group's writes were answered, so they never
// wait for it, and apart from them, so a failing trim fails no write. It
// changes nothing when it fails, and is tried again trimRetry later.
func (db *DB) trim() {
	if !db.live.wantsTrim() || time.Now().Before(db.trimAfter) {
		return
	}
	began := time.Now()
	db.live.begin()
	err := db.bolt.Update(db.trimLog)
	db.settleLive(err)
	if db.observer != nil {
		db.observer.Commit(0, time.Since(began), err)
	}
	if err != nil {
		db.trimAfter = time.Now().Add(trimRetry)
		db.logger.Warn("storage: trimming the live log failed; trying again later",
			"path", db.path, "retry_in", trimRetry.String(), "err", err)
	}
}

// commit applies group in one transaction and answers every request. When
// the shared transaction fails, each request is retried alone so one bad
// request (or one that trips a bolt limit) fails only itself.
func (db *DB) commit(group []writeRequest) {
	errs := make([]error, len(group))
	began := time.Now()
	db.live.begin()
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		for i, req := range group {
			if err := safeApply(req.apply, tx); err != nil {
				var r rejection
				if errors.As(err, &r) {
					errs[i] = r.err
					continue
				}
				return err
			}
		}
		return nil
	})
	db.settleLive(err)
	if db.observer != nil {
		db.observer.Commit(len(group), time.Since(began), err)
	}
	db.noteWrite(err)
	if err == nil {
		for i, req := range group {
			req.done <- errs[i]
		}
		return
	}
	if len(group) > 1 {
		db.logger.Warn("storage: group commit failed; retrying its writes one by one",
			"path", db.path, "writes", len(group), "err", err)
	}
	for _, req := range group {
		err := err
		if len(group) > 1 {
			began := time.Now()
			db.live.begin()
			err = db.bolt.Update(func(tx *bolt.Tx) error { return safeApply(req.apply, tx) })
			db.settleLive(err)
			if db.observer != nil {
				db.observer.Commit(1, time.Since(began), err)
			}
			db.noteWrite(err)
		}
		req.done <- db.wrapWriteError(err)
	}
}

// settleLive keeps the writer's live state as the file is: a committed
// transaction's changes are merged, a failed one's dropped.
func (db *DB) settleLive(err error) {
	if err == nil {
		db.live.committed()
	} else {
		db.live.begin()
	}
}

// wrapWriteError turns a failed single-request transaction into the error
// its caller sees: refusals unchanged, everything else (disk full, read-only
// file system, bolt limits) wrapped with the file name.
func (db *DB) wrapWriteError(err error) error {
	if err == nil {
		return nil
	}
	var r rejection
	if errors.As(err, &r) {
		return r.err
	}
	return fmt.Errorf("write to %s: %w", db.path, err)
}

// safeApply runs apply, turning a panic into an error so one bad request
// can never take down the writer goroutine (and with it every caller).
func safeApply(apply func(tx *bolt.Tx) error, tx *bolt.Tx) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("storage write panicked: %v", p)
		}
	}()
	return apply(tx)
}

// healthProbeEvery is how often WriteHealth tries a write of its own while
// writes are failing. Without a probe a server taken out of rotation for
// failing writes would get no more writes, and never be healthy again.
const healthProbeEvery = 5 * time.Second

// noteWrite records how a write transaction ended, for WriteHealth: a
// commit clears the failure, a failure other than a clean refusal sets it.
func (db *DB) noteWrite(err error) {
	var r rejection
	if err != nil && errors.As(err, &r) {
		return
	}
	db.healthMu.Lock()
	defer db.healthMu.Unlock()
	if err == nil {
		db.failing = nil
		return
	}
	if db.failing == nil {
		db.failingSince = time.Now()
	}
	db.failing = err
}

// WriteHealth reports whether writes are failing: nil when the last write
// transaction committed, else its error (disk full, read-only file system,
// I/O error) with how long writes have been failing. While they fail, it
// tries a small write of its own every few seconds, so that the answer
// turns healthy once writes succeed again even if nobody else writes.
func (db *DB) WriteHealth() error {
	db.healthMu.Lock()
	failing, since, probe := db.failing, db.failingSince, time.Since(db.probedAt) >= healthProbeEvery
	if failing != nil && probe {
		db.probedAt = time.Now()
	}
	db.healthMu.Unlock()
	if failing == nil {
		return nil
	}
	if probe {
		err := db.write(func(tx *bolt.Tx) error {
			return tx.Bucket([]byte(bucketMeta)).Put([]byte(keyHealthProbe), []byte(time.Now().UTC().Format(time.RFC3339Nano)))
		})
		if err == nil {
			return nil
		}
		failing = err
	}
	return fmt.Errorf("writes to %s failing for %s: %w", db.path, time.Since(since).Round(time.Second), failing)
}
