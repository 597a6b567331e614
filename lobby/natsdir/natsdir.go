// Package natsdir keeps a cluster's lobby directory in NATS JetStream
// key-value buckets:
//
//	codebreakers_tables  join code → {node, table summary}
//	codebreakers_seats   hash of an account → {node, code, account}
//	codebreakers_nodes   node name → {link address, draining}
//
// A node claims a new join code with a create-only write, so two nodes never
// hand out one code. Every entry a node owns is rewritten every TTL/3 and
// the buckets drop entries older than the TTL, so the tables, seats and
// name of a node that died leave the directory within the TTL. Writes to a
// code this node owns compare the revision it last wrote, so a node whose
// entry expired (cut off for longer than the TTL) never overwrites a code
// another node has claimed since.
//
// Every node watches the tables and nodes buckets and keeps a local copy:
// the public list and the address of a node cost no network round trip.
// When NATS cannot be reached, local play goes on: claims are retried by
// the refresher, and lookups that need the network say ErrDirectoryDown.
package natsdir

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/codebreakers/codebreakers/lobby"
)

// Bucket names.
const (
	BucketTables = "codebreakers_tables"
	BucketSeats  = "codebreakers_seats"
	BucketNodes  = "codebreakers_nodes"
)

// Options configures Open.
type Options struct {
	// URL is the NATS server (nats://host:4222; several comma-separated).
	URL string
	// Node is this node's name, unique in the cluster.
	Node string
	// Link is the address other nodes dial to carry sessions here (the
	// node link); published in the nodes bucket.
	Link string
	// TTL is how long an entry outlives its node's last refresh (default
	// 15s); entries are refreshed every TTL/3.
	TTL time.Duration
	// Timeout bounds each request to NATS (default 2s).
	Timeout time.Duration
	Logger  *slog.Logger
}

// Source is what the directory publishes: the hub's own tables and seats.
type Source interface {
	ClusterTables() []lobby.ClusterTable
	ClusterSeats() map[string]string
}

// Dir is a node's view of the cluster directory. It implements
// lobby.Directory.
type Dir struct {
	opt    Options
	log    *slog.Logger
	nc     *nats.Conn
	tables jetstream.KeyValue
	seats  jetstream.KeyValue
	nodes  jetstream.KeyValue

	poke chan struct{} // 1-buffered: publish soon
	quit chan struct{}
	done sync.WaitGroup
	// life ends when Close begins, cutting short any request in flight (a
	// NATS that is away answers nothing: shutdown must not wait for it).
	life     context.Context
	lifeDone context.CancelFunc

	mu        sync.Mutex
	draining  bool
	remote    map[string]tableEntry // code → entry, from the watch
	links     map[string]nodeEntry  // node → entry, from the watch
	owned     map[string]uint64     // codes this node wrote → last revision
	lost      map[string]bool       // codes another node took from us (logged once)
	seatsSent map[string]seatEntry  // seat key → what this node last wrote
}

var _ lobby.Directory = (*Dir)(nil)

type tableEntry struct {
	Node    string             `json:"node"`
	Summary lobby.TableSummary `json:"summary"`
	At      time.Time          `json:"-"` // when the entry was written (from NATS)
}

type seatEntry struct {
	Node    string `json:"node"`
	Code    string `json:"code"`
	Account string `json:"account"`
}

type nodeEntry struct {
	Node     string    `json:"node"`
	Link     string    `json:"link"`
	Draining bool      `json:"draining,omitempty"`
	At       time.Time `json:"-"`
}

