package tui

import (
	"charm.land/bubbles/v2/key"

	"github.com/codebreakers/codebreakers/tui/board"
	bcboard "github.com/codebreakers/codebreakers/tui/breakcode"
	codingboard "github.com/codebreakers/codebreakers/tui/coding"
	ifboard "github.com/codebreakers/codebreakers/tui/ifthen"
	wtrboard "github.com/codebreakers/codebreakers/tui/whattherule"
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
	// rename changes the player's own handle, from their profile.
	rename key.Binding

	board boardKeys
}

// boardKeys are the game boards' keys: the ones they share (embedded, so
// a screen can read a.km.board.Notes) and each game's whole key map.
type boardKeys struct {
	board.Keys
	breakcode   bcboard.KeyMap
	coding      codingboard.KeyMap
	ifthen      ifboard.KeyMap
	whattherule wtrboard.KeyMap
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

		rename: key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "change handle")),
	}
	// The boards' keys, named plainly: each board shows them with what
	// they do on it (widget.Help, widget.Pair), and only where they work.
	shared := board.Keys{
		Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑", "up")),
		Down:   key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", "down")),
		Left:   key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←", "left")),
		Right:  key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→", "right")),
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose")),
		Guess:  key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "guess")),
		Notes:  key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "notes")),
		Pick:   key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "pick")),
		Submit: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
	b := func(k, help string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, help)) }
	pass := b("p", "pass")
	k.board = boardKeys{
		Keys:      shared,
		breakcode: bcboard.KeyMap{Keys: shared, Pass: pass}.Shared(),
		coding: codingboard.KeyMap{Keys: shared,
			Tap: b("t", "tap"), Vote: b("v", "vote for data"), Stop: b("s", "stop")},
		ifthen: ifboard.KeyMap{Keys: shared,
			Discard: b("d", "discard"), Hint: b("i", "buy hint"), FreeHint: b("u", "free hint"),
			Lucky: b("z", "lucky draw"), Second: b("s", "second chance"), Yes: b("y", "agree"),
			No: b("n", "decline"), Cycle: b("x", "cycle card"),
			ToBuilder: b("tab", "builder"), TypeIt: b("tab", "type it"),
			Builder: ifboard.BuilderKeys{
				Next:     key.NewBinding(key.WithKeys("space", "+", "="), key.WithHelp("space", "next choice")),
				Prev:     key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "previous choice")),
				AddValue: b("a", "add value"),
				Remove:   key.NewBinding(key.WithKeys("x", "backspace", "delete"), key.WithHelp("x", "delete")),
			}},
		whattherule: wtrboard.KeyMap{Keys: shared, Pass: pass,
			Reveal: b("r", "reveal hand"), Propose: b("i", "propose hints"),
			Yes: b("y", "yes"), No: b("n", "no"), Announce: b("a", "announce hint"),
			Write: b("w", "write rule"), Build: b("u", "rule builder"), Free: b("f", "free rule"),
			Library: b("b", "library"), Draw: b("d", "draw a rule"), CallOff: b("x", "call off round"),
			TypeHint: b("t", "type hint"),
			// A player may build a guess as the game master builds a rule.
			BuildGuess: b("u", "build a guess"),
			ToBuilder:  b("tab", "builder"), ToTyping: b("tab", "type it"),
			Builder: wtrboard.BuilderKeys{
				Next:    key.NewBinding(key.WithKeys("space", "+", "="), key.WithHelp("space", "next choice")),
				Prev:    key.NewBinding(key.WithKeys("-"), key.WithHelp("-", "previous choice")),
				AddIf:   b("i", "add an if clause"),
				AddThen: b("t", "add a then clause"),
				AddElse: b("o", "add an otherwise clause"),
				Remove:  b("x", "remove clause"),
				Join:    b("a", "all / any"),
			}},
	}
	return k
}

// listKeys are a list's keys that work with n rows: moving (labelled
// move) takes two rows, opening one (each of open). A key bar offers only
// keys that do something.
func (a *app) listKeys(n int, move string, open ...key.Binding) []key.Binding {
	var ks []key.Binding
	if n > 1 {
		ks = append(ks, withHelp(a.km.up, "↑/↓", move))
	}
	if n > 0 {
		ks = append(ks, open...)
	}
	return ks
}
