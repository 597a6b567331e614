package tui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/rating"
	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/engine/words"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/storage"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// ---- Play people: choose a game and a count, then seek ----

// seekingHint is home's line beside Play people: who is seeking what.
func seekingHint(a *app) string {
	if a.hub == nil {
		return "get matched with people, rated by skill"
	}
	counts := a.hub.Seeking()
	var parts []string
	for _, g := range a.games.Games() {
		info := g.Info()
		if n := counts[info.ID]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", info.Name, n))
		}
	}
	if len(parts) == 0 {
		return "nobody seeking yet: be the first"
	}
	return strings.Join(parts, " · ") + " seeking"
}

// playPeople asks for the game, then the number of players, then seeks.
func playPeople(a *app) tea.Cmd {
	return pickGame(a, "Play people", func(a *app, game string) tea.Cmd {
		g, ok := a.games.Lookup(game)
		if !ok {
			return nil
		}
		info := g.Info()
		seeking := 0
		if a.hub != nil {
			seeking = a.hub.Seeking()[game]
		}
		items := []menuItem{{"Any number", fixed(fmt.Sprintf("the first table that fills · %d seeking now", seeking)),
			func(a *app) tea.Cmd { return a.seek(lobby.SeekSpec{Game: game}) }}}
		for n := info.MinPlayers; n <= info.MaxPlayers; n++ {
			items = append(items, menuItem{fmt.Sprintf("%d players", n), fixed(""),
				func(a *app) tea.Cmd { return a.seek(lobby.SeekSpec{Game: game, Players: n}) }})
		}
		a.push(&menuScreen{name: "Play people · " + info.Name + " · how many players?", items: items})
		return nil
	})
}

// seekStartedMsg carries the result of joining a pool.
type seekStartedMsg struct {
	seek seekConn
	err  error
}

// seekChangedMsg says a seek's status may have changed.
type seekChangedMsg struct{ seek seekConn }

// seekTickMsg redraws the time waited once a second.
type seekTickMsg struct{ seek seekConn }

// seek joins a pool off the event loop.
func (a *app) seek(spec lobby.SeekSpec) tea.Cmd {
	if a.hub == nil {
		return nil
	}
	h, id := a.hub, a.id
	return func() tea.Msg {
		s, err := h.Seek(id, spec)
		return seekStartedMsg{seek: s, err: err}
	}
}

// waitSeek is the pump of a seek: its next change, or the session's end.
func waitSeek(ctx context.Context, s seekConn) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-ctx.Done():
			return nil
		case <-s.Updates():
			return seekChangedMsg{seek: s}
		}
	}
}

// seekScreen waits in a pool: who else is waiting, the time waited, the
// rating window, and, once the wait is over, the offer of bots.
type seekScreen struct {
	plainScreen

	seek   seekConn
	status lobby.SeekStatus
	err    string
	busy   bool
	done   bool // seated or over: nothing to cancel
}

func (a *app) seekStarted(msg seekStartedMsg) tea.Cmd {
	if msg.err != nil {
		a.top().setError(a.userError(msg.err, ""))
		return nil
	}
	for len(a.stack) > 1 { // the game and count menus are done with
		a.pop()
	}
	s := &seekScreen{seek: msg.seek, status: msg.seek.Status()}
	a.push(s)
	return tea.Batch(a.seekPump(a.ctx, s.seek), s.tick(a))
}

func (s *seekScreen) tick(a *app) tea.Cmd {
	sk := s.seek
	return a.after(time.Second, func(time.Time) tea.Msg { return seekTickMsg{seek: sk} })
}

// changed reads the status again and moves to the table once seated.
func (s *seekScreen) changed(a *app) tea.Cmd {
	s.status = s.seek.Status()
	if c := s.seek.Seat(); c != nil && !s.done {
		s.done = true
		a.pop()
		return a.pushTable(c)
	}
	if s.status.Over != "" {
		s.done = true
	}
	return nil
}

