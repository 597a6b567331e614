package loadtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// clockTick is the kernel's USER_HZ, the unit of utime and stime in
// /proc/<pid>/stat. It is 100 on every Linux this runs on.
const clockTick = 10 * time.Millisecond

// procStats is a process's resident memory and the CPU it has used.
type procStats struct {
	RSS int64         // bytes
	CPU time.Duration // user + system
}

// readProc reads /proc/<pid>/status (VmRSS) and /proc/<pid>/stat (utime, stime).
func readProc(pid int) (procStats, error) {
	var st procStats
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return st, fmt.Errorf("read process status: %w", err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return st, fmt.Errorf("parse VmRSS %q: %w", line, err)
			}
			st.RSS = kb * 1024
		}
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return st, fmt.Errorf("read process stat: %w", err)
	}
	// The command name (field 2) may hold spaces; fields count from after it.
	s := string(stat)
	end := strings.LastIndexByte(s, ')')
	if end < 0 {
		return st, errors.New("malformed /proc stat")
	}
	f := strings.Fields(s[end+1:])
	if len(f) < 13 {
		return st, errors.New("short /proc stat")
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return st, fmt.Errorf("parse cpu times: %w", err)
	}
	st.CPU = time.Duration(utime+stime) * clockTick
	return st, nil
}

// target is a server process under test.
type target struct {
	name        string
	addr        string
	metricsAddr string // "" when the target has no /metrics
	pprofAddr   string // "" when no profile is wanted
	cmd         *exec.Cmd
	logs        *tailBuffer
	exit        chan error
}

// startTarget runs bin with args (which must make it listen on addr) and
// env (nil: this process's environment), and waits until addr accepts
// connections.
func startTarget(ctx context.Context, name, addr, bin string, args, env []string, limit time.Duration) (*target, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	logs := &tailBuffer{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = logs, logs
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlive the generator
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	t := &target{name: name, addr: addr, cmd: cmd, logs: logs, exit: make(chan error, 1)}
	go func() { t.exit <- cmd.Wait() }()
	deadline := time.Now().Add(limit)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			_ = c.Close()
			return t, nil
		}
		select {
		case err := <-t.exit:
			return nil, fmt.Errorf("%s exited before listening: %v\n%s", name, err, logs.String())
		case <-ctx.Done():
			t.stop()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.stop()
			return nil, fmt.Errorf("%s did not listen on %s within %s", name, addr, limit)
		}
	}
}

func (t *target) pid() int { return t.cmd.Process.Pid }

// procID is t's process id, or 0 when t is not a process this generator
// started (a server in the test's own process).
func (t *target) procID() int {
	if t.cmd == nil || t.cmd.Process == nil {
		return 0
	}
	return t.cmd.Process.Pid
}

func (t *target) stats() (procStats, error) { return readProc(t.pid()) }

// alive reports an early exit of the target as an error.
func (t *target) alive() error {
	select {
	case err := <-t.exit:
		t.exit <- err
		return fmt.Errorf("%s exited: %v\n%s", t.name, err, t.logs.String())
	default:
		return nil
	}
}

// stop asks the target to end (SIGTERM), then kills it after a while.
func (t *target) stop() {
	_ = t.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-t.exit:
		t.exit <- err
	case <-time.After(15 * time.Second):
		_ = t.cmd.Process.Kill()
		t.exit <- <-t.exit
	}
}

// freeAddr finds a loopback port nobody listens on now.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// DeployGODEBUG is the GODEBUG deploy/codebreakers.service and the
// container image start the server with, so that a load test measures the
// server as it is deployed (a test in deploy keeps them the same).
// gcshrinkstackoff=1: the collector leaves goroutine stacks at the size
// they grew to. A session's goroutines grow their stacks drawing a frame
// and idle on a shallow one between moves; shrinking them at every
// collection and growing them again at the next move made the collections
// at 2,000 tables half as costly again and the keypress tail four times
// longer (BENCHMARKS.md, issue 20), for 16 KB a session kept.
const DeployGODEBUG = "gcshrinkstackoff=1"

// serverEnv is environ with godebug's settings added to its GODEBUG, the
// environment's own settings winning (the runtime reads GODEBUG left to
// right, the last setting of a name taking effect).
func serverEnv(environ []string, godebug string) []string {
	if godebug == "" {
		return environ
	}
	env := make([]string, 0, len(environ)+1)
	own := ""
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
			own = v
			continue
		}
		env = append(env, kv)
	}
	if own != "" {
		godebug += "," + own
	}
	return append(env, "GODEBUG="+godebug)
}

