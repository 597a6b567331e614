package server

import (
	"regexp"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/engine/coding"
	"github.com/codebreakers/codebreakers/engine/ifthen"
	"github.com/codebreakers/codebreakers/storage"
)

// Every installed game's view reveals itself in the transcript.
var (
	_ revealer = breakcode.View{}
	_ revealer = coding.View{}
	_ revealer = ifthen.View{}
)

type fakeReveal [][2]string

func (f fakeReveal) RevealText() [][2]string { return f }

func TestRevealLinesCleansAndAligns(t *testing.T) {
	lines := revealLines(fakeReveal{
		{"ann", "3b 3w"},
		{"\x1b[31mevil\x1b[0m\nname", "x\x1b]0;title\x07y"},
		{"a-very-long-handle-indeed", "ok"},
		{"zoë", "5g"},
	})
	want := []string{
		"  ann              3b 3w",
		"  evil name        xy",
		"  a-very-long-han… ok",
		"  zoë              5g",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("revealLines:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if got := revealLines(struct{}{}); got != nil {
		t.Errorf("a view that cannot reveal itself gave %q", got)
	}
}

// revealOf deals a game of g and returns its omniscient reveal.
func revealOf(t *testing.T, g engine.Game, opts engine.Options, names ...string) string {
	t.Helper()
	players := make([]engine.Player, len(names))
	for i, n := range names {
		players[i] = engine.Player{Name: n}
	}
	st, err := g.New(opts, players, 7)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(revealLines(st.View(engine.Omniscient())), "\n")
}

func TestRevealLinesOfEveryGame(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    engine.Game
		opts engine.Options
		want []*regexp.Regexp
	}{
		{"breakcode 3 players", breakcode.Game{}, engine.Options{}, []*regexp.Regexp{
			regexp.MustCompile(`(?m)^  ann {14}(\d[bwg] ){4}\d[bwg]$`),
			regexp.MustCompile(`(?m)^  cy {15}(\d[bwg] ){4}\d[bwg]$`),
			regexp.MustCompile(`(?m)^  Centre {11}(\d[bwg] ){4}\d[bwg]$`),
		}},
		{"coding", coding.Game{}, engine.Options{}, []*regexp.Regexp{
			regexp.MustCompile(`(?m)^  ann {14}[A-F]\d\d$`),
			regexp.MustCompile(`(?m)^  bob {14}[A-F]\d\d$`),
			regexp.MustCompile(`(?m)^  Face down {8}([A-F0-9] )+[A-F0-9]$`),
		}},
		{"ifthen", ifthen.Game{}, engine.Options{"level": "0"}, []*regexp.Regexp{
			regexp.MustCompile(`(?m)^  Code {13}\S.* \(.*\)$`),
			regexp.MustCompile(`(?m)^  ann {14}(\d[YBR][SML][ybr]/\d[YBR][SML][ybr] ){2}\d[YBR][SML][ybr]/\d[YBR][SML][ybr]$`),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := revealOf(t, tc.g, tc.opts, "ann", "bob", "cy")
			for _, re := range tc.want {
				if !re.MatchString(got) {
					t.Errorf("reveal lacks %s:\n%s", re, got)
				}
			}
			if strings.Contains(got, "?") {
				t.Errorf("an omniscient reveal hides something:\n%s", got)
			}
		})
	}
}

func TestEventTextMarksPrivateEvents(t *testing.T) {
	seats := []storage.SeatRecord{{Handle: "ann"}, {Handle: "bob"}}
	for _, tc := range []struct {
		e    engine.Event
		want string
	}{
		{engine.Event{Text: "ann played 7YLr: Valid."}, "ann played 7YLr: Valid."},
		{engine.Event{Text: "You drew 9BLy/4YLb.", Seats: []engine.Seat{1}}, "(to bob) You drew 9BLy/4YLb."},
		{engine.Event{Text: "You see\x1b[2J it.", Seats: []engine.Seat{0, 3}}, "(to ann, seat 4) You see it."},
		{engine.Event{Text: "You drew 3▲b.", Others: "bob drew 3▲b\x1b[2J.", Seats: []engine.Seat{1}}, "bob drew 3▲b."},
	} {
		if got := eventText(tc.e, seats); got != tc.want {
			t.Errorf("eventText(%q) = %q, want %q", tc.e.Text, got, tc.want)
		}
	}
}

// TestCleanKeepingSpaces: columns keep their spaces while escapes and
// controls inside the text go.
func TestCleanKeepingSpaces(t *testing.T) {
	got := cleanKeepingSpaces("  ann       3 questions\x1b[31m red\x1b[0m  \x07bell  ", 0)
	if got != "  ann       3 questions red  bell" {
		t.Errorf("got %q", got)
	}
	if got := cleanKeepingSpaces("abcdefghij", 5); got != "abcd…" {
		t.Errorf("cut: %q", got)
	}
}
