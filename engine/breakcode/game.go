// Package breakcode is the deduction game Break the Code for 2 to 4 players:
// each player hides number tiles behind a screen, asks questions from six
// face-up cards, and tries to name the hidden tiles first (the opponent's
// hand with 2 players, the face-down centre with 3 or 4).
//
// The package is pure: a State is built from options, players and a seed,
// changed only by Apply, and shown only through View, which hides what the
// viewer may not know. Bots (bot.go) play a seat from that seat's View alone.
package breakcode

import (
	"fmt"
	"math/rand/v2"

	"github.com/codebreakers/codebreakers/engine"
)

// ID is the game's stable id in records and commands.
const ID = "breakcode"

// Bot levels, strongest first.
const (
	LevelStrong = "strong"
	LevelEasy   = "easy"
)

// Game describes Break the Code to the engine registry.
type Game struct{}

var _ engine.Game = Game{}

// Info describes the game, its options and bot levels.
func (Game) Info() engine.Info {
	return engine.Info{
		ID:         ID,
		Name:       "Break the Code",
		Summary:    "Ask sharp questions about hidden number tiles and name them first.",
		MinPlayers: 2,
		MaxPlayers: 4,
		Options: []engine.OptionSpec{{
			Key:     "aid",
			Label:   "Aid",
			Help:    "Show how many hands each opponent (and the centre) may still hold.",
			Choices: []string{"on", "off"},
			Default: "on",
		}},
		BotLevels: []string{LevelStrong, LevelEasy},
	}
}

// New deals a game. Tiles, the Question deck and the first player all come
// from one generator seeded with seed, so a seed always gives the same deal.
func (g Game) New(opts engine.Options, players []engine.Player, seed uint64) (engine.State, error) {
	if err := g.Info().CheckPlayers(len(players)); err != nil {
		return nil, err
	}
	return newState(opts["aid"] != "off", players, seed), nil
}

// NewBot returns a bot of the given level for seat.
func (g Game) NewBot(seat engine.Seat, level string, seed uint64) (engine.Bot, error) {
	if !g.Info().HasBotLevel(level) {
		return nil, fmt.Errorf("breakcode: no bot level %q", level)
	}
	return &Bot{Seat: seat, Level: level, Seed: seed}, nil
}

// Action is the JSON form of a move. Exactly one field is set.
type Action struct {
	// Ask puts a face-up card's question to the table.
	Ask *AskMove `json:"ask,omitempty"`
	// Guess names tiles: the opponent's hand (2 players) or the centre (3–4).
	Guess *GuessMove `json:"guess,omitempty"`
	// Pass declines the one answering guess of the 2-player tie rule.
	Pass bool `json:"pass,omitempty"`
}

// AskMove picks a face-up card; Number is the named number for cards 18–21
// and must be left out (0) otherwise.
type AskMove struct {
	Card   int `json:"card"`
	Number int `json:"number,omitempty"`
}

// GuessMove names tiles in any order; they are compared as sorted hands.
type GuessMove struct {
	Tiles []Tile `json:"tiles"`
}

// AskAction encodes asking card (naming number for cards 18–21, else 0).
func AskAction(card, number int) []byte {
	return mustJSON(Action{Ask: &AskMove{Card: card, Number: number}})
}

// GuessAction encodes a guess of the given tiles.
func GuessAction(tiles []Tile) []byte {
	return mustJSON(Action{Guess: &GuessMove{Tiles: tiles}})
}

// PassAction encodes declining the answering guess of the 2-player tie rule.
func PassAction() []byte { return mustJSON(Action{Pass: true}) }

func mustJSON(a Action) []byte { return engine.EncodeAction(a) }

// Moves counts the moves a names (engine.Moves): Apply takes exactly one.
func (a Action) Moves() int { return engine.CountSet(a.Ask != nil, a.Guess != nil, a.Pass) }

// newState deals a new game.
func newState(aid bool, players []engine.Player, seed uint64) *state {
	n := len(players)
	rng := rand.New(rand.NewPCG(seed, 0x62726561_6b636f64)) // "breakcod"
	s := &state{
		n:        n,
		aid:      aid,
		players:  append([]engine.Player(nil), players...),
		handSize: 5,
		hands:    make([]uint32, n),
		out:      make([]bool, n),
		gotIt:    make([]bool, n),
		guesses:  make([][]guessRecord, n),
	}
	if n == 4 {
		s.handSize = 4
	}
	tiles := rng.Perm(tileCount)
	for i := range n {
		for _, p := range tiles[i*s.handSize : (i+1)*s.handSize] {
			s.hands[i] |= 1 << p
		}
	}
	for _, p := range tiles[n*s.handSize:] {
		s.centre |= 1 << p
	}
	// Masks stay physical (tiles 10 and 11 are the two green 5s) so tiles are
	// conserved exactly; comparisons fold them with canonical.
	cards := rng.Perm(CardCount)
	for i := range cards {
		cards[i]++
	}
	s.faceUp = cards[:FaceUpCards:FaceUpCards]
	s.deck = cards[FaceUpCards:]
	s.starter = engine.Seat(rng.IntN(n))
	s.toMove = s.starter
	return s
}
