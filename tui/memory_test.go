package tui

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/lobby"
)

// tableMemory are the fields of tableScreen that only remember what was
// drawn (or made from the view when it came); coldFrame forgets them.
var tableMemory = []string{"stripKey", "stripLines", "keysKey", "keys", "keysRoom", "code", "shownID", "titleText", "rawCode", "rawID", "fits", "watching", "watchingN"}

// coldFrame is the frame m's screen draws when the session has forgotten
// every piece it remembers: the pieces around the body (a.parts) and, on
// a table, its strip, key list and title. (The board's own memory is
// checked in its package.)
func coldFrame(m *app) string {
	c := *m
	c.frame = frameLines{} // its lines are m's until set
	c.parts = frameParts{}
	c.stack = slices.Clone(m.stack)
	if ts, ok := c.top().(*tableScreen); ok {
		cold := *ts
		cold.stripKey, cold.stripLines, cold.keysKey, cold.keys, cold.keysRoom, cold.fits = stripKey{}, nil, keysKey{}, nil, nil, lineFits{}
		cold.watching, cold.watchingN = "", 0
		cold.code, cold.shownID, cold.rawCode, cold.rawID = formatCode(ts.view.Code), gameIDText(ts.view.GameID), "", ""
		cold.titleText = cold.makeTitle()
		c.stack[len(c.stack)-1] = &cold
	}
	c.render()
	return c.frame.joined()
}

// TestColdFrameForgetsEveryMemory: every field of tableScreen that is
// memory is listed, and nothing else is, so a memory added later is
// checked by TestFramesMatchAColdSession once coldFrame forgets it.
func TestColdFrameForgetsEveryMemory(t *testing.T) {
	state := []string{"plainScreen", "conn", "view", "loaded", "board", "boardOf", "ctx", "chat", "chatOpen",
		"confirmLeave", "err", "ended", "busy", "tickAt", "tickSeq", "moveSecs", "ratingsOf", "ratings"}
	typ := reflect.TypeFor[tableScreen]()
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		if !slices.Contains(tableMemory, name) && !slices.Contains(state, name) {
			t.Errorf("tableScreen.%s is neither state nor memory: list it (and forget it in coldFrame if it is memory)", name)
		}
	}
}

