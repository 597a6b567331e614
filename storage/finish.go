package storage

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/ifthen"
	"github.com/codebreakers/codebreakers/engine/rating"
)

// finishPlan is everything a finished game changes besides its own record
// and the per-account index: computed (and every stored value it reads
// decoded) before anything is written, so a refusal changes nothing.
type finishPlan struct {
	game     FinishedGame // with Rated and Changes as decided here
	accounts []string     // human accounts, first seat each, in seat order
	puts     []kv         // bucket, key, value
	dels     []kv         // bucket, key
}

// kv is one write of a plan.
type kv struct {
	bucket   string
	key, val []byte
}

func (p *finishPlan) put(bucket string, key, val []byte) {
	p.puts = append(p.puts, kv{bucket: bucket, key: key, val: val})
}

// write applies the plan's changes.
func (p *finishPlan) write(tx *bolt.Tx) error {
	for _, d := range p.dels {
		if err := tx.Bucket([]byte(d.bucket)).Delete(d.key); err != nil {
			return err
		}
	}
	for _, w := range p.puts {
		if err := tx.Bucket([]byte(w.bucket)).Put(w.key, w.val); err != nil {
			return err
		}
	}
	return nil
}

// isGuest reports whether an account id is a guest's (nothing kept).
func isGuest(account string) bool { return strings.HasPrefix(account, "guest:") }

// humanSeats lists each account that played a game, at its first seat, in
// seat order. Bots and guests (who cannot come back to read a history) are
// left out.
func humanSeats(seats []SeatRecord) ([]string, map[string]int) {
	var order []string
	first := make(map[string]int)
	for i, s := range seats {
		if s.Bot || s.AccountID == "" || isGuest(s.AccountID) {
			continue
		}
		if _, ok := first[s.AccountID]; ok {
			continue
		}
		first[s.AccountID] = i
		order = append(order, s.AccountID)
	}
	return order, first
}

// RatedGame reports whether games of this id can be rated: every game but
// the cooperative If Then, where the players win or lose together (it
// keeps a record of levels cleared instead).
func RatedGame(game string) bool { return game != ifthen.ID }

// ratable reports whether a game asked to be rated may be: a competitive
// game whose every seat was taken by a distinct key account (a seat a bot
// took over from a leaver still counts: the leaver is rated as a loss).
func ratable(g FinishedGame) bool {
	if !g.Rated || !RatedGame(g.Record.Game) || len(g.Seats) < 2 {
		return false
	}
	accounts, _ := humanSeats(g.Seats)
	return len(accounts) == len(g.Seats)
}

// Standings reads the state that finishing a game builds on: an account's
// stats, its If Then record and its rating in one game. Each store reads
// them inside the transaction that will write the Settlement.
type Standings interface {
	Stats(account string) (Stats, error)
	LevelRecords(account string) (map[string]LevelRecord, error)
	// Rating returns the account's rating in game, and false when it has
	// none yet.
	Rating(account, game string) (GameRating, bool, error)
}

// Settlement is everything a finished game changes besides its own record
// and the per-account index. Every store computes it with Settle, so a
// game counts the same in bbolt and in a shared database.
type Settlement struct {
	// Game is the game with Rated and Changes as decided here.
	Game FinishedGame
	// Accounts are the human accounts, first seat each, in seat order.
	Accounts []string
	// Stats are the new totals of each account.
	Stats map[string]Stats
	// IfThen are the new If Then records of each account (If Then only).
	IfThen map[string]map[string]LevelRecord
	// Ratings are the seats' rating changes (rated games only), in seat order.
	Ratings []SeatRating
}

// SeatRating is one seat's rating before and after a rated game.
type SeatRating struct {
	Account string
	// Before is the rating the account had, as stored (its deviation not
	// grown for the time away); Had is false for a newcomer.
	Before GameRating
	Had    bool
	After  GameRating
}

// Settle works out the stats, If Then records and, for a rated game, the
// rating changes of g, reading the standings it builds on from cur.
func Settle(g FinishedGame, cur Standings) (Settlement, error) {
	st := Settlement{Game: g}
	st.Game.Rated = ratable(g)
	st.Game.Changes = nil
	accounts, seats := humanSeats(g.Seats)
	st.Accounts = accounts
	if st.Game.Rated {
		if err := st.settleRatings(cur); err != nil {
			return Settlement{}, err
		}
	}
	st.Stats = make(map[string]Stats, len(accounts))
	for _, acct := range accounts {
		old, err := cur.Stats(acct)
		if err != nil {
			return Settlement{}, err
		}
		o := SeatOutcome(g.Seats, g.Result, seats[acct])
		totals := old.Totals
		totals.add(o)
		byGame := maps.Clone(old.ByGame)
		if byGame == nil {
			byGame = make(map[string]Totals)
		}
		t := byGame[g.Record.Game]
		t.add(o)
		byGame[g.Record.Game] = t
		st.Stats[acct] = Stats{Totals: totals, ByGame: byGame}

		if g.Record.Game != ifthen.ID {
			continue
		}
		levels, err := cur.LevelRecords(acct)
		if err != nil {
			return Settlement{}, err
		}
		rec := ifThenRecord{Levels: maps.Clone(levels)}
		rec.add(g.Record.Options["level"], o, g.Turns)
		if st.IfThen == nil {
			st.IfThen = make(map[string]map[string]LevelRecord)
		}
		st.IfThen[acct] = rec.Levels
	}
	return st, nil
}

