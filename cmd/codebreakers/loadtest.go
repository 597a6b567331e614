package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/loadtest"
)

// loadtestCmd runs `codebreakers loadtest`: it starts this binary as the
// server (and a floor server to compare against), opens real SSH sessions
// against them on loopback, prints a table and writes the figures as JSON.
// `codebreakers loadtest floor` is the floor server itself; `codebreakers
// loadtest echo` is the echo prober the generator starts (-echo-process).
func loadtestCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "floor" {
		return floorCmd(ctx, args[1:], stderr)
	}
	if len(args) > 0 && args[0] == "echo" {
		if err := loadtest.ProbeCmd(ctx, args[1:], os.Stdin, stdout, stderr); errors.Is(err, loadtest.ErrUsage) {
			return errUsage
		} else {
			return err //nolint:wrapcheck // says it is the echo prober's
		}
	}
	var cfg loadtest.Config
	var jsonPath string
	var serverArgs stringList
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&cfg.Held, "held", 1000, "idle sessions held while new ones churn")
	fs.IntVar(&cfg.Idle, "idle", 2000, "idle sessions held for the memory and CPU figures")
	fs.IntVar(&cfg.Churn, "churn", 200, "sessions opened and closed while -held are held")
	fs.BoolVar(&cfg.NoIdle, "no-idle", false, "skip the idle phase (and the floor, which is only compared with it)")
	fs.IntVar(&cfg.Seekers, "seekers", 0, "people who play people, each a new key, across the four games (0: no seekers phase)")
	fs.Float64Var(&cfg.SeekRate, "seek-rate", 50, "seekers arriving per second")
	fs.IntVar(&cfg.FloorIdle, "floor-idle", 0, "idle sessions held on the floor, if fewer than -idle (at least -held; 0: -idle)")
	fs.IntVar(&cfg.Tables, "tables", 500, "tables playing at once (two players and a bot each)")
	fs.IntVar(&cfg.Spectators, "spectators", 100, "spectators (one each on the first tables)")
	fs.Float64Var(&cfg.Rate, "rate", 200, "ramp-up rate in new sessions per second (0: as fast as -concurrency allows)")
	fs.IntVar(&cfg.Concurrency, "concurrency", 32, "handshakes in flight at once")
	fs.DurationVar(&cfg.IdleWindow, "idle-window", 10e9, "how long idle CPU is measured")
	fs.DurationVar(&cfg.PlayTime, "play-time", 60e9, "how long the tables play")
	fs.DurationVar(&cfg.Think, "think", 5e9, "a player's mean pause before acting (each pause is uniform over 0.5–1.5×)")
	fs.DurationVar(&cfg.BotDelay, "bot-delay", 1e9, "the server's pause before a bot acts")
	fs.IntVar(&cfg.EchoSamples, "echo-samples", 100, "keypress echoes timed on idle sessions")
	fs.IntVar(&cfg.EchoPlayers, "echo-players", 4, "sessions opened once the others are held that type -echo-samples more keys between them, each timed to its echo (0: none)")
	fs.DurationVar(&cfg.EchoGap, "echo-gap", 200*time.Millisecond, "the pause between the -echo-players' keys")
	fs.BoolVar(&cfg.EchoProcess, "echo-process", true, "time the echo a second time, beside the -echo-players and at the same time, from a process of its own (loadtest echo), as a player's client is, not from the generator holding every session; both are reported")
	fs.IntVar(&cfg.EchoProcessProcs, "echo-process-procs", 0, "the -echo-process prober's GOMAXPROCS (0: the default)")
	fs.DurationVar(&cfg.EchoSettle, "echo-settle", 0, "a further pause before the echoes are timed, after the idle window (so the collections the ramp set off are over)")
	fs.BoolVar(&cfg.AidOff, "aid-off", false, "create tables with Break the Code's aid turned off")
	fs.BoolVar(&cfg.PlayAsSeated, "play-as-seated", false, "each table starts playing as soon as it is seated instead of all together once every table is seated (only the -play-time after the last is seated is timed)")
	fs.IntVar(&cfg.FinishGames, "finish-games", 0, "extra tables that each play one quick game during the play, their games finishing within -finish-window (the server analyses finished games)")
	fs.DurationVar(&cfg.FinishWindow, "finish-window", 60e9, "the time from the start of the play within which the -finish-games games finish")
	fs.Uint64Var(&cfg.Seed, "seed", 0, "seed of the players' pauses, so runs can be repeated with the same keys at the same moments (0: random, reported)")
	fs.BoolVar(&cfg.NoFloor, "no-floor", false, "skip the floor server")
	fs.BoolVar(&cfg.NoPlay, "no-play", false, "skip the playing phase")
	fs.StringVar(&cfg.CPUProfile, "cpuprofile", "", "write the server's CPU profile over the playing phase (the seekers phase with -no-play) to this file")
	fs.StringVar(&cfg.EchoTrace, "echo-trace", "", "record execution traces over the timed echoes: the server's to PREFIX.server, the generator's to PREFIX.generator, the echoes to PREFIX.echoes")
	fs.BoolVar(&cfg.VTEmulator, "vt-emulator", false, "read the simulated players' screens with the x/vt terminal emulator instead of the generator's lean screen model (several times the generator's CPU)")
	fs.IntVar(&cfg.GeneratorProcs, "generator-procs", 0, "the load generator's own GOMAXPROCS for the run (0: the default; the server keeps its own)")
	fs.StringVar(&cfg.GeneratorCPUProfile, "generator-cpuprofile", "", "write the load generator's own CPU profile over the playing phase to this file")
	fs.StringVar(&cfg.HeapProfile, "heapprofile", "", "write the server's heap profile, once the -idle sessions are held, to this file (and at the end of the play to FILE.play)")
	fs.StringVar(&cfg.ServerGODEBUG, "server-godebug", loadtest.DeployGODEBUG, "GODEBUG settings the server under test starts with, as deploy/codebreakers.service gives them (this environment's own GODEBUG settings win; empty: none)")
	fs.Var(&serverArgs, "server-arg", "extra flag for `serve` (repeatable), e.g. -server-arg=--fps=10")
	fs.StringVar(&jsonPath, "json", "loadtest.json", "where to write the report as JSON (empty: nowhere)")
	fs.StringVar(&cfg.ClusterPostgres, "cluster-postgres", "", "run two cluster nodes on this PostgreSQL (with -cluster-nats) instead of one server")
	fs.StringVar(&cfg.ClusterNATS, "cluster-nats", "", "the NATS (JetStream on) of a -cluster-postgres run")
	fs.IntVar(&cfg.SpliceSessions, "splice-sessions", 200, "in a cluster run, sessions that measure a splice's memory and CPU")
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: codebreakers loadtest [flags]\n\n"+
			"Starts this binary as a server and a minimal floor server on loopback, drives both\n"+
			"with real SSH sessions, and reports each figure beside the floor's.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return errUsage
	}
	bin, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find own binary: %w", err)
	}
	cfg.Binary, cfg.ServerArgs, cfg.Log = bin, serverArgs, stderr
	if cfg.ClusterPostgres != "" {
		crep, err := loadtest.RunCluster(ctx, cfg)
		if crep != nil {
			b, merr := json.MarshalIndent(crep, "", "  ")
			if merr == nil {
				fmt.Fprintln(stdout, string(b))
				if jsonPath != "" {
					merr = os.WriteFile(jsonPath, append(b, '\n'), 0o644)
				}
			}
			err = errors.Join(err, merr)
		}
		return err
	}
	rep, runErr := loadtest.Run(ctx, cfg)
	if rep != nil {
		printReport(stdout, rep)
		if jsonPath != "" {
			b, err := json.MarshalIndent(rep, "", "  ")
			if err != nil {
				return fmt.Errorf("encode report: %w", err)
			}
			if err := os.WriteFile(jsonPath, append(b, '\n'), 0o644); err != nil {
				return fmt.Errorf("write report: %w", err)
			}
		}
	}
	return runErr
}

