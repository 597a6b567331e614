package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/codebreakers/codebreakers/lobby"
)

// hostTable opens a two-seat Break the Code table for a host who is not
// on SSH, and returns the host's Conn and the table's code.
func hostTable(t *testing.T, in *instance) (*lobby.Conn, string) {
	t.Helper()
	host, err := in.hub.Create(lobby.Identity{Account: "SHA256:host", Handle: "host"}, lobby.TableSpec{Game: "breakcode", Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(host.Leave)
	return host, host.View().Code
}

// The attack: with one connection and sessions opened one after another,
// each a new guest, wrong join codes went through at 1,155 a minute and a
// real code slipped in among them seated the guesser.
func TestJoinCodeGuessingFromOneConnectionIsStopped(t *testing.T) {
	in, addr := startInstance(t, dataDir(t))
	_, code := hostTable(t, in)
	guesser := dial(t, addr, asGuest())
	for i := range 10 {
		tm := openTerm(t, guesser, fmt.Sprintf("guess %d", i+1), 80, 24, "join ZZZZZZ")
		tm.waitFor("matches no open table")
		_ = tm.sess.Close()
	}
	tm := openTerm(t, guesser, "guess 11", 80, 24, "join "+code)
	tm.waitFor("Too many wrong codes")
	_ = tm.sess.Close()

	// A new connection from the same address is no fresh start either.
	again := openTerm(t, dial(t, addr, asGuest()), "new connection", 80, 24, "join "+code)
	again.waitFor("Too many wrong codes")
}

func asGuest() gossh.AuthMethod {
	return gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })
}

// The attack: with OpenSSH connection sharing (ControlMaster), a player
// whose client was killed kept the seat "connected" long past the grace
// period, so no bot took over and the table waited: the session's channel
// closed, the shared connection did not. The seat must go to grace at once.
func TestClosingTheGameChannelPutsTheSeatInGraceAtOnce(t *testing.T) {
	in, addr := startInstance(t, dataDir(t))
	key := newKey(t)
	fp := gossh.FingerprintSHA256(key.PublicKey())
	if _, err := in.db.ClaimHandle(fp, "pat"); err != nil {
		t.Fatal(err)
	}
	host, code := hostTable(t, in)
	pat, err := in.hub.Join(lobby.Identity{Account: fp, Handle: "pat"}, code)
	if err != nil {
		t.Fatal(err)
	}
	if err := host.SetReady(true); err != nil {
		t.Fatal(err)
	}
	if err := pat.SetReady(true); err != nil {
		t.Fatal(err)
	}
	seat := int(pat.Viewer().Seat)
	pat.Leave() // the seat waits in grace for pat's SSH session
	hostSees := func(what string, ok func(lobby.TableView) bool) {
		t.Helper()
		deadline := time.Now().Add(waitLimit)
		for v := host.View(); !ok(v); v = host.View() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s; seats %+v, notice %q", what, v.Seats, v.Notice)
			}
			select {
			case <-host.Updates():
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	hostSees("the game to start", func(v lobby.TableView) bool { return v.Phase == lobby.Playing })

	// One connection, two channels, as a ControlMaster shares them: one
	// watches the table, the other is pat's seat.
	c := dial(t, addr, withKey(key))
	watcher := openTerm(t, c, "watcher", 80, 24, "watch "+code)
	player := openTerm(t, c, "player", 80, 24, "")
	hostSees("pat back in the seat", func(v lobby.TableView) bool { return v.Seats[seat].Connected })

	if err := player.sess.Close(); err != nil { // the client is killed; the master lives on
		t.Fatal(err)
	}
	hostSees("pat's seat to go to grace", func(v lobby.TableView) bool {
		return !v.Seats[seat].Connected && strings.Contains(v.Notice, "disconnected")
	})
	// The seat is given back as the program ends; the session's place a
	// moment later, once its last frame is written.
	deadline := time.Now().Add(waitLimit)
	for in.srv.Sessions() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions open, want the watcher's alone", in.srv.Sessions())
		}
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case <-watcher.done:
		t.Error("closing one channel ended the other session on the connection")
	default:
	}
}

// Ids given out before they grew to 14 characters keep working over SSH.
func TestOldGameIDReplaysOverSSH(t *testing.T) {
	dir := dataDir(t)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile("../../storage/testdata/five-char-ids.db") // made by main at 82209e5
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, dbFile), old, 0o600); err != nil {
		t.Fatal(err)
	}
	_, addr := startInstance(t, dir)
	out, stderr, code := execRun(t, dial(t, addr, asGuest()), "replay tmu5s")
	if code != 0 || !strings.Contains(out, "game TMU5S") || !strings.Contains(out, "oldtimer") {
		t.Fatalf("replay of an old id: exit %d\n%s\n%s", code, out, stderr)
	}
}

