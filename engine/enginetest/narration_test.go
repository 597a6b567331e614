package enginetest_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/engine/coding"
	"github.com/codebreakers/codebreakers/engine/enginetest"
	"github.com/codebreakers/codebreakers/engine/ifthen"
	"github.com/codebreakers/codebreakers/engine/whattherule"
)

// allGames is every game, for tests that hold all of them to one standard.
func allGames() []engine.Game {
	return []engine.Game{breakcode.Game{}, coding.Game{}, ifthen.Game{}, whattherule.Game{}}
}

// badCount finds a count of one with a plural noun ("1 cards", "1 Invalid
// cards"), and a plural verb after one ("1 of 3 rules were").
var badCount = regexp.MustCompile(`(^|[\s(:])1 (([A-Z][a-z]+|more|other) )?(cards|points|turns|tiles|players|games|tables|seconds|minutes|guesses|hints|rounds|sets|hands|votes|bots|seats|moves)\b|\b1 of \d+ \w+ were\b`)

// TestNarrationCountsReadRight plays seeded bot games of every game and
// checks that no event and no result says "1 cards" and the like.
func TestNarrationCountsReadRight(t *testing.T) {
	for _, g := range allGames() {
		info := g.Info()
		for n := info.MinPlayers; n <= min(info.MaxPlayers, 4); n++ {
			for _, level := range info.BotLevels {
				for seed := range uint64(3) {
					p := enginetest.PlayBots(t, g, nil, n, level, seed*7919+uint64(n), 5000)
					for _, e := range p.Events {
						if badCount.MatchString(e.Text) {
							t.Errorf("%s (%d players, %s, seed %d): event %q", info.ID, n, level, seed, e.Text)
						}
					}
					if badCount.MatchString(p.Result.Summary) {
						t.Errorf("%s: result %q", info.ID, p.Result.Summary)
					}
				}
			}
		}
	}
}

func TestBadCountCatchesWhatItShould(t *testing.T) {
	for _, s := range []string{"Bo must draw 1 cards.", "1 Invalid cards leave", "in 1 turns.", "1 of 3 rules were found"} {
		if !badCount.MatchString(s) {
			t.Errorf("badCount misses %q", s)
		}
	}
	for _, s := range []string{"Bo must draw 1 card.", "11 cards", "Round 1 of 3", "draws 1 of 2 cards", "card 1 fits", "p1 votes for more"} {
		if badCount.MatchString(s) {
			t.Errorf("badCount flags %q", s)
		}
	}
}

// TestPrivateEventsSayWhose plays seeded bot games of every game and checks
// that the omniscient replay never reads a private event in the second
// person ("You drew …"): each says whose it is, while the seat it belongs
// to still reads it as its own.
func TestPrivateEventsSayWhose(t *testing.T) {
	you := regexp.MustCompile(`\b(You|Your|you|your)\b`)
	for _, g := range allGames() {
		info := g.Info()
		for n := info.MinPlayers; n <= min(info.MaxPlayers, 4); n++ {
			opts := engine.Options{}
			if info.ID == "ifthen" && n >= 3 {
				opts["allknowing"] = "mastermind"
			}
			p := enginetest.PlayBots(t, g, opts, n, info.BotLevels[0], uint64(n)*31+7, 5000)
			private := 0
			for _, e := range p.Events {
				if len(e.Seats) == 0 {
					continue
				}
				private++
				omni := engine.FilterEvents([]engine.Event{e}, engine.Omniscient())[0].Text
				if you.MatchString(omni) {
					t.Errorf("%s: a replay reads %q: it must say whose it is", info.ID, omni)
				}
				own := engine.FilterEvents([]engine.Event{e}, engine.SeatViewer(e.Seats[0]))[0]
				if own.Text != e.Text || own.Others != "" {
					t.Errorf("%s: seat %d reads %q (others %q), want its own %q", info.ID, e.Seats[0], own.Text, own.Others, e.Text)
				}
			}
			if private == 0 && info.ID != "breakcode" {
				t.Errorf("%s %d players: no private event to check", info.ID, n)
			}
		}
	}
}

// TestNoDoubleFullStops: no narration ends a quoted sentence with a second
// full stop ("guesses: "It is red.".").
func TestNoDoubleFullStops(t *testing.T) {
	for _, g := range allGames() {
		info := g.Info()
		for _, level := range info.BotLevels {
			p := enginetest.PlayBots(t, g, nil, min(info.MaxPlayers, 3), level, 77, 5000)
			for _, e := range p.Events {
				if strings.Contains(e.Text, `.".`) || strings.Contains(e.Text, "..") && !strings.Contains(e.Text, "...") {
					t.Errorf("%s: %q", info.ID, e.Text)
				}
			}
		}
	}
}
