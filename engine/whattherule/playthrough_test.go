package whattherule

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/enginetest"
)

// freeRuleText is distinctive so tests can search for it in views and events.
const freeRuleText = "zebra quartz rule"

// randomAction picks a legal move for one of the seats that may act (or a
// timer). It peeks at hidden state so that every way of ending happens.
func randomAction(rng *rand.Rand, s *state) (engine.Seat, []byte) {
	r := &s.r
	if tm := s.Timer(); tm != nil && rng.IntN(40) == 0 {
		return engine.System, tm.Action
	}
	switch s.phase {
	case Setup:
		switch rng.IntN(10) {
		case 0, 1:
			return r.gm, FreeAction(freeRuleText)
		case 2:
			return r.gm, RuleAction([]string{"color == white", "count != prev.count", "if filled then count <= 3"}[rng.IntN(3)])
		case 3, 4:
			return r.gm, LibraryAction(rng.IntN(len(Library())))
		default:
			return r.gm, DrawAction(Grade(rng.IntN(5)))
		}
	case Turn:
		p := r.toMove
		switch k := rng.IntN(40); {
		case k == 0 && !r.hintsOn && r.proposed[p] == 0:
			return p, ProposeHintsAction()
		case k == 1 && r.hintsOn && len(r.hints) < maxHints:
			return r.gm, AnnounceAction()
		case k == 2 && r.mode == Free:
			return r.gm, CallOffAction()
		case k < 7:
			return p, RevealAction()
		}
		return p, PlayAction(r.hands[p][rng.IntN(len(r.hands[p]))])
	case GuessOffer:
		p := r.toMove
		switch k := rng.IntN(10); {
		case k == 0 && r.mode == Free:
			return p, GuessAction("maybe winter")
		case k == 0 && rng.IntN(4) == 0:
			return p, GuessAction(r.ruleText)
		case k < 4:
			return p, GuessAction([]string{"color == black", "shape != prev.shape", "count <= 3"}[rng.IntN(3)])
		}
		return p, NoGuessAction()
	case JudgePlay, JudgeGuess:
		if rng.IntN(30) == 0 {
			return r.gm, CallOffAction()
		}
		return r.gm, JudgeAction(rng.IntN(3) == 0)
	case JudgeReveal:
		if r.mode == Machine {
			fit := s.fittingInHand()
			return r.gm, LayAction(fit[rng.IntN(len(fit))])
		}
		if rng.IntN(2) == 0 {
			return r.gm, NoFitAction()
		}
		return r.gm, LayAction(r.revealed[rng.IntN(len(r.revealed))])
	case HintVote, HintCheck:
		act := s.active()
		return act[rng.IntN(len(act))], VoteAction(rng.IntN(6) != 0)
	case HintGive:
		if r.mode == Machine && rng.IntN(2) == 0 {
			return r.gm, AutoHintAction()
		}
		return r.gm, HintAction("look closely")
	}
	panic("no action in phase " + s.phase.String())
}

// illegalAction returns a move that must be refused.
func illegalAction(rng *rand.Rand, s *state) (engine.Seat, []byte) {
	r := &s.r
	switch rng.IntN(8) {
	case 0:
		return r.gm, PlayAction(r.deck[0])
	case 1:
		other := s.nextPlayer(r.toMove, r.gm)
		if other == r.toMove || s.phase == HintVote || s.phase == HintCheck {
			return r.toMove, []byte(`{}`)
		}
		return other, RevealAction()
	case 2:
		return engine.System, TimeoutAction(s.moves + 1)
	case 3:
		return r.toMove, []byte(`{"play":{"card":1},"reveal":true}`)
	case 4:
		return engine.Seat(s.n), NoGuessAction()
	case 5:
		return r.toMove, []byte(`{"play":{"card":1,"extra":2}}`)
	case 6:
		if s.phase != Setup {
			return r.gm, LibraryAction(0)
		}
		return r.gm, RuleAction("count >")
	default:
		b := make([]byte, rng.IntN(20))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return r.toMove, b
	}
}

// reshuffleHidden returns a copy of s in which every card the viewer cannot
// see (the pile, and the hands of seats other than the viewer and keep) is
// dealt again at random, and a free rule's words are replaced.
func reshuffleHidden(rng *rand.Rand, s *state, viewer engine.Viewer, keep engine.Seat) *state {
	c := s.clone()
	var pool []int
	var groups []*[]int
	groups = append(groups, &c.r.deck)
	for i := range c.r.hands {
		if !viewer.IsSeat(engine.Seat(i)) && engine.Seat(i) != keep && c.phase != JudgeReveal {
			groups = append(groups, &c.r.hands[i])
		}
	}
	for _, g := range groups {
		pool = append(pool, *g...)
	}
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for _, g := range groups {
		n := len(*g)
		*g = slices.Clone(pool[:n])
		pool = pool[n:]
	}
	if c.r.mode == Free && !viewer.IsSeat(c.r.gm) {
		c.r.ruleText = "a different secret altogether"
	}
	return c
}

