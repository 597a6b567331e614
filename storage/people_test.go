package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/rating"
)

// key is a key account's seat.
func key(handle string) SeatRecord {
	return SeatRecord{AccountID: "SHA256:" + handle, Handle: handle}
}

// people claims a handle for each name, so that profiles and leaderboards
// can find them.
func people(t testing.TB, db *DB, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := db.ClaimHandle("SHA256:"+n, n); err != nil {
			t.Fatal(err)
		}
	}
}

// played stores a finished game of game with those seats and that result.
func played(t testing.TB, db *DB, game string, rated, public bool, at time.Time, res engine.Result, seats ...SeatRecord) string {
	t.Helper()
	id, err := db.NewGameID()
	if err != nil {
		t.Fatal(err)
	}
	players := make([]engine.Player, len(seats))
	for i, s := range seats {
		players[i] = engine.Player{Name: s.Handle, Bot: s.Bot}
	}
	g := FinishedGame{
		LiveGame: LiveGame{ID: id, Code: "ABCDEF", Public: public, Rated: rated, Seats: seats,
			Record: engine.Record{Game: game, Players: players, Seed: 7}, Started: at.Add(-time.Minute)},
		Result: res, Finished: at,
	}
	if err := db.FinishGame(g); err != nil {
		t.Fatal(err)
	}
	return id
}

func ratingOf(t testing.TB, db *DB, handle, game string) (GameRating, bool) {
	t.Helper()
	rs, err := db.Ratings("SHA256:" + handle)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Game == game {
			return r, true
		}
	}
	return GameRating{}, false
}

var t0 = time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)

func won(seats ...engine.Seat) engine.Result {
	return engine.Result{Winners: seats, Draw: len(seats) > 1, Summary: "someone won"}
}

// TestRatedGameMovesRatingsInOneWrite: a rated two-player game moves the
// winner up and the loser down by Glicko-2, and the same write keeps the
// changes with the game, the rating history and the leaderboard.
func TestRatedGameMovesRatingsInOneWrite(t *testing.T) {
	db, _ := openTemp(t)
	people(t, db, "mara", "bo")
	id := played(t, db, "breakcode", true, true, t0, won(1), key("mara"), key("bo"))

	mara, ok1 := ratingOf(t, db, "mara", "breakcode")
	bo, ok2 := ratingOf(t, db, "bo", "breakcode")
	if !ok1 || !ok2 {
		t.Fatal("a rated game must give both players a rating")
	}
	want, _ := rating.Update([]rating.Rating{rating.New(), rating.New()}, []int{1, 0})
	if mara.Rating != want[0] || bo.Rating != want[1] || mara.R >= rating.Initial || bo.R <= rating.Initial {
		t.Errorf("ratings after bo beat mara: mara %+v bo %+v, want %+v", mara.Rating, bo.Rating, want)
	}
	if mara.Games != 1 || bo.Games != 1 || bo.Wins != 1 || mara.Wins != 0 || !bo.Last.Equal(t0) {
		t.Errorf("counts: mara %+v bo %+v", mara, bo)
	}
	g, err := db.Game(id)
	if err != nil || !g.Rated || len(g.Changes) != 2 || g.Changes[1].After != bo.Rating || g.Changes[0].Before != rating.New() {
		t.Errorf("the game keeps its rating changes: %+v %v", g.Changes, err)
	}
	top, err := db.Leaderboard(LeaderQuery{Game: "breakcode"})
	if err != nil || len(top) != 2 || top[0].Handle != "bo" || top[1].Handle != "mara" || top[0].Rank != 1 {
		t.Errorf("leaderboard = %+v, %v", top, err)
	}
	p, err := db.Profile("BO", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Trends["breakcode"]) != 1 || p.Trends["breakcode"][0].R != bo.R || p.Trends["breakcode"][0].GameID != id ||
		!p.Trends["breakcode"][0].At.Equal(t0) {
		t.Errorf("bo's trend = %+v", p.Trends)
	}
	if len(p.Recent) != 1 || p.Recent[0].Outcome != Won || !p.Recent[0].Rated {
		t.Errorf("bo's recent games = %+v", p.Recent)
	}
	list, _ := db.FinishedGames(ListQuery{})
	if len(list) != 1 || list[0].TopRating != rating.Initial || !list[0].Rated {
		t.Errorf("listing = %+v", list)
	}
	checkConsistent(t, db)
}

