package breakcode

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/enginetest"
)

// tilePattern matches a tile name such as 3b or 5g.
var tilePattern = regexp.MustCompile(`\b[0-9][bwg]\b`)

// randomTiles returns a random physically possible set of size tiles.
func randomTiles(rng *rand.Rand, size int) []Tile {
	var m uint32
	for _, p := range rng.Perm(tileCount)[:size] {
		m |= 1 << p
	}
	ts := tilesOf(m)
	rng.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
	return ts
}

// randomAction picks a legal move for the seat to move. It peeks at the
// hidden tiles so that right guesses (and so every way of ending) happen.
func randomAction(rng *rand.Rand, s *state) []byte {
	seat := s.toMove
	target := s.centre
	if s.n == 2 {
		target = s.hands[1-seat]
	}
	size := s.handSize
	if s.phase == LastChance {
		switch rng.IntN(5) {
		case 0:
			return PassAction()
		case 1, 2:
			return GuessAction(randomTiles(rng, size))
		default:
			return GuessAction(tilesOf(target))
		}
	}
	if rng.IntN(12) == 0 {
		if rng.IntN(3) == 0 {
			return GuessAction(tilesOf(target))
		}
		return GuessAction(randomTiles(rng, size))
	}
	card := s.faceUp[rng.IntN(len(s.faceUp))]
	num := 0
	if nums := CardNumbers(card); nums != nil {
		num = nums[rng.IntN(2)]
	}
	return AskAction(card, num)
}

// illegalAction returns a move that must be refused, or nil.
func illegalAction(rng *rand.Rand, s *state) (engine.Seat, []byte) {
	switch rng.IntN(6) {
	case 0:
		return (s.toMove + 1) % engine.Seat(s.n), AskAction(s.faceUp[0], 0)
	case 1:
		for c := 1; c <= CardCount; c++ {
			if !slices.Contains(s.faceUp, c) {
				return s.toMove, AskAction(c, 0)
			}
		}
		return s.toMove, []byte(`{}`)
	case 2:
		return s.toMove, GuessAction(randomTiles(rng, s.handSize)[:s.handSize-1])
	case 3:
		return engine.System, AskAction(s.faceUp[0], 0)
	case 4:
		return s.toMove, []byte(`{"ask":{"card":1},"guess":{"tiles":[]}}`)
	default:
		b := make([]byte, rng.IntN(20))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return s.toMove, b
	}
}

// reshuffleHidden returns a copy of s in which every tile the viewer cannot
// see is dealt again at random (and, with 3–4 players, others' private
// guesses are rewritten). Seats the viewer may see keep their tiles.
func reshuffleHidden(rng *rand.Rand, s *state, viewer engine.Viewer) *state {
	c := s.clone()
	var groups []*uint32
	for i := range c.hands {
		if !viewer.IsSeat(engine.Seat(i)) {
			groups = append(groups, &c.hands[i])
		}
	}
	seesCentre := viewer.Kind == engine.ViewerSeat && c.n > 2 && c.out[viewer.Seat]
	if !seesCentre {
		groups = append(groups, &c.centre)
	}
	var pool []int
	for _, g := range groups {
		for p := range tileCount {
			if *g&(1<<p) != 0 {
				pool = append(pool, p)
			}
		}
	}
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for _, g := range groups {
		size := popcount(*g)
		*g = 0
		for _, p := range pool[:size] {
			*g |= 1 << p
		}
		pool = pool[size:]
	}
	if c.n > 2 {
		for i := range c.guesses {
			if viewer.IsSeat(engine.Seat(i)) {
				continue
			}
			for j := range c.guesses[i] {
				c.guesses[i][j].mask = physicalSetOf(randomTiles(rng, c.handSize))
			}
		}
	}
	return c
}

func physicalSetOf(ts []Tile) uint32 {
	m, _ := maskOf(ts)
	return m
}

// checkSpectatorSeesNothingHidden fails if a spectator view holds any tile
// that is not public.
func checkSpectatorSeesNothingHidden(t *testing.T, s *state) {
	t.Helper()
	v := s.View(engine.Spectator()).(View)
	if v.Hand != nil || v.Centre != nil || v.Unused != nil {
		t.Fatalf("spectator sees tiles: hand %v centre %v unused %v", v.Hand, v.Centre, v.Unused)
	}
	for i, sv := range v.Seats {
		if sv.Hand != nil || sv.Possible != 0 {
			t.Fatalf("spectator sees seat %d: %+v", i, sv)
		}
		for _, g := range sv.Guesses {
			if s.n > 2 && g.Tiles != nil {
				t.Fatalf("spectator sees seat %d's private guess", i)
			}
		}
	}
}

