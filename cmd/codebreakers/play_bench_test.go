package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"regexp"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/charmbracelet/x/ansi"

	bc "github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/server/frame"
	"github.com/codebreakers/codebreakers/storage"
	"github.com/codebreakers/codebreakers/tui"
)

// countMoves is a lobby.Observer that counts the moves accepted at every
// table and wakes whoever waits for a number of them.
type countMoves struct {
	mu     sync.Mutex
	n      int
	target int
	reach  chan struct{}
}

func (c *countMoves) Action(_ string, o lobby.Outcome, _ time.Duration) {
	if o != lobby.OutcomeOK {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	if c.reach != nil && c.n >= c.target {
		close(c.reach)
		c.reach = nil
	}
}

func (c *countMoves) TableBroken(string) {}

// after returns a channel closed once n more moves have been accepted.
func (c *countMoves) after(n int) <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan struct{})
	c.target, c.reach = c.n+n, ch
	return ch
}

// autoPlayer wraps a session's model and plays its seat the way the load
// generator's people do, reading only the title bar of what the session
// shows, from inside the session's own program: on its turn it presses
// enter (the selected question); at the end the host asks for a rematch
// (R), the guest gets ready (r) and the host starts (s) once the guest
// shows ready. A spectator only watches.
type autoPlayer struct {
	inner   tea.Model
	n       *playCounts
	host    bool
	watcher bool
	// title is the title bar last acted on; ready is set once the guest
	// has pressed r for the game being set up.
	title string
	ready bool
	// drawn is the frame last seen, to count the frames drawn.
	drawn []string
}

func (p *autoPlayer) Init() tea.Cmd { return p.inner.Init() }

// View is the session's view (frame.Hook asks for ViewLines instead).
func (p *autoPlayer) View() tea.View { return p.inner.View() }

// ViewLines is the session's view as lines, as frame.Hook draws it; the
// model keeps them drawn, so asking twice (here and in Update) costs
// nothing more.
func (p *autoPlayer) ViewLines() (tea.View, []string) {
	return p.inner.(frame.LineViewer).ViewLines()
}

func (p *autoPlayer) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := p.inner.Update(msg)
	if next != nil {
		p.inner = next
	}
	_, lines := p.ViewLines()
	if !slices.Equal(lines, p.drawn) {
		p.drawn = append(p.drawn[:0], lines...) // the model drew a new frame (it keeps its lines until then)
		p.n.frames.Add(1)
	}
	if p.watcher || len(lines) == 0 {
		return p, cmd
	}
	title := ansi.Strip(lines[0])
	if title == p.title {
		return p, cmd
	}
	key := ""
	switch {
	case strings.Contains(title, "your turn"):
		p.n.asks.Add(1)
		key, p.ready = "enter", false
	case strings.Contains(title, "finished") && p.host:
		p.n.games.Add(1)
		key = "R"
	case strings.Contains(title, "waiting for players") && !p.host && !p.ready:
		key, p.ready = "r", true
	case strings.Contains(title, "waiting for players") && p.host:
		if !guestReadyRe.MatchString(ansi.Strip(strings.Join(lines, "\n"))) {
			return p, cmd // not yet: look again at the next frame
		}
		key = "s"
	default:
		p.title = title
		return p, cmd
	}
	p.title = title
	return p, tea.Batch(cmd, func() tea.Msg { return keyPress(key) })
}

// guestReadyRe finds the guest marked ready on the table's waiting screen.
var guestReadyRe = regexp.MustCompile(`g\d+\s+(✓ )?ready`)

// keyPress is the message a session's program gets for key k.
func keyPress(k string) tea.KeyPressMsg {
	if k == "enter" {
		return tea.KeyPressMsg(tea.Key{Code: tea.KeyEnter})
	}
	return tea.KeyPressMsg(tea.Key{Code: rune(k[0]), Text: k})
}

// playCounts counts what the people of BenchmarkTablesPlay did.
type playCounts struct{ asks, games, frames atomic.Int64 }

// playSession runs a as the server runs a session: a Bubble Tea program
// without its renderer or input reader, whose views go through frame.Hook
// to a frame.Renderer (writing to io.Discard instead of an SSH channel).
func playSession(ctx context.Context, m tea.Model, w, h int) *tea.Program {
	scr := frame.New(io.Discard, frame.Options{Width: w, Height: h, Profile: colorprofile.ANSI256})
	p := tea.NewProgram(frame.NewHook(m, scr),
		tea.WithContext(ctx),
		tea.WithInput(nil),
		tea.WithOutput(io.Discard),
		tea.WithoutRenderer(),
		tea.WithFPS(1),
		tea.WithColorProfile(colorprofile.ANSI256),
		tea.WithWindowSize(w, h),
		tea.WithoutSignalHandler(),
	)
	go func() { _, _ = p.Run(); scr.Close(time.Second) }()
	return p
}