func (s *seekScreen) title(*app) string {
	t := "Play people · " + s.status.Game.Name
	if s.status.Players > 0 {
		t += fmt.Sprintf(" · %d players", s.status.Players)
	} else {
		t += " · any number"
	}
	if s.status.Rated {
		return t + " · rated"
	}
	return t + " · casual"
}

func (s *seekScreen) titleRight(a *app) string {
	return clock(a.now().Sub(s.status.Since)) + " waiting"
}

// clock shows a duration as m:ss.
func clock(d time.Duration) string {
	d = max(0, d).Truncate(time.Second)
	return fmt.Sprintf("%d:%02d", int(d.Minutes()), int(d.Seconds())%60)
}

func (s *seekScreen) capturing() bool   { return false }
func (s *seekScreen) setError(m string) { s.err = m; s.busy = false }

func (s *seekScreen) close() {
	if !s.done {
		s.seek.Cancel()
		s.done = true
	}
}

func (s *seekScreen) update(a *app, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case seekChangedMsg:
		if msg.seek != s.seek {
			return nil
		}
		if cmd := s.changed(a); cmd != nil || s.done {
			return cmd
		}
		return a.seekPump(a.ctx, s.seek)
	case seekTickMsg:
		if msg.seek != s.seek || s.done {
			return nil
		}
		return tea.Batch(s.changed(a), s.tick(a))
	case tea.KeyPressMsg:
		s.err = ""
		switch {
		case key.Matches(msg, a.km.back):
			a.pop() // close cancels the seek
		case key.Matches(msg, a.km.bots) && !s.done && !s.busy:
			if !s.status.BotsReady {
				s.err = fmt.Sprintf("Bots can fill the seats from %s; keep waiting for people until then.",
					clock(s.status.BotsAt.Sub(s.status.Since)))
				return nil
			}
			s.busy = true
			sk := s.seek
			return func() tea.Msg {
				c, err := sk.PlayBots()
				return tableOpenedMsg{conn: c, err: err}
			}
		}
	}
	return nil
}

func (s *seekScreen) body(a *app, w, h int) []string {
	st := s.status
	var b strings.Builder
	b.WriteString("\n")
	want := "other players"
	if st.Players == 2 {
		want = "one opponent"
	} else if st.Players > 2 {
		want = words.Count(st.Players-1, "other player", "other players")
	}
	if st.Rated {
		lo, hi := st.Rating.R-st.Window, st.Rating.R+st.Window
		b.WriteString(fmt.Sprintf("  Looking for %s near %s (range %s–%s, widening).\n", want, st.Rating,
			rating.Rating{R: lo}.String(), rating.Rating{R: hi}.String()))
	} else if a.id.Guest {
		b.WriteString(fmt.Sprintf("  Looking for %s among guests (casual: connect with an SSH key to play rated).\n", want))
	} else {
		// A key account seeks casually only in a game without ratings (If
		// Then is played as a team): it was told to connect with a key.
		b.WriteString(fmt.Sprintf("  Looking for %s (casual: %s has no ratings).\n", want, st.Game.Name))
	}
	// Waiting counts this seeker too: say who else is there.
	if others := st.Waiting - 1; others > 0 {
		b.WriteString(fmt.Sprintf("  You and %s are seeking %s now.\n", words.Count(others, "other", "others"), st.Game.Name))
	} else {
		b.WriteString(fmt.Sprintf("  Nobody else is seeking %s now.\n", st.Game.Name))
	}
	if len(st.Others) > 0 {
		var others []string
		for _, o := range st.Others {
			n := textsafe.Clean(o.Handle, textsafe.MaxHandle).String()
			if o.Rated {
				n += " " + o.Rating.String()
			}
			if o.Players > 0 {
				n += fmt.Sprintf(" (%d players)", o.Players)
			} else {
				n += " (any)"
			}
			if !o.InRange {
				n += ", " + notPairedWhy(st, o, a.id.Handle)
			}
			others = append(others, n)
		}
		b.WriteString("  Also seeking: " + truncate(strings.Join(others, " · "), max(10, w-16)) + "\n")
		// Said in full: without it two friends behind one router wait for
		// ever, each told the other is "out of range".
		for _, o := range st.Others {
			if o.SameOrigin {
				b.WriteString("  " + a.st.dim.Render("Rated games never pair two players from one address. To play "+
					textsafe.Clean(o.Handle, textsafe.MaxHandle).String()+", create a table and give them its code.") + "\n")
				break
			}
		}
	}
	b.WriteString("\n")
	switch {
	case st.Over != "":
		b.WriteString("  " + a.st.notice.Render(st.Over) + " (esc back)\n")
	case s.busy:
		b.WriteString("  " + a.st.dim.Render("Dealing a game with bots…") + "\n")
	case st.BotsReady:
		b.WriteString("  " + a.st.strong.Render("The wait is over: press b to fill the seats with bots and play now (casual).") + "\n")
	default:
		// The time left is said here too: a narrow title bar drops the
		// clock on its right, and "At 0:30" alone then tells nothing.
		b.WriteString("  " + a.st.dim.Render(fmt.Sprintf("At %s (in %s) you can fill the seats with bots and play now (casual).",
			clock(st.BotsAt.Sub(st.Since)), clock(st.BotsAt.Sub(a.now())))) + "\n")
	}
	if s.err != "" {
		b.WriteString("  " + a.st.errText.Render("! "+s.err) + "\n")
	}
	return wrapBlock(b.String(), w, h)
}

