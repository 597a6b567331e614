package loadtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/codebreakers/codebreakers/cmd/codebreakers/internal/seen"
	"github.com/codebreakers/codebreakers/server"
)

// ClusterReport holds the figures of a two-node run: tables spread over
// both nodes, half of them joined from the other node (the guest's session
// spliced to the table's node), and what a splice costs.
type ClusterReport struct {
	Nodes   int `json:"nodes"`
	Tables  int `json:"tables"`
	Crossed int `json:"tables_joined_across_nodes"`
	// SetupSec is how long it took to seat everyone.
	SetupSec      float64 `json:"setup_sec"`
	Seconds       float64 `json:"seconds"`
	Actions       int64   `json:"actions"`
	ActionsPerSec float64 `json:"actions_per_sec"`
	Games         int64   `json:"games_finished"`
	// Keypress to screen, for the player who pressed (Actor) and at every
	// seat (Every), apart for sessions on the table's node and sessions
	// spliced from the other node.
	LocalActor   Latency `json:"latency_actor_local"`
	SplicedActor Latency `json:"latency_actor_spliced"`
	LocalEvery   Latency `json:"latency_every_screen_local"`
	SplicedEvery Latency `json:"latency_every_screen_spliced"`
	// Per node during play: CPU (percent of one core) and RSS.
	NodeCPUPercent []float64   `json:"node_cpu_percent_of_core"`
	NodeRSSMB      []float64   `json:"node_rss_mb"`
	MachineBusy    float64     `json:"machine_busy_percent"`
	GeneratorCPU   float64     `json:"generator_cpu_percent_of_core"`
	Errors         int         `json:"errors"`
	Samples        []string    `json:"error_samples,omitempty"`
	Splice         *SpliceCost `json:"splice_cost,omitempty"`
}

// SpliceCost compares sessions watching a table on node A, connected to A
// directly (local) or to B and carried to A (spliced), while each presses a
// key that redraws its screen every KeyEvery: memory (RSS growth of both
// nodes) and CPU (both nodes) per session.
//
// The local sessions come first, on fresh nodes; the spliced ones then
// grow node B from nothing (what carrying a session costs: its SSH
// session and the channel to A), while A may reuse memory the local
// sessions gave back, so A's figure for them is a floor.
type SpliceCost struct {
	Sessions int    `json:"sessions"`
	KeyEvery string `json:"key_every"`
	// RSS growth per session: on A for local sessions; on B (the carrying
	// node) and on A (the table's node) for spliced ones.
	LocalMB          float64 `json:"local_mb_per_session_on_a"`
	SplicedCarrierMB float64 `json:"spliced_mb_per_session_on_b"`
	SplicedTableMB   float64 `json:"spliced_mb_per_session_on_a"`
	// CPU in microseconds per session per second of typing, both nodes;
	// SplicedCarrierCPU is node B's part.
	LocalCPU          float64 `json:"local_cpu_us_per_session_per_sec"`
	SplicedCPU        float64 `json:"spliced_cpu_us_per_session_per_sec"`
	SplicedCarrierCPU float64 `json:"spliced_cpu_us_per_session_per_sec_on_b"`
}

