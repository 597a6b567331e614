package ifthen

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/enginetest"
)

// randomAction picks a move for one of the seats that may act. It peeks at
// the Code so that right guesses (and so every way of ending) happen; it may
// be refused (a hint the team cannot afford, a discard under Silence).
func randomAction(rng *rand.Rand, s *state) (engine.Seat, []byte) {
	active := s.Status().Active
	seat := active[rng.IntN(len(active))]
	hand := len(s.hands[seat])
	switch s.phase {
	case Setup:
		return seat, SetupAction(rng.IntN(2), rng.IntN(2) == 0)
	case RevealEvent:
		return seat, RevealAction("event")
	case RevealHint:
		return seat, RevealAction("hint")
	case MastermindTurn:
		if rng.IntN(2) == 0 && len(s.market) > 0 {
			return seat, SwapAction(rng.IntN(hand), rng.IntN(len(s.market)), rng.IntN(2))
		}
		return seat, CycleAction(rng.IntN(hand))
	case Vote:
		return seat, VoteAction(rng.IntN(4) != 0)
	case PassLeft:
		return seat, PassAction(rng.IntN(hand))
	case Penalty:
		if rng.IntN(3) == 0 {
			return seat, ProposeAction(Proposal{Kind: ProposeSecondChance})
		}
		var m []int
		for _, i := range rng.Perm(len(s.market)) {
			if len(m) < s.owed && rng.IntN(3) == 0 {
				m = append(m, i)
			}
		}
		for i := 0; s.owed-len(m) > len(s.deck); i++ {
			if !slices.Contains(m, i) {
				m = append(m, i)
			}
		}
		return seat, DrawAction(m...)
	}
	// A Code Breaker's turn: anyone may propose; the mover plays or discards.
	if rng.IntN(10) == 0 {
		b := s.breakers[rng.IntN(len(s.breakers))]
		switch rng.IntN(5) {
		case 0:
			return b, ProposeAction(Proposal{Kind: ProposeHint})
		case 1:
			return b, ProposeAction(Proposal{Kind: ProposeFreeHint})
		case 2:
			if h := len(s.hands[b]); h > 0 {
				return b, ProposeAction(Proposal{Kind: ProposeLuckyDraw, Card: rng.IntN(h)})
			}
		case 3:
			return b, ProposeAction(Proposal{Kind: ProposeGuess, Text: Challenges()[s.challenge].Text})
		default:
			return b, ProposeAction(Proposal{Kind: ProposeGuess, Text: Challenges()[rng.IntN(124)].Text})
		}
	}
	if rng.IntN(4) == 0 {
		return seat, DiscardAction(rng.IntN(hand))
	}
	return seat, PlayAction(rng.IntN(hand), rng.IntN(2))
}

// illegalAction returns a move that must be refused.
func illegalAction(rng *rand.Rand, s *state) (engine.Seat, []byte) {
	active := s.Status().Active
	switch rng.IntN(7) {
	case 0:
		for i := range s.n {
			if !slices.Contains(active, engine.Seat(i)) && (s.phase != Turn || s.toMove != engine.Seat(i)) {
				return engine.Seat(i), PlayAction(0, 0)
			}
		}
		return engine.System, PlayAction(0, 0)
	case 1:
		return active[0], PlayAction(99, 0)
	case 2:
		return active[0], []byte(`{"play":{"card":0,"up":0},"discard":{"card":0}}`)
	case 3:
		return engine.System, RevealAction("event")
	case 4:
		return active[0], []byte(`{"play":{"card":0,"up":0,"sideways":1}}`)
	case 5:
		return active[0], ProposeAction(Proposal{Kind: "bribe"})
	default:
		b := make([]byte, rng.IntN(20))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return active[0], b
	}
}

// reshuffleHidden returns a copy of s in which everything the viewer cannot
// see is changed: unseen cards are dealt again, the Event deck is reordered,
// and (for all but the All Knowing) the Code and loyalty are swapped.
func reshuffleHidden(rng *rand.Rand, s *state, viewer engine.Viewer) *state {
	c := s.clone()
	groups := []*[]int{&c.deck, &c.aside, &c.akDeck}
	for i := range c.hands {
		if !viewer.IsSeat(engine.Seat(i)) {
			groups = append(groups, &c.hands[i])
		}
	}
	var pool []int
	for _, g := range groups {
		pool = append(pool, *g...)
	}
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for _, g := range groups {
		k := len(*g)
		*g = slices.Clone(pool[:k])
		pool = pool[k:]
	}
	rng.Shuffle(len(c.events), func(i, j int) { c.events[i], c.events[j] = c.events[j], c.events[i] })
	c.seed = rng.Uint64()
	if !(s.ak >= 0 && viewer.IsSeat(s.ak)) {
		level := challengeIndexes(s.level)
		if c.challenge >= 0 {
			c.challenge = level[rng.IntN(len(level))]
		}
		c.offered = [2]int{level[rng.IntN(len(level))], level[rng.IntN(len(level))]}
		c.loyal = rng.IntN(2) == 0
	}
	return c
}

