package tui

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// menuItem is one row of a menu: a label, a hint, and what choosing it does.
type menuItem struct {
	label string
	hint  func(a *app) string
	act   func(a *app) tea.Cmd
}

// homeScreen is the first screen once the handle is known.
type homeScreen struct {
	plainScreen

	cursor int
	items  []menuItem
	err    string
	busy   string
}

func newHomeScreen() *homeScreen {
	return &homeScreen{items: homeItems()}
}

// homeItems are home's fixed rows, made once and shared by every session's
// home screen (made for each, they were a dozen objects a session kept for
// as long as it lasted). Nothing changes them: a screen that shows fewer
// works on a copy (rows).
var homeItems = sync.OnceValue(func() []menuItem {
	return []menuItem{
		{"Quick play", fixed("start a game now; bots fill the empty seats"), quickPlay},
		{"Play people", seekingHint, playPeople},
		{"Create a table", fixed("choose the game, seats, bots and options"), func(a *app) tea.Cmd {
			return pickGame(a, "Create a table", func(a *app, game string) tea.Cmd {
				a.push(newCreateScreen(a, game))
				return nil
			})
		}},
		{"Join with a code", fixed("a friend's table, to play or to watch"), func(a *app) tea.Cmd {
			a.push(newCodeScreen(codeJoin))
			return nil
		}},
		{"Public tables", publicHint, func(a *app) tea.Cmd {
			a.push(newTablesScreen(a))
			return nil
		}},
		{"Watch", fixed("games being played, and finished ones to replay"), func(a *app) tea.Cmd {
			s, cmd := newWatchScreen(a)
			a.push(s)
			return cmd
		}},
		{"Leaderboards", fixed("the best-rated players of each game"), func(a *app) tea.Cmd {
			s, cmd := newLeadersScreen(a)
			a.push(s)
			return cmd
		}},
		{myProfile, fixed("your ratings, their trend and your record"), func(a *app) tea.Cmd {
			return a.openProfile(a.id.Handle)
		}},
		{"Puzzle of the day", fixed("a position from a real game: find the best move"), openPuzzles},
		{"My games", fixed("history, replays and stats"), func(a *app) tea.Cmd {
			h := newHistoryScreen()
			a.push(h)
			return h.load(a)
		}},
		{"Replay a game", fixed("by its id, like " + exampleGameID), func(a *app) tea.Cmd {
			a.push(newCodeScreen(codeReplay))
			return nil
		}},
		{"How to play", fixed("the rules of each game, and the keys"), func(a *app) tea.Cmd {
			a.push(newRulesMenu(a))
			return nil
		}},
		{"Quit", fixed(""), func(a *app) tea.Cmd { return a.askQuit() }},
	}
})

func fixed(s string) func(*app) string { return func(*app) string { return s } }

func publicHint(a *app) string {
	if a.hub == nil {
		return "browse, join or watch live"
	}
	waiting, playing := a.hub.PublicCounts()
	return fmt.Sprintf("%d waiting · %d playing (watch live)", waiting, playing)
}

// pickGame calls then with the only game, or asks which game first.
func pickGame(a *app, what string, then func(a *app, game string) tea.Cmd) tea.Cmd {
	gs := a.games.Games()
	switch len(gs) {
	case 0:
		a.top().setError("No games are installed on this server.")
		return nil
	case 1:
		return then(a, gs[0].Info().ID)
	}
	items := make([]menuItem, 0, len(gs))
	for _, g := range gs {
		info := g.Info()
		items = append(items, menuItem{info.Name, fixed(info.Summary), func(a *app) tea.Cmd {
			a.pop()
			return then(a, info.ID)
		}})
	}
	a.push(&menuScreen{name: what + " · which game?", items: items})
	return nil
}

func (s *homeScreen) title(*app) string { return "Codebreakers" }
func (s *homeScreen) capturing() bool   { return false }
func (s *homeScreen) setError(m string) { s.err = m; s.busy = "" }

