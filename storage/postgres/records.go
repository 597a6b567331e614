package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/codebreakers/codebreakers/engine/analysis"
	"github.com/codebreakers/codebreakers/storage"
)

// querier is what both the pool and a transaction offer.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// FinishGame stores a finished game in one transaction: the game, the
// index under each human seat's account, their stats and If Then records,
// and for a rated game the new ratings and their history, all settled by
// storage.Settle. The accounts it touches are locked first, in one order,
// so concurrent finishes on any nodes serialise per player. A game already
// stored fails with an error matching storage.ErrGameExists; a database
// that cannot be reached, with one matching storage.ErrUnavailable (and
// nothing is stored).
func (db *DB) FinishGame(g storage.FinishedGame) error {
	if err := storage.CheckGameID(g.ID); err != nil {
		return fmt.Errorf("finish game: %w", err)
	}
	if g.Finished.IsZero() {
		g.Finished = time.Now().UTC()
	}
	g.Changes = nil
	ctx, cancel := db.ctx()
	defer cancel()
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error { return finishIn(ctx, tx, g) })
	db.noteWrite(err)
	if err != nil {
		if errors.Is(err, storage.ErrGameExists) {
			return err
		}
		return fmt.Errorf("finish game %s: %w", g.ID, classify(err))
	}
	return nil
}