// The attack: a zero-length codebreakers.db was silently recreated empty;
// a truncated one crashed the start.
func TestDamagedDatabaseStopsTheStartWithAClearMessage(t *testing.T) {
	for _, size := range []int64{0, 4096 + 100} {
		t.Run(fmt.Sprintf("%d bytes", size), func(t *testing.T) {
			dir, path := usedDataDir(t)
			if err := os.Truncate(path, size); err != nil {
				t.Fatal(err)
			}
			err := serve(context.Background(), []string{"--data-dir", dir, "--addr", "127.0.0.1:0"}, func(string) string { return "" }, io.Discard, io.Discard)
			if err == nil {
				t.Fatal("serve started on a damaged database")
			}
			for _, want := range []string{path, "RUNBOOK.md", `"Restore"`} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the refusal %q does not name %s", err, want)
				}
			}
			if info, err := os.Stat(path); err != nil || info.Size() != size {
				t.Errorf("the damaged file was touched: %v, %v", info, err)
			}
		})
	}
}

// usedDataDir is a data directory whose database holds an account, made
// by an instance that has stopped, and the database's path.
func usedDataDir(t *testing.T) (dir, db string) {
	t.Helper()
	dir = dataDir(t)
	in, _ := startInstanceNoCleanup(t, dir)
	if _, err := in.db.ClaimHandle("SHA256:ann", "Ann"); err != nil {
		t.Fatal(err)
	}
	if err := in.close(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	return dir, filepath.Join(dir, dbFile)
}

// startInstanceNoCleanup opens an instance without serving, for tests that
// close it themselves.
func startInstanceNoCleanup(t *testing.T, dir string, flags ...string) (*instance, serveOptions) {
	t.Helper()
	o, err := parseServe(append([]string{"--data-dir", dir, "--admin-socket", "off"}, flags...), func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	in, err := openInstance(o, testLogger())
	if err != nil {
		t.Fatal(err)
	}
	return in, o
}

// The attack: --admin-socket pointed at the database file deleted the
// live database (a stale socket is removed at start).
func TestAdminSocketPathThatIsNotASocketIsRefused(t *testing.T) {
	dir, path := usedDataDir(t)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	o, err := parseServe([]string{"--data-dir", dir, "--admin-socket", path}, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if in, err := openInstance(o, testLogger()); err == nil {
		_ = in.close(5 * time.Second)
		t.Fatal("the server started with its admin socket at the database file")
	} else if !strings.Contains(err.Error(), "not a socket") || !strings.Contains(err.Error(), path) {
		t.Errorf("refusal %q does not say what is wrong where", err)
	}
	after, err := os.ReadFile(path)
	if err != nil || string(after) != string(before) {
		t.Fatalf("the database changed or went: %v", err)
	}
}

// healthzEnv tells a re-executed test binary to run the instance of
// TestHealthzFollowsFailingWrites in this data directory.
const healthzEnv = "CODEBREAKERS_HEALTHZ_DATA_DIR"

// TestHelperHealthz is not a test on its own: it runs an instance with
// metrics, then forbids itself to write any file (RLIMIT_FSIZE 0, which
// binds root too) as a full disk would, and prints what /healthz answers
// before, while writes fail, and once they may succeed again.
func TestHelperHealthz(t *testing.T) {
	dir := os.Getenv(healthzEnv)
	if dir == "" {
		t.Skip("helper process for TestHealthzFollowsFailingWrites")
	}
	in, _ := startInstanceNoCleanup(t, dir, "--metrics-addr", "127.0.0.1:0")
	defer in.close(5 * time.Second)
	url := "http://" + in.ops.metricsAddr + "/healthz"
	report := func(when string) {
		code, body := httpGet(t, url)
		fmt.Printf("%s %d %s\n", when, code, strings.TrimSpace(body))
	}
	report("before")
	signal.Ignore(syscall.SIGXFSZ) // get EFBIG from write(2) instead of dying
	var saved syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &saved); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 0, Max: saved.Max}); err != nil {
		t.Fatal(err)
	}
	if _, err := in.db.ClaimHandle("SHA256:ann", "Ann"); err == nil {
		t.Fatal("a write succeeded under RLIMIT_FSIZE 0")
	}
	report("failing")
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &saved); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(waitLimit)
	for {
		code, _ := httpGet(t, url)
		if code == 200 || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond) // the store probes a write every few seconds
	}
	report("recovered")
}

