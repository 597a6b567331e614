package natsdir

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/lobby/natsdir/natstest"
)

// fakeSource is a hub's tables and seats, set by the test.
type fakeSource struct {
	mu     sync.Mutex
	tables []lobby.ClusterTable
	seats  map[string]string
}

func (f *fakeSource) ClusterTables() []lobby.ClusterTable {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]lobby.ClusterTable(nil), f.tables...)
}

func (f *fakeSource) ClusterSeats() map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]string{}
	for k, v := range f.seats {
		out[k] = v
	}
	return out
}

func (f *fakeSource) set(seats map[string]string, codes ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tables = nil
	for _, c := range codes {
		f.tables = append(f.tables, lobby.ClusterTable{Code: c, Summary: lobby.TableSummary{Code: lobby.FormatCode(c), Public: true, Phase: lobby.Waiting}})
	}
	f.seats = seats
}

const testTTL = 1500 * time.Millisecond

func open(t *testing.T, url, node string) *Dir {
	t.Helper()
	d, err := Open(context.Background(), Options{URL: url, Node: node, Link: node + ":link", TTL: testTTL,
		Timeout: 500 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// eventually waits (generously, without timing assertions) for ok.
func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestClaimIsCreateOnly: two nodes never hold one code; the holder is
// found by code from the other node, and the public list shows it.
func TestClaimIsCreateOnly(t *testing.T) {
	ns := natstest.Start(t)
	a, b := open(t, ns.URL(), "a"), open(t, ns.URL(), "b")
	defer a.Close()
	defer b.Close()
	if err := a.Claim("KQ7M4X"); err != nil {
		t.Fatal(err)
	}
	if err := b.Claim("KQ7M4X"); !errors.Is(err, lobby.ErrCodeTaken) {
		t.Fatalf("second claim: %v, want ErrCodeTaken", err)
	}
	srcA := &fakeSource{}
	srcA.set(map[string]string{"SHA256:mara": "KQ7M4X"}, "KQ7M4X")
	a.Publish(srcA)
	if node, err := b.Locate("KQ7M4X"); err != nil || node != "a" {
		t.Fatalf("Locate from b = %q, %v", node, err)
	}
	if node, err := b.Locate("ZZZZZZ"); err != nil || node != "" {
		t.Fatalf("Locate unknown = %q, %v", node, err)
	}
	eventually(t, "b to see a's table and link", func() bool {
		ts := b.Tables()
		link, _, err := b.Link("a")
		return len(ts) == 1 && ts[0].Node == "a" && ts[0].Public && err == nil && link == "a:link"
	})
	eventually(t, "a's seat for mara", func() bool {
		node, code, err := b.SeatOf("SHA256:mara")
		return err == nil && node == "a" && code == "KQ7M4X"
	})
	// A table that closes leaves; so does the seat.
	srcA.set(nil)
	a.Changed()
	eventually(t, "the closed table and seat to leave", func() bool {
		node, _ := b.Locate("KQ7M4X")
		seatNode, _, _ := b.SeatOf("SHA256:mara")
		return node == "" && seatNode == "" && len(b.Tables()) == 0
	})
}

// TestDeadNodeExpires: a node that stops refreshing (killed) leaves the
// directory within the TTL, and its code may then be claimed again.
func TestDeadNodeExpires(t *testing.T) {
	ns := natstest.Start(t)
	a, b := open(t, ns.URL(), "a"), open(t, ns.URL(), "b")
	defer b.Close()
	src := &fakeSource{}
	src.set(map[string]string{"SHA256:mara": "AAAAAA"}, "AAAAAA")
	if err := a.Claim("AAAAAA"); err != nil {
		t.Fatal(err)
	}
	a.Publish(src)
	eventually(t, "a's table listed", func() bool { return len(b.Tables()) == 1 })
	// Kill a: no goodbye, no deletes.
	close(a.quit)
	a.done.Wait()
	a.nc.Close()
	killed := time.Now()
	eventually(t, "a's entries to expire", func() bool {
		node, _ := b.Locate("AAAAAA")
		seat, _, _ := b.SeatOf("SHA256:mara")
		_, _, linkErr := b.Link("a")
		return node == "" && seat == "" && linkErr != nil && len(b.Tables()) == 0
	})
	t.Logf("a's entries left %v after it died (TTL %v)", time.Since(killed).Round(100*time.Millisecond), testTTL)
	if err := b.Claim("AAAAAA"); err != nil {
		t.Fatalf("claim a dead node's code: %v", err)
	}
}

// TestNATSOutage: with NATS gone, lookups say the directory is down (the
// caller explains it); when it is back, entries are published again.
func TestNATSOutage(t *testing.T) {
	ns := natstest.Start(t)
	a, b := open(t, ns.URL(), "a"), open(t, ns.URL(), "b")
	defer a.Close()
	defer b.Close()
	src := &fakeSource{}
	src.set(nil, "BBBBBB")
	a.Publish(src)
	eventually(t, "published", func() bool { n, _ := b.Locate("BBBBBB"); return n == "a" })
	ns.Stop()
	if _, err := b.Locate("CCCCCC"); !errors.Is(err, lobby.ErrDirectoryDown) {
		t.Fatalf("Locate with NATS down: %v, want ErrDirectoryDown", err)
	}
	if err := b.Claim("CCCCCC"); !errors.Is(err, lobby.ErrDirectoryDown) {
		t.Fatalf("Claim with NATS down: %v, want ErrDirectoryDown", err)
	}
	if _, _, err := b.SeatOf("SHA256:x"); !errors.Is(err, lobby.ErrDirectoryDown) {
		t.Fatalf("SeatOf with NATS down: %v", err)
	}
	ns.Resume()
	src.set(nil, "BBBBBB", "DDDDDD")
	eventually(t, "a's new table published after the outage", func() bool {
		n, err := b.Locate("DDDDDD")
		return err == nil && n == "a"
	})
}

// TestUnreachableAtStart: no NATS at the address is a clear error.
func TestUnreachableAtStart(t *testing.T) {
	_, err := Open(context.Background(), Options{URL: "nats://127.0.0.1:1", Node: "a", Logger: slog.New(slog.DiscardHandler)})
	if err == nil || !strings.Contains(err.Error(), "cannot reach NATS at nats://127.0.0.1:1") {
		t.Fatalf("Open without NATS: %v", err)
	}
}