// TestFramesMatchAColdSession follows games as a seat and as a spectator,
// with keys, resizes, the chat, a refused move, news from the table, the
// terminal's background turning light and dark again and a finished game,
// and checks after every step that the frame drawn is the one a session
// that forgot every piece it remembers would draw.
func TestFramesMatchAColdSession(t *testing.T) {
	for _, sc := range frameScripts() {
		if !strings.HasPrefix(sc.name, "3p-seed7-") || strings.Contains(sc.name, "120x40") {
			continue
		}
		t.Run(sc.name, func(t *testing.T) {
			views := traceGame(t, sc.players, sc.seed, 60, sc.wrongAt, sc.rightAt, sc.viewer)
			m, conn := openTableAt(t, views, sc.w, sc.h)
			check := func(what string) {
				t.Helper()
				if got, want := m.View().Content, coldFrame(m); got != want {
					t.Fatalf("%s: the session drew\n%s\nwhere one that forgot its pieces draws\n%s", what, got, want)
				}
				if _, lines := m.ViewLines(); slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "\n") }) {
					t.Fatalf("%s: a line of the frame holds a newline: %q", what, lines)
				}
			}
			w, h := sc.w, sc.h
			var chat []lobby.ChatLine
			for i, v := range views {
				v.Chat = chat
				if i%5 == 2 {
					v.Notice = fmt.Sprintf("Someone came back (%d).", i)
				}
				v.Spectators = []int{2, 2, 3, 0, 1}[i%5] // the title counts them
				if i == 4 || i == 9 {
					chat = append(chat, lobby.ChatLine{Handle: textsafe.Text("Bo"), Text: textsafe.Text(fmt.Sprintf("move %d, nice", i))})
					v.Chat = chat
				}
				showView(t, m, conn, v)
				check(fmt.Sprintf("move %d", i))
				acts := frameActions[i%actionCycle]
				if sc.viewer.Kind != engine.ViewerSeat && slices.Contains(acts, "esc") && !slices.Contains(acts, "?") && !slices.Contains(acts, "c") {
					acts = nil // no guess entry to close: esc would leave the table
				}
				for k, a := range acts {
					switch {
					case a == "resize":
						w, h = w+7, h+3
						if w > sc.w+20 {
							w, h = sc.w, sc.h
						}
						run(t, m, send(m, tea.WindowSizeMsg{Width: w, Height: h}))
					case len(a) > 1 && !isKeyName(a):
						typeText(t, m, a)
					default:
						press(t, m, a)
					}
					if _, ok := m.top().(*tableScreen); !ok {
						t.Fatalf("move %d, action %d (%s) left the table", i, k, a)
					}
					check(fmt.Sprintf("move %d, action %d (%s)", i, k, a))
				}
				switch i % 6 {
				case 1:
					m.Update(tea.BackgroundColorMsg{Color: lipgloss.Color("#FFFFFF")})
					check(fmt.Sprintf("move %d, a light background", i))
				case 3:
					m.Update(tea.BackgroundColorMsg{Color: lipgloss.Color("#000000")})
					check(fmt.Sprintf("move %d, a dark background", i))
				case 4:
					conn.actErr = errors.New("not your turn")
					press(t, m, "enter")
					conn.actErr = nil
					check(fmt.Sprintf("move %d, a refused move", i))
				case 5:
					m.Update(chatSentMsg{conn: conn, err: errors.New("too many messages")})
					check(fmt.Sprintf("move %d, a chat refused", i))
					press(t, m, "up") // any key clears the error
					check(fmt.Sprintf("move %d, the error cleared", i))
				}
			}
			if views[len(views)-1].Phase != lobby.Finished {
				t.Fatal("the game did not end: the test misses the finished table")
			}
		})
	}
}

// TestFrameLinesAreTheFramesLines: a frame set from its pieces has as its
// lines strings.Split of its lines joined, cut to n, so its joined text
// is that join, for lines with and without newlines of their own and
// empty ones, whatever frame was set before, whose lines (which the
// renderer may keep) are never written over. A frame set again as it was
// keeps its very slice of lines.
func TestFrameLinesAreTheFramesLines(t *testing.T) {
	bodies := [][]string{nil, {""}, {"", ""}, {"a"}, {"a", "b"}, {"a\nb"}, {"a", "", "b"}, {"ab", "c"}, {"\x1b[1mx\x1b[m", "李"}}
	pieces := [][3]string{{"", "", ""}, {"T", "─", "k"}, {"a", "b", "c"}, {"\x1b[7m T \x1b[m", "──", " enter ask"}}
	var fl frameLines
	for _, body := range bodies {
		for _, pc := range pieces {
			all := append(append([]string{pc[0], pc[1]}, body...), pc[1], pc[2])
			for n := range len(all) + 1 {
				f := frameText{bar: pc[0], rule: pc[1], body: body, keys: pc[2], n: n}
				joined := strings.Join(all[:n], "\n")
				prev, was := fl.lines, slices.Clone(fl.lines)
				fl.set(&f)
				if !sameStrings(prev, was) {
					t.Fatalf("%q cut to %d: the frame before was written over (%q, was %q)", all, n, prev, was)
				}
				if want := strings.Split(joined, "\n"); !slices.Equal(fl.lines, want) && (n > 0 || len(fl.lines) > 0) {
					t.Fatalf("%q cut to %d: lines %q, want %q", all, n, fl.lines, want)
				}
				if got := fl.joined(); got != joined {
					t.Fatalf("%q cut to %d: joined %q, want %q", all, n, got, joined)
				}
				lines := fl.lines
				fl.set(&f)
				if unsafe.SliceData(fl.lines) != unsafe.SliceData(lines) || !sameStrings(fl.lines, lines) {
					t.Fatalf("%q cut to %d: set again, the frame's lines changed: %q", all, n, fl.lines)
				}
			}
		}
	}
	// Frames that differ in the middle, at the end, and by a line less.
	frames := []frameText{
		{bar: "T", rule: "─", body: []string{"a", "b", "c"}, keys: "k", n: 7},
		{bar: "T", rule: "─", body: []string{"a", "B", "c"}, keys: "k", n: 7},
		{bar: "T", rule: "─", body: []string{"a", "B", "c"}, keys: "K", n: 7},
		{bar: "T", rule: "─", body: []string{"a", "B"}, keys: "K", n: 6},
		{bar: "T2", rule: "─", body: []string{"a\nB"}, keys: "K", n: 5},
	}
	for i := range frames {
		prev, was := fl.lines, slices.Clone(fl.lines)
		fl.set(&frames[i])
		if !sameStrings(prev, was) {
			t.Fatalf("frame %d: the frame before was written over (%q, was %q)", i, prev, was)
		}
	}
	if want := []string{"T2", "─", "a", "B", "─", "K"}; !slices.Equal(fl.lines, want) {
		t.Errorf("after the frames: %q, want %q", fl.lines, want)
	}
	for _, text := range []string{"", "one", "one\ntwo", "\n"} {
		fl.setText(text)
		if got, want := fl.lines, strings.Split(text, "\n"); !slices.Equal(got, want) || fl.joined() != text {
			t.Errorf("setText(%q): lines %q, joined %q", text, got, fl.joined())
		}
	}
}