// Open connects to NATS, creates the buckets when missing and starts
// watching them. NATS that cannot be reached at start is an error (the
// caller should refuse to start); later outages are ridden out.
func Open(ctx context.Context, opt Options) (*Dir, error) {
	if opt.Node == "" {
		return nil, errors.New("natsdir: a node name is required")
	}
	if opt.TTL <= 0 {
		opt.TTL = 15 * time.Second
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 2 * time.Second
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	d := &Dir{
		opt: opt, log: opt.Logger.With("component", "directory"),
		poke: make(chan struct{}, 1), quit: make(chan struct{}),
		remote: map[string]tableEntry{}, links: map[string]nodeEntry{}, owned: map[string]uint64{},
		lost: map[string]bool{}, seatsSent: map[string]seatEntry{},
	}
	d.life, d.lifeDone = context.WithCancel(context.Background())
	nc, err := nats.Connect(opt.URL,
		nats.Name("codebreakers "+opt.Node),
		nats.Timeout(opt.Timeout),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(500*time.Millisecond),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			d.log.Warn("NATS connection lost; local play goes on", "err", err)
		}),
		nats.ReconnectHandler(func(*nats.Conn) { d.log.Info("NATS connection back"); d.Changed() }),
	)
	if err != nil {
		return nil, fmt.Errorf("cannot reach NATS at %s: %w", opt.URL, err)
	}
	d.nc = nc
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("NATS JetStream: %w", err)
	}
	cctx, cancel := context.WithTimeout(ctx, 10*opt.Timeout)
	defer cancel()
	for _, b := range []struct {
		name string
		kv   *jetstream.KeyValue
	}{{BucketTables, &d.tables}, {BucketSeats, &d.seats}, {BucketNodes, &d.nodes}} {
		kv, err := js.CreateOrUpdateKeyValue(cctx, jetstream.KeyValueConfig{
			Bucket: b.name, History: 1, TTL: opt.TTL, Storage: jetstream.FileStorage,
			Description: "codebreakers cluster directory",
		})
		if err != nil {
			nc.Close()
			return nil, fmt.Errorf("NATS at %s: create key-value bucket %s (is JetStream enabled?): %w", opt.URL, b.name, err)
		}
		*b.kv = kv
	}
	d.done.Add(2)
	go d.watch(d.tables, d.applyTable)
	go d.watch(d.nodes, d.applyNode)
	return d, nil
}

// Node is this node's name.
func (d *Dir) Node() string { return d.opt.Node }

// Publish starts publishing src's tables and seats, and this node's link,
// every TTL/3 and whenever Changed is called, until Close.
func (d *Dir) Publish(src Source) {
	d.done.Add(1)
	go d.refresh(src)
}

// SetDraining marks this node as draining in the nodes bucket (published
// with the next refresh); others may prefer the rest.
func (d *Dir) SetDraining() {
	d.mu.Lock()
	d.draining = true
	d.mu.Unlock()
	d.Changed()
}

// Changed asks for a refresh soon; it never blocks.
func (d *Dir) Changed() {
	select {
	case d.poke <- struct{}{}:
	default:
	}
}

// Connected reports whether the NATS connection is up (for health and
// metrics).
func (d *Dir) Connected() bool { return d.nc.IsConnected() }

// Close stops watching and publishing and deletes this node's entries (a
// node that shuts down cleanly leaves at once rather than after the TTL).
func (d *Dir) Close() {
	close(d.quit)
	d.lifeDone()
	d.done.Wait()
	if !d.nc.IsConnected() {
		d.nc.Close() // nobody to say goodbye to: the entries expire by themselves
		return
	}
	d.mu.Lock()
	owned := maps.Clone(d.owned)
	seats := maps.Clone(d.seatsSent)
	d.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), d.opt.Timeout)
	defer cancel()
	for code, rev := range owned {
		_ = d.tables.Delete(ctx, code, jetstream.LastRevision(rev))
	}
	for key := range seats {
		_ = d.seats.Delete(ctx, key)
	}
	_ = d.nodes.Delete(ctx, d.opt.Node)
	d.nc.Close()
}

func (d *Dir) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d.opt.Timeout)
}

// down wraps a NATS failure as lobby.ErrDirectoryDown.
func down(err error) error { return fmt.Errorf("%w: %w", lobby.ErrDirectoryDown, err) }

// Claim writes code create-only for this node.
func (d *Dir) Claim(code string) error {
	val, err := json.Marshal(tableEntry{Node: d.opt.Node, Summary: lobby.TableSummary{Code: lobby.FormatCode(code)}})
	if err != nil {
		return err
	}
	ctx, cancel := d.ctx()
	defer cancel()
	rev, err := d.tables.Create(ctx, code, val)
	switch {
	case err == nil:
		d.mu.Lock()
		d.owned[code] = rev
		d.mu.Unlock()
		return nil
	case errors.Is(err, jetstream.ErrKeyExists):
		return fmt.Errorf("claim %s: %w", code, lobby.ErrCodeTaken)
	}
	return fmt.Errorf("claim %s: %w", code, down(err))
}

