package widget

import (
	"io"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Wrap breaks text into lines of at most w cells, at spaces only: a name
// such as "bot-Cy" or a tile list is never split at its hyphen (which
// ansi.Wordwrap always treats as a break), and a word wider than w is the
// only thing ever cut, hard, across lines. Runs of spaces inside a line are
// kept (columns stay aligned); at a break they go. Newlines in text end
// lines. Styled text may be wrapped too: escapes count as no width.
func Wrap(text string, w int) []string {
	return WrapIndent(text, w, "", "")
}

// WrapIndent is Wrap with the first line starting with first and every
// other line with rest (a hanging indent), all within w cells.
func WrapIndent(text string, w int, first, rest string) []string {
	w = max(1, w)
	var out []string
	prefix := first
	for para := range strings.SplitSeq(text, "\n") {
		out = wrapLine(out, para, w, &prefix, rest)
	}
	if len(out) > 1 && strings.ContainsRune(text, '\x1b') {
		// A style that spans a break is closed at the end of its line and
		// opened again on the next, so each line draws right on its own.
		var buf strings.Builder
		ww := lipgloss.NewWrapWriter(&buf)
		_, _ = io.WriteString(ww, strings.Join(out, "\n"))
		_ = ww.Close()
		out = strings.Split(buf.String(), "\n")
	}
	return out
}

// wrapLine appends the lines of one paragraph (no newlines) to out. prefix
// is the indent of the next line to start, and becomes rest once used.
//
// A line is its indent, what was left of a word cut hard on the line
// before (tail), and then a run of the paragraph itself (para[from:to]):
// the words that fit, with the spaces between them as they were. So each
// line is made as one string of its exact size, where a builder grew
// through several (a log's every new event is wrapped by every session).
func wrapLine(out []string, para string, w int, prefix *string, rest string) []string {
	var lead, tail string
	from, to := 0, 0
	lineW := 0
	start := func(at int) {
		lead, tail, from, to = *prefix, "", at, at
		lineW = Width(lead)
		*prefix = rest
	}
	line := func() string { return concat3(lead, tail, para[from:to]) }
	start(0)
	empty := true // nothing but the indent on the line yet
	gap := 0      // spaces before the next word: kept inside a line, dropped at a break
	for i := 0; i <= len(para); {
		end := strings.IndexByte(para[i:], ' ')
		if end < 0 {
			end = len(para)
		} else {
			end += i
		}
		at, word := i, para[i:end]
		i = end + 1
		if word == "" {
			gap++ // a run of spaces (columns in a row) stays as it is
			continue
		}
		sep := gap + 1 // the spaces before the word: para[to:at] on a line with words
		gap = 0
		ww := Width(word)
		room := w - lineW
		if !empty {
			room -= sep
		}
		if ww <= room {
			if empty {
				from = at
			} else {
				lineW += sep
			}
			to = end
			lineW += ww
			empty = false
			continue
		}
		if !empty {
			out = append(out, line())
			start(at)
			empty = true
		}
		// The word alone is too wide for a line: cut it hard.
		for Width(word) > w-lineW && w-lineW > 0 {
			cut := ansi.Truncate(word, w-lineW, "")
			if cut == "" {
				break
			}
			out = append(out, concat3(lead, cut, ""))
			word = ansi.TruncateLeft(word, Width(cut), "")
			start(end)
		}
		tail, from, to = word, end, end
		lineW += Width(word)
		empty = word == ""
	}
	return append(out, line())
}

// concat3 is a + b + c as a string of its own, made at its size: never a
// piece of the text being wrapped (which a + b + c is when two of them are
// empty), so a line remembered does not keep the whole text alive.
func concat3(a, b, c string) string {
	var sb strings.Builder
	sb.Grow(len(a) + len(b) + len(c))
	sb.WriteString(a)
	sb.WriteString(b)
	sb.WriteString(c)
	return sb.String()
}

// Reflow lays out prose written as indented sections (the rules pages) at
// the real width w: a line with no indent is a heading and stays a line of
// its own; consecutive lines with the same indent are one paragraph, joined
// and wrapped again at w with that indent; a line starting "- " (after its
// indent) opens a list item whose wrapped lines hang under its text; an
// empty line stays an empty line. Source line breaks inside a paragraph are
// therefore never shown, so the text neither breaks mid-sentence in a
// narrow window nor stops short in a wide one.
func Reflow(text string, w int) []string {
	var out []string
	var para []string
	indent, hang := "", "" // the paragraph's first-line and continuation indents
	flush := func() {
		if len(para) > 0 {
			out = append(out, WrapIndent(strings.Join(para, " "), w, indent, hang)...)
			para = para[:0]
		}
	}
	for l := range strings.SplitSeq(text, "\n") {
		body := strings.TrimLeft(l, " ")
		ind := l[:len(l)-len(body)]
		switch {
		case body == "":
			flush()
			out = append(out, "")
		case ind == "":
			flush()
			out = append(out, WrapIndent(body, w, "", "  ")...)
		case strings.HasPrefix(body, "- "):
			flush()
			indent, hang = ind, ind+"  "
			para = append(para, body)
		case len(para) > 0 && ind == hang:
			para = append(para, body)
		default:
			flush()
			indent, hang = ind, ind
			para = append(para, body)
		}
	}
	flush()
	return out
}
