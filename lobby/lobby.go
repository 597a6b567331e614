// Package lobby is the hub of the arcade: tables, join codes, seats,
// spectators, bots as seat controllers, timers, reconnection, and the link to
// storage for live logs and finished records.
//
// Every table is an actor: one goroutine owns its engine state and takes
// commands from a channel. After each accepted action it appends the move to
// the Store (durably), bumps its version, rebuilds one immutable TableView per
// viewer (each seat and the spectators), publishes them through an atomic
// pointer and pokes every Conn with a non-blocking send on a one-slot channel.
// Sessions pull the latest view when they are ready; a slow or dead session
// can never hold a table up.
package lobby

import (
	"fmt"
	"log/slog"
	"runtime"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/storage"
)

// Identity is who a session is: an account keyed by the SHA-256 fingerprint
// of the SSH key ("SHA256:...") or a guest ("guest:<id>"), and a handle.
// The handle is the hub's to clean: every call that takes an Identity
// cleans it first (cleanIdentity), and views show it as a textsafe.Text.
type Identity struct {
	Account string
	Handle  string
	Guest   bool
	// ConnID names the SSH connection the session came on, and Addr the
	// client's address as limits group it (an IPv4 address, or an IPv6
	// network, a /64 by default). A guest gets a new account with every
	// session, so the limits a new session could dodge (wrong join codes,
	// chat) count against the connection and the address as well as the
	// account, and /mute silences a guest's connection and address. Empty
	// means unknown (tests, tools): that key is simply not counted.
	ConnID string
	Addr   string
}

// Store is what the hub needs from storage. *storage.DB satisfies it; tests
// use a fake or a temporary database.
type Store interface {
	NewGameID() (string, error)
	StartGame(storage.LiveGame) error
	AppendMove(gameID string, index int, m engine.Move) error
	FinishGame(storage.FinishedGame) error
	AbandonGame(gameID string) error
	LiveGames() ([]storage.LiveGame, error)
}

// Config configures a Hub. Games and Store are required.
type Config struct {
	Games  *engine.Registry
	Store  Store
	Logger *slog.Logger

	// Grace is how long a seat is held after its player disconnects from a
	// game in progress (default 60s). Then a bot takes the seat, or the game
	// is abandoned when no player is left.
	Grace time.Duration
	// TurnTime is how long a person has for a move the game awaits from
	// them before the seat's covering bot makes it for them (default 3
	// minutes; negative turns the clock off). Without it one silent
	// person could hold a table hostage forever. Games whose engine runs
	// its own timer at that moment are not clocked twice.
	TurnTime time.Duration
	// BotDelay is the pause before a bot acts, so people can follow
	// (default 700ms). Negative means no pause (useful in tests).
	BotDelay time.Duration
	// BotThinkers caps how many bots think at once across the hub (default
	// half the CPUs, at least one). Bots are the heaviest work a server
	// does; capped, they queue among themselves instead of delaying the
	// screens of the people playing.
	BotThinkers int
	// ChatPerMinute and MaxChatLen limit chat (defaults 20 lines, 200 cells).
	// The lines a minute count per table, per account, per connection and
	// per address.
	ChatPerMinute int
	MaxChatLen    int
	// Muted reports accounts the operator has muted: they may play but not
	// chat. Nil mutes nobody.
	Muted func(account string) bool
	// JoinFailuresPerMinute is how many wrong codes may be entered in a
	// minute before joins are refused for a while (default 10), and
	// JoinFailuresPerHour the same over an hour (default 60). Both count
	// per account, per connection and per address (see Identity); the odds
	// they give a guesser are worked out beside the code alphabet.
	JoinFailuresPerMinute int
	JoinFailuresPerHour   int
	// Now is the clock for timestamps, rate limits and the deadlines shown
	// in views (default time.Now). Timers (grace, bot delay, game timers)
	// use real time.
	Now func() time.Time
	// Observer, when set, is told about every action and broken table (for
	// metrics). Nil: nothing is measured.
	Observer Observer
	// SeekBotWait is how long a person seeking people waits before being
	// offered to fill the seats with bots (default 30s).
	SeekBotWait time.Duration
	// SeeksPerMinute is how many times an account, connection or address
	// may start seeking in a minute (default 10; six times that an hour).
	SeeksPerMinute int
	// TablesPerMinute is how many tables (Create, Quick play, bots instead
	// of people) an account or a connection may open in a minute (default
	// 10; six times that an hour); an address may open six times as many,
	// for the people behind one address.
	TablesPerMinute int
	// NewHandlesPerHour is how many handles new keys may claim from one
	// address in an hour (default 60; a third of that in a minute). Each
	// claim makes an account and takes a handle for good, and keys are
	// free: without it one address could squat thousands of handles a day.
	NewHandlesPerHour int
	// RatedSameAddress lets rated pairing seat keys from one address (or
	// connection) together. Off by default: keys cost nothing, so one
	// person could seek with two and throw the game with one to lift the
	// other's rating. A load generator, whose players all come from one
	// address, turns it on.
	RatedSameAddress bool
}