// TestBotOrGuestLeavesRatingsUntouched: a game asked to be rated is not
// rated when a bot or a guest holds a seat (or it is cooperative): nobody's
// rating, history or leaderboard line changes.
func TestBotOrGuestLeavesRatingsUntouched(t *testing.T) {
	db, _ := openTemp(t)
	people(t, db, "mara", "bo", "kai")
	// Give mara and bo a rating first, so that "untouched" means something.
	played(t, db, "breakcode", true, true, t0, won(0), key("mara"), key("bo"))
	before, _ := db.Ratings("SHA256:mara")
	beforeBo, _ := db.Ratings("SHA256:bo")

	bot := SeatRecord{Handle: "Kai (bot)", Bot: true, BotLevel: "strong"}
	guest := SeatRecord{AccountID: "guest:1234", Handle: "guest-7"}
	ids := []string{
		played(t, db, "breakcode", true, true, t0.Add(time.Minute), won(0), key("mara"), key("bo"), bot),
		played(t, db, "breakcode", true, true, t0.Add(2*time.Minute), won(1), key("mara"), guest),
		played(t, db, "ifthen", true, true, t0.Add(3*time.Minute), won(0, 1), key("mara"), key("bo")),
		played(t, db, "breakcode", false, true, t0.Add(4*time.Minute), won(1), key("mara"), key("bo")),
	}
	after, _ := db.Ratings("SHA256:mara")
	afterBo, _ := db.Ratings("SHA256:bo")
	if !reflect.DeepEqual(before, after) || !reflect.DeepEqual(beforeBo, afterBo) {
		t.Errorf("ratings changed:\n%+v\n%+v\n%+v\n%+v", before, after, beforeBo, afterBo)
	}
	if rs, _ := db.Ratings("guest:1234"); len(rs) != 0 {
		t.Errorf("a guest got a rating: %+v", rs)
	}
	for _, id := range ids {
		if g, _ := db.Game(id); g.Rated || len(g.Changes) != 0 {
			t.Errorf("game %s stored as rated: %+v", id, g.Changes)
		}
	}
	p, _ := db.Profile("mara", 0)
	if n := len(p.Trends["breakcode"]); n != 1 {
		t.Errorf("mara's trend has %d points, want only the one rated game", n)
	}
}

// TestSharedWinRecordedAndShownAsOne: a shared win counts as a shared win
// (not a draw or a loss) in stats, history, profiles and ratings: the two
// winners gain alike and the third loses.
func TestSharedWinRecordedAndShownAsOne(t *testing.T) {
	db, _ := openTemp(t)
	people(t, db, "mara", "bo", "kai")
	played(t, db, "breakcode", true, true, t0, won(0, 2), key("mara"), key("bo"), key("kai"))
	for _, h := range []string{"mara", "kai"} {
		p, err := db.Profile(h, 5)
		if err != nil {
			t.Fatal(err)
		}
		if p.Stats.SharedWins != 1 || p.Stats.Won != 0 || p.Stats.Wins() != 1 || p.Recent[0].Outcome != SharedWin ||
			p.Recent[0].Outcome.String() != "shared win" {
			t.Errorf("%s: stats %+v, recent %+v", h, p.Stats, p.Recent)
		}
		r, _ := ratingOf(t, db, h, "breakcode")
		if r.R <= rating.Initial || r.Wins != 1 {
			t.Errorf("%s's rating after a shared win = %+v", h, r)
		}
	}
	m, _ := ratingOf(t, db, "mara", "breakcode")
	k, _ := ratingOf(t, db, "kai", "breakcode")
	b, _ := ratingOf(t, db, "bo", "breakcode")
	if m.Rating != k.Rating || b.R >= rating.Initial {
		t.Errorf("shared winners must move alike and the loser down: %+v %+v %+v", m, k, b)
	}
}

// TestLeavingARatedGameCountsAsALoss: a player whose seat a bot finished
// is rated below everyone who stayed, even when the bot won the seat.
func TestLeavingARatedGameCountsAsALoss(t *testing.T) {
	db, _ := openTemp(t)
	people(t, db, "mara", "bo")
	leaver := key("mara")
	leaver.Replaced = true
	leaver.BotLevel = "strong"
	played(t, db, "breakcode", true, true, t0, won(0), leaver, key("bo"))
	m, _ := ratingOf(t, db, "mara", "breakcode")
	b, _ := ratingOf(t, db, "bo", "breakcode")
	if m.R >= rating.Initial || b.R <= rating.Initial || m.Wins != 0 {
		t.Errorf("leaver %+v, stayer %+v", m, b)
	}
	if h, _ := db.History("SHA256:mara", 1); h[0].Outcome != Left {
		t.Errorf("leaver's outcome = %v", h[0].Outcome)
	}
}

