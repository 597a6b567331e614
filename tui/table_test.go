package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	bc "github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/tui/board"
)

func openTable(t *testing.T, conn *fakeConn) *app {
	t.Helper()
	m := newTestApp(t, &fakeHub{conn: conn}, nil, 80, 24)
	press(t, m, "enter", "enter") // quick play, the bots offered first
	if _, ok := m.top().(*tableScreen); !ok {
		t.Fatalf("table not opened: %T\n%s", m.top(), screenText(m))
	}
	return m
}

func TestTableSendsMovesAndShowsRefusals(t *testing.T) {
	st := dealt(t, 2, 11)
	me := st.Status().Active[0]
	conn := newFakeConn(tableView(st, engine.SeatViewer(me), nil, 1))
	m := openTable(t, conn)
	if !strings.Contains(screenText(m), "your turn") {
		t.Fatalf("title should say it is my turn:\n%s", screenText(m))
	}
	press(t, m, "enter")
	if len(conn.acts) != 1 {
		t.Fatalf("acts %q", conn.acts)
	}
	var a bc.Action
	if err := json.Unmarshal(conn.acts[0], &a); err != nil || a.Ask == nil {
		t.Fatalf("action %s", conn.acts[0])
	}

	// A refusal from the table is shown as a sentence.
	conn.actErr = engine.Illegal("That card is not face up.")
	press(t, m, "enter")
	if !strings.Contains(screenText(m), "That card is not face up.") {
		t.Fatalf("refusal not shown:\n%s", screenText(m))
	}

	// Typing a guess: q and ? are text there, not commands.
	press(t, m, "g")
	typeText(t, m, "q?")
	if m.confirmQuit || m.showHelp {
		t.Fatal("keys typed into the guess were taken as commands")
	}
	press(t, m, "esc")

	// Chat: c opens, enter sends, control bytes never reach the table.
	press(t, m, "c")
	typeText(t, m, "gg")
	send(m, tea.PasteMsg{Content: "\x1b[2J wp"})
	press(t, m, "enter")
	if len(conn.chats) != 1 || conn.chats[0] != "gg[2J wp" {
		t.Fatalf("chats %q", conn.chats)
	}
}

func TestTableFollowsUpdatesAndSkipsStaleOnes(t *testing.T) {
	st := dealt(t, 3, 4)
	viewer := engine.SeatViewer(0)
	conn := newFakeConn(tableView(st, viewer, nil, 1))
	m := openTable(t, conn)
	before := screenText(m)

	// Same version: nothing to redraw.
	drawn := m.drawn
	send(m, tableChangedMsg{conn: conn})
	if m.drawn != drawn {
		t.Fatal("a duplicate notification marked the screen dirty")
	}
	log := playFew(t, st, 2)
	conn.setView(tableView(st, viewer, log, 2))
	send(m, tableChangedMsg{conn: conn})
	after := screenText(m)
	if after == before || !strings.Contains(after, log[len(log)-1].Text[:20]) {
		t.Fatalf("update not drawn:\n%s", after)
	}

	// The table going away is explained and esc returns home.
	send(m, tableClosedMsg{conn: conn, reason: "Your key signed in elsewhere."})
	if !strings.Contains(screenText(m), "Your key signed in elsewhere.") {
		t.Fatalf("reason not shown:\n%s", screenText(m))
	}
	press(t, m, "esc")
	if _, ok := m.top().(*homeScreen); !ok {
		t.Fatalf("esc after close: %T", m.top())
	}
}

func TestWaitingRoomReadyAndStart(t *testing.T) {
	v := lobby.TableView{Version: 1, Code: "KQ7-M4X", Game: bc.Game{}.Info(), Phase: lobby.Waiting,
		You: engine.SeatViewer(0), Host: true,
		Seats: []lobby.SeatView{{Handle: "mara", Connected: true}, {Handle: "Bo", Bot: true}, {}}}
	conn := newFakeConn(v)
	m := openTable(t, conn)
	out := screenText(m)
	for _, want := range []string{"KQ7-M4X", "— open —", "Press s to start", "r ready", "s start", "connect with: ssh -t HOST join KQ7-M4X"} {
		if !strings.Contains(out, want) {
			t.Errorf("waiting room lacks %q:\n%s", want, out)
		}
	}
	// The command to join is the one players run to reach this server.
	m.ssh = "ssh -t -p 2200 play.example.org"
	m.draw()
	out = screenText(m)
	for _, want := range []string{"connect with: ssh -t -p 2200 play.example.org join KQ7-M4X"} {
		if !strings.Contains(out, want) {
			t.Errorf("waiting room lacks %q:\n%s", want, out)
		}
	}
	press(t, m, "r", "s")
	if len(conn.ready) != 1 || !conn.ready[0] || conn.starts != 1 {
		t.Fatalf("ready %v starts %d", conn.ready, conn.starts)
	}
	// Leaving a waiting table needs no confirmation and releases the seat.
	press(t, m, "esc")
	if !conn.left {
		t.Fatal("esc did not leave the table")
	}
}

