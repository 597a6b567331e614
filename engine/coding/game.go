// Package coding is the deduction game The Coding for 2 to 4 players: each
// player hides a three-card code (a letter and two digits), gives away
// truthful hints about it with Data cards, makes the others answer Hack
// cards about theirs, and then either races to name a code first (Speed
// Cracking) or survives longest while codes are broken one by one (Counter
// Cracking), as chosen at table creation.
//
// The package is pure: a State is built from options, players and a seed,
// changed only by Apply and shown only through View, which hides what the
// viewer may not know. The engine has no clock: the Speed Cracking answer
// window is a Timer whose expiry the table applies as an engine.System move,
// so replays are exact. Bots (bot.go) play a seat from that seat's View.
//
// Data cards: with 2 players one of each of the eight kinds lies out (8
// cards); with 3 or 4, all sixteen, two of each kind stacked. The
// rulebook's setup sentence reads the other way, but only this agrees with
// its end of round 4, where every player holds four Data cards unless they
// announced they could not take one (8 cards cannot give 3 or 4 players
// four each). The shared spec first had it backwards; this is the project's
// decision. Games recorded before the change carry no rules revision and
// replay with the first layout (RulesFirst), so they end as they did.
//
// Online adaptations, where the table-top rules rely on people:
//   - The first-player card goes to a seat drawn from the seed (the
//     table-top "youngest player").
//   - Setup is simultaneous: each player orders their digits privately; the
//     rounds start once everyone has.
//   - A turn is one move: the Data card (or the public "cannot take one"
//     announcement, which the engine checks is true) and the Hack card with
//     its recipient. Hack answers are computed by the engine, never typed.
//   - "Do not send back": in the rounds, a player sends only to players who
//     have not acted this round, which already leaves out whoever sent to
//     them; the round's first player, who received nothing this round, may
//     send to anyone else. In Counter Cracking, where turns go left, it
//     means not to the player who sent you the Hack card you received most
//     recently, unless only two players are in the game. There are no
//     rounds there, so the "first player receives last" rule does not apply.
//   - The first-player card also passes left after round 4, so with 2 or 4
//     players Counter Cracking starts with the round-1 first player.
//   - Speed Cracking: the first tap the server accepts wins; running out of
//     the answer window is treated like a wrong answer (out, code revealed).
//     Votes for more data are public and cleared by every tap and deal. A
//     deal gives one leftover card per player still in (fewer if the pile
//     runs short); with 4 players only one deal is made. After that a
//     unanimous vote starts the simultaneous reveal of one X card each,
//     chosen privately and shown together; after that nothing more can be
//     voted and someone has to tap.
//   - Counter Cracking: after a right decode the decoder simply takes
//     another action (hack or decode) to play on, or sends "stop".
package coding

import (
	"fmt"
	"strconv"

	"github.com/codebreakers/codebreakers/engine"
)

// ID is the game's stable id in records and commands.
const ID = "coding"

// Bot levels, strongest first.
const (
	LevelStrong = "strong"
	LevelEasy   = "easy"
)

// Systems chosen at table creation (option "system").
const (
	SystemSpeed   = "speed"
	SystemCounter = "counter"
)

// Game describes The Coding to the engine registry.
type Game struct{}

var _ engine.Game = Game{}

// Info describes the game, its options and bot levels.
func (Game) Info() engine.Info {
	return engine.Info{
		ID:         ID,
		Name:       "The Coding",
		Summary:    "Hide a letter and two digits; hack the others' codes with hints and yes/no cards.",
		MinPlayers: 2,
		MaxPlayers: 4,
		Options: []engine.OptionSpec{{
			Key:     "system",
			Label:   "System",
			Help:    "speed: after four rounds, race to name one code first. counter: keep hacking and decoding; the last hidden code wins.",
			Choices: []string{SystemSpeed, SystemCounter},
			Default: SystemSpeed,
		}, {
			Key:     "answer",
			Label:   "Answer window (s)",
			Help:    "Speed Cracking: seconds a player who tapped has to name a code.",
			Choices: []string{"15", "30", "60"},
			Default: "30",
		}, {
			Key:     "sheet",
			Label:   "Crack sheet",
			Help:    "Show each player the values still possible for every opponent.",
			Choices: []string{"on", "off"},
			Default: "on",
		}},
		BotLevels: []string{LevelStrong, LevelEasy},
		Rules:     []string{RulesFirst, RulesDataByPlayers},
	}
}

// Rules revisions (engine.Info.Rules), recorded in a game's options.
const (
	// RulesFirst is how the game was first played: 16 Data cards with 2
	// players and 8 with 3 or 4. Records without a revision replay this way.
	RulesFirst = "1"
	// RulesDataByPlayers lays out 8 Data cards with 2 players and all 16
	// (two of each kind) with 3 or 4, as the rulebook's end of round 4 needs.
	RulesDataByPlayers = "2"
)