// notPairedWhy says why another seeker cannot be paired with this one now:
// guests and key accounts seek in separate pools, counts must agree, and
// rated seekers must be within each other's rating window.
func notPairedWhy(st lobby.SeekStatus, o lobby.SeekerInfo, self string) string {
	switch {
	case o.Handle == self: // handles are one per account
		return "you, in another session"
	case o.Rated && !st.Rated:
		return "rated: plays SSH keys only"
	case !o.Rated && st.Rated:
		return "a guest: plays guests only"
	case o.Players != 0 && st.Players != 0 && o.Players != st.Players:
		return "wants another count"
	case o.SameOrigin:
		return "same address as you"
	}
	return "out of range"
}

func (s *seekScreen) shortHelp(a *app) []key.Binding {
	keys := []key.Binding{withHelp(a.km.back, "esc", "stop seeking")}
	if s.status.Over != "" { // seeking has ended already: esc only goes back
		keys[0] = withHelp(a.km.back, "esc", "back")
	}
	if s.status.BotsReady && !s.done {
		keys = append(keys, a.km.bots)
	}
	return append(keys, a.km.help)
}

// truncate cuts s to w cells with an ellipsis.
func truncate(s string, w int) string {
	r := []rune(s)
	if len(r) <= w {
		return s
	}
	return string(r[:max(0, w-1)]) + "…"
}

// ---- Watch: live public tables, recent finished games, best of the day ----

type watchTab int

const (
	watchLive watchTab = iota
	watchRecent
	watchBest
)

var watchTabNames = []string{"live", "finished", "best today"}

// watchScreen lists what anyone may watch: public tables in play (watched
// live) and finished public games (opened as replays, every hand shown).
type watchScreen struct {
	plainScreen

	tab      watchTab
	live     []lobby.TableSummary
	recent   []storage.GameSummary
	best     []storage.GameSummary
	cursor   int
	err      string
	loading  bool
	busy     bool
	loadedAt time.Time
}

type watchLoadedMsg struct {
	recent, best []storage.GameSummary
	err          error
}

func newWatchScreen(a *app) (*watchScreen, tea.Cmd) {
	s := &watchScreen{}
	return s, s.load(a)
}