// checkHidden fails if a viewer other than the game master can find the
// round's rule in their view.
func checkHidden(t *testing.T, s *state, v engine.Viewer) {
	t.Helper()
	if s.phase == Finished || v.IsSeat(s.r.gm) || s.r.mode == NoRule {
		return
	}
	view := s.View(v).(View)
	if view.Rule != nil || view.Fits != nil || view.Hands != nil {
		t.Fatalf("viewer %+v sees the rule or hands", v)
	}
	view.Rounds = nil // finished rounds show their rules, rightly
	raw, err := json.Marshal(view)
	if err != nil {
		t.Fatal(err)
	}
	js := string(raw)
	secret := []string{freeRuleText}
	if s.r.mode == Machine {
		secret = append(secret, s.machineRule().English())
		if s.r.title != "" {
			secret = append(secret, s.r.title)
		}
	}
	for _, x := range secret {
		if strings.Contains(js, x) {
			t.Fatalf("viewer %+v finds %q in the view", v, x)
		}
	}
}

// checkNoninterference deals the cards hidden from one viewer again (and
// swaps a free rule's words) and checks that the viewer's view does not
// change, nor the events the next move shows them where public events agree.
func checkNoninterference(t *testing.T, rng *rand.Rand, s *state, seat engine.Seat, action []byte) {
	t.Helper()
	viewers := []engine.Viewer{engine.Spectator()}
	for i := range s.n {
		viewers = append(viewers, engine.SeatViewer(engine.Seat(i)))
	}
	v := viewers[rng.IntN(len(viewers))]
	if v.IsSeat(s.r.gm) {
		v = engine.Spectator()
	}
	checkHidden(t, s, v)
	other := reshuffleHidden(rng, s, v, -1)
	if a, b := enginetest.ViewJSON(t, s, v), enginetest.ViewJSON(t, other, v); a != b {
		t.Fatalf("view of %+v depends on hidden cards:\n%s\n%s", v, a, b)
	}
	// Same move on both, the actor's own hand kept so it stays legal.
	keep := seat
	if seat == s.r.gm || seat == engine.System {
		keep = s.r.toMove
	}
	a, b := s.clone(), reshuffleHidden(rng, s, v, keep)
	evA, errA := a.Apply(seat, action)
	evB, errB := b.Apply(seat, action)
	if (errA == nil) != (errB == nil) {
		t.Fatalf("legality of %s depends on hidden cards: %v / %v", action, errA, errB)
	}
	// The player to move may draw from the reshuffled pile: theirs to learn.
	if !v.IsSeat(s.r.toMove) && enginetest.EventsJSON(t, evA, engine.Spectator()) == enginetest.EventsJSON(t, evB, engine.Spectator()) &&
		enginetest.EventsJSON(t, evA, v) != enginetest.EventsJSON(t, evB, v) {
		t.Fatalf("events seen by %+v depend on hidden cards:\n%s\n%s", v, enginetest.EventsJSON(t, evA, v), enginetest.EventsJSON(t, evB, v))
	}
	for _, e := range evA {
		if e.VisibleTo(v) && s.r.mode == Free && a.phase != Finished && len(a.history) == len(s.history) && strings.Contains(e.Text, freeRuleText) {
			t.Fatalf("%+v sees the free rule in %q", v, e.Text)
		}
	}
}

// sameState compares two states field by field (the parsed rule is a cache).
func sameState(a, b *state) bool {
	x, y := *a, *b
	x.r.rule, y.r.rule = nil, nil
	return reflect.DeepEqual(&x, &y)
}

