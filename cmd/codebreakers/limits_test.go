package main

import (
	"os"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/server"
)

// TestFileLimitWarning: a server whose open-file limit cannot hold
// --max-sessions says so and what to do; the shipped defaults fit the
// systemd unit's LimitNOFILE.
func TestFileLimitWarning(t *testing.T) {
	if w := fileLimitWarning(1024, 10000); !strings.Contains(w, "LimitNOFILE") || !strings.Contains(w, "10256") {
		t.Errorf("a 1024-file limit with 10,000 sessions: %q", w)
	}
	if w := fileLimitWarning(65536, 10000); w != "" {
		t.Errorf("65,536 files for 10,000 sessions: %q", w)
	}
	b, err := os.ReadFile("../../deploy/codebreakers.service")
	if err != nil {
		t.Fatal(err)
	}
	unit := string(b)
	var limit uint64
	for _, line := range strings.Split(unit, "\n") {
		if v, ok := strings.CutPrefix(line, "LimitNOFILE="); ok {
			for _, c := range v {
				limit = limit*10 + uint64(c-'0')
			}
		}
	}
	if w := fileLimitWarning(limit, server.DefaultMaxSessions); w != "" {
		t.Errorf("the systemd unit (LimitNOFILE=%d) does not fit the default --max-sessions: %s", limit, w)
	}
}