func (s *watchScreen) load(a *app) tea.Cmd {
	if a.hub != nil {
		s.live = s.live[:0]
		for _, t := range a.hub.PublicTables() {
			if t.Phase == lobby.Playing {
				s.live = append(s.live, t)
			}
		}
	}
	if a.store == nil {
		return nil
	}
	s.loading = true
	store := a.store
	day := a.now().UTC().Truncate(24 * time.Hour)
	return func() tea.Msg {
		recent, err := store.FinishedGames(storage.ListQuery{Limit: 50})
		if err != nil {
			return watchLoadedMsg{err: err}
		}
		best, err := store.FinishedGames(storage.ListQuery{Limit: 20, Since: day, Best: true})
		return watchLoadedMsg{recent: recent, best: best, err: err}
	}
}

func (s *watchScreen) title(*app) string { return "Watch · " + watchTabNames[s.tab] }
func (s *watchScreen) capturing() bool   { return false }
func (s *watchScreen) setError(m string) { s.err = m; s.busy = false }

func (s *watchScreen) rows() int {
	switch s.tab {
	case watchLive:
		return len(s.live)
	case watchRecent:
		return len(s.recent)
	}
	return len(s.best)
}

func (s *watchScreen) update(a *app, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case watchLoadedMsg:
		s.loading = false
		if msg.err != nil {
			s.err = a.userError(msg.err, "Finished games could not be read just now; press r to try again.")
			return nil
		}
		s.recent, s.best = msg.recent, msg.best
		return nil
	case tea.KeyPressMsg:
		s.err = ""
		switch {
		case key.Matches(msg, a.km.back):
			a.pop()
		case key.Matches(msg, a.km.tab), key.Matches(msg, a.km.right):
			s.tab, s.cursor = (s.tab+1)%3, 0
		case key.Matches(msg, a.km.left):
			s.tab, s.cursor = (s.tab+2)%3, 0
		case key.Matches(msg, a.km.up):
			s.cursor = max(0, s.cursor-1)
		case key.Matches(msg, a.km.down):
			s.cursor = min(max(0, s.rows()-1), s.cursor+1)
		case key.Matches(msg, a.km.refresh):
			return s.load(a)
		case key.Matches(msg, a.km.enter):
			if s.rows() == 0 || s.busy {
				return nil
			}
			switch s.tab {
			case watchLive:
				code := s.live[s.cursor].Code
				s.busy = true
				return a.openTable("Watch", func(h hubAPI, id lobby.Identity) (tableConn, error) { return h.Watch(id, code) })
			case watchRecent:
				return a.openReplay(s.recent[s.cursor].ID)
			default:
				return a.openReplay(s.best[s.cursor].ID)
			}
		}
	}
	return nil
}