func TestPumpEndsWithTheSession(t *testing.T) {
	conn := newFakeConn(lobby.TableView{})
	ctx, cancel := context.WithCancel(context.Background())
	conn.updates <- struct{}{}
	if msg, ok := waitTable(ctx, conn)().(tableChangedMsg); !ok || msg.conn != conn {
		t.Fatalf("pump gave %T", msg)
	}
	cancel()
	if msg := waitTable(ctx, conn)(); msg != nil {
		t.Fatalf("pump after the session ended gave %T", msg)
	}
	close(conn.done)
	if msg, ok := waitTable(context.Background(), conn)().(tableClosedMsg); !ok || msg.conn != conn {
		t.Fatalf("pump on a closed conn gave %T", msg)
	}
}

// timedBoard is a board that counts down: it records what the session
// tells it about the time left.
type timedBoard struct {
	board.Board
	left  time.Duration
	calls int
}

func (b *timedBoard) SetTimeLeft(d time.Duration) { b.left, b.calls = d, b.calls+1 }

func TestCountdownTicksOnlyWhileADeadlineIsSet(t *testing.T) {
	st := dealt(t, 2, 11)
	viewer := engine.SeatViewer(st.Status().Active[0])
	conn := newFakeConn(tableView(st, viewer, nil, 1))
	m := newTestApp(t, &fakeHub{conn: conn}, nil, 80, 24)
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	m.now = func() time.Time { return now }
	var beats []time.Duration
	m.after = func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		beats = append(beats, d)
		return func() tea.Msg { return nil } // the test delivers ticks by hand
	}
	press(t, m, "enter", "enter") // quick play, the bots offered first
	ts, ok := m.top().(*tableScreen)
	if !ok {
		t.Fatalf("table not opened: %T", m.top())
	}
	if len(beats) != 0 {
		t.Fatalf("a table without a deadline ticks: %v", beats)
	}
	tb := &timedBoard{Board: ts.board}
	ts.board = tb
	version := uint64(1)
	update := func(deadline time.Time) tea.Cmd {
		version++
		v := tableView(st, viewer, nil, version)
		v.Deadline = deadline
		conn.setView(v)
		return send(m, tableChangedMsg{conn: conn})
	}

	// Without a deadline, an update schedules nothing.
	if cmd := update(time.Time{}); cmd != nil || len(beats) != 0 {
		t.Fatalf("an untimed update ticks: cmd %v, beats %v", cmd != nil, beats)
	}
	// A deadline starts the countdown: the board hears the time left and
	// the next beat lands when it reaches a whole second.
	deadline := now.Add(12*time.Second + 500*time.Millisecond)
	if cmd := update(deadline); cmd == nil || len(beats) != 1 || beats[0] != 500*time.Millisecond {
		t.Fatalf("a timed update: cmd %v, beats %v", cmd != nil, beats)
	}
	if tb.left != 12*time.Second+500*time.Millisecond {
		t.Fatalf("time left %v", tb.left)
	}
	if ctx := boardContext(ts.view, 80, 20); !ctx.Deadline.Equal(deadline) {
		t.Fatalf("board context deadline %v", ctx.Deadline)
	}
	// Another update while a beat is on its way does not start a second one.
	update(deadline)
	if len(beats) != 1 {
		t.Fatalf("two countdowns at once: %v", beats)
	}
	// Each beat shows the new time and schedules the next.
	now = now.Add(500 * time.Millisecond)
	if cmd := send(m, tableTickMsg{conn: conn, seq: ts.tickSeq - 1}); cmd != nil || len(beats) != 1 {
		t.Fatalf("a stale beat was heard: cmd %v, beats %v", cmd != nil, beats)
	}
	if cmd := send(m, tableTickMsg{conn: conn, seq: ts.tickSeq}); cmd == nil || len(beats) != 2 || beats[1] != time.Second {
		t.Fatalf("a beat: cmd %v, beats %v", cmd != nil, beats)
	}
	if tb.left != 12*time.Second {
		t.Fatalf("time left after a beat %v", tb.left)
	}
	// Once the deadline clears, the beat on its way is the last one.
	update(time.Time{})
	calls := tb.calls
	if cmd := send(m, tableTickMsg{conn: conn, seq: ts.tickSeq}); cmd != nil || len(beats) != 2 || tb.calls != calls {
		t.Fatalf("a beat after the deadline cleared: cmd %v, beats %v", cmd != nil, beats)
	}
	// A new deadline starts again; closing the screen stops it.
	update(now.Add(30 * time.Second))
	if len(beats) != 3 {
		t.Fatalf("a new deadline did not tick: %v", beats)
	}
	press(t, m, "esc", "y") // leave the game
	if _, ok := m.top().(*tableScreen); ok {
		t.Fatal("still at the table")
	}
	if cmd := send(m, tableTickMsg{conn: conn}); cmd != nil || len(beats) != 3 {
		t.Fatalf("a beat after the screen closed: cmd %v, beats %v", cmd != nil, beats)
	}
}