// checkHidden fails if a Code Breaker or a spectator can see the Code, the
// Mastermind's loyalty or cards that are not theirs.
func checkHidden(t *testing.T, s *state) {
	t.Helper()
	viewers := []engine.Viewer{engine.Spectator()}
	for _, b := range s.breakers {
		viewers = append(viewers, engine.SeatViewer(b))
	}
	for _, v := range viewers {
		view := s.View(v).(View)
		if s.phase != Finished && (view.Challenge != nil || view.Offered != nil || view.Loyal != nil) {
			t.Fatalf("%+v sees the Code or the loyalty", v)
		}
		for i, sv := range view.Seats {
			if sv.Hand != nil && !v.IsSeat(engine.Seat(i)) {
				t.Fatalf("%+v sees seat %d's hand", v, i)
			}
		}
	}
}

func checkNoninterference(t *testing.T, rng *rand.Rand, s *state, seat engine.Seat, action []byte) {
	t.Helper()
	viewers := []engine.Viewer{engine.Spectator()}
	for i := range s.n {
		viewers = append(viewers, engine.SeatViewer(engine.Seat(i)))
	}
	v := viewers[rng.IntN(len(viewers))]
	other := reshuffleHidden(rng, s, v)
	if a, b := enginetest.ViewJSON(t, s, v), enginetest.ViewJSON(t, other, v); a != b {
		t.Fatalf("view of %+v depends on hidden things:\n%s\n%s", v, a, b)
	}
	a := s.clone()
	evA, errA := a.Apply(seat, action)
	evB, errB := other.Apply(seat, action)
	if engine.IsIllegal(errA) != engine.IsIllegal(errB) && enginetest.EventsJSON(t, evA, engine.Spectator()) == enginetest.EventsJSON(t, evB, engine.Spectator()) {
		// Legality may depend on hidden cards only through what the viewer
		// cannot know (the deck size is public, so this is a real leak).
		if errA != nil && errB != nil {
			return
		}
	}
	// Cards a seat draws or is handed are theirs to learn.
	learned := func(evs []engine.Event) []engine.Event {
		return slices.DeleteFunc(slices.Clone(evs), func(e engine.Event) bool { return e.Kind == "draw_private" || e.Kind == "pass" })
	}
	evA, evB = learned(evA), learned(evB)
	if enginetest.EventsJSON(t, evA, engine.Spectator()) == enginetest.EventsJSON(t, evB, engine.Spectator()) &&
		enginetest.EventsJSON(t, evA, v) != enginetest.EventsJSON(t, evB, v) {
		t.Fatalf("events seen by %+v depend on hidden things:\n%s\n%s", v,
			enginetest.EventsJSON(t, evA, v), enginetest.EventsJSON(t, evB, v))
	}
}