// floorCmd serves the floor until ctx ends.
func floorCmd(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadtest floor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:2223", "address to listen on")
	hostKey := fs.String("host-key", "", "host key file, created when missing (required)")
	if err := fs.Parse(args); err != nil || *hostKey == "" {
		fmt.Fprintln(stderr, "codebreakers loadtest floor: -host-key is required")
		return errUsage
	}
	return loadtest.ServeFloor(ctx, *addr, *hostKey)
}

// printReport writes the figures as a table, each beside the floor's.
func printReport(w io.Writer, r *loadtest.Report) {
	if r.Server != nil || r.Floor != nil {
		printIdle(w, r)
	}
	if sk := r.Seek; sk != nil {
		fmt.Fprintf(w, "\nseek: %d seekers arriving at %.1f/s (asked %.0f/s, %d late) across the four games\n",
			sk.Seekers, sk.ArrivalsPerSec, sk.Rate, sk.Late)
		fmt.Fprintf(w, "  %d seated; wait from the seek to the table's first frame: p50 %.1f  p99 %.1f  max %.1f ms\n",
			sk.Seated, sk.Wait.P50, sk.Wait.P99, sk.Wait.Max)
		fmt.Fprintf(w, "  seating (the last to arrive at each of %d tables, who waits for nobody): p50 %.1f  p99 %.1f  max %.1f ms\n",
			sk.Tables, sk.Seating.P50, sk.Seating.P99, sk.Seating.Max)
		fmt.Fprintf(w, "  server CPU %.0f%% of a core, RSS %.0f MB; generator CPU %.0f%% of a core; machine %.0f%% busy (all cores); %d errors\n",
			sk.CPUPercent, sk.RSSMB, sk.GeneratorCPU, sk.MachineBusy, sk.Errors)
		for _, s := range sk.Samples {
			fmt.Fprintf(w, "  error: %s\n", s)
		}
	}
	if p := r.Play; p != nil {
		fmt.Fprintf(w, "\nplay: %d tables, %d players, %d spectators, seated in %.1fs (seed %d)\n", p.Tables, p.Players, p.Spectators, p.SetupSec, r.Config.Seed)
		fmt.Fprintf(w, "  %d actions in %.0fs (%.1f/s, each durable in bbolt before shown), %d games finished, %d errors\n",
			p.Actions, p.Seconds, p.ActionsPerSec, p.Games, p.Errors)
		fmt.Fprintf(w, "  keypress → screen, every seat and spectator: p50 %.1f  p99 %.1f  max %.1f ms (n=%d; ×%.2f floor echo p99)\n",
			p.Latency.P50, p.Latency.P99, p.Latency.Max, p.Latency.N, r.Ratios["play_p99_vs_floor_echo_p99"])
		fmt.Fprintf(w, "  keypress → screen, actor (includes the bbolt write): p50 %.1f  p99 %.1f  max %.1f ms\n",
			p.Actor.P50, p.Actor.P99, p.Actor.Max)
		fmt.Fprintf(w, "  server CPU %.0f%% of a core, RSS %.0f MB; generator CPU %.0f%% of a core; machine %.0f%% busy (all cores)\n",
			p.CPUPercent, p.RSSMB, p.GeneratorCPU, p.MachineBusy)
		if m := p.Server; m != nil {
			fmt.Fprintf(w, "  server: action (validate+store+publish) n=%.0f mean %.1f ms p50 ≤%.1f p99 ≤%.1f ms\n",
				m.Action.Count, m.Action.MeanMS, m.Action.P50MS, m.Action.P99MS)
			fmt.Fprintf(w, "  storage: %.0f writes/s in %.0f commits (%.1f writes/commit), commit mean %.1f ms p50 ≤%.1f p99 ≤%.1f ms; server errors %.0f\n",
				m.WritesPerSec, m.Commit.Count, m.WritesPerCommit, m.Commit.MeanMS, m.Commit.P50MS, m.Commit.P99MS, m.Errors)
			fmt.Fprintf(w, "  analysis: %.0f finished games analysed in the background (%.1f s of work), %.0f deferred while play was busy, %.0f still queued at the end, %.0f left for their first replay\n",
				m.Analysed, m.AnalysisBusySec, m.AnalysisDeferred, m.AnalysisBacklog, m.AnalysisDropped)
		}
		if f := p.Finish; f != nil {
			fmt.Fprintf(w, "  extra games: %d of %d finished within %.0fs of the start (first at %.1fs, last at %.1fs), %d later, %d still on when the play ended, %d errors; a game p50 %.1fs max %.1fs\n",
				f.Finished, f.Tables, f.WindowSec, f.FirstSec, f.LastSec, f.Late, f.Unfinished, f.Errors, f.Game.P50/1000, f.Game.Max/1000)
			for _, s := range f.Samples {
				fmt.Fprintf(w, "  extra game error: %s\n", s)
			}
		}
		for _, s := range p.Samples {
			fmt.Fprintf(w, "  error: %s\n", s)
		}
	}
	for _, t := range []*loadtest.TargetReport{r.Floor, r.Server} {
		if t != nil {
			for _, e := range t.Errors {
				fmt.Fprintf(w, "%s error: %s\n", t.Name, e)
			}
		}
	}
}

