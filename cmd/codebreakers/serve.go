package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/breakcode"
	"github.com/codebreakers/codebreakers/engine/coding"
	"github.com/codebreakers/codebreakers/engine/ifthen"
	"github.com/codebreakers/codebreakers/engine/whattherule"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/lobby/analyst"
	"github.com/codebreakers/codebreakers/lobby/natsdir"
	"github.com/codebreakers/codebreakers/lobby/puzzle"
	"github.com/codebreakers/codebreakers/server"
	"github.com/codebreakers/codebreakers/storage"
	"github.com/codebreakers/codebreakers/storage/postgres"
	"github.com/codebreakers/codebreakers/tui"
)

// dbFile is the bbolt file's name inside the data directory.
const dbFile = "codebreakers.db"

// serveOptions are the settings of `codebreakers serve`.
type serveOptions struct {
	Addr             string
	PublicHost       string
	DataDir          string
	HostKey          string
	MaxSessions      int
	MaxSessionsPerIP int
	ConnsPerMinute   int
	// Limits that follow the connection and the address (see SECURITY.md).
	MaxSessionsPerConn       int
	SessionsPerConnPerMinute int
	ExecPerMinute            int
	IPv6Prefix               int
	// DBCheckTime bounds the database's consistency check at start.
	DBCheckTime     time.Duration
	FPS             int
	StallTimeout    time.Duration
	IdleTimeout     time.Duration
	MaxSessionTime  time.Duration
	Grace           time.Duration
	TurnTime        time.Duration
	BotDelay        time.Duration
	ShutdownTimeout time.Duration
	// LeaderboardMinGames is how many rated games put a player on a
	// leaderboard.
	LeaderboardMinGames int
	// AnalysisShare is the percentage of one core that analysing finished
	// games in the background may use (0: none; games are then analysed
	// when first replayed).
	AnalysisShare int
	// AnalysisBusyMoves is the rate of moves a second, over all tables,
	// above which background analysis waits for play to calm down (0:
	// it never waits).
	AnalysisBusyMoves int
	// SeekBotWait is how long a person seeking people waits before bots
	// are offered.
	SeekBotWait time.Duration
	// SeeksPerMinute is how many seeks an account, connection or address
	// may start in a minute.
	SeeksPerMinute int
	// TablesPerMinute is how many tables an account or connection may
	// open in a minute (an address six times as many).
	TablesPerMinute int
	// NewHandlesPerHour is how many first handles new keys may claim from
	// one address in an hour (a third of that in a minute).
	NewHandlesPerHour int
	// RatedSameAddress lets rated pairing seat keys from one address
	// together.
	RatedSameAddress bool
	LogFormat        string
	LogLevel         string
	// MemoryLimit and GCPercent set the garbage collector (memory.go):
	// "auto" or a size / a percentage; gc is what they resolve to.
	MemoryLimit string
	GCPercent   string
	gc          gcSettings
	// Operator settings: metrics/health address (off when empty), admin
	// socket for backup/export ("off" disables), PROXY protocol senders.
	MetricsAddr       string
	PprofAddr         string
	AdminSocket       string
	ProxyProtocolFrom string
	proxyTrusted      []string
	BanFile           string
	// Postgres, when set, keeps accounts and records in that shared
	// database (a cluster); live logs stay in DATA_DIR.
	Postgres string
	// Cluster: the directory in NATS, this node's name, its node-link
	// address and the keys of the nodes it trusts.
	NATS         string
	NodeName     string
	NodeAddr     string
	PeerKeys     string
	DirectoryTTL time.Duration
}

// setting is one flag with the environment variable that can also set it.
// A flag on the command line beats the environment, which beats the default.
type setting struct {
	name, env, usage string
	bind             func(fs *flag.FlagSet, name, usage string, fromEnv string) error
}

func stringSetting(p *string, def, name, env, usage string) setting {
	return setting{name, env, usage, func(fs *flag.FlagSet, name, usage, fromEnv string) error {
		v := def
		if fromEnv != "" {
			v = fromEnv
		}
		fs.StringVar(p, name, v, usage)
		return nil
	}}
}

