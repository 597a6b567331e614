package textsafe

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

func TestClean(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "hello there", "hello there"},
		{"colour", "\x1b[31mred\x1b[0m text", "red text"},
		{"cursor moves", "a\x1b[2J\x1b[H\x1b[10;20Hb", "ab"},
		{"osc title bel", "x\x1b]0;pwned\x07y", "xy"},
		{"osc 52 clipboard", "copy\x1b]52;c;cm0gLXJmIC8K\x1b\\ me", "copy me"},
		{"osc 8 link", "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\", "click"},
		{"dcs", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"apc", "a\x1b_Gf=100;AAAA\x1b\\b", "ab"},
		{"c1 csi", "a\u009b31mb", "ab"},
		{"c1 osc", "a\u009d52;c;eA==\u009cb", "ab"},
		{"raw 8-bit csi byte", "a\x9b31mb", "a31mb"},
		{"lone esc", "a\x1b", "a"},
		{"charset escape", "a\x1b(Bb", "ab"},
		{"keypad escape", "a\x1b=b", "ab"},
		{"carriage return", "fake\rreal", "fake real"},
		{"newlines collapse", "one\n\n\ttwo\r\nthree", "one two three"},
		{"trim", "  \n spaced \t ", "spaced"},
		{"c0 and del", "a\x00b\x07c\x08d\x7fe", "abcde"},
		{"bidi override", "user\u202Egnp.exe", "usergnp.exe"},
		{"bidi isolates", "\u2066a\u2069\u2067b\u2068c\u200e\u200f\u061c", "abc"},
		{"zero width", "p\u200ba\u200cy\u200dp\u2060a\ufeffl", "paypal"},
		{"tags", "hi\U000E0041\U000E007F", "hi"},
		{"unicode kept", "café 日本 ♠", "café 日本 ♠"},
		{"unterminated osc swallows rest", "ok\x1b]52;c;AAAA", "ok"},
		{"esc inside osc restarts", "a\x1b]0;t\x1b[31mb", "ab"},
		{"invalid utf8", "a\xff\xfeb", "ab"},
		{"line separator", "a\u2028b", "a b"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Clean(c.in, 0); string(got) != c.want {
				t.Errorf("Clean(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestCleanWidth(t *testing.T) {
	got := string(Clean(strings.Repeat("ab", 50), 10))
	if w := ansi.StringWidth(got); w != 10 {
		t.Fatalf("width %d, want 10: %q", w, got)
	}
	if !strings.HasSuffix(got, "…") {
		t.Errorf("cut text should end with an ellipsis: %q", got)
	}
	wide := string(Clean(strings.Repeat("日", 20), 9))
	if w := ansi.StringWidth(wide); w > 9 {
		t.Errorf("wide text width %d > 9: %q", w, wide)
	}
	if got := Clean("short", 10); got != "short" {
		t.Errorf("short text changed: %q", got)
	}
}

// TestIsCleanIsCleanUnchanged: IsClean holds exactly for the text Clean
// gives back unchanged, on texts with every kind of thing Clean removes.
func TestIsCleanIsCleanUnchanged(t *testing.T) {
	for _, s := range []string{"", "a", "mara asked: sum of your tiles → bot-Bo 16, bot-Cy 4", "李白 · é ✓",
		" lead", "trail ", "two  spaces", "tab\there", "line\nbreak", "\x1b[1mbold\x1b[m", "\u009b2J", "a\u202eb",
		"zero\u200bwidth", "\xff", "nbsp\u00a0here", "\u3000", "\ufffd", "del\x7f", " ", "\ufeffbom",
		"e\u0323\u0302", "a" + strings.Repeat("\u0301", MaxMarks), "a" + strings.Repeat("\u0301", MaxMarks+1)} {
		if got, want := IsClean(s), string(Clean(s, 0)) == s; got != want {
			t.Errorf("IsClean(%q) = %v, but Clean gives %q", s, got, Clean(s, 0))
		}
	}
}

// TestCleanCapsCombiningMarks: "zalgo" text stacks hundreds of combining
// marks on one character. Marks take no cells, so the width cap lets them
// all through, and many terminals draw the pile as a smear over the lines
// above and below: over the rest of another player's screen. Clean keeps
// MaxMarks on a character, enough for real writing, however the marks are
// split up by characters it drops.
func TestCleanCapsCombiningMarks(t *testing.T) {
	zalgo := strings.Repeat("\u0301\u0316\u0358", 200)
	for _, c := range []struct{ in, want string }{
		{"e\u0323\u0302", "e\u0323\u0302"},                       // Vietnamese ệ, decomposed
		{"\u05e9\u05c1\u05b8\u0591", "\u05e9\u05c1\u05b8\u0591"}, // pointed Hebrew with a cantillation mark
		{"a" + zalgo + "b", "a\u0301\u0316\u0358\u0301b"},
		{"a" + zalgo[:6] + "\u200b" + zalgo[6:12] + "\x1b[m" + zalgo, "a\u0301\u0316\u0358\u0301"},
		{"a" + zalgo + "\u0085" + zalgo + "\xff" + zalgo, "a\u0301\u0316\u0358\u0301"},
		{"a" + zalgo + " b" + zalgo, "a\u0301\u0316\u0358\u0301 b\u0301\u0316\u0358\u0301"},
		{"a\u20dd\u20dd\u20dd\u20dd\u20dd\u20dd", "a\u20dd\u20dd\u20dd\u20dd"}, // enclosing marks stack too
	} {
		got := string(Clean(c.in, 40))
		if got != c.want {
			t.Errorf("Clean(%q) = %q, want %q", c.in, got, c.want)
		}
		if !IsClean(got) {
			t.Errorf("IsClean(%q) is false", got)
		}
	}
	if IsClean("a" + zalgo) {
		t.Error("IsClean holds for zalgo text")
	}
}

// longestMarkRun is the most combining marks in a row in s.
func longestMarkRun(s string) int {
	most, n := 0, 0
	for _, r := range s {
		if isMark(r) {
			n++
			most = max(most, n)
		} else {
			n = 0
		}
	}
	return most
}

// FuzzIsClean: IsClean says true only of text Clean leaves as it is, and
// of all of it.
func FuzzIsClean(f *testing.F) {
	for _, s := range []string{"a b", " a", "a  b", "\x1b[m", "日本\r\n", "\u2028", "\u00a0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := IsClean(s), string(Clean(s, 0)) == s; got != want {
			t.Fatalf("IsClean(%q) = %v, Clean gives %q", s, got, Clean(s, 0))
		}
	})
}

// FuzzClean checks that nothing an attacker sends survives as a control
// character or escape, and that the width cap holds.
func FuzzClean(f *testing.F) {
	for _, s := range []string{"\x1b]52;c;AA\x07", "\u009b2J", "a\u202eb", "\x1b[", "日本\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := string(Clean(s, 20))
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		for _, r := range out {
			if r < 0x20 || (r >= 0x7f && r <= 0x9f) || dropped(r) {
				t.Fatalf("Clean(%q) kept control %U", s, r)
			}
		}
		if w := ansi.StringWidth(out); w > 20 {
			t.Fatalf("Clean(%q) width %d > 20", s, w)
		}
		if n := longestMarkRun(out); n > MaxMarks {
			t.Fatalf("Clean(%q) kept %d combining marks in a row", s, n)
		}
		if string(Clean(out, 20)) != out {
			t.Fatalf("Clean is not idempotent on %q", s)
		}
	})
}

