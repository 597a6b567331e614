// Package ifthen is the cooperative deduction game If Then for 2 to 6
// players: Code Breakers play two-ended Number cards into a Code Line and
// work out the secret Challenge (a rule in the shared rule language) from
// which plays the All Knowing calls Valid or Invalid.
//
// The engine judges every play from the machine-readable Challenge. The All
// Knowing is the server by default; it can instead be the first seat (a
// person or a bot who sees the Challenge and paces Events and Hints), or, in
// the Mastermind variant (3+ players), a first seat with a secret loyalty
// who also takes a turn each round.
//
// Challenges. Every Challenge reads exactly two of the four attributes (Level
// 0 and 1 read one, and show two of the three Hints it leaves true), so the
// two Hint symbols on every Challenge card both name attributes the Code
// ignores, and the second Hint the team pays six cards for always tells
// them something. Level 3 keeps its difficulty through arithmetic on
// numbers that counts round from 9 to 0, never through a third attribute.
// The shared spec once allowed Level 3 "two or three attributes"; that was
// wrong (the rulebook's All Knowing lays out the two Hint cards a Challenge
// names) and this is the project's decision. No Challenge compares a sum
// with a value it cannot take (a sum of numbers wraps, so it is never 10),
// and each Challenge's English says what its judgement does; content tests
// hold all three. Games recorded before this carry no rules revision and
// replay with the Challenges as first written (RulesFirst).
//
// The package is pure: a State is built from options, players and a seed,
// changed only by Apply, and shown only through View, which hides what the
// viewer may not know.
package ifthen

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/codebreakers/codebreakers/engine"
)

// ID is the game's stable id in records and commands.
const ID = "ifthen"

// Bot levels, strongest first.
const (
	LevelStrong = "strong"
	LevelEasy   = "easy"
)

// Who is the All Knowing (option "allknowing").
const (
	ModeServer     = "server"     // the server judges and paces; every seat breaks the code
	ModePlayer     = "player"     // the first seat is the All Knowing
	ModeMastermind = "mastermind" // the first seat is a Mastermind All Knowing with a loyalty
)

// Game describes If Then to the engine registry.
type Game struct{}

var _ engine.Game = Game{}

// Info describes the game, its options and bot levels.
func (Game) Info() engine.Info {
	return engine.Info{
		ID:         ID,
		Name:       "If Then",
		Summary:    "Play two-ended number cards as a team and crack the secret Code.",
		MinPlayers: 2,
		MaxPlayers: 6,
		Options: []engine.OptionSpec{
			{
				Key:     "level",
				Label:   "Level",
				Help:    "Challenge level: 0 is a warm-up, 3 uses number arithmetic.",
				Choices: []string{"0", "1", "2", "3"},
				Default: "1",
			},
			{
				Key:   "allknowing",
				Label: "All Knowing",
				Help: "server: every seat breaks the code; player: the first seat knows the Code and paces the game; " +
					"mastermind: the first seat also plays, secretly for or against the team (3+ players).",
				Choices: []string{ModeServer, ModePlayer, ModeMastermind},
				Default: ModeServer,
			},
		},
		BotLevels: []string{LevelStrong, LevelEasy},
		// A cooperative game: teammates nobody chose should play well.
		DefaultBotLevel: LevelStrong,
		Rules:           []string{RulesFirst, RulesTwoHints, RulesThird},
	}
}

