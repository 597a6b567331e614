package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/codebreakers/codebreakers/lobby"
)

// BenchmarkIdleSessionHeap opens interactive guest sessions on the real UI
// (home screen, 80×24) and reports the heap each one holds while idle, the
// part of it a collection scans and its objects. The clients live in the
// same process, so the figures include their SSH state (but no terminal
// emulator).
func BenchmarkIdleSessionHeap(b *testing.B) {
	_, addr := startInstance(b, dataDir(b), "--max-sessions-per-ip", "1000", "--connections-per-minute", "100000")
	const sessions = 20
	guest := gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })
	var perSession, scan, objects float64
	for b.Loop() {
		before := heapNow()
		clients := make([]*gossh.Client, 0, sessions)
		for i := range sessions {
			c := dial(b, addr, guest)
			clients = append(clients, c)
			openRaw(b, c, fmt.Sprintf("guest%d", i))
		}
		after := heapNow()
		perSession = float64(after.bytes-before.bytes) / sessions
		scan = float64(after.scan-before.scan) / sessions
		objects = float64(after.objects-before.objects) / sessions
		for _, c := range clients {
			_ = c.Close()
		}
	}
	b.ReportMetric(perSession/1024, "KiB-heap/session")
	b.ReportMetric(scan/1024, "KiB-scan/session")
	b.ReportMetric(objects, "objs/session")
}

// heapUse is the live heap just after a collection: its bytes, the bytes
// a collection scans of it (the part that holds pointers), and its
// objects. The latter two are what marking costs.
type heapUse struct{ bytes, scan, objects int64 }

// heapNow is the heap in use after two collections (as liveHeap).
func heapNow() heapUse {
	runtime.GC()
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/scan/heap:bytes"}}
	metrics.Read(sample)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return heapUse{bytes: int64(ms.HeapAlloc), scan: int64(sample[0].Value.Uint64()), objects: int64(ms.HeapObjects)}
}

// rawOut collects output bytes for a quick text search.
type rawOut struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (r *rawOut) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.Write(p)
}

func (r *rawOut) has(s string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Contains(r.buf.String(), s)
}

// openRaw opens an 80×24 shell and waits for the home screen, keeping no
// terminal emulator.
func openRaw(b *testing.B, c *gossh.Client, name string) {
	b.Helper()
	openRawIn(b, c, name)
}

// openRawIn is openRaw, returning the session's keyboard.
func openRawIn(b *testing.B, c *gossh.Client, name string) io.Writer {
	b.Helper()
	sess, err := c.NewSession()
	if err != nil {
		b.Fatal(err)
	}
	in, err := sess.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out := &rawOut{}
	sess.Stdout = out
	if err := sess.RequestPty("xterm-256color", 24, 80, nil); err != nil {
		b.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		b.Fatal(err)
	}
	deadline := time.Now().Add(waitLimit)
	for !out.has("Quick play") {
		if time.Now().After(deadline) {
			b.Fatalf("%s: no home screen", name)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return in
}

// BenchmarkIdleSessionCPU opens interactive guest sessions on the real UI,
// leaves them idle on the home screen, and reports the process CPU time
// they cost per session per second of wall time.
func BenchmarkIdleSessionCPU(b *testing.B) {
	_, addr := startInstance(b, dataDir(b), "--max-sessions-per-ip", "1000", "--connections-per-minute", "100000")
	const sessions = 50
	guest := gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })
	for i := range sessions {
		openRaw(b, dial(b, addr, guest), fmt.Sprintf("guest%d", i))
	}
	var cpu, wall time.Duration
	for b.Loop() {
		start, t0 := cpuTime(b), time.Now()
		time.Sleep(time.Second)
		cpu += cpuTime(b) - start
		wall += time.Since(t0)
	}
	b.ReportMetric(float64(cpu.Microseconds())/wall.Seconds()/sessions, "cpu-µs/session/s")
}

