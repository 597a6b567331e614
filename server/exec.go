package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"charm.land/ssh"
	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/storage"
)

// Limits on exec arguments: anything longer is cut before it is used,
// logged or echoed.
const (
	maxArgs     = 4
	maxArgWidth = 32
	historySize = 20
)

// helpLines are the commands the help lists, with what each does: tty
// marks the ones that need a terminal (ssh -t).
var helpLines = []struct {
	head string
	cmds []helpCmd
}{
	{"Play:", []helpCmd{
		{false, "", "open the arcade (needs a terminal)"},
		{true, "join CODE", "sit at a table by its join code"},
		{true, "watch CODE", "watch a table live"},
		{true, "replay ID", "step through a finished game"},
	}},
	{"Without a terminal:", []helpCmd{
		{false, "help", "this text"},
		{false, "history", "your last games, newest first"},
		{false, "stats", "games played and won"},
		{false, "replay ID", "a finished game as text, every hand shown, and its analysis: the bits\neach move gained, the best move available, each player's accuracy"},
		{false, "top [GAME]", "the best-rated players (of every game, or one)"},
		{false, "profile HANDLE", "a player's ratings, record and recent games"},
		{false, "puzzle", "today's puzzle of every game"},
		{false, "puzzle GAME", "one game's puzzle: the position and the moves"},
		{false, "puzzle GAME N", "answer it with move N (once a day, with a key)"},
	}},
}

// helpCmd is one command of the help.
type helpCmd struct {
	tty        bool
	args, desc string
}

// helpText is the help, every command written as players run it on this
// server (a real host and port make them long), what it does under it.
func (s *Server) helpText() string {
	var b strings.Builder
	b.WriteString("Codebreakers: deduction card games over SSH.\n")
	for _, g := range helpLines {
		b.WriteString("\n" + g.head + "\n")
		for _, c := range g.cmds {
			b.WriteString("  " + s.sshRun(c.tty, c.args) + "\n")
			for d := range strings.SplitSeq(c.desc, "\n") {
				b.WriteString("      " + d + "\n")
			}
		}
	}
	b.WriteString("\nYour account is your SSH key: connect with the same key to keep your handle,\n" +
		"history and seats. Without a key you play as a guest and nothing is kept.\n")
	return b.String()
}

// sanitizeArgs cleans the exec command: at most a few arguments, each
// stripped of escapes and control characters and cut short. The command
// name is lower-cased.
func sanitizeArgs(args []string) []string {
	if len(args) > maxArgs {
		args = args[:maxArgs]
	}
	out := make([]string, 0, len(args))
	for i, a := range args {
		a = strings.TrimSpace(textsafe.Clean(a, maxArgWidth).String())
		if i == 0 {
			a = strings.ToLower(a)
		}
		out = append(out, a)
	}
	return out
}

// argsSummary is the command for the log: its name only, never arguments
// (codes and ids are nobody's business).
func argsSummary(args []string) string {
	if len(args) == 0 {
		return "shell"
	}
	return args[0]
}

