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
	// DefaultBotLevel is the level bots play at when nobody chose one (quick
	// play, a table made without a choice). Cooperative games set their
	// strongest, so default teammates play well. Empty: the middle of
	// BotLevels (see BotLevelDefault).
	DefaultBotLevel string
	// Rules lists the revisions of the game's rules, oldest first, once a
	// rule has changed in a way that would play a stored game differently.
	// A new game is recorded with the newest under the option RulesOption;
	// a record without that option was played before revisions existed and
	// is read with the first (see ResolveRecord), so it replays exactly as
	// it was played. Empty: the game has one set of rules.
	Rules []string
}

// RulesOption is the option key under which a game's rules revision is
// recorded (see Info.Rules). It is set by the game, not chosen at a table:
// it is not among Info.Options.
const RulesOption = "rules"

// Defaults returns every option at its default value.
func (in Info) Defaults() Options {
	o := make(Options, len(in.Options))
	for _, spec := range in.Options {
		o[spec.Key] = spec.Default
	}
	return o
}

// Resolve fills missing options with defaults (and the newest rules
// revision) and rejects unknown keys or values that are not among an
// option's choices. It is for new games; a stored record is read with
// ResolveRecord.
func (in Info) Resolve(opts Options) (Options, error) {
	return in.resolve(opts, len(in.Rules)-1)
}

// ResolveRecord is Resolve for the options of a stored record: a record
// without the rules revision was made before the game had revisions, so it
// gets the first one, the rules it was played under.
func (in Info) ResolveRecord(opts Options) (Options, error) {
	return in.resolve(opts, 0)
}

// resolve fills defaults, with rules revision rev when opts has none.
func (in Info) resolve(opts Options, rev int) (Options, error) {
	out := in.Defaults()
	if len(in.Rules) > 0 {
		out[RulesOption] = in.Rules[rev]
	}
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys) // deterministic error messages
	for _, k := range keys {
		v := opts[k]
		if k == RulesOption && len(in.Rules) > 0 {
			if !slices.Contains(in.Rules, v) {
				return nil, Illegal("%s has no rules revision %q (it has %v).", in.Name, v, in.Rules)
			}
			out[k] = v
			continue
		}
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

// BotLevelDefault is the level bots play at when nobody chose one:
// DefaultBotLevel when the game sets one of its levels, otherwise the
// middle of BotLevels ("" when the game has no bots).
func (in Info) BotLevelDefault() string {
	if in.HasBotLevel(in.DefaultBotLevel) {
		return in.DefaultBotLevel
	}
	if len(in.BotLevels) == 0 {
		return ""
	}
	return in.BotLevels[len(in.BotLevels)/2]
}

// HasBotLevel reports whether level is one of the game's bot levels.
func (in Info) HasBotLevel(level string) bool { return slices.Contains(in.BotLevels, level) }

// String names the game for logs.
func (in Info) String() string { return fmt.Sprintf("%s (%s)", in.Name, in.ID) }