// startCluster runs two nodes of the binary on cfg's PostgreSQL and NATS,
// with host keys made here and trusted by both.
func startCluster(ctx context.Context, cfg Config, dir string) ([]*target, error) {
	names := []string{"node1", "node2"}
	var peers []byte
	for _, n := range names {
		signer, err := server.LoadOrCreateHostKey(filepath.Join(dir, n, "host_ed25519"))
		if err != nil {
			return nil, err
		}
		peers = append(peers, gossh.MarshalAuthorizedKey(signer.PublicKey())...)
	}
	peerFile := filepath.Join(dir, "peers")
	if err := os.WriteFile(peerFile, peers, 0o600); err != nil {
		return nil, err
	}
	var nodes []*target
	for _, n := range names {
		addr, err := freeAddr()
		if err != nil {
			return nodes, err
		}
		link, err := freeAddr()
		if err != nil {
			return nodes, err
		}
		args := append([]string{"serve", "--addr", addr, "--data-dir", filepath.Join(dir, n),
			"--max-sessions", "1000000", "--max-sessions-per-ip", "1000000", "--connections-per-minute", "100000000", "--exec-per-minute", "100000000",
			"--idle-timeout", "2h", "--bot-delay", cfg.BotDelay.String(), "--log-level", "warn",
			"--postgres", cfg.ClusterPostgres, "--nats", cfg.ClusterNATS, "--node-name", n, "--node-addr", link,
			"--peer-keys", peerFile}, cfg.ServerArgs...)
		// Every player comes from loopback: the per-address limits on
		// tables opened and on rated pairs would stop them.
		if supportsFlag(cfg.Binary, "new-handles-per-hour") {
			args = append(args, "--new-handles-per-hour", "100000000")
		}
		if supportsFlag(cfg.Binary, "tables-per-minute") {
			args = append(args, "--tables-per-minute", "100000000")
		}
		if supportsFlag(cfg.Binary, "rated-same-address") {
			args = append(args, "--rated-same-address")
		}
		t, err := startTarget(ctx, n, addr, cfg.Binary, args, serverEnv(os.Environ(), cfg.ServerGODEBUG), 60*time.Second)
		if err != nil {
			return nodes, err
		}
		fmt.Fprintf(cfg.Log, "%s: pid %d on %s, node link %s\n", n, t.pid(), addr, link)
		nodes = append(nodes, t)
	}
	return nodes, nil
}

// RunCluster starts two nodes and measures play across them and the cost
// of a splice.
func RunCluster(ctx context.Context, cfg Config) (*ClusterReport, error) {
	cfg = cfg.withDefaults()
	if cfg.ClusterPostgres == "" || cfg.ClusterNATS == "" {
		return nil, errors.New("loadtest: a cluster run needs -cluster-postgres and -cluster-nats")
	}
	if _, err := raiseFileLimit(); err != nil {
		fmt.Fprintf(cfg.Log, "warning: %v\n", err)
	}
	dir, err := os.MkdirTemp("", "codebreakers-cluster-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	nodes, err := startCluster(ctx, cfg, dir)
	defer func() {
		for _, n := range nodes {
			n.stop()
		}
	}()
	if err != nil {
		return nil, err
	}
	rep := &ClusterReport{Nodes: len(nodes), Tables: cfg.Tables}
	if cfg.SpliceSessions > 0 {
		if rep.Splice, err = measureSplice(ctx, cfg, nodes[0], nodes[1], cfg.SpliceSessions); err != nil {
			return rep, fmt.Errorf("splice cost: %w", err)
		}
	}
	if cfg.NoPlay {
		return rep, nil
	}
	err = clusterPlay(ctx, cfg, nodes, rep)
	return rep, err
}

// clusterPlay seats the tables: table i is made on node i%2; the guests
// of every other pair of tables join from the other node.
func clusterPlay(ctx context.Context, cfg Config, nodes []*target, rep *ClusterReport) error {
	errs := &errorLog{}
	start := time.Now()
	tables := seatTables(ctx, cfg, nil, errs, 0, true, func(i int) (string, string) {
		host := nodes[i%2]
		if (i/2)%2 == 1 { // every other pair of tables: the guest comes from the other node
			return host.addr, nodes[(i+1)%2].addr
		}
		return host.addr, host.addr
	}, nil)
	rep.SetupSec = time.Since(start).Seconds()
	for _, tb := range tables {
		if tb.spliced[tb.guest] {
			rep.Crossed++
		}
	}
	fmt.Fprintf(cfg.Log, "cluster play: %d tables seated (%d joined across nodes) in %.1fs\n", len(tables), rep.Crossed, rep.SetupSec)
	defer parallel(context.Background(), 64, len(tables), func(i int) { tables[i].close() })

	split := &latencySplit{}
	every, actor := &samples{}, &samples{}
	var actions, games atomic.Int64
	playCtx, cancel := context.WithTimeout(ctx, cfg.PlayTime)
	defer cancel()
	before := make([]procStats, len(nodes))
	for i, n := range nodes {
		var err error
		if before[i], err = n.stats(); err != nil {
			return err
		}
	}
	t1 := time.Now()
	meter := startCPUMeter()
	var wg sync.WaitGroup
	for _, tb := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			playTable(playCtx, cfg, tb, every, actor, split, &actions, &games, errs)
		}()
	}
	wg.Wait()
	rep.MachineBusy, rep.GeneratorCPU = meter.stop()
	rep.Seconds = time.Since(t1).Seconds()
	for i, n := range nodes {
		after, err := n.stats()
		if err != nil {
			return err
		}
		rep.NodeCPUPercent = append(rep.NodeCPUPercent, float64((after.CPU-before[i].CPU).Microseconds())/rep.Seconds/1e4)
		rep.NodeRSSMB = append(rep.NodeRSSMB, mb(after.RSS))
	}
	rep.Actions, rep.Games = actions.Load(), games.Load()
	rep.ActionsPerSec = float64(rep.Actions) / rep.Seconds
	rep.LocalActor, rep.SplicedActor = split.localActor.summary(), split.splicedActor.summary()
	rep.LocalEvery, rep.SplicedEvery = split.localEvery.summary(), split.splicedEvery.summary()
	rep.Errors, rep.Samples = errs.count()
	fmt.Fprintf(cfg.Log, "cluster play: %d actions, actor p50/p99 local %.1f/%.1f ms, spliced %.1f/%.1f ms, %d errors\n",
		rep.Actions, rep.LocalActor.P50, rep.LocalActor.P99, rep.SplicedActor.P50, rep.SplicedActor.P99, rep.Errors)
	for _, n := range nodes {
		if err := n.alive(); err != nil {
			return err
		}
	}
	return nil
}