// Locate says which node holds code: from the watched copy, else asking
// NATS (the watch may not have seen a table made a moment ago).
func (d *Dir) Locate(code string) (string, error) {
	d.mu.Lock()
	e, ok := d.remote[code]
	d.mu.Unlock()
	if ok && time.Since(e.At) < d.opt.TTL {
		return e.Node, nil
	}
	ctx, cancel := d.ctx()
	defer cancel()
	entry, err := d.tables.Get(ctx, code)
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
		return "", nil
	}
	if err != nil {
		return "", down(err)
	}
	var te tableEntry
	if err := json.Unmarshal(entry.Value(), &te); err != nil {
		return "", fmt.Errorf("directory entry %s: %w", code, err)
	}
	return te.Node, nil
}

// seatKey is the seats bucket key of an account: account ids hold
// characters NATS keys may not.
func seatKey(account string) string {
	sum := sha256.Sum256([]byte(account))
	return hex.EncodeToString(sum[:16])
}

// SeatOf says which node and table hold the account's seat.
func (d *Dir) SeatOf(account string) (string, string, error) {
	ctx, cancel := d.ctx()
	defer cancel()
	entry, err := d.seats.Get(ctx, seatKey(account))
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
		return "", "", nil
	}
	if err != nil {
		return "", "", down(err)
	}
	var se seatEntry
	if err := json.Unmarshal(entry.Value(), &se); err != nil || se.Account != account {
		return "", "", nil
	}
	return se.Node, se.Code, nil
}

// Tables lists the tables of every node, from the watched copy, without
// entries older than the TTL (a node cut off from NATS).
func (d *Dir) Tables() []lobby.TableSummary {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]lobby.TableSummary, 0, len(d.remote))
	for _, e := range d.remote {
		if time.Since(e.At) < d.opt.TTL {
			s := e.Summary
			s.Node = e.Node
			out = append(out, s)
		}
	}
	return out
}

// Link returns the node-link address another node published, and whether
// it is draining.
func (d *Dir) Link(node string) (addr string, draining bool, err error) {
	d.mu.Lock()
	e, ok := d.links[node]
	d.mu.Unlock()
	if !ok || time.Since(e.At) >= d.opt.TTL {
		return "", false, fmt.Errorf("node %s is not in the cluster directory (down, or the directory is unreachable)", node)
	}
	return e.Link, e.Draining, nil
}

// Nodes lists the nodes seen in the directory, sorted.
func (d *Dir) Nodes() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for n, e := range d.links {
		if time.Since(e.At) < d.opt.TTL {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// watch follows a bucket until Close, restarting after failures.
func (d *Dir) watch(kv jetstream.KeyValue, apply func(jetstream.KeyValueEntry)) {
	defer d.done.Done()
	for {
		ctx, cancel := context.WithCancel(context.Background())
		w, err := kv.WatchAll(ctx)
		if err == nil {
			d.follow(w, apply)
			_ = w.Stop()
		}
		cancel()
		select {
		case <-d.quit:
			return
		case <-time.After(time.Second):
		}
	}
}

// follow applies a watcher's updates until it ends or Close.
func (d *Dir) follow(w jetstream.KeyWatcher, apply func(jetstream.KeyValueEntry)) {
	for {
		select {
		case <-d.quit:
			return
		case e, ok := <-w.Updates():
			if !ok {
				return
			}
			if e != nil { // nil marks the end of the initial values
				apply(e)
			}
		}
	}
}

func (d *Dir) applyTable(e jetstream.KeyValueEntry) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if e.Operation() != jetstream.KeyValuePut {
		delete(d.remote, e.Key())
		return
	}
	var te tableEntry
	if json.Unmarshal(e.Value(), &te) != nil {
		return
	}
	te.At = e.Created()
	d.remote[e.Key()] = te
}

func (d *Dir) applyNode(e jetstream.KeyValueEntry) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if e.Operation() != jetstream.KeyValuePut {
		delete(d.links, e.Key())
		return
	}
	var ne nodeEntry
	if json.Unmarshal(e.Value(), &ne) != nil {
		return
	}
	ne.At = e.Created()
	d.links[e.Key()] = ne
}