func TestHandle(t *testing.T) {
	for _, ok := range []string{"mara", "Bo", "kai_2", "x-y", " padded ", strings.Repeat("a", 16)} {
		if got, err := Handle(ok); err != nil || string(got) != strings.TrimSpace(ok) {
			t.Errorf("Handle(%q) = %q, %v; want accepted", ok, got, err)
		}
	}
	bad := map[string]error{
		"":                      ErrHandleLength,
		"a":                     ErrHandleLength,
		strings.Repeat("a", 17): ErrHandleLength,
		"two words":             ErrHandleLetters,
		"café":                  ErrHandleLetters,
		"a\x1b[31m":             ErrHandleLetters,
		"bob\u202e":             ErrHandleLetters,
		"x.y":                   ErrHandleLetters,
	}
	for in, want := range bad {
		if _, err := Handle(in); !errors.Is(err, want) {
			t.Errorf("Handle(%q) error = %v, want %v", in, err, want)
		}
	}
}

// Bot_Ada was accepted and read like the bot bot-Ada.
func TestHandlesThatReadLikeABotOrAGuestAreKept(t *testing.T) {
	for _, h := range []string{"Bot_Ada", "bot-Ada", "BOT-x", "BotAda", "b0t", "B0T_9", "bo_t", "b-o-t", "8ot", "6o7", "bot",
		"guest", "Guest_7k3", "gue5t", "GU3ST", "9uest-1", "g_u_e_s_t"} {
		if _, err := Handle(h); !errors.Is(err, ErrHandleKept) {
			t.Errorf("Handle(%q) = %v, want %v", h, err, ErrHandleKept)
		}
	}
	for _, h := range []string{"Bo", "Boris", "abbot", "robot", "Ada", "Gus", "questor", "b_o", "xbot"} {
		if got, err := Handle(h); err != nil || string(got) != h {
			t.Errorf("Handle(%q) = %q, %v; want it accepted", h, got, err)
		}
	}
}

