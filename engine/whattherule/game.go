// Package whattherule is the deduction game What the Rule?! for 2 to 10
// players. Each round one player is the game master and sets a secret rule
// saying which card may extend a line of cards; the others play cards from
// their hands, see which ones fit, and try to name the rule.
//
// The game master either writes a machine rule in the rule language (see
// engine/rulelang), which the engine judges at once and compares with
// guesses by exact equivalence, or a free rule in plain words, which the
// game master judges by hand against a timer (engine.State.Timer).
//
// The package is pure: a State is built from options, players and a seed,
// changed only by Apply, and shown only through View, which hides the rule
// from everyone but the game master until the round ends. Bots (bot.go) play
// a seat from that seat's View alone.
package whattherule

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
)

// ID is the game's stable id in records and commands.
const ID = "whattherule"

// Bot levels, strongest first.
const (
	LevelStrong = "strong"
	LevelEasy   = "easy"
)

// Limits on text people type into the game.
const (
	MaxRuleText  = 300 // a rule or guess, in cells after cleaning
	MaxHintText  = 200 // a hint
	SetupMillis  = 5 * 60 * 1000
	maxHints     = 6 // hints a game master may give in one round
	maxProposals = 1 // hint proposals per seat per round
)

// Option keys.
const (
	OptRounds    = "rounds"
	OptPoints    = "points"
	OptJudgeTime = "judge_time"
	OptTurnTime  = "turn_time"
)

// Game describes What the Rule?! to the engine registry.
type Game struct{}

var _ engine.Game = Game{}

// Info describes the game, its options and bot levels.
func (Game) Info() engine.Info {
	return engine.Info{
		ID:         ID,
		Name:       "What the Rule?!",
		Summary:    "Play cards to a line, watch which ones fit, and name the game master's secret rule.",
		MinPlayers: 2,
		MaxPlayers: 10,
		Options: []engine.OptionSpec{
			{
				Key:     OptRounds,
				Label:   "Rounds",
				Help:    "\"each\" lets every player be game master once; or pick a number of rounds.",
				Choices: []string{"each", "1", "2", "3", "4", "5", "6", "8", "10"},
				Default: "each",
			},
			{
				Key:     OptPoints,
				Label:   "Points",
				Help:    "Off plays just for finding rules. Two players always play without points.",
				Choices: []string{"on", "off"},
				Default: "on",
			},
			{
				Key:     OptJudgeTime,
				Label:   "Judge time",
				Help:    "How long a game master has to judge a free rule, and how long hint votes stay open.",
				Choices: []string{"30s", "1m", "2m", "5m"},
				Default: "2m",
			},
			{
				Key:     OptTurnTime,
				Label:   "Turn time",
				Help:    "How long a player has for a turn before it passes.",
				Choices: []string{"off", "30s", "1m", "2m"},
				Default: "off",
			},
		},
		BotLevels: []string{LevelStrong, LevelEasy},
	}
}

// settings are the resolved options.
type settings struct {
	Rounds     int  `json:"rounds"` // 0: every player leads once
	Points     bool `json:"points"`
	JudgeMilli int  `json:"judge_ms"`
	TurnMilli  int  `json:"turn_ms"` // 0: no turn timer
}

func parseSettings(opts engine.Options, players int) (settings, error) {
	st := settings{Points: opts[OptPoints] != "off" && players > 2}
	if r := opts[OptRounds]; r != "" && r != "each" {
		n, err := strconv.Atoi(r)
		if err != nil || n < 1 {
			return st, engine.Illegal("Rounds must be \"each\" or a number, not %q.", r)
		}
		st.Rounds = n
	}
	var err error
	if st.JudgeMilli, err = millis(opts[OptJudgeTime], "2m"); err != nil {
		return st, err
	}
	if st.TurnMilli, err = millis(opts[OptTurnTime], "off"); err != nil {
		return st, err
	}
	return st, nil
}

// millis reads "30s", "2m" or "off" (0).
func millis(s, def string) (int, error) {
	if s == "" {
		s = def
	}
	if s == "off" {
		return 0, nil
	}
	unit := 1000
	switch {
	case strings.HasSuffix(s, "s"):
	case strings.HasSuffix(s, "m"):
		unit = 60_000
	default:
		return 0, engine.Illegal("A time must look like 30s or 2m, not %q.", s)
	}
	n, err := strconv.Atoi(s[:len(s)-1])
	if err != nil || n <= 0 {
		return 0, engine.Illegal("A time must look like 30s or 2m, not %q.", s)
	}
	return n * unit, nil
}

// New deals the first round. The first seat played by a bot leads it (a
// random seat when nobody is a bot); the game master then passes to the
// next seat each round. Every shuffle and library draw comes from one
// generator seeded with seed.
func (g Game) New(opts engine.Options, players []engine.Player, seed uint64) (engine.State, error) {
	if err := g.Info().CheckPlayers(len(players)); err != nil {
		return nil, err
	}
	st, err := parseSettings(opts, len(players))
	if err != nil {
		return nil, err
	}
	return newState(st, players, seed), nil
}

// NewBot returns a bot of the given level for seat.
func (g Game) NewBot(seat engine.Seat, level string, seed uint64) (engine.Bot, error) {
	if !g.Info().HasBotLevel(level) {
		return nil, fmt.Errorf("whattherule: no bot level %q", level)
	}
	return &Bot{Seat: seat, Level: level, Seed: seed}, nil
}