func intSetting(p *int, def int, name, env, usage string) setting {
	return setting{name, env, usage, func(fs *flag.FlagSet, name, usage, fromEnv string) error {
		v := def
		if fromEnv != "" {
			n, err := strconv.Atoi(fromEnv)
			if err != nil || n < 0 {
				return fmt.Errorf("%s=%q: want a whole number", env, fromEnv)
			}
			v = n
		}
		fs.IntVar(p, name, v, usage)
		return nil
	}}
}

func boolSetting(p *bool, def bool, name, env, usage string) setting {
	return setting{name, env, usage, func(fs *flag.FlagSet, name, usage, fromEnv string) error {
		v := def
		if fromEnv != "" {
			b, err := strconv.ParseBool(fromEnv)
			if err != nil {
				return fmt.Errorf("%s=%q: want true or false", env, fromEnv)
			}
			v = b
		}
		fs.BoolVar(p, name, v, usage)
		return nil
	}}
}

func durationSetting(p *time.Duration, def time.Duration, name, env, usage string) setting {
	return setting{name, env, usage, func(fs *flag.FlagSet, name, usage, fromEnv string) error {
		v := def
		if fromEnv != "" {
			d, err := time.ParseDuration(fromEnv)
			if err != nil {
				return fmt.Errorf("%s=%q: want a duration like 90s or 15m", env, fromEnv)
			}
			v = d
		}
		fs.DurationVar(p, name, v, usage)
		return nil
	}}
}

// turnTime maps the flag's 0 (no clock) to the hub's negative "off".
func turnTime(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}

