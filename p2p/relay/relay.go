package relay

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"hostfall/p2p/rendezvous"
	"hostfall/p2p/transport"
)

// Options set up a relay service.
type Options struct {
	// Allow, when not empty, lists the only peers that may hold a
	// reservation (be reachable through the relay) and register sessions.
	// Anyone may connect through to an allowed peer: the host decides
	// who plays (password, refusals), and a stranger cannot use the relay
	// to reach anyone else.
	Allow []peer.ID
	// DirectoryTTL is the longest registration the directory (a rendezvous
	// point) grants (default DefaultDirTTL): a host that stops renewing
	// leaves within it.
	DirectoryTTL time.Duration
	Logger       *slog.Logger
}

// HostOptions are the libp2p options of a host that runs a relay: it
// is reachable by definition (no AutoNAT wait) and needs no relay itself.
func HostOptions() []libp2p.Option {
	return []libp2p.Option{libp2p.ForceReachabilityPublic(), libp2p.DisableRelay()}
}

// What one source address (an IPv4 address, an IPv6 /56 for connections
// and /64 for circuits) may cost a relay server. A relay has no game, so
// everyone is a stranger to it: anyone may reserve and connect through
// (unless Options.Allow), and identities are free, so the bounds are per
// address, beside go-libp2p's per peer (32 circuits as source and as
// destination, relay.Resources) and the handshake budget every host has
// (4 new connections a second per address, 16 in their handshake:
// transport's accept.go).
const (
	// ConnsPerAddr bounds the open connections from one address (given
	// to transport.Options by Run): 8 players behind one NAT with a few
	// each. Without it identities from one address would fill the
	// connection manager (192), which trims the others' too.
	ConnsPerAddr = 64
	// reservationsPerAddr bounds the reservations from one address, of
	// maxReservations in all: a flood from one address leaves the others
	// room.
	reservationsPerAddr = 16
	maxReservations     = 1024
	// circuitsPerAddr bounds the circuits open at once from one address,
	// whatever identities it uses: half of a destination's 32, so a flood
	// from one address cannot take a host's every circuit.
	circuitsPerAddr = 16
)

// Service is a circuit relay v2 fit for whole games, with the session
// directory, a rendezvous point, beside it.
type Service struct {
	relay *relay.Relay
	Dir   *rendezvous.Server
}

// Start runs the relay and the directory on h (built with
// HostOptions). Relayed connections have no time or byte limit: the
// defaults (2 minutes, 128 KiB a direction) would cut games off.
func Start(h *transport.Host, opt Options) (*Service, error) {
	acl := allowList(opt.Allow)
	res := relay.DefaultResources()
	res.MaxReservationsPerIP = reservationsPerAddr
	res.MaxReservations = maxReservations
	res.MaxCircuits = 32           // a full 16-player mesh through one relay
	res.BufferSize = 16 << 10      // whole snapshot frames in one go
	res.ReservationTTL = time.Hour // clients refresh at half of it
	opts := []relay.Option{
		relay.WithResources(res),
		relay.WithInfiniteLimits(), // after WithResources, which would set the default limit again
		// Tell clients every address but loopback: a relay on a private
		// network (a test lab, a company LAN) is still useful.
		relay.WithReservationAddressFilter(func(m ma.Multiaddr) bool { return !manet.IsIPLoopback(m) }),
	}
	if acl != nil {
		opts = append(opts, relay.WithACL(acl))
	}
	h.ServeRelayClients(circuitsPerAddr)
	r, err := relay.New(h.LibP2P(), opts...)
	if err != nil {
		return nil, fmt.Errorf("relay: start the relay service: %w", err)
	}
	ttl := opt.DirectoryTTL
	if ttl <= 0 {
		ttl = DefaultDirTTL
	}
	dopt := rendezvous.ServerOptions{MaxTTL: ttl, Logger: opt.Logger}
	if acl != nil {
		dopt.Allow = acl.allowed
	}
	return &Service{relay: r, Dir: rendezvous.NewServer(h.LibP2P(), dopt)}, nil
}

// Close stops the relay and the directory.
func (rs *Service) Close() error {
	rs.Dir.Close()
	return rs.relay.Close()
}

// allowACL is the relay's allow-list (relay.ACLFilter).
type allowACL map[peer.ID]bool

func allowList(ids []peer.ID) allowACL {
	if len(ids) == 0 {
		return nil
	}
	acl := allowACL{}
	for _, id := range ids {
		acl[id] = true
	}
	return acl
}

func (a allowACL) allowed(p peer.ID) bool                      { return a[p] }
func (a allowACL) AllowReserve(p peer.ID, _ ma.Multiaddr) bool { return a[p] }
func (a allowACL) AllowConnect(_ peer.ID, _ ma.Multiaddr, dest peer.ID) bool {
	return a[dest]
}
