package loadtest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// asProberEnv makes this test binary, started as `loadtest echo ...`, be
// the echo prober, so that probeEcho's child process can be tested
// without building the codebreakers binary.
const asProberEnv = "LOADTEST_TEST_AS_PROBER"

func TestMain(m *testing.M) {
	if os.Getenv(asProberEnv) == "1" && len(os.Args) > 2 && os.Args[1] == "loadtest" && os.Args[2] == "echo" {
		if err := ProbeCmd(context.Background(), os.Args[3:], os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestPlayersAndProberTimeTogether: with EchoProcess the generator's
// echo players and the echo prober, a child process started with the echo
// players' settings, handles after the generator's and the GOMAXPROCS
// asked for, time their echoes at the same time, and the generator reads
// back every echo the child timed; a child that opens nothing is an error
// that carries the child's own message.
func TestPlayersAndProberTimeTogether(t *testing.T) {
	ctx, addr := startListeningFloor(t)
	t.Setenv(asProberEnv, "1")
	cfg := Config{Binary: os.Args[0], EchoProcess: true, EchoProcessProcs: 1,
		EchoPlayers: 3, EchoSamples: 7, EchoGap: time.Millisecond, StepTimeout: limit}
	tg := &target{name: "floor", addr: addr}
	var next atomic.Int64
	next.Store(10)
	errs := &errorLog{}
	players := openPlayers(ctx, cfg, tg, floorOpener(cfg), &next, errs)
	defer closeAll(players)
	r := &TargetReport{}
	timePlayersBeside(ctx, cfg, tg, players, &next, errs, r)
	echo, sched, pe := r.PlayersEcho, r.PlayersSched, r.ProcessEcho
	if n, first := errs.count(); n != 0 {
		t.Fatalf("%d errors: %v", n, first)
	}
	if echo.N != 7 || echo.Max <= 0 {
		t.Errorf("the generator timed %+v, want 7 echoes", echo)
	}
	if sched != nil {
		t.Errorf("scheduler latencies %v from a server without /metrics", sched)
	}
	if pe == nil {
		t.Fatal("no report from the prober")
	}
	if pe.Players != 3 || pe.Failed != 0 || pe.Echo.N != 7 || len(pe.SamplesMS) != 7 || pe.Echo.Max <= 0 {
		t.Fatalf("prober report %+v; want 3 players, 7 echoes timed, none failed", pe.ProbeReport)
	}
	if q := pe.RunQueue; q == nil || q.Slices <= 0 || q.RunMS <= 0 {
		t.Errorf("the prober's run queue: %v; want the time its threads ran", q)
	}
	if q := r.PlayersRunQueue; q == nil || q.Server != nil || q.Generator == nil || q.Generator.RunMS <= 0 {
		t.Errorf("run queues %+v; want the generator's (this test) and no server's (not a process of its own)", q)
	}
	if pe.Procs != 1 {
		t.Errorf("the prober ran with GOMAXPROCS %d, want the 1 asked for", pe.Procs)
	}
	if pe.GCs != 0 || pe.GeneratorGCs != 0 {
		t.Errorf("collections while timing: prober %d, generator %d; want both held off", pe.GCs, pe.GeneratorGCs)
	}
	if pe.ServerGCs != -1 {
		t.Errorf("server collections %d for a target without /metrics, want -1", pe.ServerGCs)
	}
	if got := next.Load(); got != 16 {
		t.Errorf("handles used up to %d, want 16: the generator's three and the prober's three after the first ten", got)
	}

	dead, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := startProber(ctx, cfg, &target{name: "floor", addr: dead}, &next); err == nil ||
		!strings.Contains(err.Error(), "no session of 3 opened on "+dead) {
		t.Errorf("prober against %s: %v; want its own error", dead, err)
	}
}
