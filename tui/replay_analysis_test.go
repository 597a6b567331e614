package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine/analysis"
	"github.com/codebreakers/codebreakers/storage"
)

// fakeAnalyst analyses on demand, counting the requests.
type fakeAnalyst struct{ calls int }

func (f *fakeAnalyst) Report(_ context.Context, g storage.FinishedGame) (analysis.Report, error) {
	f.calls++
	return analysis.Analyze(registry(), g.Record)
}

// TestReplayShowsAnalysis: a replay fetches its game's analysis, shows under
// each question what it gained against the best question available, and at
// the end a table of every player's bits and accuracy; a hides and shows it.
func TestReplayShowsAnalysis(t *testing.T) {
	g := finishedGame(t)
	store := newFakeStore()
	store.games[g.ID] = g
	m := newTestApp(t, &fakeHub{}, store, 80, 24)
	an := &fakeAnalyst{}
	m.analyst = an
	run(t, m, m.openReplay(g.ID))
	r, ok := m.top().(*replayScreen)
	if !ok {
		t.Fatalf("replay not opened: %T\n%s", m.top(), screenText(m))
	}
	if an.calls != 1 || r.review.report == nil {
		t.Fatalf("analysis not fetched (%d calls):\n%s", an.calls, screenText(m))
	}
	rep := r.review.report
	first := rep.Steps[0]
	for r.step < first.Move+1 {
		press(t, m, "right")
	}
	out := screenText(m)
	want := fmt.Sprintf("%d → %d hands", first.Before, first.After)
	if !strings.Contains(out, want) || !strings.Contains(out, "gained") || !strings.Contains(out, "best") {
		t.Fatalf("step %d does not show its analysis (%q):\n%s", r.step, want, out)
	}
	checkFits(t, m, 80, 24)
	press(t, m, "a")
	if out := screenText(m); strings.Contains(out, "gained") {
		t.Fatalf("a did not hide the analysis:\n%s", out)
	}
	press(t, m, "a", "end")
	out = screenText(m)
	if !strings.Contains(out, "accuracy") || !strings.Contains(out, "best available") {
		t.Fatalf("the end shows no summary:\n%s", out)
	}
	for _, p := range rep.Summaries {
		if p.Moves > 0 && !strings.Contains(out, analysis.Percent(p.Accuracy)) {
			t.Errorf("%s's accuracy %s is not shown:\n%s", p.Name, analysis.Percent(p.Accuracy), out)
		}
	}
	// The summary is never cut in the middle of a column (its last column
	// read "(move 9: 0.0 of 4.2 bi…" at 80 columns): what does not fit is
	// left out whole, and a wide screen has the costliest move.
	summary := func() []string {
		var rows []string
		lines := strings.Split(screenText(m), "\n")
		for i, l := range lines {
			if strings.Contains(l, "accuracy") {
				rows = lines[i:min(len(lines), i+1+len(rep.Summaries))]
			}
		}
		return rows
	}
	for i := range rep.Steps { // every player has a costliest move
		rep.Steps[i].Scored, rep.Steps[i].Best = true, rep.Steps[i].Expected+1+float64(i%3)
	}
	run(t, m, send(m, tea.WindowSizeMsg{Width: 80, Height: 24}))
	for _, l := range summary() {
		if strings.Contains(l, "…") {
			t.Errorf("the summary is cut at 80 columns:\n%s", strings.Join(summary(), "\n"))
			break
		}
	}
	checkFits(t, m, 80, 24)
	run(t, m, send(m, tea.WindowSizeMsg{Width: 120, Height: 40}))
	if rows := summary(); len(rows) == 0 || !strings.Contains(rows[0], "costliest move") || strings.Contains(strings.Join(rows, "\n"), "…") {
		t.Errorf("at 120 columns the summary lacks the costliest move, whole:\n%s", strings.Join(rows, "\n"))
	}
	m.resize(120, 40) // a wide title has room to say the analysis is there
	if !strings.Contains(screenText(m), "analysis ✓") {
		t.Errorf("no analysis mark at 120 columns:\n%s", screenText(m))
	}
	if !strings.Contains(screenText(m), "a analysis") {
		t.Errorf("the a key is not listed:\n%s", screenText(m))
	}
}

// TestReplayWithoutAnalyst: with no analyst the replay says nothing about
// analysis and a does nothing visible.
func TestReplayWithoutAnalyst(t *testing.T) {
	g := finishedGame(t)
	store := newFakeStore()
	store.games[g.ID] = g
	m := newTestApp(t, &fakeHub{}, store, 80, 24)
	run(t, m, m.openReplay(g.ID))
	press(t, m, "right", "right", "end")
	if out := screenText(m); strings.Contains(out, "analys") || strings.Contains(out, "accuracy") {
		t.Fatalf("analysis shown without an analyst:\n%s", out)
	}
}

// TestReplaySummaryKeepsTheHelpfulMoveOutOfCostliest: a report (stored
// before the fix) that names one move as both the one that helped most and
// the costliest shows, as costliest, the runner-up instead: a move that
// gained more bits than it gave up is the one that helped most.
func TestReplaySummaryKeepsTheHelpfulMoveOutOfCostliest(t *testing.T) {
	g := finishedGame(t)
	store := newFakeStore()
	store.games[g.ID] = g
	m := newTestApp(t, &fakeHub{}, store, 120, 40)
	m.analyst = &fakeAnalyst{}
	run(t, m, m.openReplay(g.ID))
	r, ok := m.top().(*replayScreen)
	if !ok {
		t.Fatalf("replay not opened: %T", m.top())
	}
	rep := analysis.Report{Game: g.Record.Game, Steps: []analysis.Step{
		{Move: 0, Seat: 0, Kind: "ask", Bits: 3, Expected: 1, Best: 2.5, Scored: true},
		{Move: 2, Seat: 0, Kind: "ask", Bits: 0.2, Expected: 1, Best: 1.5, Scored: true},
	}, Summaries: []analysis.Summary{{Seat: 0, Moves: 2, Bits: 3.2, Expected: 2, Best: 4, Accuracy: 0.5, Helped: 0, Cost: 0}}}
	r.gotAnalysis(m, replayAnalysisMsg{gameID: g.ID, report: rep})
	press(t, m, "end")
	out := screenText(m)
	if !strings.Contains(out, "costliest move") || !strings.Contains(out, "3: 1.0 of 1.5") || strings.Contains(out, "1: 1.0 of 2.5") {
		t.Errorf("the costliest move is not the runner-up (3: 1.0 of 1.5):\n%s", out)
	}
	// With no runner-up, the one move that mattered is shown as such,
	// not left out (its player's accuracy is under 100 %).
	rep.Steps = rep.Steps[:1]
	r.gotAnalysis(m, replayAnalysisMsg{gameID: g.ID, report: rep})
	m.draw()
	if out := screenText(m); !strings.Contains(out, "1: 1.0 of 2.5 (only move)") {
		t.Errorf("the only move that mattered is not shown as such:\n%s", out)
	}
}
