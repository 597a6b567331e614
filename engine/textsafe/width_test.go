package textsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestASCIIRunIsEveryBytePrintable: asciiRun is true exactly when all
// eight bytes are printable ASCII, for every byte value at every place
// among printable ones, and for two bytes out of range side by side (where
// a carry or a borrow could hide one).
func TestASCIIRunIsEveryBytePrintable(t *testing.T) {
	printable := func(c byte) bool { return c >= 0x20 && c < 0x7f }
	for pos := range 8 {
		for v := range 256 {
			for _, fill := range []byte{' ', 'a', '~'} {
				b := []byte(strings.Repeat(string(rune(fill)), 8))
				b[pos] = byte(v)
				if got, want := asciiRun(string(b)), printable(byte(v)); got != want {
					t.Fatalf("asciiRun(%q) = %v, want %v", b, got, want)
				}
				if pos < 7 {
					for _, w := range []byte{0x00, 0x1f, 0x7f, 0x80, 0xff} {
						b[pos+1] = w
						if asciiRun(string(b)) {
							t.Fatalf("asciiRun(%q) = true", b)
						}
						b[pos+1] = fill
					}
				}
			}
		}
	}
}

// simpleWidthByBytes is SimpleWidth as it was, one byte at a time.
func simpleWidthByBytes(s string) (w int, ok bool) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			w++
			i++
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
			return 0, false
		}
	}
	return w, true
}

// FuzzSimpleWidth: counting printable ASCII eight bytes at a time counts
// what counting byte by byte does.
func FuzzSimpleWidth(f *testing.F) {
	for _, s := range []string{"", "plain", "a line of more than eight bytes, and more", "\x1b[1mstyled words\x1b[m then plain ones",
		"李小龙 · 8s/9s (8): d, e", "tab\tin a long enough line", "exactly8", "sixteen bytes!!!", "~~~~~~~~\x7f", "        \x1f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		gw, gok := SimpleWidth(s)
		ww, wok := simpleWidthByBytes(s)
		if gw != ww || gok != wok {
			t.Fatalf("SimpleWidth(%q) = %d, %v; byte by byte %d, %v", s, gw, gok, ww, wok)
		}
	})
}
