package storage

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// migrateTo2 brings a schema-1 file to schema 2: it creates the buckets of
// ratings, leaderboards, rating history, If Then records and the list of
// finished games, lists every finished game, and recounts every account's
// stats (and If Then record) by the one outcome vocabulary. Schema-1 games
// were never rated, so no rating changes. Games are read in id order; the
// per-account index already exists and is left as it is. A game record
// that cannot be decoded is left out of the new lists and counts.
func migrateTo2(tx *bolt.Tx) error {
	for _, name := range []string{bucketFinished, bucketRatings, bucketLeaders, bucketRatingHist, bucketIfThen} {
		if _, err := tx.CreateBucketIfNotExists([]byte(name)); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	// Schema-1 stats used another shape: count everything again.
	if tx.Bucket([]byte(bucketStats)) != nil {
		if err := tx.DeleteBucket([]byte(bucketStats)); err != nil {
			return fmt.Errorf("drop schema-1 stats: %w", err)
		}
	}
	if _, err := tx.CreateBucket([]byte(bucketStats)); err != nil {
		return fmt.Errorf("create stats: %w", err)
	}
	games := tx.Bucket([]byte(bucketGames))
	if games == nil {
		return nil
	}
	var ids [][]byte
	if err := games.ForEach(func(k, _ []byte) error {
		ids = append(ids, append([]byte(nil), k...))
		return nil
	}); err != nil {
		return err
	}
	for _, id := range ids {
		rec, err := decode[finishedRecord](games.Get(id), "game "+string(id))
		if err != nil {
			continue // unreadable under schema 1 too: Game reports it; listing it would help nobody
		}
		g := rec.finishedGame()
		g.Rated = false
		plan, err := planFinish(tx, g)
		if err != nil {
			return fmt.Errorf("migrate game %s: %w", id, err)
		}
		if err := plan.write(tx); err != nil {
			return fmt.Errorf("migrate game %s: %w", id, err)
		}
	}
	return nil
}

// migrateTo3 brings a schema-2 file to schema 3: it creates the bucket of
// game analyses. Games finished before have none; they are analysed when
// first replayed (an analysis is derived from the record alone).
func migrateTo3(tx *bolt.Tx) error {
	if _, err := tx.CreateBucketIfNotExists([]byte(bucketAnalyses)); err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketAnalyses, err)
	}
	return nil
}

// migrateTo4 brings a schema-3 file to schema 4: it creates the buckets of
// the puzzle of the day (puzzles, answers, streaks), empty.
func migrateTo4(tx *bolt.Tx) error {
	for _, name := range []string{bucketPuzzles, bucketPuzzleTries, bucketStreaks} {
		if _, err := tx.CreateBucketIfNotExists([]byte(name)); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	return nil
}

// migrateTo5 brings a schema-4 file to schema 5: it creates the bucket of
// account preferences. Accounts made before have none: the defaults apply.
func migrateTo5(tx *bolt.Tx) error {
	if _, err := tx.CreateBucketIfNotExists([]byte(bucketPrefs)); err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketPrefs, err)
	}
	return nil
}

// migrateTo6 brings a schema-5 file to schema 6: each live game's bucket
// { "header", "moves" { index → move } } becomes its header stored under
// its id in live, and its moves keyed by game and index in livemoves. A
// live game whose header is missing (it could never be resumed) goes to
// abandoned with its moves, as AbandonGame would keep it.
func migrateTo6(tx *bolt.Tx) error {
	moves, err := tx.CreateBucketIfNotExists([]byte(bucketLiveMoves))
	if err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketLiveMoves, err)
	}
	live := tx.Bucket([]byte(bucketLive))
	if live == nil {
		return nil
	}
	var ids [][]byte
	if err := live.ForEach(func(k, v []byte) error {
		if v == nil {
			ids = append(ids, bytes.Clone(k))
		}
		return nil
	}); err != nil {
		return err
	}
	for _, id := range ids {
		game := live.Bucket(id)
		header := bytes.Clone(game.Get([]byte(keyHeader)))
		var logged, keys [][]byte // the moves in order, and their keys (big-endian indexes)
		if mb := game.Bucket([]byte(bucketMoves)); mb != nil {
			if err := mb.ForEach(func(k, v []byte) error {
				if len(k) == 4 && v != nil {
					keys, logged = append(keys, bytes.Clone(k)), append(logged, bytes.Clone(v))
				}
				return nil
			}); err != nil {
				return err
			}
		}
		if err := live.DeleteBucket(id); err != nil {
			return fmt.Errorf("live game %s: %w", id, err)
		}
		if header == nil {
			rec := abandonedRecord{V: recordVersion, Moves: make([]json.RawMessage, len(logged)), Abandoned: time.Now().UTC()}
			for i, m := range logged {
				rec.Moves[i] = m
			}
			val, err := json.Marshal(rec)
			if err != nil {
				return fmt.Errorf("live game %s: %w", id, err)
			}
			if err := tx.Bucket([]byte(bucketAbandoned)).Put(id, val); err != nil {
				return fmt.Errorf("live game %s: %w", id, err)
			}
			continue
		}
		if err := live.Put(id, header); err != nil {
			return fmt.Errorf("live game %s: %w", id, err)
		}
		for i, m := range logged {
			if err := moves.Put(liveMoveKey(id, int(binary.BigEndian.Uint32(keys[i]))), m); err != nil {
				return fmt.Errorf("live game %s: %w", id, err)
			}
		}
	}
	return nil
}

// liveMovePrefix starts the schema-6 livemoves keys of one game: the id's
// length, then the id, so no id's keys run into another's.
func liveMovePrefix(id []byte) []byte {
	p := make([]byte, 0, 1+len(id)+4)
	return append(append(p, byte(len(id))), id...)
}

// liveMoveKey is a schema-6 livemoves key: a game's prefix and the
// big-endian move index, so a game's moves lie together in play order.
func liveMoveKey(id []byte, index int) []byte {
	return binary.BigEndian.AppendUint32(liveMovePrefix(id), uint32(index))
}

// migrateTo7 brings a schema-6 file to schema 7: every move in livemoves
// goes to the end of the new livelog, game by game in play order, and
// livemoves is dropped. A key that is not a game's prefix and index (none
// was written) is dropped with it.
func migrateTo7(tx *bolt.Tx) error {
	lb, err := tx.CreateBucketIfNotExists([]byte(bucketLiveLog))
	if err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketLiveLog, err)
	}
	lb.FillPercent = 1.0
	moves := tx.Bucket([]byte(bucketLiveMoves))
	if moves == nil {
		return nil
	}
	type entry struct {
		id    []byte
		index int
		move  []byte
	}
	var entries []entry
	if err := moves.ForEach(func(k, v []byte) error {
		if len(k) < 1 || len(k) != 1+int(k[0])+4 || v == nil {
			return nil
		}
		entries = append(entries, entry{bytes.Clone(k[1 : 1+k[0]]), int(binary.BigEndian.Uint32(k[1+k[0]:])), bytes.Clone(v)})
		return nil
	}); err != nil {
		return err
	}
	for _, e := range entries {
		if err := appendLog(lb, e.id, e.index, e.move); err != nil {
			return fmt.Errorf("live game %s: %w", e.id, err)
		}
	}
	if err := tx.DeleteBucket([]byte(bucketLiveMoves)); err != nil {
		return fmt.Errorf("drop %s: %w", bucketLiveMoves, err)
	}
	return nil
}
