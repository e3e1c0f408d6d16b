package app

import (
	"context"
	"log/slog"
	"os"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/p2p/relay"
	"hostfall/status"
)

// Relay is a circuit relay with its session directory, for players behind NAT.
type Relay struct {
	Identity string        // identity key file; "" means relay.key in the user's config dir
	Listen   []string      // multiaddrs; none means TCP and QUIC on every interface
	Allow    []peer.ID     // only they may use it; none means everyone
	TTL      time.Duration // the longest registration the directory (a rendezvous point) grants
	JSON     bool          // status lines as JSON on stdout
}

// RunRelay serves r until ctx ends, printing where it listens.
func RunRelay(ctx context.Context, r Relay) error {
	line := &status.Line{JSON: r.JSON, Out: os.Stdout, Human: os.Stderr, Stamp: true}
	return relay.Run(ctx, relay.Config{IdentityPath: r.Identity, Listen: r.Listen, Allow: r.Allow, DirectoryTTL: r.TTL,
		Logger: slog.Default(), Listening: func(id peer.ID, addrs []ma.Multiaddr) { line.RelayListening(id, addrs, len(r.Allow)) }})
}
