package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/p2p"
	"hostfall/status"
)

func init() {
	register(command{
		name:    "relay",
		summary: "run a circuit relay and session directory for players behind NAT",
		run:     runRelay,
	})
}

func runRelay(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("relay", flag.ContinueOnError)
	var listen listFlag
	fs.Var(&listen, "listen", "multiaddr to listen on (repeatable), e.g. /ip4/0.0.0.0/tcp/4001 (default: TCP and QUIC on every interface, ports chosen by the system)")
	allow := fs.String("allow", "", "comma-separated peer IDs: only they may be reached through the relay and list sessions in its directory (default: everyone)")
	identity := fs.String("identity", "", "identity key file; the relay's peer ID, in every invite code, comes from it (default: relay.key in the user's config dir)")
	ttl := fs.Duration("ttl", p2p.DefaultDirTTL, "a directory entry not refreshed within this goes")
	asJSON := fs.Bool("status-json", false, "print one JSON object a line on stdout")
	addVerbose(fs)
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	allowed, err := p2p.ParsePeerIDs(*allow)
	if err != nil {
		return fmt.Errorf("%w: --allow: %v", errUsage, err)
	}
	if *ttl < time.Second {
		return fmt.Errorf("%w: --ttl must be at least 1s", errUsage)
	}
	line := &status.Line{JSON: *asJSON, Out: os.Stdout, Human: os.Stderr, Stamp: true}
	return p2p.RunRelay(ctx, p2p.RelayConfig{IdentityPath: *identity, Listen: listen, Allow: allowed, DirectoryTTL: *ttl,
		Logger: slog.Default(), Listening: func(id peer.ID, addrs []ma.Multiaddr) { line.RelayListening(id, addrs, len(allowed)) }})
}
