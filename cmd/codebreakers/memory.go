package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"path"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// The garbage collector's settings. A server holds a large live heap of
// long-lived sessions and tables (1.8 GB at 2,000 tables) and allocates a
// little per move; with Go's defaults (GOGC=100, no limit) it collected
// whenever the heap had grown by the live heap again, and collecting was
// a third of the server's CPU at 2,000 tables. Under a soft memory limit
// the collector may let the heap grow further between collections
// (--gc-percent, 400 by default: a collection per four live heaps
// allocated instead of one), because the limit, not the percentage, then
// bounds the heap: as it nears the limit the runtime collects as often as
// it must to stay under it. The limit is soft: if the live data alone
// exceeds it, the runtime spends at most about half the CPU collecting
// and lets the heap grow rather than stalling the server, so it never
// makes the process fail; it only decides how much spare memory the
// collector may use. Without a limit (--memory-limit off) the percentage
// is Go's default, 100, so the heap stays within twice the live data.

// defaultMemoryShare is the part of the memory available to the process
// (the cgroup's limit, or the machine's RAM) that --memory-limit auto
// gives the Go heap: the rest is for the bbolt file's pages, goroutine
// stacks' growth and whatever else runs beside the server.
const defaultMemoryShare = 0.8

// defaultGCPercent is the collector's target under a memory limit.
const defaultGCPercent = 400

// gcSettings is what applyGC sets, and why (for the start-up log).
type gcSettings struct {
	// Limit is the soft memory limit in bytes (math.MaxInt64: none).
	Limit int64
	// LimitFrom says where it came from: "flag", "GOMEMLIMIT", "auto:
	// cgroup memory.high" …, or "off".
	LimitFrom string
	// Percent is the GC percentage (negative: off); PercentFrom as above.
	Percent     int
	PercentFrom string
}

// memorySource reads what bounds the process's memory: rootFS is "/" on a
// real server and a test's directory otherwise; ram is the machine's
// memory in bytes (0: unknown).
type memorySource struct {
	root fs.FS
	ram  func() uint64
}

// hostMemory reads the running system.
func hostMemory() memorySource {
	return memorySource{root: os.DirFS("/"), ram: func() uint64 {
		var si syscall.Sysinfo_t
		if err := syscall.Sysinfo(&si); err != nil {
			return 0
		}
		return uint64(si.Totalram) * uint64(si.Unit)
	}}
}

// available is the memory the process may use, and what said so: the
// tightest of the cgroup's limits (v2 memory.high and memory.max, or v1
// memory.limit_in_bytes) and the machine's RAM.
func (m memorySource) available() (uint64, string) {
	best, from := uint64(0), ""
	consider := func(n uint64, what string) {
		if n > 0 && (best == 0 || n < best) {
			best, from = n, what
		}
	}
	if m.ram != nil {
		consider(m.ram(), "RAM")
	}
	for _, dir := range m.cgroupDirs() {
		for _, f := range []string{"memory.high", "memory.max", "memory.limit_in_bytes"} {
			if n, ok := readLimit(m.root, path.Join(dir, f)); ok {
				consider(n, "cgroup "+f)
			}
		}
	}
	return best, from
}

// cgroupDirs lists the directories, relative to the root, that hold the
// process's memory cgroup files (v2 unified, then v1 memory).
func (m memorySource) cgroupDirs() []string {
	f, err := m.root.Open("proc/self/cgroup")
	if err != nil {
		return nil
	}
	defer f.Close()
	var dirs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// hierarchy-ID:controllers:path
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		p := strings.TrimPrefix(parts[2], "/")
		switch {
		case parts[0] == "0" && parts[1] == "":
			dirs = append(dirs, path.Join("sys/fs/cgroup", p))
		case slices.Contains(strings.Split(parts[1], ","), "memory"):
			dirs = append(dirs, path.Join("sys/fs/cgroup/memory", p))
		}
	}
	return dirs
}

// readLimit reads a cgroup memory limit file: a number of bytes, or "max"
// (none). cgroup v1 writes "no limit" as a number near 2^63.
func readLimit(root fs.FS, name string) (uint64, bool) {
	b, err := fs.ReadFile(root, name)
	if err != nil {
		return 0, false
	}
	s := strings.TrimSpace(string(b))
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n == 0 || n >= 1<<60 {
		return 0, false
	}
	return n, true
}

