package whattherule

import (
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	wtr "github.com/codebreakers/codebreakers/engine/whattherule"
)

// BenchmarkRender times drawing a mid-round table at 80×24 for a player.
func BenchmarkRender(b *testing.B) {
	st, log := midRound(b, 30, nil)
	viewer := engine.SeatViewer(st.View(engine.Omniscient()).(wtr.View).ToMove)
	bd := New(new(plainStyles()), new(testKeys()))
	ctx := context(st, viewer, log, 80, 24)
	view := st.View(viewer)
	b.ResetTimer()
	for range b.N {
		bd.SetView(view, ctx)
		_ = bd.View()
	}
}

// midRound deals a 6-player round on library rule 20 and has the player to
// move play their first card plays times (declining every guess offer);
// beforeLast, when set, sees the table just before the last play.
func midRound(tb testing.TB, plays int, beforeLast func(st engine.State, log []engine.Event, toMove engine.Seat)) (engine.State, []engine.Event) {
	tb.Helper()
	players := make([]engine.Player, 6)
	for i := range players {
		players[i].Name = names[i]
	}
	st, _, err := engine.Start(wtr.Game{}, nil, players, 3)
	if err != nil {
		tb.Fatal(err)
	}
	om := st.View(engine.Omniscient()).(wtr.View)
	if _, err := st.Apply(om.GM, wtr.LibraryAction(20)); err != nil {
		tb.Fatal(err)
	}
	var log []engine.Event
	for m := range plays {
		v := st.View(engine.Omniscient()).(wtr.View)
		p := v.ToMove
		if m == plays-1 && beforeLast != nil {
			beforeLast(st, log, p)
		}
		evs, err := st.Apply(p, wtr.PlayAction(v.Hands[p][0].ID))
		if err != nil {
			tb.Fatal(err)
		}
		log = append(log, evs...)
		if st.View(engine.Omniscient()).(wtr.View).Phase == wtr.GuessOffer {
			evs, _ = st.Apply(p, wtr.NoGuessAction())
			log = append(log, evs...)
		}
	}
	return st, log
}
