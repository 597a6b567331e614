package whattherule

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/rulelang"
)

// playBots plays a game in which every seat is a bot and returns it. It
// fails if the game stalls: someone must act, and the bots of every active
// seat together produce a move.
func playBots(t testing.TB, seed uint64, levels []string, opts engine.Options) *state {
	t.Helper()
	return playBotsChecked(t, seed, levels, opts, nil)
}

// playBotsChecked is playBots that shows check every bot move with the view
// it was chosen from.
func playBotsChecked(t testing.TB, seed uint64, levels []string, opts engine.Options, check func(v View, act []byte)) *state {
	t.Helper()
	n := len(levels)
	players := make([]engine.Player, n)
	bots := make([]*Bot, n)
	for i := range players {
		players[i] = engine.Player{Name: fmt.Sprintf("b%d", i), Bot: true}
		bots[i] = &Bot{Seat: engine.Seat(i), Level: levels[i], Seed: seed*16 + uint64(i)}
	}
	st, _, err := engine.Start(Game{}, opts, players, seed)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*state)
	for step := 0; s.phase != Finished; step++ {
		if step > 3000 {
			t.Fatalf("seed %d: bots did not finish", seed)
		}
		moved := false
		for _, a := range s.Status().Active {
			v := s.View(engine.SeatViewer(a))
			act, err := bots[a].Act(v)
			if err != nil {
				t.Fatalf("seed %d: bot %d: %v", seed, a, err)
			}
			if act == nil {
				continue
			}
			if check != nil {
				check(v.(View), act)
			}
			if _, err := s.Apply(a, act); err != nil {
				t.Fatalf("seed %d: bot %d in %v chose %s: %v", seed, a, s.phase, act, err)
			}
			moved = true
			break
		}
		if !moved {
			t.Fatalf("seed %d: no bot acts in %v (active %v)", seed, s.phase, s.Status().Active)
		}
		checkConserved(t, s)
	}
	return s
}

func TestBotsPlayWholeGames(t *testing.T) {
	games := 24
	if testing.Short() || raceEnabled {
		games = 8
	}
	rounds, found, hints, turns := 0, 0, 0, 0
	for g := range games {
		n := 3 + g%4
		levels := make([]string, n)
		for i := range levels {
			levels[i] = LevelStrong
			if (g+i)%3 == 0 {
				levels[i] = LevelEasy
			}
		}
		s := playBots(t, uint64(g+1), levels, engine.Options{OptRounds: "2"})
		for _, h := range s.history {
			rounds++
			if h.Reason == EndGuessed {
				found++
				turns += h.Turns
			}
			if h.Hints {
				hints++
			}
		}
	}
	t.Logf("bots found %d of %d rules, in %.1f turns on average; hints in %d rounds", found, rounds, float64(turns)/float64(max(1, found)), hints)
	if found*10 < rounds*7 {
		t.Errorf("bots found only %d of %d library rules", found, rounds)
	}
}

