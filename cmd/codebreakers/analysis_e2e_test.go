package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/internal/seen"
	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/analysis/analysistest"
	"github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/storage"
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
	asked := regexp.MustCompile(`(?m)^  move (\d+) · ann asked: .+\n(?:\s+knew: .+\n)?\s+(\d+) → (\d+) centre sets? · gained (\d+(?:\.\d\d)?) bits? · expected \d+\.\d\d · best \d+\.\d\d`).FindAllStringSubmatch(analysisText, -1)
	questions := strings.Count(transcript[:at], "ann asked:")
	if questions == 0 || len(asked) != questions {
		t.Fatalf("want bits for ann's %d questions, found %d:\n%s", questions, len(asked), analysisText)
	}
	for _, m := range asked {
		before, _ := strconv.Atoi(m[2])
		after, _ := strconv.Atoi(m[3])
		if after > before || after == 0 {
			t.Errorf("move %s: the centre sets went from %s to %s", m[1], m[2], m[3])
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

// finishedYesterday stores public Break the Code games played by bots,
// finished yesterday (UTC), in a new data dir, as a server that ran then
// would have: the puzzle of the day chooses among them.
func finishedYesterday(t *testing.T, dir string, count int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(filepath.Join(dir, dbFile), storage.Options{Timeout: time.Second, Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	reg := games()
	at := time.Now().UTC().Add(-24 * time.Hour)
	for seed := range uint64(count) {
		rec := analysistest.BotRecord(t, breakcode.Game{}, nil, 100+seed, breakcode.LevelStrong, breakcode.LevelEasy, breakcode.LevelStrong)
		id, err := db.NewGameID()
		if err != nil {
			t.Fatal(err)
		}
		seats := []storage.SeatRecord{{Handle: "bot-Ada", Bot: true}, {Handle: "bot-Bo", Bot: true}, {Handle: "bot-Cy", Bot: true}}
		live := storage.LiveGame{ID: id, Public: true, Seats: seats, Record: rec, Started: at.Add(-time.Hour)}
		if err := db.StartGame(live); err != nil {
			t.Fatal(err)
		}
		st, _, err := engine.Replay(reg, rec, -1)
		if err != nil {
			t.Fatal(err)
		}
		res, _ := st.Result()
		if err := db.FinishGame(storage.FinishedGame{LiveGame: live, Result: res, Finished: at}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPuzzleOnceADayOverSSH: today's Break the Code puzzle, chosen from
// yesterday's public games, shows its position and moves over exec; each
// key may answer it once, and the answer shows every move's bits with the
// best marked, the streak and the day's solvers.
func TestPuzzleOnceADayOverSSH(t *testing.T) {
	dir := dataDir(t)
	finishedYesterday(t, dir, 4)
	_, addr := startInstance(t, dir)
	annKey, bobKey := newKey(t), newKey(t)
	ann := openTerm(t, dial(t, addr, withKey(annKey)), "ann", termW, termH, "")
	register(ann, "ann")
	ann.waitFor("Quick play")

	list, _, status := execRun(t, dial(t, addr, withKey(annKey)), "puzzle")
	if status != 0 || !regexp.MustCompile(`Break the Code\s+breakcode\s+\d+ moves · solved by 0 of 0`).MatchString(list) {
		t.Fatalf("puzzle list (exit %d):\n%s", status, list)
	}
	show, _, status := execRun(t, dial(t, addr, withKey(annKey)), "puzzle break")
	moves := regexp.MustCompile(`(?m)^\s+(\d+)  \S.*$`).FindAllStringSubmatch(show, -1)
	if status != 0 || !strings.Contains(show, "about to move") || !strings.Contains(show, "Which move tells you the most?") || len(moves) < 3 {
		t.Fatalf("puzzle breakcode (exit %d, %d moves):\n%s", status, len(moves), show)
	}
	if !regexp.MustCompile(`\b[0-9][bwg]\b`).MatchString(show) {
		t.Errorf("the position shows no tiles:\n%s", show)
	}
	// A game with no puzzle today says why and when there will be one.
	if none, _, status := execRun(t, dial(t, addr, withKey(annKey)), "puzzle coding"); status != 0 || !strings.Contains(none, "finished in the two weeks before today,") || !strings.Contains(none, "Come back tomorrow") {
		t.Errorf("puzzle coding with no puzzle today (exit %d):\n%s", status, none)
	}
	// One try a day: an answer with a stray word after it is refused and
	// spends nothing (it used to answer with the first number, unasked).
	if _, errOut, status := execRun(t, dial(t, addr, withKey(annKey)), "puzzle breakcode 1 2"); status == 0 || !strings.Contains(errOut, "Answer with the number of a move") {
		t.Fatalf("puzzle breakcode 1 2 (exit %d): %s", status, errOut)
	}
	// A number that is no move's says which numbers are (0 was told to
	// answer "with the number of a move", as if it were not a number).
	if _, errOut, status := execRun(t, dial(t, addr, withKey(annKey)), "puzzle breakcode 0"); status == 0 || !strings.Contains(errOut, "Choose a move from 1 to") {
		t.Fatalf("puzzle breakcode 0 (exit %d): %s", status, errOut)
	}
	answer, _, status := execRun(t, dial(t, addr, withKey(annKey)), "puzzle breakcode 1")
	if status != 0 || !strings.Contains(answer, "★ best") || !strings.Contains(answer, "bits") || !strings.Contains(answer, "Streak:") {
		t.Fatalf("answer (exit %d):\n%s", status, answer)
	}
	solved := strings.HasPrefix(answer, "Solved")
	if solved != strings.Contains(answer, "★ best · yours") {
		t.Errorf("solved %v, but the marks say otherwise:\n%s", solved, answer)
	}
	if solved && !strings.Contains(answer, "first to last: ann") {
		t.Errorf("ann solved but is not in the day's table:\n%s", answer)
	}
	_, again, status := execRun(t, dial(t, addr, withKey(annKey)), "puzzle breakcode 2")
	if status == 0 || !strings.Contains(again, "already answered") {
		t.Fatalf("a second answer the same day (exit %d): %s", status, again)
	}
	// Another key answers once as well; ann's listing says she answered.
	if out, _, status := execRun(t, dial(t, addr, withKey(bobKey)), "puzzle breakcode 2"); status != 0 || !strings.Contains(out, "bits") {
		t.Fatalf("bob's answer (exit %d):\n%s", status, out)
	}
	if _, errOut, status := execRun(t, dial(t, addr, withKey(bobKey)), "puzzle breakcode 3"); status == 0 || !strings.Contains(errOut, "already answered") {
		t.Fatalf("bob's second answer (exit %d): %s", status, errOut)
	}
	list, _, _ = execRun(t, dial(t, addr, withKey(annKey)), "puzzle")
	if !regexp.MustCompile(`Break the Code\s+breakcode\s+\d+ moves · solved by \d of 2 · you (solved it|answered)`).MatchString(list) {
		t.Fatalf("listing after two answers:\n%s", list)
	}
	// In the arcade, the same puzzle says it was answered.
	ann.send("\x1b[H")
	openHomeItem(ann, "Puzzle of the day")
	ann.waitFor("PUZZLE OF THE DAY", "Break the Code")
	ann.waitUntil("the answer listed", func(s string) bool { return strings.Contains(s, "✓ solved") || strings.Contains(s, "✗ answered") })
}
