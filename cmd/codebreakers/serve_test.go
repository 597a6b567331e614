package main

import (
	"bytes"
	"context"
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/lobby/analyst"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestParseServeDefaults(t *testing.T) {
	o, err := parseServe(nil, env(nil), &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if o.Addr != ":2222" || o.DataDir != "./data" || o.HostKey != "data/host_ed25519" {
		t.Errorf("defaults = %+v", o)
	}
}

func TestParseServeFlagBeatsEnvBeatsDefault(t *testing.T) {
	vars := map[string]string{
		"CODEBREAKERS_ADDR":         "127.0.0.1:4000",
		"CODEBREAKERS_DATA_DIR":     "/srv/cb",
		"CODEBREAKERS_MAX_SESSIONS": "42",
		"CODEBREAKERS_IDLE_TIMEOUT": "90s",
	}
	o, err := parseServe([]string{"--addr", ":5000"}, env(vars), &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if o.Addr != ":5000" {
		t.Errorf("addr = %q, want the flag's :5000", o.Addr)
	}
	if o.DataDir != "/srv/cb" || o.HostKey != "/srv/cb/host_ed25519" {
		t.Errorf("data dir = %q, host key = %q, want the environment's", o.DataDir, o.HostKey)
	}
	if o.MaxSessions != 42 || o.IdleTimeout != 90*time.Second {
		t.Errorf("limits = %d, %v, want the environment's", o.MaxSessions, o.IdleTimeout)
	}
}

func TestParseServeRejectsBadInput(t *testing.T) {
	if _, err := parseServe(nil, env(map[string]string{"CODEBREAKERS_IDLE_TIMEOUT": "soon"}), &bytes.Buffer{}); err == nil ||
		!strings.Contains(err.Error(), "CODEBREAKERS_IDLE_TIMEOUT") {
		t.Errorf("bad env duration: err = %v, want one naming the variable", err)
	}
	if _, err := parseServe([]string{"--nope"}, env(nil), &bytes.Buffer{}); err == nil {
		t.Error("unknown flag accepted")
	}
	if _, err := parseServe([]string{"extra"}, env(nil), &bytes.Buffer{}); err == nil {
		t.Error("stray argument accepted")
	}
	if _, err := parseServe([]string{"--analysis-busy-moves", "-1"}, env(nil), &bytes.Buffer{}); err == nil ||
		!strings.Contains(err.Error(), "--analysis-busy-moves") {
		t.Errorf("a negative --analysis-busy-moves: err = %v, want one naming the flag", err)
	}
}

// TestPacedObserverCountsAcceptedMoves: the hub's observer counts every
// accepted move (not refusals) into the pace that pauses background
// analysis, and still reports to the metrics when they are on.
func TestPacedObserverCountsAcceptedMoves(t *testing.T) {
	pace := analyst.NewPace(1)
	inner := &countingObserver{}
	for _, o := range []pacedObserver{{pace: pace}, {inner: inner, pace: pace}} {
		o.Action("breakcode", lobby.OutcomeOK, time.Millisecond)
		o.Action("breakcode", lobby.OutcomeOK, time.Millisecond)
		o.Action("breakcode", lobby.OutcomeIllegal, time.Millisecond)
		o.TableBroken("breakcode")
	}
	if inner.actions != 3 || inner.broken != 1 {
		t.Errorf("the metrics saw %d actions and %d broken tables; want 3 and 1", inner.actions, inner.broken)
	}
	if n := pace.Moves(); n != 4 {
		t.Errorf("the pace counted %d moves; want the 4 accepted", n)
	}
}

type countingObserver struct{ actions, broken int }

func (c *countingObserver) Action(string, lobby.Outcome, time.Duration) { c.actions++ }
func (c *countingObserver) TableBroken(string)                          { c.broken++ }

func TestHelpDocumentsFlagsAndEnv(t *testing.T) {
	var out bytes.Buffer
	_, err := parseServe([]string{"--help"}, env(nil), &out)
	if err != flag.ErrHelp {
		t.Fatalf("err = %v, want flag.ErrHelp", err)
	}
	for _, want := range []string{"-addr", "CODEBREAKERS_ADDR", "-data-dir", "CODEBREAKERS_DATA_DIR",
		"-host-key", "CODEBREAKERS_HOST_KEY", "CODEBREAKERS_MAX_SESSIONS_PER_IP", "SIGTERM"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--help does not mention %s", want)
		}
	}
}

func TestUnknownSubcommand(t *testing.T) {
	var stderr bytes.Buffer
	err := run(context.Background(), []string{"frobnicate"}, &bytes.Buffer{}, &stderr)
	if err != errUsage || !strings.Contains(stderr.String(), `unknown command "frobnicate"`) {
		t.Errorf("err = %v, stderr = %q", err, stderr.String())
	}
}

func TestSecondInstanceOnSameDataDirFails(t *testing.T) {
	dir := dataDir(t)
	startInstance(t, dir)
	o, err := parseServe([]string{"--data-dir", dir, "--addr", "127.0.0.1:0"}, env(nil), &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	in, err := openInstance(o, testLogger())
	if err == nil {
		_ = in.close(time.Second)
		t.Fatal("a second instance opened a data directory in use")
	}
	if !strings.Contains(err.Error(), "in use by another process") {
		t.Errorf("error = %q, want a clear 'in use' message", err)
	}
}

func TestServeShutsDownOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var stderr bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, []string{"--addr", "127.0.0.1:0", "--data-dir", dataDir(t)}, env(nil), &bytes.Buffer{}, &stderr)
	}()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("serve did not return after cancel")
	}
}