func finishIn(ctx context.Context, tx pgx.Tx, g storage.FinishedGame) error {
	var accts []string
	for _, s := range g.Seats {
		if !s.Bot && s.AccountID != "" && !storage.IsGuest(s.AccountID) {
			accts = append(accts, s.AccountID)
		}
	}
	slices.Sort(accts)
	for _, a := range slices.Compact(accts) {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, a); err != nil {
			return err
		}
	}
	var exists bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM games WHERE id = $1)`, g.ID).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return fmt.Errorf("finish game %s: %w", g.ID, storage.ErrGameExists)
	}
	st, err := storage.Settle(g, standings{ctx: ctx, q: tx})
	if err != nil {
		return err
	}
	fg := st.Game
	record, err := storage.EncodeFinished(fg)
	if err != nil {
		return err
	}
	listing, err := storage.EncodeListing(fg)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO game_ids (id) VALUES ($1) ON CONFLICT DO NOTHING`, g.ID); err != nil {
		return err
	}
	var seq int64
	err = tx.QueryRow(ctx, `
		INSERT INTO games (id, game, public, rated, finished, top_rating, listing, record)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING RETURNING seq`,
		g.ID, g.Record.Game, g.Public, fg.Rated, g.Finished, storage.TopRating(fg), listing, record).Scan(&seq)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("finish game %s: %w", g.ID, storage.ErrGameExists)
	}
	if err != nil {
		return err
	}
	b := &pgx.Batch{}
	for _, acct := range st.Accounts {
		b.Queue(`INSERT INTO account_games (account, game_id, finished, seq, public) VALUES ($1, $2, $3, $4, $5)`,
			acct, g.ID, g.Finished, seq, g.Public)
		t := st.Stats[acct].ByGame[g.Record.Game]
		b.Queue(`
			INSERT INTO stats (account, game, played, won, shared, lost, no_winner, left_game)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
			ON CONFLICT (account, game) DO UPDATE SET played = excluded.played, won = excluded.won,
				shared = excluded.shared, lost = excluded.lost, no_winner = excluded.no_winner,
				left_game = excluded.left_game`,
			acct, g.Record.Game, t.Played, t.Won, t.SharedWins, t.Lost, t.NoWinner, t.Left)
		for level, rec := range st.IfThen[acct] {
			b.Queue(`
				INSERT INTO ifthen_levels (account, level, played, cleared, fewest) VALUES ($1, $2, $3, $4, $5)
				ON CONFLICT (account, level) DO UPDATE SET played = excluded.played, cleared = excluded.cleared,
					fewest = excluded.fewest`,
				acct, level, rec.Played, rec.Cleared, rec.FewestTurns)
		}
	}
	for _, r := range st.Ratings {
		a := r.After
		b.Queue(`
			INSERT INTO ratings (account, game, r, rd, vol, games, wins, last) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
			ON CONFLICT (account, game) DO UPDATE SET r = excluded.r, rd = excluded.rd, vol = excluded.vol,
				games = excluded.games, wins = excluded.wins, last = excluded.last`,
			r.Account, g.Record.Game, a.R, a.RD, a.Vol, a.Games, a.Wins, a.Last)
		b.Queue(`INSERT INTO rating_history (account, game, at, seq, game_id, r, rd) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			r.Account, g.Record.Game, g.Finished, seq, g.ID, a.R, a.RD)
	}
	return tx.SendBatch(ctx, b).Close()
}

// standings reads what a finish builds on, inside its transaction.
type standings struct {
	ctx context.Context
	q   querier
}

func (s standings) Stats(acct string) (storage.Stats, error) { return readStats(s.ctx, s.q, acct) }

func (s standings) LevelRecords(acct string) (map[string]storage.LevelRecord, error) {
	return readLevels(s.ctx, s.q, acct)
}

func (s standings) Rating(acct, game string) (storage.GameRating, bool, error) {
	r := storage.GameRating{Game: game}
	err := s.q.QueryRow(s.ctx, `SELECT r, rd, vol, games, wins, last FROM ratings WHERE account = $1 AND game = $2`,
		acct, game).Scan(&r.R, &r.RD, &r.Vol, &r.Games, &r.Wins, &r.Last)
	if errors.Is(err, pgx.ErrNoRows) {
		return storage.GameRating{}, false, nil
	}
	if err != nil {
		return storage.GameRating{}, false, err
	}
	r.Last = r.Last.UTC()
	return r, true, nil
}

func readStats(ctx context.Context, q querier, acct string) (storage.Stats, error) {
	st := storage.Stats{ByGame: map[string]storage.Totals{}}
	rows, err := q.Query(ctx, `SELECT game, played, won, shared, lost, no_winner, left_game FROM stats WHERE account = $1`, acct)
	if err != nil {
		return st, err
	}
	defer rows.Close()
	for rows.Next() {
		var game string
		var t storage.Totals
		if err := rows.Scan(&game, &t.Played, &t.Won, &t.SharedWins, &t.Lost, &t.NoWinner, &t.Left); err != nil {
			return st, err
		}
		st.ByGame[game] = t
		st.Played += t.Played
		st.Won += t.Won
		st.SharedWins += t.SharedWins
		st.Lost += t.Lost
		st.NoWinner += t.NoWinner
		st.Left += t.Left
	}
	return st, rows.Err()
}

func readLevels(ctx context.Context, q querier, acct string) (map[string]storage.LevelRecord, error) {
	rows, err := q.Query(ctx, `SELECT level, played, cleared, fewest FROM ifthen_levels WHERE account = $1`, acct)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out map[string]storage.LevelRecord
	for rows.Next() {
		var level string
		var r storage.LevelRecord
		if err := rows.Scan(&level, &r.Played, &r.Cleared, &r.FewestTurns); err != nil {
			return nil, err
		}
		if out == nil {
			out = make(map[string]storage.LevelRecord)
		}
		out[level] = r
	}
	return out, rows.Err()
}

func readRatings(ctx context.Context, q querier, acct string) ([]storage.GameRating, error) {
	rows, err := q.Query(ctx, `SELECT game, r, rd, vol, games, wins, last FROM ratings WHERE account = $1
		ORDER BY game COLLATE "C"`, acct)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []storage.GameRating
	for rows.Next() {
		var r storage.GameRating
		if err := rows.Scan(&r.Game, &r.R, &r.RD, &r.Vol, &r.Games, &r.Wins, &r.Last); err != nil {
			return nil, err
		}
		r.Last = r.Last.UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}

// readSummaries reads listing JSON from a query's single column.
func readSummaries(rows pgx.Rows, account string) ([]storage.GameSummary, error) {
	defer rows.Close()
	var out []storage.GameSummary
	for rows.Next() {
		var raw []byte
		if err := rows.Scan(&raw); err != nil {
			return nil, err
		}
		sum, err := storage.DecodeListing(raw)
		if err != nil {
			return nil, err
		}
		if account != "" {
			sum.Outcome = storage.AccountOutcome(sum.Seats, sum.Result, account)
		}
		out = append(out, sum)
	}
	return out, rows.Err()
}

// limitArg is a LIMIT parameter: nil (no limit) when n <= 0.
func limitArg(n int) *int64 {
	if n <= 0 {
		return nil
	}
	v := int64(n)
	return &v
}

func readHistory(ctx context.Context, q querier, acct string, limit int, publicOnly bool) ([]storage.GameSummary, error) {
	rows, err := q.Query(ctx, `
		SELECT g.listing FROM account_games a JOIN games g ON g.id = a.game_id
		WHERE a.account = $1 AND (a.public OR NOT $3)
		ORDER BY a.finished DESC, a.seq DESC LIMIT $2`, acct, limitArg(limit), publicOnly)
	if err != nil {
		return nil, err
	}
	return readSummaries(rows, acct)
}

// Game returns a finished game with every move, or an error matching
// storage.ErrNotFound.
func (db *DB) Game(id string) (storage.FinishedGame, error) {
	ctx, cancel := db.ctx()
	defer cancel()
	var raw []byte
	err := db.pool.QueryRow(ctx, `SELECT record FROM games WHERE id = $1`, id).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return storage.FinishedGame{}, fmt.Errorf("game %s: %w", id, storage.ErrNotFound)
	}
	if err != nil {
		return storage.FinishedGame{}, fmt.Errorf("read game %s: %w", id, classify(err))
	}
	g, err := storage.DecodeFinished(raw)
	if err != nil {
		return storage.FinishedGame{}, fmt.Errorf("game %s: %w", id, err)
	}
	return g, nil
}

// History returns up to limit of the account's finished games, newest
// first (all when limit <= 0), each with the account's outcome.
func (db *DB) History(accountID string, limit int) ([]storage.GameSummary, error) {
	ctx, cancel := db.ctx()
	defer cancel()
	out, err := readHistory(ctx, db.pool, accountID, limit, false)
	if err != nil {
		return nil, fmt.Errorf("read history of %q: %w", accountID, classify(err))
	}
	return out, nil
}

// Stats returns the account's totals (zero for an account with none).
func (db *DB) Stats(accountID string) (storage.Stats, error) {
	ctx, cancel := db.ctx()
	defer cancel()
	st, err := readStats(ctx, db.pool, accountID)
	if err != nil {
		return storage.Stats{}, fmt.Errorf("read stats of %q: %w", accountID, classify(err))
	}
	return st, nil
}

// Ratings returns the account's ratings by game id.
func (db *DB) Ratings(account string) ([]storage.GameRating, error) {
	ctx, cancel := db.ctx()
	defer cancel()
	out, err := readRatings(ctx, db.pool, account)
	if err != nil {
		return nil, fmt.Errorf("read ratings of %q: %w", account, classify(err))
	}
	return out, nil
}

// Leaderboard returns the best-rated accounts of one game, as
// storage.DB.Leaderboard does.
func (db *DB) Leaderboard(q storage.LeaderQuery) ([]storage.Leader, error) {
	if q.Limit <= 0 {
		q.Limit = 20
	}
	q.MinGames = max(q.MinGames, 1)
	ctx, cancel := db.ctx()
	defer cancel()
	rows, err := db.pool.Query(ctx, `
		SELECT r.account, coalesce(a.handle, ''), r.r, r.rd, r.vol, r.games, r.wins, r.last
		FROM ratings r LEFT JOIN accounts a ON a.id = r.account
		WHERE r.game = $1 AND r.games >= $2 AND r.last >= $3
		ORDER BY r.r DESC, r.account COLLATE "C" LIMIT $4`, q.Game, q.MinGames, q.Since, q.Limit)
	if err != nil {
		return nil, fmt.Errorf("read leaderboard of %q: %w", q.Game, classify(err))
	}
	defer rows.Close()
	var out []storage.Leader
	for rows.Next() {
		l := storage.Leader{Rank: len(out) + 1}
		l.Game = q.Game
		if err := rows.Scan(&l.Account, &l.Handle, &l.R, &l.RD, &l.Vol, &l.Games, &l.Wins, &l.Last); err != nil {
			return nil, fmt.Errorf("read leaderboard of %q: %w", q.Game, classify(err))
		}
		l.Last = l.Last.UTC()
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read leaderboard of %q: %w", q.Game, classify(err))
	}
	return out, nil
}

// Profile reads the profile of the account holding handle, with up to
// recent of its latest public games, in one consistent snapshot.
func (db *DB) Profile(handle string, recent int) (storage.Profile, error) {
	ctx, cancel := db.ctx()
	defer cancel()
	var p storage.Profile
	err := pgx.BeginTxFunc(ctx, db.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly},
		func(tx pgx.Tx) error {
			a := &p.Account
			err := tx.QueryRow(ctx, `SELECT id, handle, created, last_seen FROM accounts WHERE lower(handle) = lower($1)`,
				handle).Scan(&a.ID, &a.Handle, &a.Created, &a.LastSeen)
			if errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("handle %q: %w", handle, storage.ErrNotFound)
			}
			if err != nil {
				return err
			}
			a.Created, a.LastSeen = a.Created.UTC(), a.LastSeen.UTC()
			if p.Ratings, err = readRatings(ctx, tx, a.ID); err != nil {
				return err
			}
			p.Trends = make(map[string][]storage.RatingPoint, len(p.Ratings))
			for _, r := range p.Ratings {
				if p.Trends[r.Game], err = readTrend(ctx, tx, a.ID, r.Game); err != nil {
					return err
				}
			}
			if p.Stats, err = readStats(ctx, tx, a.ID); err != nil {
				return err
			}
			if p.IfThen, err = readLevels(ctx, tx, a.ID); err != nil {
				return err
			}
			p.Recent, err = readHistory(ctx, tx, a.ID, recent, true)
			return err
		})
	if err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return storage.Profile{}, fmt.Errorf("profile: %w", err)
		}
		return storage.Profile{}, fmt.Errorf("profile of %q: %w", handle, classify(err))
	}
	return p, nil
}

// readTrend is the last storage.TrendLen rating points, oldest first.
func readTrend(ctx context.Context, q querier, acct, game string) ([]storage.RatingPoint, error) {
	rows, err := q.Query(ctx, `SELECT at, game_id, r, rd FROM rating_history WHERE account = $1 AND game = $2
		ORDER BY at DESC, seq DESC LIMIT $3`, acct, game, storage.TrendLen)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []storage.RatingPoint
	for rows.Next() {
		var pt storage.RatingPoint
		if err := rows.Scan(&pt.At, &pt.GameID, &pt.R, &pt.RD); err != nil {
			return nil, err
		}
		pt.At = pt.At.UTC()
		out = append(out, pt)
	}
	slices.Reverse(out)
	return out, rows.Err()
}

// FinishedGames lists public finished games, newest first or best first,
// as storage.DB.FinishedGames does.
func (db *DB) FinishedGames(q storage.ListQuery) ([]storage.GameSummary, error) {
	if q.Limit <= 0 {
		q.Limit = 20
	}
	order := `finished DESC, seq DESC`
	if q.Best {
		order = `top_rating DESC, ` + order
	}
	ctx, cancel := db.ctx()
	defer cancel()
	rows, err := db.pool.Query(ctx, `SELECT listing FROM games WHERE public AND finished >= $1 AND ($2 = '' OR game = $2)
		ORDER BY `+order+` LIMIT $3`, q.Since, q.Game, q.Limit)
	if err != nil {
		return nil, fmt.Errorf("list finished games: %w", classify(err))
	}
	out, err := readSummaries(rows, "")
	if err != nil {
		return nil, fmt.Errorf("list finished games: %w", classify(err))
	}
	return out, nil
}

// CountFinished counts the public games finished at or after since.
func (db *DB) CountFinished(since time.Time) (int, error) {
	ctx, cancel := db.ctx()
	defer cancel()
	var n int
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM games WHERE public AND finished >= $1`, since).Scan(&n); err != nil {
		return 0, fmt.Errorf("count finished games: %w", classify(err))
	}
	return n, nil
}

