package whattherule

import (
	"slices"

	"github.com/codebreakers/codebreakers/engine"
)

// Scoring constants, as the rulebook sets them.
const (
	baseScore     = 10 // each player: this minus the cards left in hand
	guessBonus    = 5  // naming the rule
	hintBonus     = 2  // naming the rule once the table chose to take hints
	minTurnsEach  = 2  // the game master's points halve if the rule falls sooner...
	minCardsLaid  = 10 // ...or before this many cards were played
	reasonTurns   = "found before everyone had two turns"
	reasonCards   = "found before ten cards were played"
	reasonUnfound = "nobody found the rule"
)

// ScoreInput is what a round's points depend on.
type ScoreInput struct {
	GM          engine.Seat
	Hands       []int       // cards left in hand per seat (the game master's is ignored)
	Guesser     engine.Seat // the seat that named the rule, or -1
	Hints       bool        // the table chose to take hints this round
	MinTurns    int         // the fewest turns any player (not the game master) took
	CardsPlayed int         // cards placed in or below the valid line
}

// Score returns each seat's points for a round and, when the game master's
// points were halved (rounded down), why. Every player scores 10 minus the
// cards left in hand, plus 5 for naming the rule (2 if hints were taken);
// the game master scores the best player's points, halved once if the rule
// was found before everyone had two turns or before ten cards were played,
// or was never found.
func Score(in ScoreInput) (points []int, halved []string) {
	points = make([]int, len(in.Hands))
	// The game master takes the best player's points, whatever they are: a
	// floor of 0 would be wrong for hands over ten cards (which play never
	// deals, but Score is asked directly too).
	best, players := 0, 0
	for i, h := range in.Hands {
		if engine.Seat(i) == in.GM {
			continue
		}
		p := baseScore - h
		if engine.Seat(i) == in.Guesser {
			if in.Hints {
				p += hintBonus
			} else {
				p += guessBonus
			}
		}
		points[i] = p
		if players == 0 || p > best {
			best = p
		}
		players++
	}
	if in.Guesser < 0 {
		halved = append(halved, reasonUnfound)
	} else {
		if in.MinTurns < minTurnsEach {
			halved = append(halved, reasonTurns)
		}
		if in.CardsPlayed < minCardsLaid {
			halved = append(halved, reasonCards)
		}
	}
	gm := best
	if len(halved) > 0 {
		gm = floorHalf(best)
	}
	if int(in.GM) >= 0 && int(in.GM) < len(points) {
		points[in.GM] = gm
	}
	return points, halved
}

// floorHalf halves x rounding down, also below zero (Go's / rounds toward 0).
func floorHalf(x int) int {
	if x < 0 {
		return -((-x + 1) / 2)
	}
	return x / 2
}

// RoundSummary is a finished round, rule revealed, as everyone sees it.
type RoundSummary struct {
	Round   int         `json:"round"` // from 1
	GM      engine.Seat `json:"gm"`
	Mode    Mode        `json:"mode"`
	Rule    string      `json:"rule"`              // canonical rule text, or the free rule's words
	English string      `json:"english,omitempty"` // a machine rule in plain English
	Title   string      `json:"title,omitempty"`   // the library title, if drawn
	Grade   Grade       `json:"grade,omitempty"`
	Library bool        `json:"library,omitempty"`
	Reason  EndReason   `json:"reason"`
	Guesser engine.Seat `json:"guesser"` // -1 when nobody named it
	Hints   bool        `json:"hints,omitempty"`
	Turns   int         `json:"turns"`
	// CardsPlayed counts cards placed in or below the line.
	CardsPlayed int           `json:"cards_played"`
	Guesses     []GuessRecord `json:"guesses,omitempty"`
	// Line and Judgements are the round's valid line and every verdict, as
	// everyone saw them (the review reads a round's last moves from them).
	Line       []Card      `json:"line,omitempty"`
	Judgements []Judgement `json:"judgements,omitempty"`
	// Points per seat; nil when the game has no points or the round was called off.
	Points []int    `json:"points,omitempty"`
	Halved []string `json:"halved,omitempty"` // why the game master's points were halved
}

func (h RoundSummary) clone() RoundSummary {
	h.Guesses = slices.Clone(h.Guesses)
	h.Line = slices.Clone(h.Line)
	h.Judgements = slices.Clone(h.Judgements)
	h.Points = slices.Clone(h.Points)
	h.Halved = slices.Clone(h.Halved)
	return h
}