// TestAFrameThatChangedNothingIsKept: the enter that asks a question only
// sends the move, so the session keeps the frame it has (the same lines,
// not equal ones made again), and the next view draws a new one.
func TestAFrameThatChangedNothingIsKept(t *testing.T) {
	players := []engine.Player{{Name: "mara"}, {Name: "Bo"}, {Name: "Kai", Bot: true}}
	views := traceGame(t, players, 7, 3, -1, -1, engine.SeatViewer(0))
	m, conn := openTableAt(t, views, 100, 30)
	showView(t, m, conn, views[0]) // mara's turn
	before := m.View().Content
	_, lines := m.ViewLines()
	beforeLines := slices.Clone(lines)
	if strings.Join(beforeLines, "\n") != before {
		t.Fatalf("the frame's lines are not its text:\n%q\n%q", beforeLines, before)
	}
	if !strings.Contains(ansi.Strip(before), "your turn") {
		t.Fatalf("not mara's turn:\n%s", ansi.Strip(before))
	}
	press(t, m, "enter")
	if len(conn.acts) != 1 {
		t.Fatalf("enter sent %d moves, want 1", len(conn.acts))
	}
	if _, after := m.ViewLines(); !sameStrings(after, beforeLines) {
		t.Fatal("the frame after a key that changed nothing on screen was made again")
	}
	showView(t, m, conn, views[1])
	if m.View().Content == before {
		t.Fatal("the next move drew the same frame: the test checks nothing")
	}
}