// settleRatings computes every seat's new rating.
func (st *Settlement) settleRatings(cur Standings) error {
	g := st.Game
	before := make([]rating.Rating, len(g.Seats))
	st.Ratings = make([]SeatRating, len(g.Seats))
	for i, s := range g.Seats {
		old, had, err := cur.Rating(s.AccountID, g.Record.Game)
		if err != nil {
			return err
		}
		if !had {
			old = GameRating{Game: g.Record.Game, Rating: rating.New()}
		}
		st.Ratings[i] = SeatRating{Account: s.AccountID, Before: old, Had: had}
		// The days away since the last rated game grow the deviation first.
		before[i] = old.Current(g.Finished).Rating
	}
	after, err := rating.Update(before, Ranks(g.Seats, g.Result))
	if err != nil {
		return fmt.Errorf("rate: %w", err)
	}
	for i := range g.Seats {
		next := st.Ratings[i].Before
		next.Rating = after[i]
		next.Games++
		if o := SeatOutcome(g.Seats, g.Result, i); o == Won || o == SharedWin {
			next.Wins++
		}
		next.Last = g.Finished
		st.Ratings[i].After = next
		st.Game.Changes = append(st.Game.Changes, RatingChange{Seat: i, Before: before[i], After: after[i]})
	}
	return nil
}

// boltStandings reads standings inside a bbolt transaction.
type boltStandings struct{ tx *bolt.Tx }

func (b boltStandings) Stats(acct string) (Stats, error) {
	raw := b.tx.Bucket([]byte(bucketStats)).Get([]byte(acct))
	if raw == nil {
		return Stats{ByGame: map[string]Totals{}}, nil
	}
	rec, err := decode[statsRecord](raw, "stats of "+acct)
	if err != nil {
		return Stats{}, err
	}
	return rec.stats(), nil
}

func (b boltStandings) LevelRecords(acct string) (map[string]LevelRecord, error) {
	raw := b.tx.Bucket([]byte(bucketIfThen)).Get([]byte(acct))
	if raw == nil {
		return nil, nil
	}
	rec, err := decode[ifThenRecord](raw, "If Then record of "+acct)
	if err != nil {
		return nil, err
	}
	return rec.Levels, nil
}

func (b boltStandings) Rating(acct, game string) (GameRating, bool, error) {
	raw := b.tx.Bucket([]byte(bucketRatings)).Get(ratingKey(acct, game))
	if raw == nil {
		return GameRating{}, false, nil
	}
	rec, err := decode[ratingRecord](raw, "rating of "+acct)
	if err != nil {
		return GameRating{}, false, err
	}
	return rec.gameRating(game), true, nil
}

// planFinish settles g against the file and lists the writes that keep the
// settlement: stats, If Then records, ratings with their leaderboard keys
// and history, and the game's listing.
func planFinish(tx *bolt.Tx, g FinishedGame) (*finishPlan, error) {
	st, err := Settle(g, boltStandings{tx})
	if err != nil {
		return nil, err
	}
	p := &finishPlan{game: st.Game, accounts: st.Accounts}
	for _, acct := range st.Accounts {
		s := st.Stats[acct]
		v, err := json.Marshal(statsRecord{V: recordVersion, Totals: s.Totals, ByGame: s.ByGame})
		if err != nil {
			return nil, fmt.Errorf("encode stats: %w", err)
		}
		p.put(bucketStats, []byte(acct), v)
		if levels, ok := st.IfThen[acct]; ok {
			v, err := json.Marshal(ifThenRecord{V: recordVersion, Levels: levels})
			if err != nil {
				return nil, fmt.Errorf("encode If Then record: %w", err)
			}
			p.put(bucketIfThen, []byte(acct), v)
		}
	}
	for _, r := range st.Ratings {
		if r.Had {
			p.dels = append(p.dels, kv{bucket: bucketLeaders, key: leaderKey(g.Record.Game, r.Before.R, r.Account)})
		}
		a := r.After
		v, err := json.Marshal(ratingRecord{V: recordVersion, Rating: a.Rating, Games: a.Games, Wins: a.Wins, Last: a.Last})
		if err != nil {
			return nil, fmt.Errorf("encode rating: %w", err)
		}
		p.put(bucketRatings, ratingKey(r.Account, g.Record.Game), v)
		p.put(bucketLeaders, leaderKey(g.Record.Game, a.R, r.Account), []byte{})
		h, err := json.Marshal(historyPoint{V: recordVersion, GameID: g.ID, R: a.R, RD: a.RD})
		if err != nil {
			return nil, fmt.Errorf("encode rating history: %w", err)
		}
		p.put(bucketRatingHist, historyKey(r.Account, g.Record.Game, g.Finished, g.ID), h)
	}
	entry, err := json.Marshal(newListingRecord(p.game))
	if err != nil {
		return nil, fmt.Errorf("encode listing: %w", err)
	}
	p.put(bucketFinished, listingKey(g.Finished, g.ID), entry)
	return p, nil
}

