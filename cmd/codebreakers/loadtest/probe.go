package loadtest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// The echo prober (`codebreakers loadtest echo`) times keypress echoes
// from a process of its own. The echoes the generator times itself are
// read by the process that also holds every other session, thousands of
// SSH clients with their goroutines, buffers, collector and scheduler;
// a real player's client is a small process of its own. The prober opens
// its players as the generator opens its echo players (a new key each,
// the same handle and onboarding), has them type the same keys in the
// same turns with the same timing (timePlayers), and writes what it
// timed as JSON on stdout, so that one run can set the two side by side
// and tell the server's tail from the generator's.

// automaticGCs counts the collections the runtime started by itself.
const automaticGCs = "/gc/cycles/automatic:gc-cycles"

// ErrUsage marks a command-line mistake in a loadtest subcommand, already
// explained on its error output.
var ErrUsage = errors.New("usage")

// ProbeOptions say what an echo prober times and where.
type ProbeOptions struct {
	// Addr is the server's SSH address, on loopback.
	Addr string
	// Players is how many sessions type; between them they type Samples
	// keys, one every Gap, each timed to its echo (as Config.EchoPlayers,
	// EchoSamples and EchoGap).
	Players, Samples int
	Gap              time.Duration
	// First numbers the first player's handle (idleFIRST, then on), so
	// that the prober's handles are not those of sessions the generator
	// holds.
	First int
	// Floor says the server is the floor (no handle to choose).
	Floor bool
	// VTEmulator reads the players' screens with x/vt's emulator.
	VTEmulator bool
	// StepTimeout bounds every wait for a screen.
	StepTimeout time.Duration
	// ServerPID, when set, is the server's process: the run-queue waits of
	// its threads and of the prober's during each echo are recorded.
	ServerPID int
	// Ready, when set, is called once the players are on their home
	// screens; timing starts when it returns (an error stops the probe).
	// Delay is a further pause before the first key.
	Ready func() error
	Delay time.Duration
}

// ProbeReport is what an echo prober timed, as it writes it on stdout.
type ProbeReport struct {
	// Players is how many of the sessions asked for reached their home
	// screen and typed.
	Players int     `json:"players"`
	Echo    Latency `json:"keypress_echo"`
	// SamplesMS is every echo timed, in the order typed.
	SamplesMS []float64 `json:"samples_ms"`
	// Failed counts the sessions that did not open and the keys whose
	// echo did not come; Errors keeps the first few.
	Failed int      `json:"failed"`
	Errors []string `json:"errors,omitempty"`
	// GCs is how many collections the prober's runtime started by itself
	// while timing: its collector is held off then, as the generator's is,
	// after one forced collection (not counted), so normally 0.
	GCs int `json:"gcs_while_echo_timed"`
	// CPUPercent is the prober's CPU while timing (percent of one core);
	// MachineBusy how busy all cores were meanwhile (percent).
	CPUPercent  float64 `json:"cpu_percent_of_core"`
	MachineBusy float64 `json:"machine_busy_percent_while_echo_timed"`
	// Procs is the prober's GOMAXPROCS.
	Procs int `json:"gomaxprocs"`
	// RunQueue is how long the prober's threads waited for a CPU while
	// timing.
	RunQueue *RunQueue `json:"run_queue,omitempty"`
	// With ProbeOptions.ServerPID: ServerWaitMS and OwnWaitMS are how long
	// the server's threads and the prober's waited for a CPU during each
	// echo (ms, in SamplesMS's order; -1 where unread), and Slow splits
	// the echoes over 5 ms by them.
	ServerWaitMS []float64   `json:"server_run_queue_wait_ms,omitempty"`
	OwnWaitMS    []float64   `json:"own_run_queue_wait_ms,omitempty"`
	Slow         *SlowEchoes `json:"slow_echoes,omitempty"`
}