// The attack: /healthz answered 200 while every write failed with "no
// space left" (11,394 errors logged); the RUNBOOK promised 503.
func TestHealthzFollowsFailingWrites(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHealthz$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), healthzEnv+"="+dataDir(t))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	got := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if when, rest, ok := strings.Cut(line, " "); ok {
			got[when] = rest
		}
	}
	if !strings.HasPrefix(got["before"], "200 ok") {
		t.Errorf("before: %q", got["before"])
	}
	if f := got["failing"]; !strings.HasPrefix(f, "503 ") || !strings.Contains(f, "writes to") || !strings.Contains(f, "file too large") {
		t.Errorf("while writes fail: %q, want 503 with the failure\n%s", f, out)
	}
	if !strings.HasPrefix(got["recovered"], "200 ok") {
		t.Errorf("once writes work again: %q\n%s", got["recovered"], out)
	}
}

// chatLines is the chat a hub Conn sees, one "handle: text" per line.
func chatLines(c *lobby.Conn) string {
	var b strings.Builder
	for _, l := range c.View().Chat {
		b.WriteString(string(l.Handle + ": " + l.Text + "\n"))
	}
	return b.String()
}

// waitChat waits until ok holds for what c sees in chat.
func waitChat(t *testing.T, c *lobby.Conn, what string, ok func(string) bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !ok(chatLines(c)) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; chat:\n%s", what, chatLines(c))
		}
		select {
		case <-c.Updates():
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// guestSays opens a session on c watching the table, says each line in
// chat and leaves; it returns what the guest's screen showed last.
func guestSays(t *testing.T, c *gossh.Client, code string, lines ...string) string {
	t.Helper()
	tm := openTerm(t, c, "guest", 100, 30, "watch "+code)
	tm.waitFor(lobby.FormatCode(code))
	for _, l := range lines {
		tm.send("c")
		tm.send(l, keyEnter)
	}
	defer tm.sess.Close()
	if len(lines) == 0 {
		return tm.screen()
	}
	said := regexp.MustCompile(`guest-\w+: ` + regexp.QuoteMeta(lines[len(lines)-1])) // in the chat, not the input box
	return tm.waitUntil("the last line said or refused", func(s string) bool {
		return said.MatchString(s) || strings.Contains(s, "too fast")
	})
}

// The attack: 331 chat lines in 21 s reached another player's screen, each
// from a new guest-xxx handle on one connection, each under the limit of 20
// a minute per account.
func TestChatFloodFromGuestsOnOneConnectionIsStopped(t *testing.T) {
	in, addr := startInstance(t, dataDir(t))
	host, code := hostTable(t, in)
	flooder := dial(t, addr, asGuest())
	for i := range 10 {
		a, b := fmt.Sprintf("spam%02da", i), fmt.Sprintf("spam%02db", i)
		guestSays(t, flooder, code, a, b)
		waitChat(t, host, b, func(s string) bool { return strings.Contains(s, b) })
	}
	if s := guestSays(t, flooder, code, "spam-too-many"); !strings.Contains(s, "too fast") {
		t.Errorf("the 21st line in a minute from one connection, from a new guest, was not refused:\n%s", s)
	}
	if s := guestSays(t, dial(t, addr, asGuest()), code, "spam-new-connection"); !strings.Contains(s, "too fast") {
		t.Errorf("a new connection from the same address was not refused:\n%s", s)
	}
	if n := strings.Count(chatLines(host), "spam"); n != 20 {
		t.Errorf("the host saw %d lines, want the 20 allowed:\n%s", n, chatLines(host))
	}
}

// The attack: /mute silenced a handle, and the muted guest came back under
// a new guest handle on the same connection.
func TestMuteFollowsAGuestToItsNextSession(t *testing.T) {
	in, addr := startInstance(t, dataDir(t))
	host, code := hostTable(t, in)
	other, err := in.hub.Watch(lobby.Identity{Account: "SHA256:cy", Handle: "cy"}, code)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Leave()
	pest := dial(t, addr, asGuest())
	guestSays(t, pest, code, "first spam")
	waitChat(t, host, "the first line", func(s string) bool { return strings.Contains(s, "first spam") })
	handle := host.View().Chat[len(host.View().Chat)-1].Handle
	if err := host.Chat("/mute " + handle.String()); err == nil || !strings.Contains(err.Error(), "Muted") {
		t.Fatalf("/mute %s: %v", handle, err)
	}
	guestSays(t, pest, code, "second spam")
	waitChat(t, other, "the second line", func(s string) bool { return strings.Contains(s, "second spam") })
	if s := chatLines(host); strings.Contains(s, "spam") {
		t.Errorf("the host muted %s but sees its connection's next guest:\n%s", handle, s)
	}
}

// The attack: Quick play, leave, Quick play, leave... Each round opened a
// table that dealt a game, kept a live log, ran its bots and was held in
// play for the grace period (a minute) before it was abandoned: one
// scripted guest opened 30 tables in 37 seconds, and a new guest on the
// same connection starts afresh. Tables opened are metered per account
// and per connection (3 a minute here): the next Quick play says why it
// did not deal, opens nothing, and the menu carries on.
func TestQuickPlayFloodIsLimitedOverSSH(t *testing.T) {
	const limit = 3
	in, addr := startInstance(t, dataDir(t), "--tables-per-minute", fmt.Sprint(limit))
	c := dial(t, addr, asGuest())
	var last *term
	for i := range limit + 1 {
		if last != nil {
			_ = last.sess.Close() // a new session, a new guest, the same connection
		}
		last = openTerm(t, c, fmt.Sprintf("guest %d", i+1), termW, termH, "")
		last.waitFor("Quick play")
		last.send(keyEnter) // Quick play
		last.waitFor("which game?")
		last.send(keyEnter) // Break the Code
		last.waitFor("how strong are the bots?")
		last.send(keyEnter) // the level suggested
		if i == limit {
			last.waitFor("opened a lot of tables")
			break
		}
		last.waitFor("Your turn")
		last.send(keyEsc)
		last.waitFor("Leave this game?")
		last.send("y")
		last.waitFor("Back to your game")
	}
	if _, tables := in.hub.Online(); tables != limit {
		t.Errorf("%d tables open after the refusal, want the %d opened before it", tables, limit)
	}
	last.send(keyEsc)
	last.waitFor("Quick play", "Play people") // the menu still works
}

// dialFrom is dial from a chosen local address: 127.0.0.2 reaches a
// server on 127.0.0.1 as another client address would.
func dialFrom(t *testing.T, local, addr string, auth gossh.AuthMethod) *gossh.Client {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: waitLimit}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial %s from %s: %v", addr, local, err)
	}
	cc, chans, reqs, err := gossh.NewClientConn(conn, addr, &gossh.ClientConfig{
		User: "tester", Auth: []gossh.AuthMethod{auth}, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: waitLimit,
	})
	if err != nil {
		_ = conn.Close()
		t.Fatalf("ssh from %s: %v", local, err)
	}
	c := gossh.NewClient(cc, chans, reqs)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// The attack: keys cost nothing, so one person seeks a rated game with two
// of them at once and throws it with one to lift the other's rating. Two
// keys from one address are never paired in a rated game (each is told the
// other seeks from the same address); a key from another address is.
func TestRatedPairsFromOneAddressOverSSH(t *testing.T) {
	in, addr := startInstance(t, dataDir(t))
	main := openTerm(t, dial(t, addr, withKey(newKey(t))), "main", termW, termH, "")
	register(main, "main")
	seekPeople(main, 1)
	waitSeeking(t, in, 1)
	puppet := openTerm(t, dial(t, addr, withKey(newKey(t))), "puppet", termW, termH, "")
	register(puppet, "puppet")
	seekPeople(puppet, 1)
	waitSeeking(t, in, 2)
	puppet.waitFor("Also seeking: main", "same address as you")
	main.waitFor("Also seeking: puppet", "same address as you")
	_ = puppet.sess.Close()
	waitSeeking(t, in, 1)

	other := openTerm(t, dialFrom(t, "127.0.0.2", addr, withKey(newKey(t))), "other", termW, termH, "")
	register(other, "other")
	seekPeople(other, 1)
	if s := waitGame(other); !strings.Contains(s, "main") {
		t.Fatalf("a key from another address is not seated with main:\n%s", s)
	}
	waitGame(main)
}

// The attack: the puzzle of the day names the player about to move, whose
// profile lists the game, and `replay ID` printed that game with its
// analysis, the best move at every step: the answer, and a place among the
// day's solvers, for three commands. The game is withheld from a key until
// it has answered (over exec and in the arcade) and from guests all day;
// once answered, it replays.
func TestPuzzleGameIsNotReplayedBeforeTheAnswerOverSSH(t *testing.T) {
	dir := dataDir(t)
	finishedYesterday(t, dir, 4)
	_, addr := startInstance(t, dir)
	solved, _, status := execRun(t, dial(t, addr, withKey(newKey(t))), "puzzle breakcode 1")
	m := regexp.MustCompile(`From game (\w+), move`).FindStringSubmatch(solved)
	if status != 0 || m == nil {
		t.Fatalf("an answer names no game (exit %d):\n%s", status, solved)
	}
	id := m[1]
	const withheld = "is today's Break the Code puzzle"
	cheat := newKey(t)
	out, errOut, status := execRun(t, dial(t, addr, withKey(cheat)), "replay "+id)
	if status == 0 || !strings.Contains(errOut, withheld) || strings.Contains(out, "Result:") {
		t.Fatalf("replay of today's puzzle game before the answer (exit %d):\n%s%s", status, out, errOut)
	}
	if out, errOut, status := execRun(t, dial(t, addr, asGuest()), "replay "+id); status == 0 || !strings.Contains(errOut, withheld) {
		t.Fatalf("a guest's replay of today's puzzle game (exit %d):\n%s%s", status, out, errOut)
	}
	arcade := openTerm(t, dial(t, addr, asGuest()), "guest", termW, termH, "replay "+id)
	arcade.waitFor("today's Break the Code", "puzzle")
	if _, _, status := execRun(t, dial(t, addr, withKey(cheat)), "puzzle breakcode 2"); status != 0 {
		t.Fatalf("the answer: exit %d", status)
	}
	if out, errOut, status := execRun(t, dial(t, addr, withKey(cheat)), "replay "+id); status != 0 || !strings.Contains(out, "Result:") {
		t.Fatalf("replay once answered (exit %d):\n%s%s", status, out, errOut)
	}
}

