package breakcode

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// bruteMarks enumerates every deal of the tiles the seat viewing v cannot
// see that agrees with what it heard (as brute does) and collects, per
// opponent and for the centre, the tiles each position shows in some deal.
// It gives up past limit deals.
func bruteMarks(v View, limit int) (marks map[int][]uint32, centre []uint32, ok bool) {
	me := int(v.Viewer.Seat)
	mine, _ := maskOf(v.Hand)
	var wrong []uint32
	if v.Players == 2 {
		for _, g := range v.Seats[me].Guesses {
			if m, err := maskOf(g.Tiles); err == nil && !g.Right {
				wrong = append(wrong, canonical(m))
			}
		}
	}
	var opps []int
	for i := range v.Players {
		if i != me {
			opps = append(opps, i)
		}
	}
	fits := func(seat int, set uint32) bool {
		ts := tilesOf(set)
		for _, n := range v.Seats[seat].Notes {
			if answerFor(ts, variantOf(n.Card, n.Number)) != n.Code {
				return false
			}
		}
		return !slices.Contains(wrong, canonical(set))
	}
	add := func(into []uint32, set uint32) {
		for i, t := range tilesOf(canonical(set)) {
			into[i] |= 1 << indexOf(t)
		}
	}
	marks = map[int][]uint32{}
	for _, o := range opps {
		marks[o] = make([]uint32, v.HandSize)
	}
	centre = make([]uint32, v.CentreSize)
	var seen uint32
	if v.Centre != nil {
		seen, _ = maskOf(v.Centre)
	}
	hands := make([]uint32, len(opps))
	deals := 0
	var rec func(j int, left uint32) bool
	rec = func(j int, left uint32) bool {
		if j == len(opps) {
			if v.Centre != nil && canonical(left) != canonical(seen) {
				return true
			}
			if deals++; deals > limit {
				return false
			}
			for k, o := range opps {
				add(marks[o], hands[k])
			}
			if v.Players > 2 {
				add(centre, left)
			}
			return true
		}
		goOn := true
		forSubsets(left, v.HandSize, func(h uint32) {
			if goOn && fits(opps[j], h) {
				hands[j] = h
				goOn = rec(j+1, left&^h)
			}
		})
		return goOn
	}
	return marks, centre, rec(0, uint32(1<<tileCount-1)&^mine)
}

// marksOf turns a view's pencil marks back into masks.
func marksOf(t *testing.T, rows [][]Tile) []uint32 {
	t.Helper()
	out := make([]uint32, len(rows))
	for i, row := range rows {
		for _, tile := range row {
			out[i] |= 1 << indexOf(tile)
		}
	}
	return out
}

// TestPencilMarksMatchBruteForce: at every move of seeded games, each seat's
// pencil marks (per opponent and the centre, per position, the tiles still
// possible there) are exactly what enumerating every deal it cannot rule
// out gives, whenever the deals are few enough to enumerate.
func TestPencilMarksMatchBruteForce(t *testing.T) {
	checked, seeds, limit := 0, uint64(2), 100_000
	if testing.Short() || raceEnabled {
		seeds, limit = 1, 20_000
	}
	for n := 2; n <= 4; n++ {
		for seed := range seeds {
			rec := botRecord(t, 60+seed, levelsFor(n, seed)...)
			st, _, _ := engine.StartRecord(Game{}, rec)
			for _, m := range rec.Moves {
				if _, err := st.Apply(m.Seat, m.Action); err != nil {
					t.Fatal(err)
				}
				for seat := range n {
					v := st.View(engine.SeatViewer(engine.Seat(seat))).(View)
					marks, centre, ok := bruteMarks(v, limit)
					if !ok {
						continue
					}
					checked++
					for o, want := range marks {
						if got := marksOf(t, v.Seats[o].Marks.Sets()); !slices.Equal(got, want) {
							t.Fatalf("%d players, seat %d's marks for seat %d: %v, want %v", n, seat, o, v.Seats[o].Marks, tileSets(want))
						}
					}
					if n > 2 && v.Centre == nil {
						if got := marksOf(t, v.CentreMarks.Sets()); !slices.Equal(got, centre) {
							t.Fatalf("%d players, seat %d's centre marks: %v, want %v", n, seat, v.CentreMarks, tileSets(centre))
						}
					}
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d views were small enough to check", checked)
	}
}

// TestPencilMarksFollowTheAid: with the aid off a view has no pencil marks
// at all; a seat never gets marks for its own hand, spectators get none.
func TestPencilMarksFollowTheAid(t *testing.T) {
	for _, aid := range []string{"on", "off"} {
		st, _, err := engine.Start(Game{}, engine.Options{"aid": aid}, make([]engine.Player, 3), 5)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Apply(st.Status().Active[0], AskAction(st.View(engine.Spectator()).(View).FaceUp[0], firstNumberOr0(st.View(engine.Spectator()).(View).FaceUp[0]))); err != nil {
			t.Fatal(err)
		}
		for seat := range 3 {
			v := st.View(engine.SeatViewer(engine.Seat(seat))).(View)
			for i, sv := range v.Seats {
				has := sv.Marks != nil
				if want := aid == "on" && i != seat; has != want {
					t.Errorf("aid %s: seat %d's view has marks for seat %d: %v", aid, seat, i, has)
				}
			}
			if (v.CentreMarks != nil) != (aid == "on") {
				t.Errorf("aid %s: centre marks %v", aid, v.CentreMarks)
			}
		}
		sp := st.View(engine.Spectator()).(View)
		if sp.CentreMarks != nil || slices.ContainsFunc(sp.Seats, func(s SeatView) bool { return s.Marks != nil }) {
			t.Errorf("aid %s: a spectator has pencil marks", aid)
		}
	}
}

// TestPencilMarksNoninterference: a seat's pencil marks change with nothing
// it cannot see: the tiles of the others and the centre dealt again at
// random (the answers heard stay) leave them as they were.
func TestPencilMarksNoninterference(t *testing.T) {
	tried := 0
	for n := 2; n <= 4; n++ {
		rng := rand.New(rand.NewPCG(uint64(n), 11))
		rec := botRecord(t, 90+uint64(n), levelsFor(n, 1)...)
		st, _, _ := engine.StartRecord(Game{}, rec)
		s := st.(*state)
		for i, m := range rec.Moves {
			if _, err := s.Apply(m.Seat, m.Action); err != nil {
				t.Fatal(err)
			}
			if i%2 == 1 {
				continue
			}
			for seat := range n {
				viewer := engine.SeatViewer(engine.Seat(seat))
				alt := reshuffleHidden(rng, s, viewer)
				a, b := s.view(viewer), alt.view(viewer)
				for j := range n {
					if !reflect.DeepEqual(a.Seats[j].Marks, b.Seats[j].Marks) {
						t.Fatalf("%d players: seat %d's marks for seat %d changed with hidden tiles", n, seat, j)
					}
				}
				if !reflect.DeepEqual(a.CentreMarks, b.CentreMarks) {
					t.Fatalf("%d players: seat %d's centre marks changed with hidden tiles", n, seat)
				}
				tried++
			}
		}
	}
	if tried < 20 {
		t.Errorf("only %d views tried", tried)
	}
}