// Probe opens o.Players sessions on o.Addr and times o.Samples keypress
// echoes between them. It fails only when no session could be opened;
// other failures are counted in the report.
func Probe(ctx context.Context, o ProbeOptions) (*ProbeReport, error) {
	if err := checkLoopback(o.Addr); err != nil {
		return nil, err
	}
	if o.Players <= 0 || o.Samples <= 0 {
		return nil, fmt.Errorf("echo prober: want players and samples above 0, have %d and %d", o.Players, o.Samples)
	}
	cfg := Config{EchoPlayers: o.Players, EchoSamples: o.Samples, EchoGap: o.Gap,
		StepTimeout: o.StepTimeout, VTEmulator: o.VTEmulator}.withDefaults()
	t := &target{name: "server", addr: o.Addr}
	open := serverOpener(cfg)
	if o.Floor {
		t.name, open = "floor", floorOpener(cfg)
	}
	var next atomic.Int64
	next.Store(int64(o.First) - 1)
	errs := &errorLog{}
	players := openPlayers(ctx, cfg, t, open, &next, errs)
	defer closeAll(players)
	if len(players) == 0 {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("echo prober: %w", err)
		}
		_, first := errs.count()
		return nil, fmt.Errorf("echo prober: no session of %d opened on %s (the first: %s)", o.Players, o.Addr, first[0])
	}
	if o.Ready != nil {
		if err := o.Ready(); err != nil {
			return nil, fmt.Errorf("echo prober: %w", err)
		}
	}
	release := holdCollector()
	defer release()
	sleep(ctx, o.Delay)
	gc0 := gcCycles(automaticGCs)
	meter, queue := startCPUMeter(), schedStatOf(os.Getpid())
	waits := newEchoWaits(o.ServerPID, os.Getpid())
	echo := timePlayers(ctx, cfg, players, errs, waits)
	busy, self := meter.stop()
	r := &ProbeReport{Players: len(players), Echo: echo.summary(), GCs: gcCycles(automaticGCs) - gc0,
		CPUPercent: self, MachineBusy: busy, Procs: runtime.GOMAXPROCS(0), RunQueue: runQueueSince(os.Getpid(), queue)}
	for _, d := range echo.all() {
		r.SamplesMS = append(r.SamplesMS, ms(d))
	}
	if waits != nil {
		r.ServerWaitMS, r.OwnWaitMS = waits.serverMS, waits.clientMS
		r.Slow = waits.slowEchoes(r.SamplesMS, slowEchoMS, slowWaitsMS)
	}
	r.Failed, r.Errors = errs.count()
	return r, ctx.Err()
}

// checkLoopback refuses an address that is not HOST:PORT on loopback:
// the load generator only ever dials loopback.
func checkLoopback(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("echo prober: address %q: want HOST:PORT on loopback, e.g. 127.0.0.1:2222", addr)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return fmt.Errorf("echo prober: address %q: port %q is not a number from 0 to 65535", addr, port)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("echo prober: address %q: the load generator dials loopback only (127.0.0.1, ::1 or localhost)", addr)
	}
	return nil
}

// ProbeCmd is `codebreakers loadtest echo`: it parses the prober's flags,
// probes, and writes the ProbeReport as JSON on stdout. The generator
// starts it (probeEcho builds these flags); it can be run by hand
// against a running server too.
func ProbeCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var o ProbeOptions
	var awaitStart bool
	fs := flag.NewFlagSet("loadtest echo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.Addr, "addr", "", "the server's SSH address on loopback, HOST:PORT (required)")
	fs.IntVar(&o.Players, "players", 4, "sessions that type, each a new key")
	fs.IntVar(&o.Samples, "samples", 100, "keys typed between them, each timed to its echo")
	fs.DurationVar(&o.Gap, "gap", 200*time.Millisecond, "the pause between keys")
	fs.IntVar(&o.First, "first", 1, "number in the first player's handle (idleN), so handles differ from the generator's")
	fs.BoolVar(&o.Floor, "floor", false, "the server is the load test's floor (no handle to choose)")
	fs.BoolVar(&o.VTEmulator, "vt-emulator", false, "read the screens with x/vt's emulator")
	fs.DurationVar(&o.StepTimeout, "step-timeout", 20*time.Second, "bound on every wait for a screen")
	fs.IntVar(&o.ServerPID, "server-pid", 0, "the server's process id on this machine: record how long its threads and the prober's waited for a CPU during each echo (0: not recorded)")
	fs.BoolVar(&awaitStart, "await-start", false, "once the players are on their home screens, write a line \"ready\" on stdout and wait for a line on stdin before timing (the generator's cue)")
	fs.DurationVar(&o.Delay, "delay", 0, "a pause before the first key, after the cue with -await-start")
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: codebreakers loadtest echo -addr HOST:PORT [flags]\n\n"+
			"Times keypress echoes from a process of its own, as the load generator's echo\n"+
			"players do, and writes them as JSON on stdout.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return ErrUsage
	}
	if o.Addr == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "codebreakers loadtest echo: -addr HOST:PORT is required, and nothing else")
		return ErrUsage
	}
	if awaitStart {
		o.Ready = func() error {
			if _, err := fmt.Fprintln(stdout, proberReady); err != nil {
				return fmt.Errorf("say ready: %w", err)
			}
			if _, err := bufio.NewReader(stdin).ReadString('\n'); err != nil {
				return fmt.Errorf("wait for the cue to start: %w", err)
			}
			return nil
		}
	}
	r, err := Probe(ctx, o)
	if r != nil {
		if err := json.NewEncoder(stdout).Encode(r); err != nil {
			return fmt.Errorf("echo prober: write report: %w", err)
		}
	}
	return err
}

