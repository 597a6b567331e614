package analysis

import (
	"fmt"
	"math"
	"strings"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/words"
)

// Bits writes an amount of information for people: "1.87 bits".
func Bits(x float64) string {
	if x == 1 {
		return "1 bit"
	}
	return fmt.Sprintf("%.2f bits", x)
}

// Percent writes a share between 0 and 1 as "91 %". A share that is not
// nothing or everything never rounds to 0 % or 100 % ("<1 %", ">99 %"): a
// guess with one chance in 209 is not a guess with none.
func Percent(x float64) string {
	p := math.Round(100 * x)
	switch {
	case x > 0 && p == 0:
		return "<1 %"
	case x < 1 && p == 100:
		return ">99 %"
	}
	return fmt.Sprintf("%.0f %%", p)
}

// Figures is the one line of a step's numbers: "212 → 58 centre sets ·
// gained 1.87 bits · expected 2.10 · best 2.31: sum of your tiles".
func (s Step) Figures() string {
	unit := s.Unit
	if s.After == 1 {
		unit = singular(unit)
	}
	parts := []string{fmt.Sprintf("%d → %d %s", s.Before, s.After, unit)}
	if s.Kind == "guess" {
		parts = append(parts, fmt.Sprintf("chance %s (best %s)", Percent(s.Chance), Percent(s.BestChance)))
		if s.Bits > 0 {
			parts = append(parts, "gained "+Bits(s.Bits))
		}
	} else {
		parts = append(parts, "gained "+Bits(s.Bits), fmt.Sprintf("expected %.2f", s.Expected))
		best := fmt.Sprintf("best %.2f", s.Best)
		if s.Best > s.Expected+1e-9 && s.BestMove != "" {
			best += ": " + s.BestMove
		}
		if s.Approx {
			best += " (upper bounds)"
		}
		parts = append(parts, best)
	}
	if s.Gave > 0 || s.LeastGave > 0 {
		parts = append(parts, fmt.Sprintf("gave away %.2f of their own (least %.2f)", s.Gave, s.LeastGave))
	}
	return strings.Join(parts, " · ")
}

// singular is a Step.Unit for one: "hands" → "hand", "centre sets" →
// "centre set", "codes of bo" → "code of bo" (the noun before " of ",
// else the last word, loses its s).
func singular(unit string) string {
	head, tail := unit, ""
	if i := strings.Index(unit, " of "); i > 0 {
		head, tail = unit[:i], unit[i:]
	}
	return strings.TrimSuffix(head, "s") + tail
}

// Lines writes the report as plain text for a transcript, one step after
// another (who moved and what, what they knew, the figures, the replay's
// hidden comment), then a line or two per player. names gives each seat's
// display name; the caller sanitises the lines before printing them.
func (r Report) Lines(names []string) []string {
	name := func(s int) string {
		if s >= 0 && s < len(names) && names[s] != "" {
			return names[s]
		}
		return fmt.Sprintf("seat %d", s+1)
	}
	const indent = "          "
	out := []string{"Analysis: what each move told its player, in bits, against the best move they had"}
	for _, s := range r.Steps {
		out = append(out, fmt.Sprintf("  move %d · %s %s", s.Move+1, name(int(s.Seat)), s.Text))
		if s.Knew != "" {
			out = append(out, indent+"knew: "+s.Knew)
		}
		out = append(out, indent+s.Figures())
		if s.Hidden != "" {
			out = append(out, indent+s.Hidden)
		}
	}
	if r.Cut {
		out = append(out, "  (the analysis stopped here: its budget ran out)")
	}
	out = append(out, "Players")
	for _, p := range r.Summaries {
		if p.Moves == 0 && p.Guesses == 0 && p.Bits == 0 {
			continue
		}
		if p.Moves == 0 {
			out = append(out, fmt.Sprintf("  %-12s nothing to score (%s)", name(int(p.Seat)), words.Count(p.Guesses, "guess", "guesses")))
			continue
		}
		one, many := r.Noun(p.Seat)
		out = append(out, fmt.Sprintf("  %-12s %s · %s gained · expected %.2f of the best %.2f · accuracy %s",
			name(int(p.Seat)), words.Count(p.Moves, one, many), Bits(p.Bits), p.Expected, p.Best, Percent(p.Accuracy)))
		var notes []string
		// From the steps, not p.Helped and p.Cost: reports stored before
		// Standouts could name one move for both.
		helped, cost, only := Standouts(r.Steps, p.Seat)
		switch {
		case only:
			s := r.Steps[max(helped, cost)]
			notes = append(notes, fmt.Sprintf("only move %d mattered (gained %s; expected %.2f of %.2f bits)", s.Move+1, Bits(s.Bits), s.Expected, s.Best))
		default:
			if helped >= 0 {
				h := r.Steps[helped]
				notes = append(notes, fmt.Sprintf("helped most: move %d (%s)", h.Move+1, Bits(h.Bits)))
			}
			if cost >= 0 {
				c := r.Steps[cost]
				notes = append(notes, fmt.Sprintf("cost most: move %d (%.2f of %.2f bits)", c.Move+1, c.Expected, c.Best))
			}
		}
		if p.Gave > 0 {
			notes = append(notes, fmt.Sprintf("gave away %s of their own code", Bits(p.Gave)))
		}
		if len(notes) > 0 {
			out = append(out, "  "+strings.Repeat(" ", 13)+strings.Join(notes, " · "))
		}
	}
	return out
}

// Noun names what a seat's scored steps were, one and many: question,
// Hack card, play.
func (r Report) Noun(seat engine.Seat) (one, many string) {
	for _, s := range r.Steps {
		if s.Seat != seat || !s.Scored {
			continue
		}
		switch s.Kind {
		case "ask":
			return "question", "questions"
		case "hack":
			return "Hack card", "Hack cards"
		}
		return "play", "plays"
	}
	return "move", "moves"
}
