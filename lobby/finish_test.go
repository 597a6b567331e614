package lobby

import (
	"strings"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
)

// TestFinishWaitsForRecordsDatabase: a finished game the records database
// cannot take yet (storage.ErrUnavailable) is retried until it is stored;
// meanwhile its live log stays, and the players are told when it takes
// long and again once it is saved.
func TestFinishWaitsForRecordsDatabase(t *testing.T) {
	store := newMemStore()
	store.failFinish = 40
	h := testHub(t, store, nil)
	h.finishRetry = finishRetry{base: time.Millisecond, max: 4 * time.Millisecond, slow: 20 * time.Millisecond}
	ann, bob := startTwo(t, h, engine.Options{"turns": "2"})
	id := ann.View().GameID
	if err := ann.Act(say(1)); err != nil {
		t.Fatal(err)
	}
	if err := bob.Act(say(2)); err != nil {
		t.Fatal(err)
	}
	v := waitView(t, ann, "the players told the save is slow", func(v TableView) bool {
		return strings.Contains(v.Unsaved, "records database is not answering")
	})
	if v.Phase != Finished {
		t.Fatalf("phase %v while saving, want finished", v.Phase)
	}
	waitView(t, bob, "the result saved", func(v TableView) bool { return v.Unsaved == "" })
	store.mu.Lock()
	_, stored := store.finished[id]
	live := store.live[id]
	left := store.failFinish
	store.mu.Unlock()
	if !stored || live != nil || left != 0 {
		t.Fatalf("stored %v, live log kept %v, refusals left %d", stored, live != nil, left)
	}
}

// TestFinishStillWaitingAtCloseKeepsLog: a hub that closes while a finish
// still waits leaves the live log, so the next start records it.
func TestFinishStillWaitingAtCloseKeepsLog(t *testing.T) {
	store := newMemStore()
	store.failFinish = 1 << 30
	h := testHub(t, store, nil)
	h.finishRetry = finishRetry{base: time.Millisecond, max: time.Millisecond, slow: time.Hour}
	ann, bob := startTwo(t, h, engine.Options{"turns": "2"})
	id := ann.View().GameID
	_ = ann.Act(say(1))
	_ = bob.Act(say(2))
	waitView(t, ann, "saving", func(v TableView) bool { return v.Unsaved == savingNotice })
	h.Close()
	if store.liveMoves(id) != 2 {
		t.Fatalf("live log has %d moves after close, want the 2 played", store.liveMoves(id))
	}
}
