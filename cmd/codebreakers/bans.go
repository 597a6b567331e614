package main

import (
	"os"
	"os/signal"
	"syscall"
)

// reloadSignal delivers SIGHUP, the operator's "reread the ban list".
func reloadSignal() chan os.Signal {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	return hup
}

// reloadBans rereads the ban list; a bad edit leaves the previous list in
// force and says why in the log.
func (in *instance) reloadBans() {
	if in.bans == nil {
		in.log.Info("SIGHUP: no --ban-file to reload")
		return
	}
	if err := in.bans.Reload(); err != nil {
		in.log.Error("ban list not reloaded; the previous one stays in force", "err", err)
		return
	}
	in.srv.EnforceBans()
}
