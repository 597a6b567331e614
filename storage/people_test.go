package storage

import (
	"encoding/json"
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

func won(seats ...engine.Seat) engine.Result {
	return engine.Result{Winners: seats, Draw: len(seats) > 1, Summary: "someone won"}
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
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
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