func TestNextBeatLandsOnWholeSeconds(t *testing.T) {
	for _, c := range []struct{ left, want time.Duration }{
		{12*time.Second + 300*time.Millisecond, 300 * time.Millisecond},
		{12*time.Second + 50*time.Millisecond, 1050 * time.Millisecond},
		{12 * time.Second, time.Second},
		{0, time.Second},
		{-3 * time.Second, time.Second},
	} {
		if got := nextBeat(c.left); got != c.want {
			t.Errorf("nextBeat(%v) = %v, want %v", c.left, got, c.want)
		}
	}
}

func TestKeysThatMoveWaitForTheLastMove(t *testing.T) {
	st := dealt(t, 2, 11)
	me := st.Status().Active[0]
	conn := newFakeConn(tableView(st, engine.SeatViewer(me), nil, 1))
	m := openTable(t, conn)
	ts := m.top().(*tableScreen)
	other := st.View(engine.Omniscient()).(bc.View).Seats[1-me].Hand
	guess := bc.FormatTiles(other)

	press(t, m, "g")
	typeText(t, m, guess[:len(guess)-1])
	ts.setBusy(true) // a move is on its way to the table
	// Typing still reaches the open field ...
	typeText(t, m, guess[len(guess)-1:])
	// ... but the key that would send the guess is held back, with a word
	// of explanation, and the entry keeps what was typed.
	press(t, m, "enter")
	if len(conn.acts) != 0 {
		t.Fatalf("sent while busy: %q", conn.acts)
	}
	if !ts.board.Capturing() {
		t.Fatal("the guess entry closed for a move that was not sent")
	}
	if !strings.Contains(screenText(m), "Wait a moment") {
		t.Fatalf("no word about waiting:\n%s", screenText(m))
	}
	// The notepad opens and closes while waiting.
	press(t, m, "esc") // close the entry (sends nothing)
	press(t, m, "n")
	if !ts.board.Overlay() {
		t.Fatal("the notepad did not open while busy")
	}
	press(t, m, "n")
	// A move key outside a field is held back too; it does nothing.
	press(t, m, "enter")
	if len(conn.acts) != 0 {
		t.Fatalf("asked while busy: %q", conn.acts)
	}

	// When the answer comes, the wait is over and the guess goes out.
	send(m, actDoneMsg{conn: conn})
	if ts.busy || strings.Contains(screenText(m), "Wait a moment") {
		t.Fatalf("still waiting after the answer:\n%s", screenText(m))
	}
	press(t, m, "g")
	typeText(t, m, guess)
	press(t, m, "enter")
	if len(conn.acts) != 1 {
		t.Fatalf("acts %q", conn.acts)
	}
	var a bc.Action
	if err := json.Unmarshal(conn.acts[0], &a); err != nil || a.Guess == nil || bc.FormatTiles(a.Guess.Tiles) != guess {
		t.Fatalf("guess action %s, want %s", conn.acts[0], guess)
	}
}