// parseServe reads serve's settings from args and the environment.
func parseServe(args []string, getenv func(string) string, stderr io.Writer) (o serveOptions, err error) {
	settings := []setting{
		stringSetting(&o.Addr, server.DefaultAddr, "addr", "CODEBREAKERS_ADDR", "address to listen on"),
		stringSetting(&o.PublicHost, "", "public-host", "CODEBREAKERS_PUBLIC_HOST", "HOST or HOST:PORT players connect to, shown in commands such as ssh -t -p PORT HOST replay ID (default: the listening host, localhost when it is every address, and port)"),
		stringSetting(&o.DataDir, "./data", "data-dir", "CODEBREAKERS_DATA_DIR", "directory for the database and host key (created 0700)"),
		stringSetting(&o.HostKey, "", "host-key", "CODEBREAKERS_HOST_KEY", "ed25519 host key file, created when missing (default DATA_DIR/host_ed25519)"),
		intSetting(&o.MaxSessions, server.DefaultMaxSessions, "max-sessions", "CODEBREAKERS_MAX_SESSIONS", "most sessions open at once on the server"),
		intSetting(&o.MaxSessionsPerIP, server.DefaultMaxSessionsPerIP, "max-sessions-per-ip", "CODEBREAKERS_MAX_SESSIONS_PER_IP", "most sessions open at once from one address"),
		intSetting(&o.ConnsPerMinute, server.DefaultConnectionsPerMin, "connections-per-minute", "CODEBREAKERS_CONNECTIONS_PER_MINUTE", "new connections one address may open per minute"),
		intSetting(&o.MaxSessionsPerConn, server.DefaultMaxSessionsPerConn, "max-sessions-per-conn", "CODEBREAKERS_MAX_SESSIONS_PER_CONN", "most sessions open at once on one SSH connection"),
		intSetting(&o.SessionsPerConnPerMinute, server.DefaultSessionsPerConnMin, "sessions-per-conn-per-minute", "CODEBREAKERS_SESSIONS_PER_CONN_PER_MINUTE", "most sessions one SSH connection may open in a minute, one after another"),
		intSetting(&o.ExecPerMinute, server.DefaultExecPerMinute, "exec-per-minute", "CODEBREAKERS_EXEC_PER_MINUTE", "commands (ssh HOST history, replay ID, join CODE, ...) one address may run per minute"),
		intSetting(&o.IPv6Prefix, server.DefaultIPv6Prefix, "ipv6-prefix", "CODEBREAKERS_IPV6_PREFIX", "per-address limits count IPv6 clients by network of this many bits (1-128; 128: every address alone)"),
		durationSetting(&o.DBCheckTime, storage.DefaultCheckTime, "db-check-time", "CODEBREAKERS_DB_CHECK_TIME", "bound on the database's consistency check at start; a larger file starts partly checked, with a warning (negative: skip)"),
		intSetting(&o.FPS, server.DefaultFPS, "fps", "CODEBREAKERS_FPS", "frame-rate ceiling per session (frames are drawn only when the screen changes)"),
		durationSetting(&o.StallTimeout, server.DefaultStallTimeout, "stall-timeout", "CODEBREAKERS_STALL_TIMEOUT", "drop a client whose screen output has been blocked this long"),
		durationSetting(&o.IdleTimeout, server.DefaultIdleTimeout, "idle-timeout", "CODEBREAKERS_IDLE_TIMEOUT", "end a session after this long without input"),
		durationSetting(&o.MaxSessionTime, server.DefaultMaxSessionTime, "max-session-time", "CODEBREAKERS_MAX_SESSION_TIME", "end any session after this long"),
		durationSetting(&o.Grace, 60*time.Second, "grace", "CODEBREAKERS_GRACE", "how long a disconnected player's seat is held before a bot takes it"),
		durationSetting(&o.TurnTime, lobby.DefaultTurnTime, "turn-time", "CODEBREAKERS_TURN_TIME", "how long a person has for a move before a bot makes it for them, so nobody can stall a table (0: no turn clock)"),
		durationSetting(&o.BotDelay, 700*time.Millisecond, "bot-delay", "CODEBREAKERS_BOT_DELAY", "pause before a bot moves, so people can follow (negative: none)"),
		durationSetting(&o.SeekBotWait, 30*time.Second, "seek-bot-wait", "CODEBREAKERS_SEEK_BOT_WAIT", "how long someone playing people waits before being offered bots for the empty seats"),
		intSetting(&o.SeeksPerMinute, 10, "seeks-per-minute", "CODEBREAKERS_SEEKS_PER_MINUTE", "times one account, connection or address may start playing people in a minute (six times that an hour)"),
		boolSetting(&o.RatedSameAddress, false, "rated-same-address", "CODEBREAKERS_RATED_SAME_ADDRESS", "pair keys from one address in rated games (off: they may play each other casually, by code or with bots, since one person could throw games with one key to lift another)"),
		intSetting(&o.NewHandlesPerHour, 60, "new-handles-per-hour", "CODEBREAKERS_NEW_HANDLES_PER_HOUR", "handles new keys may claim from one address in an hour (a third of that in a minute); each makes an account for good"),
		intSetting(&o.TablesPerMinute, 10, "tables-per-minute", "CODEBREAKERS_TABLES_PER_MINUTE", "tables (quick play, create) one account or connection may open in a minute (six times that an hour; an address six times as many)"),
		intSetting(&o.AnalysisShare, 10, "analysis-share", "CODEBREAKERS_ANALYSIS_SHARE", "percent of one core that analysing finished games in the background may use (0: none, each game is analysed on its first replay)"),
		intSetting(&o.AnalysisBusyMoves, 300, "analysis-busy-moves", "CODEBREAKERS_ANALYSIS_BUSY_MOVES", "moves a second over all tables above which background analysis waits for play to calm down; games wait in its queue, or for their first replay (0: never waits)"),
		intSetting(&o.LeaderboardMinGames, server.DefaultLeaderboardMinGames, "leaderboard-min-games", "CODEBREAKERS_LEADERBOARD_MIN_GAMES", "rated games a player needs to be listed on a leaderboard"),
		durationSetting(&o.ShutdownTimeout, 10*time.Second, "shutdown-timeout", "CODEBREAKERS_SHUTDOWN_TIMEOUT", "how long to wait for players to leave on SIGINT/SIGTERM"),
		stringSetting(&o.MemoryLimit, "auto", "memory-limit", "CODEBREAKERS_MEMORY_LIMIT", "soft limit on the Go runtime's memory, like 1536MiB or 12GiB; auto: GOMEMLIMIT if set, else 80% of the cgroup's memory.high/memory.max or of the machine's RAM, whichever is least; off: none"),
		stringSetting(&o.GCPercent, "auto", "gc-percent", "CODEBREAKERS_GC_PERCENT", "heap growth between collections, percent of the live heap (Go's GOGC); auto: GOGC if set, else 400 under a memory limit and 100 without one"),
		stringSetting(&o.LogFormat, "text", "log-format", "CODEBREAKERS_LOG_FORMAT", "log format: text or json"),
		stringSetting(&o.LogLevel, "info", "log-level", "CODEBREAKERS_LOG_LEVEL", "log level: debug, info, warn or error"),
		stringSetting(&o.MetricsAddr, "", "metrics-addr", "CODEBREAKERS_METRICS_ADDR", "serve Prometheus /metrics and /healthz over HTTP here, e.g. 127.0.0.1:9222 (off when empty)"),
		stringSetting(&o.PprofAddr, "", "pprof-addr", "CODEBREAKERS_PPROF_ADDR", "serve Go's /debug/pprof profiles over HTTP here, e.g. 127.0.0.1:6060; keep it on loopback (off when empty)"),
		stringSetting(&o.AdminSocket, "", "admin-socket", "CODEBREAKERS_ADMIN_SOCKET", "path of the unix socket that the backup and export commands use (default DATA_DIR/"+adminSocketName+"; off disables)"),
		stringSetting(&o.BanFile, "", "ban-file", "CODEBREAKERS_BAN_FILE", "operator's ban list: key fingerprints, IPs and CIDRs to refuse, \"mute SHA256:...\" lines to silence in chat; reread on change and on SIGHUP (off when empty)"),
		stringSetting(&o.Postgres, "", "postgres", "CODEBREAKERS_POSTGRES", "keep accounts, handles and finished games in this PostgreSQL database (postgres://user@host/db), shared by every node of a cluster; live games stay in --data-dir (off when empty)"),
		stringSetting(&o.NATS, "", "nats", "CODEBREAKERS_NATS", "join a cluster: the NATS server (nats://host:4222, JetStream on) holding the directory of tables and seats (off when empty; needs --postgres, --node-addr and --peer-keys)"),
		stringSetting(&o.NodeName, "", "node-name", "CODEBREAKERS_NODE_NAME", "this node's name in the cluster (default the host name)"),
		stringSetting(&o.NodeAddr, "", "node-addr", "CODEBREAKERS_NODE_ADDR", "host:port of this node's node link, where other nodes carry their players' sessions (keep it on a private network)"),
		stringSetting(&o.PeerKeys, "", "peer-keys", "CODEBREAKERS_PEER_KEYS", "file of the cluster nodes' SSH host public keys (authorized_keys format): only they may carry sessions here"),
		durationSetting(&o.DirectoryTTL, 15*time.Second, "directory-ttl", "CODEBREAKERS_DIRECTORY_TTL", "how long a node's tables stay in the cluster directory after it stops refreshing them (a dead node)"),
		stringSetting(&o.ProxyProtocolFrom, "", "proxy-protocol-from", "CODEBREAKERS_PROXY_PROTOCOL_FROM", "comma-separated load-balancer IPs/CIDRs whose PROXY protocol headers are believed (off when empty)"),
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	for _, s := range settings {
		if err := s.bind(fs, s.name, s.usage+" (env "+s.env+")", getenv(s.env)); err != nil {
			return o, err
		}
	}
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: codebreakers [serve] [flags]\n\n"+
			"Serves the Codebreakers arcade over SSH. Every flag can also be set by the\n"+
			"environment variable named beside it; a flag beats its variable.\n"+
			"SIGINT or SIGTERM shuts down gently: players are told, games are saved.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, flag.ErrHelp
		}
		return o, errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "codebreakers serve: unexpected argument %q\n", fs.Arg(0))
		return o, errUsage
	}
	if o.HostKey == "" {
		o.HostKey = filepath.Join(o.DataDir, "host_ed25519")
	}
	if o.AdminSocket == "" {
		o.AdminSocket = filepath.Join(o.DataDir, adminSocketName)
	}
	if o.proxyTrusted, err = server.ParseTrusted(o.ProxyProtocolFrom); err != nil {
		return o, fmt.Errorf("--proxy-protocol-from: %w", err)
	}
	if o.AnalysisShare < 0 || o.AnalysisShare > 100 {
		return o, fmt.Errorf("--analysis-share %d: want 0 to 100 percent", o.AnalysisShare)
	}
	if o.AnalysisBusyMoves < 0 {
		return o, fmt.Errorf("--analysis-busy-moves %d: want 0 (never wait) or more moves a second", o.AnalysisBusyMoves)
	}
	if o.IPv6Prefix < 1 || o.IPv6Prefix > 128 {
		return o, fmt.Errorf("--ipv6-prefix %d: want 1 to 128 bits", o.IPv6Prefix)
	}
	if err := o.checkCluster(); err != nil {
		return o, err
	}
	if o.NATS != "" && o.Postgres == "" {
		return o, errors.New("--nats needs --postgres: the nodes of a cluster share accounts and records")
	}
	if o.LogFormat != "text" && o.LogFormat != "json" {
		return o, fmt.Errorf("log format %q: want text or json", o.LogFormat)
	}
	if o.gc, err = gcFor(o.MemoryLimit, o.GCPercent, getenv, hostMemory()); err != nil {
		return o, err
	}
	return o, nil
}