// printIdle writes the idle phase's figures, each beside the floor's.
func printIdle(w io.Writer, r *loadtest.Report) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "figure\tserver\tfloor\tratio\t")
	row := func(name, ratioKey string, f func(*loadtest.TargetReport) float64) {
		var s, fl string
		if r.Server != nil {
			s = fmt.Sprintf("%.3f", f(r.Server))
		}
		if r.Floor != nil {
			fl = fmt.Sprintf("%.3f", f(r.Floor))
		}
		ratio := ""
		if v, ok := r.Ratios[ratioKey]; ok {
			ratio = fmt.Sprintf("%.2f", v)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", name, s, fl, ratio)
	}
	row("handshakes/s (ramp)", "handshakes_per_sec", func(t *loadtest.TargetReport) float64 { return t.HandshakesPerSec })
	row("new sessions/s while held", "churn_per_sec_while_held", func(t *loadtest.TargetReport) float64 { return t.ChurnPerSec })
	row("sessions held", "", func(t *loadtest.TargetReport) float64 { return float64(t.Held) })
	row("sessions failed", "", func(t *loadtest.TargetReport) float64 { return float64(t.Failed) })
	row("RSS MB held", "", func(t *loadtest.TargetReport) float64 { return t.HeldRSSMB })
	row("MB/session", "mb_per_session", func(t *loadtest.TargetReport) float64 { return t.MBPerSession })
	row("idle CPU % of a core", "", func(t *loadtest.TargetReport) float64 { return t.IdleCPUPercent })
	row("idle CPU µs/session/s", "idle_cpu_per_session", func(t *loadtest.TargetReport) float64 { return t.IdleCPUPerSession })
	row("echo p50 ms", "echo_p50", func(t *loadtest.TargetReport) float64 { return t.Echo.P50 })
	row("echo p99 ms", "echo_p99", func(t *loadtest.TargetReport) float64 { return t.Echo.P99 })
	row("echo max ms", "", func(t *loadtest.TargetReport) float64 { return t.Echo.Max })
	row("players' echo p50 ms", "", func(t *loadtest.TargetReport) float64 { return t.PlayersEcho.P50 })
	row("players' echo p99 ms", "players_echo_p99", func(t *loadtest.TargetReport) float64 { return t.PlayersEcho.P99 })
	row("prober's echo p50 ms", "", func(t *loadtest.TargetReport) float64 { return processEcho(t).Echo.P50 })
	row("prober's echo p99 ms", "process_echo_p99", func(t *loadtest.TargetReport) float64 { return processEcho(t).Echo.P99 })
	row("prober's echo max ms", "", func(t *loadtest.TargetReport) float64 { return processEcho(t).Echo.Max })
	row("collections while echoing", "", func(t *loadtest.TargetReport) float64 { return float64(t.EchoGCs.Server) })
	row("generator's collections", "", func(t *loadtest.TargetReport) float64 { return float64(t.EchoGCs.Generator) })
	row("machine busy % while echoing", "", func(t *loadtest.TargetReport) float64 { return t.EchoMachineBusy })
	row("generator % of a core then", "", func(t *loadtest.TargetReport) float64 { return t.EchoGeneratorCPU })
	row("machine busy % while players typed", "", func(t *loadtest.TargetReport) float64 { return processEcho(t).MachineBusy })
	_ = tw.Flush()
}

// processEcho is t's echo timed by the prober, zero when not measured.
func processEcho(t *loadtest.TargetReport) *loadtest.ProcessEcho {
	if t.ProcessEcho == nil {
		return &loadtest.ProcessEcho{}
	}
	return t.ProcessEcho
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return fmt.Sprint(*l) }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }
