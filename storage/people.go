package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/codebreakers/codebreakers/engine/rating"
)

// GameRating is an account's rating in one game.
type GameRating struct {
	Game string
	rating.Rating
	Games int       // rated games played
	Wins  int       // rated games won or shared
	Last  time.Time // when the last rated game finished
}

// Current is the rating as it stands at now: stored as it was after the
// last rated game, its deviation grows by every whole rating period since
// (rating.Period). Everything that shows, pairs or updates a rating reads
// it through here.
func (g GameRating) Current(now time.Time) GameRating {
	g.Rating = g.Rating.At(g.Last, now)
	return g
}

// RatingPoint is an account's rating after one rated game.
type RatingPoint struct {
	At     time.Time
	GameID string
	R, RD  float64
}

// Leader is one line of a leaderboard.
type Leader struct {
	Rank    int // 1 for the best
	Account string
	Handle  string
	GameRating
}

// LeaderQuery chooses a leaderboard.
type LeaderQuery struct {
	Game     string
	Limit    int       // how many lines (default 20)
	MinGames int       // rated games an account needs to be listed (default 1)
	Since    time.Time // only accounts whose last rated game finished at or after this (zero: any time)
}

// Profile is everything a profile shows about one account, read at once.
type Profile struct {
	Account Account
	Ratings []GameRating             // by game id
	Trends  map[string][]RatingPoint // per game, oldest first, the last TrendLen points
	Stats   Stats
	IfThen  map[string]LevelRecord // If Then level → record
	Recent  []GameSummary          // newest first, Outcome filled in
}

// TrendLen is how many rating points a profile's trend keeps per game.
const TrendLen = 24

// Ratings returns the account's ratings in every game it has played rated,
// by game id (none for an unknown account).
func (db *DB) Ratings(account string) ([]GameRating, error) {
	var out []GameRating
	err := db.view(func(tx *bolt.Tx) error {
		var err error
		out, err = readRatings(tx, account)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read ratings of %q: %w", account, err)
	}
	return out, nil
}

func readRatings(tx *bolt.Tx, account string) ([]GameRating, error) {
	var out []GameRating
	prefix := []byte(account + "\x00")
	c := tx.Bucket([]byte(bucketRatings)).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		rec, err := decode[ratingRecord](v, "rating of "+account)
		if err != nil {
			return nil, err
		}
		out = append(out, rec.gameRating(string(k[len(prefix):])))
	}
	return out, nil
}

func (r ratingRecord) gameRating(game string) GameRating {
	return GameRating{Game: game, Rating: r.Rating, Games: r.Games, Wins: r.Wins, Last: r.Last}
}

