package tui

import (
	"charm.land/bubbles/v2/key"

	"github.com/codebreakers/codebreakers/tui/board"
)

// keys is every key binding of the session UI, in one place. Screens pick
// the ones that work for them and show exactly those in the key bar.
type keys struct {
	up, down, left, right key.Binding
	home, end             key.Binding
	enter, back           key.Binding
	help, quit, forceQuit key.Binding
	yes, no               key.Binding
	tab                   key.Binding

	// table screen
	chat, ready, start, rematch, leave, replayGame key.Binding
	// lists
	refresh, watch, replay key.Binding
	// replay
	play, viewAs key.Binding
	// analysis shows or hides a replay's analysis.
	analysis key.Binding
	// seeking
	bots key.Binding

	board board.KeyMap
}

func newKeys() keys {
	k := keys{
		up:        key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		down:      key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		left:      key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "less")),
		right:     key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "more")),
		home:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home", "first")),
		end:       key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end", "last")),
		enter:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose")),
		back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		forceQuit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		yes:       key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "yes")),
		no:        key.NewBinding(key.WithKeys("n", "N", "esc"), key.WithHelp("n", "no")),
		tab:       key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "switch")),

		chat:  key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "chat")),
		ready: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "ready")),
		start: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "start")),
		// rematch and replayGame are the finished table's own keys. They are
		// capitals because no board reads one for a move: a move key pressed
		// just as the game ends (The Coding's v vote, What the Rule?!'s r
		// reveal) must not open the replay or send the table back to waiting.
		rematch: key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "rematch")),
		leave:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "leave")),
		// replayGame opens the replay of the game a finished table just played.
		replayGame: key.NewBinding(key.WithKeys("V"), key.WithHelp("V", "replay")),

		refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		watch:   key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "watch")),
		replay:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "replay")),

		play:     key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "play/pause")),
		viewAs:   key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "view as")),
		analysis: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "analysis")),

		bots: key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "play bots now")),
	}
	// The boards' keys, named plainly: each board shows them with what
	// they do on it (widget.Help, widget.Pair), and only where they work.
	k.board = board.KeyMap{
		Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑", "up")),
		Down:   key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", "down")),
		Left:   key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←", "left")),
		Right:  key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→", "right")),
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose")),
		Guess:  key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "guess")),
		Notes:  key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "notes")),
		Pass:   key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pass")),
		Pick:   key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "pick")),
		Submit: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
	return k
}