// refresh publishes src every TTL/3 and on Changed.
func (d *Dir) refresh(src Source) {
	defer d.done.Done()
	tick := time.NewTicker(d.opt.TTL / 3)
	defer tick.Stop()
	for {
		d.publishOnce(src)
		select {
		case <-d.quit:
			return
		case <-tick.C:
		case <-d.poke:
			// Let a burst of changes (a table and its seats) settle.
			select {
			case <-d.quit:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
}

// publishOnce writes this node's link, tables and seats, and deletes the
// entries of tables and seats it no longer holds.
func (d *Dir) publishOnce(src Source) {
	ctx, cancel := context.WithTimeout(d.life, 5*d.opt.Timeout)
	defer cancel()
	d.mu.Lock()
	draining := d.draining
	d.mu.Unlock()
	if val, err := json.Marshal(nodeEntry{Node: d.opt.Node, Link: d.opt.Link, Draining: draining}); err == nil {
		if _, err := d.nodes.Put(ctx, d.opt.Node, val); err != nil {
			d.log.Debug("publish node", "err", err)
			return // NATS is away: try everything again next time
		}
	}
	tables := src.ClusterTables()
	live := make(map[string]bool, len(tables))
	for _, t := range tables {
		live[t.Code] = true
		d.publishTable(ctx, t)
	}
	d.mu.Lock()
	var gone []string
	for code := range d.owned {
		if !live[code] {
			gone = append(gone, code)
		}
	}
	d.mu.Unlock()
	for _, code := range gone {
		d.mu.Lock()
		rev := d.owned[code]
		d.mu.Unlock()
		err := d.tables.Delete(ctx, code, jetstream.LastRevision(rev))
		if err == nil || errors.Is(err, jetstream.ErrKeyRevisionMismatch) || errors.Is(err, jetstream.ErrKeyNotFound) {
			d.mu.Lock()
			delete(d.owned, code)
			d.mu.Unlock()
		}
	}
	d.publishSeats(ctx, src.ClusterSeats())
}

// publishTable refreshes one of this node's tables, never overwriting a
// code another node holds.
func (d *Dir) publishTable(ctx context.Context, t lobby.ClusterTable) {
	val, err := json.Marshal(tableEntry{Node: d.opt.Node, Summary: t.Summary})
	if err != nil {
		return
	}
	d.mu.Lock()
	rev, mine := d.owned[t.Code]
	lost := d.lost[t.Code]
	d.mu.Unlock()
	if lost {
		return
	}
	var newRev uint64
	if mine {
		newRev, err = d.tables.Update(ctx, t.Code, val, rev)
		if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			mine = false // expired meanwhile, or taken: see below
		}
	}
	if !mine {
		newRev, err = d.tables.Create(ctx, t.Code, val)
		if errors.Is(err, jetstream.ErrKeyExists) {
			d.mu.Lock()
			d.lost[t.Code] = true
			delete(d.owned, t.Code)
			d.mu.Unlock()
			d.log.Warn("directory: another node holds this table's code; it stays reachable on this node only", "code", t.Code)
			return
		}
	}
	if err != nil {
		d.log.Debug("publish table", "code", t.Code, "err", err)
		return
	}
	d.mu.Lock()
	d.owned[t.Code] = newRev
	d.mu.Unlock()
}

// publishSeats writes the seats this node holds and deletes the ones it
// no longer does.
func (d *Dir) publishSeats(ctx context.Context, seats map[string]string) {
	want := make(map[string]seatEntry, len(seats))
	for acct, code := range seats {
		if acct == "" {
			continue
		}
		want[seatKey(acct)] = seatEntry{Node: d.opt.Node, Code: code, Account: acct}
	}
	for key, se := range want {
		val, err := json.Marshal(se)
		if err != nil {
			continue
		}
		if _, err := d.seats.Put(ctx, key, val); err != nil {
			return
		}
		d.mu.Lock()
		d.seatsSent[key] = se
		d.mu.Unlock()
	}
	d.mu.Lock()
	var gone []string
	for key := range d.seatsSent {
		if _, ok := want[key]; !ok {
			gone = append(gone, key)
		}
	}
	d.mu.Unlock()
	for _, key := range gone {
		if err := d.dropSeat(ctx, key); err == nil {
			d.mu.Lock()
			delete(d.seatsSent, key)
			d.mu.Unlock()
		}
	}
}

// dropSeat deletes a seat entry if it is still this node's.
func (d *Dir) dropSeat(ctx context.Context, key string) error {
	e, err := d.seats.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
		return nil
	}
	if err != nil {
		return err
	}
	var se seatEntry
	if json.Unmarshal(e.Value(), &se) == nil && se.Node != d.opt.Node {
		return nil // another node holds this account's seat now
	}
	return d.seats.Delete(ctx, key, jetstream.LastRevision(e.Revision()))
}
