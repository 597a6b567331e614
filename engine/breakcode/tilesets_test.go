package breakcode

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// TestTileSetsListEverySetApart: tilesOf and tileSets list the same tiles
// as one append per tile did (nil for an empty set), and the lists
// tileSets carves from one array stay apart: appending to one never
// changes the next.
func TestTileSetsListEverySetApart(t *testing.T) {
	naive := func(mask uint32) []Tile {
		var out []Tile
		for p := range tileCount {
			if mask&(1<<p) != 0 {
				out = append(out, tileAt(p))
			}
		}
		return out
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for range 200 {
		masks := make([]uint32, 1+rng.IntN(6))
		for i := range masks {
			if rng.IntN(5) > 0 {
				masks[i] = rng.Uint32() & (1<<tileCount - 1) & rng.Uint32()
			}
		}
		sets := tileSets(masks)
		for i, m := range masks {
			if want := naive(m); !reflect.DeepEqual(tilesOf(m), want) || !reflect.DeepEqual(sets[i], want) {
				t.Fatalf("mask %b: tilesOf %v, tileSets %v, want %v", m, tilesOf(m), sets[i], want)
			}
		}
		if len(sets) > 1 && len(sets[0]) > 0 && len(sets[1]) > 0 {
			next := sets[1][0]
			_ = append(sets[0], Tile{Number: 99})
			if sets[1][0] != next {
				t.Fatal("appending to one listed set changed the next")
			}
		}
	}
}

// TestTileSetsReadAsTheirTiles: a view's TileSets reads, set by set and
// whole, as the tiles its masks stand for, and encodes in JSON byte for
// byte as the [][]Tile a view carried before (inside a struct, with
// omitempty, nil, empty sets and both green 5s), and decodes back.
func TestTileSetsReadAsTheirTiles(t *testing.T) {
	type carrier struct {
		A TileSets `json:"a,omitempty"`
		B TileSets `json:"b"`
	}
	type carried struct {
		A [][]Tile `json:"a,omitempty"`
		B [][]Tile `json:"b"`
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for k := range 2000 {
		var a, b []uint32
		for range rng.IntN(6) {
			a = append(a, canonical(rng.Uint32()&(1<<tileCount-1)&rng.Uint32()))
		}
		for range rng.IntN(3) {
			m := uint32(0)
			if rng.IntN(4) > 0 {
				m = canonical(rng.Uint32() & (1<<tileCount - 1))
			}
			b = append(b, m)
		}
		got := carrier{A: tileSetsOf(a), B: tileSetsOf(b)}
		if k%7 == 0 {
			got.B = TileSets{} // empty, not nil: still encoded as a list
		}
		want := carried{A: tileSets(a), B: tileSets(b)}
		if k%7 == 0 {
			want.B = [][]Tile{}
		}
		gj, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		wj, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		if string(gj) != string(wj) {
			t.Fatalf("%b %b: encoded %s, want %s", a, b, gj, wj)
		}
		if got.A.Len() != len(want.A) || !reflect.DeepEqual(got.A.Sets(), want.A) {
			t.Fatalf("%b: sets %v, want %v", a, got.A.Sets(), want.A)
		}
		for i := range got.A.Len() {
			if !reflect.DeepEqual(got.A.Set(i), want.A[i]) {
				t.Fatalf("%b: set %d %v, want %v", a, i, got.A.Set(i), want.A[i])
			}
		}
		var back carrier
		if err := json.Unmarshal(gj, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, got) {
			t.Fatalf("%s decoded as %v, want %v", gj, back, got)
		}
	}
}

// TestViewsKeepWhatTheyShowedAfterLaterMoves: a view shares memory with
// the state's memos — a seat's aid lists (and with the seat's other views
// until what it knows changes), the public record, the face-up cards and
// the dealt tiles — so
// nothing the state does later may write over what an older view shows:
// every view taken in seeded random games (each seat's, a spectator's,
// the omniscient one) encodes at the end exactly as it did when taken.
func TestViewsKeepWhatTheyShowedAfterLaterMoves(t *testing.T) {
	type taken struct {
		v    View
		json string
	}
	for n := 2; n <= 4; n++ {
		for g := range uint64(3) {
			seed := 9_300_000 + uint64(n)*100 + g
			rng := rand.New(rand.NewPCG(seed, 3))
			s := newState(true, make([]engine.Player, n), seed)
			var views []taken
			aided := 0
			for s.phase != Finished {
				viewers := []engine.Viewer{engine.Spectator(), engine.Omniscient()}
				for seat := range n {
					viewers = append(viewers, engine.SeatViewer(engine.Seat(seat)))
				}
				for _, who := range viewers {
					v := s.view(who)
					b, err := json.Marshal(v)
					if err != nil {
						t.Fatal(err)
					}
					views = append(views, taken{v, string(b)})
					if who.Kind == engine.ViewerSeat && v.Seats[(int(who.Seat)+1)%n].Marks != nil {
						aided++
					}
				}
				if _, err := s.Apply(s.toMove, randomAction(rng, s)); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
			}
			if aided == 0 {
				t.Fatalf("%dp seed %d: no view had the aid", n, seed)
			}
			for i, tk := range views {
				b, err := json.Marshal(tk.v)
				if err != nil {
					t.Fatal(err)
				}
				if string(b) != tk.json {
					t.Fatalf("%dp seed %d: view %d changed after later moves:\n was %s\n now %s", n, seed, i, tk.json, b)
				}
			}
		}
	}
}

// TestSeatViewWritesNoAid: a seat's view writes nothing out for its aid
// (the counts, marks and listed sets are the seat's memo's): once the aid
// is remembered, a view with it allocates exactly what a view without it
// does — one slice, the seats: the hands, the face-up cards and the
// questions are shared with the views before until they change.
func TestSeatViewWritesNoAid(t *testing.T) {
	for n := 2; n <= 4; n++ {
		s := askedPosition(t, n, 3, 1)
		seat := engine.SeatViewer(0)
		if v := s.view(seat); v.Seats[1].Marks == nil {
			t.Fatalf("%dp: the seat's view has no aid", n)
		}
		with := testing.AllocsPerRun(20, func() { _ = s.view(seat) })
		without := testing.AllocsPerRun(20, func() { _ = s.viewAid(seat, false) })
		if with != without || with != 1 {
			t.Errorf("%dp: a view with its aid remembered allocates %v times, one without the aid %v; want 1", n, with, without)
		}
	}
}
