package lobby

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/breakcode"
)

// bcLeak describes what a Break the Code view shows that viewer v must not
// see, or "" when it is clean. Spectators see no tiles at all; a seat sees
// only its own hand (and the centre once it has guessed).
func bcLeak(tv TableView) string {
	b, ok := tv.Board.(breakcode.View)
	if !ok {
		if tv.Board == nil {
			return ""
		}
		return fmt.Sprintf("board is %T", tv.Board)
	}
	v := tv.You
	if tv.Phase == Finished {
		// A finished game is revealed to everyone, as its replay would be.
		if b.Viewer.Kind != engine.ViewerOmniscient {
			return fmt.Sprintf("viewer %v of a finished game gets a %v board, not the full reveal", v, b.Viewer)
		}
		return ""
	}
	if v.Kind == engine.ViewerSpectator && (b.Hand != nil || b.Centre != nil || b.Unused != nil) {
		return "spectator sees a hand, the centre or unused tiles"
	}
	for i, s := range b.Seats {
		if s.Hand != nil && !v.IsSeat(engine.Seat(i)) {
			return fmt.Sprintf("viewer %v sees seat %d's hand", v, i)
		}
	}
	for _, e := range tv.Log {
		if !e.VisibleTo(v) {
			return fmt.Sprintf("viewer %v got a private event %+v", v, e)
		}
	}
	return ""
}

// TestBreakcodeViewsHideTiles plays a whole 3-player Break the Code game (one
// person helped by a bot, two bots) while a spectator checks every version it
// is shown.
func TestBreakcodeViewsHideTiles(t *testing.T) {
	store := newMemStore()
	h := testHub(t, store, nil, breakcode.Game{})
	ann, err := h.Create(ident("ann"), TableSpec{Game: breakcode.ID, Seats: 3, Bots: 2, BotLevel: breakcode.LevelEasy, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	spy, err := h.Watch(ident("spy"), ann.View().Code)
	if err != nil {
		t.Fatal(err)
	}
	problems := make(chan string, 1)
	watched := make(chan int)
	go func() {
		seen := 0
		defer func() { watched <- seen }()
		for {
			v := spy.View()
			seen++
			if p := bcLeak(v); p != "" {
				problems <- p
				return
			}
			if data, _ := json.Marshal(v); v.Phase == Playing && (strings.Contains(string(data), `"hand":[`) || strings.Contains(string(data), `"centre":[`)) {
				problems <- "spectator JSON holds tiles: " + string(data)
				return
			}
			if v.Phase == Finished || v.Phase == Broken {
				return
			}
			select {
			case <-spy.Updates():
			case <-spy.Done():
				return
			}
		}
	}()
	if err := ann.Start(); err != nil {
		t.Fatal(err)
	}
	helper, _ := breakcode.Game{}.NewBot(0, breakcode.LevelEasy, 1)
	for {
		v := waitView(t, ann, "ann's turn or the end", func(v TableView) bool {
			return v.Phase != Playing || v.Board.(breakcode.View).YourTurn()
		})
		if p := bcLeak(v); p != "" {
			t.Fatal(p)
		}
		if v.Phase != Playing {
			if v.Phase != Finished || v.Result == nil {
				t.Fatalf("ended as %v: %q", v.Phase, v.Notice)
			}
			break
		}
		act, err := helper.Act(v.Board)
		if err != nil || act == nil {
			t.Fatalf("helper: %s %v", act, err)
		}
		if err := ann.Act(act); err != nil {
			t.Fatal(err)
		}
	}
	seen := <-watched
	select {
	case p := <-problems:
		t.Fatal(p)
	default:
	}
	if seen < 2 {
		t.Fatalf("the spectator saw only %d versions", seen)
	}
}