// myProfile is the home row only key accounts see: a guest has no
// profile, and home says instead how to get one (guestNote).
const myProfile = "My profile"

// guestNote is what home tells a guest in place of the rows they lack.
const guestNote = "You are a guest: no history, profile or rating is kept. To get them, connect with an SSH key (ssh -i KEY …): your key is your account."

// heldRows is how many seats home offers a way back to: the newest few.
// A player rarely holds more than two (a game left in its grace period and
// a new one); more would push the menu off an 80×24 screen.
const heldRows = 3

// rows are the menu as it stands: a way back to each seat the account
// holds in a game waiting or in play ("Back to your game" for the newest,
// the one Resume returns to), then the fixed items (without My profile for
// a guest).
func (s *homeScreen) rows(a *app) []menuItem {
	items := s.items
	if a.id.Guest {
		items = slices.DeleteFunc(slices.Clone(items), func(it menuItem) bool { return it.label == myProfile })
	}
	if a.hub == nil {
		return items
	}
	held := a.hub.HeldSeats(a.id.Account)
	if len(held) == 0 {
		return items
	}
	rows := make([]menuItem, 0, heldRows+len(items))
	for i, t := range held[:min(len(held), heldRows)] {
		at := fmt.Sprintf("%s · table %s · %s", t.GameName, t.Code, t.Phase)
		if t.BotPlays {
			// Away past the grace: a bot plays on, and going back takes
			// the seat from it.
			at += " · a bot plays your seat till you are back"
		}
		where := fixed(at)
		if i == 0 {
			rows = append(rows, menuItem{"Back to your game", where, resumeGame})
			continue
		}
		code := t.Code
		rows = append(rows, menuItem{"Your other seat", where, func(a *app) tea.Cmd {
			return a.openTable("Your other seat", func(h hubAPI, id lobby.Identity) (tableConn, error) {
				return h.Join(id, code) // the table gives a seated account its own seat back
			})
		}})
	}
	return append(rows, items...)
}

// resumeGame takes the player back to the seat the account holds.
func resumeGame(a *app) tea.Cmd {
	return a.openTable("Back to your game", func(h hubAPI, id lobby.Identity) (tableConn, error) {
		c, ok := h.Resume(id)
		if !ok {
			return nil, engine.Illegal("That game has ended or closed; its seat is no longer yours.")
		}
		return c, nil
	})
}

func (s *homeScreen) update(a *app, msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	s.err = ""
	rows := s.rows(a)
	s.cursor = min(s.cursor, len(rows)-1)
	switch {
	case key.Matches(km, a.km.up):
		s.cursor = (s.cursor + len(rows) - 1) % len(rows)
	case key.Matches(km, a.km.down):
		s.cursor = (s.cursor + 1) % len(rows)
	case key.Matches(km, a.km.home):
		s.cursor = 0
	case key.Matches(km, a.km.end):
		s.cursor = len(rows) - 1
	case key.Matches(km, a.km.enter):
		return rows[s.cursor].act(a)
	}
	return nil
}

func (s *homeScreen) body(a *app, w, h int) []string {
	var b strings.Builder
	b.WriteString("\n")
	rows := s.rows(a)
	s.cursor = min(s.cursor, len(rows)-1)
	// The menu leaves room for the blank lines around it and a note below.
	b.WriteString(renderMenu(a, rows, s.cursor, w, h-3))
	b.WriteString("\n")
	switch {
	case s.err != "":
		b.WriteString("  " + a.st.errText.Render("! "+s.err) + "\n")
	case s.busy != "":
		b.WriteString("  " + a.st.dim.Render(s.busy) + "\n")
	case a.id.Guest:
		b.WriteString("  " + a.st.dim.Render(guestNote) + "\n")
	}
	return wrapBlock(b.String(), w, h)
}

