package lobby

import (
	"errors"
	"fmt"
	"slices"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/textsafe"
)

// A cluster of nodes shares one directory (lobby/natsdir keeps it in NATS):
// which node holds each join code, a summary of every table, and which
// node holds each account's seat. Tables stay pinned to the node that made
// them; the directory only says where they are, so that a node can carry a
// player to the table's node (the server's session splice).
//
// Matchmaking pools stay per node: a seeker is matched with the people
// seeking on the node they are connected to. With source-address balancing
// most people land on one node anyway, and a pool that spanned nodes would
// need a second authority over seats; the pools' sizes are not published.
// Likewise the wrong-code limit counts per node.

// Directory is a cluster's shared index of tables and seats. A Hub without
// one is a single node.
type Directory interface {
	// Node is this node's name in the cluster.
	Node() string
	// Claim registers a new join code for a table of this node, create-only:
	// an error matching ErrCodeTaken means another node holds it; one
	// matching ErrDirectoryDown means the directory cannot be reached (the
	// table then starts local-only and is published once it is back).
	Claim(code string) error
	// Locate says which node holds the table with this code: "" when no
	// node does, or an error matching ErrDirectoryDown.
	Locate(code string) (node string, err error)
	// SeatOf says which node and table hold the account's seat ("" when
	// none), or an error matching ErrDirectoryDown.
	SeatOf(account string) (node, code string, err error)
	// Tables lists the tables other nodes publish, from a local copy kept
	// up to date by watching (no network round trip).
	Tables() []TableSummary
	// Changed asks for this node's tables and seats to be published soon
	// (without waiting for the next refresh). It never blocks.
	Changed()
}

// ErrCodeTaken means another node holds a join code.
var ErrCodeTaken = errors.New("join code taken by another node")

// ErrDirectoryDown means the cluster's directory cannot be reached.
var ErrDirectoryDown = errors.New("the cluster directory is unreachable")

// errCrossNodeDown is what a player sees when a code is not on this node
// and the directory cannot say where it is.
var errCrossNodeDown = &engine.IllegalError{Msg: "That table is not on this server, and the other servers " +
	"cannot be asked right now (the cluster directory is unreachable). Games here go on; try the code again in a minute."}

// ElsewhereError says that what a player asked for (a table to join or
// watch, or their own seat to resume) is on another node. The server
// carries the player's session there (see server.Config.Splice).
type ElsewhereError struct {
	Node string // the node holding the table
	Code string // canonical join code
	// Kind is "join", "watch" or "resume".
	Kind string
}

func (e *ElsewhereError) Error() string {
	return fmt.Sprintf("table %s is on node %s", FormatCode(e.Code), e.Node)
}

// ClusterTable is one of this node's tables as the directory publishes it.
type ClusterTable struct {
	Code    string
	Summary TableSummary
}

// ClusterTables lists this node's open tables for the directory.
func (h *Hub) ClusterTables() []ClusterTable {
	h.mu.Lock()
	tables := make([]*table, 0, len(h.tables))
	for _, t := range h.tables {
		tables = append(tables, t)
	}
	h.mu.Unlock()
	out := make([]ClusterTable, 0, len(tables))
	for _, t := range tables {
		sum := TableSummary{Code: FormatCode(t.code)}
		if s := t.summary.Load(); s != nil {
			sum = *s
		}
		out = append(out, ClusterTable{Code: t.code, Summary: sum})
	}
	return out
}

// ClusterSeats lists the seats held on this node: account → canonical code.
func (h *Hub) ClusterSeats() map[string]string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[string]string, len(h.seats))
	for acct, t := range h.seats {
		out[acct] = t.code
	}
	return out
}

// SetDirectory joins the hub to a cluster's directory; call it once,
// before players arrive. Tables made from then on claim their codes in it.
func (h *Hub) SetDirectory(d Directory) {
	h.mu.Lock()
	h.dir = d
	h.mu.Unlock()
	if d != nil {
		d.Changed()
	}
}

func (h *Hub) directory() Directory {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.dir
}

// claimCode reserves code in the directory. It reports false only when
// another node holds the code; a directory that cannot be reached lets the
// table start on this node alone (it is published once the directory is
// back).
func (h *Hub) claimCode(d Directory, code string) bool {
	err := d.Claim(code)
	switch {
	case err == nil:
		return true
	case errors.Is(err, ErrCodeTaken):
		return false
	default:
		h.log.Warn("directory: claim join code", "code", code, "err", err)
		return true
	}
}

// locate asks the directory for a code this node does not hold: an
// ElsewhereError when another node holds it, nil when no node does.
func (h *Hub) locate(code, kind string) error {
	d := h.directory()
	if d == nil {
		return nil
	}
	node, err := d.Locate(code)
	switch {
	case err != nil:
		h.log.Warn("directory: locate join code", "code", code, "err", err)
		return errCrossNodeDown
	case node == "" || node == d.Node():
		return nil
	}
	return &ElsewhereError{Node: node, Code: code, Kind: kind}
}

// SeatElsewhere reports a seat the account holds on another node of the
// cluster, for a session that found none here (Resume said false): the
// server then carries the session there to resume it. Nil when there is
// none, or no cluster.
func (h *Hub) SeatElsewhere(id Identity) *ElsewhereError {
	d := h.directory()
	if d == nil || id.Account == "" || id.Guest {
		return nil
	}
	node, code, err := d.SeatOf(id.Account)
	if err != nil {
		h.log.Warn("directory: look up seat", "account", id.Account, "err", err)
		return nil
	}
	if node == "" || node == d.Node() {
		return nil
	}
	return &ElsewhereError{Node: node, Code: code, Kind: "resume"}
}

// remoteTables is the public tables other nodes publish. Their text came
// from outside this process, so it is cleaned here, where it comes in.
func (h *Hub) remoteTables() []TableSummary {
	d := h.directory()
	if d == nil {
		return nil
	}
	out := slices.DeleteFunc(d.Tables(), func(s TableSummary) bool {
		return !s.Public || (s.Phase != Waiting && s.Phase != Playing) || s.Node == "" || s.Node == d.Node()
	})
	for i, s := range out {
		out[i].Code = textsafe.Clean(s.Code, 12).String()
		out[i].GameName = textsafe.Clean(s.GameName, 40).String()
		out[i].Host = textsafe.Clean(s.Host.String(), textsafe.MaxHandle)
	}
	return out
}