// TestCutOnCleanTextIsClean: what draws clean text only cuts it, and
// cutting clean text gives what cleaning it again would.
func TestCutOnCleanTextIsClean(t *testing.T) {
	for _, s := range []string{"Ann asked: sum of your tiles", "café 日本 ♠ and more words", strings.Repeat("wide 日", 30), "a\x1b[31mb c\u202ed"} {
		clean := Clean(s, 0)
		for _, w := range []int{0, 1, 5, 9, 16, 40} {
			if got, want := clean.Cut(w), Clean(clean.String(), w); got != want {
				t.Errorf("Cut(%q, %d) = %q, want %q", clean, w, got, want)
			}
		}
	}
}

// TestCutSkipsMeasuringShortText: Cut skips measuring text of at most w
// bytes, which is right only because no text is wider than its bytes; it
// cuts exactly as measuring everything would, at and around the bound.
func TestCutSkipsMeasuringShortText(t *testing.T) {
	for _, s := range []string{"", "mara", "李小龙", "Björk Guðmundsdóttir", "🙂🙂🙂", "e\u0301e\u0301", "\x1b[1mbold\x1b[m", "\xff\xfe", "tab\there"} {
		for w := 1; w <= len(s)+2; w++ {
			want := s
			if ansi.StringWidth(s) > w {
				want = ansi.Truncate(s, w, "…")
			}
			if got := Cut(s, w); got != want {
				t.Errorf("Cut(%q, %d) = %q, want %q", s, w, got, want)
			}
		}
	}
}

// TestSimpleWidthMatchesAnsi: every rune SimpleWidth counts itself is as
// wide as ansi.StringWidth says, alone and among others, and whatever it
// counts it counts as ansi does.
func TestSimpleWidthMatchesAnsi(t *testing.T) {
	for r := rune(0); r < 0x10000; r++ {
		if runeCells(r) == 0 {
			continue
		}
		for _, s := range []string{string(r), "a" + string(r) + "b", string(r) + string(r), "\x1b[1m" + string(r) + "\x1b[m", "é" + string(r) + "李"} {
			if got, want := Width(s), ansi.StringWidth(s); got != want {
				t.Errorf("Width(%q) = %d, ansi says %d", s, got, want)
			}
		}
	}
	for _, s := range []string{"", "plain", "\x1b[38;2;1;2;3mx\x1b[m", "🙂", "e\u0301", "tab\t", "\x1b]0;t\x07", "李小龙 …"} {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Errorf("Width(%q) = %d, ansi says %d", s, got, want)
		}
	}
}