// spliceKeyEvery is how often each session of the splice measurement
// presses a key that redraws its screen.
const spliceKeyEvery = 250 * time.Millisecond

// measureSplice opens n sessions watching one table on a, first through
// b (spliced), then directly (local), and compares what they cost.
func measureSplice(ctx context.Context, cfg Config, a, b *target, n int) (*SpliceCost, error) {
	lim := cfg.StepTimeout
	o := dialOptions{addr: a.addr, timeout: lim, w: 80, h: 24, vt: cfg.VTEmulator}
	host, code, err := createTable(ctx, cfg, o, "splicehost")
	if err != nil {
		return nil, err
	}
	defer host.close()
	sc := &SpliceCost{Sessions: n, KeyEvery: spliceKeyEvery.String()}
	phase := func(via *target, name string) (mbPer, cpuPer [2]float64, err error) {
		nodes := []*target{a, b}
		s0 := make([]procStats, 2)
		for i, t := range nodes {
			if s0[i], err = t.stats(); err != nil {
				return mbPer, cpuPer, err
			}
		}
		watchers := make([]*client, n)
		var failed atomic.Int64
		var firstErr atomic.Value
		parallel(ctx, cfg.Concurrency, n, func(i int) {
			wo := dialOptions{addr: via.addr, timeout: lim, w: 80, h: 24, command: "watch " + code, vt: cfg.VTEmulator}
			c, err := openClient(ctx, fmt.Sprintf("%s%d", name, i), wo)
			if err == nil {
				if _, err = c.waitFor(ctx, lim, "Choose a handle"); err == nil {
					if err = c.send(fmt.Sprintf("%s%d", name, i), keyEnter); err == nil {
						_, err = c.waitFor(ctx, lim, "You are watching")
					}
				}
			}
			if err != nil {
				failed.Add(1)
				firstErr.CompareAndSwap(nil, err.Error())
				if c != nil {
					c.close()
				}
				return
			}
			watchers[i] = c
		})
		defer func() {
			for _, c := range watchers {
				if c != nil {
					c.close()
				}
			}
		}()
		if f := failed.Load(); f > 0 {
			return mbPer, cpuPer, fmt.Errorf("%d of %d %s watchers failed, the first: %v", f, n, name, firstErr.Load())
		}
		sleep(ctx, 2*time.Second)
		s1 := make([]procStats, 2)
		for i, t := range nodes {
			if s1[i], err = t.stats(); err != nil {
				return mbPer, cpuPer, err
			}
		}
		window := cfg.IdleWindow
		typeCtx, cancel := context.WithTimeout(ctx, window)
		defer cancel()
		var wg sync.WaitGroup
		for _, c := range watchers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				tick := time.NewTicker(spliceKeyEvery)
				defer tick.Stop()
				for {
					select {
					case <-typeCtx.Done():
						return
					case <-tick.C:
						_ = c.send("?")
					}
				}
			}()
		}
		wg.Wait()
		s2 := make([]procStats, 2)
		for i, t := range nodes {
			if s2[i], err = t.stats(); err != nil {
				return mbPer, cpuPer, err
			}
		}
		for i := range nodes {
			mbPer[i] = float64(s1[i].RSS-s0[i].RSS) / float64(n) / (1 << 20)
			cpuPer[i] = float64((s2[i].CPU - s1[i].CPU).Microseconds()) / float64(n) / window.Seconds()
		}
		return mbPer, cpuPer, nil
	}
	mb, cpu, err := phase(a, "lo")
	if err != nil {
		return sc, err
	}
	sc.LocalMB, sc.LocalCPU = mb[0], cpu[0]+cpu[1]
	sleep(ctx, 3*time.Second)
	if mb, cpu, err = phase(b, "sp"); err != nil {
		return sc, err
	}
	sc.SplicedTableMB, sc.SplicedCarrierMB = mb[0], mb[1]
	sc.SplicedCPU, sc.SplicedCarrierCPU = cpu[0]+cpu[1], cpu[1]
	fmt.Fprintf(cfg.Log, "splice: %d sessions; local %.2f MB, %.0f µs/s each; spliced %.2f MB on B + %.2f MB on A, %.0f µs/s each (%.0f on B)\n",
		n, sc.LocalMB, sc.LocalCPU, sc.SplicedCarrierMB, sc.SplicedTableMB, sc.SplicedCPU, sc.SplicedCarrierCPU)
	return sc, nil
}

