package server

import (
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// keyScanner turns a session's input bytes into the key presses and pastes
// its program reads, as Bubble Tea's own input reader would, but without
// that reader's cost per session.
//
// Bubble Tea reads input through ultraviolet's TerminalReader, which builds
// a table of 1,320 escape sequences (131 KB) for every reader, runs two
// goroutines of its own and reads through a fresh 4 KB buffer each time.
// On a server holding thousands of idle players that table was a third of
// a session's memory. ultraviolet's EventDecoder parses every sequence of
// that table by itself, to the same key (TestKeyScannerMatchesBubbleTea
// checks each one against a real TerminalReader); the table only adds a
// second reading of fifteen modified-F3 sequences that also read as cursor
// position reports, which no screen here uses. So sessions decode with the
// decoder alone and keep no table.
//
// The scanning follows ultraviolet's: a sequence that may still be
// incomplete (a lone ESC, half a CSI) waits for more input until the
// escape timeout expires, then reads as what it is so far (a lone ESC is
// the Esc key); a bracketed paste is gathered into one paste.
type keyScanner struct {
	dec   uv.EventDecoder
	paste []byte // the paste being gathered; nil outside a paste
}

// scan decodes buf into messages for the program. It returns how many
// bytes it consumed: the rest is an incomplete sequence to scan again with
// more input, or with expired set once the escape timeout has passed.
// Only key presses, pastes and the terminal's background colour (the one
// question a session asks it; see askTerminal) are passed on: the server
// turns on no mouse or focus reports, so anything else is unasked-for
// input and dropped.
func (s *keyScanner) scan(buf []byte, expired bool) (total int, msgs []tea.Msg) {
	for len(buf) > 0 {
		esc := buf[0] == ansi.ESC
		n, ev := s.dec.Decode(buf)
		if n <= 0 || n > len(buf) {
			if !expired {
				return total, msgs
			}
			n, ev = 1, nil // nothing it could read: drop a byte rather than stall
		}
		if _, unknown := ev.(uv.UnknownEvent); unknown && !expired {
			return total, msgs // may be the start of a longer sequence
		}
		if esc && !expired && n == len(buf) && n > 2 && buf[n-1] == ansi.ESC && stringSequence(buf[1]) {
			return total, msgs // a reply read up to an ESC that may start its ST terminator
		}
		if s.paste != nil {
			if _, end := ev.(uv.PasteEndEvent); end {
				msgs = append(msgs, tea.PasteMsg{Content: validText(s.paste)})
				s.paste = nil
			} else if k, ok := ev.(uv.KeyPressEvent); ok {
				if k.Text != "" {
					s.paste = append(s.paste, k.Text...)
				} else {
					if esc && n <= 2 && !expired {
						return total, msgs
					}
					s.paste = append(s.paste, buf[:n]...)
				}
			}
			buf, total = buf[n:], total+n
			continue
		}
		if esc && n <= 2 && !expired {
			return total, msgs // ESC and one byte: maybe Alt+key, maybe more to come
		}
		switch ev := ev.(type) {
		case uv.PasteStartEvent:
			s.paste = []byte{}
		case uv.KeyPressEvent:
			msgs = append(msgs, tea.KeyPressMsg(ev))
		case uv.BackgroundColorEvent:
			if ev.Color != nil {
				msgs = append(msgs, tea.BackgroundColorMsg(ev))
			}
		case uv.MultiEvent:
			for _, e := range ev {
				if k, ok := e.(uv.KeyPressEvent); ok {
					msgs = append(msgs, tea.KeyPressMsg(k))
				}
			}
		}
		buf, total = buf[n:], total+n
	}
	return total, msgs
}

// stringSequence reports whether an escape sequence introduced by ESC c is
// a string (OSC, DCS, APC, PM), which ends with BEL or ST (ESC \).
func stringSequence(c byte) bool { return c == ']' || c == 'P' || c == '_' || c == '^' }

// validText is a paste's bytes as text, dropping bytes that are not UTF-8
// (as ultraviolet does).
func validText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]rune, 0, len(b))
	for len(b) > 0 {
		r, w := utf8.DecodeRune(b)
		if r != utf8.RuneError {
			out = append(out, r)
		}
		b = b[w:]
	}
	return string(out)
}
