package widget

import (
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Field is a one-line text entry. It is ours rather than bubbles' textinput
// for two reasons that matter on a server of mostly idle sessions: it never
// blinks, so a screen with a field open is drawn only when something
// changes (a blinking cursor is a redraw per session twice a second), and it
// drops every control, format and escape character from typed or pasted
// text before keeping it. It also pulls in no clipboard module: a session's
// clipboard is the player's own terminal. Its Limit counts runes (how much
// text is kept) but its Width counts terminal cells, so wide glyphs (CJK,
// emoji) take the two cells they are drawn in and never push the field
// past its width.
type Field struct {
	Prompt      string
	Placeholder string
	Limit       int // maximum runes; 0 means 200
	Width       int // visible cells for the value and the cursor; 0 means no scrolling window

	value   []rune
	pos     int
	focused bool
	// suggested marks value as a suggestion (see Suggest) until the first
	// key that edits or moves in it.
	suggested bool
}

// NewField returns an unfocused field.
func NewField(prompt, placeholder string, limit int) Field {
	return Field{Prompt: prompt, Placeholder: placeholder, Limit: limit}
}

// Value returns the text typed so far.
func (f *Field) Value() string { return string(f.value) }

// SetValue replaces the text and puts the cursor at its end.
func (f *Field) SetValue(s string) {
	f.value = nil
	f.pos = 0
	f.suggested = false
	f.insert(s)
}

// Suggest fills the field with s as a suggestion, the way an editor shows
// selected text: Value returns it as it is, but the first character typed
// (or pasted) replaces all of it, and backspace or delete clears it. A
// cursor key keeps it as ordinary text to edit.
func (f *Field) Suggest(s string) {
	f.SetValue(s)
	f.suggested = len(f.value) > 0
}

// Suggested reports whether the field holds an untouched suggestion.
func (f *Field) Suggested() bool { return f.suggested }

// Focus gives the field the keyboard.
func (f *Field) Focus() { f.focused = true }

// Blur takes the keyboard away.
func (f *Field) Blur() { f.focused = false }

// Focused reports whether the field has the keyboard.
func (f *Field) Focused() bool { return f.focused }

func (f *Field) limit() int {
	if f.Limit <= 0 {
		return 200
	}
	return f.Limit
}

func (f *Field) insert(s string) {
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			continue
		}
		if len(f.value) >= f.limit() {
			return
		}
		f.value = append(f.value[:f.pos], append([]rune{r}, f.value[f.pos:]...)...)
		f.pos++
	}
}

// Update edits the field with a key press or a paste. It reports whether
// the message was used.
func (f *Field) Update(msg tea.Msg) bool {
	if !f.focused {
		return false
	}
	switch m := msg.(type) {
	case tea.PasteMsg:
		if f.suggested {
			f.SetValue("")
		}
		f.insert(strings.ReplaceAll(m.Content, "\n", " "))
		return true
	case tea.KeyPressMsg:
		if f.suggested {
			switch k := m.String(); {
			case k == "backspace" || k == "delete" || k == "ctrl+h" || k == "ctrl+d" || k == "ctrl+u" || k == "ctrl+w":
				f.SetValue("")
				return true
			case m.Text != "" && m.Mod&(tea.ModCtrl|tea.ModAlt) == 0:
				f.SetValue("") // typing replaces the suggestion
			default:
				f.suggested = false
			}
		}
		switch m.String() {
		case "left", "ctrl+b":
			f.pos = max(0, f.pos-1)
		case "right", "ctrl+f":
			f.pos = min(len(f.value), f.pos+1)
		case "home", "ctrl+a":
			f.pos = 0
		case "end", "ctrl+e":
			f.pos = len(f.value)
		case "backspace", "ctrl+h":
			if f.pos > 0 {
				f.value = append(f.value[:f.pos-1], f.value[f.pos:]...)
				f.pos--
			}
		case "delete", "ctrl+d":
			if f.pos < len(f.value) {
				f.value = append(f.value[:f.pos], f.value[f.pos+1:]...)
			}
		case "ctrl+u":
			f.value = append([]rune(nil), f.value[f.pos:]...)
			f.pos = 0
		case "ctrl+k":
			f.value = f.value[:f.pos]
		case "ctrl+w", "alt+backspace":
			i := f.pos
			for i > 0 && f.value[i-1] == ' ' {
				i--
			}
			for i > 0 && f.value[i-1] != ' ' {
				i--
			}
			f.value = append(f.value[:i], f.value[f.pos:]...)
			f.pos = i
		default:
			if m.Text == "" || m.Mod&(tea.ModCtrl|tea.ModAlt) != 0 {
				return false
			}
			f.insert(m.Text)
		}
		return true
	}
	return false
}