func (s *homeScreen) shortHelp(a *app) []key.Binding {
	return []key.Binding{withHelp(a.km.up, "↑/↓", "move"), a.km.enter, a.km.help, a.km.quit}
}

// renderMenu draws menu rows with a ▸ on the chosen one (glyph and bold, so
// the choice shows without colour), in at most h lines. Hints wrap under
// themselves while everything fits; in a short window each hint keeps one
// line, cut with …; shorter still, the rows scroll around the cursor with
// "↑ N more" and "↓ N more" markers, so the chosen row and the way to the
// others are never cut off.
func renderMenu(a *app, items []menuItem, cursor, w, h int) string {
	labelW := 0
	for _, it := range items {
		labelW = max(labelW, len([]rune(it.label)))
	}
	hintCol := 4 + labelW + 3
	pad := strings.Repeat(" ", hintCol)
	hints := make([][]string, len(items))
	total := 0
	for i, it := range items {
		// A hint too long for the row wraps under itself, not under the label.
		hints[i] = widget.WrapIndent(it.hint(a), max(hintCol+10, w), pad, pad)
		hints[i][0] = strings.TrimPrefix(hints[i][0], pad)
		total += len(hints[i])
	}
	if total > h {
		for i, it := range items {
			hints[i] = []string{widget.Truncate(it.hint(a), max(1, w-hintCol), "…")}
		}
	}
	first, last := 0, len(items)
	if len(items) > h {
		// Room for the rows and a marker line above and below.
		room := max(1, h-2)
		first = max(0, min(cursor-room/2, len(items)-room))
		last = min(len(items), first+room)
	}
	var b strings.Builder
	if first > 0 {
		b.WriteString("    " + a.st.dim.Render(fmt.Sprintf("↑ %d more", first)) + "\n")
	}
	for i := first; i < last; i++ {
		label := items[i].label + strings.Repeat(" ", labelW-len([]rune(items[i].label)))
		if i == cursor {
			b.WriteString("  " + a.st.selected.Render("▸ "+label) + "   " + hints[i][0] + "\n")
		} else {
			b.WriteString("    " + label + "   " + a.st.dim.Render(hints[i][0]) + "\n")
		}
		for _, more := range hints[i][1:] {
			b.WriteString(a.st.dim.Render(more) + "\n")
		}
	}
	if last < len(items) {
		b.WriteString("    " + a.st.dim.Render(fmt.Sprintf("↓ %d more", len(items)-last)) + "\n")
	}
	return b.String()
}

// menuScreen is a plain list of choices.
type menuScreen struct {
	plainScreen

	name   string
	items  []menuItem
	cursor int
	err    string
}

func (s *menuScreen) title(*app) string { return s.name }
func (s *menuScreen) capturing() bool   { return false }
func (s *menuScreen) setError(m string) { s.err = m }

func (s *menuScreen) update(a *app, msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok || len(s.items) == 0 {
		if ok && key.Matches(km, a.km.back) {
			a.pop()
		}
		return nil
	}
	switch {
	case key.Matches(km, a.km.up):
		s.cursor = (s.cursor + len(s.items) - 1) % len(s.items)
	case key.Matches(km, a.km.down):
		s.cursor = (s.cursor + 1) % len(s.items)
	case key.Matches(km, a.km.enter):
		return s.items[s.cursor].act(a)
	case key.Matches(km, a.km.back):
		a.pop()
	}
	return nil
}

func (s *menuScreen) body(a *app, w, h int) []string {
	out := "\n" + renderMenu(a, s.items, s.cursor, w, h-3)
	if s.err != "" {
		out += "\n  " + a.st.errText.Render("! "+s.err)
	}
	return wrapBlock(out, w, h)
}

func (s *menuScreen) shortHelp(a *app) []key.Binding {
	return []key.Binding{withHelp(a.km.up, "↑/↓", "move"), a.km.enter, a.km.back, a.km.help}
}