// TestLineFitsIsFitLineBlock: the remembered fitting of a board's lines
// fits them as fitLineBlock does, frame after frame, as lines change, grow
// too wide, come back and the width changes under lines that stay, and
// leaves the board's lines (which the board keeps) as they were.
func TestLineFitsIsFitLineBlock(t *testing.T) {
	var f lineFits
	red := lipgloss.NewStyle().Foreground(lipgloss.Color("#FF0000"))
	frames := [][]string{
		{"a", red.Render("a styled line longer in bytes than cells"), "plain words that run on past twenty cells"},
		{"a", red.Render("a styled line longer in bytes than cells"), "short"},
		{"b", red.Render("a styled line longer in bytes than cells"), "plain words that run on past twenty cells", "李小龙 李小龙 李小龙 李小龙"},
		{"b"},
	}
	for round, w := range []int{80, 20, 20, 12, 80, 12} {
		for i, lines := range frames {
			for _, h := range []int{2, 5} {
				in := slices.Clone(lines) // a board's lines, which it keeps
				if h == 5 {
					// The same lines made anew: equal, not the same strings.
					for j := range in {
						in[j] = strings.Clone(in[j])
					}
				}
				got := f.block(in, w, h, math.MaxInt)
				if want := fitLineBlock(slices.Clone(lines), w, h); !slices.Equal(got, want) {
					t.Fatalf("round %d, frame %d at %d×%d: %q, fitLineBlock %q", round, i, w, h, got, want)
				}
				if !slices.Equal(in, lines) {
					t.Fatalf("round %d, frame %d at %d×%d: fitting changed the board's lines to %q", round, i, w, h, in)
				}
				// Lines the board fitted itself (board.Fitted) are taken
				// as they are, and the rows before them fitted; the next
				// frame, fitted by the session again, is fitted right.
				for _, from := range []int{0, 1, 2} {
					want := fitLineBlock(slices.Clone(lines), w, h)
					copy(want[min(from, len(want)):], in[min(from, len(in), h):min(len(in), h)])
					if got := f.block(in, w, h, from); !slices.Equal(got, want) {
						t.Fatalf("round %d, frame %d at %d×%d, fitted from %d: %q, want %q", round, i, w, h, from, got, want)
					}
				}
			}
		}
	}
}

// TestKeyLineIsTheBarFitted: the key bar's line is the bar after a space
// cut to the width, remembered by the bar and the width: bars and widths
// taken in turn, more of them than are kept, each is the bar fitted, and
// one met again among the last few is the line made before.
func TestKeyLineIsTheBarFitted(t *testing.T) {
	m := newTestApp(t, &fakeHub{}, nil, 80, 24)
	type barAt struct {
		bar string
		w   int
	}
	cases := []barAt{{"enter ask · esc back", 80}, {"enter ask · esc back", 10}, {"g guess · enter ask · esc back", 10},
		{"g guess · enter ask · esc back", 80}, {"p pass · esc back", 80}, {"", 80}, {"enter ask · esc back", 12}}
	made := map[barAt]string{}
	for round := range 3 {
		for i, c := range cases {
			for _, c := range []barAt{c, cases[(i+1)%len(cases)], c} { // a bar, another, and the first again
				got := m.keyLine(c.bar, c.w)
				if want := fitLine(" "+c.bar, c.w); got != want {
					t.Fatalf("round %d: keyLine(%q, %d) = %q, want %q", round, c.bar, c.w, got, want)
				}
				if was, ok := made[c]; ok && round == 0 && i > 0 && c == cases[i] && unsafe.StringData(was) != unsafe.StringData(got) {
					t.Errorf("keyLine(%q, %d) met again two bars later was made again", c.bar, c.w)
				}
				made[c] = got
			}
		}
	}
}

// linePieces are the kinds of text a board's lines are made of, and some
// no board makes (escapes cut short, a stray continuation byte, a control
// character, a rune textsafe.SimpleWidth leaves to the parser), for lines
// made at random out of them.
// (one piece in eight).
var linePieces = [2][]string{
	{"a", "sum 14 · ", "  ", "▶ ", "│", "╰────╯", "李", "\x1b[1m", "\x1b[38;2;148;148;148m", "\x1b[m", "1m", "[33 possible sets]"},
	{"\x1b[", "\x1b[3", "\x80", "\xe2\x94", "\t", "é", "👍", "\x1b]8;;\x07"},
}

// randomLine is n pieces of linePieces drawn by next.
func randomLine(next func(int) int, n int) string {
	var sb strings.Builder
	for range n {
		kind := linePieces[0]
		if next(8) == 0 {
			kind = linePieces[1]
		}
		sb.WriteString(kind[next(len(kind))])
	}
	return sb.String()
}

