package main

import (
	"math"
	"strings"
	"testing"
	"testing/fstest"
)

func vars(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return env(m)
}

// share is auto's limit for avail bytes.
func share(avail uint64) int64 { return int64(float64(avail) * defaultMemoryShare) }

// fakeMemory is a machine with ram bytes and the given files (cgroup
// membership and limits).
func fakeMemory(ram uint64, files map[string]string) memorySource {
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return memorySource{root: fsys, ram: func() uint64 { return ram }}
}

const gib = 1 << 30

// TestMemoryLimitAuto: with nothing said, the limit is 80% of the tightest
// bound on the process's memory — a cgroup v2 memory.high below
// memory.max (as the systemd unit sets them), a v1 limit, or the RAM —
// and the collector then lets the heap grow by 400% between collections.
func TestMemoryLimitAuto(t *testing.T) {
	v2 := map[string]string{
		"proc/self/cgroup": "0::/system.slice/codebreakers.service\n",
		"sys/fs/cgroup/system.slice/codebreakers.service/memory.high": "1610612736\n",
		"sys/fs/cgroup/system.slice/codebreakers.service/memory.max":  "2147483648\n",
	}
	v1 := map[string]string{
		"proc/self/cgroup": "4:memory:/process_api/abc\n0::/\n",
		"sys/fs/cgroup/memory/process_api/abc/memory.limit_in_bytes": "4294967296\n",
		"sys/fs/cgroup/memory.max":                                   "max\n",
	}
	unlimited := map[string]string{
		"proc/self/cgroup": "4:memory:/x\n",
		"sys/fs/cgroup/memory/x/memory.limit_in_bytes": "9223372036854771712\n",
	}
	for _, c := range []struct {
		name  string
		mem   memorySource
		limit int64
		from  string
	}{
		{"cgroup v2 memory.high", fakeMemory(24*gib, v2), share(1536 << 20), "cgroup memory.high"},
		{"cgroup v1 limit", fakeMemory(24*gib, v1), share(4 * gib), "cgroup memory.limit_in_bytes"},
		{"RAM below the cgroup", fakeMemory(1*gib, v1), share(gib), "RAM"},
		{"no cgroup limit", fakeMemory(24*gib, unlimited), share(24 * gib), "RAM"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := gcFor("auto", "auto", vars(), c.mem)
			if err != nil {
				t.Fatal(err)
			}
			if g.Limit != c.limit || !strings.Contains(g.LimitFrom, c.from) {
				t.Errorf("limit %d from %q, want %d from %s", g.Limit, g.LimitFrom, c.limit, c.from)
			}
			if g.Percent != defaultGCPercent {
				t.Errorf("gc percent %d under a limit, want %d", g.Percent, defaultGCPercent)
			}
		})
	}
	// Nothing known about memory: no limit, and then Go's own percentage,
	// so that the heap stays within twice the live data.
	g, err := gcFor("auto", "auto", vars(), fakeMemory(0, nil))
	if err != nil {
		t.Fatal(err)
	}
	if g.Limit != math.MaxInt64 || g.Percent != 100 {
		t.Errorf("without a memory figure: limit %d, percent %d; want none and 100", g.Limit, g.Percent)
	}
}

// TestMemoryLimitPrecedence: a flag beats GOMEMLIMIT/GOGC, which beat auto;
// off turns the limit off and with it the raised percentage.
func TestMemoryLimitPrecedence(t *testing.T) {
	mem := fakeMemory(8*gib, nil)
	for _, c := range []struct {
		name           string
		limit, percent string
		env            func(string) string
		wantLimit      int64
		wantPercent    int
	}{
		{"flags", "1536MiB", "200", vars("GOMEMLIMIT", "3GiB", "GOGC", "50"), 1536 << 20, 200},
		{"environment", "auto", "auto", vars("GOMEMLIMIT", "3GiB", "GOGC", "50"), 3 * gib, 50},
		{"GOGC off under a limit", "2GiB", "auto", vars("GOGC", "off"), 2 * gib, -1},
		{"GOMEMLIMIT alone", "auto", "auto", vars("GOMEMLIMIT", "2147483648"), 2 * gib, defaultGCPercent},
		{"limit off", "off", "auto", vars("GOMEMLIMIT", "3GiB"), math.MaxInt64, 100},
		{"GOMEMLIMIT off", "auto", "auto", vars("GOMEMLIMIT", "off"), math.MaxInt64, 100},
		{"bytes", "1000000B", "auto", vars(), 1000000, defaultGCPercent},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := gcFor(c.limit, c.percent, c.env, mem)
			if err != nil {
				t.Fatal(err)
			}
			if g.Limit != c.wantLimit || g.Percent != c.wantPercent {
				t.Errorf("limit %d percent %d, want %d and %d (%+v)", g.Limit, g.Percent, c.wantLimit, c.wantPercent, g)
			}
		})
	}
}

// TestMemoryLimitRefusesNonsense: a bad size or percentage stops the
// server at start with a message naming the setting.
func TestMemoryLimitRefusesNonsense(t *testing.T) {
	mem := fakeMemory(8*gib, nil)
	for _, c := range []struct{ limit, percent, want string }{
		{"1.5GB", "auto", "--memory-limit"},
		{"-3MiB", "auto", "--memory-limit"},
		{"auto", "lots", "--gc-percent"},
		{"auto", "-5", "--gc-percent"},
	} {
		if _, err := gcFor(c.limit, c.percent, vars(), mem); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("gcFor(%q, %q) = %v, want an error naming %s", c.limit, c.percent, err, c.want)
		}
	}
	if _, err := parseServe([]string{"--memory-limit", "lots"}, vars(), new(strings.Builder)); err == nil {
		t.Error("serve accepted --memory-limit lots")
	}
}

// TestStacksShrinkReadsGODEBUG: the start-up log says whether goroutine
// stacks shrink as the runtime will read GODEBUG — shrinking unless
// gcshrinkstackoff is set, the last setting winning.
func TestStacksShrinkReadsGODEBUG(t *testing.T) {
	for godebug, want := range map[string]bool{
		"":                                      true,
		"gctrace=1":                             true,
		"gcshrinkstackoff=1":                    false,
		"gctrace=1, gcshrinkstackoff=1":         false,
		"gcshrinkstackoff=1,gcshrinkstackoff=0": true,
		"gcshrinkstackoff=0,gcshrinkstackoff=1": false,
	} {
		if got := stacksShrink(godebug); got != want {
			t.Errorf("stacksShrink(%q) = %v, want %v", godebug, got, want)
		}
	}
}
