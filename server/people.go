package server

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/codebreakers/codebreakers/engine/rating"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/engine/words"
	"github.com/codebreakers/codebreakers/storage"
)

// Sizes of the people commands' answers.
const (
	topSize       = 10 // lines per game of `top`
	profileRecent = 10 // recent games in `profile`
	trendWidth    = 16 // points in a profile's trend chart
)

// ratedGames lists the ids of the served games that keep ratings, in the
// registry's order.
func (s *Server) ratedGames() []string {
	var ids []string
	if s.cfg.Games == nil {
		return ids
	}
	for _, g := range s.cfg.Games.Games() {
		if id := g.Info().ID; storage.RatedGame(id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// lookupGame finds a served game by id or by its name written without
// spaces or punctuation ("breakthecode"), in any letter case, or by the
// short names the puzzle command takes ("break", "rule": puzzleGame).
func (s *Server) lookupGame(arg string) (string, bool) {
	if s.cfg.Games == nil {
		return "", false
	}
	want := squash(arg)
	for _, g := range s.cfg.Games.Games() {
		if info := g.Info(); squash(info.ID) == want || squash(info.Name) == want {
			return info.ID, true
		}
	}
	return s.puzzleGame(arg)
}

// squash lower-cases s and keeps only its letters and digits.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return -1
	}, s)
}

// execTop prints the leaderboard of one game, or of every rated game.
func (s *Server) execTop(out, errOut io.Writer, arg string) int {
	if s.cfg.Records == nil {
		writeLine(errOut, "Leaderboards are not available on this server.")
		return 1
	}
	games := s.ratedGames()
	if arg != "" {
		id, ok := s.lookupGame(arg)
		switch {
		case !ok:
			writeLine(errOut, fmt.Sprintf("No game is called %q. Try one of: %s.", arg, strings.Join(games, ", ")))
			return 1
		case !storage.RatedGame(id):
			writeLine(errOut, fmt.Sprintf("%s is played as a team, so it has no ratings; `%s` shows a player's levels cleared.", s.gameName(id), s.sshRun(false, "profile HANDLE")))
			return 1
		}
		games = []string{id}
	}
	days := int(s.cfg.LeaderboardWindow / (24 * time.Hour))
	now := time.Now()
	for i, game := range games {
		if i > 0 {
			writeLine(out, "")
		}
		top, err := s.cfg.Records.Leaderboard(storage.LeaderQuery{Game: game, Limit: topSize,
			MinGames: s.cfg.LeaderboardMinGames, Since: now.Add(-s.cfg.LeaderboardWindow)})
		if err != nil {
			s.log.Error("top", "game", game, "err", err)
			writeLine(errOut, "The leaderboard could not be read just now. Please try again.")
			return 1
		}
		writeLine(out, fmt.Sprintf("%s · top players (at least %s, the last within %d days)",
			s.gameName(game), words.Count(s.cfg.LeaderboardMinGames, "rated game", "rated games"), days))
		if len(top) == 0 {
			writeLine(out, "  Nobody yet: play people (rated) from the arcade to get here.")
			continue
		}
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		_, _ = fmt.Fprintln(tw, "  #\tPLAYER\tRATING\tGAMES\tWON")
		for _, l := range top {
			r := l.Current(now)
			_, _ = fmt.Fprintf(tw, "  %d\t%s\t%s %s\t%d\t%d\n", l.Rank, handleText(l.Handle), r.Rating, r.Deviation(), l.Games, l.Wins)
		}
		_ = tw.Flush()
	}
	return 0
}

// handleText is a stored handle made safe to print.
func handleText(h string) string {
	if h = textsafe.Clean(h, 16).String(); h == "" {
		return "?"
	}
	return h
}

// execProfile prints a player's ratings with their trend, record and
// recent games.
func (s *Server) execProfile(out, errOut io.Writer, arg string) int {
	if arg == "" {
		writeLine(errOut, "Say whose profile: "+s.sshRun(false, "profile HANDLE"))
		return 1
	}
	if s.cfg.Records == nil {
		writeLine(errOut, "Profiles are not available on this server.")
		return 1
	}
	p, err := s.cfg.Records.Profile(arg, profileRecent)
	if errors.Is(err, storage.ErrNotFound) {
		writeLine(errOut, fmt.Sprintf("Nobody has the handle %q. `%s` lists the best players.", arg, s.sshRun(false, "top")))
		return 1
	}
	if err != nil {
		s.log.Error("profile", "err", err)
		writeLine(errOut, "That profile could not be read just now. Please try again.")
		return 1
	}
	writeLine(out, fmt.Sprintf("%s · joined %s · %s", handleText(p.Account.Handle),
		p.Account.Created.UTC().Format("2006-01-02"), p.Stats.Totals))
	writeLine(out, "")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	now := time.Now()
	for _, r := range p.Ratings {
		r = r.Current(now)
		points := make([]float64, 0, len(p.Trends[r.Game]))
		for _, pt := range p.Trends[r.Game] {
			points = append(points, pt.R)
		}
		note := fmt.Sprintf("won %d of %d rated", r.Wins, r.Games)
		if r.Provisional() {
			note += " (provisional)"
		}
		_, _ = fmt.Fprintf(tw, "%s\t%s %s\t%s\t%s\n", s.gameName(r.Game), r.Rating, r.Deviation(),
			rating.Spark(points, trendWidth), note)
	}
	levels := make([]string, 0, len(p.IfThen))
	for l := range p.IfThen {
		levels = append(levels, l)
	}
	slices.Sort(levels)
	for _, l := range levels {
		rec := p.IfThen[l]
		line := fmt.Sprintf("If Then\tlevel %s\tcleared %d of %d", textsafe.Clean(l, 4).String(), rec.Cleared, rec.Played)
		if rec.FewestTurns > 0 {
			line += fmt.Sprintf(" · best %d turns", rec.FewestTurns)
		}
		_, _ = fmt.Fprintln(tw, line+"\t")
	}
	_ = tw.Flush()
	if len(p.Ratings) == 0 && len(levels) == 0 {
		writeLine(out, "No rated games yet.")
	}
	writeLine(out, "")
	if len(p.Recent) == 0 {
		writeLine(out, "No finished games yet.")
		return 0
	}
	writeLine(out, "Recent games (replay with `"+s.sshRun(false, "replay ID")+"`):")
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for _, g := range p.Recent {
		_, _ = fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", textsafe.Clean(g.ID, storage.GameIDLen).String(), s.gameName(g.Game), g.Outcome,
			g.Finished.UTC().Format("2006-01-02"), seatNames(g.Seats))
	}
	_ = tw.Flush()
	return 0
}
