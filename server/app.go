package server

import (
	"context"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/codebreakers/codebreakers/engine/analysis"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/lobby/puzzle"
	"github.com/codebreakers/codebreakers/storage"
)

// Start says which screen an interactive session opens on, from the command
// given with `ssh -t host join KQ7M4X`. The zero value is the home screen.
type Start struct {
	Kind string // "", "join", "watch" or "replay"
	Arg  string // the code or game id, already sanitised
}

// Session is what the App gets to build one interactive session's model.
type Session struct {
	// Identity is who is playing: the fingerprint of the key that actually
	// authenticated, or a fresh guest id.
	Identity Identity
	// Width and Height are the initial terminal size, already clamped.
	Width, Height int
	// Start is the screen asked for on the command line.
	Start Start
	// Context ends when the session ends (disconnect, idle, shutdown). Every
	// Cmd that waits must also select on it.
	Context context.Context
	// Environ is the client's environment (capped), with TERM set.
	Environ []string
	// Colours is what the client's terminal can show (ColourProfile of
	// Environ): the session draws in these colours.
	Colours colorprofile.Profile
	// SSH is the command that opens this arcade in a terminal, to which a
	// command is added: "ssh -t -p 2222 play.example.org" (+ " replay ID").
	SSH string
	// Send hands a message to the session's program once it runs, waiting
	// until the program takes it or has ended; it must not be called before
	// the model's Init. The model may use it to be woken from outside
	// without a goroutine waiting (a Cmd that waits holds one).
	Send func(tea.Msg)
}

// AppFunc builds the Bubble Tea model for one interactive session. If the
// model has a Close() method, it is called once the program has ended,
// however it ended (quit, dropped connection, idle, shutdown).
type AppFunc func(Session) tea.Model

// Records is what the exec commands read (storage.*DB satisfies it).
type Records interface {
	Account(id string) (storage.Account, error)
	History(accountID string, limit int) ([]storage.GameSummary, error)
	Stats(accountID string) (storage.Stats, error)
	Game(id string) (storage.FinishedGame, error)
	Leaderboard(q storage.LeaderQuery) ([]storage.Leader, error)
	Profile(handle string, recent int) (storage.Profile, error)
}

// Analyst gives a finished game's analysis, made now if none is stored
// (*analyst.Analyst satisfies it).
type Analyst interface {
	Report(ctx context.Context, g storage.FinishedGame) (analysis.Report, error)
}

// Puzzles is the puzzle of the day (*puzzle.Service satisfies it).
type Puzzles interface {
	Today(ctx context.Context, game, account string) (puzzle.Day, error)
	Answer(ctx context.Context, game, account string, choice int) (puzzle.Day, error)
	Position(p storage.Puzzle) (puzzle.Position, error)
	// Withholds reports whether account may not replay g yet: it is
	// today's puzzle, unanswered by account (puzzle.Service.Withholds).
	Withholds(g storage.FinishedGame, account string) (bool, error)
}

// Identity is who a session belongs to: the lobby's identity.
type Identity = lobby.Identity