// View draws the prompt and the text, with the cursor as an inverted cell.
func (f *Field) View() string {
	cursorStyle, placeholderStyle := fieldLooks{reverse}, fieldLooks{faint}
	if len(f.value) == 0 {
		ph := f.Placeholder
		if f.focused {
			if ph == "" {
				return f.Prompt + cursorStyle.Render(" ")
			}
			r := []rune(ph)
			return f.Prompt + cursorStyle.Render(string(r[0])) + placeholderStyle.Render(string(r[1:]))
		}
		return f.Prompt + placeholderStyle.Render(ph)
	}
	runes := f.value
	pos := f.pos
	// Scroll so the cursor stays visible in Width cells.
	if f.Width > 0 {
		start, end := window(runes, pos, f.Width)
		runes = runes[start:end]
		pos -= start
	}
	if !f.focused {
		if f.Width > 0 {
			return f.Prompt + ansi.Truncate(string(runes), f.Width, "")
		}
		return f.Prompt + string(runes)
	}
	var b strings.Builder
	b.WriteString(f.Prompt)
	if f.suggested {
		// Shown selected: typing replaces it.
		b.WriteString(cursorStyle.Render(string(runes)))
		b.WriteString(" ")
		return b.String()
	}
	b.WriteString(string(runes[:pos]))
	if pos < len(runes) {
		b.WriteString(cursorStyle.Render(string(runes[pos])))
		b.WriteString(string(runes[pos+1:]))
	} else {
		b.WriteString(cursorStyle.Render(" "))
	}
	return b.String()
}

// The field's two looks, as lipgloss draws them on text without newlines,
// tabs or carriage returns (a field keeps none): reverse for the cursor,
// faint for the placeholder. The field is drawn on every key typed into
// it, so it writes them itself; TestFieldLooksAreLipgloss checks them.
const (
	reverse  = "\x1b[7m"
	faint    = "\x1b[2m"
	resetSGR = "\x1b[m"
)

// fieldLooks draws text in one of the field's looks.
type fieldLooks struct{ sgr string }

// Render is lipgloss's Render for the look, for text of one line.
func (l fieldLooks) Render(s string) string { return l.sgr + s + resetSGR }

// cells is how many terminal cells r takes: 2 for wide glyphs, 0 for
// combining marks.
func cells(r rune) int {
	if r >= 0x20 && r < 0x7f {
		return 1
	}
	return ansi.StringWidth(string(r))
}

// window is the part runes[start:end] of a value shown in w cells with the
// cursor at pos: all of it when it fits with the cursor after it, else a
// part that ends with the cursor's cell at the right edge (or starts at
// the beginning) and holds as many whole glyphs as fit, never a glyph cut
// in half.
func window(runes []rune, pos, w int) (start, end int) {
	total := 0
	for _, r := range runes {
		total += cells(r)
	}
	if total+1 <= w {
		return 0, len(runes)
	}
	// The cursor's cell: the glyph under it, or one cell after the text.
	used := 1
	if pos < len(runes) {
		used = max(1, cells(runes[pos]))
	}
	// Back from the cursor while the glyphs before it fit.
	start = pos
	for start > 0 && used+cells(runes[start-1]) <= w {
		start--
		used += cells(runes[start])
	}
	// On past the cursor while the glyphs after it fit.
	end = min(pos+1, len(runes))
	for end < len(runes) && used+cells(runes[end]) <= w {
		used += cells(runes[end])
		end++
	}
	return start, end
}