func TestRanks(t *testing.T) {
	four := []SeatRecord{key("a"), key("b"), key("c"), key("d")}
	left := []SeatRecord{key("a"), {AccountID: "SHA256:b", Handle: "b", Replaced: true}, key("c")}
	cases := []struct {
		name  string
		seats []SeatRecord
		res   engine.Result
		want  []int
	}{
		{"one winner", four, won(2), []int{1, 1, 0, 1}},
		{"shared win", four, won(0, 3), []int{0, 1, 1, 0}},
		{"nobody won", four, engine.Result{Draw: true}, []int{0, 0, 0, 0}},
		{"points", four, engine.Result{Winners: []engine.Seat{1}, Scores: []int{5, 9, 5, 2}}, []int{1, 0, 1, 2}},
		{"leaver whose bot won", left, won(1), []int{1, 2, 1}},
	}
	for _, c := range cases {
		if got := Ranks(c.seats, c.res); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Ranks = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestOutcomeVocabulary(t *testing.T) {
	seats := []SeatRecord{key("a"), key("b"), {AccountID: "SHA256:c", Handle: "c", Replaced: true}}
	cases := []struct {
		res  engine.Result
		seat int
		want string
	}{
		{won(0), 0, "won"},
		{won(0), 1, "lost"},
		{won(0, 1), 1, "shared win"},
		{engine.Result{Winners: []engine.Seat{0, 1}}, 1, "won"}, // a team's win
		{engine.Result{Draw: true}, 0, "no winner"},
		{engine.Result{}, 1, "no winner"},
		{won(2), 2, "left"},
		{won(0), 5, "—"},
	}
	for _, c := range cases {
		if got := SeatOutcome(seats, c.res, c.seat).String(); got != c.want {
			t.Errorf("%+v seat %d: %q, want %q", c.res, c.seat, got, c.want)
		}
	}
	if got := AccountOutcome(seats, won(1), "SHA256:b"); got != Won {
		t.Errorf("AccountOutcome = %v", got)
	}
	if got := AccountOutcome(seats, won(1), "SHA256:zz"); got != NotPlayed {
		t.Errorf("AccountOutcome of a stranger = %v", got)
	}
}

// TestLeaderboardFilters: enough rated games, recent enough, per game, in
// order, limited.
func TestLeaderboardFilters(t *testing.T) {
	db, _ := openTemp(t)
	people(t, db, "ann", "bo", "cy", "dee")
	played(t, db, "coding", true, true, t0, won(0), key("ann"), key("bo"))
	played(t, db, "coding", true, true, t0.Add(time.Hour), won(0), key("ann"), key("cy"))
	played(t, db, "coding", true, true, t0.Add(40*24*time.Hour), won(0), key("dee"), key("cy"))
	all, _ := db.Leaderboard(LeaderQuery{Game: "coding"})
	if len(all) != 4 || all[0].Handle != "ann" {
		t.Fatalf("all = %+v", all)
	}
	for i := 1; i < len(all); i++ {
		if all[i].R > all[i-1].R {
			t.Errorf("not sorted: %+v", all)
		}
	}
	two, _ := db.Leaderboard(LeaderQuery{Game: "coding", MinGames: 2})
	if len(two) != 2 || two[0].Handle != "ann" || two[1].Handle != "cy" {
		t.Errorf("MinGames 2 = %+v", two)
	}
	recent, _ := db.Leaderboard(LeaderQuery{Game: "coding", Since: t0.Add(30 * 24 * time.Hour)})
	if len(recent) != 2 || recent[0].Handle != "dee" || recent[1].Handle != "cy" {
		t.Errorf("Since = %+v", recent)
	}
	if one, _ := db.Leaderboard(LeaderQuery{Game: "coding", Limit: 1}); len(one) != 1 {
		t.Errorf("Limit 1 = %+v", one)
	}
	if none, err := db.Leaderboard(LeaderQuery{Game: "breakcode"}); err != nil || len(none) != 0 {
		t.Errorf("other game = %+v, %v", none, err)
	}
}

// TestFinishedListing: public games newest first or best first; private
// games are never listed (only replayable by id).
func TestFinishedListing(t *testing.T) {
	db, _ := openTemp(t)
	people(t, db, "ann", "bo", "cy", "dee")
	a := played(t, db, "coding", true, true, t0, won(0), key("ann"), key("bo"))
	b := played(t, db, "coding", true, true, t0.Add(time.Minute), won(0), key("ann"), key("bo"))
	secret := played(t, db, "breakcode", false, false, t0.Add(2*time.Minute), won(0), key("cy"), key("dee"))
	c := played(t, db, "breakcode", false, true, t0.Add(3*time.Minute), won(0), key("cy"), key("dee"))
	ids := func(gs []GameSummary) []string {
		var out []string
		for _, g := range gs {
			out = append(out, g.ID)
		}
		return out
	}
	newest, _ := db.FinishedGames(ListQuery{})
	if got := ids(newest); !reflect.DeepEqual(got, []string{c, b, a}) {
		t.Errorf("newest = %v, want %v", got, []string{c, b, a})
	}
	best, _ := db.FinishedGames(ListQuery{Best: true, Since: t0})
	if got := ids(best); len(got) != 3 || got[0] != b || got[2] != c {
		t.Errorf("best = %v (b had the highest rating at the table)", got)
	}
	if got, _ := db.FinishedGames(ListQuery{Game: "breakcode"}); !reflect.DeepEqual(ids(got), []string{c}) {
		t.Errorf("breakcode only = %v", ids(got))
	}
	if got, _ := db.FinishedGames(ListQuery{Limit: 1}); !reflect.DeepEqual(ids(got), []string{c}) {
		t.Errorf("limit 1 = %v", ids(got))
	}
	if n, _ := db.CountFinished(t0.Add(time.Minute)); n != 2 {
		t.Errorf("CountFinished = %d, want 2 (private not counted)", n)
	}
	if _, err := db.Game(secret); err != nil {
		t.Errorf("a private game stays replayable by id: %v", err)
	}
	p, _ := db.Profile("cy", 10)
	if got := ids(p.Recent); !reflect.DeepEqual(got, []string{c}) {
		t.Errorf("cy's profile lists %v, want only the public game %s", got, c)
	}
	if h, _ := db.History("SHA256:cy", 10); len(h) != 2 {
		t.Errorf("cy's own history has %d games, want both", len(h))
	}
}

func TestProfileUnknownHandle(t *testing.T) {
	db, _ := openTemp(t)
	if _, err := db.Profile("nobody", 5); !errors.Is(err, ErrNotFound) {
		t.Errorf("Profile(nobody) = %v, want ErrNotFound", err)
	}
}

// TestIfThenRecord: a cooperative game keeps each player's levels played
// and cleared and the fewest turns of a clear.
func TestIfThenRecord(t *testing.T) {
	db, _ := openTemp(t)
	people(t, db, "ann", "bo")
	for i, turns := range []int{14, 9, 12} {
		id, _ := db.NewGameID()
		res := won(0, 1)
		res.Draw = false
		if i == 2 {
			res = engine.Result{Summary: "The team loses."}
		}
		g := FinishedGame{LiveGame: LiveGame{ID: id, Seats: []SeatRecord{key("ann"), key("bo")},
			Record: engine.Record{Game: "ifthen", Options: engine.Options{"level": "2"}}},
			Result: res, Finished: t0.Add(time.Duration(i) * time.Minute), Turns: turns}
		if err := db.FinishGame(g); err != nil {
			t.Fatal(err)
		}
	}
	p, _ := db.Profile("ann", 0)
	if got := p.IfThen["2"]; got != (LevelRecord{Played: 3, Cleared: 2, FewestTurns: 9}) {
		t.Errorf("If Then level 2 = %+v", got)
	}
	if len(p.Ratings) != 0 {
		t.Errorf("If Then is not rated: %+v", p.Ratings)
	}
}

// TestMigrateV1 opens a data file written by the schema-1 build (see
// testdata/README.md) and checks that it is migrated: every finished game
// listed when public, stats recounted in the one vocabulary, If Then
// records built, the game in progress kept, nobody rated.
func TestMigrateV1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "codebreakers.db")
	copyFile(t, "testdata/v1.db", path)
	db, err := Open(path, quietOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var schema uint64
	_ = db.bolt.View(func(tx *bolt.Tx) error {
		schema = uint64FromBytes(tx.Bucket([]byte(bucketMeta)).Get([]byte(keySchema)))
		return nil
	})
	if schema != schemaVersion {
		t.Errorf("schema after open = %d, want %d", schema, schemaVersion)
	}
	stats := func(h string) Totals {
		st, err := db.Stats("SHA256:" + h + fmt.Sprintf("%0*d", 41-len(h), 0))
		if err != nil {
			t.Fatal(err)
		}
		return st.Totals
	}
	if got := stats("mara"); got != (Totals{Played: 4, Won: 3, SharedWins: 1}) {
		t.Errorf("mara = %+v", got)
	}
	if got := stats("bo"); got != (Totals{Played: 3, Lost: 3}) {
		t.Errorf("bo = %+v", got)
	}
	if got := stats("kai"); got != (Totals{Played: 3, Won: 1, SharedWins: 1, Lost: 1}) {
		t.Errorf("kai = %+v", got)
	}
	list, err := db.FinishedGames(ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	wantGames := []string{"whattherule", "ifthen", "coding", "breakcode"} // newest first; the private 3-player game left out
	if len(list) != len(wantGames) {
		t.Fatalf("listed %d games, want %d: %+v", len(list), len(wantGames), list)
	}
	for i, g := range list {
		if g.Game != wantGames[i] || !g.Public || g.Rated {
			t.Errorf("listing[%d] = %+v", i, g)
		}
		if _, err := db.Game(g.ID); err != nil {
			t.Errorf("listed game %s does not open: %v", g.ID, err)
		}
	}
	p, err := db.Profile("KAI", 10)
	if err != nil {
		t.Fatal(err)
	}
	// The profile lists kai's public games only: What the Rule?! then If Then.
	if p.IfThen["0"] != (LevelRecord{Played: 1, Cleared: 1}) || len(p.Ratings) != 0 || len(p.Recent) != 2 {
		t.Fatalf("kai's profile = %+v", p)
	}
	hist, _ := db.History(p.Account.ID, 0)
	if len(hist) != 3 || hist[0].Outcome != Lost || hist[1].Outcome != Won || hist[2].Outcome != SharedWin {
		t.Errorf("kai's history = %+v", hist)
	}
	live, err := db.LiveGames()
	if err != nil || len(live) != 1 || live[0].ID != "LIVE1" {
		t.Errorf("live games = %+v, %v", live, err)
	}
	checkConsistent(t, db)
	// A migrated file opens again as it is.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db2, err := Open(path, quietOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if again, _ := db2.FinishedGames(ListQuery{}); len(again) != len(list) {
		t.Errorf("reopened: %d listed, want %d", len(again), len(list))
	}
}

func uint64FromBytes(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}

func copyFile(t testing.TB, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkLeaderboard100k reads the top 20 of one game among 100,000
// rated accounts, a third of whom have not played for over 30 days.
func BenchmarkLeaderboard100k(b *testing.B) {
	db, _ := openTemp(b)
	const accounts = 100_000
	now := t0
	db.bolt.NoSync = true // the setup need not be durable; the reads measured are the same
	defer func() { db.bolt.NoSync = false }()
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		for i := range accounts {
			id := fmt.Sprintf("SHA256:bench%06d", i)
			acct, _ := jsonMarshal(accountRecord{V: recordVersion, ID: id, Handle: fmt.Sprintf("p%06d", i)})
			if err := tx.Bucket([]byte(bucketAccounts)).Put([]byte(id), acct); err != nil {
				return err
			}
			r := rating.Rating{R: 1000 + float64((i*7919)%1500), RD: 60, Vol: 0.06}
			last := now
			if i%3 == 0 {
				last = now.Add(-60 * 24 * time.Hour)
			}
			rec, _ := jsonMarshal(ratingRecord{V: recordVersion, Rating: r, Games: 1 + i%40, Last: last})
			if err := tx.Bucket([]byte(bucketRatings)).Put(ratingKey(id, "breakcode"), rec); err != nil {
				return err
			}
			if err := tx.Bucket([]byte(bucketLeaders)).Put(leaderKey("breakcode", r.R, id), []byte{}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	q := LeaderQuery{Game: "breakcode", Limit: 20, MinGames: 5, Since: now.Add(-30 * 24 * time.Hour)}
	b.ResetTimer()
	for b.Loop() {
		top, err := db.Leaderboard(q)
		if err != nil || len(top) != 20 {
			b.Fatalf("%d lines, %v", len(top), err)
		}
	}
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

func TestTotalsString(t *testing.T) {
	if got := (Totals{Played: 6, Won: 1, SharedWins: 2, Lost: 3}).String(); got != "played 6 · won 1 · shared win 2 · lost 3" {
		t.Errorf("Totals.String = %q", got)
	}
	if got := (Totals{}).String(); got != "played 0 · won 0" {
		t.Errorf("empty Totals.String = %q", got)
	}
}