func newLogger(o serveOptions, w io.Writer) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(strings.ToUpper(o.LogLevel))); err != nil {
		return nil, fmt.Errorf("log level %q: want debug, info, warn or error", o.LogLevel)
	}
	opts := &slog.HandlerOptions{Level: level}
	if o.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return slog.New(slog.NewTextHandler(w, opts)), nil
}

// instance is a running arcade: database, hub and SSH server.
type instance struct {
	log *slog.Logger
	// db is the node's own bbolt file (live logs, and everything else on a
	// single node); store is what the arcade reads and writes through: db
	// itself, or db split with the shared PostgreSQL database.
	db    *storage.DB
	store storage.Store
	hub   *lobby.Hub
	dir   *natsdir.Dir // the cluster directory; nil on a single node
	srv   *server.Server
	ops   *ops
	bans  *server.BanList // nil without --ban-file
	// analyst analyses finished games in the background until stopAnalyst.
	analyst     *analyst.Analyst
	stopAnalyst context.CancelFunc
	analystDone chan struct{}
}

// analysingStore is the hub's store: each game it finishes is queued for
// analysis once it is stored.
type analysingStore struct {
	storage.Store
	analyst *analyst.Analyst
}

// FinishGame stores the finished game, then queues it for analysis.
func (s analysingStore) FinishGame(g storage.FinishedGame) error {
	if err := s.Store.FinishGame(g); err != nil {
		return err
	}
	s.analyst.Finished(g.ID)
	return nil
}