// createTable has a new player make a public table of three seats with
// one bot on o.addr and returns them and its join code.
func createTable(ctx context.Context, cfg Config, o dialOptions, name string) (*client, string, error) {
	lim := cfg.StepTimeout
	h, err := openClient(ctx, name, o)
	if err != nil {
		return nil, "", err
	}
	steps := []func() error{
		func() error { _, err := h.waitFor(ctx, lim, "Choose a handle"); return err },
		func() error { return h.send(name, keyEnter) },
		func() error { _, err := h.waitFor(ctx, lim, "Create a table"); return err },
		func() error { return h.send(keyDown, keyDown, keyEnter) },
		func() error { _, err := h.waitFor(ctx, lim, "CREATE A TABLE", "Break the Code"); return err },
		func() error { return h.send(keyEnter) },
		func() error { _, err := h.waitFor(ctx, lim, "CREATE A TABLE", "Bots"); return err },
		func() error { return h.send(keyDown, keyDown, keyDown, keyDown, keyDown, keyEnter) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			h.close()
			return nil, "", fmt.Errorf("create: %w", err)
		}
	}
	s, err := h.waitUntil(ctx, "a join code", lim, seen.HasJoinCode)
	if err != nil {
		h.close()
		return nil, "", err
	}
	code, _ := seen.JoinCode(s)
	return h, code, nil
}
