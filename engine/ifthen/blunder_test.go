package ifthen

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/rulelang"
)

// blunder says how a Code Breaker's move throws the game in a way a
// beginner at the table would see, or "" when it does not. What the table
// knows is the Challenges of the level that agree with every public
// judgement and Hint (Candidates); "certainly" means under all of them.
//
//   - discarding a card that certainly has a Valid end;
//   - playing a certainly Invalid end while some other move might be right;
//   - an unsure move that would lose the game if wrong (the penalty is more
//     than the deck and the Market hold) while a certainly right move is in
//     hand;
//   - drawing a penalty while a kept Second Chance could take the card back;
//   - an unsure move while the team keeps a Lucky Draw (throw the card away
//     unjudged instead), or any move while it keeps a Free Hint and the Code
//     is not yet known;
//   - proposing, or agreeing to, a Code the table has already ruled out.
func blunder(v View, action []byte) string {
	var a Action
	if err := json.Unmarshal(action, &a); err != nil {
		return "unreadable move"
	}
	declined := func(kind string) bool { return slices.Contains(v.Declined, kind) }
	as := rulelang.IfThenAttributes()
	ruledOut := func(text string) bool {
		r, err := rulelang.Parse(as, text)
		return err != nil || !consistent(r, as, v)
	}
	switch v.Phase {
	case Penalty:
		if hasKeep(v, EventSecondChance) && v.TakeBack && !declined(ProposeSecondChance) &&
			(a.Propose == nil || a.Propose.Kind != ProposeSecondChance) {
			return "drew a penalty while the team kept a Second Chance"
		}
	case Vote:
		if a.Vote != nil && a.Vote.Yes && v.Proposal.Kind == ProposeGuess && ruledOut(v.Proposal.Text) {
			return "agreed to guess a Code the table has ruled out"
		}
	case Turn:
		if a.Propose != nil && a.Propose.Kind == ProposeGuess && ruledOut(a.Propose.Text) {
			return "proposed a Code the table has ruled out"
		}
		if a.Play == nil && a.Discard == nil {
			return ""
		}
		return turnBlunder(v, a)
	}
	return ""
}

// certainty of one hand card under every candidate Challenge.
type certainty struct {
	valid, invalid [2]bool // the end is Valid (Invalid) under every candidate
	rightDiscard   bool    // neither end is Valid under any candidate
	wrongDiscard   bool    // under every candidate some end is Valid
}

func certainties(v View) []certainty {
	prev := []rulelang.Card{v.Line[len(v.Line)-1].Top.Rule()}
	out := make([]certainty, len(v.Hand))
	for i := range out {
		out[i] = certainty{valid: [2]bool{true, true}, invalid: [2]bool{true, true}, rightDiscard: true, wrongDiscard: true}
	}
	for _, c := range Candidates(v) {
		r := c.Rule()
		for i, card := range v.Hand {
			ok := [2]bool{r.Accepts(prev, card.A.Rule()), r.Accepts(prev, card.B.Rule())}
			for up := range 2 {
				out[i].valid[up] = out[i].valid[up] && ok[up]
				out[i].invalid[up] = out[i].invalid[up] && !ok[up]
			}
			out[i].rightDiscard = out[i].rightDiscard && !ok[0] && !ok[1]
			out[i].wrongDiscard = out[i].wrongDiscard && (ok[0] || ok[1])
		}
	}
	return out
}

