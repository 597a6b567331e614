package loadtest

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestQuickGamesStartOverTheFirstHalfOfTheWindow(t *testing.T) {
	cfg := Config{FinishWindow: time.Minute}
	if got := finishStart(cfg, 0, 200); got != 0 {
		t.Fatalf("first game starts at %v, want at once", got)
	}
	if got := finishStart(cfg, 100, 200); got != 15*time.Second {
		t.Fatalf("the 100th of 200 starts at %v, want 15s", got)
	}
	if got := finishStart(cfg, 199, 200); got >= 30*time.Second {
		t.Fatalf("the last starts at %v, want before half the window (30s)", got)
	}
}

func TestFinishReportSplitsGamesByTheWindow(t *testing.T) {
	cfg := Config{FinishWindow: time.Minute}
	results := make(chan finishResult, 5)
	results <- finishResult{at: 20 * time.Second, took: 10 * time.Second}
	results <- finishResult{at: 60 * time.Second, took: 30 * time.Second}
	results <- finishResult{at: 61 * time.Second, took: 31 * time.Second}
	results <- finishResult{err: errors.New("table 9: timed out")}
	results <- finishResult{unfinished: true}
	close(results)
	r := finishReport(cfg, 5, results)
	if r.Tables != 5 || r.Finished != 2 || r.Late != 1 || r.Unfinished != 1 || r.Errors != 1 || len(r.Samples) != 1 {
		t.Fatalf("report %+v, want 5 tables, 2 finished in the window, 1 late, 1 still on, 1 error kept", r)
	}
	if r.FirstSec != 20 || r.LastSec != 61 || r.Game.N != 3 || r.Game.Max != 31000 {
		t.Fatalf("report %+v, want first at 20s, last at 61s, 3 games the longest 31s", r)
	}
}

func TestRunsNeedFilesForTheQuickGamesToo(t *testing.T) {
	base := Config{Tables: 500, Spectators: 100, NoIdle: true}.withDefaults()
	more := base
	more.FinishGames = 200
	if got, want := more.filesNeeded()-base.filesNeeded(), 400; got != want {
		t.Fatalf("200 quick games need %d more files, want %d (two sessions each)", got, want)
	}
}

// TestOwnProfileIsWritten: -generator-cpuprofile leaves a CPU profile of
// the generator in the file (gzipped protobuf, as go tool pprof reads),
// and no flag means no file and nothing to stop.
func TestOwnProfileIsWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gen.prof")
	stop, err := startOwnProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("profile file: %d bytes, %v; want a gzipped profile", len(b), err)
	}
	stop, err = startOwnProfile("")
	if err != nil || stop() != nil {
		t.Fatalf("no profile asked: %v", err)
	}
}

// TestServerProfileOnlyWhenAsked: a server with a pprof listener for the
// heap profile alone is not asked for a CPU profile (which had no file to
// go to: "save profile: open : no such file or directory", counted as one
// of the play's errors); with -cpuprofile it is, into that file.
func TestServerProfileOnlyWhenAsked(t *testing.T) {
	var asked atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/debug/pprof/profile" {
			http.NotFound(w, r)
			return
		}
		asked.Add(1)
		fmt.Fprint(w, "profile")
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	dir := t.TempDir()

	cfg := Config{PlayTime: time.Second, HeapProfile: filepath.Join(dir, "heap.prof")}
	if path, err := startServerProfile(t.Context(), cfg, addr)(); path != "" || err != nil {
		t.Fatalf("heap profile only: CPU profile %q, %v; want none and no error", path, err)
	}
	if n := asked.Load(); n != 0 {
		t.Fatalf("heap profile only: the server was asked for %d CPU profiles, want none", n)
	}

	cfg.CPUProfile = filepath.Join(dir, "cpu.prof")
	if _, err := startServerProfile(t.Context(), cfg, "")(); err != nil {
		t.Fatalf("no pprof listener: %v", err)
	}
	path, err := startServerProfile(t.Context(), cfg, addr)()
	if err != nil || path != cfg.CPUProfile {
		t.Fatalf("CPU profile asked: %q, %v; want %q", path, err, cfg.CPUProfile)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "profile" {
		t.Fatalf("CPU profile file: %q, %v", b, err)
	}
}
