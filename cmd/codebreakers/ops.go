package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/codebreakers/codebreakers/engine/words"
	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/lobby/analyst"
	"github.com/codebreakers/codebreakers/server"
	"github.com/codebreakers/codebreakers/server/metrics"
	"github.com/codebreakers/codebreakers/storage"
)

// adminSocketName is the admin socket's file name inside the data directory.
const adminSocketName = "admin.sock"

// ops is the operator's side of a running instance: metrics and health
// over HTTP (only when --metrics-addr is set) and the admin socket that
// `codebreakers backup` and `codebreakers export` talk to.
//
// The admin socket is a unix socket, mode 0600, in the data directory
// (itself 0700): file permissions are its authentication, so only the
// server's own user (and root) can take a copy of the database.
type ops struct {
	log      *slog.Logger
	metrics  *metrics.Metrics // nil when metrics are off
	draining atomic.Bool

	metricsAddr string // bound address, "" when off
	servers     []*http.Server
	running     sync.WaitGroup // one per server still serving
}

// newOps prepares the metrics collectors when they are asked for. The
// gauges read in through in, which is filled in before start is called.
func newOps(o serveOptions, log *slog.Logger, in *instance) *ops {
	p := &ops{log: log}
	if o.MetricsAddr != "" {
		p.metrics = metrics.New(metrics.Sources{
			Sessions: func() int { return in.srv.Sessions() },
			Tables:   func() []lobby.TableCount { return in.hub.TableCounts() },
			Analyses: func() analyst.Stats { return in.analyst.Stats() },
		})
	}
	return p
}

// storageObserver is the storage hook: nil (off) unless metrics are on. A
// nil *Metrics must not become a non-nil interface, hence the check.
func (p *ops) storageObserver() storage.Observer {
	if p.metrics == nil {
		return nil
	}
	return p.metrics
}

// lobbyObserver is the hub hook, nil unless metrics are on.
func (p *ops) lobbyObserver() lobby.Observer {
	if p.metrics == nil {
		return nil
	}
	return p.metrics
}

// start opens the metrics listener and the admin socket.
func (p *ops) start(o serveOptions, in *instance) error {
	if p.metrics != nil {
		ln, err := net.Listen("tcp", o.MetricsAddr)
		if err != nil {
			return fmt.Errorf("metrics: listen on %s: %w", o.MetricsAddr, err)
		}
		p.metricsAddr = ln.Addr().String()
		p.serve(ln, p.metrics.Handler(p.health(in)))
		p.log.Info("metrics listening", "addr", p.metricsAddr)
	}
	if o.PprofAddr != "" {
		ln, err := net.Listen("tcp", o.PprofAddr)
		if err != nil {
			return fmt.Errorf("pprof: listen on %s: %w", o.PprofAddr, err)
		}
		p.serve(ln, pprofHandler())
		p.log.Info("pprof listening", "addr", ln.Addr().String())
	}
	if o.AdminSocket != "" && o.AdminSocket != "off" {
		ln, err := listenAdmin(o.AdminSocket)
		if err != nil {
			// Backups still work with the server stopped; say how to fix it.
			p.log.Warn("admin socket unavailable: `codebreakers backup` and `export` need the server stopped",
				"path", o.AdminSocket, "err", err)
		} else {
			p.serve(ln, adminHandler(in, p.log))
		}
	}
	return nil
}

// pprofHandler serves Go's runtime profiles under /debug/pprof/, on their
// own listener so that turning them on never exposes them next to metrics
// that a scraper may reach.
func pprofHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// checkAdminSocketPath refuses an --admin-socket path where something
// other than a socket lives: a stale socket is removed at start, and
// removing the database (or anything else) there would be a disaster.
func checkAdminSocketPath(path string) error {
	if path == "" || path == "off" {
		return nil
	}
	info, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--admin-socket %s: %w", path, err)
	}
	if info.Mode().Type() != os.ModeSocket {
		return fmt.Errorf("--admin-socket %s: something that is not a socket is there (%s); refusing to replace it: point --admin-socket at a new path", path, describeMode(info.Mode()))
	}
	return nil
}

// describeMode names what kind of file a mode is, for messages.
func describeMode(m os.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&os.ModeSymlink != 0:
		return "a symbolic link"
	default:
		return m.Type().String()
	}
}