func turnBlunder(v View, a Action) string {
	cs := certainties(v)
	silenced := v.Event != nil && v.Event.Kind == EventSilence
	sureExists, hopeExists := false, false
	for _, c := range cs {
		for up := range 2 {
			sureExists = sureExists || c.valid[up]
			hopeExists = hopeExists || !c.invalid[up]
		}
		if !silenced {
			sureExists = sureExists || c.rightDiscard
			hopeExists = hopeExists || !c.wrongDiscard
		}
	}
	var sure, hopeless bool
	if a.Discard != nil {
		c := cs[a.Discard.Card]
		if c.wrongDiscard {
			return "discarded a card that certainly has a Valid end"
		}
		sure, hopeless = c.rightDiscard, c.wrongDiscard
	} else {
		c := cs[a.Play.Card]
		sure, hopeless = c.valid[a.Play.Up], c.invalid[a.Play.Up]
		if hopeless && hopeExists {
			return "played a certainly Invalid end while another move might be right"
		}
	}
	_ = hopeless
	if !sure && sureExists && v.Penalty > v.Deck+len(v.Market) {
		return "gambled the game on an unsure move with a sure one in hand"
	}
	if !sure && hasKeep(v, EventLuckyDraw) && !slices.Contains(v.Declined, ProposeLuckyDraw) {
		return "made an unsure move while the team kept a Lucky Draw"
	}
	if hasKeep(v, EventFreeHint) && v.HintsOut < 2 && len(Candidates(v)) > 1 && !slices.Contains(v.Declined, ProposeFreeHint) {
		return "played on without the Free Hint the team kept"
	}
	return ""
}

// botGame plays one game with every seat a bot of level, checking each Code
// Breaker move with blunder; it returns whether the team won and the
// blunders seen.
func botGame(t *testing.T, n, lvl int, mode, level string, seed uint64) (won bool, blunders []string) {
	t.Helper()
	st, _, err := engine.Start(Game{}, engine.Options{"level": fmt.Sprint(lvl), "allknowing": mode}, players(n), seed)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*state)
	bots := make([]engine.Bot, n)
	for i := range bots {
		bots[i], _ = Game{}.NewBot(engine.Seat(i), level, seed*16+uint64(i))
	}
	for step := 0; !st.Status().Finished; step++ {
		if step > 3000 {
			t.Fatalf("%s bots, seed %d: the game did not end", level, seed)
		}
		seat := st.Status().Active[0]
		v := st.View(engine.SeatViewer(seat)).(View)
		act, err := bots[seat].Act(v)
		if err != nil || act == nil {
			t.Fatalf("%s bot %d in %v: %s %v", level, seat, v.Phase, act, err)
		}
		if !v.IsAllKnowing() {
			if b := blunder(v, act); b != "" {
				blunders = append(blunders, fmt.Sprintf("seed %d turn %d seat %d: %s (%s)", seed, v.Turn, seat, b, act))
			}
		}
		if _, err := st.Apply(seat, act); err != nil {
			t.Fatalf("%s bot %d move %s refused in %v: %v", level, seat, act, v.Phase, err)
		}
	}
	r, _ := st.Result()
	return len(s.breakers) > 0 && r.Won(s.breakers[0]), blunders
}

// Teams of bots at every level, over seeded games of every size, level and
// mode, never make a move a beginner would call throwing the game.
func TestBotsDoNotThrowTheGame(t *testing.T) {
	seeds := 3
	if testing.Short() || raceEnabled {
		seeds = 1
	}
	for _, level := range []string{LevelStrong, LevelEasy} {
		games, won := 0, 0
		var all []string
		for n := 2; n <= 5; n++ {
			for lvl := range 4 {
				for _, mode := range []string{ModeServer, ModePlayer, ModeMastermind} {
					if mode == ModeMastermind && n < 3 {
						continue
					}
					for k := range seeds {
						seed := uint64(1000*n + 100*lvl + 10*k + len(mode))
						w, bs := botGame(t, n, lvl, mode, level, seed)
						games++
						if w {
							won++
						}
						all = append(all, bs...)
					}
				}
			}
		}
		t.Logf("%s bots: %d blunders in %d games, %d won", level, len(all), games, won)
		for i, b := range all {
			if i == 10 {
				t.Errorf("… and %d more", len(all)-10)
				break
			}
			t.Errorf("%s bot: %s", level, b)
		}
	}
}
