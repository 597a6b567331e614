package coding

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/enginetest"
)

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

func randomCode(rng *rand.Rand) Code {
	d := rng.Perm(Digits)
	return Code{Letter: rng.IntN(Letters), X1: d[0], X2: d[1]}
}

// randomAction picks a legal move for some seat that may act. It peeks at
// hidden codes so that right decodes (and so every ending) happen.
func randomAction(rng *rand.Rand, s *state) (engine.Seat, []byte) {
	active := s.active()
	seat := engine.System
	if len(active) > 0 {
		seat = pick(rng, active)
	}
	guess := func() []byte {
		var targets []engine.Seat
		for i, o := range s.out {
			if !o && engine.Seat(i) != seat {
				targets = append(targets, engine.Seat(i))
			}
		}
		t := pick(rng, targets)
		if rng.IntN(3) == 0 {
			return DecodeAction(t, s.codes[t])
		}
		return DecodeAction(t, randomCode(rng))
	}
	switch s.phase {
	case Setup:
		return seat, OrderAction(pick(rng, []int{s.codes[seat].X1, s.codes[seat].X2}))
	case RevealOne:
		var hidden []int
		for p := range 3 {
			if !s.revealed[seat][p] {
				hidden = append(hidden, p)
			}
		}
		return seat, RevealAction(pick(rng, hidden))
	case RevealX:
		return seat, RevealAction(1 + rng.IntN(2))
	case Answer:
		if rng.IntN(5) == 0 {
			return engine.System, TimeoutAction(s.claims)
		}
		return seat, guess()
	case Race:
		if s.moreData() != MoreNone && !s.votes[seat] && rng.IntN(6) != 0 {
			return seat, VoteAction()
		}
		return seat, TapAction()
	case Counter:
		if s.mayStop && rng.IntN(2) == 0 {
			return seat, StopAction()
		}
		if len(s.hackLine) == 0 || len(s.recipients(seat)) == 0 || rng.IntN(6) == 0 {
			return seat, guess()
		}
	}
	data := -1
	if ks := s.takeable(seat); len(ks) > 0 {
		data = pick(rng, ks)
	}
	return seat, PlayAction(data, pick(rng, s.hackLine), pick(rng, s.recipients(seat)))
}

// illegalAction returns a move that must be refused.
func illegalAction(rng *rand.Rand, s *state) (engine.Seat, []byte) {
	waiting := engine.System
	for i := range s.n {
		if !slices.Contains(s.active(), engine.Seat(i)) {
			waiting = engine.Seat(i)
		}
	}
	switch rng.IntN(7) {
	case 0:
		if waiting != engine.System && s.phase != Race {
			return waiting, PlayAction(-1, 0, 0)
		}
		return engine.Seat(s.n), TapAction()
	case 1:
		return engine.System, TapAction()
	case 2:
		return engine.System, TimeoutAction(s.claims + 1)
	case 3:
		return 0, []byte(`{"tap":true,"stop":true}`)
	case 4:
		return 0, PlayAction(DataKinds, 0, 0)
	case 5:
		return 0, []byte(`{"decode":{"target":0,"code":"Z99"}}`)
	default:
		b := make([]byte, rng.IntN(20))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return 0, b
	}
}

