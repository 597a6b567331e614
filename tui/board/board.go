// Package board is the contract between the session UI (package tui) and
// the per-game boards (tui/breakcode, tui/coding, tui/ifthen,
// tui/whattherule), and nothing else: the Board interface, the Context a
// board draws in, and the styles and keys the session hands it. A board
// draws one game's engine view and turns key presses into encoded actions;
// it never talks to the hub itself, so it can be tested with nothing but
// views and messages. What boards draw with (the text field, widths, word
// wrap, the log tail, painters and memos) is tui/widget.
//
// The session drives a board in this order: SetView when the table's view
// changes, Update for each key (while SetBusy(true), a key that could make
// a move is the board's to hold back), SetSize just before each frame (the
// board lays itself out there), and View, which only draws and changes
// nothing.
//
// Adding a game to the UI: implement Board in tui/<game> with its own
// KeyMap (embedding Keys) and, if it has pieces of its own, its own Styles
// (embedding Styles); fill them in in tui/keys.go and tui/styles.go, add
// one case to newBoard in tui/boards.go and the game's rules to rulesText
// in tui/rules.go. The session does the rest (waiting room, chat, result,
// rematch, replay, help, sizes).
package board

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/codebreakers/codebreakers/engine"
)

// Context is everything a board needs besides the engine view itself.
type Context struct {
	Viewer engine.Viewer  // who is looking: a seat, a spectator, or a replay (omniscient)
	Names  []string       // display names by seat, already sanitised
	Bots   []bool         // which seats a bot plays
	Status engine.Status  // whose turn it is
	Log    []engine.Event // already filtered for Viewer, oldest first
	Result *engine.Result // set once the game is over
	Replay bool           // drawn from a finished game's record: no input
	Width  int            // space the board may use
	Height int            // (the session draws the title and key bars around it)
	// Deadline is when the table's timer plays its move (by the server's
	// clock); zero when no timer runs. Boards that count down get the time
	// left from the session through SetTimeLeft.
	Deadline time.Time
}

// Name returns the display name of seat s, or a placeholder.
func (c Context) Name(s engine.Seat) string {
	if int(s) >= 0 && int(s) < len(c.Names) && c.Names[s] != "" {
		return c.Names[s]
	}
	return "seat " + string(rune('1'+int(s)))
}

// IsBot reports whether seat s is played by a bot.
func (c Context) IsBot(s engine.Seat) bool {
	return int(s) >= 0 && int(s) < len(c.Bots) && c.Bots[s]
}

// Board draws one game and collects a seat's moves.
type Board interface {
	// SetView replaces the engine view (the concrete type of the game's
	// State.View) and its context. Selection state survives updates.
	SetView(view any, c Context)
	// SetSize tells the board the size it is about to be drawn at (after
	// SetView, which may have given it another): the board lays itself out
	// here (how long its notes are, how far they scroll), so that View
	// changes nothing.
	SetSize(width, height int)
	// Update handles a key press. It returns an encoded action to send to
	// the table, or nil.
	Update(msg tea.KeyPressMsg) (action []byte, cmd tea.Cmd)
	// View renders the board within the context's width and height.
	View() string
	// ShortHelp lists the keys that work now, for the key bar.
	ShortHelp() []key.Binding
	// FullHelp lists every board key, grouped, for the help overlay.
	FullHelp() [][]key.Binding
	// Capturing reports whether a text field has focus, so the session
	// must pass printable keys through instead of treating them as commands.
	Capturing() bool
	// Overlay reports whether the board shows a full panel (a notepad) that
	// takes the arrow keys and esc until it is closed.
	Overlay() bool
	// SetError shows a refusal from the table (an illegal move) in the board.
	SetError(msg string)
	// SetBusy tells the board whether its last move is still on its way
	// to the table. While busy the board makes no new move: which keys
	// could make one is the board's own business, and for such a key
	// Update changes nothing and returns Held() as the action, so the
	// session can say to wait.
	SetBusy(busy bool)
	// SetTimeLeft tells the board the time left before the table's timer
	// plays (Context.Deadline), on every beat of the session's countdown;
	// a board that shows no countdown ignores it.
	SetTimeLeft(left time.Duration)
}

// Lines is a Board that can give its view as lines, so that the session
// does not split a view the board joined a moment before: every seat's
// screen draws the board after every move.
type Lines interface {
	// ViewLines is strings.Split(View(), "\n"). The slice may be
	// shared with the board's memory: callers must not change it (an
	// append copies it, as the board clips it), nor keep it past the
	// board's next change of view, size or keys, whose draw may write
	// over it.
	ViewLines() []string
}

// Fitted is a Lines board that fits some of its lines to its width
// itself, laid out cell by cell, so that the session need not measure
// them again on every frame.
type Fitted interface {
	// FittedFrom says which of the lines ViewLines gave last the board
	// fitted: from that index on, each is at most w cells wide, where w
	// is the width the board was last given (SetSize). For any other w,
	// or if it fitted none, it is at least the number of lines.
	FittedFrom(w int) int
}

// Held is the action Update returns for a key a busy board held back. It
// is empty, which no encoded action is, so it can never be sent by
// mistake for a move.
func Held() []byte { return []byte{} }

// IsHeld reports whether action is Held(): a key held back, not a move.
func IsHeld(action []byte) bool { return action != nil && len(action) == 0 }

// Styles are the text styles every board shares; a board with pieces of
// its own (tiles, cards) declares its own Styles embedding these. They are
// built in tui/styles.go so that every style of the arcade is decided in
// one place.
type Styles struct {
	Heading  lipgloss.Style // section labels
	Strong   lipgloss.Style // emphasis: whose turn, results
	Dim      lipgloss.Style // secondary text
	Selected lipgloss.Style // the highlighted row
	Error    lipgloss.Style // refusals and problems
	Good     lipgloss.Style // success, a right guess
	Notice   lipgloss.Style // news (someone is back), never the error colour
}

// Keys are the keys every board shares, each board's KeyMap embeds them
// and adds its own game's. They are built in tui/keys.go; a board shows
// each with what it does there (widget.Help, widget.Pair).
type Keys struct {
	Up, Down, Left, Right key.Binding
	Choose                key.Binding // act on the highlighted row
	Guess                 key.Binding // open the guess entry
	Notes                 key.Binding // toggle the full notes panel
	Pick                  key.Binding // jump to a numbered row (1–9)
	Submit                key.Binding // send what was typed
	Cancel                key.Binding // close a field without sending
}