// godebugOf is the GODEBUG in env ("" if none).
func godebugOf(env []string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
			return v
		}
	}
	return ""
}

// tailBuffer keeps the last max bytes written, for error reports.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

// raiseFileLimit lifts the soft limit on open files to the hard limit:
// thousands of sessions need thousands of sockets, and the server process
// inherits the limit.
func raiseFileLimit() (uint64, error) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 0, fmt.Errorf("get open-file limit: %w", err)
	}
	rl.Cur = rl.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 0, fmt.Errorf("raise open-file limit: %w", err)
	}
	return rl.Cur, nil
}

// machineCPU reads the first line of /proc/stat: busy and total jiffies
// over every core since boot.
func machineCPU() (busy, total int64, err error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0, fmt.Errorf("read /proc/stat: %w", err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "cpu" {
		return 0, 0, errors.New("malformed /proc/stat")
	}
	for i, v := range f[1:] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("parse /proc/stat: %w", err)
		}
		total += n
		if i != 3 && i != 4 { // idle and iowait
			busy += n
		}
	}
	return busy, total, nil
}

// cpuMeter measures, between start and stop, how busy the whole machine
// was and how much CPU this generator used, so a reader can tell a slow
// server from a crowded machine.
type cpuMeter struct {
	busy, total int64
	self        procStats
	at          time.Time
}

func startCPUMeter() cpuMeter {
	var m cpuMeter
	m.busy, m.total, _ = machineCPU()
	m.self, _ = readProc(os.Getpid())
	m.at = time.Now()
	return m
}

// stop returns the machine's busy share (percent of all cores) and the
// generator's CPU (percent of one core) since start.
func (m cpuMeter) stop() (machineBusy, generator float64) {
	busy, total, err := machineCPU()
	if err == nil && total > m.total {
		machineBusy = 100 * float64(busy-m.busy) / float64(total-m.total)
	}
	if self, err := readProc(os.Getpid()); err == nil {
		generator = float64((self.CPU - m.self.CPU).Microseconds()) / time.Since(m.at).Seconds() / 1e4
	}
	return machineBusy, generator
}

// schedStat is what the kernel's scheduler counted for all of a
// process's threads (/proc/PID/task/*/schedstat): the time they ran, the
// time they waited runnable on a run queue for a CPU, and how many times
// they were put on one.
type schedStat struct {
	run, wait time.Duration
	slices    int64
}

// readSchedStat sums /proc/<pid>/task/*/schedstat. A thread that ends
// between two reads drops out of the later sum; Go's threads seldom end.
func readSchedStat(pid int) (schedStat, error) {
	var st schedStat
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return st, fmt.Errorf("read threads: %w", err)
	}
	for _, task := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, task.Name()))
		if err != nil {
			continue // the thread has ended
		}
		f := strings.Fields(string(b))
		if len(f) < 3 {
			return st, fmt.Errorf("malformed schedstat %q", b)
		}
		run, err1 := strconv.ParseInt(f[0], 10, 64)
		wait, err2 := strconv.ParseInt(f[1], 10, 64)
		slices, err3 := strconv.ParseInt(f[2], 10, 64)
		if err := errors.Join(err1, err2, err3); err != nil {
			return st, fmt.Errorf("parse schedstat: %w", err)
		}
		st.run += time.Duration(run)
		st.wait += time.Duration(wait)
		st.slices += slices
	}
	return st, nil
}

// RunQueue is how long a process's threads waited for a CPU while runnable
// over a stretch of the run, as the kernel counts it, beside how long they
// ran. A goroutine the Go scheduler runs at once still waits when its
// thread does: this is the wait behind other processes on the machine
// (and the process's own other threads), which the Go runtime's own
// scheduler latencies do not see.
type RunQueue struct {
	WaitMS float64 `json:"wait_ms"`
	RunMS  float64 `json:"run_ms"`
	// Slices is how many times a thread was put on a CPU; MeanWaitUS the
	// mean wait before each.
	Slices     int64   `json:"slices"`
	MeanWaitUS float64 `json:"mean_wait_us"`
}

