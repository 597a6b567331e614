package lobby

import (
	"sync"
	"testing"
	"time"
)

// recordingObserver keeps every report it gets.
type recordingObserver struct {
	mu      sync.Mutex
	actions []Outcome
	games   []string
	broken  []string
}

func (o *recordingObserver) Action(game string, outcome Outcome, took time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if took < 0 {
		outcome = "negative duration"
	}
	o.actions = append(o.actions, outcome)
	o.games = append(o.games, game)
}

func (o *recordingObserver) TableBroken(game string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.broken = append(o.broken, game)
}

func TestObserverSeesEveryActionOutcome(t *testing.T) {
	store := newMemStore()
	obs := &recordingObserver{}
	h := testHub(t, store, func(c *Config) { c.Observer = obs })
	ann, bob := startTwo(t, h, nil)

	if err := ann.Act(say(1)); err != nil {
		t.Fatal(err)
	}
	if err := ann.Act(say(1)); err == nil { // bob's turn now
		t.Fatal("a move out of turn was accepted")
	}
	store.mu.Lock()
	store.failAppend = 1
	store.mu.Unlock()
	if err := bob.Act(say(2)); err == nil {
		t.Fatal("a move that could not be stored was accepted")
	}

	obs.mu.Lock()
	got := append([]Outcome(nil), obs.actions...)
	games := append([]string(nil), obs.games...)
	obs.mu.Unlock()
	want := []Outcome{OutcomeOK, OutcomeIllegal, OutcomeFailed}
	if len(got) != len(want) {
		t.Fatalf("observer saw %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] || games[i] != "secret" {
			t.Fatalf("report %d: %s for %q, want %s for secret", i, got[i], games[i], want[i])
		}
	}

	counts := h.TableCounts()
	if len(counts) != 1 || counts[0] != (TableCount{Game: "secret", Phase: Playing, Tables: 1}) {
		t.Fatalf("TableCounts = %+v, want one playing secret table", counts)
	}
}

func TestObserverCountsAPanickingMoveAsFailed(t *testing.T) {
	obs := &recordingObserver{}
	h := testHub(t, newMemStore(), func(c *Config) { c.Observer = obs })
	ann, _ := startTwo(t, h, nil)
	if err := ann.Act([]byte(`{"panic":true}`)); err != ErrBroken {
		t.Fatalf("panic: %v", err)
	}
	obs.mu.Lock()
	defer obs.mu.Unlock()
	if len(obs.actions) != 1 || obs.actions[0] != OutcomeFailed {
		t.Fatalf("a panicking move was reported as %v", obs.actions)
	}
	if len(obs.broken) != 1 || obs.broken[0] != "secret" {
		t.Fatalf("broken tables reported: %v", obs.broken)
	}
}
