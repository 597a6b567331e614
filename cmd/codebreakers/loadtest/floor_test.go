package loadtest

import (
	"context"
	"net"
	"path/filepath"
	"testing"
	"time"
)

// limit bounds every wait in these tests.
const limit = 30 * time.Second

// startFloor serves the floor in-process on a free loopback port until
// the test ends, and returns the context its clients should use.
func startFloor(t *testing.T) (context.Context, string) {
	t.Helper()
	addr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- ServeFloor(ctx, addr, filepath.Join(t.TempDir(), "host_key")) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("floor: %v", err)
		}
	})
	return ctx, addr
}

// startListeningFloor is startFloor, returning once the floor accepts
// connections.
func startListeningFloor(t *testing.T) (context.Context, string) {
	t.Helper()
	ctx, addr := startFloor(t)
	for deadline := time.Now().Add(limit); ; time.Sleep(20 * time.Millisecond) {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			_ = c.Close()
			return ctx, addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("the floor does not listen: %v", err)
		}
	}
}

// TestFloorDrawsAndEchoes runs the floor in-process, opens one session
// with the generator's own client, with its lean screen and with x/vt's
// emulator (-vt-emulator), and times a keypress echo.
func TestFloorDrawsAndEchoes(t *testing.T) {
	ctx, addr := startFloor(t)
	for _, vt := range []bool{false, true} {
		var c *client
		var err error
		for deadline := time.Now().Add(limit); ; time.Sleep(50 * time.Millisecond) {
			if c, err = openClient(ctx, "t", dialOptions{addr: addr, timeout: limit, w: 80, h: 24, vt: vt}); err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("open a session on the floor: %v", err)
			}
		}
		defer c.close()
		if _, isVT := c.term.(vtTerminal); isVT != vt {
			t.Fatalf("asked for the emulator: %v; the client reads with %T", vt, c.term)
		}
		if _, err := c.waitFor(ctx, limit, floorMarker); err != nil {
			t.Fatal(err)
		}
		got := c.arm(nil, time.Now(), true)
		if err := c.send("x"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.await(ctx, got, limit); err != nil {
			t.Fatalf("no echo: %v", err)
		}
		if _, err := c.waitFor(ctx, limit, "last key: x"); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPlayersTypeInTurnAndEveryKeyIsTimed: the players' echo sends its
// keys round the players in turn, down for a round then up, and times
// every one of them.
func TestPlayersTypeInTurnAndEveryKeyIsTimed(t *testing.T) {
	ctx, addr := startFloor(t)
	var players []*client
	for i := range 3 {
		for deadline := time.Now().Add(limit); ; time.Sleep(50 * time.Millisecond) {
			c, err := openClient(ctx, "t", dialOptions{addr: addr, timeout: limit, w: 80, h: 24})
			if err == nil {
				defer c.close()
				players = append(players, c)
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("open player %d: %v", i, err)
			}
		}
		if _, err := players[i].waitFor(ctx, limit, floorMarker); err != nil {
			t.Fatal(err)
		}
	}
	// Five keys: the first two players get down then up, the third only down.
	errs := &errorLog{}
	got := timePlayers(ctx, Config{EchoSamples: 5, EchoGap: time.Millisecond, StepTimeout: limit}, players, errs, nil).summary()
	if n, first := errs.count(); n != 0 {
		t.Fatalf("%d errors: %v", n, first)
	}
	if got.N != 5 || got.Max <= 0 {
		t.Errorf("timed %+v, want 5 echoes", got)
	}
	for i, want := range []string{"last key: up", "last key: up", "last key: down"} {
		if _, err := players[i].waitFor(ctx, limit, want); err != nil {
			t.Errorf("player %d: %v", i, err)
		}
	}
}