// TestWidthAfterIsSimpleWidth: a line's width counted from the line before
// it in its row, only the middle they do not share, is what
// textsafe.SimpleWidth counts of the whole line, whenever it answers; over
// lines made at random, each changed in a piece or two at its start, its
// middle or its end, and for a sheet's head whose turn mark changed.
func TestWidthAfterIsSimpleWidth(t *testing.T) {
	seed := uint64(20)
	next := func(n int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int((seed >> 33) % uint64(n))
	}
	answered := 0
	for range 20000 {
		old := randomLine(next, 4+next(20))
		ow, ok := textsafe.SimpleWidth(old)
		if !ok {
			ow = -1
		}
		cut := next(len(old) + 1)
		end := cut + next(min(12, len(old)-cut+1)) // a piece or two
		l := old[:cut] + randomLine(next, next(3)) + old[end:]
		got, ok := widthAfter(old, ow, l)
		if !ok {
			continue
		}
		answered++
		if want, wok := textsafe.SimpleWidth(l); !wok || got != want {
			t.Fatalf("widthAfter(%q, %d, %q) = %d, SimpleWidth %d (ok %v)", old, ow, l, got, want, wok)
		}
	}
	if answered < 1000 {
		t.Fatalf("widthAfter answered %d of 20000 changed lines: it is not being tried", answered)
	}
	dim := "\x1b[38;2;148;148;148m"
	head := "  Bo      " + strings.Repeat("│"+dim+" ?? \x1b[m│ ", 5) + dim + "[3 possible sets]\x1b[m"
	for _, c := range [][2]string{{"▶ " + head[2:], head}, {head, "▶ " + head[2:]}, {head, strings.Replace(head, "[3 ", "[12 ", 1)}} {
		ow, _ := textsafe.SimpleWidth(c[0])
		want, _ := textsafe.SimpleWidth(c[1])
		if got, ok := widthAfter(c[0], ow, c[1]); !ok || got != want {
			t.Errorf("widthAfter(%q, %d, %q) = %d, %v; want %d, true", c[0], ow, c[1], got, ok, want)
		}
	}
}

// TestLineFitsFollowsRowsThatMove: frames made at random, some rows kept,
// some changed in a piece, some moved a row or two up or down, some new,
// are fitted by lineFits as fitLineBlock fits them, at widths in turn.
func TestLineFitsFollowsRowsThatMove(t *testing.T) {
	seed := uint64(7)
	next := func(n int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int((seed >> 33) % uint64(n))
	}
	var f lineFits
	var lines []string
	for frame := range 3000 {
		w := []int{12, 30, 30, 30, 80}[frame/600]
		prev := lines
		lines = make([]string, 2+next(10))
		for i := range lines {
			j := i + next(5) - 2 // the row above or below, or this one
			switch k := next(6); {
			case k < 3 && j >= 0 && j < len(prev):
				lines[i] = prev[j]
				if k == 0 {
					lines[i] = strings.Clone(lines[i]) // made anew
				}
			case k == 3 && i < len(prev):
				old := prev[i]
				cut := next(len(old) + 1)
				lines[i] = old[:cut] + randomLine(next, next(3)) + old[cut+next(len(old)-cut+1):]
			default:
				lines[i] = randomLine(next, next(30))
			}
		}
		h := 1 + next(12)
		got := f.block(lines, w, h, math.MaxInt)
		if want := fitLineBlock(slices.Clone(lines), w, h); !slices.Equal(got, want) {
			t.Fatalf("frame %d at %d×%d: %q, fitLineBlock %q", frame, w, h, got, want)
		}
	}
}

// sameStrings reports whether a and b hold the very same strings, not
// equal ones made apart.
func sameStrings(a, b []string) bool {
	return slices.EqualFunc(a, b, func(x, y string) bool {
		return x == y && unsafe.StringData(x) == unsafe.StringData(y)
	})
}
