package server

import (
	"bytes"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/storage"
)

// oneGameRecords is a history of exactly one finished game.
type oneGameRecords struct{ Records }

func (oneGameRecords) History(string, int) ([]storage.GameSummary, error) {
	return []storage.GameSummary{{ID: "8F3K2", Game: "breakcode", Moves: 9}}, nil
}

// TestHistoryOfOneGameReadsRight: one game is "Your last game", not "Your
// last 1 games".
func TestHistoryOfOneGameReadsRight(t *testing.T) {
	s := &Server{cfg: Config{Records: oneGameRecords{}}, log: testLogger()}
	var out, errOut bytes.Buffer
	if code := s.execHistory(&out, &errOut, Identity{Account: "SHA256:x", Handle: "mara"}); code != 0 {
		t.Fatalf("history exit %d: %s", code, errOut.String())
	}
	first, _, _ := strings.Cut(out.String(), "\n")
	if strings.Contains(first, "1 games") || !strings.HasPrefix(first, "Your last game ") {
		t.Errorf("history of one game begins %q, want \"Your last game (…\"", first)
	}
}
