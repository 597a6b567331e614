package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/words"
	"github.com/codebreakers/codebreakers/lobby"
)

// formField is one row of the create-table form: a label and a list of
// choices browsed with ←/→.
type formField struct {
	key     string // option key, or one of the fixed keys below
	label   string
	help    string
	choices []string
	pick    int
}

func (f formField) value() string { return f.choices[f.pick] }

const (
	fieldSeats    = "\x00seats"
	fieldBots     = "\x00bots"
	fieldLevel    = "\x00level"
	fieldPublic   = "\x00public"
	fieldCreate   = "\x00create"
	privateChoice = "private (join code)"
	publicChoice  = "public (listed)"
)

// createScreen is the table setup form, built from the game's engine.Info.
type createScreen struct {
	plainScreen

	info   engine.Info
	fields []formField
	cursor int
	err    string
	busy   bool
}

func newCreateScreen(a *app, gameID string) *createScreen {
	s := &createScreen{}
	g, ok := a.games.Lookup(gameID)
	if !ok {
		s.err = "That game is not installed here."
		return s
	}
	s.info = g.Info()
	var seats []string
	def := 0
	for n := s.info.MinPlayers; n <= s.info.MaxPlayers; n++ {
		if n == min(max(3, s.info.MinPlayers), s.info.MaxPlayers) {
			def = len(seats)
		}
		seats = append(seats, strconv.Itoa(n))
	}
	if len(seats) == 0 {
		seats = []string{"2"}
	}
	s.fields = append(s.fields, formField{key: fieldSeats, label: "Seats", help: "how many players, bots included", choices: seats, pick: def})
	s.fields = append(s.fields, formField{key: fieldBots, label: "Bots", help: "seats a bot takes now; people fill the rest", choices: []string{"0"}})
	if len(s.info.BotLevels) > 0 {
		s.fields = append(s.fields, formField{key: fieldLevel, label: "Bot level", help: "strongest first", choices: slices.Clone(s.info.BotLevels)})
	}
	for _, o := range s.info.Options {
		if len(o.Choices) == 0 {
			continue
		}
		pick := max(0, slices.Index(o.Choices, o.Default))
		s.fields = append(s.fields, formField{key: o.Key, label: o.Label, help: o.Help, choices: slices.Clone(o.Choices), pick: pick})
	}
	s.fields = append(s.fields,
		formField{key: fieldPublic, label: "Table", choices: []string{privateChoice, publicChoice}},
		formField{key: fieldCreate, label: "Create the table", choices: []string{""}},
	)
	s.syncBots()
	return s
}

func (s *createScreen) field(k string) *formField {
	for i := range s.fields {
		if s.fields[i].key == k {
			return &s.fields[i]
		}
	}
	return nil
}

// syncBots keeps the bot count below the seat count (the creator sits too).
func (s *createScreen) syncBots() {
	seats, _ := strconv.Atoi(s.field(fieldSeats).value())
	b := s.field(fieldBots)
	old := b.pick
	b.choices = nil
	for n := 0; n < max(1, seats); n++ {
		b.choices = append(b.choices, strconv.Itoa(n))
	}
	b.pick = min(old, len(b.choices)-1)
}

// spec is the table the form describes.
func (s *createScreen) spec() lobby.TableSpec {
	seats, _ := strconv.Atoi(s.field(fieldSeats).value())
	bots, _ := strconv.Atoi(s.field(fieldBots).value())
	spec := lobby.TableSpec{Game: s.info.ID, Options: engine.Options{}, Seats: seats, Bots: bots}
	if f := s.field(fieldLevel); f != nil {
		spec.BotLevel = f.value()
	}
	spec.Public = s.field(fieldPublic).value() == publicChoice
	for _, f := range s.fields {
		if !strings.HasPrefix(f.key, "\x00") {
			spec.Options[f.key] = f.value()
		}
	}
	return spec
}

func (s *createScreen) title(*app) string {
	return "Create a table · " + s.info.Name
}
func (s *createScreen) capturing() bool { return false }
func (s *createScreen) setError(m string) {
	s.err = m
	s.busy = false
}

