package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"

	"github.com/codebreakers/codebreakers/engine/analysis"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// analysisWait is how long a replay waits for its analysis before saying
// it is not ready (another first replay may be analysing).
const analysisWait = 20 * time.Second

// replayReview is a replay's analysis and whether it is shown.
type replayReview struct {
	on      bool
	waiting bool
	report  *analysis.Report
	failed  bool
}

// replayAnalysisMsg carries a game's analysis, fetched off the event loop.
type replayAnalysisMsg struct {
	gameID string
	report analysis.Report
	err    error
}

// askAnalysis fetches the game's analysis (stored, or made now for a game
// that has none) without blocking the event loop.
func (r *replayScreen) askAnalysis(a *app) tea.Cmd {
	if a.analyst == nil {
		return nil
	}
	r.review = replayReview{on: true, waiting: true}
	an, g, ctx := a.analyst, r.game, a.ctx
	return func() tea.Msg {
		c, cancel := context.WithTimeout(ctx, analysisWait)
		defer cancel()
		rep, err := an.Report(c, g)
		return replayAnalysisMsg{gameID: g.ID, report: rep, err: err}
	}
}

func (r *replayScreen) gotAnalysis(a *app, msg replayAnalysisMsg) {
	if msg.gameID != r.game.ID {
		return
	}
	r.review.waiting = false
	if msg.err != nil {
		r.review.failed = true
		a.logger.Warn("replay analysis", "game", r.game.ID, "err", msg.err)
		return
	}
	rep := msg.report
	r.review.report = &rep
}

// mark is the title's note on the analysis.
func (r *replayScreen) mark() string {
	switch {
	case !r.review.on && (r.review.report != nil || r.review.waiting):
		return " · analysis off"
	case r.review.report != nil:
		return " · analysis ✓"
	case r.review.waiting:
		return " · analysing…"
	}
	return ""
}

// analysisLines are the footer lines about the move just replayed.
func (r *replayScreen) analysisLines(a *app, w int) []string {
	if !r.review.on {
		return nil
	}
	indent := strings.Repeat(" ", widget.Width(fmt.Sprintf(" step %d/%d   ", r.step, r.moves())))
	switch {
	case r.review.failed:
		return []string{a.st.dim.Render(widget.Truncate(indent+"The analysis is not ready; open the replay again later.", w, "…"))}
	case r.review.report == nil:
		if r.review.waiting {
			return []string{a.st.dim.Render(widget.Truncate(indent+"Analysing the game…", w, "…"))}
		}
		return nil
	case r.step == 0:
		return nil
	}
	i := r.review.report.StepAt(r.step - 1)
	if i < 0 {
		return nil
	}
	st := r.review.report.Steps[i]
	text := textsafe.Clean(st.Figures(), 300).String()
	if st.Hidden != "" {
		text += " · " + textsafe.Clean(st.Hidden, 200).String()
	}
	var out []string
	for _, l := range capLines(widget.WrapIndent(text, w, indent, indent), 2, w) {
		out = append(out, a.st.dim.Render(l))
	}
	return out
}

// summaryLines are the end of the replay's review: per player, what their
// moves gained against the best available, and their costliest move.
func (r *replayScreen) summaryLines(a *app, w int) []string {
	if !r.review.on || r.review.report == nil {
		return nil
	}
	rep := r.review.report
	var rows [][]string
	noun := ""
	for _, p := range rep.Summaries {
		if p.Moves == 0 {
			continue
		}
		cost := ""
		// From the steps (a stored report may name the move that helped
		// most as the costliest too): never the move that helped most,
		// unless it was the only move that mattered, and then it says so.
		switch helped, i, only := analysis.Standouts(rep.Steps, p.Seat); {
		case i >= 0:
			c := rep.Steps[i]
			cost = fmt.Sprintf("%d: %.1f of %.1f", c.Move+1, c.Expected, c.Best)
		case only:
			c := rep.Steps[helped]
			cost = fmt.Sprintf("%d: %.1f of %.1f (only move)", c.Move+1, c.Expected, c.Best)
		}
		if noun == "" {
			_, noun = rep.Noun(p.Seat)
		}
		rows = append(rows, []string{r.seatName(p.Seat), fmt.Sprint(p.Moves), fmt.Sprintf("%.1f", p.Bits),
			fmt.Sprintf("%.1f", p.Best), analysis.Percent(p.Accuracy), cost})
	}
	if len(rows) == 0 {
		return nil
	}
	headers := []string{"", noun, "bits gained", "best available", "accuracy", "costliest move"}
	lines := r.summaryTable(a, headers, rows)
	if widest(lines) > w-1 {
		// The costliest move is the column a narrow screen can spare: drop
		// it whole rather than cut every row short in its middle.
		for i := range rows {
			rows[i] = rows[i][:len(rows[i])-1]
		}
		lines = r.summaryTable(a, headers[:len(headers)-1], rows)
	}
	var out []string
	for _, l := range lines {
		out = append(out, " "+widget.Truncate(l, w-1, "…"))
	}
	return out
}

// summaryTable renders the review's summary rows under headers, as lines.
func (r *replayScreen) summaryTable(a *app, headers []string, rows [][]string) []string {
	t := table.New().Border(lipgloss.HiddenBorder()).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).BorderHeader(false).BorderColumn(false).
		Headers(headers...).Rows(rows...).
		StyleFunc(func(row, col int) lipgloss.Style {
			s := lipgloss.NewStyle()
			if col < len(headers)-1 {
				s = s.PaddingRight(2)
			}
			if row == table.HeaderRow {
				return s.Inherit(a.st.dim)
			}
			return s
		})
	return strings.Split(t.Render(), "\n")
}

// widest is the width in cells of the widest of lines.
func widest(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, lipgloss.Width(l))
	}
	return w
}
