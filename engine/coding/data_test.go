package coding

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/enginetest"
)

// Two players lay out one Data card of each kind, three or four players two
// of each; rules revision 1 (old records) had it the other way round.
func TestDataCardsByPlayers(t *testing.T) {
	for _, c := range []struct {
		n      int
		rules  string
		copies int
	}{
		{2, RulesDataByPlayers, 1}, {3, RulesDataByPlayers, 2}, {4, RulesDataByPlayers, 2},
		{2, RulesFirst, 2}, {3, RulesFirst, 1}, {4, RulesFirst, 1},
	} {
		st, opts, err := engine.Start(Game{}, engine.Options{engine.RulesOption: c.rules}, make([]engine.Player, c.n), 5)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*state)
		v := s.View(engine.SeatViewer(0)).(View)
		for k := range DataKinds {
			if v.DataField[k] != c.copies {
				t.Errorf("%d players, rules %s: %d copies of %s, want %d", c.n, opts[engine.RulesOption], v.DataField[k], DataLabel(k), c.copies)
			}
		}
		if s.dataTotal != c.copies*DataKinds {
			t.Errorf("%d players, rules %s: %d Data cards in all", c.n, c.rules, s.dataTotal)
		}
	}
	// A new game is recorded with the newest rules.
	if _, opts, _ := engine.Start(Game{}, nil, make([]engine.Player, 3), 1); opts[engine.RulesOption] != RulesDataByPlayers {
		t.Fatalf("a new game records rules %q", opts[engine.RulesOption])
	}
	if _, err := (Game{}).New(engine.Options{engine.RulesOption: "9"}, make([]engine.Player, 3), 1); !engine.IsIllegal(err) {
		t.Fatalf("an unknown rules revision gave %v", err)
	}
}

// roundsEndFull plays rounds 1–4 of a deal, taking Data cards in a random
// order, and reports whether every seat ended them holding four Data cards
// except for its announcements that none on the table could be taken (every
// kind left covers its code). A seat that finds only kinds it already holds
// has been short-changed.
func roundsEndFull(t *testing.T, n int, seed uint64, try uint64, first bool) bool {
	t.Helper()
	s := newState(config{system: []string{SystemSpeed, SystemCounter}[seed%2], answerMillis: 30000, firstRules: first}, make([]engine.Player, n), seed)
	rng := rand.New(rand.NewPCG(seed, try))
	for s.phase != Rounds {
		seat := s.active()[0]
		mustApply(t, s, seat, OrderAction(s.codes[seat].X1))
	}
	for s.phase == Rounds {
		seat := s.toMove
		data := -1
		if ks := s.takeable(seat); len(ks) > 0 {
			data = pick(rng, ks)
		}
		mustApply(t, s, seat, PlayAction(data, pick(rng, s.hackLine), pick(rng, s.recipients(seat))))
	}
	for i := range n {
		if len(s.data[i])+len(s.noData[i]) != RoundCount {
			return false
		}
	}
	return true
}

// The rulebook's end of round 4: every player holds four Data cards, except
// for the turns on which they announced they could not take one. With 8
// cards, 3 or 4 players cannot all reach four (the first rules); with 16,
// some order of play gets everyone there in every deal tried.
func TestFourDataCardsAfterRoundFour(t *testing.T) {
	deals := uint64(60)
	if testing.Short() || raceEnabled {
		deals = 15
	}
	for n := 2; n <= 4; n++ {
		oldShort := 0
		for seed := range deals {
			ok, oldOK := false, false
			for try := uint64(0); try < 40 && !ok; try++ {
				ok = roundsEndFull(t, n, seed, try, false)
			}
			for try := uint64(0); try < 40 && !oldOK; try++ {
				oldOK = roundsEndFull(t, n, seed, try, true)
			}
			if !ok {
				t.Fatalf("%d players, deal %d: no order of play tried gives every seat four Data cards (or an announcement)", n, seed)
			}
			if !oldOK {
				oldShort++
			}
		}
		// The check has teeth: the first rules fail it.
		if n > 2 && oldShort == 0 {
			t.Fatalf("%d players: the first rules' 8 Data cards gave every seat four in every deal", n)
		}
		t.Logf("%d players: the first rules leave someone short in %d of %d deals", n, oldShort, deals)
	}
}

// legacyGame is a game recorded by the code before the Data card change
// (testdata/legacy_records.json, made at commit 93019c6): its record and
// how it ended.
type legacyGame struct {
	Note   string        `json:"note"`
	Record engine.Record `json:"record"`
	Result engine.Result `json:"result"`
	Data   [][]int       `json:"data"` // Data card kinds each seat held at the end
}

func loadLegacy(t *testing.T) []legacyGame {
	t.Helper()
	var games []legacyGame
	enginetest.ReadJSON(t, "testdata/legacy_records.json", &games)
	return games
}

