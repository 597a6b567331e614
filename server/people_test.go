package server

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/engine/coding"
	"github.com/codebreakers/codebreakers/engine/ifthen"
	"github.com/codebreakers/codebreakers/storage"
)

// peopleStore is a real store with two rated Break the Code games between
// mara and a player whose handle tries to smuggle an escape sequence, plus
// a private game that must never be listed.
func peopleStore(t *testing.T) *storage.DB {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "c.db"), storage.Options{Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	for id, h := range map[string]string{"SHA256:mara": "mara", "SHA256:evil": "ev\x1b[31mil"} {
		if _, err := db.ClaimHandle(id, h); err != nil {
			t.Fatal(err)
		}
	}
	seats := []storage.SeatRecord{{AccountID: "SHA256:mara", Handle: "mara"}, {AccountID: "SHA256:evil", Handle: "ev\x1b[31mil"}}
	at := time.Now().Add(-time.Hour)
	for i, public := range []bool{true, true, false} {
		id, _ := db.NewGameID()
		g := storage.FinishedGame{LiveGame: storage.LiveGame{ID: id, Public: public, Rated: true, Seats: seats,
			Record: engine.Record{Game: breakcode.ID, Players: []engine.Player{{Name: "mara"}, {Name: "evil"}}}},
			Result: engine.Result{Winners: []engine.Seat{0}, Summary: "mara broke the code."}, Finished: at.Add(time.Duration(i) * time.Minute)}
		if i == 2 {
			g.ID = "SECRET"
		}
		if err := db.FinishGame(g); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

func TestExecTopAndProfile(t *testing.T) {
	db := peopleStore(t)
	ts := startServer(t, func(c *Config) {
		c.Records = db
		c.Games = engine.NewRegistry(breakcode.Game{}, coding.Game{}, ifthen.Game{})
		c.LeaderboardMinGames = 1
	})
	c := dial(t, ts.addr, withKey(newKey(t)))

	out, errOut, code := run(t, c, "top breakcode")
	if code != 0 || !strings.Contains(out, "Break the Code · top players") {
		t.Fatalf("top breakcode = %q %q (exit %d)", out, errOut, code)
	}
	mara, evil := strings.Index(out, "mara"), strings.Index(out, "evil")
	if mara < 0 || evil < 0 || mara > evil {
		t.Errorf("top breakcode must list mara above evil:\n%s", out)
	}
	if strings.Contains(out, "\x1b") {
		t.Errorf("a handle's escape sequence reached the output: %q", out)
	}
	if out, _, code := run(t, c, "top Break-The-Code"); code != 0 || !strings.Contains(out, "mara") {
		t.Errorf("top by name = %q (exit %d)", out, code)
	}
	// The short names `puzzle` takes (README: puzzle break) work here too;
	// "top break" said no game is called "break".
	if out, errOut, code := run(t, c, "top break"); code != 0 || !strings.Contains(out, "Break the Code · top players") {
		t.Errorf("top break = %q %q (exit %d)", out, errOut, code)
	}
	if !strings.Contains(out, "at least 1 rated game,") {
		t.Errorf("one game needed is one game, not games:\n%s", out)
	}
	if out, _, code := run(t, c, "top"); code != 0 || !strings.Contains(out, "The Coding · top players") || !strings.Contains(out, "Nobody yet") {
		t.Errorf("top of every game = %q (exit %d)", out, code)
	}
	if _, errOut, code := run(t, c, "top chess"); code == 0 || !strings.Contains(errOut, `No game is called "chess"`) || !strings.Contains(errOut, "breakcode") {
		t.Errorf("top of an unknown game = %q (exit %d)", errOut, code)
	}
	if _, errOut, code := run(t, c, "top ifthen"); code == 0 || !strings.Contains(errOut, "no ratings") {
		t.Errorf("top of If Then = %q (exit %d)", errOut, code)
	}

	out, errOut, code = run(t, c, "profile MARA")
	if code != 0 || !strings.Contains(out, "mara · joined") || !strings.Contains(out, "Break the Code") ||
		!strings.Contains(out, "won 3 of 3 rated (provisional)") || !strings.Contains(out, "won") {
		t.Fatalf("profile mara = %q %q (exit %d)", out, errOut, code)
	}
	if recent, _ := db.Profile("mara", 1); !strings.Contains(out, recent.Recent[0].ID) {
		t.Errorf("the newest public game's whole id %s is not on the profile:\n%s", recent.Recent[0].ID, out)
	}
	if strings.Contains(out, "SECRET") {
		t.Errorf("a private game was listed on a profile:\n%s", out)
	}
	if strings.Count(out, "Break the Code  ") < 1 || !strings.ContainsAny(out, "▁▂▃▄▅▆▇█") {
		t.Errorf("profile has no trend chart:\n%s", out)
	}
	if _, errOut, code := run(t, c, "profile nobody"); code == 0 || !strings.Contains(errOut, `Nobody has the handle "nobody"`) {
		t.Errorf("profile of an unknown handle = %q (exit %d)", errOut, code)
	}
	if _, errOut, code := run(t, c, "profile"); code == 0 || !strings.Contains(errOut, "profile HANDLE") {
		t.Errorf("profile without a handle = %q (exit %d)", errOut, code)
	}
	if out, _, _ := run(t, c, "profile ev\x1b[31mil"); strings.Contains(out, "\x1b") {
		t.Errorf("escape in a profile: %q", out)
	}
}

// TestTopAndProfileShowTheRatingAsItStandsNow: a player who last played
// rated 25 days ago is shown with the deviation grown by those 25 rating
// periods, in `top` and in `profile`, not as stored.
func TestTopAndProfileShowTheRatingAsItStandsNow(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "c.db"), storage.Options{Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	seats := []storage.SeatRecord{{AccountID: "SHA256:mara", Handle: "mara"}, {AccountID: "SHA256:bo", Handle: "bo"}}
	for _, s := range seats {
		if _, err := db.ClaimHandle(s.AccountID, s.Handle); err != nil {
			t.Fatal(err)
		}
	}
	id, _ := db.NewGameID()
	if err := db.FinishGame(storage.FinishedGame{LiveGame: storage.LiveGame{ID: id, Public: true, Rated: true, Seats: seats,
		Record: engine.Record{Game: breakcode.ID, Players: []engine.Player{{Name: "mara"}, {Name: "bo"}}}},
		Result: engine.Result{Winners: []engine.Seat{0}}, Finished: time.Now().AddDate(0, 0, -25).Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	rs, err := db.Ratings("SHA256:mara")
	if err != nil || len(rs) != 1 {
		t.Fatalf("mara's ratings: %+v %v", rs, err)
	}
	stored, now := rs[0].Deviation(), rs[0].Current(time.Now()).Deviation()
	if stored == now {
		t.Fatalf("25 days should grow mara's deviation: %s", stored)
	}
	ts := startServer(t, func(c *Config) {
		c.Records = db
		c.Games = engine.NewRegistry(breakcode.Game{})
		c.LeaderboardMinGames = 1
	})
	c := dial(t, ts.addr, withKey(newKey(t)))
	for _, cmd := range []string{"top breakcode", "profile mara"} {
		out, errOut, code := run(t, c, cmd)
		if code != 0 || !strings.Contains(out, now) || strings.Contains(out, stored) {
			t.Errorf("%s shows mara's deviation as stored (%s), not as it stands now (%s): %q %q", cmd, stored, now, out, errOut)
		}
	}
}