// Observer receives the hub's measurements. Calls come from table
// goroutines, so implementations must be quick, safe for concurrent use,
// and must never call back into the hub.
type Observer interface {
	// Action reports one move applied or refused at a table of the given
	// game, and how long validating, storing and publishing it took.
	Action(game string, outcome Outcome, took time.Duration)
	// TableBroken reports a table stopped by an internal error.
	TableBroken(game string)
}

// Outcome is how an action ended, as reported to an Observer.
type Outcome string

// The outcomes of an action.
const (
	// OutcomeOK: the move was accepted and stored.
	OutcomeOK Outcome = "ok"
	// OutcomeIllegal: the rules refused the move (a player's mistake).
	OutcomeIllegal Outcome = "illegal"
	// OutcomeFailed: something on our side went wrong (engine error,
	// storage failure, broken table).
	OutcomeFailed Outcome = "failed"
)

// DefaultTurnTime is Config.TurnTime's default: generous for thinking games.
const DefaultTurnTime = 3 * time.Minute

// withDefaults fills zero fields with their defaults.
func (c Config) withDefaults() Config {
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Grace <= 0 {
		c.Grace = 60 * time.Second
	}
	if c.TurnTime == 0 {
		c.TurnTime = DefaultTurnTime
	} else if c.TurnTime < 0 {
		c.TurnTime = 0
	}
	if c.BotDelay == 0 {
		c.BotDelay = 700 * time.Millisecond
	} else if c.BotDelay < 0 {
		c.BotDelay = 0
	}
	if c.BotThinkers <= 0 {
		c.BotThinkers = max(1, runtime.GOMAXPROCS(0)/2)
	}
	if c.ChatPerMinute <= 0 {
		c.ChatPerMinute = 20
	}
	if c.MaxChatLen <= 0 {
		c.MaxChatLen = 200
	}
	if c.JoinFailuresPerMinute <= 0 {
		c.JoinFailuresPerMinute = 10
	}
	if c.JoinFailuresPerHour <= 0 {
		c.JoinFailuresPerHour = 60
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.SeekBotWait <= 0 {
		c.SeekBotWait = 30 * time.Second
	}
	if c.SeeksPerMinute <= 0 {
		c.SeeksPerMinute = 10
	}
	if c.TablesPerMinute <= 0 {
		c.TablesPerMinute = 10
	}
	if c.NewHandlesPerHour <= 0 {
		c.NewHandlesPerHour = 60
	}
	return c
}

// Phase is where a table is in its life.
type Phase int

const (
	// Waiting: seats are being filled; the host starts the game.
	Waiting Phase = iota
	// Playing: a game is in progress.
	Playing
	// Finished: the game ended; players may ask for a rematch.
	Finished
	// Broken: an internal error stopped the game; it was not recorded.
	Broken
)

// String names the phase for lists and logs.
func (p Phase) String() string {
	switch p {
	case Waiting:
		return "waiting"
	case Playing:
		return "playing"
	case Finished:
		return "finished"
	case Broken:
		return "stopped"
	}
	return fmt.Sprintf("phase(%d)", int(p))
}

// TableSpec is what a creator chooses for a new table.
type TableSpec struct {
	Game    string
	Options engine.Options
	Seats   int // total seats, people and bots
	// Bots seats are filled by bots now; the rest wait for people. Seats
	// still open when the host starts are filled by bots too, when the game
	// has bots.
	Bots     int
	BotLevel string // one of the game's levels; empty picks a middling one
	Public   bool
}

// TableSummary is one line of the public table list.
type TableSummary struct {
	Code       string // display form, e.g. "KQ7-M4X"
	Game       string
	GameName   string
	Public     bool
	Phase      Phase
	Seats      int
	Humans     int
	Bots       int
	Open       int
	Spectators int
	Turn       int
	Host       textsafe.Text
	// Node is the cluster node holding the table; empty for this node's
	// own tables (and on a single node).
	Node string `json:",omitempty"`
	// BotPlays is set by HeldSeats alone, for the account asking: a bot
	// plays its seat now (it stayed away past the grace). The seat is
	// still the account's: taking it back puts the person in again. It
	// never leaves this node.
	BotPlays bool `json:"-"`
}

// TableView is one viewer's immutable snapshot of a table. Everything in it
// is safe to read from any goroutine; nothing in it may be modified.
type TableView struct {
	Version uint64
	Code    string // display form, e.g. "KQ7-M4X"
	GameID  string // empty while Waiting
	Game    engine.Info
	Options engine.Options
	Public  bool
	Rated   bool // the game changes ratings: leaving it for good counts as a loss
	Phase   Phase
	Seats   []SeatView
	You     engine.Viewer
	Host    bool // you are the host
	Status  engine.Status
	// Board is the engine's State.View(You); nil while Waiting or Broken.
	Board      any
	Log        []engine.Event // filtered for You, oldest first, at most LogLen
	Chat       []ChatLine     // oldest first, at most ChatLen
	Spectators int
	Result     *engine.Result
	// Notice is the latest table notice, e.g. "Bo left; a bot took the
	// seat.", composed from clean handles: safe to draw.
	Notice string
	// Grace is how long a player's seat is held when they leave or drop
	// out of a game in play, before a bot plays it (Config.Grace).
	Grace time.Duration
	// NoBot says no bot can take over a seat at this table (the game has
	// none): a person who stays away past Grace ends the game for
	// everyone, abandoned and not recorded, as when nobody is left.
	NoBot bool
	// Unsaved says why the finished game is not in the records yet (the
	// records database is down; it is kept here and saved when it is
	// back); empty once it is stored.
	Unsaved string
	// Deadline is when the game's pending timer will play its move (a
	// timeout), by the hub's clock (Config.Now); zero when no timer is
	// armed. It is for countdowns only: the table alone decides when time
	// is up.
	Deadline time.Time
	// TurnClock says the Deadline is the turn clock's (a bot moves for
	// whoever is still awaited then), not the game's own timer: screens
	// show it only to the players it awaits, and only near its end.
	TurnClock bool
}

// SeatView is one seat as everybody sees it.
type SeatView struct {
	Handle    textsafe.Text // empty for an open seat
	Bot       bool          // a bot plays this seat now
	BotLevel  string
	Connected bool // a person is connected to this seat
	Ready     bool
	Replaced  bool // a bot took over after the person left
}

// Open reports whether nobody holds the seat.
func (s SeatView) Open() bool { return s.Handle == "" }

// ChatLine is one chat message, cleaned as it was said.
type ChatLine struct {
	At     time.Time
	Handle textsafe.Text
	Text   textsafe.Text

	author Identity // who said it, for muting; never shown
}

// View lengths kept per table.
const (
	LogLen  = 200 // events per view
	ChatLen = 50  // chat lines per view
)
