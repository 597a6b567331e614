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
func newBoard(gameID string, st boardStyles, km boardKeys) board.Board {
	switch gameID {
	case "breakcode":
		return bcboard.New(st.breakcode, km.breakcode)
	case "coding":
		return codingboard.New(st.Styles, km.coding)
	case "ifthen":
		return ifboard.New(st.ifthen, km.ifthen)
	case "whattherule":
		return wtrboard.New(st.whattherule, km.whattherule)
	}
	return nil
}

// boardContext builds what a board needs from a table view.
func boardContext(v lobby.TableView, w, h int) board.Context {
	c := board.Context{
		Viewer: v.You, Status: v.Status, Log: v.Log, Result: v.Result,
		Deadline: v.Deadline, Width: w, Height: h,
	}
	for _, s := range v.Seats {
		c.Names = append(c.Names, s.Handle.Cut(16).String())
		c.Bots = append(c.Bots, s.Bot)
	}
	return c
}