// Leaderboard returns the best-rated accounts of one game, best first,
// among those with at least MinGames rated games whose last rated game is
// no older than Since. It walks the game's ratings in order and stops once
// it has Limit lines, so it reads little more than it returns.
func (db *DB) Leaderboard(q LeaderQuery) ([]Leader, error) {
	if q.Limit <= 0 {
		q.Limit = 20
	}
	q.MinGames = max(q.MinGames, 1)
	var out []Leader
	err := db.view(func(tx *bolt.Tx) error {
		ratings := tx.Bucket([]byte(bucketRatings))
		accounts := tx.Bucket([]byte(bucketAccounts))
		prefix := []byte(q.Game + "\x00")
		c := tx.Bucket([]byte(bucketLeaders)).Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(out) < q.Limit; k, _ = c.Next() {
			if len(k) < len(prefix)+8 {
				continue
			}
			account := string(k[len(prefix)+8:])
			raw := ratings.Get(ratingKey(account, q.Game))
			if raw == nil {
				continue
			}
			rec, err := decode[ratingRecord](raw, "rating of "+account)
			if err != nil {
				return err
			}
			if rec.Games < q.MinGames || rec.Last.Before(q.Since) {
				continue
			}
			handle := ""
			if raw := accounts.Get([]byte(account)); raw != nil {
				if a, err := decode[accountRecord](raw, "account "+account); err == nil {
					handle = a.Handle
				}
			}
			out = append(out, Leader{Rank: len(out) + 1, Account: account, Handle: handle,
				GameRating: rec.gameRating(q.Game)})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read leaderboard of %q: %w", q.Game, err)
	}
	return out, nil
}

// Profile reads the profile of the account holding handle (in any letter
// case), with up to recent of its latest public games (a private game is
// never listed, not even on its players' profiles). An unknown handle fails
// with an error matching ErrNotFound.
func (db *DB) Profile(handle string, recent int) (Profile, error) {
	var p Profile
	err := db.view(func(tx *bolt.Tx) error {
		owner := tx.Bucket([]byte(bucketHandles)).Get(handleKey(handle))
		if owner == nil {
			return fmt.Errorf("handle %q: %w", handle, ErrNotFound)
		}
		id := string(owner)
		raw := tx.Bucket([]byte(bucketAccounts)).Get(owner)
		if raw == nil {
			return fmt.Errorf("account of %q: %w", handle, ErrNotFound)
		}
		acct, err := decode[accountRecord](raw, "account "+id)
		if err != nil {
			return err
		}
		p.Account = acct.account()
		if p.Ratings, err = readRatings(tx, id); err != nil {
			return err
		}
		p.Trends = make(map[string][]RatingPoint, len(p.Ratings))
		for _, r := range p.Ratings {
			if p.Trends[r.Game], err = readTrend(tx, id, r.Game, TrendLen); err != nil {
				return err
			}
		}
		p.Stats = Stats{ByGame: map[string]Totals{}}
		if raw := tx.Bucket([]byte(bucketStats)).Get(owner); raw != nil {
			st, err := decode[statsRecord](raw, "stats of "+id)
			if err != nil {
				return err
			}
			p.Stats = st.stats()
		}
		if raw := tx.Bucket([]byte(bucketIfThen)).Get(owner); raw != nil {
			rec, err := decode[ifThenRecord](raw, "If Then record of "+id)
			if err != nil {
				return err
			}
			p.IfThen = rec.Levels
		}
		p.Recent, err = readHistory(tx, id, recent, true)
		return err
	})
	if err != nil {
		return Profile{}, fmt.Errorf("profile of %q: %w", handle, err)
	}
	return p, nil
}

// readTrend returns the last n rating points of account in game, oldest
// first.
func readTrend(tx *bolt.Tx, account, game string, n int) ([]RatingPoint, error) {
	prefix := []byte(account + "\x00" + game + "\x00")
	c := tx.Bucket([]byte(bucketRatingHist)).Cursor()
	var out []RatingPoint
	k, v := c.Seek(append(slices.Clone(prefix), 0xff))
	if k == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	for ; k != nil && bytes.HasPrefix(k, prefix) && len(out) < n; k, v = c.Prev() {
		pt, err := decode[historyPoint](v, "rating history of "+account)
		if err != nil {
			return nil, err
		}
		at := time.Time{}
		if rest := k[len(prefix):]; len(rest) >= 8 {
			at = time.Unix(0, int64(binary.BigEndian.Uint64(rest[:8]))).UTC()
		}
		out = append(out, RatingPoint{At: at, GameID: pt.GameID, R: pt.R, RD: pt.RD})
	}
	slices.Reverse(out)
	return out, nil
}

// ListQuery chooses finished games from the public list.
type ListQuery struct {
	Limit int       // how many (default 20)
	Since time.Time // only games finished at or after this (zero: any)
	Game  string    // only this game (empty: every game)
	// Best orders by the highest rating at the table (rated games first),
	// then newest; otherwise newest first.
	Best bool
}

// FinishedGames lists public finished games: newest first, or with Best
// the highest-rated first among those finished since q.Since. Private games
// are never listed (they stay replayable by id only).
func (db *DB) FinishedGames(q ListQuery) ([]GameSummary, error) {
	if q.Limit <= 0 {
		q.Limit = 20
	}
	var out []GameSummary
	err := db.view(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(bucketFinished)).Cursor()
		since := listingKey(q.Since, "")
		for k, v := c.Last(); k != nil && bytes.Compare(k, since) >= 0; k, v = c.Prev() {
			if !q.Best && len(out) >= q.Limit {
				break
			}
			rec, err := decode[listingRecord](v, "listing")
			if err != nil {
				return err
			}
			if !rec.Public || (q.Game != "" && rec.Game != q.Game) {
				continue
			}
			out = append(out, rec.summary())
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list finished games: %w", err)
	}
	if q.Best {
		slices.SortStableFunc(out, func(a, b GameSummary) int {
			switch {
			case a.TopRating > b.TopRating:
				return -1
			case a.TopRating < b.TopRating:
				return 1
			}
			return 0
		})
		out = out[:min(len(out), q.Limit)]
	}
	return out, nil
}

// CountFinished counts the public games finished at or after since.
func (db *DB) CountFinished(since time.Time) (int, error) {
	n := 0
	err := db.view(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(bucketFinished)).Cursor()
		for k, v := c.Seek(listingKey(since, "")); k != nil; k, v = c.Next() {
			rec, err := decode[listingRecord](v, "listing")
			if err != nil {
				return err
			}
			if rec.Public {
				n++
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("count finished games: %w", err)
	}
	return n, nil
}

// readHistory is History inside a transaction; publicOnly leaves private
// games out.
func readHistory(tx *bolt.Tx, accountID string, limit int, publicOnly bool) ([]GameSummary, error) {
	ib := tx.Bucket([]byte(bucketIndex)).Bucket([]byte(accountID))
	if ib == nil {
		return nil, nil
	}
	games := tx.Bucket([]byte(bucketGames))
	var out []GameSummary
	c := ib.Cursor()
	for k, v := c.Last(); k != nil && (limit <= 0 || len(out) < limit); k, v = c.Prev() {
		raw := games.Get(v)
		if raw == nil {
			continue // index entry without a game: never written, but not worth failing over
		}
		rec, err := decode[summaryRecord](raw, "game "+string(v))
		if err != nil {
			return nil, fmt.Errorf("history of %q: %w", accountID, err)
		}
		if publicOnly && !rec.Public {
			continue
		}
		sum := rec.summary()
		sum.Outcome = AccountOutcome(sum.Seats, sum.Result, accountID)
		out = append(out, sum)
	}
	return out, nil
}
