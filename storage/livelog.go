package storage

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The live log (schema 7). Every move of every game in progress is one
// entry of one bucket, livelog, keyed by a sequence number the bucket hands
// out: a move is always put after every key there, so all the moves a
// commit carries land in the log's last page or two, whichever games they
// belong to. Keyed by game (schema 6), the ~3 moves of a commit each wrote
// another leaf of a 2,000-game bucket and the branch pages above it.
//
// A finished, forgotten or abandoned game's moves are not deleted then (its
// header in live is): they stay in the log as garbage until the log's
// oldest entries are trimmed, many at once (trimLog), so a finish writes no
// move pages either. Whether a game is live, and its next move index, the
// writer keeps in memory (liveState), read from the file at Open, so an
// append reads nothing from the file.
//
// A live game's header records the first sequence of the log that is its
// own (From: the sequence the log hands out next when it starts), and
// whoever reads the log (gameMoves, LiveGames, loadLiveState, trimLog)
// takes an entry for the game's only when its id matches and its sequence
// is not below that. So an id that was live before, and whose old moves
// are still in the log as garbage (a game forgotten and started again in
// the same file), starts afresh: the old moves all have smaller sequences.
// A header without From (written before it was recorded) starts at the
// log's start: its id was never started twice. Moving a live entry to the
// end (trimLog) only ever raises its sequence, so it stays the game's.

// Trimming: once at least trimMinGarbage entries, and over half the log,
// are garbage, after each commit the writer looks at up to trimBatch of the
// oldest entries in a transaction of its own, deleting the garbage among
// them and moving each live one to the end of the log (so a long game never
// holds the log's start in place). Moving only happens while over half the
// log is garbage, so moves copied are at most about the garbage deleted.
const (
	trimMinGarbage = 512
	trimBatch      = 256
)

// logValue is a log entry's value: len(game id) (1 byte) ‖ game id ‖
// big-endian uint32 move index ‖ the move's JSON.
func logValue(id []byte, index int, move []byte) []byte {
	v := make([]byte, 0, 1+len(id)+4+len(move))
	v = append(append(v, byte(len(id))), id...)
	v = binary.BigEndian.AppendUint32(v, uint32(index))
	return append(v, move...)
}

// parseLogValue splits a log entry's value; ok is false for one too short
// to hold what it says.
func parseLogValue(v []byte) (id []byte, index int, move []byte, ok bool) {
	if len(v) < 1 || len(v) < 1+int(v[0])+4 {
		return nil, 0, nil, false
	}
	n := int(v[0])
	return v[1 : 1+n], int(binary.BigEndian.Uint32(v[1+n:])), v[1+n+4:], true
}

// logBucket is the live log of tx, set to fill its pages whole: keys only
// ever go after the last one, so a page split there leaves a full page.
func logBucket(tx *bolt.Tx) *bolt.Bucket {
	lb := tx.Bucket([]byte(bucketLiveLog))
	if tx.Writable() {
		lb.FillPercent = 1.0
	}
	return lb
}

// appendLog puts one move at the end of the log.
func appendLog(lb *bolt.Bucket, id []byte, index int, move []byte) error {
	seq, err := lb.NextSequence()
	if err != nil {
		return err
	}
	return lb.Put(binary.BigEndian.AppendUint64(nil, seq), logValue(id, index, move))
}

// logSeq is a log entry's sequence number, read from its key; 0 (below
// every sequence the log hands out) for a key of another length.
func logSeq(k []byte) uint64 {
	if len(k) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(k)
}

// logMoves calls fn with every entry of the log in log order (a game's own
// entries are in play order unless trimming moved some).
func logMoves(lb *bolt.Bucket, fn func(seq uint64, id []byte, index int, move []byte)) {
	c := lb.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if id, index, move, ok := parseLogValue(v); ok {
			fn(logSeq(k), id, index, move)
		}
	}
}

// headerFrom is the only field of a live header the log's readers need.
type headerFrom struct {
	From uint64 `json:"from,omitempty"`
}

// liveFrom reads where in the log a live game starts from its stored
// header: 0 (the log's start) for a header written before that was
// recorded, or one that cannot be read (it is skipped or abandoned, moves
// kept, on its own terms).
func liveFrom(header []byte) uint64 {
	var h headerFrom
	if json.Unmarshal(header, &h) != nil {
		return 0
	}
	return h.From
}

// gameMoves copies the moves of game id that are its own since log
// sequence from out of the log, in play order. A missing move is a nil
// entry.
func gameMoves(lb *bolt.Bucket, id []byte, from uint64) [][]byte {
	var moves [][]byte
	logMoves(lb, func(seq uint64, gid []byte, index int, move []byte) {
		if seq < from || !bytes.Equal(gid, id) {
			return
		}
		for len(moves) <= index {
			moves = append(moves, nil)
		}
		moves[index] = bytes.Clone(move)
	})
	return moves
}