// The attack: change handle, change it again... Each change is a write to
// the database every move waits on, and frees one handle and takes
// another: one session made a hundred in twelve seconds. Changes are
// metered per account, connection and address (five a minute): the next
// says why and keeps the handle.
func TestHandleChangesAreLimitedOverSSH(t *testing.T) {
	_, addr := startInstance(t, dataDir(t))
	tm := openTerm(t, dial(t, addr, withKey(newKey(t))), "renamer", termW, termH, "")
	register(tm, "renamer")
	openHomeItem(tm, "My profile")
	tm.waitFor("PROFILE · renamer")
	for i := 1; ; i++ {
		tm.send("e")
		tm.waitFor("CHANGE HANDLE")
		tm.send("\x15" + fmt.Sprintf("name%d", i) + keyEnter) // ctrl+u clears the field
		s := tm.waitUntil("the change or its refusal", func(s string) bool {
			return strings.Contains(s, fmt.Sprintf("PROFILE · name%d ", i)) || strings.Contains(s, "changed your handle a lot")
		})
		if strings.Contains(s, "changed your handle a lot") {
			if i != 6 {
				t.Fatalf("change %d refused, want the sixth:\n%s", i, s)
			}
			break
		}
		if i > 6 {
			t.Fatalf("%d handle changes in a row went through", i)
		}
	}
	tm.send(keyEsc)
	tm.waitFor("PROFILE · name5 ") // the handle stays the last one taken
}

// The attack: keys are free, and each new key's first handle makes an
// account that keeps its handle for good; a script minting keys from one
// address could squat tens of thousands of handles a day. Claims are
// metered per address (here 6 an hour, so 2 a minute): the third new key
// from loopback is told why and keeps its screen, the handle unclaimed.
func TestNewHandlesFromOneAddressAreLimitedOverSSH(t *testing.T) {
	_, addr := startInstance(t, dataDir(t), "--new-handles-per-hour", "6")
	for _, handle := range []string{"first", "second"} {
		tm := openTerm(t, dial(t, addr, withKey(newKey(t))), handle, termW, termH, "")
		register(tm, handle)
		tm.waitFor("Quick play")
	}
	tm := openTerm(t, dial(t, addr, withKey(newKey(t))), "third", termW, termH, "")
	register(tm, "squatter")
	s := tm.waitFor("Many new players have chosen handles from your address")
	if !strings.Contains(s, "Choose a handle") || strings.Contains(s, "Quick play") {
		t.Fatalf("the refusal left the handle screen:\n%s", s)
	}
}
