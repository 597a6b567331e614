package engine

import (
	"strings"
	"testing"
)

func TestEventVisibility(t *testing.T) {
	public := Event{Kind: "ask", Text: "public"}
	private := Event{Kind: "guess", Text: "private", Seats: []Seat{1}}
	cases := []struct {
		v         Viewer
		pub, priv bool
	}{
		{SeatViewer(0), true, false},
		{SeatViewer(1), true, true},
		{Spectator(), true, false},
		{Omniscient(), true, true},
	}
	for _, c := range cases {
		if got := public.VisibleTo(c.v); got != c.pub {
			t.Errorf("public event visible to %+v = %v, want %v", c.v, got, c.pub)
		}
		if got := private.VisibleTo(c.v); got != c.priv {
			t.Errorf("private event visible to %+v = %v, want %v", c.v, got, c.priv)
		}
	}
	if got := FilterEvents([]Event{public, private}, Spectator()); len(got) != 1 || got[0].Text != "public" {
		t.Errorf("FilterEvents for a spectator = %+v, want only the public event", got)
	}
}

func TestResolveOptions(t *testing.T) {
	info := Info{Name: "Test", Options: []OptionSpec{
		{Key: "aid", Label: "Aid", Choices: []string{"on", "off"}, Default: "on"},
	}}
	got, err := info.Resolve(nil)
	if err != nil || got["aid"] != "on" {
		t.Fatalf("Resolve(nil) = %v, %v; want defaults", got, err)
	}
	if _, err := info.Resolve(Options{"aid": "maybe"}); !IsIllegal(err) {
		t.Errorf("a value outside the choices must be refused, got %v", err)
	}
	if _, err := info.Resolve(Options{"speed": "fast"}); !IsIllegal(err) {
		t.Errorf("an unknown option must be refused, got %v", err)
	}
}

// A game with rules revisions records the newest in a new game's options,
// reads a record without one as played under the first, and refuses a
// revision it does not have.
func TestResolveRulesRevision(t *testing.T) {
	info := Info{Name: "Test", Rules: []string{"1", "2"}, Options: []OptionSpec{
		{Key: "aid", Label: "Aid", Choices: []string{"on", "off"}, Default: "on"},
	}}
	got, err := info.Resolve(Options{"aid": "off"})
	if err != nil || got[RulesOption] != "2" || got["aid"] != "off" {
		t.Fatalf("Resolve for a new game = %v, %v; want rules 2", got, err)
	}
	got, err = info.ResolveRecord(Options{"aid": "off"})
	if err != nil || got[RulesOption] != "1" {
		t.Fatalf("ResolveRecord of an old record = %v, %v; want rules 1", got, err)
	}
	for _, resolve := range []func(Options) (Options, error){info.Resolve, info.ResolveRecord} {
		got, err = resolve(Options{RulesOption: "1"})
		if err != nil || got[RulesOption] != "1" {
			t.Errorf("a named revision must be kept, got %v, %v", got, err)
		}
		if _, err := resolve(Options{RulesOption: "3"}); !IsIllegal(err) {
			t.Errorf("an unknown revision must be refused, got %v", err)
		}
	}
	plain := Info{Name: "Plain"}
	if _, err := plain.Resolve(Options{RulesOption: "1"}); !IsIllegal(err) {
		t.Errorf("a game without revisions has no rules option, got %v", err)
	}
	if got, err := plain.ResolveRecord(nil); err != nil || len(got) != 0 {
		t.Errorf("a game without revisions records none, got %v, %v", got, err)
	}
}

func TestDecodeActionIsStrict(t *testing.T) {
	type act struct {
		Card int `json:"card"`
	}
	var a act
	if err := DecodeAction([]byte(`{"card":3}`), &a); err != nil || a.Card != 3 {
		t.Fatalf("valid action: %v %+v", err, a)
	}
	bad := []string{`{"card":3,"x":1}`, `{"card":3}{}`, `nope`, `{"card":"3"}`, "{\"card\":" + strings.Repeat("1", MaxActionBytes) + "}"}
	for _, b := range bad {
		if err := DecodeAction([]byte(b), &a); !IsIllegal(err) {
			t.Errorf("DecodeAction(%.40q) = %v, want an illegal-action error", b, err)
		}
	}
}

func TestViewAs(t *testing.T) {
	type view struct{ N int }
	if v, err := ViewAs[view](view{N: 1}); err != nil || v.N != 1 {
		t.Errorf("ViewAs(value) = %+v, %v", v, err)
	}
	if v, err := ViewAs[view](&view{N: 2}); err != nil || v.N != 2 {
		t.Errorf("ViewAs(pointer) = %+v, %v", v, err)
	}
	if _, err := ViewAs[view]((*view)(nil)); err == nil {
		t.Error("ViewAs(nil pointer) must fail")
	}
	if _, err := ViewAs[view]("nope"); err == nil || !strings.Contains(err.Error(), "string") {
		t.Errorf("ViewAs(wrong type) = %v, want an error naming the type", err)
	}
}

// revGame is a game whose state only remembers the rules it was dealt under.
type revGame struct{}

type revState struct{ rules string }

func (revGame) Info() Info {
	return Info{ID: "rev", Name: "Rev", MinPlayers: 1, MaxPlayers: 1, Rules: []string{"old", "new"}}
}
func (revGame) New(opts Options, _ []Player, _ uint64) (State, error) {
	return &revState{rules: opts[RulesOption]}, nil
}
func (revGame) NewBot(Seat, string, uint64) (Bot, error) { return nil, nil }
func (*revState) Status() Status                         { return Status{} }
func (*revState) Apply(Seat, []byte) ([]Event, error)    { return nil, nil }
func (s *revState) View(Viewer) any                      { return s.rules }
func (*revState) Result() (Result, bool)                 { return Result{}, false }
func (*revState) Timer() *Timer                          { return nil }

// New games are dealt under the newest rules; replays under the rules the
// record names, the first when it names none.
func TestReplayKeepsTheRecordedRules(t *testing.T) {
	reg := NewRegistry(revGame{})
	players := []Player{{Name: "a"}}
	st, opts, err := Start(revGame{}, nil, players, 1)
	if err != nil || st.View(Omniscient()) != "new" || opts[RulesOption] != "new" {
		t.Fatalf("new game: %v, %v, %v; want the newest rules", st.View(Omniscient()), opts, err)
	}
	for _, c := range []struct {
		opts Options
		want string
	}{{nil, "old"}, {Options{RulesOption: "old"}, "old"}, {opts, "new"}} {
		st, _, err := Replay(reg, Record{Game: "rev", Options: c.opts, Players: players}, -1)
		if err != nil || st.View(Omniscient()) != c.want {
			t.Errorf("replay of a record with options %v: %v, %v; want %s", c.opts, st.View(Omniscient()), err, c.want)
		}
	}
}

// A game's default bot level is the one it names, else the middle one.
func TestBotLevelDefault(t *testing.T) {
	for _, c := range []struct {
		info Info
		want string
	}{
		{Info{BotLevels: []string{"strong", "easy"}}, "easy"},
		{Info{BotLevels: []string{"strong", "easy"}, DefaultBotLevel: "strong"}, "strong"},
		{Info{BotLevels: []string{"strong", "medium", "easy"}}, "medium"},
		{Info{BotLevels: []string{"strong", "easy"}, DefaultBotLevel: "godlike"}, "easy"},
		{Info{}, ""},
	} {
		if got := c.info.BotLevelDefault(); got != c.want {
			t.Errorf("%v default %q: got %q, want %q", c.info.BotLevels, c.info.DefaultBotLevel, got, c.want)
		}
	}
}
