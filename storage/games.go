package storage

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/codebreakers/codebreakers/engine"
)

// gameIDAlphabet has no 0/O, 1/I/L lookalikes, so ids survive being read
// aloud or copied by hand.
const gameIDAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// maxGameIDBytes bounds ids accepted from callers.
const maxGameIDBytes = 32

// GameIDLen is the length of new game ids: 31^14 ≈ 7.6e20 ids, about 69
// bits. Anyone who knows a finished game's id may replay it, every hand
// shown, so ids must not be guessable. With a million finished games one
// guess finds one with probability 1e6 / 7.6e20 ≈ 1.3e-15. The fastest way
// to try ids is typing them into the arcade's replay box, which the input
// limit (1 KiB/s a session, 8 sessions an address) holds to a few hundred a
// second: at 400 a second, 7.6e14 guesses per hit take about 60,000 years
// from one address and 60 years from a thousand (`ssh HOST replay ID` is
// slower still, 30 commands a minute per address). The 5 and 6-character
// ids given out before keep working: an id is only ever looked up as it
// was stored.
const GameIDLen = 14

// NewGameID returns a fresh random id of GameIDLen characters, unused by
// any live, finished or abandoned game and not handed out before.
func (db *DB) NewGameID() (string, error) {
	for range 20 {
		id, err := randomID(GameIDLen)
		if err != nil {
			return "", err
		}
		var used bool
		err = db.view(func(tx *bolt.Tx) error {
			used = gameIDUsed(tx, []byte(id))
			return nil
		})
		if err != nil {
			return "", fmt.Errorf("new game id: %w", err)
		}
		if used {
			continue
		}
		db.idMu.Lock()
		_, taken := db.reserved[id]
		if !taken {
			db.reserved[id] = struct{}{}
		}
		db.idMu.Unlock()
		if !taken {
			return id, nil
		}
	}
	return "", errors.New("new game id: no free id found")
}

// release forgets a reservation once the id is stored (or given up).
func (db *DB) release(id string) {
	db.idMu.Lock()
	delete(db.reserved, id)
	db.idMu.Unlock()
}

// randomID draws n characters from gameIDAlphabet using crypto/rand.
func randomID(n int) (string, error) {
	const size = len(gameIDAlphabet)
	const limit = 256 - 256%size // reject bytes above this to stay uniform
	var b strings.Builder
	buf := make([]byte, 16)
	for b.Len() < n {
		if _, err := rand.Read(buf); err != nil {
			return "", fmt.Errorf("new game id: %w", err)
		}
		for _, c := range buf {
			if int(c) < limit && b.Len() < n {
				b.WriteByte(gameIDAlphabet[int(c)%size])
			}
		}
	}
	return b.String(), nil
}

func gameIDUsed(tx *bolt.Tx, id []byte) bool {
	return tx.Bucket([]byte(bucketLive)).Get(id) != nil ||
		tx.Bucket([]byte(bucketGames)).Get(id) != nil ||
		tx.Bucket([]byte(bucketAbandoned)).Get(id) != nil
}

func checkGameID(id string) error {
	if id == "" || len(id) > maxGameIDBytes {
		return fmt.Errorf("bad game id %q", id)
	}
	return nil
}

// dropLive ends a live game: its header goes, its logged moves turn to
// garbage for trimLog. The writer goroutine only.
func (db *DB) dropLive(tx *bolt.Tx, id []byte) error {
	if err := tx.Bucket([]byte(bucketLive)).Delete(id); err != nil {
		return err
	}
	db.live.ended(string(id))
	return nil
}

