package lobby_test

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	wtr "github.com/codebreakers/codebreakers/engine/whattherule"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/storage"
)

// memStore is the smallest lobby.Store: everything in memory.
type memStore struct {
	mu   sync.Mutex
	next int
	live map[string]*storage.LiveGame
	done map[string]storage.FinishedGame
}

func (m *memStore) NewGameID() (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.next++
	return fmt.Sprintf("W%d", m.next), nil
}

func (m *memStore) StartGame(g storage.LiveGame) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.live[g.ID] = &g
	return nil
}

func (m *memStore) AppendMove(id string, index int, mv engine.Move) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	g := m.live[id]
	if g == nil || index != len(g.Record.Moves) {
		return errors.New("bad append")
	}
	g.Record.Moves = append(g.Record.Moves, mv)
	return nil
}

func (m *memStore) FinishGame(g storage.FinishedGame) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.live, g.ID)
	m.done[g.ID] = g
	return nil
}

func (m *memStore) AbandonGame(id string) error { return nil }

func (m *memStore) LiveGames() ([]storage.LiveGame, error) { return nil, nil }

// A table of one person (played here by a bot's choices) and three lobby
// bots plays a whole game through the hub: the lobby's bot runner, timers
// and views work with this engine, no bot move is refused (which would break
// the table), a spectator never holds the rule, and the record replays.
func TestWhatTheRuleWholeGameThroughTheLobby(t *testing.T) {
	store := &memStore{live: map[string]*storage.LiveGame{}, done: map[string]storage.FinishedGame{}}
	hub, err := lobby.NewHub(lobby.Config{
		Games: engine.NewRegistry(wtr.Game{}), Store: store, Logger: slog.New(slog.DiscardHandler),
		Grace: time.Hour, BotDelay: -1,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Close)
	me := lobby.Identity{Account: "SHA256:ann", Handle: "ann"}
	conn, err := hub.Create(me, lobby.TableSpec{Game: wtr.ID, Seats: 4, Bots: 3, BotLevel: wtr.LevelStrong,
		Options: engine.Options{wtr.OptRounds: "4"}})
	if err != nil {
		t.Fatal(err)
	}
	spy, err := hub.Watch(lobby.Identity{Account: "SHA256:spy", Handle: "spy"}, conn.View().Code)
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.Start(); err != nil {
		t.Fatal(err)
	}
	brain := &wtr.Bot{Seat: conn.Viewer().Seat, Level: wtr.LevelStrong, Seed: 9}
	deadline := time.NewTimer(60 * time.Second)
	defer deadline.Stop()
	acted := 0
	for {
		v := conn.View()
		if sv := spy.View(); sv.Phase == lobby.Playing {
			if b, ok := sv.Board.(wtr.View); ok && (b.Rule != nil || b.Fits != nil || b.Hand != nil) {
				t.Fatal("the spectator holds the rule or a hand")
			}
		}
		if v.Phase == lobby.Finished || v.Phase == lobby.Broken {
			if v.Phase == lobby.Broken {
				t.Fatalf("table broke: %s", v.Notice)
			}
			break
		}
		if b, ok := v.Board.(wtr.View); ok && v.Phase == lobby.Playing && slices.Contains(v.Status.Active, v.You.Seat) {
			if a, err := brain.Act(b); err == nil && a != nil {
				if err := conn.Act(a); err != nil && !engine.IsIllegal(err) {
					t.Fatal(err)
				}
				if acted++; acted > 5000 {
					t.Fatal("the person keeps acting without the game ending")
				}
				continue
			}
		}
		select {
		case <-conn.Updates():
		case <-deadline.C:
			t.Fatalf("gave up waiting; phase %v, status %+v", v.Phase, v.Status)
		}
	}
	if acted == 0 {
		t.Fatal("the person never acted")
	}
	store.mu.Lock()
	defer store.mu.Unlock()
	if len(store.done) != 1 {
		t.Fatalf("%d finished games stored", len(store.done))
	}
	for _, g := range store.done {
		st, _, err := engine.Replay(engine.NewRegistry(wtr.Game{}), g.Record, -1)
		if err != nil {
			t.Fatal(err)
		}
		res, ok := st.Result()
		if !ok || res.Summary != g.Result.Summary {
			t.Fatalf("replayed result %+v, stored %+v", res, g.Result)
		}
		if v := st.View(engine.Omniscient()).(wtr.View); len(v.Rounds) != 4 {
			t.Fatalf("%d rounds played", len(v.Rounds))
		}
	}
}