// ProcessEcho is the echo timed by the prober, a process of its own, in
// a generator's run, with what the generator saw meanwhile.
type ProcessEcho struct {
	ProbeReport
	// ServerGCs is how many collections the server ran while the echoes
	// were timed (-1 without its /metrics); GeneratorGCs how many the
	// generator did (its collector is held off meanwhile, so normally 0).
	ServerGCs    int `json:"server_gcs_while_probed"`
	GeneratorGCs int `json:"generator_gcs_while_probed"`
	// GeneratorCPU is the generator's CPU while the echoes were timed
	// (percent of one core).
	GeneratorCPU float64 `json:"generator_cpu_percent_while_probed"`
}

// proberReady is the line the prober writes once its players are on
// their home screens, with -await-start.
const proberReady = "ready"

// prober is the echo prober running as a child process, its players
// open, waiting for the cue to start timing.
type prober struct {
	cmd  *exec.Cmd
	cue  io.WriteCloser
	out  *bufio.Reader
	logs *tailBuffer
}

// startProber starts the echo prober as a child process against t, with
// the generator's echo players' settings (a further cfg.EchoPlayers
// handles from next), typing half a gap behind the generator's players
// once cued and, when cfg.EchoProcessProcs is set, with that GOMAXPROCS.
// It returns once the prober's players are on their home screens.
func startProber(ctx context.Context, cfg Config, t *target, next *atomic.Int64) (*prober, error) {
	n := int64(cfg.EchoPlayers)
	first := next.Add(n) - n + 1
	args := []string{"loadtest", "echo", "-addr", t.addr,
		"-players", strconv.Itoa(cfg.EchoPlayers), "-samples", strconv.Itoa(cfg.EchoSamples),
		"-gap", cfg.EchoGap.String(), "-first", strconv.FormatInt(first, 10),
		"-step-timeout", cfg.StepTimeout.String(), "-await-start", "-delay", (cfg.EchoGap / 2).String()}
	if t.name == "floor" {
		args = append(args, "-floor")
	}
	if cfg.VTEmulator {
		args = append(args, "-vt-emulator")
	}
	if pid := t.procID(); pid != 0 {
		args = append(args, "-server-pid", strconv.Itoa(pid))
	}
	cmd := exec.CommandContext(ctx, cfg.Binary, args...)
	cmd.Env = os.Environ()
	if cfg.EchoProcessProcs > 0 {
		cmd.Env = append(cmd.Env, "GOMAXPROCS="+strconv.Itoa(cfg.EchoProcessProcs)) // the last setting wins
	}
	p := &prober{cmd: cmd, logs: &tailBuffer{max: 16 << 10}}
	cmd.Stderr = p.logs
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlive the generator
	var err error
	if p.cue, err = cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("echo prober: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("echo prober: %w", err)
	}
	p.out = bufio.NewReader(out)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("echo prober: %w", err)
	}
	ready := make(chan error, 1)
	go func() {
		line, err := p.out.ReadString('\n')
		if err == nil && strings.TrimSpace(line) != proberReady {
			err = fmt.Errorf("said %q, not %q", line, proberReady)
		}
		ready <- err
	}()
	limit := time.NewTimer(cfg.StepTimeout * time.Duration(2+cfg.EchoPlayers))
	defer limit.Stop()
	select {
	case err = <-ready:
	case <-limit.C:
		err = errTimeout
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		p.stop()
		return nil, fmt.Errorf("echo prober: not ready: %w\n%s", err, p.logs.String())
	}
	return p, nil
}

// begin cues the prober to start timing.
func (p *prober) begin() error {
	_, err := io.WriteString(p.cue, "go\n")
	if err != nil {
		p.stop()
		return fmt.Errorf("echo prober: cue: %w", err)
	}
	return nil
}

// report waits for the prober to finish and reads what it timed.
func (p *prober) report() (*ProbeReport, error) {
	b, readErr := io.ReadAll(p.out)
	runErr := p.cmd.Wait()
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, fmt.Errorf("echo prober: %v, no report\n%s", errors.Join(readErr, runErr), p.logs.String())
	}
	var r ProbeReport
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("echo prober: read its report: %w\n%s", err, p.logs.String())
	}
	if runErr != nil {
		return &r, fmt.Errorf("echo prober: %w\n%s", runErr, p.logs.String())
	}
	return &r, nil
}

// stop kills a prober that will not be asked for its report.
func (p *prober) stop() {
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
}
