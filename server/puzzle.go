package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/engine/words"
	"github.com/codebreakers/codebreakers/lobby/puzzle"
	"github.com/codebreakers/codebreakers/storage"
)

// puzzleWidth and puzzleHeight are the size a puzzle's position is drawn
// at for the `puzzle GAME` command.
const (
	puzzleWidth  = 80
	puzzleHeight = 18
)

// execPuzzle is the `puzzle [GAME [N]]` command: today's puzzles, one
// puzzle's position and moves, or an answer.
func (s *Server) execPuzzle(ctx context.Context, out, errOut io.Writer, id Identity, game, answer string) int {
	if s.cfg.Puzzles == nil || s.cfg.Games == nil {
		writeLine(errOut, "This server has no puzzle of the day.")
		return 1
	}
	account := id.Account
	if id.Guest {
		account = ""
	}
	if game == "" {
		return s.puzzleList(ctx, out, errOut, account)
	}
	gameID, ok := s.puzzleGame(game)
	if !ok {
		writeLine(errOut, fmt.Sprintf("There is no game %q. Try `%s` for the list.", textsafe.Clean(game, 20).String(), s.sshRun(false, "puzzle")))
		return 1
	}
	if answer == "" {
		return s.puzzleShow(ctx, out, errOut, account, gameID)
	}
	n, err := strconv.Atoi(answer)
	if err != nil {
		writeLine(errOut, "Answer with the number of a move, like: "+s.sshRun(false, "puzzle "+gameID+" 2"))
		return 1
	}
	if account == "" {
		writeLine(errOut, "Guests can look at the puzzle; answering needs an SSH key (your key is your account).")
		return 1
	}
	d, err := s.cfg.Puzzles.Today(ctx, gameID, account)
	if err != nil {
		return s.puzzleFailed(errOut, err)
	}
	if d.Puzzle.None {
		writeLine(errOut, "There is no puzzle of this game today.")
		return 1
	}
	if n < 1 || n > len(d.Puzzle.Options) { // 0 is a number, just not a move's
		writeLine(errOut, fmt.Sprintf("Choose a move from 1 to %d.", len(d.Puzzle.Options)))
		return 1
	}
	d, err = s.cfg.Puzzles.Answer(ctx, gameID, account, n-1)
	if errors.Is(err, storage.ErrAlreadyTried) {
		writeLine(errOut, "You have already answered today's puzzle of this game. A new one comes at midnight UTC.")
		return 1
	}
	if err != nil {
		return s.puzzleFailed(errOut, err)
	}
	for _, l := range puzzleResult(d, s.sshRun(false, "replay "+d.Puzzle.GameID)) {
		writeLine(out, l)
	}
	return 0
}

func (s *Server) puzzleFailed(errOut io.Writer, err error) int {
	s.log.Error("puzzle", "err", err)
	writeLine(errOut, "The puzzle could not be read just now. Please try again.")
	return 1
}

// puzzleGame finds a game by id or name, or a unique beginning of either
// ("break", "coding", "ifthen", "rule").
func (s *Server) puzzleGame(arg string) (string, bool) {
	key := simpleName(arg)
	var found []string
	for _, g := range s.cfg.Games.Games() {
		info := g.Info()
		for _, name := range []string{info.ID, simpleName(info.Name), strings.TrimPrefix(simpleName(info.Name), "the"),
			strings.TrimPrefix(simpleName(info.Name), "what")} {
			if strings.HasPrefix(name, key) && key != "" {
				found = append(found, info.ID)
				break
			}
		}
	}
	if len(found) != 1 {
		return "", false
	}
	return found[0], true
}

// simpleName keeps a name's letters, lowercased: "What the Rule?!" → "whattherule".
func simpleName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func (s *Server) puzzleList(ctx context.Context, out, errOut io.Writer, account string) int {
	writeLine(out, "Puzzle of the day: one position per game from a real finished game. Find the move")
	writeLine(out, "that tells its player the most; one try a day per game.")
	writeLine(out, "")
	for _, g := range s.cfg.Games.Games() {
		info := g.Info()
		d, err := s.cfg.Puzzles.Today(ctx, info.ID, account)
		if err != nil {
			return s.puzzleFailed(errOut, err)
		}
		status := "no puzzle today"
		if !d.Puzzle.None {
			status = fmt.Sprintf("%s · solved by %d of %d", words.Count(len(d.Puzzle.Options), "move", "moves"), len(d.Solvers), d.Answered)
			switch {
			case d.Try != nil && d.Try.Solved:
				status += fmt.Sprintf(" · you solved it (streak %s)", words.Count(d.Streak.Current, "day", "days"))
			case d.Try != nil:
				status += " · you answered"
			}
		}
		writeLine(out, fmt.Sprintf("  %-16s %-12s %s", info.Name, info.ID, status))
	}
	writeLine(out, "")
	writeLine(out, "See one: "+s.sshRun(false, "puzzle GAME")+"    answer: "+s.sshRun(false, "puzzle GAME N"))
	return 0
}