// liveState is what the writer knows of the live log: every live game's
// next move index and where in the log it starts, how many entries the log
// has and how many of them are garbage. Only the writer goroutine uses it
// (and Open, before the writer starts). A transaction's changes go to
// pending and are merged once it commits or dropped when it fails, so the
// state is always the committed file's.
type liveState struct {
	games            map[string]liveGame
	entries, garbage int

	pending            map[string]pendingGame
	dEntries, dGarbage int
}

// liveGame is what the writer knows of one live game.
type liveGame struct {
	from uint64 // the first log sequence that is the game's (see liveFrom)
	next uint32 // its next move index
}

// pendingGame is a live game as a transaction left it: changed, or no
// longer live (ended).
type pendingGame struct {
	liveGame
	ended bool
}

// owns reports whether the log entry of the game's id at sequence seq is
// one of its moves, not one of an earlier game's with the same id.
func (g liveGame) owns(seq uint64) bool { return seq >= g.from }

// game returns what the writer knows of a live game; ok is false for a
// game that is not live.
func (s *liveState) game(id string) (g liveGame, ok bool) {
	if p, ok := s.pending[id]; ok {
		return p.liveGame, !p.ended
	}
	g, ok = s.games[id]
	return g, ok
}

// started records a new live game whose entries start at log sequence
// from, with moves already logged.
func (s *liveState) started(id string, from uint64, moves int) {
	s.pending[id] = pendingGame{liveGame: liveGame{from: from, next: uint32(moves)}}
	s.dEntries += moves
}

// appended records one more logged move of live game g.
func (s *liveState) appended(id string, g liveGame) {
	g.next++
	s.pending[id] = pendingGame{liveGame: g}
	s.dEntries++
}

// ended records that a live game's moves are garbage now.
func (s *liveState) ended(id string) {
	if g, ok := s.game(id); ok {
		s.dGarbage += int(g.next)
	}
	s.pending[id] = pendingGame{ended: true}
}

// begin starts a transaction's changes (dropping any earlier ones).
func (s *liveState) begin() {
	clear(s.pending)
	s.dEntries, s.dGarbage = 0, 0
}

// committed merges the transaction's changes.
func (s *liveState) committed() {
	for id, p := range s.pending {
		if p.ended {
			delete(s.games, id)
		} else {
			s.games[id] = p.liveGame
		}
	}
	s.entries += s.dEntries
	s.garbage += s.dGarbage
	s.begin()
}

// loadLiveState reads what the writer must know of the live log from tx:
// the live games and where each starts in the log (their headers), their
// next indexes (their logged moves), and the log's size and garbage.
func loadLiveState(tx *bolt.Tx) (*liveState, error) {
	s := &liveState{games: make(map[string]liveGame), pending: make(map[string]pendingGame)}
	err := tx.Bucket([]byte(bucketLive)).ForEach(func(k, v []byte) error {
		if v != nil {
			s.games[string(k)] = liveGame{from: liveFrom(v)}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read live games: %w", err)
	}
	c := logBucket(tx).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		s.entries++
		id, index, _, ok := parseLogValue(v)
		g, live := s.games[string(id)]
		if !ok || !live || !g.owns(logSeq(k)) {
			s.garbage++
			continue
		}
		if uint32(index) >= g.next {
			g.next = uint32(index) + 1
			s.games[string(id)] = g
		}
	}
	return s, nil
}

// wantsTrim reports whether enough of the committed log is garbage to trim
// it (see trimBatch).
func (s *liveState) wantsTrim() bool {
	return s.garbage >= trimMinGarbage && 2*s.garbage > s.entries
}

// trimLog deletes up to trimBatch of the oldest entries of the log that are
// garbage, moving live ones among them to its end. The writer runs it in a
// transaction of its own (DB.trim).
func (db *DB) trimLog(tx *bolt.Tx) error {
	s := db.live
	lb := logBucket(tx)
	// Read first, then change: the cursor is not used after a change.
	type entry struct{ key, val []byte }
	head := make([]entry, 0, trimBatch)
	c := lb.Cursor()
	for k, v := c.First(); k != nil && len(head) < trimBatch; k, v = c.Next() {
		head = append(head, entry{bytes.Clone(k), bytes.Clone(v)})
	}
	for _, e := range head {
		id, index, _, ok := parseLogValue(e.val)
		live := false
		if ok {
			g, isLive := s.game(string(id))
			live = isLive && g.owns(logSeq(e.key))
		}
		if live {
			seq, err := lb.NextSequence()
			if err != nil {
				return err
			}
			if err := lb.Put(binary.BigEndian.AppendUint64(nil, seq), e.val); err != nil {
				return fmt.Errorf("move entry %d of game %s: %w", index, id, err)
			}
		} else {
			s.dGarbage--
		}
		if err := lb.Delete(e.key); err != nil {
			return err
		}
		if !live {
			s.dEntries--
		}
	}
	return nil
}