// listenAdmin creates the admin socket with mode 0600. A socket left by a
// crashed server is removed first (this process already holds the
// database lock, so no other live server can own it); anything else there
// is refused.
func listenAdmin(path string) (net.Listener, error) {
	if err := checkAdminSocketPath(path); err != nil {
		return nil, err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("remove stale admin socket: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("admin socket directory: %w", err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("chmod %s: %w", path, err)
	}
	return ln, nil
}

// serve runs an HTTP server on ln until shutdown.
func (p *ops) serve(ln net.Listener, h http.Handler) {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ErrorLog:          slog.NewLogLogger(p.log.Handler(), slog.LevelWarn),
	}
	p.servers = append(p.servers, srv)
	p.running.Go(func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			p.log.Error("operator HTTP server stopped", "addr", ln.Addr().String(), "err", err)
		}
	})
}

// health is ready while the database answers reads and takes writes and no
// shutdown has begun, so a load balancer stops sending players before the
// server stops, and to a server whose disk is full or read-only (every
// move would be refused) until writes succeed again. On a cluster node
// the shared database counts too: while it refuses writes, no new game
// can start and no sign-in or finished game is stored.
func (p *ops) health(in *instance) metrics.HealthCheck {
	return func(ctx context.Context) error {
		if p.draining.Load() {
			return errors.New("draining: shutting down, or told to drain (codebreakers drain); new players belong on other nodes")
		}
		var st healthStore = in.db
		if s, ok := in.store.(healthStore); ok {
			st = s // the node's file and the shared database (storage.Split)
		}
		if err := st.Ping(); err != nil {
			return err
		}
		return st.WriteHealth()
	}
}

// healthStore is what /healthz asks of the store.
type healthStore interface {
	Ping() error
	WriteHealth() error
}

// drain marks the instance unhealthy: shutdown has begun.
func (p *ops) drain() { p.draining.Store(true) }

// stop closes the operator servers, letting a backup in flight finish
// within ctx.
func (p *ops) stop(ctx context.Context) error {
	var errs []error
	for _, srv := range p.servers {
		if err := srv.Shutdown(ctx); err != nil {
			errs = append(errs, err)
			_ = srv.Close()
		}
	}
	p.running.Wait()
	return errors.Join(errs...)
}

// adminHandler answers the backup and export commands on the admin socket.
func adminHandler(in *instance, log *slog.Logger) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /backup", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		n, err := in.db.Backup(w)
		if err != nil {
			// Headers are gone already; the client notices the short copy
			// when it verifies the file.
			log.Error("backup over admin socket", "bytes", n, "err", err)
			return
		}
		log.Info("backup taken", "bytes", n)
	})
	mux.HandleFunc("GET /drain", func(w http.ResponseWriter, r *http.Request) {
		in.ops.drain()
		if in.dir != nil {
			in.dir.SetDraining()
		}
		sessions, tables := in.hub.Online()
		log.Info("draining: health checks now fail so balancers send new players elsewhere", "sessions", sessions, "tables", tables)
		fmt.Fprintf(w, "draining: /healthz now answers 503; %s and %s still open here\n",
			words.Count(sessions, "session", "sessions"), words.Count(tables, "table", "tables"))
	})
	mux.HandleFunc("GET /export", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		n, err := exportGames(in.store, w)
		if err != nil {
			log.Error("export over admin socket", "games", n, "err", err)
			return
		}
		log.Info("games exported", "games", n)
	})
	return mux
}

// adminClient talks HTTP to the admin socket at path.
func adminClient(path string) *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", path)
		},
	}}
}

// errNoServer means no server answers on the admin socket: the caller may
// open the database file itself.
var errNoServer = errors.New("no server is running on this data directory")

// askServer fetches what (backup or export) from the running server and
// copies it to w. It returns errNoServer when the socket is missing or
// stale.
func askServer(ctx context.Context, socket, what string, w io.Writer) (int64, error) {
	if _, err := os.Stat(socket); errors.Is(err, os.ErrNotExist) {
		return 0, errNoServer
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://codebreakers/"+what, nil)
	if err != nil {
		return 0, err
	}
	resp, err := adminClient(socket).Do(req)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED) {
			return 0, errNoServer // a socket file left behind by a server that died
		}
		return 0, fmt.Errorf("ask the server over %s: %w", socket, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return 0, fmt.Errorf("the server refused the %s: %s %s", what, resp.Status, body)
	}
	n, err := io.Copy(w, resp.Body)
	if err != nil {
		return n, fmt.Errorf("receive the %s: %w", what, err)
	}
	return n, nil
}

// listen opens the SSH listener, behind the PROXY protocol when trusted
// load balancers are configured.
func listen(o serveOptions) (net.Listener, error) {
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", o.Addr, err)
	}
	if len(o.proxyTrusted) == 0 {
		return ln, nil
	}
	pl, err := server.ProxyListener(ln, o.proxyTrusted, server.DefaultProxyHeaderTimeout)
	if err != nil {
		_ = ln.Close()
		return nil, err
	}
	return pl, nil
}