// reshuffleHidden returns a copy of s in which every code card the viewer
// cannot see (other seats' face-down cards and the leftover pile) is dealt
// again at random, and others' pending X choices are redrawn.
func reshuffleHidden(rng *rand.Rand, s *state, viewer engine.Viewer) *state {
	c := s.clone()
	type slot struct {
		seat, pos int // seat -1: leftover index pos
	}
	var letterSlots, digitSlots []slot
	var letters, digits []int
	for i := range c.n {
		if viewer.IsSeat(engine.Seat(i)) {
			continue
		}
		for p := range 3 {
			if c.revealed[i][p] {
				continue
			}
			card := cardAt(c.codes[i], p)
			if p == PosLetter {
				letterSlots, letters = append(letterSlots, slot{i, p}), append(letters, card)
			} else {
				digitSlots, digits = append(digitSlots, slot{i, p}), append(digits, card)
			}
		}
		if c.xChoice[i] != 0 {
			c.xChoice[i] = 1 + rng.IntN(2)
		}
	}
	for j, card := range c.leftover {
		if card < Letters {
			letterSlots, letters = append(letterSlots, slot{-1, j}), append(letters, card)
		} else {
			digitSlots, digits = append(digitSlots, slot{-1, j}), append(digits, card)
		}
	}
	put := func(slots []slot, cards []int) {
		rng.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
		for k, sl := range slots {
			card := cards[k]
			switch {
			case sl.seat < 0:
				c.leftover[sl.pos] = card
			case sl.pos == PosLetter:
				c.codes[sl.seat].Letter = card
			case sl.pos == PosX1:
				c.codes[sl.seat].X1 = card - Letters
			default:
				c.codes[sl.seat].X2 = card - Letters
			}
		}
	}
	put(letterSlots, letters)
	put(digitSlots, digits)
	return c
}

// checkNoninterference re-deals the cards hidden from one viewer and checks
// that the viewer's view does not change, and that the next move's events
// it sees change only where public events change.
func checkNoninterference(t *testing.T, rng *rand.Rand, s *state, seat engine.Seat, action []byte) {
	t.Helper()
	viewers := []engine.Viewer{engine.Spectator()}
	for i := range s.n {
		viewers = append(viewers, engine.SeatViewer(engine.Seat(i)))
	}
	v := pick(rng, viewers)
	other := reshuffleHidden(rng, s, v)
	if a, b := enginetest.ViewJSON(t, s, v), enginetest.ViewJSON(t, other, v); a != b {
		t.Fatalf("view of %+v depends on hidden cards:\n%s\n%s", v, a, b)
	}
	checkSpectatorSeesNothingHidden(t, s)
	a, b := s.clone(), other
	evA, errA := a.Apply(seat, action)
	evB, errB := b.Apply(seat, action)
	if v.IsSeat(seat) && (errA == nil) != (errB == nil) {
		t.Fatalf("legality for the actor depends on others' hidden cards: %v / %v", errA, errB)
	}
	if errA != nil || errB != nil {
		return
	}
	if enginetest.EventsJSON(t, evA, engine.Spectator()) == enginetest.EventsJSON(t, evB, engine.Spectator()) &&
		enginetest.EventsJSON(t, evA, v) != enginetest.EventsJSON(t, evB, v) {
		t.Fatalf("events seen by %+v depend on hidden cards:\n%s\n%s", v,
			enginetest.EventsJSON(t, evA, v), enginetest.EventsJSON(t, evB, v))
	}
}

// checkSpectatorSeesNothingHidden fails if a spectator view holds a value
// that is not face up.
func checkSpectatorSeesNothingHidden(t *testing.T, s *state) {
	t.Helper()
	v := s.View(engine.Spectator()).(View)
	if v.Code != nil || v.LeftoverCards != nil || v.Takeable != nil {
		t.Fatalf("spectator sees a code or the leftover pile")
	}
	for i, sv := range v.Seats {
		for p := range 3 {
			if sv.Known[p] >= 0 && !sv.Revealed[p] {
				t.Fatalf("spectator sees seat %d position %d", i, p)
			}
		}
		if sv.Sheet != nil {
			t.Fatalf("spectator has a crack sheet")
		}
	}
}