// dispatch runs the session's command and returns its exit status.
func (s *Server) dispatch(ctx context.Context, cancel context.CancelCauseFunc, sess ssh.Session, id Identity, args []string, hasPty bool, box *resizeBox, env []string) int {
	name, arg := "", ""
	if len(args) > 0 {
		name = args[0]
	}
	if len(args) > 1 {
		arg = args[1]
	}
	out := sess
	switch name {
	case "":
		if !hasPty {
			writeLine(sess.Stderr(), "Codebreakers is played in a terminal: run `"+s.sshRun(true, "")+"`. Try `"+s.sshRun(false, "help")+"`.")
			return 1
		}
		return s.runProgram(ctx, cancel, sess, id, Start{}, box, env)
	case "join", "watch":
		if arg == "" {
			writeLine(sess.Stderr(), "Say which table: "+s.sshRun(true, name+" CODE"))
			return 1
		}
		if !hasPty {
			writeLine(sess.Stderr(), "That needs a terminal: "+s.sshRun(true, name+" "+arg))
			return 1
		}
		return s.runProgram(ctx, cancel, sess, id, Start{Kind: name, Arg: strings.ToUpper(arg)}, box, env)
	case "replay":
		if arg == "" {
			writeLine(sess.Stderr(), "Say which game: "+s.sshRun(false, "replay ID")+" (ids are listed by `"+s.sshRun(false, "history")+"`).")
			return 1
		}
		if hasPty {
			return s.runProgram(ctx, cancel, sess, id, Start{Kind: "replay", Arg: strings.ToUpper(arg)}, box, env)
		}
		return s.execReplay(ctx, out, sess.Stderr(), id, strings.ToUpper(arg))
	case "help", "--help", "-h":
		_, _ = io.WriteString(out, s.helpText())
		return 0
	case "history":
		return s.execHistory(out, sess.Stderr(), id)
	case "stats":
		return s.execStats(out, sess.Stderr(), id)
	case "top":
		return s.execTop(out, sess.Stderr(), arg)
	case "profile":
		return s.execProfile(out, sess.Stderr(), arg)
	case "puzzle":
		// Everything after the game is the answer: "puzzle break 1 2" is
		// not an answer of 1 (there is one try a day), so it must not read
		// as one.
		more := ""
		if len(args) > 2 {
			more = strings.Join(args[2:], " ")
		}
		return s.execPuzzle(ctx, out, sess.Stderr(), id, arg, more)
	default:
		writeLine(sess.Stderr(), fmt.Sprintf("Unknown command %q. Try `%s`.", name, s.sshRun(false, "help")))
		return 1
	}
}

func (s *Server) execHistory(out, errOut io.Writer, id Identity) int {
	if id.Guest {
		writeLine(out, "Guests have no history: connect with an SSH key to keep your games.")
		return 0
	}
	if s.cfg.Records == nil {
		writeLine(errOut, "History is not available on this server.")
		return 1
	}
	games, err := s.cfg.Records.History(id.Account, historySize)
	if err != nil {
		s.log.Error("history", "account", id.Account, "err", err)
		writeLine(errOut, "Your history could not be read just now. Please try again.")
		return 1
	}
	if len(games) == 0 {
		writeLine(out, "No finished games yet. Play one with `"+s.sshRun(true, "")+"`!")
		return 0
	}
	head := "Your last game"
	if len(games) > 1 {
		head = fmt.Sprintf("Your last %d games, newest first", len(games))
	}
	writeLine(out, head+" (replay with `"+s.sshRun(false, "replay ID")+"`):")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	_, _ = fmt.Fprintln(tw, "ID\tGAME\tFINISHED (UTC)\tRESULT\tMOVES\tPLAYERS")
	for _, g := range games {
		_, _ = fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n",
			g.ID, s.gameName(g.Game), g.Finished.UTC().Format("2006-01-02 15:04"),
			g.Outcome, g.Moves, seatNames(g.Seats))
	}
	_ = tw.Flush()
	return 0
}

func (s *Server) execStats(out, errOut io.Writer, id Identity) int {
	if id.Guest {
		writeLine(out, "Guests have no stats: connect with an SSH key to keep your games.")
		return 0
	}
	if s.cfg.Records == nil {
		writeLine(errOut, "Stats are not available on this server.")
		return 1
	}
	st, err := s.cfg.Records.Stats(id.Account)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		s.log.Error("stats", "account", id.Account, "err", err)
		writeLine(errOut, "Your stats could not be read just now. Please try again.")
		return 1
	}
	writeLine(out, "All games: "+st.Totals.String())
	ids := make([]string, 0, len(st.ByGame))
	for g := range st.ByGame {
		ids = append(ids, g)
	}
	sort.Strings(ids)
	for _, g := range ids {
		writeLine(out, fmt.Sprintf("  %-20s %s", s.gameName(g), st.ByGame[g]))
	}
	return 0
}

