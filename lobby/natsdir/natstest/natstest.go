// Package natstest runs a NATS server with JetStream in-process for tests,
// storing in a temporary directory: nothing to install.
package natstest

import (
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Server is one in-process NATS server.
type Server struct {
	t    testing.TB
	dir  string
	port int
	srv  *server.Server
}

// Start runs a NATS server with JetStream on a free loopback port; it
// stops when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	s := &Server{t: t, dir: t.TempDir(), port: port}
	s.Resume()
	t.Cleanup(s.Stop)
	return s
}

// URL is the server's client address.
func (s *Server) URL() string { return fmt.Sprintf("nats://127.0.0.1:%d", s.port) }

// Resume starts the server (again, after Stop) on the same port and store.
func (s *Server) Resume() {
	s.t.Helper()
	if s.srv != nil {
		return
	}
	srv, err := server.NewServer(&server.Options{
		Host: "127.0.0.1", Port: s.port, JetStream: true, StoreDir: s.dir,
		NoLog: true, NoSigs: true, JetStreamMaxMemory: 64 << 20, JetStreamMaxStore: 256 << 20,
	})
	if err != nil {
		s.t.Fatalf("nats server: %v", err)
	}
	srv.Start()
	if !srv.ReadyForConnections(30 * time.Second) {
		s.t.Fatal("nats server did not become ready")
	}
	s.srv = srv
}

// Stop shuts the server down (clients see the connection drop).
func (s *Server) Stop() {
	if s.srv == nil {
		return
	}
	s.srv.Shutdown()
	s.srv.WaitForShutdown()
	s.srv = nil
}
