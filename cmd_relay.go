package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

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
	allowed, err := parsePeerList(*allow)
	if err != nil {
		return fmt.Errorf("%w: --allow: %v", errUsage, err)
	}
	if *ttl < time.Second {
		return fmt.Errorf("%w: --ttl must be at least 1s", errUsage)
	}
	keyPath := *identity
	if keyPath == "" {
		dir, err := os.UserConfigDir()
		if err != nil {
			return fmt.Errorf("no config directory for the relay's key; give --identity: %w", err)
		}
		keyPath = filepath.Join(dir, "hostfall", "relay.key")
	}
	log := slog.Default()
	h, err := p2p.NewHost(ctx, p2p.Options{IdentityPath: keyPath, Listen: listen, Logger: log, Libp2p: p2p.RelayHostOptions()})
	if err != nil {
		return err
	}
	defer h.Close()
	rs, err := p2p.StartRelay(h, p2p.RelayOptions{Allow: allowed, DirectoryTTL: *ttl, Logger: log})
	if err != nil {
		return err
	}
	defer rs.Close()
	line := &status.Line{JSON: *asJSON, Out: os.Stdout, Human: os.Stderr, Stamp: true}
	var addrs []string
	for _, a := range h.Addrs() {
		addrs = append(addrs, a.String())
	}
	line.Emit("listening", fmt.Sprintf("relay %s listening on:\n  %s\nhosts behind NAT: hostfall host --headless --relay <one of these> …",
		h.ID(), strings.Join(addrs, "\n  ")), status.KV("peer", h.ID().String()), status.KV("addrs", addrs), status.KV("allow", len(allowed)))
	<-ctx.Done()
	return nil
}

// parsePeerList reads comma-separated peer IDs ("" is none).
func parsePeerList(s string) ([]peer.ID, error) {
	var out []peer.ID
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		id, err := peer.Decode(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not a peer ID: %w", f, err)
		}
		out = append(out, id)
	}
	return out, nil
}
