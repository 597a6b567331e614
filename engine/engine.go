// Package engine is the small contract every Codebreakers game implements.
//
// A game is pure: no I/O, no clocks, no goroutines and no global randomness.
// A whole game is described by a Record (game id, options, players, seed and
// the ordered moves), and replaying that record always rebuilds exactly the
// same state. The only road from a state to a screen is State.View, which
// filters hidden information for the viewer asking.
package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Seat is a player's place at the table, from 0 to players-1.
type Seat int

// System is the seat used for actions that no player takes themselves:
// timer expiries and other table-driven events. They are logged like any
// other move so that replays stay exact.
const System Seat = -1

// MaxActionBytes bounds the size of one encoded action. Anything larger is
// rejected before decoding, so a hostile client cannot make a table parse
// megabytes.
const MaxActionBytes = 4096

// ViewerKind says what sort of viewer is looking at a state.
type ViewerKind int

const (
	// ViewerSeat is a player in a seat: they see public information and their own secrets.
	ViewerSeat ViewerKind = iota
	// ViewerSpectator watches a live game and sees public information only.
	ViewerSpectator
	// ViewerOmniscient sees everything. Only finished games are shown this way (replays).
	ViewerOmniscient
)

// Viewer identifies who a view or an event is for.
type Viewer struct {
	Kind ViewerKind
	Seat Seat // meaningful only when Kind is ViewerSeat
}

// SeatViewer is the viewer for the player in seat s.
func SeatViewer(s Seat) Viewer { return Viewer{Kind: ViewerSeat, Seat: s} }

// Spectator is the viewer for someone watching a live game.
func Spectator() Viewer { return Viewer{Kind: ViewerSpectator, Seat: System} }

// Omniscient is the viewer for the replay of a finished game.
func Omniscient() Viewer { return Viewer{Kind: ViewerOmniscient, Seat: System} }

// IsSeat reports whether v is the player in seat s.
func (v Viewer) IsSeat(s Seat) bool { return v.Kind == ViewerSeat && v.Seat == s }

// Player is one participant as the engine knows them: a display name used in
// narration, and whether a bot controls the seat.
type Player struct {
	Name string `json:"name"`
	Bot  bool   `json:"bot,omitempty"`
}

// Event is one line of narration produced by applying an action, such as
// "Ann asked: sum of your tiles → Bo 27, Kai 20".
//
// An event with no Seats is public. An event with Seats is private to those
// seats (and to omniscient replays); spectators never see it.
type Event struct {
	Kind  string `json:"kind"`            // machine-readable tag, e.g. "ask", "guess", "end"
	Text  string `json:"text"`            // one sentence, in the project's words
	Seats []Seat `json:"seats,omitempty"` // nil: everyone; otherwise only these seats
	// Others is a private event told to a viewer outside Seats who may
	// see it (the omniscient replay of a finished game), saying whose it
	// is: "Ann drew 3▲b." where Ann herself reads "You drew 3▲b.". Empty
	// when Text reads right for every viewer.
	Others string `json:"others,omitempty"`
}

// For is the event as viewer v reads it: Others in place of Text for a
// viewer outside Seats (an omniscient replay), so a private event always
// says whose it is. Only call it for viewers the event is VisibleTo.
func (e Event) For(v Viewer) Event {
	if e.Others != "" && !(v.Kind == ViewerSeat && slices.Contains(e.Seats, v.Seat)) {
		e.Text = e.Others
	}
	e.Others = ""
	return e
}

// VisibleTo reports whether viewer v may see the event.
func (e Event) VisibleTo(v Viewer) bool {
	if len(e.Seats) == 0 || v.Kind == ViewerOmniscient {
		return true
	}
	if v.Kind != ViewerSeat {
		return false
	}
	for _, s := range e.Seats {
		if s == v.Seat {
			return true
		}
	}
	return false
}

// FilterEvents returns the events v may see, in order.
func FilterEvents(events []Event, v Viewer) []Event {
	out := make([]Event, 0, len(events))
	for _, e := range events {
		if e.VisibleTo(v) {
			out = append(out, e.For(v))
		}
	}
	return out
}

// Result is how a game ended.
type Result struct {
	Winners []Seat `json:"winners,omitempty"` // empty when nobody won
	Draw    bool   `json:"draw,omitempty"`    // a tie between the winners (or nobody won by rule)
	Scores  []int  `json:"scores,omitempty"`  // per seat, for games that score
	Summary string `json:"summary"`           // one sentence: "Bo broke the code in 9 turns."
}