func (s *Server) puzzleShow(ctx context.Context, out, errOut io.Writer, account, game string) int {
	d, err := s.cfg.Puzzles.Today(ctx, game, account)
	if err != nil {
		return s.puzzleFailed(errOut, err)
	}
	p := d.Puzzle
	if p.None {
		writeLine(out, "No puzzle of this game today: puzzles come from public games")
		writeLine(out, "finished in the two weeks before today, and none gave one.")
		writeLine(out, "Come back tomorrow: today's public games count then.")
		return 0
	}
	pos, err := s.cfg.Puzzles.Position(p)
	if err != nil {
		return s.puzzleFailed(errOut, err)
	}
	seat := fmt.Sprintf("seat %d", int(p.Seat)+1)
	if int(p.Seat) < len(pos.Game.Seats) && pos.Game.Seats[p.Seat].Handle != "" {
		seat = textsafe.Clean(pos.Game.Seats[p.Seat].Handle, 16).String()
	}
	writeLine(out, fmt.Sprintf("%s · puzzle of %s UTC · you are %s, about to move", s.gameName(game), p.Date, seat))
	writeLine(out, "")
	if s.cfg.PositionText != nil {
		for _, l := range s.cfg.PositionText(p, pos, puzzleWidth, puzzleHeight) {
			writeLine(out, cleanKeepingSpaces(l, puzzleWidth))
		}
		writeLine(out, "")
	}
	writeLine(out, "You knew: "+textsafe.Clean(p.Knew, 300).String()+".")
	if d.Try != nil {
		writeLine(out, "")
		for _, l := range puzzleResult(d, s.sshRun(false, "replay "+d.Puzzle.GameID)) {
			writeLine(out, l)
		}
		return 0
	}
	writeLine(out, "Which move tells you the most?")
	for i, o := range p.Options {
		writeLine(out, fmt.Sprintf("  %2d  %s", i+1, textsafe.Clean(o.Label, 200).String()))
	}
	writeLine(out, "")
	writeLine(out, "Answer once today: "+s.sshRun(false, "puzzle "+game+" N"))
	return 0
}

// puzzleResult is what an answer earned: every move's bits, the best and
// the player's own, the streak and the day's solvers; replay is the
// command that replays the puzzle's game.
func puzzleResult(d puzzle.Day, replay string) []string {
	p, t := d.Puzzle, d.Try
	var out []string
	if t.Solved {
		out = append(out, "Solved: that is the best move.")
	} else {
		out = append(out, "Not the best move.")
	}
	for i, o := range p.Options {
		mark := d.Mark(i)
		if mark != "" {
			mark = "  " + mark
		}
		out = append(out, fmt.Sprintf("  %2d  %-44s %5.2f bits%s", i+1, textsafe.Clean(o.Label, 44).String(), o.Bits, mark))
	}
	st := d.Streak
	out = append(out, fmt.Sprintf("Streak: %s (best %s); solved %d of %s.", words.Count(st.Current, "day", "days"),
		words.Count(st.Best, "day", "days"), st.Solved, words.Count(st.Tried, "try", "tries")))
	names := make([]string, 0, len(d.Solvers))
	for _, sv := range d.Solvers {
		names = append(names, textsafe.Clean(sv.Handle, 16).String())
	}
	line := fmt.Sprintf("Solved today by %d of %d", len(d.Solvers), d.Answered)
	if len(names) > 0 {
		line += ", first to last: " + strings.Join(names, ", ")
	}
	out = append(out, line+".", fmt.Sprintf("From game %s, move %d: %s shows what followed.", p.GameID, p.Move+1, replay))
	return out
}

// cleanKeepingSpaces sanitises a line laid out in columns: each run of
// non-space text is cleaned (textsafe.Clean) and the runs of spaces between
// them are kept as they are, so columns stay aligned; the line is cut at
// width cells.
func cleanKeepingSpaces(line string, width int) string {
	var b strings.Builder
	for len(line) > 0 {
		i := strings.IndexFunc(line, func(r rune) bool { return r != ' ' })
		if i < 0 {
			break // trailing spaces: dropped
		}
		b.WriteString(line[:i])
		line = line[i:]
		j := strings.IndexByte(line, ' ')
		if j < 0 {
			j = len(line)
		}
		b.WriteString(textsafe.Clean(line[:j], 0).String())
		line = line[j:]
	}
	out := b.String()
	if width > 0 && ansi.StringWidth(out) > width {
		out = ansi.Truncate(out, width, "…")
	}
	return out
}
