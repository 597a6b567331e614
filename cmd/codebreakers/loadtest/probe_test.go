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
		if err := ProbeCmd(context.Background(), os.Args[3:], os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestProbeEchoRunsAProcessOfItsOwn: the generator starts the prober as a
// child process with its echo players' settings, handles after the ones
// it has used, and the GOMAXPROCS asked for, and reads back every echo
// the child timed; a child that opens nothing is an error that carries
// the child's own message.
func TestProbeEchoRunsAProcessOfItsOwn(t *testing.T) {
	ctx, addr := startFloor(t)
	t.Setenv(asProberEnv, "1")
	cfg := Config{Binary: os.Args[0], EchoProcess: true, EchoProcessProcs: 1,
		EchoPlayers: 3, EchoSamples: 7, EchoGap: time.Millisecond, StepTimeout: limit}
	var next atomic.Int64
	next.Store(10)
	pe, err := probeEcho(ctx, cfg, &target{name: "floor", addr: addr}, &next)
	if err != nil {
		t.Fatal(err)
	}
	if pe.Players != 3 || pe.Failed != 0 || pe.Echo.N != 7 || len(pe.SamplesMS) != 7 || pe.Echo.Max <= 0 {
		t.Fatalf("prober report %+v; want 3 players, 7 echoes timed, none failed", pe.ProbeReport)
	}
	if pe.Procs != 1 {
		t.Errorf("the prober ran with GOMAXPROCS %d, want the 1 asked for", pe.Procs)
	}
	if pe.GCs != 0 || pe.GeneratorGCs != 0 {
		t.Errorf("collections while probing: prober %d, generator %d; want both held off", pe.GCs, pe.GeneratorGCs)
	}
	if pe.ServerGCs != -1 {
		t.Errorf("server collections %d for a target without /metrics, want -1", pe.ServerGCs)
	}
	if got := next.Load(); got != 13 {
		t.Errorf("handles used up to %d, want 13: the prober's three after the generator's ten", got)
	}

	dead, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := probeEcho(ctx, cfg, &target{name: "floor", addr: dead}, &next); err == nil ||
		!strings.Contains(err.Error(), "no session of 3 opened on "+dead) {
		t.Errorf("prober against %s: %v; want its own error", dead, err)
	}
}