// Action is the JSON form of a move. Exactly one field is set.
type Action struct {
	// Setup, by the game master.
	Rule    *TextMove `json:"rule,omitempty"`    // a machine rule in the rule language
	Library *int      `json:"library,omitempty"` // a library rule by index (see Library)
	Draw    *Grade    `json:"draw,omitempty"`    // a random library rule of this grade (0: any)
	Free    *TextMove `json:"free,omitempty"`    // a free rule in plain words

	// A player's turn.
	Play    *CardMove `json:"play,omitempty"`     // play a card from hand by id
	Reveal  bool      `json:"reveal,omitempty"`   // show the hand: none of it fits
	Guess   *TextMove `json:"guess,omitempty"`    // name the rule after a right play or reveal
	NoGuess bool      `json:"no_guess,omitempty"` // end the turn without guessing

	// The game master judging by hand (free rules), or choosing a card.
	Judge   *JudgeMove `json:"judge,omitempty"`    // the pending play or guess fits (or not)
	Lay     *CardMove  `json:"lay,omitempty"`      // lay this fitting card from a revealed hand
	NoFit   bool       `json:"no_fit,omitempty"`   // no card of the revealed hand fits
	CallOff bool       `json:"call_off,omitempty"` // stop a free-rule round without points

	// Hints.
	ProposeHints bool      `json:"propose_hints,omitempty"` // ask the table to allow hints
	Vote         *VoteMove `json:"vote,omitempty"`          // answer a proposal or an announced hint
	Announce     bool      `json:"announce,omitempty"`      // game master: a hint is coming
	Hint         *HintMove `json:"hint,omitempty"`          // game master: the hint itself

	// Timeout is applied by the table (engine.System) when a timer runs out.
	Timeout *TimeoutMove `json:"timeout,omitempty"`
}

// TextMove carries typed text: a rule, a free rule or a guess.
type TextMove struct {
	Text string `json:"text"`
}

// CardMove names a physical card (0..143).
type CardMove struct {
	Card int `json:"card"`
}

// JudgeMove is a game master's verdict on a free rule's pending play or guess.
type JudgeMove struct {
	Fits bool `json:"fits"`
}

// VoteMove is yes or no: to taking hints, or (when a hint is announced) to
// letting it be given.
type VoteMove struct {
	Yes bool `json:"yes"`
}

// HintMove is a hint: typed text, or (machine rules) Auto for the next
// graded hint the engine writes from the rule.
type HintMove struct {
	Text string `json:"text,omitempty"`
	Auto bool   `json:"auto,omitempty"`
}

// TimeoutMove names the move count at which the timer was set, so a stale
// timer is refused.
type TimeoutMove struct {
	Seq int `json:"seq"`
}

// Encoders for every move, for boards, bots and tests.

// RuleAction sets a machine rule.
func RuleAction(text string) []byte { return mustJSON(Action{Rule: &TextMove{Text: text}}) }

// LibraryAction sets library rule i.
func LibraryAction(i int) []byte { return mustJSON(Action{Library: &i}) }

// DrawAction draws a random library rule of grade g (0 for any grade).
func DrawAction(g Grade) []byte { return mustJSON(Action{Draw: &g}) }

// FreeAction sets a free rule.
func FreeAction(text string) []byte { return mustJSON(Action{Free: &TextMove{Text: text}}) }

// PlayAction plays card id.
func PlayAction(card int) []byte { return mustJSON(Action{Play: &CardMove{Card: card}}) }

// RevealAction shows the hand, claiming none of it fits.
func RevealAction() []byte { return mustJSON(Action{Reveal: true}) }

// GuessAction names the rule.
func GuessAction(text string) []byte { return mustJSON(Action{Guess: &TextMove{Text: text}}) }

// NoGuessAction ends the turn without a guess.
func NoGuessAction() []byte { return mustJSON(Action{NoGuess: true}) }

// JudgeAction is the game master's verdict on a pending play or guess.
func JudgeAction(fits bool) []byte { return mustJSON(Action{Judge: &JudgeMove{Fits: fits}}) }

// LayAction lays a fitting card from a revealed hand.
func LayAction(card int) []byte { return mustJSON(Action{Lay: &CardMove{Card: card}}) }

// NoFitAction says no card of a revealed hand fits.
func NoFitAction() []byte { return mustJSON(Action{NoFit: true}) }

// CallOffAction stops a free-rule round without points.
func CallOffAction() []byte { return mustJSON(Action{CallOff: true}) }

// ProposeHintsAction asks the table to allow hints.
func ProposeHintsAction() []byte { return mustJSON(Action{ProposeHints: true}) }

// VoteAction answers a hint proposal or an announced hint.
func VoteAction(yes bool) []byte { return mustJSON(Action{Vote: &VoteMove{Yes: yes}}) }

// AnnounceAction announces a hint.
func AnnounceAction() []byte { return mustJSON(Action{Announce: true}) }

// HintAction gives a typed hint.
func HintAction(text string) []byte { return mustJSON(Action{Hint: &HintMove{Text: text}}) }

// AutoHintAction gives the next graded hint of a machine rule.
func AutoHintAction() []byte { return mustJSON(Action{Hint: &HintMove{Auto: true}}) }

// TimeoutAction is the table's timer expiry for move count seq.
func TimeoutAction(seq int) []byte { return mustJSON(Action{Timeout: &TimeoutMove{Seq: seq}}) }

func mustJSON(a Action) []byte { return engine.EncodeAction(a) }

// Moves counts the moves a names (engine.Moves): Apply takes exactly one.
func (a Action) Moves() int {
	return engine.CountSet(
		a.Rule != nil, a.Library != nil, a.Draw != nil, a.Free != nil,
		a.Play != nil, a.Reveal, a.Guess != nil, a.NoGuess,
		a.Judge != nil, a.Lay != nil, a.NoFit, a.CallOff,
		a.ProposeHints, a.Vote != nil, a.Announce, a.Hint != nil, a.Timeout != nil,
	)
}
