package server

import (
	"testing"

	"github.com/charmbracelet/colorprofile"
)

// TestColourProfileHonoursMonochromeTerminals: colorprofile reads any xterm*
// as 16 colours, so TERM=xterm-mono got colours it cannot show; a -mono or
// -m terminal, like NO_COLOR, gets text decoration only. The last TERM
// counts (the server appends the PTY's own).
func TestColourProfileHonoursMonochromeTerminals(t *testing.T) {
	cases := []struct {
		env  []string
		want colorprofile.Profile
	}{
		{[]string{"TERM=xterm-mono"}, colorprofile.ASCII},
		{[]string{"TERM=linux-m"}, colorprofile.ASCII},
		{[]string{"TERM=xterm-256color", "NO_COLOR=1"}, colorprofile.ASCII},
		{[]string{"TERM=xterm-256color"}, colorprofile.ANSI256},
		{[]string{"TERM=xterm"}, colorprofile.ANSI},
		{[]string{"TERM=xterm-mono", "TERM=xterm-256color"}, colorprofile.ANSI256},
		{[]string{"TERM=xterm-256color", "TERM=xterm-mono"}, colorprofile.ASCII},
		{[]string{"TERM=dumb"}, colorprofile.NoTTY},
	}
	for _, c := range cases {
		if got := ColourProfile(c.env); got != c.want {
			t.Errorf("%v: profile %v, want %v", c.env, got, c.want)
		}
	}
}