// pacedObserver counts every move for the pace of play, then tells the
// metrics (inner, nil when they are off).
type pacedObserver struct {
	inner lobby.Observer
	pace  *analyst.Pace
}

// Action counts the move, then reports it (lobby.Observer).
func (o pacedObserver) Action(game string, outcome lobby.Outcome, took time.Duration) {
	if outcome == lobby.OutcomeOK {
		o.pace.Move()
	}
	if o.inner != nil {
		o.inner.Action(game, outcome, took)
	}
}

// TableBroken reports a broken table (lobby.Observer).
func (o pacedObserver) TableBroken(game string) {
	if o.inner != nil {
		o.inner.TableBroken(game)
	}
}

// games is every game the arcade serves, in menu order.
func games() *engine.Registry {
	return engine.NewRegistry(breakcode.Game{}, coding.Game{}, ifthen.Game{}, whattherule.Game{})
}

// openInstance opens the database, resumes the games in progress and builds
// the SSH server, without listening yet.
func openInstance(o serveOptions, log *slog.Logger) (*instance, error) {
	in := &instance{log: log}
	ops := newOps(o, log, in)
	dbPath := filepath.Join(o.DataDir, dbFile)
	if err := checkAdminSocketPath(o.AdminSocket); err != nil {
		return nil, err
	}
	db, err := storage.Open(dbPath, storage.Options{Timeout: time.Second, Logger: log, Observer: ops.storageObserver(), CheckTime: o.DBCheckTime})
	if errors.Is(err, storage.ErrLocked) {
		return nil, fmt.Errorf("%s is in use by another process (is another codebreakers server running on this data directory?)", dbPath)
	}
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	var store storage.Store = db
	if o.Postgres != "" {
		shared, err := postgres.Open(context.Background(), o.Postgres, postgres.Options{Logger: log})
		if err != nil {
			_ = db.Close()
			return nil, fmt.Errorf("open the shared database (--postgres): %w", err)
		}
		store = storage.NewSplit(db, shared)
		log.Info("accounts and records in PostgreSQL", "schema", postgres.SchemaVersion())
	}
	if o.BanFile != "" {
		if in.bans, err = server.LoadBanList(o.BanFile, log); err != nil {
			_ = store.Close()
			return nil, err
		}
	}
	reg := games()
	// The pace of play, counted from every move the tables handle, tells
	// the background analysis when to step aside.
	pace := analyst.NewPace(float64(o.AnalysisBusyMoves))
	in.analyst = analyst.New(analyst.Config{Games: reg, Store: store, Logger: log, Share: float64(o.AnalysisShare) / 100,
		Busy: pace.Busy})
	var hubStore lobby.Store = analysingStore{Store: store, analyst: in.analyst}
	if o.AnalysisShare == 0 {
		hubStore = store // nothing analysed in the background: each game on its first replay
	}
	hub, err := lobby.NewHub(lobby.Config{
		Muted:             in.bans.Muted,
		Games:             reg,
		Store:             hubStore,
		Logger:            log,
		Grace:             o.Grace,
		TurnTime:          turnTime(o.TurnTime),
		BotDelay:          o.BotDelay,
		Observer:          pacedObserver{inner: ops.lobbyObserver(), pace: pace},
		SeekBotWait:       o.SeekBotWait,
		SeeksPerMinute:    o.SeeksPerMinute,
		TablesPerMinute:   o.TablesPerMinute,
		NewHandlesPerHour: o.NewHandlesPerHour,
		RatedSameAddress:  o.RatedSameAddress,
	})
	if err != nil {
		_ = store.Close()
		return nil, fmt.Errorf("start lobby: %w", err)
	}
	var cluster *server.ClusterConfig
	if o.NATS != "" {
		if in.dir, cluster, err = joinCluster(o, log, hub); err != nil {
			hub.Close()
			_ = store.Close()
			return nil, err
		}
	}
	puzzles := puzzle.New(store, in.analyst, reg, nil)
	deps := tui.Deps{Hub: hub, Store: store, Games: reg, Logger: log, LeaderboardMinGames: o.LeaderboardMinGames,
		Analyst: in.analyst, Puzzles: puzzles}
	srv, err := server.New(server.Config{
		Addr:                     o.Addr,
		PublicHost:               o.PublicHost,
		HostKeyPath:              o.HostKey,
		Logger:                   log,
		IdleTimeout:              o.IdleTimeout,
		MaxSessionTime:           o.MaxSessionTime,
		MaxSessions:              o.MaxSessions,
		MaxSessionsPerIP:         o.MaxSessionsPerIP,
		ConnectionsPerMinute:     o.ConnsPerMinute,
		MaxSessionsPerConn:       o.MaxSessionsPerConn,
		SessionsPerConnPerMinute: o.SessionsPerConnPerMinute,
		ExecPerMinute:            o.ExecPerMinute,
		IPv6Prefix:               o.IPv6Prefix,
		FPS:                      o.FPS,
		StallTimeout:             o.StallTimeout,
		Bans:                     in.bans,
		Records:                  store,
		Analyst:                  in.analyst,
		Puzzles:                  puzzles,
		PositionText:             tui.PositionText,
		Games:                    reg,
		LeaderboardMinGames:      o.LeaderboardMinGames,
		Cluster:                  cluster,
		App: func(s server.Session) tea.Model {
			return tui.New(deps, tui.Session{
				Identity: s.Identity,
				Width:    s.Width,
				Height:   s.Height,
				Start:    tui.Start{Kind: s.Start.Kind, Arg: s.Start.Arg},
				Context:  s.Context,
				Colours:  s.Colours,
				SSH:      s.SSH,
				Send:     s.Send,
			})
		},
	})
	if err != nil {
		hub.Close()
		if in.dir != nil {
			in.dir.Close()
		}
		_ = store.Close()
		return nil, fmt.Errorf("start server: %w", err)
	}
	in.db, in.store, in.hub, in.srv, in.ops = db, store, hub, srv, ops
	actx, stop := context.WithCancel(context.Background())
	in.stopAnalyst, in.analystDone = stop, make(chan struct{})
	go func() {
		defer close(in.analystDone)
		if o.AnalysisShare > 0 {
			in.analyst.Run(actx)
		}
	}()
	if err := ops.start(o, in); err != nil {
		_ = in.close(time.Second)
		return nil, err
	}
	return in, nil
}