// A bot game master gives graded hints: first what the rule reads, then examples.
func TestBotGameMasterGivesGradedHints(t *testing.T) {
	s := newTest(t, 3, 4, nil)
	gm := s.r.gm
	bot := &Bot{Seat: gm, Level: LevelStrong, Seed: 1}
	act, _ := bot.Act(s.View(engine.SeatViewer(gm)))
	must(t, s, gm, act)
	if s.r.mode != Machine || !s.r.library {
		t.Fatal("a bot game master draws a library rule")
	}
	must(t, s, s.r.toMove, ProposeHintsAction())
	for _, a := range s.active() {
		if a == gm {
			act, _ := bot.Act(s.View(engine.SeatViewer(gm)))
			must(t, s, gm, act)
		} else {
			must(t, s, a, VoteAction(true))
		}
	}
	if !s.r.hintsOn {
		t.Fatal("hints not on")
	}
	for i := 0; i < 3; i++ {
		if a, _ := bot.Act(s.View(engine.SeatViewer(gm))); string(a) != string(AnnounceAction()) {
			t.Fatalf("hint %d: bot game master does %s, want an announcement", i, a)
		}
		must(t, s, gm, AnnounceAction())
		for _, a := range s.active() {
			must(t, s, a, VoteAction(true))
		}
		a, _ := bot.Act(s.View(engine.SeatViewer(gm)))
		must(t, s, gm, a)
		// A lap of turns before the next one is due.
		for range s.n {
			p := s.r.toMove
			must(t, s, p, PlayAction(s.r.hands[p][0]))
			if s.phase == GuessOffer {
				must(t, s, p, NoGuessAction())
			}
		}
	}
	h := s.r.hints
	if len(h) != 3 || !containsAny(h[0], "shape", "colour", "filled", "how many") || !containsAny(h[1], "would fit") || !containsAny(h[2], "would not") {
		t.Fatalf("hints are not graded: %q", h)
	}
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// A bot that inherits a free rule it cannot judge calls the round off.
func TestBotCallsOffAFreeRule(t *testing.T) {
	s := newTest(t, 3, 4, nil)
	gm := s.r.gm
	must(t, s, gm, FreeAction("only cards I like"))
	p := s.r.toMove
	must(t, s, p, PlayAction(s.r.hands[p][0]))
	bot := &Bot{Seat: gm, Level: LevelStrong, Seed: 1}
	a, err := bot.Act(s.View(engine.SeatViewer(gm)))
	if err != nil || string(a) != string(CallOffAction()) {
		t.Fatalf("bot game master with a free rule: %s %v", a, err)
	}
	must(t, s, gm, a)
	if s.history[0].Reason != EndCalledOff {
		t.Fatal("round not called off")
	}
}

// Player bots keep only hypotheses that fit every verdict, and guess the
// simplest after a right play.
func TestBotGuessesTheSimplestConsistentRule(t *testing.T) {
	s, _, p := started(t, "color == white", nil)
	w := cardID(t, "circle", 2, true, "white", 0)
	setHand(t, s, p[0], w, cardID(t, "square", 5, false, "white", 0), cardID(t, "triangle", 3, false, "white", 0))
	must(t, s, p[0], PlayAction(w))
	bot := &Bot{Seat: p[0], Level: LevelStrong, Seed: 3}
	v := s.View(engine.SeatViewer(p[0])).(View)
	cands := bot.consistent(v)
	if len(cands) == 0 || cands[0].grade != Easy {
		t.Fatalf("candidates %d", len(cands))
	}
	for _, h := range cands {
		if !h.rule.Accepts(nil, CardOf(w).Face()) {
			t.Fatalf("%s does not accept the played card", h.rule)
		}
	}
	a, _ := bot.Act(v)
	if string(a) != string(GuessAction(cands[0].rule.String())) {
		t.Fatalf("bot did %s, want a guess of %s", a, cands[0].rule)
	}
	if _, err := (&Bot{Seat: p[0], Level: LevelStrong}).Act(42); err == nil {
		t.Fatal("a wrong view type must be an error")
	}
	if a, _ := (&Bot{Seat: p[1], Level: LevelStrong}).Act(s.View(engine.SeatViewer(p[1]))); a != nil {
		t.Fatalf("idle bot acted: %s", a)
	}
}

// ruleBlunder says how a player bot's move throws points away in a way the
// table makes plain, or "": playing a card that every rule still possible
// rejects (the bot's hypotheses: the library and simple rules that agree
// with every verdict), when another card might fit or, none fitting, the
// hand could be revealed; or guessing a rule already guessed wrong.
func ruleBlunder(v View, act []byte) string {
	var a Action
	if err := json.Unmarshal(act, &a); err != nil {
		return "unreadable move"
	}
	if v.GM == v.Viewer.Seat {
		return ""
	}
	cands := (&Bot{}).consistent(v)
	if a.Guess != nil && v.Mode == Machine {
		if r, err := rulelang.Parse(attrs, a.Guess.Text); err == nil && guessedWrong(r, v) {
			return "guessed a rule already guessed wrong"
		}
	}
	if a.Play == nil || len(cands) == 0 {
		return ""
	}
	line := cardFaces(v.Line)
	fits := func(c Card) bool {
		for _, h := range cands {
			if h.rule.Accepts(line, c.Face()) {
				return true
			}
		}
		return false
	}
	i := slices.IndexFunc(v.Hand, func(c Card) bool { return c.ID == a.Play.Card })
	if i < 0 || fits(v.Hand[i]) {
		return ""
	}
	if slices.ContainsFunc(v.Hand, fits) {
		return "played a card no possible rule accepts while another might fit"
	}
	return "played a card no possible rule accepts instead of revealing a hand where none fits"
}

// Player bots of both levels never throw points away in a way the table
// makes plain.
func TestBotsDoNotThrowTheGame(t *testing.T) {
	games := 8
	if testing.Short() || raceEnabled {
		games = 3
	}
	for _, level := range []string{LevelStrong, LevelEasy} {
		for g := range games {
			n := 3 + g%3
			levels := make([]string, n)
			for i := range levels {
				levels[i] = level
			}
			seed := uint64(700 + g)
			playBotsChecked(t, seed, levels, engine.Options{OptRounds: "1"}, func(v View, act []byte) {
				if b := ruleBlunder(v, act); b != "" {
					t.Errorf("%s bot, seed %d, round %d, seat %d: %s (%s)", level, seed, v.Round, v.Viewer.Seat, b, act)
				}
			})
		}
	}
}

// A free guess that ends its sentence gets no second full stop.
func TestFreeGuessNarrationPunctuation(t *testing.T) {
	s := newTest(t, 3, 4, nil)
	gm := s.r.gm
	must(t, s, gm, FreeAction("only cards I like"))
	p := s.r.toMove
	must(t, s, p, PlayAction(s.r.hands[p][0]))
	must(t, s, gm, JudgeAction(true))
	for _, e := range must(t, s, p, GuessAction("The count is not 1.")) {
		if strings.Contains(e.Text, `.".`) || !strings.Contains(e.Text, `"The count is not 1."`) {
			t.Errorf("guess narrated as %q", e.Text)
		}
	}
}
