package storage

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Backup writes a consistent copy of the whole database file to w while the
// DB stays open and in use. The copy is taken inside one read transaction,
// so it is exactly the state of the last commit before it began; writers
// carry on meanwhile (a long copy only delays the file growing). The bytes
// written are a complete bbolt file: restoring is copying it back in place
// of the data file while the server is stopped.
func (db *DB) Backup(w io.Writer) (int64, error) {
	var n int64
	err := db.view(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	if err != nil {
		return n, fmt.Errorf("back up %s: %w", db.path, err)
	}
	return n, nil
}

// BackupFile copies the database at path to w without a running server: it
// opens the file read-only, which takes a shared lock. While a server holds
// the file (an exclusive lock) this fails with an error matching ErrLocked
// after timeout; ask the server for the copy instead (DB.Backup).
func BackupFile(path string, w io.Writer, timeout time.Duration) (int64, error) {
	if timeout <= 0 {
		timeout = time.Second
	}
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: timeout})
	if errors.Is(err, bolt.ErrTimeout) {
		return 0, &lockedError{path: path}
	}
	if err != nil {
		return 0, fmt.Errorf("open database %s: %w", path, err)
	}
	defer bdb.Close()
	var n int64
	err = bdb.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	if err != nil {
		return n, fmt.Errorf("back up %s: %w", path, err)
	}
	return n, nil
}

// exportPage bounds how many finished games one read transaction copies,
// so an export never holds a long read transaction.
const exportPage = 256

// EachFinishedGame calls fn for every finished game, in game-id order,
// with every move. It reads in short transactions of a few hundred games,
// so it is safe on a busy server; games finished during the walk may or may
// not be included. An error from fn stops the walk and is returned.
func (db *DB) EachFinishedGame(fn func(FinishedGame) error) error {
	var after []byte
	for {
		var ids []string
		var raws [][]byte
		err := db.view(func(tx *bolt.Tx) error {
			c := tx.Bucket([]byte(bucketGames)).Cursor()
			k, v := c.First()
			if after != nil {
				k, v = c.Seek(after)
				if k != nil && bytes.Equal(k, after) {
					k, v = c.Next()
				}
			}
			for ; k != nil && len(raws) < exportPage; k, v = c.Next() {
				ids = append(ids, string(k))
				raws = append(raws, bytes.Clone(v))
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("read finished games: %w", err)
		}
		for i, raw := range raws {
			rec, err := decode[finishedRecord](raw, "game "+ids[i])
			if err != nil {
				return err
			}
			if err := fn(rec.finishedGame()); err != nil {
				return err
			}
		}
		if len(raws) < exportPage {
			return nil
		}
		after = []byte(ids[len(ids)-1])
	}
}

// VerifyFile opens a database file read-only and runs bbolt's consistency
// check over every page, so a backup is known to be restorable before it is
// trusted. It does not need (or take) the server's lock only when given a
// copy; on the live file it fails with ErrLocked while a server runs.
func VerifyFile(path string) error {
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if errors.Is(err, bolt.ErrTimeout) {
		return &lockedError{path: path}
	}
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	defer bdb.Close()
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("verify %s: %w", path, err)
	}
	err = bdb.View(func(tx *bolt.Tx) error {
		// A cut-short copy must be caught before any page is read: bbolt
		// maps the file and reading past its end is a fatal SIGBUS.
		if tx.Size() > info.Size() {
			return fmt.Errorf("file is %d bytes but its last commit needs %d: the copy is truncated", info.Size(), tx.Size())
		}
		var problems []error
		for err := range tx.Check() {
			problems = append(problems, err)
			if len(problems) >= 10 {
				break
			}
		}
		if tx.Bucket([]byte(bucketMeta)) == nil {
			problems = append(problems, errors.New("not a codebreakers database (no meta bucket)"))
		}
		return errors.Join(problems...)
	})
	if err != nil {
		return fmt.Errorf("verify %s: %w", path, err)
	}
	return nil
}
