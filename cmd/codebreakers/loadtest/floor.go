package loadtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	bm "charm.land/wish/v2/bubbletea"
)

// floorMarker is on the floor's screen once it is drawn.
const floorMarker = "FLOOR READY"

// floorModel draws one static screen. The only thing that changes is the
// name of the last key pressed, so the generator can time a keypress echo
// on the floor as it does on the arcade.
type floorModel struct{ last string }

func (floorModel) Init() tea.Cmd { return nil }

func (m floorModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		m.last = k.String()
	}
	return m, nil
}

func (m floorModel) View() tea.View {
	return tea.NewView(floorMarker + "\n\nA minimal wish + Bubble Tea server drawing one static screen.\n\nlast key: " + m.last + "\n")
}

// ServeFloor runs the floor: the smallest wish + Bubble Tea server, with
// every default (including Bubble Tea's 60 fps renderer), that accepts any
// key and draws one static screen. It listens on addr until ctx ends.
func ServeFloor(ctx context.Context, addr, hostKeyPath string) error {
	srv, err := wish.NewServer(
		wish.WithAddress(addr),
		wish.WithHostKeyPath(hostKeyPath),
		wish.WithPublicKeyAuth(func(ssh.Context, ssh.PublicKey) bool { return true }),
		wish.WithMiddleware(bm.Middleware(func(ssh.Session) (tea.Model, []tea.ProgramOption) {
			return floorModel{}, nil
		})),
	)
	if err != nil {
		return fmt.Errorf("floor server: %w", err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("floor listen: %w", err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("floor serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, ssh.ErrServerClosed) {
		_ = srv.Close()
	}
	return nil
}