// Games recorded before rules revisions existed replay exactly as they were
// played (finished games, and live logs resumed after an upgrade), while
// the same moves under the new Data cards would not.
func TestLegacyRecordsReplay(t *testing.T) {
	reg := engine.NewRegistry(Game{})
	games := loadLegacy(t)
	if len(games) == 0 {
		t.Fatal("no legacy records")
	}
	diverged := 0
	for i, g := range games {
		if _, ok := g.Record.Options[engine.RulesOption]; ok {
			t.Fatalf("legacy record %d names a rules revision", i)
		}
		st, _, err := engine.Replay(reg, g.Record, -1)
		if err != nil {
			t.Fatalf("legacy record %d (%d players): %v", i, len(g.Record.Players), err)
		}
		s := st.(*state)
		r, done := s.Result()
		if !done || !enginetest.SameEnd(r, g.Result) || !reflect.DeepEqual(s.data, g.Data) {
			t.Fatalf("legacy record %d replays to %+v with Data %v; it ended %+v with Data %v", i, r, s.data, g.Result, g.Data)
		}
		// A live log resumed halfway goes on under the same rules.
		half := g.Record
		half.Moves = half.Moves[:len(half.Moves)/2]
		hs, _, err := engine.Replay(reg, half, -1)
		if err != nil || !hs.(*state).firstRules {
			t.Fatalf("legacy record %d, first half: %v (first rules %v)", i, err, err == nil && hs.(*state).firstRules)
		}
		// Under the new rules the same moves play differently (or not at all).
		now := g.Record
		now.Options = engine.Options{engine.RulesOption: RulesDataByPlayers}
		for k, v := range g.Record.Options {
			now.Options[k] = v
		}
		ns, _, err := engine.Replay(reg, now, -1)
		if err != nil {
			diverged++
			continue
		}
		nr, _ := ns.Result()
		if !enginetest.SameEnd(nr, g.Result) || !reflect.DeepEqual(ns.(*state).data, g.Data) || !reflect.DeepEqual(ns.(*state).noData, s.noData) {
			diverged++
		}
	}
	if diverged == 0 {
		t.Fatal("no legacy record plays differently under the new rules: the test would not notice a lost revision")
	}
}

// The crack sheet names the possible codes when few are left: exactly the
// ones it counts, the seat's real code among them, each fitting the sheet's
// values; they come from the viewer's own view, so re-dealing every card
// the viewer cannot see changes nothing it shows.
func TestSheetListsFewCodes(t *testing.T) {
	listed := 0
	for n := 2; n <= 4; n++ {
		for g := range uint64(10) {
			seed := 61_000 + 100*uint64(n) + g
			st, _, err := engine.Start(Game{}, engine.Options{"system": []string{SystemSpeed, SystemCounter}[g%2]}, make([]engine.Player, n), seed)
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*state)
			rng := rand.New(rand.NewPCG(seed, 6))
			for step := 0; s.phase != Finished && step < 400; step++ {
				for me := range n {
					viewer := engine.SeatViewer(engine.Seat(me))
					v := s.View(viewer).(View)
					shown := false
					for i, sv := range v.Seats {
						if i == me || sv.Sheet == nil {
							continue
						}
						if sv.Candidates > ListedCodes {
							if sv.Possible != nil {
								t.Fatalf("seed %d: %d codes listed", seed, sv.Candidates)
							}
							continue
						}
						shown = true
						if len(sv.Possible) != sv.Candidates || !slices.Contains(sv.Possible, s.codes[i]) {
							t.Fatalf("seed %d: seat %d sees %v for seat %d (%d counted), whose code is %s", seed, me, sv.Possible, i, sv.Candidates, s.codes[i])
						}
						for _, c := range sv.Possible {
							for p := range 3 {
								if sv.Sheet[p]&(1<<c.At(p)) == 0 {
									t.Fatalf("seed %d: listed %s does not fit the sheet %v", seed, c, sv.Sheet)
								}
							}
						}
					}
					if shown {
						listed++
						other := reshuffleHidden(rng, s, viewer)
						if a, b := enginetest.ViewJSON(t, s, viewer), enginetest.ViewJSON(t, other, viewer); a != b {
							t.Fatalf("seed %d: the codes seat %d's sheet lists depend on hidden cards:\n%s\n%s", seed, me, a, b)
						}
					}
				}
				seat, action := randomAction(rng, s)
				if _, err := s.Apply(seat, action); err != nil {
					t.Fatalf("seed %d: %s: %v", seed, action, err)
				}
			}
		}
	}
	if listed < 50 {
		t.Fatalf("only %d views listed codes: the test checks too little", listed)
	}
}