// parseSize reads a size in GOMEMLIMIT's notation: a whole number of bytes
// with an optional unit B, KiB, MiB, GiB or TiB ("1536MiB", "12GiB").
func parseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}
	num, mult := s, int64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			num, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("%q: want a size like 1536MiB or 12GiB", s)
	}
	return n * mult, nil
}

// gcFor works out the collector's settings from --memory-limit and
// --gc-percent (each "auto" unless given) and the environment's GOMEMLIMIT
// and GOGC, which the Go runtime has already applied: an explicit flag
// wins, then the environment, then the defaults.
func gcFor(limitFlag, percentFlag string, getenv func(string) string, mem memorySource) (gcSettings, error) {
	g := gcSettings{Limit: math.MaxInt64}
	switch {
	case limitFlag == "off":
		g.LimitFrom = "off"
	case limitFlag != "auto":
		n, err := parseSize(limitFlag)
		if err != nil {
			return g, fmt.Errorf("--memory-limit %w", err)
		}
		g.Limit, g.LimitFrom = n, "flag"
	case getenv("GOMEMLIMIT") != "" && getenv("GOMEMLIMIT") != "off":
		n, err := parseSize(getenv("GOMEMLIMIT"))
		if err != nil {
			return g, fmt.Errorf("GOMEMLIMIT %w", err)
		}
		g.Limit, g.LimitFrom = n, "GOMEMLIMIT"
	case getenv("GOMEMLIMIT") == "off":
		g.LimitFrom = "GOMEMLIMIT"
	default:
		avail, from := mem.available()
		if avail == 0 {
			g.LimitFrom = "off (cannot tell how much memory the machine has)"
			break
		}
		g.Limit = int64(float64(avail) * defaultMemoryShare)
		g.LimitFrom = fmt.Sprintf("auto: %.0f%% of %s (%s)", defaultMemoryShare*100, from, formatBytes(avail))
	}
	switch {
	case percentFlag != "auto":
		n, err := strconv.Atoi(percentFlag)
		if err != nil || n < 0 && n != -1 {
			return g, fmt.Errorf("--gc-percent %q: want a whole number of percent (or -1 for off)", percentFlag)
		}
		g.Percent, g.PercentFrom = n, "flag"
	case getenv("GOGC") != "":
		g.Percent, g.PercentFrom = -1, "GOGC"
		if v := getenv("GOGC"); v != "off" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return g, fmt.Errorf("GOGC %q: want a whole number of percent or off", v)
			}
			g.Percent = n
		}
	case g.Limit != math.MaxInt64:
		g.Percent, g.PercentFrom = defaultGCPercent, "default under a memory limit"
	default:
		g.Percent, g.PercentFrom = 100, "Go's default, no memory limit"
	}
	return g, nil
}

// formatBytes writes n in MiB or GiB.
func formatBytes(n uint64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%d MiB", n>>20)
}

// stacksShrink reports whether the collector shrinks goroutine stacks
// under this GODEBUG (the runtime reads it once at start; the last
// setting of a name wins). deploy/codebreakers.service turns shrinking
// off (gcshrinkstackoff=1): see DeployGODEBUG in the load generator for
// why, and RUNBOOK.md for the trade.
func stacksShrink(godebug string) bool {
	shrink := true
	for _, kv := range strings.Split(godebug, ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(kv), "gcshrinkstackoff="); ok {
			shrink = v == "0"
		}
	}
	return shrink
}

// applyGC sets the collector as g says and logs it.
func applyGC(g gcSettings, log *slog.Logger) {
	debug.SetMemoryLimit(g.Limit)
	debug.SetGCPercent(g.Percent)
	limit := "none"
	if g.Limit != math.MaxInt64 {
		limit = formatBytes(uint64(g.Limit))
	}
	log.Info("garbage collector", "memory_limit", limit, "limit_from", g.LimitFrom, "gc_percent", g.Percent, "percent_from", g.PercentFrom,
		"stacks_shrink", stacksShrink(os.Getenv("GODEBUG")))
}