// gcCPU is the CPU time the Go runtime reckons it spent collecting
// garbage so far (mark assists, background marking, pauses).
func gcCPU() time.Duration {
	sample := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindFloat64 {
		return 0
	}
	return time.Duration(sample[0].Value.Float64() * 1e9)
}

// BenchmarkTablesPlay is the server's work per move at many Break the
// Code tables at once — the load test's play without SSH — set up as the
// load test's (two people, a strong bot
// and the aid on; a spectator at every fifth table; 100×30 terminals of
// 256 colours), with every seat's and spectator's session a real program
// drawing each change through the frame renderer, and the moves stored in
// bbolt. Nobody pauses: people move as soon as their screen shows their
// turn and bots at once, so the figure is work, not waiting. One op is one
// move accepted at some table (people's and bots'); cpu-ns/move is the
// process's user+system CPU over the timed moves, gc-ns/move the part of
// it the runtime spent collecting garbage; allocs/op and B/op are
// the whole process's too. What it leaves out: SSH (encryption, channel
// writes, key decoding) and the background analysis of finished games.
func BenchmarkTablesPlay(b *testing.B) {
	const tables, w, h = 40, 100, 30
	db, err := storage.Open(filepath.Join(b.TempDir(), "arcade.db"), storage.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	moves := &countMoves{}
	reg := games()
	// Every table's host comes from one address.
	hub, err := lobby.NewHub(lobby.Config{Games: reg, Store: db, BotDelay: -1, Observer: moves,
		Logger: slog.New(slog.DiscardHandler), TablesPerMinute: 1 << 20})
	if err != nil {
		b.Fatal(err)
	}
	defer hub.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var progs []*tea.Program
	defer func() {
		cancel()
		for _, p := range progs {
			p.Wait()
		}
	}()
	deps := tui.Deps{Hub: hub, Store: db, Games: reg}
	counts := &playCounts{}
	// A seat's session resumes the seat its account holds, as a player's
	// does on signing in; a spectator's starts as `ssh HOST watch CODE`.
	open := func(name string, host bool, watch string) {
		m := tui.New(deps, tui.Session{
			Identity: lobby.Identity{Account: "SHA256:" + name, Handle: name, Addr: "192.0.2.1"},
			Width:    w, Height: h, Context: ctx, Colours: colorprofile.ANSI256,
			Start: tui.Start{Kind: map[bool]string{true: "watch"}[watch != ""], Arg: watch},
		})
		p := playSession(ctx, &autoPlayer{inner: m, n: counts, host: host, watcher: watch != ""}, w, h)
		progs = append(progs, p)
	}
	for i := range tables {
		hostID := lobby.Identity{Account: fmt.Sprintf("SHA256:h%d", i), Handle: fmt.Sprintf("h%d", i), Addr: "192.0.2.1"}
		hc, err := hub.Create(hostID, lobby.TableSpec{Game: bc.ID, Seats: 3, Bots: 1, BotLevel: bc.LevelStrong})
		if err != nil {
			b.Fatal(err)
		}
		code := hc.View().Code
		gc, err := hub.Join(lobby.Identity{Account: fmt.Sprintf("SHA256:g%d", i), Handle: fmt.Sprintf("g%d", i), Addr: "192.0.2.2"}, code)
		if err != nil {
			b.Fatal(err)
		}
		if err := gc.SetReady(true); err != nil {
			b.Fatal(err)
		}
		if err := hc.Start(); err != nil {
			b.Fatal(err)
		}
		open(fmt.Sprintf("h%d", i), true, "")
		open(fmt.Sprintf("g%d", i), false, "")
		if i%5 == 0 {
			open(fmt.Sprintf("s%d", i), false, code)
		}
	}
	// Warm up: every table plays a few moves before the timing starts.
	select {
	case <-moves.after(tables * 5):
	case <-time.After(2 * time.Minute):
		b.Fatal("the tables did not get going within 2 minutes (a bound, not a speed check)")
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0, gc0, asks0, games0, frames0 := cpuTime(b), gcCPU(), counts.asks.Load(), counts.games.Load(), counts.frames.Load()
	done := moves.after(b.N)
	select {
	case <-done:
	case <-time.After(10 * time.Minute):
		b.Fatal("the moves were not played within 10 minutes (a bound, not a speed check)")
	}
	cpu, gc := cpuTime(b)-cpu0, gcCPU()-gc0
	b.StopTimer()
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/move")
	b.ReportMetric(float64(gc.Nanoseconds())/float64(b.N), "gc-ns/move")
	// How many of the moves were people's questions, and how many games
	// ended, per move: the mix the figure is for (the bots' guesses end
	// the games).
	b.ReportMetric(float64(counts.asks.Load()-asks0)/float64(b.N), "asks/move")
	b.ReportMetric(float64(counts.games.Load()-games0)/float64(b.N), "games/move")
	// Frames the sessions drew per move (a table has three or four
	// sessions); a frame a session kept because nothing on its screen
	// changed, such as after the enter that asks, is not drawn.
	b.ReportMetric(float64(counts.frames.Load()-frames0)/float64(b.N), "frames/move")
}