// checkStatus checks who may act against the phase.
func checkStatus(t *testing.T, s *state) {
	t.Helper()
	st := s.Status()
	for i, o := range s.out {
		if o && s.revealed[i] != [3]bool{true, true, true} {
			t.Fatalf("seat %d is out with a hidden card", i)
		}
	}
	if st.Turn != s.turns+1 {
		t.Fatalf("turn %d after %d hacks and decodes", st.Turn, s.turns)
	}
	if s.phase == Finished {
		r, ok := s.Result()
		if !st.Finished || len(st.Active) != 0 || !ok || len(r.Winners) != 1 || s.out[r.Winners[0]] {
			t.Fatalf("finished: status %+v, result %+v", st, r)
		}
		return
	}
	if len(st.Active) == 0 {
		t.Fatalf("phase %v: nobody may act", s.phase)
	}
	for _, a := range st.Active {
		if s.out[a] {
			t.Fatalf("seat %d is out but active", a)
		}
	}
	if s.inCount() < 2 {
		t.Fatalf("%d players in, game not over", s.inCount())
	}
	switch s.phase {
	case Rounds:
		if s.acted[s.toMove] {
			t.Fatalf("seat %d acts twice in round %d", s.toMove, s.round)
		}
	case Answer:
		if s.Timer() == nil {
			t.Fatal("answer without a timer")
		}
	}
	if s.phase != Answer && s.Timer() != nil {
		t.Fatalf("timer in phase %v", s.phase)
	}
}

// playthrough plays one seeded game to the end, checking invariants after
// every move, and returns its record.
func playthrough(t *testing.T, n int, system string, seed uint64, bots map[engine.Seat]string, checks int) engine.Record {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	players := make([]engine.Player, n)
	for i := range players {
		players[i].Name = names[i]
		_, players[i].Bot = bots[engine.Seat(i)]
	}
	opts := engine.Options{"system": system}
	if seed%7 == 0 {
		opts["sheet"] = "off"
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
		checkAt[rng.IntN(60)] = true
	}
	for step := 0; s.phase != Finished; step++ {
		if step > 400 {
			t.Fatalf("seed %d: game did not end after %d moves", seed, step)
		}
		if rng.IntN(8) == 0 {
			seat, bad := illegalAction(rng, s)
			before := dump(s)
			if _, err := s.Apply(seat, bad); err == nil || !engine.IsIllegal(err) {
				t.Fatalf("seed %d: illegal move %s by %d gave %v", seed, bad, seat, err)
			}
			if dump(s) != before {
				t.Fatalf("seed %d: refused move %s changed the state", seed, bad)
			}
		}
		seat, action := randomAction(rng, s)
		if b, ok := botOf[seat]; ok {
			a, err := b.Act(s.View(engine.SeatViewer(seat)))
			if err != nil {
				t.Fatalf("seed %d: bot for seat %d: %v", seed, seat, err)
			}
			if a != nil {
				action = a
			} else if s.phase != Race {
				t.Fatalf("seed %d: bot for seat %d idle in phase %v", seed, seat, s.phase)
			}
		}
		for other, ob := range botOf {
			if !slices.Contains(s.active(), other) {
				if a, err := ob.Act(s.View(engine.SeatViewer(other))); a != nil || err != nil {
					t.Fatalf("seed %d: idle bot acted: %s %v", seed, a, err)
				}
			}
		}
		if checkAt[step] {
			checkNoninterference(t, rng, s, seat, action)
		}
		evs, err := s.Apply(seat, action)
		if err != nil {
			t.Fatalf("seed %d: legal move %s by %d refused in phase %v: %v", seed, action, seat, s.phase, err)
		}
		all = append(all, evs...)
		rec.Moves = append(rec.Moves, engine.Move{Seat: seat, Action: action})
		checkConserved(t, s)
		checkStatus(t, s)
	}
	checkSpectatorSeesNothingHidden(t, s)
	// Replaying the log rebuilds the same state and the same narration.
	replayed, evs, err := engine.Replay(engine.NewRegistry(Game{}), rec, -1)
	if err != nil {
		t.Fatalf("seed %d: replay: %v", seed, err)
	}
	if got, want := dump(replayed.(*state)), dump(s); got != want {
		t.Fatalf("seed %d: replay differs:\n%s\n%s", seed, got, want)
	}
	if enginetest.EventsJSON(t, evs, engine.Omniscient()) != enginetest.EventsJSON(t, all, engine.Omniscient()) {
		t.Fatalf("seed %d: replayed events differ", seed)
	}
	return rec
}