// checkTurnOrder verifies who moves after seat acted.
func checkTurnOrder(t *testing.T, s *state, seat engine.Seat, before Phase) {
	t.Helper()
	if s.phase == Finished {
		if st := s.Status(); !st.Finished || len(st.Active) != 0 {
			t.Fatalf("finished but status %+v", st)
		}
		return
	}
	if st := s.Status(); !slices.Equal(st.Active, []engine.Seat{s.toMove}) || st.Turn != s.turns+1 {
		t.Fatalf("status %+v, to move %d", st, s.toMove)
	}
	if s.n == 2 {
		if s.toMove != 1-seat {
			t.Fatalf("2 players: %d moved, then %d to move", seat, s.toMove)
		}
		if s.phase == LastChance && seat != s.starter {
			t.Fatalf("last chance offered after the non-starter's guess")
		}
		return
	}
	if s.out[s.toMove] {
		t.Fatalf("seat %d is out but to move", s.toMove)
	}
	for i := 1; i < s.n; i++ {
		c := engine.Seat((int(seat) + i) % s.n)
		if !s.out[c] {
			if c != s.toMove {
				t.Fatalf("after seat %d, seat %d should move, not %d", seat, c, s.toMove)
			}
			return
		}
	}
}

// playthrough plays one seeded game to the end, checking invariants after
// every move, and returns its record.
func playthrough(t *testing.T, n int, seed uint64, bots map[engine.Seat]string, aid bool, checks int) engine.Record {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	players := enginetest.Players(n)
	opts := engine.Options{"aid": "on"}
	if !aid {
		opts["aid"] = "off"
	}
	st, resolved, err := engine.Start(Game{}, opts, players, seed)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*state)
	rec := engine.Record{Game: ID, Options: resolved, Players: players, Seed: seed}
	var all []engine.Event
	botOf := enginetest.Bots(t, Game{}, seed, bots)
	checkAt := map[int]bool{}
	for range checks {
		checkAt[rng.IntN(30)] = true
	}
	for step := 0; s.phase != Finished; step++ {
		if step > 200 {
			t.Fatalf("seed %d: game did not end after %d moves", seed, step)
		}
		if rng.IntN(8) == 0 {
			seat, bad := illegalAction(rng, s)
			before := omniJSON(t, s)
			if _, err := s.Apply(seat, bad); err == nil || !engine.IsIllegal(err) {
				t.Fatalf("seed %d: illegal move %s by %d gave %v", seed, bad, seat, err)
			}
			if omniJSON(t, s) != before {
				t.Fatalf("seed %d: refused move %s changed the state", seed, bad)
			}
		}
		seat := s.toMove
		var action []byte
		if b, ok := botOf[seat]; ok {
			action, err = b.Act(s.View(engine.SeatViewer(seat)))
			if err != nil || action == nil {
				t.Fatalf("seed %d: bot for seat %d: %s, %v", seed, seat, action, err)
			}
			// Other bots have nothing to do when it is not their turn.
			for other, ob := range botOf {
				if other != seat {
					if a, err := ob.Act(s.View(engine.SeatViewer(other))); a != nil || err != nil {
						t.Fatalf("seed %d: idle bot acted: %s %v", seed, a, err)
					}
				}
			}
		} else {
			action = randomAction(rng, s)
		}
		if checkAt[step] {
			checkNoninterference(t, rng, s, action)
		}
		phase := s.phase
		evs, err := s.Apply(seat, action)
		if err != nil {
			t.Fatalf("seed %d: legal move %s by %d refused: %v", seed, action, seat, err)
		}
		all = append(all, evs...)
		if n > 2 {
			for _, e := range evs {
				if len(e.Seats) == 0 && tilePattern.MatchString(e.Text) {
					t.Fatalf("seed %d: a public event names tiles: %q", seed, e.Text)
				}
			}
		}
		rec.Moves = append(rec.Moves, engine.Move{Seat: seat, Action: action})
		checkConserved(t, s)
		checkTurnOrder(t, s, seat, phase)
	}
	checkSpectatorSeesNothingHidden(t, s)
	// Replaying the log rebuilds the same state and the same narration.
	reg := engine.NewRegistry(Game{})
	replayed, evs, err := engine.Replay(reg, rec, -1)
	if err != nil {
		t.Fatalf("seed %d: replay: %v", seed, err)
	}
	if got, want := omniJSON(t, replayed.(*state)), omniJSON(t, s); got != want {
		t.Fatalf("seed %d: replay differs:\n%s\n%s", seed, got, want)
	}
	if !reflect.DeepEqual(withoutAidMemo(replayed.(*state)), withoutAidMemo(s)) {
		t.Fatalf("seed %d: replayed state differs inside (deck, hands or history)", seed)
	}
	if enginetest.EventsJSON(t, evs, engine.Omniscient()) != enginetest.EventsJSON(t, all, engine.Omniscient()) {
		t.Fatalf("seed %d: replayed events differ", seed)
	}
	r1, _ := replayed.Result()
	r2, _ := s.Result()
	if fmt.Sprint(r1) != fmt.Sprint(r2) {
		t.Fatalf("seed %d: replayed result %+v, want %+v", seed, r1, r2)
	}
	return rec
}