// ratingKey is the ratings bucket key: account, NUL, game.
func ratingKey(account, game string) []byte { return []byte(account + "\x00" + game) }

// leaderKey sorts one game's ratings best first: game, NUL, the rating as
// eight bytes that sort descending, then the account.
func leaderKey(game string, r float64, account string) []byte {
	key := append([]byte(game), 0)
	key = binary.BigEndian.AppendUint64(key, ^sortableFloat(r))
	return append(key, account...)
}

// sortableFloat maps a float to a uint64 whose unsigned order is the
// float's order.
func sortableFloat(f float64) uint64 {
	if math.IsNaN(f) {
		f = 0
	}
	b := math.Float64bits(f)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// historyKey sorts an account's rating history in one game by time:
// account, NUL, game, NUL, big-endian finish nanos, game id.
func historyKey(account, game string, at time.Time, gameID string) []byte {
	key := []byte(account + "\x00" + game + "\x00")
	key = binary.BigEndian.AppendUint64(key, uint64(max(0, at.UnixNano())))
	return append(key, gameID...)
}

// listingKey sorts finished games by time: big-endian finish nanos, id.
func listingKey(at time.Time, id string) []byte {
	key := binary.BigEndian.AppendUint64(nil, uint64(max(0, at.UnixNano())))
	return append(key, id...)
}

// ratingRecord is one account's rating in one game.
type ratingRecord struct {
	V      int           `json:"v"`
	Rating rating.Rating `json:"rating"`
	Games  int           `json:"games"`
	Wins   int           `json:"wins"`
	Last   time.Time     `json:"last"`
}

// historyPoint is one rating after one rated game.
type historyPoint struct {
	V      int     `json:"v"`
	GameID string  `json:"game"`
	R      float64 `json:"r"`
	RD     float64 `json:"rd"`
}

// ifThenRecord is an account's cooperative record in If Then, per level.
type ifThenRecord struct {
	V      int                    `json:"v"`
	Levels map[string]LevelRecord `json:"levels,omitempty"`
}

// LevelRecord is an account's record at one If Then level.
type LevelRecord struct {
	Played  int `json:"played"`
	Cleared int `json:"cleared"`
	// FewestTurns is the fewest turns of a cleared game (0: none cleared
	// with a known turn count).
	FewestTurns int `json:"fewest,omitempty"`
}

func (r *ifThenRecord) add(level string, o Outcome, turns int) {
	if level == "" {
		level = "?"
	}
	if r.Levels == nil {
		r.Levels = make(map[string]LevelRecord)
	}
	l := r.Levels[level]
	l.Played++
	if o == Won || o == SharedWin {
		l.Cleared++
		if turns > 0 && (l.FewestTurns == 0 || turns < l.FewestTurns) {
			l.FewestTurns = turns
		}
	}
	r.Levels[level] = l
}

// listingRecord is one finished game in the list of games anyone may find
// (without its moves).
type listingRecord struct {
	V        int            `json:"v"`
	ID       string         `json:"id"`
	Game     string         `json:"game"`
	Public   bool           `json:"public,omitempty"`
	Rated    bool           `json:"rated,omitempty"`
	Seats    []seatRecordV1 `json:"seats"`
	Result   engine.Result  `json:"result"`
	Finished time.Time      `json:"finished"`
	Moves    int            `json:"moves"`
	Top      float64        `json:"top,omitempty"`
}

func newListingRecord(g FinishedGame) listingRecord {
	return listingRecord{
		V: recordVersion, ID: g.ID, Game: g.Record.Game, Public: g.Public, Rated: g.Rated,
		Seats: toSeatRecords(g.Seats), Result: g.Result, Finished: g.Finished, Moves: len(g.Record.Moves),
		Top: topRating(g.Changes),
	}
}

func (r listingRecord) summary() GameSummary {
	return GameSummary{
		ID: r.ID, Game: r.Game, Public: r.Public, Rated: r.Rated, Seats: fromSeatRecords(r.Seats),
		Result: r.Result, Finished: r.Finished, Moves: r.Moves, TopRating: r.Top,
	}
}

func (r ratingRecord) version() int  { return r.V }
func (r historyPoint) version() int  { return r.V }
func (r ifThenRecord) version() int  { return r.V }
func (r listingRecord) version() int { return r.V }
