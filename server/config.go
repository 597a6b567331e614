package server

import (
	"errors"
	"log/slog"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/lobby/puzzle"
	"github.com/codebreakers/codebreakers/storage"
)

// Defaults for Config fields left at their zero value. They are sized for a
// small public arcade on a two-core machine.
const (
	DefaultAddr             = ":2222"
	DefaultHandshakeTimeout = 10 * time.Second
	// DefaultSessionStartTimeout is Config.SessionStartTimeout's default.
	DefaultSessionStartTimeout = 10 * time.Second
	DefaultIdleTimeout         = 15 * time.Minute
	DefaultMaxSessionTime      = 6 * time.Hour
	// DefaultMaxSessions is sized from the load generator on a 2-core
	// machine (BENCHMARKS.md, issue 20): it held 10,000 idle sessions in
	// 1.3 GB and seated 2,000 tables (4,400 sessions) in 1.6 GB; 4,000
	// sessions fit in 2 GB even if every one of them is playing.
	DefaultMaxSessions        = 4000
	DefaultMaxSessionsPerIP   = 8
	DefaultConnectionsPerMin  = 30
	DefaultMaxSessionsPerConn = 3
	DefaultSessionsPerConnMin = 20
	DefaultExecPerMinute      = 30
	DefaultIPv6Prefix         = 64
	DefaultMaxEnv             = 32
	DefaultMaxWidth           = 240
	DefaultMaxHeight          = 80
	DefaultFPS                = 30
	DefaultStallTimeout       = 30 * time.Second
	DefaultInputPerSecond     = 1024
	DefaultInputBurst         = 4096
	// DefaultLeaderboardMinGames and DefaultLeaderboardWindow choose who a
	// leaderboard lists: enough rated games, recently.
	DefaultLeaderboardMinGames = 5
	DefaultLeaderboardWindow   = 30 * 24 * time.Hour
)

// Config is everything the SSH server needs. Zero values take the defaults
// above, except HostKeyPath, which is required so that no library ever
// writes a key into the working directory.
type Config struct {
	// Addr is the TCP address to listen on, e.g. ":2222".
	Addr string
	// PublicHost is the host players connect to, "HOST" or "HOST:PORT",
	// for the commands the server tells them to run ("ssh -t -p 2222
	// play.example.org replay ID"). Empty: the host the server listens on
	// (localhost when it listens on every address); without a port, the
	// port it listens on.
	PublicHost string
	// HostKeyPath is the ed25519 host key file. It is created with mode 0600
	// (its directory 0700) when missing.
	HostKeyPath string
	// Logger receives structured logs. Nil means slog.Default().
	Logger *slog.Logger

	// HandshakeTimeout bounds the SSH handshake and authentication.
	HandshakeTimeout time.Duration
	// SessionStartTimeout bounds how long a session channel may wait
	// before it asks for a shell or a command (default
	// DefaultSessionStartTimeout). Until it does, whatever the client
	// sends on it is held in memory, up to the channel's window of 2 MiB.
	SessionStartTimeout time.Duration
	// IdleTimeout ends a session that has sent no input for this long.
	// Output does not count: a screen that repaints is not a player.
	IdleTimeout time.Duration
	// MaxSessionTime ends any session after this long, however active.
	MaxSessionTime time.Duration

	// MaxSessions caps concurrent sessions on the whole server.
	MaxSessions int
	// MaxSessionsPerIP caps concurrent sessions from one address.
	MaxSessionsPerIP int
	// ConnectionsPerMinute is how many new connections one address may open
	// per minute (with a burst of the same size).
	ConnectionsPerMinute int
	// MaxSessionsPerConn caps concurrent session channels on one connection.
	// A session holds its place until its handler has returned, not only
	// until its channel closes.
	MaxSessionsPerConn int
	// SessionsPerConnPerMinute caps how many session channels one
	// connection may open in a minute (one after another): each is a new
	// guest for a client without a key.
	SessionsPerConnPerMinute int
	// ExecPerMinute is how many commands (`ssh HOST history`, `replay ID`,
	// `join CODE`, …) one address may run per minute, with a burst of the
	// same size. The interactive arcade (no command) does not count.
	ExecPerMinute int
	// IPv6Prefix is how many leading bits of an IPv6 address the
	// per-address limits group by (default 64, the usual customer network;
	// 48 or 56 is stricter, 128 counts every address alone). Bans and logs
	// keep the full address.
	IPv6Prefix int
	// MaxEnv caps the environment entries a session may send.
	MaxEnv int

	// MaxWidth and MaxHeight clamp every terminal size the client reports.
	// The screen is drawn line by line, so this mostly bounds frame size.
	MaxWidth, MaxHeight int
	// FPS is the frame-rate ceiling per session. Frames are drawn only
	// when the view changes, so this bounds bursts, not idle cost.
	FPS int
	// StallTimeout is how long a write to a client may block before the
	// client counts as gone and its connection is closed. Output waiting
	// for a client is also capped (256 KiB); beyond it, the same.
	StallTimeout time.Duration
	// InputPerSecond and InputBurst meter each session's input in bytes
	// (a token bucket). Typing and key repeat stay far below; a paste or a
	// key flood beyond the burst is dropped, not queued.
	InputPerSecond, InputBurst int
	// Bans refuses banned addresses and keys and mutes keys in chat. Nil
	// bans nobody.
	Bans *BanList

	// App builds the Bubble Tea model for an interactive (PTY) session.
	// A model may end its program asking for the session to be carried to
	// another node (a Handoff() (node, kind, code string, ok bool) method);
	// the server then splices it there over the node link (Cluster).
	App AppFunc
	// Cluster links this node to the others (nil: a single node).
	Cluster *ClusterConfig
	// Records answers the exec commands (history, stats, replay). Nil
	// disables them with a clear message.
	Records Records
	// Games rebuilds finished games for the `replay ID` transcript.
	Games *engine.Registry
	// Analyst gives the analysis printed after a `replay ID` transcript
	// (nil: none).
	Analyst Analyst
	// Puzzles answers the `puzzle` command (nil: the server has none), and
	// PositionText draws a puzzle's position in plain text (nil: the
	// position is described by what its seat knew).
	Puzzles      Puzzles
	PositionText func(p storage.Puzzle, pos puzzle.Position, w, h int) []string
	// LeaderboardMinGames is how many rated games an account needs to be
	// on a leaderboard (default 5), and LeaderboardWindow how recent its
	// last rated game must be (default 30 days).
	LeaderboardMinGames int
	LeaderboardWindow   time.Duration
}