func (s *watchScreen) body(a *app, w, h int) []string {
	var b strings.Builder
	b.WriteString("\n  ")
	for i, n := range watchTabNames {
		label := fmt.Sprintf("%s (%d)", n, [...]int{len(s.live), len(s.recent), len(s.best)}[i])
		if watchTab(i) == s.tab {
			b.WriteString(a.st.selected.Render("[" + label + "]"))
		} else {
			b.WriteString(a.st.dim.Render(" " + label + " "))
		}
		b.WriteString("  ")
	}
	b.WriteString("\n\n")
	rows := max(1, h-6)
	first := max(0, min(s.cursor-rows/2, s.rows()-rows))
	line := func(i int, row string) {
		row = truncate(row, max(10, w-6))
		if i == s.cursor {
			b.WriteString("  " + a.st.selected.Render("▸ "+row) + "\n")
		} else {
			b.WriteString("    " + row + "\n")
		}
	}
	switch {
	case s.tab == watchLive && len(s.live) == 0:
		b.WriteString("  No public game is being played right now. Press tab for finished games.\n")
	case s.tab == watchLive:
		for i := first; i < len(s.live) && i < first+rows; i++ {
			t := s.live[i]
			line(i, fmt.Sprintf("%-8s  %-16s  turn %-3d  %d watching  host %s", formatCode(t.Code),
				textsafe.Cut(t.GameName, 16), t.Turn, t.Spectators, t.Host))
		}
	case s.loading:
		b.WriteString("  Loading finished games…\n")
	case s.rows() == 0 && s.tab == watchBest:
		b.WriteString("  No public game has finished today yet.\n")
	case s.rows() == 0:
		b.WriteString("  No public game has finished yet.\n")
	default:
		list := s.recent
		if s.tab == watchBest {
			list = s.best
		}
		rows = max(1, rows-2) // room for the chosen game's result, below
		first = max(0, min(s.cursor-rows/2, s.rows()-rows))
		for i := first; i < len(list) && i < first+rows; i++ {
			line(i, gameLine(a, list[i]))
			if i == s.cursor {
				// Its row cuts the result short: the chosen game's is shown
				// whole beneath it.
				g := list[i]
				full := playerNames(g.Seats) + " — " + textsafe.Clean(g.Result.Summary, 200).String()
				for _, l := range capLines(widget.WrapIndent(full, max(10, w-6), "", ""), 2, max(10, w-6)) {
					b.WriteString("      " + a.st.dim.Render(l) + "\n")
				}
			}
		}
	}
	if s.err != "" {
		b.WriteString("\n  " + a.st.errText.Render("! "+s.err) + "\n")
	}
	return wrapBlock(b.String(), w, h)
}

// gameLine is one finished game in a list: id, game, when, top rating,
// players and how it ended.
func gameLine(a *app, g storage.GameSummary) string {
	top := "casual"
	if g.Rated {
		top = "★ " + rating.Rating{R: g.TopRating, RD: 1}.String()
	}
	return fmt.Sprintf("%-8s  %-15s  %s  %-8s  %s — %s", gameIDText(g.ID), gameName(a, g.Game),
		g.Finished.UTC().Format("01-02 15:04"), top, playerNames(g.Seats), textsafe.Clean(g.Result.Summary, 60).String())
}

func gameName(a *app, id string) string {
	if g, ok := a.games.Lookup(id); ok {
		return g.Info().Name
	}
	return textsafe.Clean(id, 16).String()
}

