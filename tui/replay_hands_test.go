package tui

import (
	"context"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	bc "github.com/codebreakers/codebreakers/engine/breakcode"
	cg "github.com/codebreakers/codebreakers/engine/coding"
	"github.com/codebreakers/codebreakers/engine/enginetest"
	it "github.com/codebreakers/codebreakers/engine/ifthen"
	wtr "github.com/codebreakers/codebreakers/engine/whattherule"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/storage"
)

// allGamesApp is a signed-in session whose registry holds all four games.
func allGamesApp(t *testing.T, store AccountStore) *app {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	m := newApp(Deps{Store: store, Games: engine.NewRegistry(bc.Game{}, cg.Game{}, it.Game{}, wtr.Game{})}, &fakeHub{}, Session{
		Identity: lobby.Identity{Account: "SHA256:test", Handle: "mara"}, Width: 100, Height: 40, Context: ctx,
	})
	m.pump = func(context.Context, tableConn) tea.Cmd { return nil }
	run(t, m, m.Init())
	return m
}

// TestReplayShowsEveryHand: the step-by-step replay of an If Then and a
// What the Rule?! game shows every player's hand, and a private event says
// whose it is ("p1 drew …", never "You drew …").
func TestReplayShowsEveryHand(t *testing.T) {
	for _, c := range []struct {
		game  engine.Game
		opts  engine.Options
		hands string // what the board calls the hands
	}{
		{it.Game{}, engine.Options{"allknowing": it.ModeServer}, "Hands"},
		{wtr.Game{}, engine.Options{wtr.OptRounds: "1"}, "Hands"},
	} {
		id := c.game.Info().ID
		p := enginetest.PlayBots(t, c.game, c.opts, 3, c.game.Info().BotLevels[0], 11, 4000)
		g := storage.FinishedGame{LiveGame: storage.LiveGame{ID: "8F3K2", Record: p.Record}, Result: p.Result}
		for i, pl := range p.Record.Players {
			g.Seats = append(g.Seats, storage.SeatRecord{Handle: pl.Name, Bot: i > 0})
		}
		store := newFakeStore()
		store.games[g.ID] = g
		m := allGamesApp(t, store)
		run(t, m, m.openReplay(g.ID))
		r, ok := m.top().(*replayScreen)
		if !ok {
			t.Fatalf("%s: no replay: %T\n%s", id, m.top(), screenText(m))
		}
		// Step to a moment where every seat holds cards and someone drew.
		drew := regexp.MustCompile(`\bp[0-9] drew\b`)
		found := false
		for step := 1; step <= r.moves() && !found; step++ {
			r.step = step
			m.draw()
			s := screenText(m)
			if strings.Contains(s, "You drew") {
				t.Fatalf("%s step %d: a private event reads in the second person:\n%s", id, step, s)
			}
			if !drew.MatchString(s) || !strings.Contains(s, c.hands) {
				continue
			}
			found = true
			for _, name := range []string{"p0", "p1", "p2"} {
				if !regexp.MustCompile(`(?m)^\s+` + name + `\s+\S`).MatchString(s) {
					t.Errorf("%s step %d: %s's hand is not shown:\n%s", id, step, name, s)
				}
			}
		}
		if !found {
			t.Errorf("%s: no step of the replay shows the hands and whose draw it was", id)
		}
	}
}
