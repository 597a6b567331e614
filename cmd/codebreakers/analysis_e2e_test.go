package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/internal/seen"
)

// TestReplayAnalysisOverSSH: a key plays Break the Code with two bots to
// the end; `replay ID` over exec then prints, after the transcript, the
// bits every question gained against the best one available, and an
// accuracy for every player who asked.
func TestReplayAnalysisOverSSH(t *testing.T) {
	_, addr := startInstance(t, dataDir(t))
	annKey := newKey(t)
	ann := openTerm(t, dial(t, addr, withKey(annKey)), "ann", termW, termH, "")
	register(ann, "ann")
	createGameTable(ann, menuBreakcode, "Break the Code", keyDown, keyRight, keyRight) // Bots: 0 → 2
	ann.waitFor("bot · strong")
	ann.send("s")
	ann.waitUntil("the game to start", seen.HasTurn)
	newDriver(t, 3, ann).playToEnd()

	transcript := lastTranscript(t, dial(t, addr, withKey(annKey)), "Break the Code")
	at := strings.Index(transcript, "Analysis:")
	if at < 0 || at < strings.Index(transcript, "Result:") {
		t.Fatalf("no analysis after the transcript:\n%s", transcript)
	}
	analysisText := transcript[at:]
	asked := regexp.MustCompile(`(?m)^  move (\d+) · ann asked: .+\n(?:\s+knew: .+\n)?\s+(\d+) → (\d+) centre sets · gained (\d+\.\d\d) bits · expected \d+\.\d\d · best \d+\.\d\d`).FindAllStringSubmatch(analysisText, -1)
	questions := strings.Count(transcript[:at], "ann asked:")
	if questions == 0 || len(asked) != questions {
		t.Fatalf("want bits for ann's %d questions, found %d:\n%s", questions, len(asked), analysisText)
	}
	for _, m := range asked {
		if m[2] < m[3] && len(m[2]) <= len(m[3]) {
			t.Errorf("move %s: the centre sets grew from %s to %s", m[1], m[2], m[3])
		}
	}
	acc := regexp.MustCompile(`(?m)^  (\S+)\s+\d+ questions? · .* accuracy (\d+) %$`).FindAllStringSubmatch(analysisText, -1)
	players := map[string]bool{}
	for _, m := range acc {
		players[m[1]] = true
	}
	asking := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  move \d+ · (\S+) asked:`).FindAllStringSubmatch(analysisText, -1) {
		asking[m[1]] = true
	}
	if !players["ann"] || len(players) != len(asking) {
		t.Fatalf("want an accuracy for everyone who asked (%v), got %v:\n%s", asking, players, analysisText)
	}
}
