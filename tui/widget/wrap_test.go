package widget

import (
	"strings"
	"testing"
)

func TestWrapBreaksAtSpacesOnly(t *testing.T) {
	got := Wrap("Ann asked: sum of your tiles → bot-Bo 16, bot-Cy 4", 40)
	want := []string{"Ann asked: sum of your tiles → bot-Bo", "16, bot-Cy 4"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Wrap = %q, want %q", got, want)
	}
	for _, l := range Wrap("Ann asked: sum of your tiles → bot-Bo 16, bot-Cy 4", 18) {
		if strings.HasSuffix(l, "-") {
			t.Errorf("a name was split at its hyphen: %q", l)
		}
	}
}

func TestWrapCutsOnlyWordsWiderThanTheLine(t *testing.T) {
	got := Wrap("ab abcdefghij cd", 4)
	want := []string{"ab", "abcd", "efgh", "ij", "cd"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Wrap = %q, want %q", got, want)
	}
	for _, w := range []int{1, 2, 3, 7} {
		for _, l := range Wrap("the quick brown fox — jumps over the lazy dog", w) {
			if Width(l) > w {
				t.Errorf("width %d: line %q is %d wide", w, l, Width(l))
			}
		}
	}
}

func TestWrapIndentHangs(t *testing.T) {
	got := WrapIndent("one two three four five", 13, " step 1 ", "        ")
	want := []string{" step 1 one", "        two", "        three", "        four", "        five"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("WrapIndent = %q, want %q", got, want)
	}
}

func TestReflowJoinsParagraphsAndKeepsStructure(t *testing.T) {
	text := "Title line\n\nSection\n  first line of a\n  paragraph here.\n  - an item that\n    goes on\n  - another\n  After the list."
	got := Reflow(text, 200)
	want := []string{"Title line", "", "Section", "  first line of a paragraph here.", "  - an item that goes on", "  - another", "  After the list."}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Reflow wide =\n%q\nwant\n%q", got, want)
	}
	got = Reflow(text, 16)
	want = []string{"Title line", "", "Section", "  first line of", "  a paragraph", "  here.", "  - an item that", "    goes on", "  - another", "  After the", "  list."}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Reflow narrow =\n%q\nwant\n%q", got, want)
	}
}

func TestWrapCarriesStylesAcrossLines(t *testing.T) {
	styled := "\x1b[1mone two three four\x1b[m"
	got := Wrap(styled, 10)
	if len(got) != 2 {
		t.Fatalf("Wrap = %q, want two lines", got)
	}
	if !strings.HasSuffix(got[0], "\x1b[m") || !strings.HasPrefix(got[1], "\x1b[1m") {
		t.Errorf("the style must close at the break and open again: %q", got)
	}
	for _, l := range got {
		if Width(l) > 10 {
			t.Errorf("line %q is %d wide", l, Width(l))
		}
	}
}

func TestWrapKeepsColumnsInsideALine(t *testing.T) {
	got := Wrap("Puzzle   one position per game", 20)
	want := []string{"Puzzle   one", "position per game"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Wrap = %q, want %q", got, want)
	}
}
