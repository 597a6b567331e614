package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/loadtest"
)

// TestLoadtestEchoProberTimesRealEchoes runs `codebreakers loadtest echo`
// against an arcade in-process: its players come as the load generator's
// echo players do (a new key each, a handle numbered from -first, the home
// screen), type every key asked for, and the report on stdout holds one
// timing per key, none failed.
func TestLoadtestEchoProberTimesRealEchoes(t *testing.T) {
	in, addr := startInstance(t, dataDir(t))
	var out, errOut bytes.Buffer
	err := run(t.Context(), []string{"loadtest", "echo", "-addr", addr, "-players", "2", "-samples", "6",
		"-gap", "5ms", "-first", "40", "-step-timeout", waitLimit.String(),
		"-server-pid", strconv.Itoa(os.Getpid())}, &out, &errOut) // the arcade runs in this process
	if err != nil {
		t.Fatalf("loadtest echo: %v\n%s", err, errOut.String())
	}
	var r loadtest.ProbeReport
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("the report on stdout is not JSON: %v\n%s", err, out.String())
	}
	if r.Players != 2 || r.Failed != 0 || len(r.Errors) != 0 {
		t.Fatalf("%d players typed, %d failed %v; want 2 and none", r.Players, r.Failed, r.Errors)
	}
	if r.Echo.N != 6 || len(r.SamplesMS) != 6 {
		t.Fatalf("%d echoes summarised, %d listed; want 6 of each", r.Echo.N, len(r.SamplesMS))
	}
	for i, d := range r.SamplesMS {
		if d <= 0 || d > r.Echo.Max {
			t.Errorf("echo %d took %.3f ms; want above 0 and at most the max %.3f", i, d, r.Echo.Max)
		}
	}
	// The run-queue waits of the server's threads and the prober's, one
	// of each per echo, and the slow echoes split by them.
	if len(r.ServerWaitMS) != 6 || len(r.OwnWaitMS) != 6 {
		t.Fatalf("waits of %d and %d echoes, want 6 of each", len(r.ServerWaitMS), len(r.OwnWaitMS))
	}
	slow := 0
	for i := range r.SamplesMS {
		if r.ServerWaitMS[i] < 0 || r.OwnWaitMS[i] < 0 {
			t.Errorf("echo %d: waits %.3f and %.3f ms unread", i, r.ServerWaitMS[i], r.OwnWaitMS[i])
		}
		if r.SamplesMS[i] > 5 {
			slow++
		}
	}
	if s := r.Slow; s == nil || s.N != slow || s.Server+s.Client-s.Both+s.Neither != s.N {
		t.Errorf("slow echoes %+v, want %d split without overlap", s, slow)
	}
	if r.Procs < 1 {
		t.Errorf("GOMAXPROCS %d reported", r.Procs)
	}
	// The players chose their handles and reached the home screen.
	for _, h := range []string{"idle40", "idle41"} {
		if _, err := in.db.HandleOwner(h); err != nil {
			t.Errorf("player %s: %v", h, err)
		}
	}
}

// TestLoadtestEchoProberBadAddress: an address nobody listens on fails
// with the address and the dial error; an address off loopback or not an
// address at all is refused before anything is dialled; no -addr is a
// usage mistake.
func TestLoadtestEchoProberBadAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	_ = ln.Close()
	for _, c := range []struct{ addr, want string }{
		{dead, "no session of 2 opened on " + dead},
		{"192.0.2.1:22", "loopback only"},
		{"nonsense", "want HOST:PORT"},
	} {
		var out, errOut bytes.Buffer
		err := run(t.Context(), []string{"loadtest", "echo", "-addr", c.addr, "-players", "2", "-samples", "3",
			"-step-timeout", waitLimit.String()}, &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("-addr %s: error %v, want one saying %q", c.addr, err, c.want)
		}
		if out.Len() != 0 {
			t.Errorf("-addr %s: a report on stdout: %s", c.addr, out.String())
		}
	}
	var errOut bytes.Buffer
	if err := run(t.Context(), []string{"loadtest", "echo", "-players", "2"}, new(bytes.Buffer), &errOut); !errors.Is(err, errUsage) ||
		!strings.Contains(errOut.String(), "-addr HOST:PORT is required") {
		t.Errorf("no -addr: %v, %q; want a usage error", err, errOut.String())
	}
}