func (c Config) withDefaults() (Config, error) {
	if c.HostKeyPath == "" {
		return c, errors.New("server config: HostKeyPath is required")
	}
	if c.App == nil {
		return c, errors.New("server config: App is required")
	}
	if c.Addr == "" {
		c.Addr = DefaultAddr
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	setDuration(&c.HandshakeTimeout, DefaultHandshakeTimeout)
	setDuration(&c.SessionStartTimeout, DefaultSessionStartTimeout)
	setDuration(&c.IdleTimeout, DefaultIdleTimeout)
	setDuration(&c.MaxSessionTime, DefaultMaxSessionTime)
	setInt(&c.MaxSessions, DefaultMaxSessions)
	setInt(&c.MaxSessionsPerIP, DefaultMaxSessionsPerIP)
	setInt(&c.ConnectionsPerMinute, DefaultConnectionsPerMin)
	setInt(&c.MaxSessionsPerConn, DefaultMaxSessionsPerConn)
	setInt(&c.SessionsPerConnPerMinute, DefaultSessionsPerConnMin)
	setInt(&c.ExecPerMinute, DefaultExecPerMinute)
	setInt(&c.IPv6Prefix, DefaultIPv6Prefix)
	if c.IPv6Prefix > 128 {
		return c, errors.New("server config: IPv6Prefix must be at most 128")
	}
	setInt(&c.MaxEnv, DefaultMaxEnv)
	setInt(&c.MaxWidth, DefaultMaxWidth)
	setInt(&c.MaxHeight, DefaultMaxHeight)
	setInt(&c.FPS, DefaultFPS)
	setDuration(&c.StallTimeout, DefaultStallTimeout)
	setInt(&c.InputPerSecond, DefaultInputPerSecond)
	setInt(&c.InputBurst, DefaultInputBurst)
	setInt(&c.LeaderboardMinGames, DefaultLeaderboardMinGames)
	setDuration(&c.LeaderboardWindow, DefaultLeaderboardWindow)
	return c, nil
}

func setDuration(d *time.Duration, def time.Duration) {
	if *d <= 0 {
		*d = def
	}
}

func setInt(n *int, def int) {
	if *n <= 0 {
		*n = def
	}
}
