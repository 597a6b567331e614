package main

import (
	"fmt"
	"log/slog"
	"syscall"
)

// filesPerSession is what one session holds open: its TCP connection.
// filesBeyondSessions is the rest of the process: the database, the host
// key, listeners (SSH, node link, metrics, pprof, admin socket), logs, and
// connections still being refused or handshaking.
const (
	filesPerSession     = 1
	filesBeyondSessions = 256
)

// filesNeeded is the open-file limit a server allowing maxSessions needs.
func filesNeeded(maxSessions int) uint64 {
	return uint64(maxSessions*filesPerSession + filesBeyondSessions)
}

// fileLimitWarning says what is wrong when the process may open fewer
// files than maxSessions need ("" when enough). Go raises the soft limit
// to the hard one at start, so the hard limit is what counts.
func fileLimitWarning(hard uint64, maxSessions int) string {
	need := filesNeeded(maxSessions)
	if hard >= need {
		return ""
	}
	return fmt.Sprintf("the open-file limit (%d) is below what --max-sessions %d needs (%d): new connections will fail before the session cap; raise LimitNOFILE (systemd) or ulimit -n, or lower --max-sessions",
		hard, maxSessions, need)
}

// checkFileLimit logs a warning when the open-file limit is too low for
// maxSessions.
func checkFileLimit(log *slog.Logger, maxSessions int) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		log.Warn("cannot read the open-file limit", "err", err)
		return
	}
	if w := fileLimitWarning(rl.Max, maxSessions); w != "" {
		log.Warn(w, "limit", rl.Max, "max_sessions", maxSessions, "needed", filesNeeded(maxSessions))
	}
}