// exportPage bounds how many games one query of EachFinishedGame reads.
const exportPage = 256

// EachFinishedGame calls fn for every finished game, in id order, reading
// a page of games at a time.
func (db *DB) EachFinishedGame(fn func(storage.FinishedGame) error) error {
	after := ""
	for {
		ids, raws, err := db.page(after)
		if err != nil {
			return fmt.Errorf("read finished games: %w", classify(err))
		}
		for i, raw := range raws {
			g, err := storage.DecodeFinished(raw)
			if err != nil {
				return fmt.Errorf("game %s: %w", ids[i], err)
			}
			if err := fn(g); err != nil {
				return err
			}
		}
		if len(raws) < exportPage {
			return nil
		}
		after = ids[len(ids)-1]
	}
}

func (db *DB) page(after string) ([]string, [][]byte, error) {
	ctx, cancel := db.ctx()
	defer cancel()
	rows, err := db.pool.Query(ctx, `SELECT id, record FROM games WHERE id COLLATE "C" > $1
		ORDER BY id COLLATE "C" LIMIT $2`, after, exportPage)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var ids []string
	var raws [][]byte
	for rows.Next() {
		var id string
		var raw []byte
		if err := rows.Scan(&id, &raw); err != nil {
			return nil, nil, err
		}
		ids, raws = append(ids, id), append(raws, raw)
	}
	return ids, raws, rows.Err()
}

