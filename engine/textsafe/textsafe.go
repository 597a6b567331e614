// Package textsafe makes user-supplied text safe to draw on a terminal.
//
// Every byte a user sends is hostile until it has been through Clean: names,
// chat lines and anything else that another player's terminal will render.
// Clean removes escape sequences (CSI, OSC, DCS and friends, in both their
// 7-bit ESC and 8-bit C1 forms), every other control character, bidi
// overrides and zero-width characters, and caps the display width. Handle
// goes further and accepts only an allow-listed alphabet.
//
// Text is cleaned once, at the door it comes in by, and travels as a Text,
// which says it is clean; what draws a Text only cuts it to width (Cut). The
// doors:
//
//   - a handle: chosen (Handle), or brought to the hub by a session's
//     identity (lobby's cleanIdentity), or read back from a stored game;
//   - a chat line and a mute name (lobby's Conn.Chat);
//   - words typed into a game: a rule, a guess, a hint (engine/whattherule,
//     in Apply, so a replayed log is cleaned the same way);
//   - words on an exec command line (server);
//   - data read back from the store or another node, which any version may
//     have written: history, leaderboards, profiles, puzzles, analyses and
//     the seat names of a replayed or resumed game.
//
// What the program composes from clean parts (an engine's views and
// narration, which name players by their clean handles; the table's
// notices) is clean by construction and is drawn as it is, cut to width with
// Cut. The package imports nothing of the project, so every layer may use
// it (engine/whattherule, the lowest user of it, included).
package textsafe

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Handle limits.
const (
	MinHandle = 2
	MaxHandle = 16
)

// Errors returned by Handle. Their messages are meant for the player.
var (
	ErrHandleLength  = errors.New("A handle needs 2 to 16 characters.")
	ErrHandleLetters = errors.New("A handle may use only letters A-Z, digits, '-' and '_'.")
	ErrHandleKept    = errors.New("Handles that read like guest… or bot… are kept for visitors and bots; choose another.")
)

// Text is text that has been through Clean (or Handle): no escape
// sequence, control, bidi or zero-width character, no run of spaces, no
// surrounding space. Only this package makes one from user input; anything
// else that converts a string to a Text must be program text.
type Text string

// String returns the text as a plain string.
func (t Text) String() string { return string(t) }

// Cut shortens t to at most w cells, marking a cut with an ellipsis; w <= 0
// means no cap. It cleans nothing: t is clean already.
func (t Text) Cut(w int) Text { return Text(Cut(string(t), w)) }

// Cut shortens s, text that is clean by construction (see the package doc),
// to at most w cells, marking a cut with an ellipsis; w <= 0 means no cap.
// For text of unknown origin use Clean instead.
func Cut(s string, w int) string {
	// No character is wider than its bytes, so a string of at most w
	// bytes fits without measuring (most handles and labels).
	if w > 0 && len(s) > w && Width(s) > w {
		return ansi.Truncate(s, w, "…")
	}
	return s
}

// Clean returns s with every escape sequence and control character removed,
// newlines and tabs turned into single spaces, bidi controls and zero-width
// characters dropped, combining marks beyond MaxMarks on one character
// dropped, surrounding space trimmed, and the display width capped
// at maxWidth cells (an ellipsis marks a cut). maxWidth <= 0 means no cap.
// Invalid UTF-8 is dropped.
func Clean(s string, maxWidth int) Text {
	var b strings.Builder
	b.Grow(len(s))
	space := false // a run of whitespace is pending
	marks := 0     // combining marks kept since the last other character
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size <= 1:
			continue // invalid byte: a raw 8-bit C1 control lands here too
		case r == 0x1b: // ESC
			i = skipEscape(s, i)
			continue
		case r >= 0x80 && r <= 0x9f: // C1 controls, some of which open sequences
			i = skipC1(s, i, r)
			continue
		case r == '\n' || r == '\r' || r == '\t' || r == '\v' || r == '\f' || unicode.IsSpace(r):
			space, marks = true, 0
			continue
		case dropped(r):
			continue // not drawn: the marks around it count as one run
		case r >= 0x300 && isMark(r):
			if marks >= MaxMarks {
				continue
			}
			marks++
		default:
			marks = 0
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return Text(Cut(b.String(), maxWidth))
}

// IsClean reports whether Clean(s, 0) is s itself: valid UTF-8 with no
// escape, control or dropped character, and no whitespace but single
// spaces between other characters. Text that was cleaned at its door (an
// engine's log event, a handle) is, and a caller that would only copy it
// again can use it as it is.
func IsClean(s string) bool {
	space := true // a space here would be trimmed: at the start, or after a space
	marks := 0    // combining marks in a row
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			marks = 0
			switch {
			case c == ' ':
				if space {
					return false
				}
				space = true
			case c < 0x20 || c == 0x7f:
				return false
			default:
				space = false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || (r >= 0x80 && r <= 0x9f) || unicode.IsSpace(r) || dropped(r) {
			return false
		}
		if r >= 0x300 && isMark(r) {
			if marks++; marks > MaxMarks {
				return false
			}
		} else {
			marks = 0
		}
		space = false
		i += size
	}
	return !space || s == ""
}