// Rules revisions (engine.Info.Rules), recorded in a game's options.
const (
	// RulesFirst is the Challenges as first written, some reading three
	// attributes. Records without a revision replay this way.
	RulesFirst = "1"
	// RulesTwoHints is every Challenge reading two attributes (two true
	// Hints), with no sum compared with a value it cannot take.
	RulesTwoHints = "2"
	// RulesThird fixes two divergences from the rulebook found by an audit.
	// A guess is judged on every pair of ends, the last Valid card and the
	// end played on it: earlier revisions compared it with the Code only
	// after lines both accept from an empty start, which never reach a Code
	// Line opening with a card the Code would reject (the first card is
	// dealt, not judged), so a guess wrong after such a card could win. And
	// Pass Left makes a lone Code Breaker with cards pass one to the next
	// Code Breaker too, as it does when several hold cards; earlier
	// revisions skipped the Event then. And a Mastermind who cycles draws
	// the top of its pile first and then, seeing it, sends a card (the
	// drawn one included) under the pile, in two moves; earlier revisions
	// sent a card chosen before the draw. Last, a proposal to use the Lucky
	// Draw no longer names the card to everyone: the team may not talk
	// about the cards in their hands, and a proposal turned down leaves the
	// card there. Records under revisions 1 and 2 replay as they were
	// played.
	RulesThird = "3"
)

// New deals a game.
func (g Game) New(opts engine.Options, players []engine.Player, seed uint64) (engine.State, error) {
	if err := g.Info().CheckPlayers(len(players)); err != nil {
		return nil, err
	}
	level, err := strconv.Atoi(opts["level"])
	if err != nil || level < 0 || level > 3 {
		level = 1
	}
	mode := opts["allknowing"]
	switch mode {
	case ModeServer, ModePlayer:
	case ModeMastermind:
		if len(players) < 3 {
			return nil, engine.Illegal("The Mastermind All Knowing needs at least 3 players.")
		}
	default:
		mode = ModeServer
	}
	s := newState(level, mode, players, seed)
	switch r := opts[engine.RulesOption]; r {
	case RulesFirst:
		s.firstRules = true // the deal is the same: only the Challenges' texts differ
		s.beforeThird = true
	case RulesTwoHints:
		s.beforeThird = true
	case "", RulesThird:
	default:
		return nil, engine.Illegal("If Then has no rules revision %q.", r)
	}
	return s, nil
}

// NewBot returns a bot of the given level for seat.
func (g Game) NewBot(seat engine.Seat, level string, seed uint64) (engine.Bot, error) {
	if !g.Info().HasBotLevel(level) {
		return nil, fmt.Errorf("ifthen: no bot level %q", level)
	}
	return &Bot{Seat: seat, Level: level, Seed: seed}, nil
}

// Action is the JSON form of a move. Exactly one field is set.
type Action struct {
	// Play puts a hand card on the Code Line with the chosen end on top.
	Play *PlayMove `json:"play,omitempty"`
	// Discard throws a hand card away, claiming neither end is Valid now.
	Discard *CardMove `json:"discard,omitempty"`
	// Draw pays the penalty owed: the listed Market slots, the rest from the deck.
	Draw *DrawMove `json:"draw,omitempty"`
	// Propose asks the team to agree on something (all Code Breakers vote).
	Propose *Proposal `json:"propose,omitempty"`
	// Vote answers the open proposal.
	Vote *VoteMove `json:"vote,omitempty"`
	// Pass hands a card to the next Code Breaker (the Pass Left Event).
	Pass *CardMove `json:"pass,omitempty"`
	// Reveal is the All Knowing pacing the game: "event" or "hint".
	Reveal string `json:"reveal,omitempty"`
	// Setup is the Mastermind All Knowing's secret choice of Challenge and loyalty.
	Setup *SetupMove `json:"setup,omitempty"`
	// Swap is the Mastermind's turn: a hand card for a Market card.
	Swap *SwapMove `json:"swap,omitempty"`
	// Cycle is the Mastermind's turn: a hand card to the bottom of their deck, the top one drawn.
	Cycle *CardMove `json:"cycle,omitempty"`
}

// PlayMove plays hand card Card (0-based) with end Up on top (0: A, 1: B).
type PlayMove struct {
	Card int `json:"card"`
	Up   int `json:"up"`
}

// CardMove names a hand card by its 0-based place.
type CardMove struct {
	Card int `json:"card"`
}

