package engine

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/codebreakers/codebreakers/engine/textsafe"
)

// Move is one entry of a game's log: who acted and the encoded action.
type Move struct {
	Seat   Seat            `json:"seat"`
	Action json.RawMessage `json:"action"`
}

// Record is everything needed to rebuild a game: options + seed + actions.
type Record struct {
	Game    string   `json:"game"`
	Options Options  `json:"options"`
	Players []Player `json:"players"`
	Seed    uint64   `json:"seed"`
	Moves   []Move   `json:"moves"`
}

// Registry maps game ids to games. It is built once at start-up and then
// only read, so it needs no lock.
type Registry struct {
	games []Game
}

// NewRegistry returns a registry of the given games, in menu order.
func NewRegistry(games ...Game) *Registry {
	return &Registry{games: slices.Clone(games)}
}

// Games returns the registered games in menu order.
func (r *Registry) Games() []Game { return slices.Clone(r.games) }

// Lookup returns the game with the given id.
func (r *Registry) Lookup(id string) (Game, bool) {
	for _, g := range r.games {
		if g.Info().ID == id {
			return g, true
		}
	}
	return nil, false
}

// Start resolves options, checks the player count and deals a new game,
// under the game's newest rules unless opts names a revision.
func Start(g Game, opts Options, players []Player, seed uint64) (State, Options, error) {
	return start(g, opts, players, seed, Info.Resolve)
}

// StartRecord deals the game rec records, as it was dealt when it was
// played: under the rules revision its options name, or the game's first
// one when they name none (see Info.Rules). Replays start here.
//
// A record is data at rest, which any version or node may have written, so
// this is the door its players' names come in by: they are cleaned
// (textsafe.Clean) before the game narrates with them. Names the table gave
// are clean already and come through unchanged.
func StartRecord(g Game, rec Record) (State, Options, error) {
	players := slices.Clone(rec.Players)
	for i := range players {
		players[i].Name = textsafe.Clean(players[i].Name, 0).String()
	}
	return start(g, rec.Options, players, rec.Seed, Info.ResolveRecord)
}

func start(g Game, opts Options, players []Player, seed uint64, resolve func(Info, Options) (Options, error)) (State, Options, error) {
	info := g.Info()
	if err := info.CheckPlayers(len(players)); err != nil {
		return nil, nil, err
	}
	resolved, err := resolve(info, opts)
	if err != nil {
		return nil, nil, err
	}
	st, err := g.New(resolved, slices.Clone(players), seed)
	if err != nil {
		return nil, nil, fmt.Errorf("deal %s: %w", info.ID, err)
	}
	return st, resolved, nil
}

// Replay rebuilds the state after the first n moves of rec (all moves when
// n < 0 or n > len(rec.Moves)) and returns every event produced on the way.
// A move the engine refuses means the record is corrupt or the engine has
// changed incompatibly; that is reported as an error naming the move.
func Replay(reg *Registry, rec Record, n int) (State, []Event, error) {
	g, ok := reg.Lookup(rec.Game)
	if !ok {
		return nil, nil, fmt.Errorf("replay: unknown game %q", rec.Game)
	}
	st, _, err := StartRecord(g, rec)
	if err != nil {
		return nil, nil, fmt.Errorf("replay: %w", err)
	}
	if n < 0 || n > len(rec.Moves) {
		n = len(rec.Moves)
	}
	var events []Event
	for i, m := range rec.Moves[:n] {
		evs, err := st.Apply(m.Seat, m.Action)
		if err != nil {
			return nil, nil, fmt.Errorf("replay %s move %d (seat %d): %w", rec.Game, i+1, m.Seat, err)
		}
		events = append(events, evs...)
	}
	return st, events, nil
}
