package main

import (
	"bufio"
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/internal/seen"
	bc "github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/lobby"
)

// The playing sessions' measurement: how many tables play before the
// measurement starts (so that what is built once, on first use, is not
// counted per session), how many are measured, how often one has a
// spectator (every fifth, as the load test's 400 at 2,000 tables), how
// many questions each person asks before the heap is read, and the
// window (the load test's).
const (
	scanWarmTables = 2
	scanTables     = 20
	scanWatchEvery = 5
	scanAsks       = 3
	scanW, scanH   = 100, 30
)

// Environment of the measurement's client process (the test binary run
// again): the server's address and the tables' join codes.
const (
	scanClientsEnv = "CB_SCANHEAP_CLIENTS"
	scanCodesEnv   = "CB_SCANHEAP_CODES"
	// scanDumpEnv names a directory: the measurement writes a heap
	// profile and heap dumps of every object there, with every allocation
	// sampled, and logs the sites that grew most.
	scanDumpEnv = "CB_SCANHEAP_DUMP"
)

// maxScanPerSession bounds the heap a collection scans per playing session
// (the load test's play read 40.9 KB at 2,000 tables; this measurement
// read 35.5 KB before the cuts of issue 20's sixteenth reading). A bound
// with room, to catch a per-session holder of pointers coming back, not a
// figure to tune to.
const maxScanPerSession = 48 << 10

