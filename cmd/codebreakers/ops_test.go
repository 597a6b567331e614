package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/lobby"
)

// playBotGame plays one Break the Code game to the end through the hub:
// the human seat is driven by a bot brain acting on that seat's view, so
// every move goes through the table, storage and the observers like a
// player's. It returns the finished game's id.
func playBotGame(t *testing.T, hub *lobby.Hub, id lobby.Identity) string {
	t.Helper()
	conn, err := hub.QuickPlay(id, "breakcode")
	if err != nil {
		t.Fatalf("QuickPlay: %v", err)
	}
	defer conn.Leave()
	g, _ := games().Lookup("breakcode")
	seat := conn.View().You.Seat
	brain, err := g.NewBot(seat, g.Info().BotLevels[0], 7)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.NewTimer(waitLimit)
	defer deadline.Stop()
	for range 5000 {
		v := conn.View()
		if v.Phase == lobby.Finished {
			return v.GameID
		}
		if v.Phase == lobby.Playing && slices.Contains(v.Status.Active, seat) {
			action, err := brain.Act(v.Board)
			if err != nil {
				t.Fatalf("bot brain: %v", err)
			}
			if action != nil {
				if err := conn.Act(action); err != nil {
					t.Fatalf("act: %v", err)
				}
				continue
			}
		}
		select {
		case <-conn.Updates():
		case <-conn.Done():
			t.Fatalf("conn ended: %s", conn.Reason())
		case <-deadline.C:
			t.Fatalf("game did not finish; phase %v", v.Phase)
		}
	}
	t.Fatal("game did not finish in 5000 steps")
	return ""
}

// httpGet fetches url and returns status and body.
func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	c := &http.Client{Timeout: waitLimit}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// runCmd runs the binary's entry point in-process.
func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), args, &stdout, &stderr)
	return stdout.String(), stderr.String(), err
}

// shortDataDir is a data directory with a path short enough for a unix
// socket (108 bytes) even under long test names.
func shortDataDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "cb")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return filepath.Join(dir, "data")
}