// runQueueSince is what pid's threads waited and ran since before (nil
// when pid is 0 or its schedstat cannot be read).
func runQueueSince(pid int, before *schedStat) *RunQueue {
	if pid == 0 || before == nil {
		return nil
	}
	now, err := readSchedStat(pid)
	if err != nil {
		return nil
	}
	q := &RunQueue{WaitMS: ms(now.wait - before.wait), RunMS: ms(now.run - before.run), Slices: now.slices - before.slices}
	if q.Slices > 0 {
		q.MeanWaitUS = float64((now.wait - before.wait).Microseconds()) / float64(q.Slices)
	}
	return q
}

// schedStatOf reads pid's schedstat now (nil when pid is 0 or it cannot
// be read), to pass to runQueueSince later.
func schedStatOf(pid int) *schedStat {
	if pid == 0 {
		return nil
	}
	st, err := readSchedStat(pid)
	if err != nil {
		return nil
	}
	return &st
}

// String reads as "waited 12.3 ms for a CPU in 456 slices (mean 27 µs), ran 78.9 ms".
func (q *RunQueue) String() string {
	if q == nil {
		return "not read"
	}
	return fmt.Sprintf("waited %.1f ms for a CPU in %d slices (mean %.0f µs), ran %.1f ms", q.WaitMS, q.Slices, q.MeanWaitUS, q.RunMS)
}

// echoWaits records, around each timed echo, how long the threads of the
// server and of the client timing it waited on the kernel's run queue
// meanwhile: a slow echo during which neither waited for a CPU was slow
// for another reason. The reads are made before a key's clock starts and
// after its echo's stops, so they add nothing to the timings.
type echoWaits struct {
	server, client int
	// serverMS[i] and clientMS[i] are the waits during echo i (ms).
	serverMS, clientMS []float64
}

// newEchoWaits watches server's and client's threads (nil when server is
// 0: a server that is no process of its own has no threads to read).
func newEchoWaits(server, client int) *echoWaits {
	if server == 0 {
		return nil
	}
	return &echoWaits{server: server, client: client}
}

// before reads both processes before an echo; the reads go to after.
func (w *echoWaits) before() [2]*schedStat {
	if w == nil {
		return [2]*schedStat{}
	}
	return [2]*schedStat{schedStatOf(w.server), schedStatOf(w.client)}
}

// after records the waits since before, for an echo that was timed.
func (w *echoWaits) after(b [2]*schedStat) {
	if w == nil {
		return
	}
	wait := func(pid int, st *schedStat) float64 {
		if q := runQueueSince(pid, st); q != nil {
			return q.WaitMS
		}
		return -1
	}
	w.serverMS = append(w.serverMS, wait(w.server, b[0]))
	w.clientMS = append(w.clientMS, wait(w.client, b[1]))
}

// SlowEchoes splits the echoes slower than OverMS by whose threads
// waited on the kernel's run queue during them, at least WaitMS in all:
// the server's, the client's that timed them (the generator or the
// prober), both, or neither.
type SlowEchoes struct {
	OverMS float64 `json:"over_ms"`
	WaitMS float64 `json:"wait_ms"`
	N      int     `json:"n"`
	// Server and Client count the slow echoes during which that side
	// waited (Both is in each of them); Neither those during which none did.
	Server  int `json:"server_waited"`
	Client  int `json:"client_waited"`
	Both    int `json:"both_waited"`
	Neither int `json:"neither_waited"`
}

// slowEchoes is SlowEchoes of the echoes d (ms) with their waits.
func (w *echoWaits) slowEchoes(d []float64, overMS, waitMS float64) *SlowEchoes {
	if w == nil || len(w.serverMS) != len(d) {
		return nil
	}
	s := &SlowEchoes{OverMS: overMS, WaitMS: waitMS}
	for i, ms := range d {
		if ms <= overMS {
			continue
		}
		s.N++
		srv, cli := w.serverMS[i] >= waitMS, w.clientMS[i] >= waitMS
		switch {
		case srv && cli:
			s.Both++
			s.Server++
			s.Client++
		case srv:
			s.Server++
		case cli:
			s.Client++
		default:
			s.Neither++
		}
	}
	return s
}

// String reads as "12 over 5 ms: the server waited ≥1 ms for a CPU in 3, the client in 4 (both in 1), neither in 6".
func (s *SlowEchoes) String() string {
	if s == nil {
		return "waits not read"
	}
	return fmt.Sprintf("%d over %.0f ms: the server waited ≥%.0f ms for a CPU in %d, the client in %d (both in %d), neither in %d",
		s.N, s.OverMS, s.WaitMS, s.Server, s.Client, s.Both, s.Neither)
}
