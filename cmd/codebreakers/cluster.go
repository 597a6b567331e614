package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"

	gossh "golang.org/x/crypto/ssh"

	"github.com/codebreakers/codebreakers/lobby"
	"github.com/codebreakers/codebreakers/lobby/natsdir"
	"github.com/codebreakers/codebreakers/server"
)

// clusterOptions checks the cluster flags: --nats needs a node link
// (--node-addr, where the other nodes reach this one) and the keys of the
// nodes it trusts (--peer-keys).
func (o *serveOptions) checkCluster() error {
	if o.NATS == "" {
		return nil
	}
	if o.NodeName == "" {
		host, err := os.Hostname()
		if err != nil || host == "" {
			return errors.New("--nats: name this node with --node-name")
		}
		o.NodeName = host
	}
	if o.NodeAddr == "" {
		return errors.New("--nats needs --node-addr: the host:port the other nodes reach this one on (the node link)")
	}
	if host, _, err := net.SplitHostPort(o.NodeAddr); err != nil || host == "" {
		return fmt.Errorf("--node-addr %q: want host:port that other nodes can dial, e.g. 10.0.0.11:2223", o.NodeAddr)
	}
	if o.PeerKeys == "" {
		return errors.New("--nats needs --peer-keys: a file of the cluster's node host keys (authorized_keys format)")
	}
	return nil
}

// loadPeerKeys reads public keys in authorized_keys format.
func loadPeerKeys(path string) ([]gossh.PublicKey, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--peer-keys: %w", err)
	}
	var keys []gossh.PublicKey
	for line, rest := 1, raw; len(bytes.TrimSpace(rest)) > 0; line++ {
		var k gossh.PublicKey
		k, _, _, rest, err = gossh.ParseAuthorizedKey(rest)
		if err != nil {
			return nil, fmt.Errorf("--peer-keys %s: key %d: %w", path, line, err)
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("--peer-keys %s: no keys", path)
	}
	return keys, nil
}

// joinCluster opens the directory in NATS and returns the server's
// cluster settings; the hub publishes to the directory from then on.
func joinCluster(o serveOptions, log *slog.Logger, hub *lobby.Hub) (*natsdir.Dir, *server.ClusterConfig, error) {
	peers, err := loadPeerKeys(o.PeerKeys)
	if err != nil {
		return nil, nil, err
	}
	dir, err := natsdir.Open(context.Background(), natsdir.Options{
		URL: o.NATS, Node: o.NodeName, Link: o.NodeAddr, TTL: o.DirectoryTTL, Logger: log,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("cluster directory (--nats): %w", err)
	}
	hub.SetDirectory(dir)
	dir.Publish(hub)
	log.Info("joined the cluster", "node", o.NodeName, "link", o.NodeAddr, "peers", len(peers))
	return dir, &server.ClusterConfig{
		Node:  o.NodeName,
		Peers: peers,
		Locate: func(node string) (string, error) {
			addr, _, err := dir.Link(node)
			return addr, err
		},
	}, nil
}