// checkNoninterference deals the tiles hidden from one viewer again and
// checks that the viewer's view does not change, and that the next move's
// events it sees change only where public events change.
func checkNoninterference(t *testing.T, rng *rand.Rand, s *state, action []byte) {
	t.Helper()
	viewers := []engine.Viewer{engine.Spectator()}
	for i := range s.n {
		viewers = append(viewers, engine.SeatViewer(engine.Seat(i)))
	}
	v := viewers[rng.IntN(len(viewers))]
	other := reshuffleHidden(rng, s, v)
	if a, b := enginetest.ViewJSON(t, s, v), enginetest.ViewJSON(t, other, v); a != b {
		t.Fatalf("view of %+v depends on hidden tiles:\n%s\n%s", v, a, b)
	}
	checkSpectatorSeesNothingHidden(t, s)
	a, b := s.clone(), other
	evA, errA := a.Apply(a.toMove, action)
	evB, errB := b.Apply(b.toMove, action)
	if (errA == nil) != (errB == nil) {
		t.Fatalf("legality depends on hidden tiles: %v / %v", errA, errB)
	}
	// A 3–4-player guesser looks at the centre: that is theirs to learn.
	var act Action
	_ = json.Unmarshal(action, &act)
	if s.n > 2 && act.Guess != nil && v.IsSeat(s.toMove) {
		return
	}
	if enginetest.EventsJSON(t, evA, engine.Spectator()) == enginetest.EventsJSON(t, evB, engine.Spectator()) &&
		enginetest.EventsJSON(t, evA, v) != enginetest.EventsJSON(t, evB, v) {
		t.Fatalf("events seen by %+v depend on hidden tiles:\n%s\n%s", v,
			enginetest.EventsJSON(t, evA, v), enginetest.EventsJSON(t, evB, v))
	}
}

func TestRandomPlaythroughs(t *testing.T) {
	games := map[int]int{2: 3000, 3: 2000, 4: 2000}
	if testing.Short() || raceEnabled {
		games = map[int]int{2: 300, 3: 200, 4: 200}
	}
	for n := 2; n <= 4; n++ {
		t.Run(fmt.Sprintf("%dp", n), func(t *testing.T) {
			ends := map[string]int{}
			for g := range games[n] {
				seed := uint64(n*1_000_000 + g)
				bots := map[engine.Seat]string{}
				aid := g%16 == 0
				// Bots are cheap with 2 players; with 3–4 they enumerate
				// thousands of deals per move, so only some games get one.
				if n == 2 && g%3 == 0 || n > 2 && g%50 == 0 {
					bots[engine.Seat(g%n)] = []string{LevelStrong, LevelEasy}[g/3%2]
				}
				if n == 2 && g%30 == 0 {
					bots[engine.Seat((g+1)%n)] = LevelEasy
				}
				checks := 1
				if n == 2 || g%10 == 0 {
					checks = 3
				}
				rec := playthrough(t, n, seed, bots, aid, checks)
				st, _, err := engine.Replay(engine.NewRegistry(Game{}), rec, -1)
				if err != nil {
					t.Fatal(err)
				}
				r, _ := st.Result()
				switch {
				case r.Draw && len(r.Winners) == 0:
					ends["questions ran out"]++
				case r.Draw:
					ends["tie"]++
				case len(r.Winners) == 0:
					ends["all wrong"]++
				default:
					ends["won"]++
				}
			}
			t.Logf("%d players: endings %v", n, ends)
			if ends["won"] == 0 || ends["questions ran out"] == 0 {
				t.Errorf("endings not all exercised: %v", ends)
			}
		})
	}
}

// Replaying a prefix of a record rebuilds every intermediate state.
func TestReplayPrefixes(t *testing.T) {
	rec := playthrough(t, 3, 42, nil, true, 0)
	enginetest.ReplayPrefixes(t, Game{}, rec, 1, func(a, b engine.State) bool {
		return omniJSON(t, a.(*state)) == omniJSON(t, b.(*state))
	})
}

func FuzzApply(f *testing.F) {
	f.Add([]byte(`{"ask":{"card":1}}`), uint8(0), int8(0))
	f.Add([]byte(`{"ask":{"card":21,"number":8}}`), uint8(1), int8(1))
	f.Add([]byte(`{"guess":{"tiles":["1b","2w","5g","8b","9w"]}}`), uint8(2), int8(2))
	f.Add([]byte(`{"pass":true}`), uint8(0), int8(-1))
	f.Add([]byte(`{"guess":{"tiles":["5","5g","5G","0b"]}}`), uint8(2), int8(3))
	f.Fuzz(func(t *testing.T, data []byte, players uint8, seat int8) {
		n := 2 + int(players%3)
		s := newState(true, make([]engine.Player, n), uint64(players))
		// Try the bytes both at the start and in the 2-player last chance.
		for _, prep := range [][]byte{nil, GuessAction(tilesOf(s.hands[1-s.starter&1]))} {
			c := s.clone()
			if prep != nil {
				if n != 2 {
					continue
				}
				_, _ = c.Apply(c.toMove, prep)
			}
			before := omniJSON(t, c)
			if _, err := c.Apply(engine.Seat(seat), data); err != nil {
				if !engine.IsIllegal(err) {
					t.Fatalf("error is not a refusal: %v", err)
				}
				if omniJSON(t, c) != before {
					t.Fatal("refused action changed the state")
				}
			}
			_ = c.View(engine.SeatViewer(engine.Seat(seat)))
		}
	})
}