// New deals a game from one generator seeded with seed.
func (g Game) New(opts engine.Options, players []engine.Player, seed uint64) (engine.State, error) {
	if err := g.Info().CheckPlayers(len(players)); err != nil {
		return nil, err
	}
	system := opts["system"]
	if system == "" {
		system = SystemSpeed
	}
	if system != SystemSpeed && system != SystemCounter {
		return nil, engine.Illegal("The system must be %s or %s, not %q.", SystemSpeed, SystemCounter, system)
	}
	secs := 30
	if a := opts["answer"]; a != "" {
		n, err := strconv.Atoi(a)
		if err != nil || n <= 0 {
			return nil, engine.Illegal("The answer window must be a number of seconds, not %q.", a)
		}
		secs = n
	}
	cfg := config{system: system, answerMillis: secs * 1000, sheet: opts["sheet"] != "off"}
	switch r := opts[engine.RulesOption]; r {
	case RulesFirst:
		cfg.firstRules = true
	case "", RulesDataByPlayers:
	default:
		return nil, engine.Illegal("The Coding has no rules revision %q.", r)
	}
	return newState(cfg, players, seed), nil
}

// NewBot returns a bot of the given level for seat.
func (g Game) NewBot(seat engine.Seat, level string, seed uint64) (engine.Bot, error) {
	if !g.Info().HasBotLevel(level) {
		return nil, fmt.Errorf("coding: no bot level %q", level)
	}
	return &Bot{Seat: seat, Level: level, Seed: seed}, nil
}

// Action is the JSON form of a move. Exactly one field is set.
type Action struct {
	// Order sets the seat's digits during setup.
	Order *OrderMove `json:"order,omitempty"`
	// Play is a hacking turn: a Data card (or none) and a Hack card sent.
	Play *PlayMove `json:"play,omitempty"`
	// Decode names a player's full code: the answer after a tap (Speed) or a
	// decoding turn (Counter).
	Decode *DecodeMove `json:"decode,omitempty"`
	// Tap claims the right to answer (Speed Cracking race).
	Tap bool `json:"tap,omitempty"`
	// Vote asks for more data (Speed Cracking race); it needs everyone still in.
	Vote bool `json:"vote,omitempty"`
	// Stop ends the turn after a right decode (Counter Cracking).
	Stop bool `json:"stop,omitempty"`
	// Reveal turns one of the seat's own code cards face up: after a wrong
	// decode (Counter) or in the X card reveal (Speed).
	Reveal *RevealMove `json:"reveal,omitempty"`
	// Timeout ends the answer window; only the table sends it, as engine.System.
	Timeout *TimeoutMove `json:"timeout,omitempty"`
}

// OrderMove names which of the seat's two digits goes in X1; the other is X2.
type OrderMove struct {
	X1 int `json:"x1"`
}

// PlayMove is a hacking turn. Data is the Data card kind taken, or nil to
// announce that none can be taken (or, in Counter Cracking, that none is left).
type PlayMove struct {
	Data *int        `json:"data,omitempty"`
	Hack int         `json:"hack"`
	To   engine.Seat `json:"to"`
}

// DecodeMove names target's code, e.g. "F98".
type DecodeMove struct {
	Target engine.Seat `json:"target"`
	Code   string      `json:"code"`
}

// RevealMove names the position (0 letter, 1 X1, 2 X2) to turn face up.
type RevealMove struct {
	Pos int `json:"pos"`
}

// TimeoutMove names the claim (1-based count of taps) whose window ran out,
// so a stale timer can never end a later claim.
type TimeoutMove struct {
	Claim int `json:"claim"`
}

// OrderAction encodes putting digit x1 in the X1 position.
func OrderAction(x1 int) []byte { return mustJSON(Action{Order: &OrderMove{X1: x1}}) }

// PlayAction encodes taking Data card kind data (negative: none) and sending
// Hack card hack to seat to.
func PlayAction(data, hack int, to engine.Seat) []byte {
	p := &PlayMove{Hack: hack, To: to}
	if data >= 0 {
		p.Data = &data
	}
	return mustJSON(Action{Play: p})
}

// DecodeAction encodes naming target's code.
func DecodeAction(target engine.Seat, c Code) []byte {
	return mustJSON(Action{Decode: &DecodeMove{Target: target, Code: c.String()}})
}

// TapAction encodes a tap in the race.
func TapAction() []byte { return mustJSON(Action{Tap: true}) }

// VoteAction encodes a vote for more data.
func VoteAction() []byte { return mustJSON(Action{Vote: true}) }

// StopAction encodes stopping after a right decode.
func StopAction() []byte { return mustJSON(Action{Stop: true}) }

// RevealAction encodes turning position pos face up.
func RevealAction(pos int) []byte { return mustJSON(Action{Reveal: &RevealMove{Pos: pos}}) }

// TimeoutAction encodes the end of claim's answer window.
func TimeoutAction(claim int) []byte { return mustJSON(Action{Timeout: &TimeoutMove{Claim: claim}}) }

func mustJSON(a Action) []byte { return engine.EncodeAction(a) }

// Moves counts the moves a names (engine.Moves): Apply takes exactly one.
func (a Action) Moves() int {
	return engine.CountSet(a.Order != nil, a.Play != nil, a.Decode != nil, a.Tap, a.Vote, a.Stop, a.Reveal != nil, a.Timeout != nil)
}