// TestPlayingSessionScanHeap holds Break the Code tables in play over real
// SSH — two people and a strong bot with the aid at each, a spectator at
// every fifth — and reads, after a collection, what the server keeps for
// them per session: the heap a collection scans (the part of the heap
// that holds pointers, which with the objects is what marking costs), the
// live heap, its objects, and the goroutine stacks scanned. The clients
// run in a process of their own (this test binary again), so the figures
// are the server's alone. It fails when the scanned heap per session goes
// over maxScanPerSession. With CB_SCANHEAP_DUMP=dir it also writes where
// that heap was allocated (see scanDumpEnv).
func TestPlayingSessionScanHeap(t *testing.T) {
	if addr := os.Getenv(scanClientsEnv); addr != "" {
		playScanClients(t, addr, strings.Split(os.Getenv(scanCodesEnv), ","))
		return
	}
	if testing.Short() {
		t.Skip("holds 44 sessions over SSH")
	}
	dumpDir := os.Getenv(scanDumpEnv)
	if dumpDir != "" {
		runtime.MemProfileRate = 1
		defer func() { runtime.MemProfileRate = 512 * 1024 }()
	}
	in, addr := startInstance(t, dataDir(t), "--max-sessions-per-ip", "1000", "--connections-per-minute", "100000")
	codes := make([]string, scanWarmTables+scanTables)
	sessions := 0
	for i := range codes {
		claim := func(name string) lobby.Identity {
			fp := fingerprint(scanKey(t, name))
			if _, err := in.db.ClaimHandle(fp, name); err != nil {
				t.Fatal(err)
			}
			return lobby.Identity{Account: fp, Handle: name, Addr: "127.0.0.1"}
		}
		host, err := in.hub.Create(claim(fmt.Sprintf("h%d", i)), lobby.TableSpec{Game: bc.ID, Seats: 3, Bots: 1, BotLevel: bc.LevelStrong})
		if err != nil {
			t.Fatal(err)
		}
		codes[i] = host.View().Code
		guest, err := in.hub.Join(claim(fmt.Sprintf("g%d", i)), codes[i])
		if err != nil {
			t.Fatal(err)
		}
		if err := guest.SetReady(true); err != nil {
			t.Fatal(err)
		}
		if err := host.Start(); err != nil {
			t.Fatal(err)
		}
		host.Leave() // the seats wait for their people's SSH sessions
		guest.Leave()
		if i >= scanWarmTables {
			sessions += 2
		}
		if i%scanWatchEvery == 0 {
			claim(fmt.Sprintf("s%d", i))
			if i >= scanWarmTables {
				sessions++
			}
		}
	}

	cmd := exec.Command(os.Args[0], "-test.run=^TestPlayingSessionScanHeap$", "-test.count=1", "-test.timeout=10m")
	cmd.Env = append(os.Environ(), scanClientsEnv+"="+addr, scanCodesEnv+"="+strings.Join(codes, ","), scanDumpEnv+"=")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	})
	lines := bufio.NewScanner(stdout)
	settle := func() {
		t.Helper()
		var said []string
		for lines.Scan() && lines.Text() != scanSettled {
			said = append(said, lines.Text())
		}
		if lines.Text() != scanSettled {
			t.Fatalf("the clients did not settle:\n%s\n%s", strings.Join(said, "\n"), stderr.String())
		}
	}
	settle() // the warm-up tables
	base := heapMetrics()
	var before heapSites
	if dumpDir != "" {
		if before, err = writeHeapSites(filepath.Join(dumpDir, "before.heapdump")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := io.WriteString(stdin, "go\n"); err != nil {
		t.Fatal(err)
	}
	settle()
	go func() { _, _ = io.Copy(io.Discard, stdout) }()

	held := heapMetrics()
	per := func(a, b uint64) float64 { return (float64(a) - float64(b)) / float64(sessions) }
	scan := per(held.scan, base.scan)
	t.Logf("%d sessions at %d tables, each person asked %d questions: per session scans heap %.1f KB, stacks %.1f KB; live heap %.1f KB, %.0f objects, %.1f goroutines",
		sessions, scanTables, scanAsks, scan/1024, per(held.stack, base.stack)/1024,
		per(held.live, base.live)/1024, per(held.objects, base.objects), per(held.goroutines, base.goroutines))
	if dumpDir != "" {
		writeScanReport(t, dumpDir, before, sessions)
	}
	if scan > maxScanPerSession {
		t.Errorf("a playing session has the collector scan %.1f KB of heap, over the bound of %d KB", scan/1024, maxScanPerSession>>10)
	}
}

// scanSettled is the client process's word that every table is settled.
const scanSettled = "scanheap: settled"

// heapFigures are the runtime's figures after a collection.
type heapFigures struct{ scan, stack, live, objects, goroutines uint64 }

// heapMetrics collects garbage twice and reads what the collector scans.
func heapMetrics() heapFigures {
	runtime.GC()
	runtime.GC()
	s := []metrics.Sample{
		{Name: "/gc/scan/heap:bytes"},
		{Name: "/gc/scan/stack:bytes"},
		{Name: "/gc/heap/live:bytes"},
		{Name: "/gc/heap/objects:objects"},
		{Name: "/sched/goroutines:goroutines"},
	}
	metrics.Read(s)
	return heapFigures{s[0].Value.Uint64(), s[1].Value.Uint64(), s[2].Value.Uint64(), s[3].Value.Uint64(), s[4].Value.Uint64()}
}

// writeScanReport writes the heap profile and the heap dump after play
// into dir and logs the allocation sites whose scanned heap grew most
// since before.
func writeScanReport(t *testing.T, dir string, before heapSites, sessions int) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "play.heap"))
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	g, err := os.Create(filepath.Join(dir, "play.goroutines"))
	if err != nil {
		t.Fatal(err)
	}
	if err := pprof.Lookup("goroutine").WriteTo(g, 1); err != nil {
		t.Fatal(err)
	}
	_ = g.Close()
	after, err := writeHeapSites(filepath.Join(dir, "play.heapdump"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var scan, noscan, objects int64
	grown := after.growth(before)
	for _, g := range grown {
		scan, noscan, objects = scan+g.scan, noscan+g.noscan, objects+g.objects
	}
	fmt.Fprintf(&b, "per session, by allocation site: scanned B, unscanned B, objects (all sites: %d, %d, %d)\n", scan/int64(sessions), noscan/int64(sessions), objects/int64(sessions))
	for _, g := range grown[:min(len(grown), 100)] {
		fmt.Fprintf(&b, "%8d %8d %6.1f  %s\n", g.scan/int64(sessions), g.noscan/int64(sessions), float64(g.objects)/float64(sessions), g.site)
	}
	if err := os.WriteFile(filepath.Join(dir, "sites.txt"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Log(b.String())
}

// scanKey is the key of a measured person or spectator, the same in the
// test and its client process.
func scanKey(t testing.TB, name string) gossh.Signer {
	t.Helper()
	seed := sha256.Sum256([]byte("scanheap " + name))
	s, err := gossh.NewSignerFromKey(ed25519.NewKeyFromSeed(seed[:]))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// playScanClients is the client process of TestPlayingSessionScanHeap:
// it signs in every table's people (who resume their seats) and
// spectators, has each person ask scanAsks questions when their screen
// shows their turn, says scanSettled once every table waits on a person
// who has asked them all, and holds the sessions until its input closes.
func playScanClients(t *testing.T, addr string, codes []string) {
	in := bufio.NewReader(os.Stdin)
	for _, tables := range [][2]int{{0, scanWarmTables}, {scanWarmTables, len(codes)}} {
		playScanTables(t, addr, codes, tables[0], tables[1])
		fmt.Println(scanSettled)
		if _, err := in.ReadString('\n'); err != nil {
			return // the measurement is over
		}
	}
}

// playScanTables opens the sessions of tables from to to and plays
// them until they are settled.
func playScanTables(t *testing.T, addr string, codes []string, from, to int) {
	type person struct {
		tm   *term
		asks int
		// asked is the turn of the last question asked.
		asked int
	}
	var people []*person
	var watchers []*term
	for i := from; i < to; i++ {
		code := codes[i]
		for _, name := range []string{fmt.Sprintf("h%d", i), fmt.Sprintf("g%d", i)} {
			people = append(people, &person{tm: openTerm(t, dial(t, addr, withKey(scanKey(t, name))), name, scanW, scanH, "")})
		}
		if i%scanWatchEvery == 0 {
			name := fmt.Sprintf("s%d", i)
			watchers = append(watchers, openTerm(t, dial(t, addr, withKey(scanKey(t, name))), name, scanW, scanH, "watch "+code))
		}
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		waiting := 0 // tables whose turn is a person's who asked every question, or whose game is over
		var stuck []string
		for i := 0; i < len(people); i += 2 {
			finished := 0
			for _, p := range people[i : i+2] {
				s := p.tm.screen()
				turn, ok := seen.Turn(s)
				switch {
				case strings.Contains(seen.Title(s), "finished"):
					finished++
				case !ok || !strings.Contains(seen.Title(s), "your turn"):
				case p.asks == scanAsks:
					waiting++
				case turn != p.asked:
					p.tm.send(keyEnter)
					p.asks++
					p.asked = turn
				default:
					stuck = append(stuck, p.tm.name+":\n"+s)
				}
			}
			if finished == 2 {
				waiting++
			}
		}
		if waiting == to-from {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tables did not settle within 2 minutes (%d of %d); still on their turn:\n%s", waiting, to-from, strings.Join(stuck, "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, w := range watchers {
		w.waitUntil("the table", func(s string) bool { return strings.Contains(seen.Title(s), "BREAK THE CODE") })
	}
	time.Sleep(time.Second) // the last frames reach every screen
}
