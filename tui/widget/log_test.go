package widget

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/codebreakers/codebreakers/engine"
)

func TestLogTailKeepsTheNewestWholeEvents(t *testing.T) {
	log := []engine.Event{
		{Text: "first event, which is old"},
		{Text: "second \x1b]0;pwned\x07event"},
		{Text: "third event is long enough to wrap onto a second line here"},
	}
	got := LogTail(log, 30, 3)
	if len(got) != 3 || !strings.HasPrefix(got[0], "second") || !strings.HasPrefix(got[1], "third") || !strings.HasPrefix(got[2], "  ") {
		t.Fatalf("LogTail = %q; want the second event, then the third wrapped and indented", got)
	}
	for _, l := range got {
		if ansi.StringWidth(l) > 30 || strings.ContainsRune(l, '\x1b') {
			t.Errorf("line %q is wider than 30 or holds an escape", l)
		}
	}
	if huge := LogTail([]engine.Event{{Text: strings.Repeat("word ", 100)}}, 20, 2); len(huge) != 2 {
		t.Errorf("one event too long for the space must show its start in 2 lines, got %q", huge)
	}
	if LogTail(nil, 30, 3) != nil || LogTail(log, 5, 3) != nil || LogTail(log, 30, 0) != nil {
		t.Error("LogTail must return nil when nothing fits or the log is empty")
	}
}
