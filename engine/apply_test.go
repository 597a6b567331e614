package engine

import (
	"strings"
	"testing"
)

// twoMoves is an action of two optional moves, as a game's Action is.
type twoMoves struct {
	Ask  *int `json:"ask,omitempty"`
	Pass bool `json:"pass,omitempty"`
}

func (a twoMoves) Moves() int { return CountSet(a.Ask != nil, a.Pass) }

func TestOpenApply(t *testing.T) {
	cases := []struct {
		name     string
		finished bool
		data     string
		refusal  string // "" when accepted
	}{
		{"one move", false, `{"ask":3}`, ""},
		{"finished", true, `{"ask":3}`, "The game is over."},
		{"no move", false, `{}`, "Choose one."},
		{"two moves", false, `{"ask":3,"pass":true}`, "Choose one."},
		{"unknown field", false, `{"ask":3,"x":1}`, "could not be read"},
		{"trailing data", false, `{"ask":3}{}`, "trailing data"},
		{"too large", false, `{"ask":3}` + strings.Repeat(" ", MaxActionBytes), "too large"},
	}
	for _, c := range cases {
		var a twoMoves
		err := OpenApply(c.finished, []byte(c.data), &a, "Choose one.")
		switch {
		case c.refusal == "" && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.refusal == "" && (a.Ask == nil || *a.Ask != 3):
			t.Errorf("%s: decoded %+v, want ask 3", c.name, a)
		case c.refusal != "" && (err == nil || !IsIllegal(err) || !strings.Contains(err.Error(), c.refusal)):
			t.Errorf("%s: error %v, want a refusal saying %q", c.name, err, c.refusal)
		}
	}
}

func TestFinalResultIsACopy(t *testing.T) {
	if _, ok := FinalResult(nil); ok {
		t.Fatal("FinalResult(nil) reports a result for a running game")
	}
	kept := &Result{Winners: []Seat{1}, Scores: []int{2, 5}, Summary: "Bo won."}
	r, ok := FinalResult(kept)
	if !ok || r.Summary != "Bo won." || !r.Won(1) || r.Scores[1] != 5 {
		t.Fatalf("FinalResult = %+v, %v", r, ok)
	}
	r.Winners[0], r.Scores[0] = 0, 9
	if kept.Winners[0] != 1 || kept.Scores[0] != 2 {
		t.Errorf("changing the returned result changed the game's: %+v", kept)
	}
}

func TestStatusOfAsksActiveOnlyWhileRunning(t *testing.T) {
	asked := 0
	active := func() []Seat { asked++; return []Seat{2} }
	if st := StatusOf(4, false, active); st.Turn != 4 || st.Finished || len(st.Active) != 1 || st.Active[0] != 2 {
		t.Errorf("running: %+v", st)
	}
	if st := StatusOf(9, true, active); !st.Finished || st.Active != nil {
		t.Errorf("finished: %+v, want no active seat", st)
	}
	if asked != 1 {
		t.Errorf("active asked %d times, want once (only while running)", asked)
	}
}

func TestTimers(t *testing.T) {
	if (Untimed{}).Timer() != nil {
		t.Error("Untimed has a timer")
	}
	if TimerAfter(0, []byte(`{}`)) != nil || TimerAfter(-5, []byte(`{}`)) != nil {
		t.Error("a timer of no time was asked for")
	}
	if tm := TimerAfter(1500, []byte(`{"timeout":1}`)); tm == nil || tm.DelayMillis != 1500 || string(tm.Action) != `{"timeout":1}` {
		t.Errorf("TimerAfter(1500) = %+v", tm)
	}
}

func TestSeatName(t *testing.T) {
	players := []Player{{Name: "Ann"}, {}}
	for seat, want := range map[Seat]string{0: "Ann", 1: "seat 2", 5: "seat 6", System: "seat 0"} {
		if got := SeatName(players, seat); got != want {
			t.Errorf("SeatName(%d) = %q, want %q", seat, got, want)
		}
	}
}

func TestEncodeAction(t *testing.T) {
	n := 3
	if got := string(EncodeAction(twoMoves{Ask: &n})); got != `{"ask":3}` {
		t.Errorf("EncodeAction = %s", got)
	}
}

// TestStartRecordCleansNames: a stored record is data at rest, and its
// players' names are cleaned as a replay starts from it.
func TestStartRecordCleansNames(t *testing.T) {
	g := namesGame{}
	rec := Record{Game: "names", Players: []Player{{Name: "ann\x1b]0;owned\x07"}, {Name: "bo", Bot: true}}}
	st, _, err := StartRecord(g, rec)
	if err != nil {
		t.Fatal(err)
	}
	got := st.(*namesState).players
	if got[0].Name != "ann" || got[1].Name != "bo" || !got[1].Bot {
		t.Errorf("players = %+v, want the names cleaned and the rest kept", got)
	}
	if rec.Players[0].Name != "ann\x1b]0;owned\x07" {
		t.Error("StartRecord changed the caller's record")
	}
}

// namesGame is the smallest game: it keeps its players and nothing else.
type namesGame struct{}

type namesState struct {
	Untimed
	players []Player
}

func (namesGame) Info() Info { return Info{ID: "names", Name: "Names", MinPlayers: 1, MaxPlayers: 4} }
func (namesGame) New(_ Options, players []Player, _ uint64) (State, error) {
	return &namesState{players: players}, nil
}
func (namesGame) NewBot(Seat, string, uint64) (Bot, error) { return nil, nil }

func (s *namesState) Status() Status                      { return StatusOf(1, false, func() []Seat { return nil }) }
func (s *namesState) Apply(Seat, []byte) ([]Event, error) { return nil, Illegal("No moves.") }
func (s *namesState) View(Viewer) any                     { return nil }
func (s *namesState) Result() (Result, bool)              { return FinalResult(nil) }