// close shuts down in order: the server (players told, connections closed
// within timeout), then the hub, then the database, which flushes last.
func (in *instance) close(timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var errs []error
	in.ops.drain()
	if in.dir != nil {
		in.dir.SetDraining()
	}
	if err := in.srv.Shutdown(ctx); err != nil {
		errs = append(errs, err)
	}
	in.hub.Close()
	if in.dir != nil {
		in.dir.Close() // after the hub: its tables leave the directory at once
	}
	in.stopAnalyst()
	<-in.analystDone // an analysis in hand finishes first: at most a few seconds
	if err := in.ops.stop(ctx); err != nil {
		errs = append(errs, fmt.Errorf("stop metrics and admin socket: %w", err))
	}
	if err := in.store.Close(); err != nil {
		errs = append(errs, fmt.Errorf("close database: %w", err))
	}
	return errors.Join(errs...)
}

// serve runs the arcade until ctx ends (SIGINT/SIGTERM), then shuts down.
func serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	o, err := parseServe(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	log, err := newLogger(o, stderr)
	if err != nil {
		return err
	}
	checkFileLimit(log, o.MaxSessions)
	applyGC(o.gc, log)
	in, err := openInstance(o, log)
	if err != nil {
		return err
	}
	ln, err := listen(o)
	if err != nil {
		_ = in.close(o.ShutdownTimeout)
		return err
	}
	served := make(chan error, 2)
	go func() { served <- in.srv.Serve(ln) }()
	if o.NodeAddr != "" && o.NATS != "" {
		nodeLn, err := net.Listen("tcp", o.NodeAddr)
		if err != nil {
			_ = ln.Close()
			_ = in.close(o.ShutdownTimeout)
			return fmt.Errorf("node link: listen on %s: %w", o.NodeAddr, err)
		}
		go func() { served <- in.srv.ServeNodes(nodeLn) }()
	}

	hup := reloadSignal()
	defer signal.Stop(hup)
wait:
	for {
		select {
		case <-ctx.Done():
			log.Info("shutting down", "timeout", o.ShutdownTimeout.String())
			break wait
		case err = <-served:
			log.Error("server stopped", "err", err)
			break wait
		case <-hup:
			in.reloadBans()
		}
	}
	if cerr := in.close(o.ShutdownTimeout); cerr != nil {
		log.Warn("shutdown", "err", cerr)
	}
	if err != nil && !errors.Is(err, server.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	log.Info("stopped")
	return nil
}