// StartGame stores a new live game (with any moves it already has). The id
// must be unused. Durable on return.
func (db *DB) StartGame(g LiveGame) error {
	if err := checkGameID(g.ID); err != nil {
		return fmt.Errorf("start game: %w", err)
	}
	defer db.release(g.ID)
	if len(g.Record.Moves) > math.MaxUint32 {
		return fmt.Errorf("start game %s: too many moves", g.ID)
	}
	moves := make([][]byte, len(g.Record.Moves))
	for i, m := range g.Record.Moves {
		var err error
		if moves[i], err = json.Marshal(m); err != nil {
			return fmt.Errorf("start game %s: encode move %d: %w", g.ID, i, err)
		}
	}
	id := []byte(g.ID)
	return db.write(func(tx *bolt.Tx) error {
		if gameIDUsed(tx, id) {
			return reject(fmt.Errorf("start game %s: %w", g.ID, ErrGameExists))
		}
		// The game's moves are the log's from the next sequence on: any
		// entries of its id before are an earlier game's (ForgetLive).
		lb := logBucket(tx)
		h := newLiveHeader(g)
		h.From = lb.Sequence() + 1
		header, err := json.Marshal(h)
		if err != nil {
			return reject(fmt.Errorf("start game %s: encode: %w", g.ID, err))
		}
		if err := tx.Bucket([]byte(bucketLive)).Put(id, header); err != nil {
			return err
		}
		for i, m := range moves {
			if err := appendLog(lb, id, i, m); err != nil {
				return err
			}
		}
		db.live.started(g.ID, h.From, len(moves))
		return nil
	})
}

// AppendMove adds move number index (0-based) to a live game's log and
// returns once it is fsynced. index must equal the number of moves stored so
// far: a duplicate or a gap fails with an error matching ErrMoveOutOfOrder,
// an unknown game with one matching ErrNotFound. Concurrent calls from many
// tables are committed together.
func (db *DB) AppendMove(gameID string, index int, m engine.Move) error {
	if index < 0 || index >= math.MaxUint32 {
		return fmt.Errorf("append move %d to game %s: %w", index, gameID, ErrMoveOutOfOrder)
	}
	val, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("append move %d to game %s: encode: %w", index, gameID, err)
	}
	return db.write(db.appendApply(gameID, index, val))
}

// appendApply is AppendMove's write: it reads nothing from the file (the
// writer knows every live game's next index) and puts one entry at the end
// of the log.
func (db *DB) appendApply(gameID string, index int, val []byte) func(tx *bolt.Tx) error {
	return func(tx *bolt.Tx) error {
		g, live := db.live.game(gameID)
		if !live {
			return reject(fmt.Errorf("append move %d to game %s: %w", index, gameID, ErrNotFound))
		}
		if index != int(g.next) {
			return reject(fmt.Errorf("append move %d to game %s: %w (the next is %d)",
				index, gameID, ErrMoveOutOfOrder, g.next))
		}
		if err := appendLog(logBucket(tx), []byte(gameID), index, val); err != nil {
			return err
		}
		db.live.appended(gameID, g)
		return nil
	}
}

// rawLive is a live game's bytes copied out of a transaction.
type rawLive struct {
	id     string
	header []byte
	moves  [][]byte
	from   uint64 // where in the log its moves start (liveFrom)
}

// readLive copies one live game out of tx: its header (stored under id
// in live) and its moves, read from the whole log (for a rare abandon).
func readLive(tx *bolt.Tx, id, header []byte) rawLive {
	return rawLive{id: string(id), header: bytes.Clone(header), moves: gameMoves(logBucket(tx), id, liveFrom(header))}
}

// decodeLive turns copied bytes into a LiveGame.
func decodeLive(r rawLive) (LiveGame, error) {
	if r.header == nil {
		return LiveGame{}, fmt.Errorf("live game %s: header missing", r.id)
	}
	h, err := decode[liveHeader](r.header, "live game "+r.id)
	if err != nil {
		return LiveGame{}, err
	}
	moves := make([]engine.Move, len(r.moves))
	for i, raw := range r.moves {
		if raw == nil {
			return LiveGame{}, fmt.Errorf("live game %s: move %d of %d missing", r.id, i, len(r.moves))
		}
		if err := json.Unmarshal(raw, &moves[i]); err != nil {
			return LiveGame{}, fmt.Errorf("live game %s: decode move %d: %w", r.id, i, err)
		}
	}
	return h.liveGame(moves), nil
}