// A table's messages find its screen wherever it is on the stack (route):
// with another screen opened over the table, its changes and its end still
// reach it, and nothing reaches the screen on top.
func TestTableMessagesFindTheirScreenUnderAnother(t *testing.T) {
	st := dealt(t, 3, 4)
	viewer := engine.SeatViewer(0)
	conn := newFakeConn(tableView(st, viewer, nil, 1))
	m := openTable(t, conn)
	ts := m.top().(*tableScreen)
	over := newTextScreen("Rules", "some rules")
	m.push(over)

	log := playFew(t, st, 2)
	conn.setView(tableView(st, viewer, log, 2))
	send(m, tableChangedMsg{conn: conn})
	if ts.view.Version != 2 {
		t.Fatalf("the table under the rules did not follow: version %d", ts.view.Version)
	}
	send(m, tableClosedMsg{conn: conn, reason: "The table closed for a test."})
	if ts.ended != "The table closed for a test." {
		t.Fatalf("the table under the rules did not hear its end: %q", ts.ended)
	}
	if m.top() != screen(over) {
		t.Fatalf("the screen on top changed: %T", m.top())
	}
	// A message for a table whose screen is gone ends quietly.
	m.pop()
	m.pop()
	drawn := m.drawn
	send(m, tableChangedMsg{conn: conn})
	if m.drawn != drawn {
		t.Fatal("a change of a table already left asked for a redraw")
	}
}

// The session draws in Update; View only shows the frame: viewed twice,
// the frame is the same and neither the app, the table screen nor its
// board changed, with the chat open and the board's notepad too.
func TestViewChangesNothingInTheSession(t *testing.T) {
	st := dealt(t, 3, 4)
	conn := newFakeConn(tableView(st, engine.SeatViewer(0), playFew(t, st, 3), 1))
	m := openTable(t, conn)
	ts := m.top().(*tableScreen)
	for _, keys := range [][]string{{}, {"n"}, {"down", "down", "down"}, {"n", "c", "h", "i"}} {
		press(t, m, keys...)
		snap := func() string { return fmt.Sprintf("%+v|%+v|%+v", *m, *ts, ts.board) }
		before, drawn := snap(), m.drawn
		first := m.View().Content
		if second := m.View().Content; second != first {
			t.Fatalf("after %v: two views differ", keys)
		}
		if snap() != before || m.drawn != drawn {
			t.Fatalf("after %v: View changed the session", keys)
		}
	}
}

// TestGuessHintIsWholeAt80: the guess prompt's example and its note on a
// bare 5 are wrapped, not cut — at 80 columns the pane is half the screen
// and the note read "(a bare 5 is the green…".
func TestGuessHintIsWholeAt80(t *testing.T) {
	for _, players := range []int{2, 3} {
		seed := uint64(1)
		for ; seed < 50; seed++ { // a deal where mara, the viewer, moves first
			if st := dealt(t, players, seed); st.Status().Active[0] == 0 {
				break
			}
		}
		conn := newFakeConn(tableView(dealt(t, players, seed), engine.SeatViewer(0), nil, 1))
		m := openTable(t, conn)
		press(t, m, "g")
		// The prompt's own column: every line cut where the log begins.
		var pane []string
		col := -1
		for _, l := range strings.Split(screenText(m), "\n") {
			r := []rune(l)
			if i := strings.Index(l, "Log"); col < 0 && strings.Contains(l, "Guess") && i >= 0 {
				col = len([]rune(l[:i]))
			}
			if col >= 0 && len(r) > col {
				r = r[:col]
			}
			pane = append(pane, string(r))
		}
		out := strings.Join(strings.Fields(strings.Join(pane, " ")), " ")
		if col < 0 || !strings.Contains(out, "(a bare 5 is the green 5)") || strings.Contains(out, "…") {
			t.Errorf("%d players: the guess hint is not whole:\n%s", players, screenText(m))
		}
		checkFits(t, m, 80, 24)
	}
}

