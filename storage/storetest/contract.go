package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/rating"
	"github.com/codebreakers/codebreakers/storage"
)

func testAccountsAndHandles(t *testing.T, open Opener) {
	db := open(t)
	if _, err := db.Account("SHA256:ann"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("storage.Account of new id: %v, want storage.ErrNotFound", err)
	}
	before := time.Now().UTC().Add(-time.Second)
	ann, err := db.ClaimHandle("SHA256:ann", "Ann")
	if err != nil {
		t.Fatal(err)
	}
	if ann.ID != "SHA256:ann" || ann.Handle != "Ann" || ann.Created.Before(before) || ann.LastSeen.Before(before) {
		t.Fatalf("claimed = %+v", ann)
	}
	got, err := db.Account("SHA256:ann")
	if err != nil || !got.Created.Equal(ann.Created) || got.Handle != "Ann" {
		t.Fatalf("storage.Account = %+v, %v; want %+v", got, err, ann)
	}

	// Uniqueness ignores case.
	for _, h := range []string{"Ann", "ann", "ANN"} {
		if _, err := db.ClaimHandle("SHA256:bo", h); !errors.Is(err, storage.ErrHandleTaken) {
			t.Errorf("Bo claims %q: %v, want storage.ErrHandleTaken", h, err)
		}
	}
	if _, err := db.Account("SHA256:bo"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("a refused claim must not create the account: %v", err)
	}
	for _, h := range []string{"ann", "ANN", "Ann"} {
		if owner, err := db.HandleOwner(h); err != nil || owner != "SHA256:ann" {
			t.Errorf("HandleOwner(%q) = %q, %v", h, owner, err)
		}
	}

	// Re-claiming your own handle in another case is a rename, not a clash.
	if a, err := db.ClaimHandle("SHA256:ann", "ANN"); err != nil || a.Handle != "ANN" || !a.Created.Equal(ann.Created) {
		t.Fatalf("re-case own handle: %+v, %v", a, err)
	}

	// Renaming frees the old handle.
	if _, err := db.ClaimHandle("SHA256:ann", "Annie"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.HandleOwner("ann"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("old handle still owned: %v", err)
	}
	if owner, err := db.HandleOwner("annie"); err != nil || owner != "SHA256:ann" {
		t.Errorf("HandleOwner(annie) = %q, %v", owner, err)
	}
	if _, err := db.ClaimHandle("SHA256:bo", "ann"); err != nil {
		t.Errorf("Bo takes the freed handle: %v", err)
	}

	if err := db.Touch("SHA256:bo"); err != nil {
		t.Errorf("Touch: %v", err)
	}
	if err := db.Touch("SHA256:nobody"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("Touch unknown: %v", err)
	}
	if _, err := db.HandleOwner("nobody"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("HandleOwner unknown: %v", err)
	}
	for _, bad := range [][2]string{{"", "x"}, {"id", ""}, {"id", strings.Repeat("x", 65)}} {
		if _, err := db.ClaimHandle(bad[0], bad[1]); err == nil {
			t.Errorf("ClaimHandle(%q, %q) accepted", bad[0], bad[1])
		}
	}
}

func testNewGameID(t *testing.T, open Opener) {
	db := open(t)
	seen := make(map[string]bool)
	for range 500 {
		id, err := db.NewGameID()
		if err != nil {
			t.Fatal(err)
		}
		if len(id) != storage.GameIDLen {
			t.Fatalf("id %q: want %d characters", id, storage.GameIDLen)
		}
		for _, c := range id {
			if !strings.ContainsRune(idAlphabet, c) {
				t.Fatalf("id %q has %q outside the alphabet", id, c)
			}
		}
		if seen[id] {
			t.Fatalf("id %q handed out twice", id)
		}
		seen[id] = true
	}
	if strings.ContainsAny(idAlphabet, "01OIL") {
		t.Error("alphabet has ambiguous characters")
	}
}

func testLiveGameRoundTrip(t *testing.T, open Opener) {
	db := open(t)
	id, err := db.NewGameID()
	if err != nil {
		t.Fatal(err)
	}
	g := sampleLive(id)
	g.Record.Moves = []engine.Move{move(0, `{"ask":"sum"}`)}
	if err := db.StartGame(g); err != nil {
		t.Fatal(err)
	}
	if err := db.StartGame(g); !errors.Is(err, storage.ErrGameExists) {
		t.Errorf("StartGame twice: %v, want storage.ErrGameExists", err)
	}
	for i, a := range []string{`{"guess":[1,2,3]}`, `{"pass":true}`} {
		if err := db.AppendMove(id, i+1, move(i%3, a)); err != nil {
			t.Fatal(err)
		}
	}
	for _, idx := range []int{1, 2, 4, -1} { // duplicates, a gap, nonsense
		if err := db.AppendMove(id, idx, move(0, `{}`)); !errors.Is(err, storage.ErrMoveOutOfOrder) {
			t.Errorf("AppendMove index %d: %v, want storage.ErrMoveOutOfOrder", idx, err)
		}
	}
	if err := db.AppendMove("NOPE9", 0, move(0, `{}`)); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("AppendMove unknown game: %v", err)
	}

	live, err := db.LiveGames()
	if err != nil {
		t.Fatal(err)
	}
	want := g
	want.Record.Moves = append(want.Record.Moves, move(0, `{"guess":[1,2,3]}`), move(1, `{"pass":true}`))
	if len(live) != 1 || !reflect.DeepEqual(live[0], want) {
		t.Fatalf("LiveGames =\n%+v\nwant\n%+v", live, want)
	}

	// Abandon keeps the log aside and frees nothing for reuse.
	if err := db.AbandonGame(id); err != nil {
		t.Fatal(err)
	}
	if err := db.AbandonGame(id); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("AbandonGame twice: %v", err)
	}
	if live, _ := db.LiveGames(); len(live) != 0 {
		t.Errorf("abandoned game still live: %+v", live)
	}
	if err := db.StartGame(g); !errors.Is(err, storage.ErrGameExists) {
		t.Errorf("restart an abandoned id: %v", err)
	}
}