// playerNames lists a game's players, bots marked.
func playerNames(seats []storage.SeatRecord) string {
	names := make([]string, 0, len(seats))
	for _, seat := range seats {
		n := textsafe.Clean(seat.Handle, textsafe.MaxHandle).String()
		if seat.Bot {
			n += " (bot)"
		}
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

// shortHelp offers only the keys that do something now: moving takes two
// games in the list, watching or replaying one.
func (s *watchScreen) shortHelp(a *app) []key.Binding {
	enter := withHelp(a.km.enter, "enter", "replay")
	if s.tab == watchLive {
		enter = withHelp(a.km.enter, "enter", "watch")
	}
	return append(a.listKeys(s.rows(), "move", enter), withHelp(a.km.tab, "tab", "live/finished/best"), a.km.refresh, a.km.back, a.km.help)
}

// ---- Leaderboards ----

// leadersScreen shows the best-rated players of one game at a time.
type leadersScreen struct {
	plainScreen

	games   []engine.Info // the rated games
	game    int
	rows    []storage.Leader
	cursor  int
	loading bool
	err     string
}

type leadersLoadedMsg struct {
	game string
	rows []storage.Leader
	err  error
}

func newLeadersScreen(a *app) (*leadersScreen, tea.Cmd) {
	s := &leadersScreen{}
	for _, g := range a.games.Games() {
		if info := g.Info(); storage.RatedGame(info.ID) {
			s.games = append(s.games, info)
		}
	}
	return s, s.load(a)
}

func (s *leadersScreen) load(a *app) tea.Cmd {
	if a.store == nil || len(s.games) == 0 {
		return nil
	}
	s.loading, s.cursor, s.rows = true, 0, nil
	store, game, minGames := a.store, s.games[s.game].ID, a.minRated
	now := a.now()
	since := now.Add(-30 * 24 * time.Hour)
	return func() tea.Msg {
		rows, err := store.Leaderboard(storage.LeaderQuery{Game: game, Limit: 50, MinGames: minGames, Since: since})
		for i := range rows {
			rows[i].GameRating = rows[i].Current(now) // deviations grown for the days away
		}
		return leadersLoadedMsg{game: game, rows: rows, err: err}
	}
}

func (s *leadersScreen) title(*app) string {
	if len(s.games) == 0 {
		return "Leaderboards"
	}
	return "Leaderboards · " + s.games[s.game].Name
}
func (s *leadersScreen) capturing() bool   { return false }
func (s *leadersScreen) setError(m string) { s.err = m }

func (s *leadersScreen) update(a *app, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case leadersLoadedMsg:
		if len(s.games) == 0 || msg.game != s.games[s.game].ID {
			return nil // an answer for a game no longer shown
		}
		s.loading = false
		if msg.err != nil {
			s.err = a.userError(msg.err, "The leaderboard could not be read just now; try again in a moment.")
			return nil
		}
		s.rows = msg.rows
	case tea.KeyPressMsg:
		s.err = ""
		switch {
		case key.Matches(msg, a.km.back):
			a.pop()
		case len(s.games) == 0:
		case key.Matches(msg, a.km.tab), key.Matches(msg, a.km.right):
			s.game = (s.game + 1) % len(s.games)
			return s.load(a)
		case key.Matches(msg, a.km.left):
			s.game = (s.game + len(s.games) - 1) % len(s.games)
			return s.load(a)
		case key.Matches(msg, a.km.up):
			s.cursor = max(0, s.cursor-1)
		case key.Matches(msg, a.km.down):
			s.cursor = min(max(0, len(s.rows)-1), s.cursor+1)
		case key.Matches(msg, a.km.enter):
			if len(s.rows) > 0 {
				return a.openProfile(s.rows[s.cursor].Handle)
			}
		}
	}
	return nil
}

func (s *leadersScreen) body(a *app, w, h int) []string {
	var b strings.Builder
	b.WriteString("\n")
	switch {
	case len(s.games) == 0:
		b.WriteString("  No rated games are served here.\n")
		return wrapBlock(b.String(), w, h)
	case s.loading:
		b.WriteString("  Loading…\n")
	case len(s.rows) == 0:
		b.WriteString(fmt.Sprintf("  Nobody ranked in %s yet. Play people (at home) to appear here: %s in the last 30 days puts you on it.\n",
			s.games[s.game].Name, words.Count(a.minRated, "rated game", "rated games")))
		if a.id.Guest {
			b.WriteString("  Rated play needs an SSH key: guests play casual games.\n")
		}
	default:
		b.WriteString(a.st.dim.Render(fmt.Sprintf("    %3s  %-16s  %-12s  %6s  %5s", "#", "player", "rating", "games", "won")) + "\n")
		// A rating with "?" is provisional: say so under the table, where
		// a newcomer's list is full of them.
		legend := slices.ContainsFunc(s.rows, func(l storage.Leader) bool { return l.Rating.Provisional() })
		rows := max(1, h-5)
		if legend {
			rows = max(1, rows-2)
		}
		first := max(0, min(s.cursor-rows/2, len(s.rows)-rows))
		for i := first; i < len(s.rows) && i < first+rows; i++ {
			l := s.rows[i]
			row := fmt.Sprintf("%3d  %-16s  %-12s  %6d  %5d", l.Rank, textsafe.Clean(l.Handle, textsafe.MaxHandle).String(),
				l.Rating.String()+" "+l.Deviation(), l.Games, l.Wins)
			if i == s.cursor {
				b.WriteString("  " + a.st.selected.Render("▸ "+row) + "\n")
			} else {
				b.WriteString("    " + row + "\n")
			}
		}
		if legend {
			b.WriteString("\n  " + a.st.dim.Render("? provisional: too few games yet for the rating to be sure (± its spread)") + "\n")
		}
	}
	if s.err != "" {
		b.WriteString("\n  " + a.st.errText.Render("! "+s.err) + "\n")
	}
	return wrapBlock(b.String(), w, h)
}

// shortHelp offers only the keys that do something now: moving takes two
// players, a profile one, another game a second rated game.
func (s *leadersScreen) shortHelp(a *app) []key.Binding {
	ks := a.listKeys(len(s.rows), "move", withHelp(a.km.enter, "enter", "profile"))
	if len(s.games) > 1 {
		ks = append(ks, withHelp(a.km.tab, "tab", "next game"))
	}
	return append(ks, a.km.back, a.km.help)
}

// ---- Profile ----

// profileScreen shows one player: ratings per game with their trend, the
// record, and recent public games (enter replays one).
type profileScreen struct {
	plainScreen

	handle  string
	p       storage.Profile
	cursor  int
	loading bool
	err     string
}

type profileLoadedMsg struct {
	handle string
	p      storage.Profile
	err    error
}

// openProfile pushes the profile of handle and loads it.
func (a *app) openProfile(handle string) tea.Cmd {
	s := &profileScreen{handle: handle, loading: true}
	a.push(s)
	if a.store == nil {
		s.loading = false
		s.err = "Profiles are not available on this server."
		return nil
	}
	store, now := a.store, a.now()
	return func() tea.Msg {
		p, err := store.Profile(handle, 20)
		for i := range p.Ratings {
			p.Ratings[i] = p.Ratings[i].Current(now) // deviations grown for the days away
		}
		return profileLoadedMsg{handle: handle, p: p, err: err}
	}
}

func (s *profileScreen) title(*app) string {
	return "Profile · " + textsafe.Clean(s.handle, textsafe.MaxHandle).String()
}
func (s *profileScreen) titleRight(a *app) string {
	if s.loading || s.err != "" {
		return a.id.Handle
	}
	return fmt.Sprintf("joined %s · %s", s.p.Account.Created.UTC().Format("2006-01-02"),
		words.Count(s.p.Stats.Played, "game", "games"))
}
func (s *profileScreen) capturing() bool   { return false }
func (s *profileScreen) setError(m string) { s.err = m }

func (s *profileScreen) update(a *app, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case profileLoadedMsg:
		if msg.handle != s.handle {
			return nil
		}
		s.loading = false
		switch {
		case errorsIsNotFound(msg.err):
			s.err = fmt.Sprintf("Nobody has the handle %q.", textsafe.Clean(s.handle, textsafe.MaxHandle).String())
		case msg.err != nil:
			s.err = a.userError(msg.err, "That profile could not be read just now; try again in a moment.")
		default:
			s.p = msg.p
		}
	case tea.KeyPressMsg:
		s.err = ""
		switch {
		case key.Matches(msg, a.km.back):
			a.pop()
		case key.Matches(msg, a.km.up):
			s.cursor = max(0, s.cursor-1)
		case key.Matches(msg, a.km.down):
			s.cursor = min(max(0, len(s.p.Recent)-1), s.cursor+1)
		case key.Matches(msg, a.km.enter):
			if len(s.p.Recent) > 0 {
				return a.openReplay(s.p.Recent[s.cursor].ID)
			}
		case s.own(a) && key.Matches(msg, a.km.rename):
			// A table seats the player under the handle they sat down with:
			// a new one waits until no game holds a seat of theirs.
			if held := a.heldSeats(); len(held) > 0 {
				s.err = fmt.Sprintf("Table %s still holds your seat (a seat you left is kept a while): change your handle once that game is over or has let the seat go.", held[0].Code)
				return nil
			}
			a.push(newRenameScreen(a))
		}
	}
	return nil
}