// TestAcceptedMoveReturnsWithoutANewFrame: a move the table accepted comes
// back to its mover without drawing the screen again (the table's change
// draws the move; being busy is never drawn), and the keys it held back
// work again; a refused move, or one whose wait was noted on screen, is
// drawn.
func TestAcceptedMoveReturnsWithoutANewFrame(t *testing.T) {
	st := dealt(t, 2, 11)
	me := st.Status().Active[0]
	conn := newFakeConn(tableView(st, engine.SeatViewer(me), nil, 1))
	m := openTable(t, conn)
	ts := m.top().(*tableScreen)

	ts.setBusy(true)
	drawn := m.drawn
	send(m, actDoneMsg{conn: conn})
	if ts.busy {
		t.Fatal("still busy after the move came back")
	}
	if m.drawn != drawn {
		t.Fatalf("an accepted move's return drew %d more frames, want none", m.drawn-drawn)
	}

	ts.setBusy(true)
	press(t, m, "enter") // held back: the screen says to wait
	if !strings.Contains(screenText(m), "Wait a moment") {
		t.Fatalf("no word about waiting:\n%s", screenText(m))
	}
	send(m, actDoneMsg{conn: conn})
	if strings.Contains(screenText(m), "Wait a moment") {
		t.Fatalf("the wait is still on screen after the move came back:\n%s", screenText(m))
	}

	ts.setBusy(true)
	drawn = m.drawn
	send(m, actDoneMsg{conn: conn, err: errors.New("boom")})
	if m.drawn == drawn || ts.busy {
		t.Fatalf("a refused move's return drew no frame (busy %v)", ts.busy)
	}
}

// TestBoardNamesFollowTheSeats: a table's change reuses the names and bots
// the board was told when its seats still show them, and never serves a
// stale one: a seat renamed, taken by a bot, added or holding a handle
// too long to show whole makes them again, as boardContext would.
func TestBoardNamesFollowTheSeats(t *testing.T) {
	seats := func(hs ...string) []lobby.SeatView {
		var ss []lobby.SeatView
		for _, h := range hs {
			ss = append(ss, lobby.SeatView{Handle: textsafe.Text(h)})
		}
		return ss
	}
	v := lobby.TableView{Seats: seats("mara", "bo", "")}
	prev := boardContext(v, 0, 0)
	same := boardContextAfter(v, 80, 20, prev)
	if &same.Names[0] != &prev.Names[0] || &same.Bots[0] != &prev.Bots[0] {
		t.Error("the same seats made their names again")
	}
	long := strings.Repeat("x", 30)
	bot := seats("mara", "bo", "")
	bot[2].Bot = true
	for name, seen := range map[string][]lobby.SeatView{
		"renamed":    seats("mara", "kai", ""),
		"taken":      seats("mara", "bo", "kai"),
		"a bot":      bot,
		"one more":   seats("mara", "bo", "", "kai"),
		"one less":   seats("mara", "bo"),
		"long":       seats("mara", long, ""),
		"long again": seats("mara", long, ""),
	} {
		v.Seats = seen
		got, want := boardContextAfter(v, 0, 0, prev), boardContext(v, 0, 0)
		if !slices.Equal(got.Names, want.Names) || !slices.Equal(got.Bots, want.Bots) {
			t.Errorf("%s: names %q bots %v, want %q %v", name, got.Names, got.Bots, want.Names, want.Bots)
		}
		if again := boardContextAfter(v, 0, 0, got); !slices.Equal(again.Names, want.Names) {
			t.Errorf("%s, unchanged: names %q, want %q", name, again.Names, want.Names)
		}
	}
}

// TestWaitingRoomHostSeesWhoIsNotReady: the hub will not start while a
// seated person is not ready, so the host is told whom they wait for, not
// offered a start that fails; once all are ready, s starts.
func TestWaitingRoomHostSeesWhoIsNotReady(t *testing.T) {
	v := lobby.TableView{Version: 1, Code: "KQ7-M4X", Game: bc.Game{}.Info(), Phase: lobby.Waiting,
		You: engine.SeatViewer(0), Host: true,
		Seats: []lobby.SeatView{{Handle: "mara", Connected: true}, {Handle: "Bo", Connected: true}, {}}}
	conn := newFakeConn(v)
	m := openTable(t, conn)
	out := strings.Join(strings.Fields(screenText(m)), " ")
	if !strings.Contains(out, "Waiting for Bo to press r (ready)") {
		t.Errorf("the host is not told that Bo is not ready:\n%s", screenText(m))
	}
	v.Version++
	v.Seats[1].Ready = true
	conn.setView(v)
	send(m, tableChangedMsg{conn: conn})
	out = screenText(m)
	if strings.Contains(out, "Waiting for Bo") || !strings.Contains(out, "Press s to start") {
		t.Errorf("with everyone ready the host should be asked to start:\n%s", out)
	}
}

