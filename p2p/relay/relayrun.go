package relay

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/datadir"
	"hostfall/p2p/transport"
)

// Config is what a relay process runs with (`hostfall relay`).
type Config struct {
	// IdentityPath is the relay's key file (made on first use); its peer
	// ID is in every invite code that names the relay, so it must last.
	// Empty: DefaultKeyPath.
	IdentityPath string
	Listen       []string      // multiaddrs to listen on (default DefaultListen)
	Allow        []peer.ID     // see Options.Allow
	DirectoryTTL time.Duration // see Options.DirectoryTTL
	Logger       *slog.Logger
	// Listening, if set, is told the relay's peer ID and its addresses
	// (each ending in /p2p/ID) once the relay serves: what hosts behind NAT
	// give as their --relay. p2p prints nothing itself; the caller says it.
	Listening func(id peer.ID, addrs []ma.Multiaddr)
}

// DefaultKeyPath is datadir.RelayKey, relay.key beside the settings: a
// relay keeps an identity apart from the player's identity.key.
func DefaultKeyPath() (string, error) { return datadir.RelayKey(), nil }

// Run runs a relay and its session directory (NewHost with
// HostOptions, then Start) until ctx is done; it returns nil then.
func Run(ctx context.Context, cfg Config) error {
	keyPath := cfg.IdentityPath
	if keyPath == "" {
		var err error
		if keyPath, err = DefaultKeyPath(); err != nil {
			return err
		}
	}
	log := cmp.Or(cfg.Logger, slog.Default())
	h, err := transport.NewHost(ctx, transport.Options{IdentityPath: keyPath, Listen: cfg.Listen, Logger: log, Libp2p: HostOptions(), ConnsPerAddr: ConnsPerAddr})
	if err != nil {
		return err
	}
	defer h.Close()
	rs, err := Start(h, Options{Allow: cfg.Allow, DirectoryTTL: cfg.DirectoryTTL, Logger: log})
	if err != nil {
		return err
	}
	defer rs.Close()
	if cfg.Listening != nil {
		cfg.Listening(h.ID(), h.Addrs())
	}
	<-ctx.Done()
	return nil
}

// ParsePeerIDs reads comma-separated peer IDs ("" is none), as a relay's
// allow-list is given.
func ParsePeerIDs(s string) ([]peer.ID, error) {
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
