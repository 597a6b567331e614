package engine

import (
	"fmt"
	"slices"
	"sort"
)

// Options are a game's settings as chosen at table creation, by key.
// Every value is one of the choices the game's OptionSpec lists, which keeps
// table setup screens generic and options trivially serialisable.
type Options map[string]string

// OptionSpec describes one setting a table creator may choose.
type OptionSpec struct {
	Key     string   `json:"key"`
	Label   string   `json:"label"`
	Help    string   `json:"help,omitempty"`
	Choices []string `json:"choices"`
	Default string   `json:"default"`
}

// Info is a game's metadata.
type Info struct {
	ID         string       // stable id used in records and commands, e.g. "breakcode"
	Name       string       // display name, e.g. "Break the Code"
	Summary    string       // one line for menus
	MinPlayers int          // inclusive
	MaxPlayers int          // inclusive
	Options    []OptionSpec // settings with their defaults
	BotLevels  []string     // bot levels, strongest first; empty when the game has no bots
}

// Defaults returns every option at its default value.
func (in Info) Defaults() Options {
	o := make(Options, len(in.Options))
	for _, spec := range in.Options {
		o[spec.Key] = spec.Default
	}
	return o
}

// Resolve fills missing options with defaults and rejects unknown keys or
// values that are not among an option's choices.
func (in Info) Resolve(opts Options) (Options, error) {
	out := in.Defaults()
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys) // deterministic error messages
	for _, k := range keys {
		v := opts[k]
		i := slices.IndexFunc(in.Options, func(s OptionSpec) bool { return s.Key == k })
		if i < 0 {
			return nil, Illegal("%s has no option %q.", in.Name, k)
		}
		if !slices.Contains(in.Options[i].Choices, v) {
			return nil, Illegal("Option %s must be one of %v, not %q.", in.Options[i].Label, in.Options[i].Choices, v)
		}
		out[k] = v
	}
	return out, nil
}

// CheckPlayers returns a user-facing error when n players cannot play.
func (in Info) CheckPlayers(n int) error {
	if n < in.MinPlayers || n > in.MaxPlayers {
		return Illegal("%s takes %d to %d players, not %d.", in.Name, in.MinPlayers, in.MaxPlayers, n)
	}
	return nil
}

// HasBotLevel reports whether level is one of the game's bot levels.
func (in Info) HasBotLevel(level string) bool { return slices.Contains(in.BotLevels, level) }

// String names the game for logs.
func (in Info) String() string { return fmt.Sprintf("%s (%s)", in.Name, in.ID) }