// SaveAnalysis stores the analysis of a finished game, replacing any
// earlier one; a game not finished fails with storage.ErrNotFound.
func (db *DB) SaveAnalysis(id string, rep analysis.Report) error {
	raw, err := storage.EncodeAnalysis(rep)
	if err != nil {
		return fmt.Errorf("save analysis %s: %w", id, err)
	}
	ctx, cancel := db.ctx()
	defer cancel()
	tag, err := db.pool.Exec(ctx, `INSERT INTO analyses (game_id, report) SELECT id, $2 FROM games WHERE id = $1
		ON CONFLICT (game_id) DO UPDATE SET report = excluded.report`, id, raw)
	db.noteWrite(err)
	if err != nil {
		return fmt.Errorf("save analysis %s: %w", id, classify(err))
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("save analysis %s: %w", id, storage.ErrNotFound)
	}
	return nil
}

// Analysis returns the stored analysis of a finished game, or an error
// matching storage.ErrNotFound.
func (db *DB) Analysis(id string) (analysis.Report, error) {
	ctx, cancel := db.ctx()
	defer cancel()
	var raw []byte
	err := db.pool.QueryRow(ctx, `SELECT report FROM analyses WHERE game_id = $1`, id).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return analysis.Report{}, fmt.Errorf("analysis %s: %w", id, storage.ErrNotFound)
	}
	if err != nil {
		return analysis.Report{}, fmt.Errorf("read analysis %s: %w", id, classify(err))
	}
	rep, err := storage.DecodeAnalysis(raw)
	if err != nil {
		return analysis.Report{}, fmt.Errorf("analysis %s: %w", id, err)
	}
	return rep, nil
}