// LiveGames returns every game in progress with all its moves, in id order.
// A record that cannot be decoded is logged and skipped (left in the file
// untouched) so one damaged game never stops the server resuming the rest.
func (db *DB) LiveGames() ([]LiveGame, error) {
	var raws []rawLive
	err := db.view(func(tx *bolt.Tx) error {
		at := make(map[string]int) // game id → its place in raws
		err := tx.Bucket([]byte(bucketLive)).ForEach(func(k, v []byte) error {
			if v == nil { // a nested bucket: never written since schema 6
				return nil
			}
			at[string(k)] = len(raws)
			raws = append(raws, rawLive{id: string(k), header: bytes.Clone(v), from: liveFrom(v)})
			return nil
		})
		if err != nil {
			return err
		}
		// One pass over the log for every game's moves.
		logMoves(logBucket(tx), func(seq uint64, id []byte, index int, move []byte) {
			i, ok := at[string(id)]
			if !ok || seq < raws[i].from {
				return // garbage: a game no longer live, or an earlier one with a live game's id
			}
			r := &raws[i]
			for len(r.moves) <= index {
				r.moves = append(r.moves, nil)
			}
			r.moves[index] = bytes.Clone(move)
		})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read live games: %w", err)
	}
	games := make([]LiveGame, 0, len(raws))
	for _, r := range raws {
		g, err := decodeLive(r)
		if err != nil {
			db.logger.Error("storage: skipping unreadable live game", "path", db.path, "game", r.id, "err", err)
			continue
		}
		games = append(games, g)
	}
	return games, nil
}

// AbandonGame removes a live game that will never finish (its engine broke)
// and keeps its log in the abandoned bucket for a post-mortem. It fails with
// an error matching ErrNotFound for a game that is not live.
func (db *DB) AbandonGame(gameID string) error {
	now := time.Now().UTC()
	id := []byte(gameID)
	return db.write(func(tx *bolt.Tx) error {
		header := tx.Bucket([]byte(bucketLive)).Get(id)
		if header == nil {
			return reject(fmt.Errorf("abandon game %s: %w", gameID, ErrNotFound))
		}
		r := readLive(tx, id, header)
		rec := abandonedRecord{V: recordVersion, Header: r.header, Moves: make([]json.RawMessage, len(r.moves)),
			Abandoned: now}
		if !json.Valid(r.header) {
			rec.Header = nil // keep the moves even when the header is damaged
		}
		for i, m := range r.moves {
			rec.Moves[i] = m
		}
		val, err := json.Marshal(rec)
		if err != nil {
			return reject(fmt.Errorf("abandon game %s: encode: %w", gameID, err))
		}
		if err := db.dropLive(tx, id); err != nil {
			return err
		}
		return tx.Bucket([]byte(bucketAbandoned)).Put(id, val)
	})
}

// indexKey sorts an account's games by finish time, then by a per-account
// sequence that breaks ties.
func indexKey(finished time.Time, seq uint64) []byte {
	nanos := finished.UnixNano()
	if nanos < 0 {
		nanos = 0
	}
	key := binary.BigEndian.AppendUint64(nil, uint64(nanos))
	return binary.BigEndian.AppendUint64(key, seq)
}

// FinishGame atomically stores the finished game, deletes its live log,
// indexes it under every human seat's account, counts it into their stats
// (and If Then records), lists it among finished games and, for a rated
// game, updates the players' ratings and rating history — all in one
// durable write. A game can be finished once; again fails with an error
// matching ErrGameExists. A zero Finished time means now. Durable on return.
func (db *DB) FinishGame(g FinishedGame) error {
	if err := checkGameID(g.ID); err != nil {
		return fmt.Errorf("finish game: %w", err)
	}
	defer db.release(g.ID)
	if g.Finished.IsZero() {
		g.Finished = time.Now().UTC()
	}
	g.Changes = nil
	id := []byte(g.ID)
	return db.write(func(tx *bolt.Tx) error {
		games := tx.Bucket([]byte(bucketGames))
		if games.Get(id) != nil || tx.Bucket([]byte(bucketAbandoned)).Get(id) != nil {
			return reject(fmt.Errorf("finish game %s: %w", g.ID, ErrGameExists))
		}
		plan, err := planFinish(tx, g)
		if err != nil {
			return reject(fmt.Errorf("finish game %s: %w", g.ID, err))
		}
		val, err := json.Marshal(newFinishedRecord(plan.game))
		if err != nil {
			return reject(fmt.Errorf("finish game %s: encode: %w", g.ID, err))
		}
		// Checks done; now change things.
		if err := games.Put(id, val); err != nil {
			return err
		}
		if tx.Bucket([]byte(bucketLive)).Get(id) != nil {
			if err := db.dropLive(tx, id); err != nil {
				return err
			}
		}
		index := tx.Bucket([]byte(bucketIndex))
		for _, acct := range plan.accounts {
			ib, err := index.CreateBucketIfNotExists([]byte(acct))
			if err != nil {
				return err
			}
			seq, err := ib.NextSequence()
			if err != nil {
				return err
			}
			if err := ib.Put(indexKey(g.Finished, seq), id); err != nil {
				return err
			}
		}
		return plan.write(tx)
	})
}

// Game returns a finished game with every move, or an error matching
// ErrNotFound.
func (db *DB) Game(id string) (FinishedGame, error) {
	var raw []byte
	err := db.view(func(tx *bolt.Tx) error {
		raw = bytes.Clone(tx.Bucket([]byte(bucketGames)).Get([]byte(id)))
		return nil
	})
	if err != nil {
		return FinishedGame{}, fmt.Errorf("read game %s: %w", id, err)
	}
	if raw == nil {
		return FinishedGame{}, fmt.Errorf("game %s: %w", id, ErrNotFound)
	}
	rec, err := decode[finishedRecord](raw, "game "+id)
	if err != nil {
		return FinishedGame{}, err
	}
	return rec.finishedGame(), nil
}

// History returns up to limit of the account's finished games, newest
// first (all of them when limit <= 0), each with the account's Outcome. An
// unknown account has none.
func (db *DB) History(accountID string, limit int) ([]GameSummary, error) {
	var out []GameSummary
	err := db.view(func(tx *bolt.Tx) error {
		var err error
		out, err = readHistory(tx, accountID, limit, false)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read history of %q: %w", accountID, err)
	}
	return out, nil
}

// Stats returns the account's totals over its finished games (zero for an
// account that has none).
func (db *DB) Stats(accountID string) (Stats, error) {
	var raw []byte
	err := db.view(func(tx *bolt.Tx) error {
		raw = bytes.Clone(tx.Bucket([]byte(bucketStats)).Get([]byte(accountID)))
		return nil
	})
	if err != nil {
		return Stats{}, fmt.Errorf("read stats of %q: %w", accountID, err)
	}
	if raw == nil {
		return Stats{ByGame: map[string]Totals{}}, nil
	}
	rec, err := decode[statsRecord](raw, "stats of "+accountID)
	if err != nil {
		return Stats{}, err
	}
	return rec.stats(), nil
}

// isLive reports whether a live log for the game is in the file.
func (db *DB) isLive(gameID string) bool {
	live := false
	_ = db.view(func(tx *bolt.Tx) error {
		live = tx.Bucket([]byte(bucketLive)).Get([]byte(gameID)) != nil
		return nil
	})
	return live
}

// ForgetLive drops the live log of a game whose finish is stored elsewhere
// (a cluster's shared database). It fails with an error matching
// ErrNotFound when the game is not live here.
//
// The game's logged moves stay in the live log as garbage until trimLog
// deletes them. Its id may be started again here at any time (this file
// keeps no record of it): that game reads back only its own moves, since
// its header records where in the log they start.
func (db *DB) ForgetLive(gameID string) error {
	defer db.release(gameID)
	id := []byte(gameID)
	return db.write(func(tx *bolt.Tx) error {
		if tx.Bucket([]byte(bucketLive)).Get(id) == nil {
			return reject(fmt.Errorf("forget live game %s: %w", gameID, ErrNotFound))
		}
		return db.dropLive(tx, id)
	})
}
