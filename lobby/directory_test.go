package lobby

import (
	"errors"
	"sync"
	"testing"
)

// fakeDir is an in-memory directory shared by the hubs of a test cluster.
type fakeDir struct {
	node   string
	shared *fakeCluster
	pokes  int
}

type fakeCluster struct {
	mu     sync.Mutex
	down   bool
	codes  map[string]string // code → node
	seats  map[string][2]string
	tables []TableSummary
}

func newFakeCluster() *fakeCluster {
	return &fakeCluster{codes: map[string]string{}, seats: map[string][2]string{}}
}

func (c *fakeCluster) dir(node string) *fakeDir { return &fakeDir{node: node, shared: c} }

func (d *fakeDir) Node() string { return d.node }

func (d *fakeDir) Claim(code string) error {
	c := d.shared
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.down {
		return ErrDirectoryDown
	}
	if n, ok := c.codes[code]; ok && n != d.node {
		return ErrCodeTaken
	}
	c.codes[code] = d.node
	return nil
}

func (d *fakeDir) Locate(code string) (string, error) {
	c := d.shared
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.down {
		return "", ErrDirectoryDown
	}
	return c.codes[code], nil
}

func (d *fakeDir) SeatOf(account string) (string, string, error) {
	c := d.shared
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.down {
		return "", "", ErrDirectoryDown
	}
	s := c.seats[account]
	return s[0], s[1], nil
}

func (d *fakeDir) Tables() []TableSummary {
	d.shared.mu.Lock()
	defer d.shared.mu.Unlock()
	return append([]TableSummary(nil), d.shared.tables...)
}

func (d *fakeDir) Changed() {
	d.shared.mu.Lock()
	d.pokes++
	d.shared.mu.Unlock()
}

// TestDirectoryRoutesCodes: a code another node holds is an
// ElsewhereError naming that node (not a wrong code); a code nobody holds
// is a wrong code; a new table never takes a code another node holds.
func TestDirectoryRoutesCodes(t *testing.T) {
	cluster := newFakeCluster()
	a := testHub(t, newMemStore(), nil)
	a.SetDirectory(cluster.dir("a"))
	b := testHub(t, newMemStore(), nil)
	b.SetDirectory(cluster.dir("b"))

	host, err := b.Create(ident("bo"), TableSpec{Game: "secret", Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	code, _ := NormalizeCode(host.View().Code)
	if got, _ := cluster.dir("x").Locate(code); got != "b" {
		t.Fatalf("the directory places %s on %q, want b", code, got)
	}
	_, err = a.Join(ident("mara"), host.View().Code)
	var elsewhere *ElsewhereError
	if !errors.As(err, &elsewhere) || elsewhere.Node != "b" || elsewhere.Code != code || elsewhere.Kind != "join" {
		t.Fatalf("join on a: %v, want ElsewhereError for node b", err)
	}
	if _, err := a.Watch(ident("mara"), host.View().Code); !errors.As(err, &elsewhere) || elsewhere.Kind != "watch" {
		t.Fatalf("watch on a: %v", err)
	}
	if _, err := a.Join(ident("mara"), "ZZZ-ZZZ"); err != ErrNoTable {
		t.Fatalf("unknown code: %v, want ErrNoTable", err)
	}

	// The first codes drawn are held elsewhere: the table gets the first
	// one the directory grants.
	taken := &claimsAllBut{fakeDir: cluster.dir("a")}
	a2 := testHub(t, newMemStore(), nil)
	a2.SetDirectory(taken)
	c, err := a2.Create(ident("kai"), TableSpec{Game: "secret", Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	if taken.tries < 2 {
		t.Fatalf("only %d claims: the clash was not retried", taken.tries)
	}
	if got, _ := NormalizeCode(c.View().Code); got != taken.claimed {
		t.Fatalf("table got code %s, but the directory granted %s", got, taken.claimed)
	}
}

// claimsAllBut refuses the first claims as taken by another node.
type claimsAllBut struct {
	*fakeDir
	tries   int
	claimed string
}

func (d *claimsAllBut) Claim(code string) error {
	d.tries++
	if d.tries < 3 {
		return ErrCodeTaken
	}
	d.claimed = code
	return nil
}

// TestDirectoryDown: with the directory unreachable, tables are still made
// and joined on this node, and a code this node does not hold says the
// cluster cannot be asked (still counting as a guess).
func TestDirectoryDown(t *testing.T) {
	cluster := newFakeCluster()
	cluster.down = true
	h := testHub(t, newMemStore(), nil)
	h.SetDirectory(cluster.dir("a"))
	host, err := h.Create(ident("bo"), TableSpec{Game: "secret", Seats: 2})
	if err != nil {
		t.Fatalf("create with the directory down: %v", err)
	}
	if _, err := h.Join(ident("mara"), host.View().Code); err != nil {
		t.Fatalf("join a local table with the directory down: %v", err)
	}
	if _, err := h.Join(ident("kai"), "ZZZ-ZZZ"); err != errCrossNodeDown {
		t.Fatalf("code elsewhere with the directory down: %v", err)
	}
	if e := h.SeatElsewhere(ident("kai")); e != nil {
		t.Fatalf("seat elsewhere with the directory down: %+v", e)
	}
}

// TestDirectoryListsAndSeats: the public list merges other nodes' public
// tables; a seat held on another node is reported for resuming there.
func TestDirectoryListsAndSeats(t *testing.T) {
	cluster := newFakeCluster()
	cluster.tables = []TableSummary{
		{Code: "AAA-AAA", Public: true, Phase: Waiting, Node: "b"},
		{Code: "BBB-BBB", Public: false, Phase: Waiting, Node: "b"},
		{Code: "CCC-CCC", Public: true, Phase: Finished, Node: "b"},
		{Code: "DDD-DDD", Public: true, Phase: Playing, Node: "a"}, // our own, as published
	}
	cluster.seats["SHA256:mara"] = [2]string{"b", "AAAAAA"}
	h := testHub(t, newMemStore(), nil)
	h.SetDirectory(cluster.dir("a"))
	list := h.PublicTables()
	if len(list) != 1 || list[0].Code != "AAA-AAA" {
		t.Fatalf("public tables = %+v, want only b's public waiting table", list)
	}
	e := h.SeatElsewhere(ident("mara"))
	if e == nil || e.Node != "b" || e.Code != "AAAAAA" || e.Kind != "resume" {
		t.Fatalf("SeatElsewhere = %+v", e)
	}
	if e := h.SeatElsewhere(Identity{Account: "guest:x", Guest: true}); e != nil {
		t.Fatalf("a guest's seat elsewhere: %+v", e)
	}
}

// TestOtherNodesTablesAreCleaned: a table another node publishes comes from
// outside this process, so its text is cleaned where the hub takes it in.
func TestOtherNodesTablesAreCleaned(t *testing.T) {
	cluster := newFakeCluster()
	cluster.tables = []TableSummary{{Code: "AAA-AAA\x1b[2J", GameName: "Break\u202e the Code", Host: "ev\x1b]0;t\x07il",
		Public: true, Phase: Waiting, Node: "b"}}
	h := testHub(t, newMemStore(), nil)
	h.SetDirectory(cluster.dir("a"))
	list := h.PublicTables()
	if len(list) != 1 {
		t.Fatalf("public tables = %+v", list)
	}
	if s := list[0]; s.Code != "AAA-AAA" || s.GameName != "Break the Code" || s.Host != "evil" {
		t.Errorf("other node's table = %q %q %q, want its text cleaned", s.Code, s.GameName, s.Host)
	}
}
