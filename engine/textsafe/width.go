package textsafe

import (
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Width is ansi.StringWidth(s), counted by SimpleWidth where it can.
func Width(s string) int {
	if w, ok := SimpleWidth(s); ok {
		return w
	}
	return ansi.StringWidth(s)
}

// SimpleWidth counts the cells of a single-line s made only of printable
// ASCII, CSI sequences and runes runeCells knows, byte by byte, as
// ansi.StringWidth would; ok is false for anything else (emoji, combining
// marks, other scripts, control characters, other escapes), which only
// grapheme segmentation measures right. Screens measure the same few kinds
// of line on every frame: this is the common case without segmenting.
func SimpleWidth(s string) (w int, ok bool) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			// A run of printable ASCII, the most of any line: counted
			// eight bytes at a time while all eight are (asciiRun).
			j := i + 1
			for j+8 <= len(s) && asciiRun(s[j:j+8]) {
				j += 8
			}
			for j < len(s) && s[j] >= 0x20 && s[j] < 0x7f {
				j++
			}
			w += j - i
			i = j
		case c == 0x1b:
			n, ok := csiLen(s[i:])
			if !ok {
				return 0, false
			}
			i += n
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			n := runeCells(r)
			if n == 0 {
				return 0, false
			}
			w += n
			i += size
		default:
			return 0, false // a control character: leave it to the parser
		}
	}
	return w, true
}

// asciiRun reports whether every byte of the eight in b is printable
// ASCII (0x20 to 0x7e), testing them at once: no byte is below 0x20 (no
// byte less 0x20 borrows into its top bit) and none is above 0x7e (none
// has its top bit set, before or after adding 1).
func asciiRun(b string) bool {
	_ = b[7]
	x := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below := (x - 0x20*ones) &^ x & highs
	above := (x + ones | x) & highs
	return below|above == 0
}

// csiLen is the length of the CSI sequence (ESC [, digits, ';' and ':'
// parameters, a final byte) that s starts with, which is what styles emit;
// ok is false for anything else, such as other escapes, intermediate or
// private bytes, or a sequence cut short.
func csiLen(s string) (int, bool) {
	if len(s) < 3 || s[1] != '[' {
		return 0, false
	}
	for i := 2; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c == ';', c == ':':
		case c >= 0x40 && c <= 0x7e:
			return i + 1, true
		default:
			return 0, false
		}
	}
	return 0, false
}

// runeCells is the width of r when r is one of the runes SimpleWidth
// counts itself, and 0 for any other. Each of them is a grapheme on its own
// (no segmentation rule joins it to a neighbour that is also counted here:
// none is a combining mark, joiner, prepend, spacing mark, regional
// indicator, Hangul jamo or control), so a string of them has the sum of
// their widths. TestSimpleWidthMatchesAnsi checks every one against
// ansi.StringWidth.
func runeCells(r rune) int {
	switch {
	case r >= 0xa0 && r <= 0x24f && r != 0xad: // Latin-1 and Latin Extended-A/B, not the soft hyphen
		return 1
	case r >= 0x391 && r <= 0x3c9 && r != 0x3a2: // Greek letters
		return 1
	case r >= 0x410 && r <= 0x44f: // Cyrillic letters
		return 1
	case r >= 0x4e00 && r <= 0x9fff: // CJK unified ideographs
		return 2
	}
	switch r {
	case '─', '│', '╭', '╮', '╰', '╯', '▸', '▶', '◂', '…', '·', '•', '✓', '✗', '›', '‹',
		'→', '←', '↑', '↓', '—', '‘', '’', '“', '”':
		return 1
	}
	return 0
}