// DrawMove lists Market slots (0-based) to take; the rest comes from the deck.
type DrawMove struct {
	Market []int `json:"market,omitempty"`
}

// Proposal kinds.
const (
	ProposeHint         = "hint"          // pay cards from the deck for a Hint
	ProposeFreeHint     = "free_hint"     // use a kept Free Hint
	ProposeLuckyDraw    = "lucky_draw"    // use a kept Lucky Draw on the proposer's Card
	ProposeSecondChance = "second_chance" // use a kept Second Chance on the Invalid card just played
	ProposeGuess        = "guess"         // guess the Code (Text, in the rule language)
)

// Proposal is something the whole team must agree to.
type Proposal struct {
	Kind string `json:"kind"`
	Card int    `json:"card,omitempty"` // lucky_draw: the proposer's hand card
	Text string `json:"text,omitempty"` // guess: the rule
}

// VoteMove answers the open proposal.
type VoteMove struct {
	Yes bool `json:"yes"`
}

// SetupMove is the Mastermind's choice: Challenge 0 or 1 of the two drawn,
// and loyalty true (wins with the team) or false (wins if the team loses).
type SetupMove struct {
	Challenge int  `json:"challenge"`
	Loyal     bool `json:"loyal"`
}

// SwapMove swaps the Mastermind's hand card Card with Market slot Market,
// laid with end Up on top.
type SwapMove struct {
	Card   int `json:"card"`
	Market int `json:"market"`
	Up     int `json:"up"`
}

// PlayAction encodes playing hand card i with end up on top.
func PlayAction(i, up int) []byte { return mustJSON(Action{Play: &PlayMove{Card: i, Up: up}}) }

// DiscardAction encodes discarding hand card i.
func DiscardAction(i int) []byte { return mustJSON(Action{Discard: &CardMove{Card: i}}) }

// DrawAction encodes paying a penalty with the given Market slots, the rest from the deck.
func DrawAction(market ...int) []byte { return mustJSON(Action{Draw: &DrawMove{Market: market}}) }

// ProposeAction encodes a proposal to the team.
func ProposeAction(p Proposal) []byte { return mustJSON(Action{Propose: &p}) }

// VoteAction encodes a vote on the open proposal.
func VoteAction(yes bool) []byte { return mustJSON(Action{Vote: &VoteMove{Yes: yes}}) }

// PassAction encodes passing hand card i (Pass Left).
func PassAction(i int) []byte { return mustJSON(Action{Pass: &CardMove{Card: i}}) }

// RevealAction encodes the All Knowing revealing the next "event" or the paid "hint".
func RevealAction(what string) []byte { return mustJSON(Action{Reveal: what}) }

// SetupAction encodes the Mastermind's secret choice.
func SetupAction(challenge int, loyal bool) []byte {
	return mustJSON(Action{Setup: &SetupMove{Challenge: challenge, Loyal: loyal}})
}

// SwapAction encodes the Mastermind swapping hand card i with Market slot m, end up on top.
func SwapAction(i, m, up int) []byte {
	return mustJSON(Action{Swap: &SwapMove{Card: i, Market: m, Up: up}})
}

// CycleAction encodes the Mastermind sending hand card i under their deck and drawing its top.
func CycleAction(i int) []byte { return mustJSON(Action{Cycle: &CardMove{Card: i}}) }

func mustJSON(a Action) []byte { return engine.EncodeAction(a) }

// Moves counts the moves a names (engine.Moves): Apply takes exactly one.
func (a Action) Moves() int {
	return engine.CountSet(a.Play != nil, a.Discard != nil, a.Draw != nil, a.Propose != nil, a.Vote != nil,
		a.Pass != nil, a.Reveal != "", a.Setup != nil, a.Swap != nil, a.Cycle != nil)
}

// rngAt returns the generator for the k-th random draw of a game. The state
// keeps only the seed and a counter, so it copies and compares as plain data.
func rngAt(seed uint64, k int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x69667468_656e0000+uint64(k))) // "ifthen"
}