func (s *Server) execReplay(ctx context.Context, out, errOut io.Writer, id Identity, gameID string) int {
	if s.cfg.Records == nil || s.cfg.Games == nil {
		writeLine(errOut, "Replays are not available on this server.")
		return 1
	}
	g, err := s.cfg.Records.Game(gameID)
	if errors.Is(err, storage.ErrNotFound) {
		writeLine(errOut, fmt.Sprintf("No finished game has the id %q. `%s` lists yours.", gameID, s.sshRun(false, "history")))
		return 1
	}
	if err != nil {
		s.log.Error("replay", "game", gameID, "err", err)
		writeLine(errOut, "That game could not be read just now. Please try again.")
		return 1
	}
	if s.cfg.Puzzles != nil {
		account := id.Account
		if id.Guest {
			account = ""
		}
		withheld, err := s.cfg.Puzzles.Withholds(g, account)
		if err != nil {
			s.log.Error("replay: puzzle", "game", gameID, "err", err)
			writeLine(errOut, "That game could not be read just now. Please try again.")
			return 1
		}
		if withheld {
			writeLine(errOut, puzzleWithheld(s.gameName(g.Record.Game), s.sshRun(false, "puzzle "+g.Record.Game)))
			return 1
		}
	}
	if err := s.writeTranscript(out, g); err != nil {
		s.log.Error("replay", "game", gameID, "err", err)
		writeLine(errOut, "That game could not be replayed: its record does not match the rules any more.")
		return 1
	}
	if s.cfg.Analyst == nil {
		return 0
	}
	rep, err := s.cfg.Analyst.Report(ctx, g)
	if err != nil {
		s.log.Warn("replay analysis", "game", gameID, "err", err)
		writeLine(out, "")
		writeLine(out, "The analysis is not ready; try again in a moment.")
		return 0
	}
	writeLine(out, "")
	names := make([]string, len(g.Seats))
	for i, st := range g.Seats {
		names[i] = st.Handle
	}
	for _, line := range rep.Lines(names) {
		writeLine(out, cleanKeepingSpaces(line, analysisWidth))
	}
	return 0
}

// puzzleWithheld says why a game that is today's puzzle does not replay.
func puzzleWithheld(gameName, answer string) string {
	return "That game is today's " + gameName + " puzzle: its replay would give the answer away. Answer it first (`" +
		answer + "`, with a key), or replay it tomorrow."
}

// analysisWidth caps one line of the analysis printed after a transcript.
const analysisWidth = 400

// writeTranscript prints a finished game: who played, every event in
// order, then every hand and the result.
func (s *Server) writeTranscript(w io.Writer, g storage.FinishedGame) error {
	st, events, err := engine.Replay(s.cfg.Games, g.Record, -1)
	if err != nil {
		return fmt.Errorf("replay %s: %w", g.ID, err)
	}
	writeLine(w, fmt.Sprintf("%s · game %s · finished %s UTC", s.gameName(g.Record.Game), g.ID,
		g.Finished.UTC().Format("2006-01-02 15:04")))
	writeLine(w, "Players: "+seatNames(g.Seats))
	writeLine(w, "")
	for i, e := range events {
		writeLine(w, fmt.Sprintf("%3d. %s", i+1, eventText(e, g.Seats)))
	}
	writeLine(w, "")
	for _, line := range revealLines(st.View(engine.Omniscient())) {
		writeLine(w, line)
	}
	writeLine(w, "Result: "+textsafe.Clean(g.Result.Summary, 200).String())
	return nil
}

func (s *Server) gameName(id string) string {
	if s.cfg.Games != nil {
		if g, ok := s.cfg.Games.Lookup(id); ok {
			return g.Info().Name
		}
	}
	return textsafe.Clean(id, 20).String()
}

// seatNames lists the players in seat order, bots marked.
func seatNames(seats []storage.SeatRecord) string {
	names := make([]string, len(seats))
	for i, st := range seats {
		n := textsafe.Clean(st.Handle, 16).String()
		if n == "" {
			n = fmt.Sprintf("seat %d", i+1)
		}
		if st.Bot {
			n += " (bot)"
		}
		names[i] = n
	}
	return strings.Join(names, ", ")
}
