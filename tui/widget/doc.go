// Package widget is the toolkit the session's screens and the game boards
// draw with: a one-line text Field, cell widths (Width, Truncate, Widths),
// word wrap (Wrap, WrapIndent, Reflow), a game log's tail (LogTail,
// LogCache), styles that remember what they drew (Painter, Paints), a
// bounded Memo, and help entries for paired keys (Pair, Help). It holds no
// contract: the Board interface is tui/board's.
package widget
