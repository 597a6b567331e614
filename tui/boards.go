package tui

import (
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/tui/board"
	bcboard "github.com/codebreakers/codebreakers/tui/breakcode"
	codingboard "github.com/codebreakers/codebreakers/tui/coding"
	ifboard "github.com/codebreakers/codebreakers/tui/ifthen"
	wtrboard "github.com/codebreakers/codebreakers/tui/whattherule"
)

// newBoard returns the board that draws gameID, or nil when this UI has no
// board for it (the table screen then says so instead of guessing).
func newBoard(gameID string, st *boardStyles, km *boardKeys) board.Board {
	switch gameID {
	case "breakcode":
		return bcboard.New(&st.breakcode, &km.breakcode)
	case "coding":
		return codingboard.New(&st.Styles, &km.coding)
	case "ifthen":
		return ifboard.New(&st.ifthen, &km.ifthen)
	case "whattherule":
		return wtrboard.New(&st.whattherule, &km.whattherule)
	}
	return nil
}

// boardContext builds what a board needs from a table view.
func boardContext(v lobby.TableView, w, h int) board.Context {
	return boardContextAfter(v, w, h, board.Context{})
}

// boardContextAfter is boardContext(v, w, h) with prev's names and bots
// when v's seats still show exactly them: a table changes mostly by a
// move, which renames nobody, and the names were made and cut once. A
// name is reused only where it is its seat's handle as it is (a handle cut
// short is made again), and the slices are never written once made.
func boardContextAfter(v lobby.TableView, w, h int, prev board.Context) board.Context {
	c := board.Context{
		Viewer: v.You, Status: v.Status, Log: v.Log, Result: v.Result,
		Deadline: v.Deadline, Width: w, Height: h,
		Names: prev.Names, Bots: prev.Bots,
	}
	if sameSeats(v.Seats, prev.Names, prev.Bots) {
		return c
	}
	c.Names, c.Bots = make([]string, len(v.Seats)), make([]bool, len(v.Seats))
	for i, s := range v.Seats {
		c.Names[i], c.Bots[i] = s.Handle.Cut(16).String(), s.Bot
	}
	return c
}

// sameSeats reports whether names and bots are what boardContext makes of
// seats.
func sameSeats(seats []lobby.SeatView, names []string, bots []bool) bool {
	if names == nil || len(names) != len(seats) || len(bots) != len(seats) {
		return false
	}
	for i, s := range seats {
		if names[i] != string(s.Handle) || bots[i] != s.Bot {
			return false
		}
	}
	return true
}