func testFinishedGamesHistoryAndStats(t *testing.T, open Opener) {
	db := open(t)
	base := time.Date(2026, 11, 25, 21, 0, 0, 0, time.UTC)
	results := []engine.Result{
		{Winners: []engine.Seat{0}, Summary: "Ann broke the code."},
		{Winners: []engine.Seat{2}, Summary: "Kai broke the code."},
		{Winners: []engine.Seat{0, 2}, Draw: true, Summary: "Ann and Kai tie."},
		{Draw: true, Summary: "Nobody broke the code."},
		{Winners: []engine.Seat{1}, Summary: "The bot won."},
	}
	var ids []string
	for i, res := range results {
		id, err := db.NewGameID()
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
		g := sampleLive(id)
		if i == 4 {
			g.Record.Game = "other"
		}
		if err := db.StartGame(g); err != nil {
			t.Fatal(err)
		}
		for m := range i + 1 {
			if err := db.AppendMove(id, m, move(m%3, fmt.Sprintf(`{"n":%d}`, m))); err != nil {
				t.Fatal(err)
			}
		}
		live, _ := db.LiveGames()
		fg := finish(live[0], res, base.Add(time.Duration(i)*time.Minute))
		if err := db.FinishGame(fg); err != nil {
			t.Fatal(err)
		}
		if err := db.FinishGame(fg); !errors.Is(err, storage.ErrGameExists) {
			t.Errorf("FinishGame twice: %v", err)
		}
		if err := db.StartGame(g); !errors.Is(err, storage.ErrGameExists) {
			t.Errorf("StartGame with a finished game's id: %v, want storage.ErrGameExists", err)
		}
		got, err := db.Game(id)
		if err != nil || !reflect.DeepEqual(got, fg) {
			t.Fatalf("Game(%s) =\n%+v, %v\nwant\n%+v", id, got, err, fg)
		}
	}
	if live, _ := db.LiveGames(); len(live) != 0 {
		t.Errorf("finished games still live: %d", len(live))
	}
	if _, err := db.Game("NOPE9"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("Game unknown: %v", err)
	}

	hist, err := db.History("SHA256:ann", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 5 {
		t.Fatalf("history has %d games, want 5", len(hist))
	}
	for i, h := range hist { // newest first
		j := len(ids) - 1 - i
		if h.ID != ids[j] || h.Moves != j+1 || h.Result.Summary != results[j].Summary ||
			!h.Finished.Equal(base.Add(time.Duration(j)*time.Minute)) || len(h.Seats) != 3 {
			t.Errorf("history[%d] = %+v", i, h)
		}
	}
	if hist, _ := db.History("SHA256:ann", 2); len(hist) != 2 || hist[0].ID != ids[4] || hist[1].ID != ids[3] {
		t.Errorf("History limit 2 = %+v", hist)
	}
	if hist, err := db.History("SHA256:nobody", 10); err != nil || len(hist) != 0 {
		t.Errorf("History of unknown = %+v, %v", hist, err)
	}

	// One vocabulary: a shared win is counted as one (not as a draw), a game
	// nobody won as no winner, and Kai, whose seat a bot took over, left.
	wantOutcomes := []storage.Outcome{storage.Lost, storage.NoWinner, storage.SharedWin, storage.Lost, storage.Won} // newest first
	for i, h := range hist {
		if h.Outcome != wantOutcomes[i] {
			t.Errorf("history[%d] outcome = %v, want %v", i, h.Outcome, wantOutcomes[i])
		}
	}
	ann, _ := db.Stats("SHA256:ann")
	wantAnn := storage.Stats{Totals: storage.Totals{Played: 5, Won: 1, SharedWins: 1, Lost: 2, NoWinner: 1}, ByGame: map[string]storage.Totals{
		"breakcode": {Played: 4, Won: 1, SharedWins: 1, Lost: 1, NoWinner: 1}, "other": {Played: 1, Lost: 1}}}
	if !reflect.DeepEqual(ann, wantAnn) {
		t.Errorf("Ann's stats = %+v, want %+v", ann, wantAnn)
	}
	kai, _ := db.Stats("SHA256:kai")
	wantKai := storage.Stats{Totals: storage.Totals{Played: 5, Left: 5}, ByGame: map[string]storage.Totals{
		"breakcode": {Played: 4, Left: 4}, "other": {Played: 1, Left: 1}}}
	if !reflect.DeepEqual(kai, wantKai) {
		t.Errorf("Kai's stats = %+v, want %+v", kai, wantKai)
	}
	if none, err := db.Stats("SHA256:nobody"); err != nil || none.Played != 0 || none.ByGame == nil {
		t.Errorf("storage.Stats of unknown = %+v, %v", none, err)
	}
}

func testHistoryOrderWithEqualTimesAndGuests(t *testing.T, open Opener) {
	db := open(t)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var ids []string
	for range 3 {
		id, _ := db.NewGameID()
		ids = append(ids, id)
		g := sampleLive(id)
		g.Seats = append(g.Seats, storage.SeatRecord{AccountID: "guest:7k3", Handle: "guest-7k3"},
			storage.SeatRecord{AccountID: "SHA256:ann", Handle: "Ann again"}) // same account twice: counted once
		if err := db.FinishGame(finish(g, engine.Result{Winners: []engine.Seat{4}}, at)); err != nil {
			t.Fatal(err)
		}
	}
	hist, _ := db.History("SHA256:ann", 0)
	if len(hist) != 3 || hist[0].ID != ids[2] || hist[2].ID != ids[0] {
		t.Errorf("equal finish times should keep finishing order, newest first: %+v", hist)
	}
	if st, _ := db.Stats("SHA256:ann"); st.Played != 3 || st.Won != 0 {
		t.Errorf("Ann's stats = %+v (first seat counts)", st)
	}
	if hist, _ := db.History("guest:7k3", 0); len(hist) != 0 {
		t.Errorf("guests are not indexed: %+v", hist)
	}
}

// TestRatedGameMovesRatingsInOneWrite: a rated two-player game moves the
// winner up and the loser down by Glicko-2, and the same write keeps the
// changes with the game, the rating history and the leaderboard.
func testRatedGameMovesRatingsInOneWrite(t *testing.T, open Opener) {
	db := open(t)
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
	top, err := db.Leaderboard(storage.LeaderQuery{Game: "breakcode"})
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
	if len(p.Recent) != 1 || p.Recent[0].Outcome != storage.Won || !p.Recent[0].Rated {
		t.Errorf("bo's recent games = %+v", p.Recent)
	}
	list, _ := db.FinishedGames(storage.ListQuery{})
	if len(list) != 1 || list[0].TopRating != rating.Initial || !list[0].Rated {
		t.Errorf("listing = %+v", list)
	}
}

// TestBotOrGuestLeavesRatingsUntouched: a game asked to be rated is not
// rated when a bot or a guest holds a seat (or it is cooperative): nobody's
// rating, history or leaderboard line changes.
func testBotOrGuestLeavesRatingsUntouched(t *testing.T, open Opener) {
	db := open(t)
	people(t, db, "mara", "bo", "kai")
	// Give mara and bo a rating first, so that "untouched" means something.
	played(t, db, "breakcode", true, true, t0, won(0), key("mara"), key("bo"))
	before, _ := db.Ratings("SHA256:mara")
	beforeBo, _ := db.Ratings("SHA256:bo")

	bot := storage.SeatRecord{Handle: "Kai (bot)", Bot: true, BotLevel: "strong"}
	guest := storage.SeatRecord{AccountID: "guest:1234", Handle: "guest-7"}
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
func testSharedWinRecordedAndShownAsOne(t *testing.T, open Opener) {
	db := open(t)
	people(t, db, "mara", "bo", "kai")
	played(t, db, "breakcode", true, true, t0, won(0, 2), key("mara"), key("bo"), key("kai"))
	for _, h := range []string{"mara", "kai"} {
		p, err := db.Profile(h, 5)
		if err != nil {
			t.Fatal(err)
		}
		if p.Stats.SharedWins != 1 || p.Stats.Won != 0 || p.Stats.Wins() != 1 || p.Recent[0].Outcome != storage.SharedWin ||
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
func testLeavingARatedGameCountsAsALoss(t *testing.T, open Opener) {
	db := open(t)
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
	if h, _ := db.History("SHA256:mara", 1); h[0].Outcome != storage.Left {
		t.Errorf("leaver's outcome = %v", h[0].Outcome)
	}
}

// TestLeaderboardFilters: enough rated games, recent enough, per game, in
// order, limited.
func testLeaderboardFilters(t *testing.T, open Opener) {
	db := open(t)
	people(t, db, "ann", "bo", "cy", "dee")
	played(t, db, "coding", true, true, t0, won(0), key("ann"), key("bo"))
	played(t, db, "coding", true, true, t0.Add(time.Hour), won(0), key("ann"), key("cy"))
	played(t, db, "coding", true, true, t0.Add(40*24*time.Hour), won(0), key("dee"), key("cy"))
	all, _ := db.Leaderboard(storage.LeaderQuery{Game: "coding"})
	if len(all) != 4 || all[0].Handle != "ann" {
		t.Fatalf("all = %+v", all)
	}
	for i := 1; i < len(all); i++ {
		if all[i].R > all[i-1].R {
			t.Errorf("not sorted: %+v", all)
		}
	}
	two, _ := db.Leaderboard(storage.LeaderQuery{Game: "coding", MinGames: 2})
	if len(two) != 2 || two[0].Handle != "ann" || two[1].Handle != "cy" {
		t.Errorf("MinGames 2 = %+v", two)
	}
	recent, _ := db.Leaderboard(storage.LeaderQuery{Game: "coding", Since: t0.Add(30 * 24 * time.Hour)})
	if len(recent) != 2 || recent[0].Handle != "dee" || recent[1].Handle != "cy" {
		t.Errorf("Since = %+v", recent)
	}
	if one, _ := db.Leaderboard(storage.LeaderQuery{Game: "coding", Limit: 1}); len(one) != 1 {
		t.Errorf("Limit 1 = %+v", one)
	}
	if none, err := db.Leaderboard(storage.LeaderQuery{Game: "breakcode"}); err != nil || len(none) != 0 {
		t.Errorf("other game = %+v, %v", none, err)
	}
}

// TestFinishedListing: public games newest first or best first; private
// games are never listed (only replayable by id).
func testFinishedListing(t *testing.T, open Opener) {
	db := open(t)
	people(t, db, "ann", "bo", "cy", "dee")
	a := played(t, db, "coding", true, true, t0, won(0), key("ann"), key("bo"))
	b := played(t, db, "coding", true, true, t0.Add(time.Minute), won(0), key("ann"), key("bo"))
	secret := played(t, db, "breakcode", false, false, t0.Add(2*time.Minute), won(0), key("cy"), key("dee"))
	c := played(t, db, "breakcode", false, true, t0.Add(3*time.Minute), won(0), key("cy"), key("dee"))
	ids := func(gs []storage.GameSummary) []string {
		var out []string
		for _, g := range gs {
			out = append(out, g.ID)
		}
		return out
	}
	newest, _ := db.FinishedGames(storage.ListQuery{})
	if got := ids(newest); !reflect.DeepEqual(got, []string{c, b, a}) {
		t.Errorf("newest = %v, want %v", got, []string{c, b, a})
	}
	best, _ := db.FinishedGames(storage.ListQuery{Best: true, Since: t0})
	if got := ids(best); len(got) != 3 || got[0] != b || got[2] != c {
		t.Errorf("best = %v (b had the highest rating at the table)", got)
	}
	if got, _ := db.FinishedGames(storage.ListQuery{Game: "breakcode"}); !reflect.DeepEqual(ids(got), []string{c}) {
		t.Errorf("breakcode only = %v", ids(got))
	}
	if got, _ := db.FinishedGames(storage.ListQuery{Limit: 1}); !reflect.DeepEqual(ids(got), []string{c}) {
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

func testProfileUnknownHandle(t *testing.T, open Opener) {
	db := open(t)
	if _, err := db.Profile("nobody", 5); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("Profile(nobody) = %v, want storage.ErrNotFound", err)
	}
}

// TestIfThenRecord: a cooperative game keeps each player's levels played
// and cleared and the fewest turns of a clear.
func testIfThenRecord(t *testing.T, open Opener) {
	db := open(t)
	people(t, db, "ann", "bo")
	for i, turns := range []int{14, 9, 12} {
		id, _ := db.NewGameID()
		res := won(0, 1)
		res.Draw = false
		if i == 2 {
			res = engine.Result{Summary: "The team loses."}
		}
		g := storage.FinishedGame{LiveGame: storage.LiveGame{ID: id, Seats: []storage.SeatRecord{key("ann"), key("bo")},
			Record: engine.Record{Game: "ifthen", Options: engine.Options{"level": "2"}}},
			Result: res, Finished: t0.Add(time.Duration(i) * time.Minute), Turns: turns}
		if err := db.FinishGame(g); err != nil {
			t.Fatal(err)
		}
	}
	p, _ := db.Profile("ann", 0)
	if got := p.IfThen["2"]; got != (storage.LevelRecord{Played: 3, Cleared: 2, FewestTurns: 9}) {
		t.Errorf("If Then level 2 = %+v", got)
	}
	if len(p.Ratings) != 0 {
		t.Errorf("If Then is not rated: %+v", p.Ratings)
	}
}
