package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	bcboard "github.com/codebreakers/codebreakers/tui/breakcode"
	codingboard "github.com/codebreakers/codebreakers/tui/coding"
	ifboard "github.com/codebreakers/codebreakers/tui/ifthen"
	wtrboard "github.com/codebreakers/codebreakers/tui/whattherule"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// rulesText maps a game id to its rules, written for this arcade.
func rulesText(gameID string) (string, bool) {
	switch gameID {
	case "breakcode":
		return bcboard.Rules, true
	case "coding":
		return codingboard.Rules, true
	case "ifthen":
		return ifboard.Rules, true
	case "whattherule":
		return wtrboard.Rules, true
	}
	return "", false
}

// arcadeHelp explains the arcade itself.
const arcadeHelp = `Codebreakers is an arcade of deduction games played over SSH.

Getting a game
  Quick play deals a game at once against bots. Create a table to choose the
  game, the number of seats, how many bots sit down and how strong they are.
  A private table is found only with its join code (like KQ7-M4X): give the
  code to friends, who pick "Join with a code". A public table is listed
  under Public tables, where anyone may join it or watch it live.

At the table
  While a table waits, players press r when ready and the host presses s to
  start (empty seats get bots). During play the top line says whose turn it
  is. Press c to chat, ? for the keys of the screen, esc to leave. If your
  connection drops, your seat waits for you for a minute; connect again with
  the same key to pick up where you were.

Afterwards
  When a game ends, V replays it at once and R asks the table for a
  rematch. My games lists your finished games. Any game can be replayed move by move,
  every hand shown, from there or with its id.

Keys everywhere
  arrows or h j k l move, enter chooses, esc goes back, ? shows every key of
  the screen, q quits (during a game you are asked first).`

// newRulesMenu lists the games with rules plus the arcade's own help.
func newRulesMenu(a *app) *menuScreen {
	items := []menuItem{{"The arcade", fixed("how tables, codes and keys work"), func(a *app) tea.Cmd {
		a.push(newTextScreen("How to play · the arcade", arcadeHelp))
		return nil
	}}}
	for _, g := range a.games.Games() {
		info := g.Info()
		text, ok := rulesText(info.ID)
		if !ok {
			continue
		}
		items = append(items, menuItem{info.Name, fixed(info.Summary), func(a *app) tea.Cmd {
			a.push(newTextScreen("How to play · "+info.Name, text))
			return nil
		}})
	}
	return &menuScreen{name: "How to play", items: items}
}

// textScreen shows a long text, wrapped to the window, scrolled with ↑/↓.
type textScreen struct {
	plainScreen

	name   string
	text   string
	offset int
	lines  int // wrapped line count at the last draw, for clamping the scroll
	rows   int
	wrap   []string // the text laid out at wrapW
	wrapW  int
}

func newTextScreen(name, text string) *textScreen { return &textScreen{name: name, text: text} }

func (s *textScreen) title(*app) string { return s.name }
func (s *textScreen) capturing() bool   { return false }

func (s *textScreen) update(a *app, msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	maxOff := max(0, s.lines-s.rows)
	switch {
	case key.Matches(km, a.km.back):
		a.pop()
	case key.Matches(km, a.km.up):
		s.offset = max(0, s.offset-1)
	case key.Matches(km, a.km.down):
		s.offset = min(maxOff, s.offset+1)
	case km.String() == "pgdown" || km.String() == "space":
		s.offset = min(maxOff, s.offset+max(1, s.rows-1))
	case km.String() == "pgup":
		s.offset = max(0, s.offset-max(1, s.rows-1))
	case key.Matches(km, a.km.home):
		s.offset = 0
	case key.Matches(km, a.km.end):
		s.offset = maxOff
	}
	return nil
}

func (s *textScreen) body(a *app, w, h int) []string {
	wrapped := s.wrapped(w)
	s.lines, s.rows = len(wrapped), max(1, h-1)
	s.offset = min(s.offset, max(0, s.lines-s.rows))
	end := min(len(wrapped), s.offset+s.rows)
	var b strings.Builder
	for _, l := range wrapped[s.offset:end] {
		b.WriteString("  " + l + "\n")
	}
	if s.lines > s.rows {
		b.WriteString(a.st.dim.Render("  ── lines " + itoa(s.offset+1) + "–" + itoa(end) + " of " + itoa(s.lines) + " ──"))
	}
	return wrapBlock(b.String(), w, h)
}

// wrapped is the text laid out for a window w cells wide (two cells of
// margin each side), remembered for the last width.
func (s *textScreen) wrapped(w int) []string {
	tw := max(20, w-4)
	if s.wrapW != tw || s.wrap == nil {
		s.wrapW, s.wrap = tw, widget.Reflow(s.text, tw)
	}
	return s.wrap
}

func (s *textScreen) shortHelp(a *app) []key.Binding {
	return []key.Binding{withHelp(a.km.up, "↑/↓", "scroll"), withHelp(a.km.home, "home/end", "top/bottom"), a.km.back, a.km.help}
}