// TestLongChatIsReadableDuringPlay: a chat message longer than the window
// was cut at its edge under the board, the end never readable even with
// the chat open. The last message now wraps (two lines while closed), and
// the open chat shows it whole.
func TestLongChatIsReadableDuringPlay(t *testing.T) {
	st := dealt(t, 3, 1)
	v := tableView(st, engine.SeatViewer(0), nil, 1)
	long := "this is a rather long chat message that goes on and on so that it cannot fit on one line at eighty columns, the end: PINEAPPLE"
	v.Chat = []lobby.ChatLine{{Handle: "Bo", Text: textsafe.Text(long)}}
	conn := newFakeConn(v)
	m := openTable(t, conn)
	flat := func() string { return strings.Join(strings.Fields(screenText(m)), " ") }
	if !strings.Contains(flat(), "Bo: this is a rather long chat message that goes on and on so that it cannot fit on one line") {
		t.Errorf("the closed chat does not wrap the last message:\n%s", screenText(m))
	}
	checkFits(t, m, 80, 24)
	press(t, m, "c")
	if !strings.Contains(flat(), "Bo: "+long) {
		t.Errorf("the open chat does not show the last message whole:\n%s", screenText(m))
	}
	checkFits(t, m, 80, 24)
}

// The turn clock shows to the player whose move it is in its last 30
// seconds, as a glyph and a number (not colour alone), within 80×24; a
// long way off, or on another player's move, it says nothing.
func TestTurnClockShownInTheLastSeconds(t *testing.T) {
	st := dealt(t, 2, 11)
	active := st.Status().Active[0]
	conn := newFakeConn(tableView(st, engine.SeatViewer(active), nil, 1))
	m := newTestApp(t, &fakeHub{conn: conn}, nil, 80, 24)
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	m.now = func() time.Time { return now }
	var beats []time.Duration
	m.after = func(d time.Duration, _ func(time.Time) tea.Msg) tea.Cmd {
		beats = append(beats, d)
		return func() tea.Msg { return nil }
	}
	press(t, m, "enter", "enter") // quick play, the bots offered first
	ts, ok := m.top().(*tableScreen)
	if !ok {
		t.Fatalf("table not opened: %T", m.top())
	}
	tb := &timedBoard{Board: ts.board}
	ts.board = tb
	version := uint64(1)
	show := func(viewer engine.Viewer, left time.Duration) string {
		version++
		v := tableView(st, viewer, nil, version)
		v.Deadline, v.TurnClock = now.Add(left), true
		conn.setView(v)
		send(m, tableChangedMsg{conn: conn})
		checkFits(t, m, 80, 24)
		return screenText(m)
	}
	// On another player's move the clock is not this screen's: no beat.
	if s := show(engine.SeatViewer(1-active), 25*time.Second); strings.Contains(s, "⧗") || len(beats) != 0 {
		t.Fatalf("clock shown or ticking on another player's move (beats %v):\n%s", beats, s)
	}
	// A long way off it says nothing and sleeps until its last 30 seconds:
	// one beat, not one a second.
	if s := show(engine.SeatViewer(active), 2*time.Minute); strings.Contains(s, "⧗") || len(beats) != 1 || beats[0] != 90*time.Second {
		t.Fatalf("two minutes out: beats %v\n%s", beats, s)
	}
	if s := show(engine.SeatViewer(active), 25*time.Second); !strings.Contains(s, "⧗ 25 s left for your move") {
		t.Fatalf("clock not shown with 25 s left:\n%s", s)
	}
	// The deadline came closer than the beat on its way: a sooner one.
	if len(beats) != 2 || beats[1] != time.Second {
		t.Fatalf("with 25 s left: beats %v", beats)
	}
	// The turn clock is no countdown of the board's (that is for the
	// game's own timers).
	if tb.calls != 0 {
		t.Fatalf("the board was told the turn clock's time %d times", tb.calls)
	}
}