func TestRandomPlaythroughs(t *testing.T) {
	games := 1000
	if testing.Short() || raceEnabled {
		games = 60
	}
	for _, system := range []string{SystemSpeed, SystemCounter} {
		for n := 2; n <= 4; n++ {
			t.Run(fmt.Sprintf("%s-%dp", system, n), func(t *testing.T) {
				ends := map[string]int{}
				for g := range games {
					seed := uint64(n*1_000_000 + g)
					bots := map[engine.Seat]string{}
					if g%4 == 0 {
						bots[engine.Seat(g%n)] = []string{LevelStrong, LevelEasy}[g/4%2]
					}
					if g%12 == 0 {
						bots[engine.Seat((g+1)%n)] = LevelEasy
					}
					rec := playthrough(t, n, system, seed, bots, 2)
					last := rec.Moves[len(rec.Moves)-1]
					var a Action
					_ = json.Unmarshal(last.Action, &a)
					switch {
					case a.Timeout != nil:
						ends["foul"]++
					case a.Decode != nil:
						ends["decode"]++
					default:
						ends["other"]++
					}
				}
				t.Logf("%s %d players: last moves %v", system, n, ends)
				if ends["decode"] == 0 {
					t.Errorf("no game ended on a decode: %v", ends)
				}
			})
		}
	}
}

// Replaying a prefix of a record rebuilds every intermediate state.
func TestReplayPrefixes(t *testing.T) {
	for _, system := range []string{SystemSpeed, SystemCounter} {
		t.Run(system, func(t *testing.T) {
			rec := playthrough(t, 3, system, 42, nil, 0)
			enginetest.ReplayPrefixes(t, Game{}, rec, 1, func(a, b engine.State) bool {
				return dump(a.(*state)) == dump(b.(*state))
			})
		})
	}
}

// Bots alone always finish a game.
func TestBotsFinish(t *testing.T) {
	games := 30
	if testing.Short() || raceEnabled {
		games = 4
	}
	for _, system := range []string{SystemSpeed, SystemCounter} {
		for n := 2; n <= 4; n++ {
			for g := range games {
				levels := make([]string, n)
				for i := range levels {
					levels[i] = []string{LevelStrong, LevelEasy}[(g+i)%2]
				}
				playBots(t, system, uint64(g), levels)
			}
		}
	}
}

func FuzzApply(f *testing.F) {
	f.Add([]byte(`{"order":{"x1":3}}`), uint8(0), int8(0), uint8(0))
	f.Add([]byte(`{"play":{"data":4,"hack":2,"to":1}}`), uint8(1), int8(1), uint8(1))
	f.Add([]byte(`{"decode":{"target":1,"code":"F98"}}`), uint8(2), int8(2), uint8(2))
	f.Add([]byte(`{"tap":true}`), uint8(0), int8(-1), uint8(3))
	f.Add([]byte(`{"timeout":{"claim":1}}`), uint8(1), int8(-1), uint8(3))
	f.Add([]byte(`{"reveal":{"pos":2}}`), uint8(2), int8(0), uint8(4))
	f.Fuzz(func(t *testing.T, data []byte, players uint8, seat int8, stage uint8) {
		n := 2 + int(players%3)
		system := SystemSpeed
		if stage%2 == 1 {
			system = SystemCounter
		}
		s := newState(config{system: system, answerMillis: 1000, sheet: true}, make([]engine.Player, n), uint64(players))
		// Bring the game to one of several stages before the fuzzed bytes.
		rng := rand.New(rand.NewPCG(uint64(stage), 1))
		for range int(stage) * 6 {
			if s.phase == Finished {
				break
			}
			who, a := randomAction(rng, s)
			if _, err := s.Apply(who, a); err != nil {
				t.Fatalf("prep move %s refused: %v", a, err)
			}
		}
		before := dump(s)
		if _, err := s.Apply(engine.Seat(seat), data); err != nil {
			if !engine.IsIllegal(err) {
				t.Fatalf("error is not a refusal: %v", err)
			}
			if dump(s) != before {
				t.Fatal("refused action changed the state")
			}
		}
		_ = s.View(engine.SeatViewer(engine.Seat(seat)))
		_ = s.View(engine.Spectator())
	})
}