// playthrough plays one seeded game to the end, checking invariants after
// every move, and returns its record.
func playthrough(t *testing.T, n int, mode string, level int, seed uint64, bots map[engine.Seat]string, checks int) engine.Record {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	players := enginetest.Players(n)
	for i := range players {
		_, players[i].Bot = bots[engine.Seat(i)]
	}
	opts := engine.Options{"level": fmt.Sprint(level), "allknowing": mode}
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
	checkConserved(t, s)
	for step := 0; s.phase != Finished; step++ {
		if step > 2000 {
			t.Fatalf("seed %d: game did not end after %d moves (phase %v)", seed, step, s.phase)
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
		active := s.Status().Active
		if len(active) == 0 {
			t.Fatalf("seed %d: nobody may act in phase %v", seed, s.phase)
		}
		var seat engine.Seat
		var action []byte
		fromBot := false
		for _, a := range active {
			if b, ok := botOf[a]; ok {
				seat, fromBot = a, true
				action, err = b.Act(s.View(engine.SeatViewer(a)))
				if err != nil || action == nil {
					t.Fatalf("seed %d: bot for seat %d in %v: %s, %v", seed, a, s.phase, action, err)
				}
				break
			}
		}
		for other, ob := range botOf {
			if !slices.Contains(active, other) {
				if a, err := ob.Act(s.View(engine.SeatViewer(other))); a != nil || err != nil {
					t.Fatalf("seed %d: idle bot %d acted: %s %v", seed, other, a, err)
				}
			}
		}
		if action == nil {
			seat, action = randomAction(rng, s)
		}
		if checkAt[step] {
			checkNoninterference(t, rng, s, seat, action)
		}
		before := omniJSON(t, s)
		evs, err := s.Apply(seat, action)
		if err != nil {
			if !engine.IsIllegal(err) || fromBot {
				t.Fatalf("seed %d: move %s by %d in %v refused: %v", seed, action, seat, s.phase, err)
			}
			if omniJSON(t, s) != before {
				t.Fatalf("seed %d: refused move %s changed the state", seed, action)
			}
			continue
		}
		all = append(all, evs...)
		code := Challenges()[max(s.challenge, 0)].Rule().English()
		for _, e := range evs {
			if e.Kind != "end" && e.Kind != "propose" && strings.Contains(e.Text, code) && (len(e.Seats) != 1 || e.Seats[0] != s.ak) {
				t.Fatalf("seed %d: event %q tells the Code to %v", seed, e.Text, e.Seats)
			}
		}
		rec.Moves = append(rec.Moves, engine.Move{Seat: seat, Action: action})
		checkConserved(t, s)
		checkHidden(t, s)
	}
	// Replaying the log rebuilds the same state and the same narration.
	replayed, evs, err := engine.Replay(engine.NewRegistry(Game{}), rec, -1)
	if err != nil {
		t.Fatalf("seed %d: replay: %v", seed, err)
	}
	if got, want := omniJSON(t, replayed.(*state)), omniJSON(t, s); got != want {
		t.Fatalf("seed %d: replay differs:\n%s\n%s", seed, got, want)
	}
	if !reflect.DeepEqual(replayed.(*state), s) {
		t.Fatalf("seed %d: replayed state differs inside", seed)
	}
	if enginetest.EventsJSON(t, evs, engine.Omniscient()) != enginetest.EventsJSON(t, all, engine.Omniscient()) {
		t.Fatalf("seed %d: replayed events differ", seed)
	}
	return rec
}

func TestRandomPlaythroughs(t *testing.T) {
	games := 60
	if testing.Short() || raceEnabled {
		games = 7
	}
	ends := map[string]int{}
	for _, mode := range []string{ModeServer, ModePlayer, ModeMastermind} {
		for n := 2; n <= 6; n++ {
			if mode == ModeMastermind && n < 3 {
				continue
			}
			for g := range games {
				seed := uint64(n*100_000 + g + len(mode)*10_000_000)
				level := g % 4
				bots := map[engine.Seat]string{}
				if g%2 == 0 {
					for i := range n {
						if (i+g)%3 != 0 {
							bots[engine.Seat(i)] = []string{LevelStrong, LevelEasy}[(g/2+i)%2]
						}
					}
				}
				rec := playthrough(t, n, mode, level, seed, bots, 2)
				st, _, err := engine.Replay(engine.NewRegistry(Game{}), rec, -1)
				if err != nil {
					t.Fatal(err)
				}
				r, _ := st.Result()
				switch {
				case strings.Contains(r.Summary, "guessed"):
					ends["guessed"]++
				case strings.Contains(r.Summary, "emptied"):
					ends["emptied"]++
				default:
					ends["lost"]++
				}
			}
		}
	}
	t.Logf("endings %v", ends)
	if ends["guessed"] == 0 || ends["emptied"] == 0 || ends["lost"] == 0 {
		t.Errorf("endings not all exercised: %v", ends)
	}
}

// Replaying a prefix of a record rebuilds every intermediate state.
func TestReplayPrefixes(t *testing.T) {
	rec := playthrough(t, 4, ModeMastermind, 2, 42, map[engine.Seat]string{0: LevelStrong, 2: LevelEasy}, 0)
	enginetest.ReplayPrefixes(t, Game{}, rec, 1, func(a, b engine.State) bool {
		return omniJSON(t, a.(*state)) == omniJSON(t, b.(*state))
	})
}

func FuzzApply(f *testing.F) {
	f.Add([]byte(`{"play":{"card":0,"up":1}}`), uint8(0), int8(0))
	f.Add([]byte(`{"discard":{"card":2}}`), uint8(1), int8(1))
	f.Add([]byte(`{"propose":{"kind":"guess","text":"bg != prev.bg"}}`), uint8(2), int8(2))
	f.Add([]byte(`{"propose":{"kind":"hint"}}`), uint8(3), int8(0))
	f.Add([]byte(`{"draw":{"market":[0,1]}}`), uint8(4), int8(1))
	f.Add([]byte(`{"setup":{"challenge":1,"loyal":true}}`), uint8(5), int8(0))
	f.Add([]byte(`{"reveal":"event"}`), uint8(6), int8(0))
	f.Fuzz(func(t *testing.T, data []byte, cfg uint8, seat int8) {
		n := 3 + int(cfg%4)
		mode := []string{ModeServer, ModePlayer, ModeMastermind}[int(cfg/4)%3]
		s := newState(int(cfg/12)%4, mode, make([]engine.Player, n), uint64(cfg))
		// Try the bytes at the start and after an Invalid play (penalty).
		for _, prep := range [][]byte{nil, PlayAction(0, 0)} {
			c := s.clone()
			if prep != nil && c.phase == Turn {
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
			} else {
				checkConserved(t, c)
			}
			_ = c.View(engine.SeatViewer(engine.Seat(seat)))
		}
	})
}
