package ifthen

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/enginetest"
)

// legacyGame is a Level 3 game recorded by the code before the Challenges
// were rewritten (testdata/legacy_records.json, made at commit 93019c6),
// on one of the Challenges that changed: its record, how it ended, the
// Challenge and every judgement.
type legacyGame struct {
	Note      string        `json:"note"`
	Record    engine.Record `json:"record"`
	Result    engine.Result `json:"result"`
	Challenge string        `json:"challenge"` // id and text
	Valid     []bool        `json:"valid"`     // each judgement in order
}

// Games recorded before rules revisions existed replay exactly as they
// were played, judged by the Challenges as first written; live logs
// resumed halfway go on under them. Under the new Challenges the same
// moves would be judged differently.
func TestLegacyRecordsReplay(t *testing.T) {
	var games []legacyGame
	enginetest.ReadJSON(t, "testdata/legacy_records.json", &games)
	if len(games) == 0 {
		t.Fatal("no legacy records")
	}
	reg := engine.NewRegistry(Game{})
	diverged := 0
	for i, g := range games {
		if _, ok := g.Record.Options[engine.RulesOption]; ok {
			t.Fatalf("legacy record %d names a rules revision", i)
		}
		st, _, err := engine.Replay(reg, g.Record, -1)
		if err != nil {
			t.Fatalf("legacy record %d: %v", i, err)
		}
		s := st.(*state)
		c := s.challengeOf(s.challenge)
		r, done := s.Result()
		if !done || !enginetest.SameEnd(r, g.Result) || c.ID+" "+c.Text != g.Challenge || !slices.Equal(judged(s), g.Valid) {
			t.Fatalf("legacy record %d replays to %+v on %s %s, judgements %v; it ended %+v on %s, judgements %v",
				i, r, c.ID, c.Text, judged(s), g.Result, g.Challenge, g.Valid)
		}
		if v := s.View(engine.Omniscient()).(View); !v.FirstRules || v.Challenge.Text == Challenges()[s.challenge].Rule().String() {
			t.Fatalf("legacy record %d: the view shows %+v", i, v.Challenge)
		}
		half := g.Record
		half.Moves = half.Moves[:len(half.Moves)/2]
		hs, _, err := engine.Replay(reg, half, -1)
		if err != nil || !hs.(*state).firstRules {
			t.Fatalf("legacy record %d, first half: %v", i, err)
		}
		now := g.Record
		now.Options = maps.Clone(g.Record.Options)
		now.Options[engine.RulesOption] = RulesTwoHints
		ns, _, err := engine.Replay(reg, now, -1)
		if err != nil || !slices.Equal(judged(ns.(*state)), g.Valid) {
			diverged++
		}
	}
	if diverged == 0 {
		t.Fatal("no legacy record plays differently under the new Challenges: the test would not notice a lost revision")
	}
	// One of them is 3-37 as first written, which compared a sum with 10.
	if !slices.ContainsFunc(games, func(g legacyGame) bool { return strings.Contains(g.Challenge, "== 10") }) {
		t.Fatal("no legacy record plays the first 3-37")
	}
}

func judged(s *state) []bool {
	var out []bool
	for _, j := range s.history {
		out = append(out, j.valid)
	}
	return out
}