// BenchmarkHomeWhileTablesChange is what keeping home's counts live costs:
// 50 guest sessions idle on home (or, for comparison, on the rules menu),
// with the lobby quiet or while a table opens and closes every 50 ms
// elsewhere on the server. It reports the process CPU time per session per
// second of wall time, the table churn included.
//
//	go test -run XXX -bench HomeWhileTablesChange -benchtime 5x ./cmd/codebreakers/
func BenchmarkHomeWhileTablesChange(b *testing.B) {
	for _, c := range []struct {
		where string
		churn bool
	}{{"home", false}, {"elsewhere", false}, {"home", true}, {"elsewhere", true}} {
		where := c.where
		name := where + "/quiet"
		if c.churn {
			name = where + "/churn"
		}
		b.Run(name, func(b *testing.B) {
			// The churn opens a table every 50 ms from one account.
			in, addr := startInstance(b, dataDir(b), "--max-sessions-per-ip", "1000", "--connections-per-minute", "100000",
				"--tables-per-minute", "100000")
			const sessions = 50
			guest := gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })
			for i := range sessions {
				keys := openRawIn(b, dial(b, addr, guest), fmt.Sprintf("guest%d", i))
				if where == "elsewhere" {
					_, _ = io.WriteString(keys, "G"+"k"+"\r") // end, up: How to play
				}
			}
			stop := make(chan struct{})
			churned := make(chan struct{})
			go func() {
				defer close(churned)
				host := lobby.Identity{Account: "SHA256:churn", Handle: "churn"}
				for c.churn {
					select {
					case <-stop:
						return
					case <-time.After(50 * time.Millisecond):
					}
					c, err := in.hub.Create(host, lobby.TableSpec{Game: "breakcode", Seats: 2})
					if err == nil {
						c.Leave()
					}
				}
			}()
			time.Sleep(time.Second) // the sessions settle where they are
			var cpu, wall time.Duration
			for b.Loop() {
				start, t0 := cpuTime(b), time.Now()
				time.Sleep(time.Second)
				cpu += cpuTime(b) - start
				wall += time.Since(t0)
			}
			close(stop)
			<-churned
			b.ReportMetric(float64(cpu.Microseconds())/wall.Seconds()/sessions, "cpu-µs/session/s")
		})
	}
}

func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSeekArrivals is matchmaking under load, in process on the real
// games and a real data dir: 1,000 key accounts arrive at 50 per second,
// spread over the four games (Break the Code, The Coding and If Then for
// two players, What the Rule?! for any number), each seated as soon as a
// partner arrives. Every game dealt is stored, as in play. It reports the
// seeker's wait until seated (p50, p99) and the CPU the process used.
//
//	go test -run XXX -bench SeekArrivals -benchtime 1x ./cmd/codebreakers/
func BenchmarkSeekArrivals(b *testing.B) {
	const seekers, perSecond = 1000, 50
	games := []struct {
		id      string
		players int
	}{{"breakcode", 2}, {"coding", 2}, {"ifthen", 2}, {"whattherule", 0}}
	for b.Loop() {
		in, _ := startInstance(b, dataDir(b))
		var ru0 syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
		began := time.Now()
		waits := make([]time.Duration, seekers)
		var wg sync.WaitGroup
		for i := range seekers {
			if d := time.Until(began.Add(time.Duration(i) * time.Second / perSecond)); d > 0 {
				time.Sleep(d)
			}
			g := games[i%len(games)]
			id := lobbyIdentity(i)
			arrived := time.Now()
			s, err := in.hub.Seek(id, seekSpec(g.id, g.players))
			if err != nil {
				b.Fatalf("seek %d: %v", i, err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				deadline := time.After(time.Minute)
				for s.Conn() == nil {
					select {
					case <-s.Updates():
					case <-deadline:
						b.Errorf("seeker %d never seated: %+v", i, s.Status())
						return
					}
				}
				waits[i] = time.Since(arrived)
			}()
		}
		wg.Wait()
		var ru1 syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		wall := time.Since(began)
		cpu := time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) * time.Nanosecond
		sortDurations(waits)
		b.ReportMetric(float64(waits[len(waits)/2].Microseconds())/1000, "p50-wait-ms")
		b.ReportMetric(float64(waits[len(waits)*99/100].Microseconds())/1000, "p99-wait-ms")
		b.ReportMetric(cpu.Seconds()/wall.Seconds()*100, "cpu-%-of-one-core")
		b.ReportMetric(float64(len(in.hub.Seeking())), "left-seeking")
	}
}
