package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	bc "github.com/codebreakers/codebreakers/engine/breakcode"
	cg "github.com/codebreakers/codebreakers/engine/coding"
	"github.com/codebreakers/codebreakers/engine/enginetest"
	it "github.com/codebreakers/codebreakers/engine/ifthen"
	wtr "github.com/codebreakers/codebreakers/engine/whattherule"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/tui/board"
	"github.com/codebreakers/codebreakers/tui/board/boardtest"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// helpGame is a seeded bot game whose moments the help check visits.
type helpGame struct {
	game    engine.Game
	opts    engine.Options
	players int
	seed    uint64
	every   int // visit every every-th move
	moves   int // up to this move
}

func helpGames() []helpGame {
	return []helpGame{
		{bc.Game{}, nil, 2, 3, 2, 30},
		{bc.Game{}, engine.Options{"aid": "off"}, 3, 5, 3, 30},
		{cg.Game{}, engine.Options{"system": cg.SystemSpeed}, 3, 4, 3, 60},
		{cg.Game{}, engine.Options{"system": cg.SystemCounter}, 2, 6, 3, 60},
		{it.Game{}, engine.Options{"allknowing": it.ModeServer}, 3, 3, 3, 40},
		{it.Game{}, engine.Options{"allknowing": it.ModeMastermind}, 4, 7, 3, 40},
		{it.Game{}, engine.Options{"allknowing": it.ModePlayer}, 2, 4, 2, 30},
		{wtr.Game{}, engine.Options{wtr.OptRounds: "2"}, 4, 3, 3, 60},
		{wtr.Game{}, engine.Options{wtr.OptRounds: "1", wtr.OptPoints: "off"}, 3, 9, 3, 40},
	}
}

// helpPositions are the moments of g as seats 0 and 1 and a spectator see
// them, each on a fresh board with the session's keys, and the end of the
// game replayed.
func helpPositions(t *testing.T, g helpGame) []boardtest.HelpPosition {
	t.Helper()
	info := g.game.Info()
	names := make([]string, g.players)
	bots := make([]bool, g.players)
	for i := range names {
		names[i] = fmt.Sprintf("p%d", i)
	}
	km := newKeys().board
	st := newStyles(true).board
	var out []boardtest.HelpPosition
	add := func(name string, view any, c board.Context) {
		out = append(out, boardtest.HelpPosition{Name: name, New: func() board.Board {
			b := newBoard(info.ID, &st, &km)
			b.SetView(view, c)
			return b
		}})
	}
	enginetest.PlayBotsEach(t, g.game, g.opts, g.players, info.BotLevels[0], g.seed, 4000,
		func(move int, s engine.State, events []engine.Event) {
			res, done := s.Result()
			if move > g.moves && !done || move%g.every != 0 && !done {
				return
			}
			var result *engine.Result
			if done {
				result = &res
			}
			for _, v := range []engine.Viewer{engine.SeatViewer(0), engine.SeatViewer(1), engine.Spectator()} {
				c := board.Context{Viewer: v, Names: names, Bots: bots, Status: s.Status(),
					Log: engine.FilterEvents(events, v), Result: result, Width: 100, Height: 32}
				add(fmt.Sprintf("%s %dp seed %d move %d viewer %v", info.ID, g.players, g.seed, move, v), s.View(v), c)
			}
			if done {
				v := engine.Omniscient()
				c := board.Context{Viewer: v, Names: names, Bots: bots, Status: s.Status(),
					Log: events, Result: result, Replay: true, Width: 100, Height: 32}
				add(fmt.Sprintf("%s %dp seed %d replay", info.ID, g.players, g.seed), s.View(v), c)
			}
		})
	return out
}

// TestHelpShowsOnlyKeysThatWork drives every board, in moments of seeded
// games of all four games and in the modes its keys open, with each key
// its help shows (key bar and ? help), and fails when one does nothing
// there, when one is shown twice with two meanings, or when a shown key is
// not one the board reads.
func TestHelpShowsOnlyKeysThatWork(t *testing.T) {
	for _, g := range helpGames() {
		t.Run(fmt.Sprintf("%s-%dp-%d", g.game.Info().ID, g.players, g.seed), func(t *testing.T) {
			boardtest.CheckHelpKeys(t, helpPositions(t, g), 2)
		})
	}
}

// TestEndScreenKeysAreNoMoveKeys: the keys a finished table adds (replay,
// rematch) are keys no board of any game reads for a move. A player pressing
// a move key just as the game ends must not open the replay or send the
// whole table back to the waiting room (The Coding's vote was v, the end
// screen's replay too; What the Rule?!'s reveal is r, the rematch too).
func TestEndScreenKeysAreNoMoveKeys(t *testing.T) {
	km := newKeys()
	moveKeys := map[string]string{} // key → where a board offers it
	for _, g := range helpGames() {
		for _, p := range helpPositions(t, g) {
			b := p.New()
			for _, group := range b.FullHelp() {
				for _, k := range group {
					if !k.Enabled() {
						continue
					}
					for _, s := range k.Keys() {
						if _, ok := moveKeys[s]; !ok {
							moveKeys[s] = fmt.Sprintf("%s (%q %s)", p.Name, k.Help().Key, k.Help().Desc)
						}
					}
				}
			}
		}
	}
	if _, ok := moveKeys["v"]; !ok {
		t.Fatal("no position offered The Coding's vote (v): the check would prove nothing")
	}
	for _, end := range []key.Binding{km.replayGame, km.rematch} {
		for _, s := range end.Keys() {
			if where, ok := moveKeys[s]; ok {
				t.Errorf("the end screen's %q (%s) is a move key on a board: %s", s, end.Help().Desc, where)
			}
		}
	}
}

// TestKeyBarFitsEightyColumnsOnEveryBoard: at 80 columns, in every visited
// moment of every game, the table's key bar (the board's keys, chat and
// ?) is one line, uncut, with "?" on it; the keys it leaves out are the
// last of the board's list, and each is in the board's ? help.
func TestKeyBarFitsEightyColumnsOnEveryBoard(t *testing.T) {
	a := newApp(Deps{}, nil, Session{Identity: lobby.Identity{Account: "a", Handle: "mara"}, Width: 80, Height: 24})
	for _, g := range helpGames() {
		for _, pos := range helpPositions(t, g) {
			b := pos.New()
			ks := append(b.ShortHelp(), a.km.chat, a.km.help)
			bar := ansi.Strip(a.keyBar(ks))
			if strings.Contains(bar, "\n") || strings.Contains(bar, "…") || widget.Width(bar) > a.helpWidth() || !strings.Contains(bar, "? ") {
				t.Fatalf("%s: the key bar at 80 columns is %q", pos.Name, bar)
			}
			var full []string
			for _, grp := range b.FullHelp() {
				for _, k := range grp {
					full = append(full, k.Help().Key+" "+k.Help().Desc)
				}
			}
			for _, k := range ks {
				h := k.Help()
				if h.Key == "?" || strings.Contains(bar, h.Key+" "+h.Desc) {
					continue
				}
				if k.Help().Key != a.km.chat.Help().Key && !slices.Contains(full, h.Key+" "+h.Desc) {
					t.Errorf("%s: %q is left out of the bar and not in the ? help", pos.Name, h.Key+" "+h.Desc)
				}
			}
		}
	}
}