func (s *createScreen) update(a *app, msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if key.Matches(km, a.km.back) {
		a.pop()
		return nil
	}
	if len(s.fields) == 0 || s.busy {
		return nil
	}
	f := &s.fields[s.cursor]
	switch {
	case key.Matches(km, a.km.up):
		s.cursor = (s.cursor + len(s.fields) - 1) % len(s.fields)
	case key.Matches(km, a.km.down), key.Matches(km, a.km.tab):
		s.cursor = (s.cursor + 1) % len(s.fields)
	case key.Matches(km, a.km.left):
		f.pick = (f.pick + len(f.choices) - 1) % len(f.choices)
	case key.Matches(km, a.km.right):
		f.pick = (f.pick + 1) % len(f.choices)
	case key.Matches(km, a.km.enter):
		if f.key != fieldCreate {
			s.cursor = len(s.fields) - 1 // enter on a row jumps to the button
			return nil
		}
		spec := s.spec()
		if _, err := s.info.Resolve(spec.Options); err != nil {
			s.err = a.userError(err, "")
			return nil
		}
		s.busy = true
		s.err = ""
		return a.openTable("Create", func(h hubAPI, id lobby.Identity) (tableConn, error) { return h.Create(id, spec) })
	}
	if f.key == fieldSeats {
		s.syncBots()
	}
	s.err = ""
	return nil
}

func (s *createScreen) body(a *app, w, h int) []string {
	var b strings.Builder
	b.WriteString("\n")
	labelW := 0
	for _, f := range s.fields {
		labelW = max(labelW, len([]rune(f.label)))
	}
	for i, f := range s.fields {
		sel := i == s.cursor
		label := f.label + strings.Repeat(" ", labelW-len([]rune(f.label)))
		if f.key == fieldCreate {
			btn := "[ " + f.label + " ]"
			if sel {
				b.WriteString("\n  " + a.st.selected.Render("▸ "+btn) + "\n")
			} else {
				b.WriteString("\n    " + btn + "\n")
			}
			continue
		}
		if f.key == fieldLevel && s.field(fieldBots).value() == "0" {
			label = a.st.dim.Render(label)
		}
		val := f.value()
		if len(f.choices) > 1 {
			val = "‹ " + val + " ›"
		}
		if sel {
			b.WriteString("  " + a.st.selected.Render("▸ "+label) + "  " + a.st.strong.Render(val) + "\n")
		} else {
			b.WriteString("    " + label + "  " + val + "\n")
		}
	}
	b.WriteString("\n")
	switch {
	case s.busy:
		b.WriteString("  " + a.st.dim.Render("Setting the table…"))
	case s.err != "":
		b.WriteString("  " + a.st.errText.Render("! "+s.err))
	case s.cursor < len(s.fields) && s.fields[s.cursor].key == fieldPublic:
		// Said for the choice shown: a public table read "private tables
		// are found only with their code".
		help := "private: found only with its code, which you give to friends"
		if s.spec().Public {
			help = "public: listed under Public tables, where anyone may join it or watch it"
		}
		b.WriteString("  " + a.st.dim.Render(help))
	case s.cursor < len(s.fields) && s.fields[s.cursor].help != "":
		b.WriteString("  " + a.st.dim.Render(s.fields[s.cursor].help))
	case s.cursor < len(s.fields) && s.fields[s.cursor].key == fieldCreate:
		sp := s.spec()
		b.WriteString("  " + a.st.dim.Render(fmt.Sprintf("%s: you, %s, %d open for people.", words.Count(sp.Seats, "seat", "seats"), words.Count(sp.Bots, "bot", "bots"), sp.Seats-1-sp.Bots)))
	}
	return wrapBlock(b.String(), w, h)
}

func (s *createScreen) shortHelp(a *app) []key.Binding {
	// enter on a field only moves to the Create button, which shows what
	// will be opened; the bar says so rather than promise a table at once.
	enter := withHelp(a.km.enter, "enter", "review")
	if s.cursor == len(s.fields)-1 {
		enter = withHelp(a.km.enter, "enter", "create")
	}
	return []key.Binding{withHelp(a.km.up, "↑/↓", "field"), withHelp(a.km.left, "←/→", "change"), enter, a.km.back, a.km.help}
}