func TestMetricsBackupExportWhileServingAndRestore(t *testing.T) {
	dir := shortDataDir(t)
	in, addr := startInstance(t, dir, "--metrics-addr", "127.0.0.1:0")
	player := lobby.Identity{Account: "SHA256:opal", Handle: "Opal"}
	gameID := playBotGame(t, in.hub, player)

	// Metrics and health, on their own address.
	base := "http://" + in.ops.metricsAddr
	code, body := httpGet(t, base+"/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d", code)
	}
	for _, want := range []string{
		`codebreakers_actions_total{game="breakcode",outcome="ok"}`,
		`codebreakers_action_duration_seconds_count{game="breakcode"}`,
		`codebreakers_storage_writes_total`,
		`codebreakers_storage_commit_duration_seconds_bucket`,
		`codebreakers_sessions 0`,
		`codebreakers_errors_total{component="storage"} 0`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if code, body := httpGet(t, base+"/healthz"); code != http.StatusOK || body != "ok\n" {
		t.Fatalf("/healthz: %d %q", code, body)
	}

	// Backup and export while the server holds the database.
	out := t.TempDir()
	backup := filepath.Join(out, "backup.db")
	stdout, stderr, err := runCmd(t, "backup", "--data-dir", dir, backup)
	if err != nil {
		t.Fatalf("backup: %v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "online copy from the running server") {
		t.Fatalf("backup did not ask the server: %q", stdout)
	}
	exported := filepath.Join(out, "games.jsonl")
	if _, stderr, err := runCmd(t, "export", "--data-dir", dir, "--out", exported); err != nil {
		t.Fatalf("export: %v\n%s", err, stderr)
	}

	// Every exported game replays to its recorded result.
	lines := readExport(t, exported)
	if len(lines) != 1 || lines[0].ID != gameID {
		t.Fatalf("export has %d games, want the one played (%s)", len(lines), gameID)
	}
	for _, e := range lines {
		if err := checkReplay(games(), e.Record, e.Result); err != nil {
			t.Fatalf("exported game %s does not replay: %v", e.ID, err)
		}
		if len(e.Seats) != len(e.Record.Players) ||
			!slices.ContainsFunc(e.Seats, func(s exportedSeat) bool { return s.Account == player.Account }) {
			t.Fatalf("exported seats lost the player: %+v", e.Seats)
		}
	}

	// Restore: copy the backup into a fresh data directory and start there.
	restored := shortDataDir(t)
	if err := os.MkdirAll(restored, 0o700); err != nil {
		t.Fatal(err)
	}
	copyFile(t, backup, filepath.Join(restored, dbFile))
	in2, addr2 := startInstance(t, restored)
	checkRestored(t, in2, addr2, player, gameID)

	// Import the export into another fresh data directory (server stopped).
	imported := shortDataDir(t)
	stdout, stderr, err = runCmd(t, "import", "--data-dir", imported, exported)
	if err != nil || !strings.Contains(stdout, "imported 1 game,") {
		t.Fatalf("import: %v %q %s", err, stdout, stderr)
	}
	if stdout, _, err := runCmd(t, "import", "--data-dir", imported, exported); err != nil || !strings.Contains(stdout, "skipped 1") {
		t.Fatalf("second import should skip the game: %v %q", err, stdout)
	}
	in3, addr3 := startInstance(t, imported)
	checkRestored(t, in3, addr3, player, gameID)

	// A shutting-down server reports unhealthy, so balancers stop sending players.
	in.ops.drain()
	if code, body := httpGet(t, base+"/healthz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "draining") {
		t.Fatalf("/healthz while draining: %d %q", code, body)
	}
	_ = addr
}

// checkRestored checks a restored instance has the game: in its history,
// loadable, and replayable over SSH.
func checkRestored(t *testing.T, in *instance, addr string, player lobby.Identity, gameID string) {
	t.Helper()
	hist, err := in.db.History(player.Account, 0)
	if err != nil || len(hist) != 1 || hist[0].ID != gameID {
		t.Fatalf("restored history = %+v, %v", hist, err)
	}
	g, err := in.db.Game(gameID)
	if err != nil {
		t.Fatalf("restored game: %v", err)
	}
	if err := checkReplay(games(), g.Record, g.Result); err != nil {
		t.Fatalf("restored game does not replay: %v", err)
	}
	c := dial(t, addr, withKey(newKey(t)))
	stdout, stderr, code := execRun(t, c, "replay "+gameID)
	if code != 0 || !strings.Contains(stdout, g.Result.Summary) {
		t.Fatalf("replay %s over SSH: exit %d\n%s\n%s", gameID, code, stdout, stderr)
	}
}

func readExport(t *testing.T, path string) []exportedGame {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []exportedGame
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, maxExportLine)
	for sc.Scan() {
		var e exportedGame
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("export line %q: %v", sc.Text(), err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestBackupWithoutServer(t *testing.T) {
	dir := shortDataDir(t)
	in, _ := startInstance(t, dir)
	gameID := playBotGame(t, in.hub, lobby.Identity{Account: "SHA256:kai", Handle: "Kai"})
	if err := in.close(waitLimit); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, adminSocketName)); !os.IsNotExist(err) {
		t.Fatalf("admin socket left behind after a clean stop: %v", err)
	}

	// A socket file left by a server that died must not stop a backup.
	stale, err := net.ListenUnix("unix", &net.UnixAddr{Name: filepath.Join(dir, adminSocketName), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	stale.SetUnlinkOnClose(false)
	_ = stale.Close()

	backup := filepath.Join(t.TempDir(), "offline.db")
	stdout, stderr, err := runCmd(t, "backup", "--data-dir", dir, backup)
	if err != nil || !strings.Contains(stdout, "offline copy") {
		t.Fatalf("offline backup: %v %q %s", err, stdout, stderr)
	}
	exported := filepath.Join(t.TempDir(), "games.jsonl")
	if _, stderr, err := runCmd(t, "export", "--data-dir", dir, "--out", exported); err != nil {
		t.Fatalf("offline export: %v %s", err, stderr)
	}
	if lines := readExport(t, exported); len(lines) != 1 || lines[0].ID != gameID {
		t.Fatalf("offline export: %+v", lines)
	}

	// Mistakes get clear messages and write nothing.
	missing := filepath.Join(t.TempDir(), "nothing-here")
	dest := t.TempDir()
	if _, _, err := runCmd(t, "backup", "--data-dir", missing, filepath.Join(dest, "x.db")); err == nil ||
		!strings.Contains(err.Error(), "no database") {
		t.Fatalf("backup of a missing data dir: %v", err)
	}
	if _, _, err := runCmd(t, "backup", "--data-dir", dir); err != errUsage {
		t.Fatalf("backup without PATH: %v", err)
	}
	if left, _ := os.ReadDir(dest); len(left) != 0 {
		t.Fatalf("a failed backup left %v behind", left)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Fatalf("a failed backup created %s", missing)
	}
}

func TestImportRefusesGamesThatDoNotReplay(t *testing.T) {
	dir := shortDataDir(t)
	in, _ := startInstance(t, dir)
	playBotGame(t, in.hub, lobby.Identity{Account: "SHA256:kai", Handle: "Kai"})
	var buf bytes.Buffer
	if _, err := exportGames(in.db, &buf); err != nil {
		t.Fatal(err)
	}
	var e exportedGame
	if err := json.Unmarshal(buf.Bytes(), &e); err != nil {
		t.Fatal(err)
	}
	e.Result.Summary = "Someone else won."
	bad, _ := json.Marshal(e)
	path := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(path, append(bad, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err := runCmd(t, "import", "--data-dir", shortDataDir(t), path)
	if err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("import of a tampered game: %v", err)
	}
	// The running server's data directory is refused, not waited on.
	if _, _, err := runCmd(t, "import", "--data-dir", dir, path); err == nil || !strings.Contains(err.Error(), "stop it first") {
		t.Fatalf("import into a running server's data: %v", err)
	}
}

func TestOperatorFlags(t *testing.T) {
	noEnv := func(string) string { return "" }
	o, err := parseServe([]string{"--data-dir", "/srv/cb"}, noEnv, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o.MetricsAddr != "" || len(o.proxyTrusted) != 0 || o.AdminSocket != filepath.Join("/srv/cb", adminSocketName) {
		t.Fatalf("defaults: metrics %q, proxy %v, admin %q", o.MetricsAddr, o.proxyTrusted, o.AdminSocket)
	}
	env := map[string]string{"CODEBREAKERS_PROXY_PROTOCOL_FROM": "10.0.0.0/8, 192.168.1.5"}
	o, err = parseServe([]string{"--addr", "127.0.0.1:0"}, func(k string) string { return env[k] }, io.Discard)
	if err != nil || len(o.proxyTrusted) != 2 {
		t.Fatalf("proxy from env: %v %v", o.proxyTrusted, err)
	}
	ln, err := listen(o)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if _, ok := ln.(*net.TCPListener); ok {
		t.Fatal("--proxy-protocol-from set but the listener does not read PROXY headers")
	}
	if _, err := parseServe([]string{"--proxy-protocol-from", "10.0.0.0/40"}, noEnv, io.Discard); err == nil ||
		!strings.Contains(err.Error(), "--proxy-protocol-from") {
		t.Fatalf("bad CIDR: %v", err)
	}
}

// TestRestartKeepsLiveGames is the runbook's upgrade: a graceful stop in
// the middle of a game, a start on the same data directory, and the player
// resumes the same game at the same move.
func TestRestartKeepsLiveGames(t *testing.T) {
	dir := shortDataDir(t)
	in, _ := startInstance(t, dir)
	player := lobby.Identity{Account: "SHA256:rae", Handle: "Rae"}
	conn, err := in.hub.QuickPlay(player, "breakcode")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := games().Lookup("breakcode")
	seat := conn.View().You.Seat
	brain, err := g.NewBot(seat, g.Info().BotLevels[0], 3)
	if err != nil {
		t.Fatal(err)
	}
	// Make one move of our own (bots fill the other seats).
	deadline := time.NewTimer(waitLimit)
	defer deadline.Stop()
	for moved := false; !moved; {
		v := conn.View()
		if v.Phase == lobby.Playing && slices.Contains(v.Status.Active, seat) {
			if action, err := brain.Act(v.Board); err == nil && action != nil {
				if err := conn.Act(action); err != nil {
					t.Fatal(err)
				}
				moved = true
				continue
			}
		}
		select {
		case <-conn.Updates():
		case <-deadline.C:
			t.Fatal("never our turn")
		}
	}
	before := conn.View()
	if before.Phase != lobby.Playing {
		t.Skipf("the game ended after one move (phase %v)", before.Phase)
	}
	if err := in.close(waitLimit); err != nil {
		t.Fatal(err)
	}
	in2, _ := startInstance(t, dir)
	c, ok := in2.hub.Resume(player)
	if !ok {
		t.Fatal("after a restart the player has no seat to resume")
	}
	defer c.Leave()
	if v := c.View(); v.GameID != before.GameID || v.Phase != lobby.Playing {
		t.Fatalf("resumed game %s phase %v, want %s playing", v.GameID, v.Phase, before.GameID)
	}
	lives, err := in2.db.LiveGames()
	if err != nil || len(lives) != 1 || len(lives[0].Record.Moves) < 1 {
		t.Fatalf("live games after restart: %+v, %v", lives, err)
	}
}

// TestPprofOnlyWhenAsked checks that --pprof-addr serves Go's profiles on
// its own listener, and that the metrics listener never does.
func TestPprofOnlyWhenAsked(t *testing.T) {
	free := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		return ln.Addr().String()
	}
	pprofAddr, metricsAddr := free(), free()
	startInstance(t, dataDir(t), "--pprof-addr", pprofAddr, "--metrics-addr", metricsAddr)
	get := func(url string) int {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		return resp.StatusCode
	}
	if code := get("http://" + pprofAddr + "/debug/pprof/cmdline"); code != http.StatusOK {
		t.Errorf("pprof listener answered %d", code)
	}
	if code := get("http://" + metricsAddr + "/debug/pprof/cmdline"); code == http.StatusOK {
		t.Error("the metrics listener serves profiles")
	}
	// An address that cannot be listened on stops the server with a clear
	// message instead of serving without profiles.
	_, _, err := runCmd(t, "serve", "--addr", "127.0.0.1:0", "--data-dir", shortDataDir(t), "--pprof-addr", "nonsense")
	if err == nil || !strings.Contains(err.Error(), "pprof: listen on nonsense") {
		t.Errorf("bad --pprof-addr: %v", err)
	}
}