// playthrough plays one seeded game to the end, checking invariants after
// every move, and returns its record.
func playthrough(t *testing.T, n int, seed uint64, opts engine.Options, bots map[engine.Seat]string, checks int) engine.Record {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	players := enginetest.Players(n)
	st, resolved, err := engine.Start(Game{}, opts, players, seed)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*state)
	rec := engine.Record{Game: ID, Options: resolved, Players: players, Seed: seed}
	botOf := enginetest.Bots(t, Game{}, seed, bots)
	checkAt := map[int]bool{}
	for range checks {
		checkAt[rng.IntN(120)] = true
	}
	var all []engine.Event
	for step := 0; s.phase != Finished; step++ {
		if step > 4000 {
			t.Fatalf("seed %d: game did not end after %d moves", seed, step)
		}
		if rng.IntN(10) == 0 {
			seat, bad := illegalAction(rng, s)
			before := omniJSON(t, s)
			if _, err := s.Apply(seat, bad); err == nil || !engine.IsIllegal(err) {
				t.Fatalf("seed %d: illegal move %s by %d in %v gave %v", seed, bad, seat, s.phase, err)
			}
			if omniJSON(t, s) != before {
				t.Fatalf("seed %d: refused move %s changed the state", seed, bad)
			}
		}
		seat, action := engine.Seat(-2), []byte(nil)
		for _, a := range s.Status().Active {
			if b, ok := botOf[a]; ok {
				act, err := b.Act(s.View(engine.SeatViewer(a)))
				if err != nil {
					t.Fatalf("seed %d: bot %d: %v", seed, a, err)
				}
				if act != nil {
					seat, action = a, act
					break
				}
			}
		}
		if action == nil {
			seat, action = randomAction(rng, s)
			if b, ok := botOf[seat]; ok && seat >= 0 {
				// A bot seat that passed on this phase: let a bot-free move happen.
				if act, _ := b.Act(s.View(engine.SeatViewer(seat))); act == nil && !slices.Contains(s.Status().Active, seat) {
					_ = act
				}
			}
		}
		if checkAt[step] {
			checkNoninterference(t, rng, s, seat, action)
		}
		evs, err := s.Apply(seat, action)
		if err != nil {
			t.Fatalf("seed %d: legal move %s by %d in %v refused: %v", seed, action, seat, s.phase, err)
		}
		all = append(all, evs...)
		rec.Moves = append(rec.Moves, engine.Move{Seat: seat, Action: action})
		checkConserved(t, s)
		if st := s.Status(); !st.Finished && len(st.Active) == 0 {
			t.Fatalf("seed %d: nobody may act in %v", seed, s.phase)
		}
	}
	reg := engine.NewRegistry(Game{})
	replayed, evs, err := engine.Replay(reg, rec, -1)
	if err != nil {
		t.Fatalf("seed %d: replay: %v", seed, err)
	}
	if !sameState(replayed.(*state), s) {
		t.Fatalf("seed %d: replayed state differs", seed)
	}
	if enginetest.EventsJSON(t, evs, engine.Omniscient()) != enginetest.EventsJSON(t, all, engine.Omniscient()) {
		t.Fatalf("seed %d: replayed events differ", seed)
	}
	return rec
}

func TestRandomPlaythroughs(t *testing.T) {
	games := 240
	if testing.Short() || raceEnabled {
		games = 40
	}
	ends := map[EndReason]int{}
	modes := map[Mode]int{}
	for g := range games {
		n := 2 + g%9
		seed := uint64(1000 + g)
		opts := engine.Options{}
		switch g % 4 {
		case 1:
			opts[OptTurnTime] = "30s"
		case 2:
			opts[OptPoints] = "off"
			opts[OptRounds] = "2"
		case 3:
			opts[OptRounds] = "1"
		}
		bots := map[engine.Seat]string{}
		if g%3 == 0 {
			bots[engine.Seat(g%n)] = []string{LevelStrong, LevelEasy}[g/3%2]
		}
		rec := playthrough(t, n, seed, opts, bots, 3)
		st, _, err := engine.Replay(engine.NewRegistry(Game{}), rec, -1)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range st.(*state).history {
			ends[h.Reason]++
			modes[h.Mode]++
		}
		if _, ok := st.Result(); !ok {
			t.Fatal("not finished")
		}
	}
	t.Logf("round endings %v, modes %v", ends, modes)
	for _, e := range []EndReason{EndGuessed, EndHandEmpty, EndDeckEmpty, EndCalledOff} {
		if ends[e] == 0 {
			t.Errorf("no round ended by %q: %v", e, ends)
		}
	}
}

// Replaying a prefix of a record rebuilds every intermediate state.
func TestReplayPrefixes(t *testing.T) {
	rec := playthrough(t, 4, 42, engine.Options{OptRounds: "1"}, nil, 0)
	// Every seventh prefix keeps the test quick: each replay starts from the deal.
	enginetest.ReplayPrefixes(t, Game{}, rec, 7, func(a, b engine.State) bool {
		return sameState(a.(*state), b.(*state))
	})
}

func FuzzApply(f *testing.F) {
	f.Add([]byte(`{"rule":{"text":"color == white"}}`), uint8(0), int8(0))
	f.Add([]byte(`{"draw":2}`), uint8(1), int8(1))
	f.Add([]byte(`{"free":{"text":"\u001b[31mred"}}`), uint8(2), int8(2))
	f.Add([]byte(`{"play":{"card":5}}`), uint8(3), int8(3))
	f.Add([]byte(`{"timeout":{"seq":0}}`), uint8(4), int8(-1))
	f.Add([]byte(`{"guess":{"text":"if if if"}}`), uint8(5), int8(1))
	f.Add([]byte(`{"propose_hints":true}`), uint8(6), int8(1))
	f.Fuzz(func(t *testing.T, data []byte, players uint8, seat int8) {
		n := 2 + int(players%9)
		s := newState(settings{Points: true, JudgeMilli: 1000}, make([]engine.Player, n), uint64(players))
		// Try the bytes at setup and in play under a machine and a free rule.
		for _, prep := range [][]byte{nil, DrawAction(0), FreeAction("x")} {
			c := s.clone()
			if prep != nil {
				if _, err := c.Apply(c.r.gm, prep); err != nil {
					t.Fatal(err)
				}
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
			checkConserved(t, c)
			_ = c.View(engine.SeatViewer(engine.Seat(seat)))
		}
	})
}