// MaxMarks is how many combining marks (accents, vowel points, tone
// marks) Clean keeps on one character; the rest of a longer run is
// dropped. Real writing stacks at most three or four (Vietnamese two,
// pointed Hebrew with cantillation four), while "zalgo" text stacks
// hundreds on one cell: within the width cap, since marks take no cells,
// and drawn by many terminals as a smear over the lines above and below,
// other players' screens included.
const MaxMarks = 4

// isMark reports combining marks that take no cell of their own and stack
// on the character before them: nonspacing and enclosing marks.
func isMark(r rune) bool { return unicode.In(r, unicode.Mn, unicode.Me) }

// dropped reports runes that must never reach a screen: C0 controls and
// DEL, Unicode format characters (bidi embeddings, overrides and isolates,
// zero-width spaces and joiners, the BOM, tag characters), and noncharacters.
func dropped(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f:
		return true
	case unicode.Is(unicode.Cf, r): // U+200B..U+200F, U+202A..U+202E, U+2060..U+206F, U+FEFF, tags...
		return true
	case r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0: // Hangul fillers render as blanks of odd width
		return true
	case unicode.Is(unicode.Co, r) || unicode.Is(unicode.Cs, r): // private use, surrogates
		return true
	case r&0xfffe == 0xfffe || (r >= 0xfdd0 && r <= 0xfdef): // noncharacters
		return true
	}
	return false
}

// skipEscape skips the sequence introduced by an ESC whose next byte is at
// s[i] and returns the index after it.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC: run to a string terminator
		return skipString(s, i+1)
	}
	// Other escapes: optional intermediates (0x20-0x2f) and one final byte.
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipC1 handles an 8-bit C1 control r (already consumed; the rest of the
// input starts at s[i]). The sequence introducers swallow their bodies, the
// rest are simply dropped.
func skipC1(s string, i int, r rune) int {
	switch r {
	case 0x9b: // CSI
		return skipCSI(s, i)
	case 0x9d, 0x90, 0x98, 0x9e, 0x9f: // OSC, DCS, SOS, PM, APC
		return skipString(s, i)
	}
	return i
}

// skipCSI skips parameter and intermediate bytes and the final byte of a
// control sequence. Anything unexpected ends the sequence without being
// consumed, so a malformed sequence cannot swallow the rest of a message.
func skipCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipString skips a control string up to and including its terminator:
// BEL, ESC \ or the 8-bit ST (U+009C). An unterminated string runs to the end.
func skipString(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x07 || r == 0x9c:
			return i + size
		case r == 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i // a bare ESC ends the string and starts the next sequence
		}
		i += size
	}
	return i
}

// Handle checks a chosen handle against the allow-list: 2 to 16 characters,
// each an ASCII letter, digit, '-' or '_', and not one that reads like a
// guest's or a bot's name (Kept). Surrounding spaces are ignored. The
// errors are messages for the player.
func Handle(s string) (Text, error) {
	s = strings.TrimSpace(s)
	if n := len(s); n < MinHandle || n > MaxHandle {
		if utf8.RuneCountInString(s) >= MinHandle && utf8.RuneCountInString(s) <= MaxHandle {
			return "", ErrHandleLetters
		}
		return "", ErrHandleLength
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return "", ErrHandleLetters
		}
	}
	if Kept(s) {
		return "", ErrHandleKept
	}
	return Text(s), nil
}

// keptPrefixes are how the names the server gives out begin: guests are
// guest-7k3, bots bot-Ada.
var keptPrefixes = []string{"guest", "bot"}

// Kept reports whether a handle reads like a guest's or a bot's name,
// however it is written: Bot_Ada, BOT-x, b0t, bo_t, gue5t and BotAda all
// do. The handle is read the way a person reads it: letter case and the
// separators '-' and '_' ignored, and digits that pass for letters (0 for
// o, 3 for e, 5 for s, 6 and 8 for b, 7 for t, 9 for g) read as those
// letters; then any handle beginning with guest or bot is kept. That also
// keeps a few innocent words (bottle, botany): a clear rule is worth more
// than them, because a player must be able to trust that a bot-like name
// at the table is a bot.
func Kept(handle string) bool {
	var b strings.Builder
	for _, r := range strings.ToLower(handle) {
		switch r {
		case '-', '_':
			continue
		case '0':
			r = 'o'
		case '3':
			r = 'e'
		case '5':
			r = 's'
		case '6', '8':
			r = 'b'
		case '7':
			r = 't'
		case '9':
			r = 'g'
		}
		b.WriteRune(r)
	}
	read := b.String()
	for _, p := range keptPrefixes {
		if strings.HasPrefix(read, p) {
			return true
		}
	}
	return false
}
