package whattherule

import (
	"fmt"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/rulelang"
	"github.com/codebreakers/codebreakers/engine/textsafe"
)

// proposeHints asks the table, between turns, to let the game master give hints.
func (s *state) proposeHints(seat engine.Seat) ([]engine.Event, error) {
	r := &s.r
	switch {
	case s.phase != Turn:
		return nil, engine.Illegal("Hints can be proposed only between turns.")
	case r.hintsOn:
		return nil, engine.Illegal("Hints are already allowed this round.")
	case r.proposed[seat] >= maxProposals:
		return nil, engine.Illegal("You have already proposed hints this round.")
	}
	r.proposed[seat]++
	r.votes = make([]int8, s.n)
	r.votes[seat] = 1
	r.proposer = seat
	s.phase = HintVote
	return []engine.Event{{Kind: "hints-proposed", Text: fmt.Sprintf(
		"%s proposes hints from the game master. Everyone must agree; a right guess then earns %d instead of %d.",
		s.name(seat), hintBonus, guessBonus)}}, nil
}

// vote answers a hint proposal (every seat) or an announced hint (players).
func (s *state) vote(seat engine.Seat, yes bool) ([]engine.Event, error) {
	r := &s.r
	switch s.phase {
	case HintVote:
	case HintCheck:
		if seat == r.gm {
			return nil, engine.Illegal("The others decide whether your hint may be given.")
		}
	default:
		return nil, engine.Illegal("There is no vote now.")
	}
	if r.votes[seat] != 0 {
		return nil, engine.Illegal("You have already answered.")
	}
	if s.phase == HintVote {
		if !yes {
			s.phase, r.votes = Turn, nil
			return []engine.Event{{Kind: "hints-no", Text: fmt.Sprintf("%s says no: no hints this time.", s.name(seat))}}, nil
		}
		r.votes[seat] = 1
		if len(s.active()) > 0 {
			return []engine.Event{{Kind: "vote", Text: fmt.Sprintf("%s agrees to hints.", s.name(seat))}}, nil
		}
		s.phase, r.votes, r.hintsOn = Turn, nil, true
		return []engine.Event{{Kind: "hints-on", Text: fmt.Sprintf(
			"Everyone agrees: %s may give hints this round.", s.name(r.gm))}}, nil
	}
	if !yes {
		s.phase, r.votes = Turn, nil
		r.lastHintTurn = r.totalTurns
		return []engine.Event{{Kind: "hint-blocked", Text: fmt.Sprintf("%s objects: no hint for now.", s.name(seat))}}, nil
	}
	r.votes[seat] = 1
	if len(s.active()) > 0 {
		return nil, nil
	}
	return s.hintAllowed(), nil
}

// announce is the game master saying a hint is coming; any player may object.
func (s *state) announce(seat engine.Seat) ([]engine.Event, error) {
	if err := s.needGM(seat); err != nil {
		return nil, err
	}
	r := &s.r
	switch {
	case s.phase != Turn:
		return nil, engine.Illegal("Hints are given only between turns.")
	case !r.hintsOn:
		return nil, engine.Illegal("The table has not agreed to hints this round.")
	case len(r.hints) >= maxHints:
		return nil, engine.Illegal("That is enough hints for one round.")
	}
	r.votes = make([]int8, s.n)
	s.phase = HintCheck
	return []engine.Event{{Kind: "hint-announced", Text: fmt.Sprintf("%s announces a hint. Anyone may object.", s.name(seat))}}, nil
}

// hintAllowed moves on once nobody objected.
func (s *state) hintAllowed() []engine.Event {
	s.phase, s.r.votes = HintGive, nil
	return []engine.Event{{Kind: "hint-allowed", Text: "Nobody objects; the hint comes."}}
}

// giveHint takes the game master's hint.
func (s *state) giveHint(seat engine.Seat, h HintMove) ([]engine.Event, error) {
	if err := s.needGM(seat); err != nil {
		return nil, err
	}
	if s.phase != HintGive {
		return nil, engine.Illegal("Announce a hint first; it may be given if nobody objects.")
	}
	if h.Auto {
		if h.Text != "" {
			return nil, engine.Illegal("Give a typed hint or an automatic one, not both.")
		}
		if s.r.mode != Machine {
			return nil, engine.Illegal("Automatic hints need a machine rule; type your hint.")
		}
		return s.giveAutoHint(), nil
	}
	text := textsafe.Clean(h.Text, MaxHintText).String()
	if text == "" {
		return nil, engine.Illegal("Type the hint.")
	}
	return s.addHint(text), nil
}

func (s *state) addHint(text string) []engine.Event {
	r := &s.r
	r.hints = append(r.hints, text)
	r.lastHintTurn = r.totalTurns
	s.phase = Turn
	return []engine.Event{{Kind: "hint", Text: fmt.Sprintf("Hint from %s: %s", s.name(r.gm), text)}}
}

// giveAutoHint gives the next graded hint of the machine rule.
func (s *state) giveAutoHint() []engine.Event {
	r := &s.r
	return s.addHint(AutoHint(s.machineRule(), facesOf(r.line), len(r.hints), s.rng().Uint64()))
}

// AutoHint writes graded hint number level (from 0) about rule, given the
// valid line so far: first which attributes and cards the rule reads, then a
// card that would fit now, then a card that would fit beside one that would
// not. pick chooses among the candidate cards.
func AutoHint(rule *rulelang.Rule, line []rulelang.Card, level int, pick uint64) string {
	if level == 0 {
		used := rule.AttributesUsed()
		words := make([]string, len(used))
		for i, a := range used {
			words[i] = attrNoun(a)
		}
		var looks string
		switch {
		case rule.UsesPosition():
			looks = "It also depends on where the card lands in the line."
		case rule.Lookback() == 0:
			looks = "Only the card being played matters, not the cards before it."
		case rule.Lookback() == 1:
			looks = "It compares the card with the one before it."
		default:
			looks = fmt.Sprintf("It looks back as far as %d cards.", rule.Lookback())
		}
		return fmt.Sprintf("The rule is about %s. %s", joinWords(words), looks)
	}
	var yes, no []rulelang.Card
	for _, f := range faces {
		if rule.Accepts(line, f) {
			yes = append(yes, f)
		} else {
			no = append(no, f)
		}
	}
	if len(yes) == 0 {
		return "Nothing at all would fit right now."
	}
	y := faceCard(yes[int(pick%uint64(len(yes)))])
	if level == 1 || len(no) == 0 {
		return fmt.Sprintf("Right now %s would fit.", y)
	}
	n := faceCard(no[int((pick/97)%uint64(len(no)))])
	return fmt.Sprintf("Right now %s would fit, but %s would not.", y, n)
}

// faceCard describes a rule-language card as a Card (ID is its face index).
func faceCard(f rulelang.Card) Card {
	for i, g := range faces {
		if g == f {
			return CardOf(i)
		}
	}
	return Card{}
}

func attrNoun(a string) string {
	switch a {
	case "shape":
		return "the shape"
	case "count":
		return "how many shapes there are"
	case "filled":
		return "whether the shapes are filled"
	case "color":
		return "the card's colour"
	}
	return a
}

func joinWords(w []string) string {
	switch len(w) {
	case 0:
		return "nothing in particular"
	case 1:
		return w[0]
	}
	return strings.Join(w[:len(w)-1], ", ") + " and " + w[len(w)-1]
}