// heldSeats are the tables holding a seat of the player's, if any.
func (a *app) heldSeats() []lobby.TableSummary {
	if a.hub == nil {
		return nil
	}
	return a.hub.HeldSeats(a.id.Account)
}

// own says the profile is the player's own, whose handle they may change
// (a guest has no account to keep one in).
func (s *profileScreen) own(a *app) bool {
	return !s.loading && a.store != nil && !a.id.Guest && a.id.Account != "" && s.p.Account.ID == a.id.Account
}

func (s *profileScreen) body(a *app, w, h int) []string {
	var b strings.Builder
	b.WriteString("\n")
	if s.loading {
		b.WriteString("  Loading…\n")
		return wrapBlock(b.String(), w, h)
	}
	if s.err != "" && s.p.Account.ID == "" {
		b.WriteString("  " + a.st.errText.Render("! "+s.err) + " (esc back)\n")
		return wrapBlock(b.String(), w, h)
	}
	used := 1
	for _, r := range s.p.Ratings {
		points := make([]float64, 0, len(s.p.Trends[r.Game]))
		for _, pt := range s.p.Trends[r.Game] {
			points = append(points, pt.R)
		}
		note := fmt.Sprintf("won %d of %d rated", r.Wins, r.Games)
		if r.Provisional() {
			note += " (provisional)"
		}
		b.WriteString(fmt.Sprintf("  %-16s %-7s %-5s  %-12s  %s\n", gameName(a, r.Game), r.Rating.String(), r.Deviation(),
			rating.Spark(points, 12), note))
		used++
	}
	levels := make([]string, 0, len(s.p.IfThen))
	for l := range s.p.IfThen {
		levels = append(levels, l)
	}
	slices.Sort(levels)
	for _, l := range levels {
		rec := s.p.IfThen[l]
		line := fmt.Sprintf("  %-16s level %s cleared %d of %d", gameName(a, "ifthen"), textsafe.Clean(l, 4).String(), rec.Cleared, rec.Played)
		if rec.FewestTurns > 0 {
			line += fmt.Sprintf(" · best %d turns", rec.FewestTurns)
		}
		b.WriteString(line + "\n")
		used++
	}
	if len(s.p.Ratings) == 0 && len(levels) == 0 {
		b.WriteString("  No rated games yet.\n")
		used++
	}
	b.WriteString("  " + s.p.Stats.Totals.String() + "\n\n")
	used += 2
	if len(s.p.Recent) == 0 {
		b.WriteString("  No public games yet.\n")
		if s.err != "" {
			b.WriteString("\n  " + a.st.errText.Render("! "+s.err) + "\n")
		}
		return wrapBlock(b.String(), w, h)
	}
	b.WriteString(a.st.dim.Render("  Recent public games") + "\n")
	rows := max(1, h-used-3)
	first := max(0, min(s.cursor-rows/2, len(s.p.Recent)-rows))
	for i := first; i < len(s.p.Recent) && i < first+rows; i++ {
		g := s.p.Recent[i]
		row := truncate(fmt.Sprintf("%-8s  %-15s  %-10s  %s  %s", gameIDText(g.ID), gameName(a, g.Game), g.Outcome,
			g.Finished.UTC().Format("2006-01-02"), playerNames(g.Seats)), max(10, w-6))
		if i == s.cursor {
			b.WriteString("  " + a.st.selected.Render("▸ "+row) + "\n")
		} else {
			b.WriteString("    " + row + "\n")
		}
	}
	if s.err != "" {
		b.WriteString("  " + a.st.errText.Render("! "+s.err) + "\n")
	}
	return wrapBlock(b.String(), w, h)
}

func (s *profileScreen) shortHelp(a *app) []key.Binding {
	ks := a.listKeys(len(s.p.Recent), "games", a.km.replay)
	if s.own(a) {
		ks = append(ks, a.km.rename)
	}
	return append(ks, a.km.back, a.km.help)
}

// errorsIsNotFound reports a lookup of something that does not exist.
func errorsIsNotFound(err error) bool { return errors.Is(err, storage.ErrNotFound) }