// Won reports whether seat s is among the winners.
func (r Result) Won(s Seat) bool {
	for _, w := range r.Winners {
		if w == s {
			return true
		}
	}
	return false
}

// Status is the public, game-agnostic summary of where a game stands. Lobby
// lists and title bars use it without knowing the game.
type Status struct {
	Turn     int    `json:"turn"`     // 1-based count of turns taken so far plus one
	Active   []Seat `json:"active"`   // seats that may act now; empty when finished
	Finished bool   `json:"finished"` // true once Result is final
}

// Timer asks the table to apply Action for System after Delay unless the
// state changes first. Engines have no clock; the table owns time and logs
// the expiry as an ordinary move, so replays are exact.
type Timer struct {
	DelayMillis int             `json:"delay_ms"`
	Action      json.RawMessage `json:"action"`
}

// State is one game in progress. It is not safe for concurrent use: the
// table goroutine that owns it is the only caller.
type State interface {
	// Status says whose move it is.
	Status() Status
	// Apply validates the JSON-encoded action from seat and applies it. An
	// illegal action returns an error (an *IllegalError with a message for
	// the player) and leaves the state untouched. Events are returned
	// unfiltered; callers filter them per viewer with FilterEvents.
	Apply(seat Seat, action []byte) ([]Event, error)
	// View returns an immutable snapshot of what v may know. The concrete
	// type is defined by the game package; callers that draw it type-assert.
	View(v Viewer) any
	// Result reports how the game ended; ok is false while it is running.
	Result() (r Result, ok bool)
	// Timer returns a pending timer, or nil when nothing is timed.
	Timer() *Timer
}

// BotViewer is a State whose seat views carry help for people that no bot
// reads and that is costly to work out (Break the Code's aid: how many
// hands each opponent may still hold). The lobby gives a bot BotView(seat)
// instead of View(SeatViewer(seat)); the two differ only in that help, so
// a bot decides the same on either.
type BotViewer interface {
	BotView(seat Seat) any
}

// Bot chooses moves for one seat from that seat's view only.
type Bot interface {
	// Act returns the encoded action the bot wants to take given its seat's
	// view, or nil when it has nothing to do now. It must be deterministic
	// for a given seed and sequence of views.
	Act(view any) ([]byte, error)
}

// Game is a game's package-level description: its metadata, a constructor
// and its bots.
type Game interface {
	// Info describes the game.
	Info() Info
	// New deals a new game. opts must already be resolved (Info.Resolve).
	New(opts Options, players []Player, seed uint64) (State, error)
	// NewBot returns a bot of the given level (one of Info.BotLevels) for seat.
	NewBot(seat Seat, level string, seed uint64) (Bot, error)
}

// IllegalError is a user-facing refusal of an action. Its message says what
// was wrong and, where it helps, what to do instead.
type IllegalError struct {
	Msg string
}

func (e *IllegalError) Error() string { return e.Msg }

// Illegal formats a user-facing refusal.
func Illegal(format string, args ...any) error {
	return &IllegalError{Msg: fmt.Sprintf(format, args...)}
}

// IsIllegal reports whether err is a refusal of an action by the rules (as
// opposed to an internal failure).
func IsIllegal(err error) bool {
	var ie *IllegalError
	return errors.As(err, &ie)
}

// DecodeAction decodes a JSON action strictly: bounded size, no unknown
// fields and nothing after the value. Games use it at the top of Apply.
func DecodeAction(data []byte, into any) error {
	if len(data) > MaxActionBytes {
		return Illegal("That action is too large.")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return Illegal("That action could not be read: %v.", err)
	}
	if dec.More() {
		return Illegal("That action has trailing data.")
	}
	return nil
}

// ViewAs returns view as the game's concrete view type T, accepting T or a
// non-nil *T. Bots and boards receive views as `any`; this is the one place
// that turns them back into their game's type with a clear error.
func ViewAs[T any](view any) (T, error) {
	var zero T
	switch x := view.(type) {
	case T:
		return x, nil
	case *T:
		if x != nil {
			return *x, nil
		}
		return zero, fmt.Errorf("view is a nil %T", x)
	default:
		return zero, fmt.Errorf("view is %T, not %T", view, zero)
	}
}
