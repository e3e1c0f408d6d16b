package transport

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/host/observedaddrs"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	"github.com/libp2p/go-libp2p/p2p/protocol/holepunch"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// Timing of the reservation loop.
const (
	reserveMinBackoff = time.Second
	reserveMaxBackoff = 30 * time.Second
	reserveTimeout    = 15 * time.Second
	// PunchReadyWait bounds how long Ready waits, after the first
	// reservation, for the hole punching service (see WaitHolePunch).
	PunchReadyWait = 6 * time.Second
)

// RelayClient keeps a peer behind NAT reachable through one relay: it holds
// a reservation there and renews it before it expires and whenever the
// connection to the relay was lost (libp2p renews nothing by itself), adds
// the relay circuit to the addresses the host announces, and notes which
// peers are reached directly (after DCUtR hole punching) or only relayed.
type RelayClient struct {
	relay   peer.AddrInfo
	circuit ma.Multiaddr // <relay addr>/p2p/<relay>/p2p-circuit
	log     *slog.Logger

	reserved  atomic.Bool
	ready     chan struct{}
	readyOnce sync.Once // starts awaitHolePunch, which closes ready
	lost      chan struct{}

	PathWatch
}

// PathKind is how this peer reaches another.
type PathKind uint8

const (
	PathRelayed PathKind = iota + 1 // only through the relay
	PathDirect                      // a direct connection (it was relayed before: hole punching worked)
)

func (k PathKind) String() string {
	switch k {
	case PathRelayed:
		return "relayed"
	case PathDirect:
		return "direct"
	}
	return "none"
}

// NewRelayClient prepares a client for the relay at addr, a multiaddr that
// ends in /p2p/<relay peer ID>.
func NewRelayClient(addr string, log *slog.Logger) (*RelayClient, error) {
	ai, err := ParseAddr(addr)
	if err != nil {
		return nil, fmt.Errorf("relay address: %w", err)
	}
	if len(ai.Addrs) == 0 {
		return nil, fmt.Errorf("relay address %q has no transport part", addr)
	}
	circuit := ai.Addrs[0].Encapsulate(ma.StringCast("/p2p/" + ai.ID.String() + "/p2p-circuit"))
	return &RelayClient{relay: ai, circuit: circuit, log: cmp.Or(log, slog.Default()),
		ready: make(chan struct{}), lost: make(chan struct{}, 1)}, nil
}

// Relay is the relay's peer ID and addresses.
func (rc *RelayClient) Relay() peer.AddrInfo { return rc.relay }

// RelayAddr is the relay's full address (with /p2p/<relay ID>).
func (rc *RelayClient) RelayAddr() ma.Multiaddr {
	return rc.relay.Addrs[0].Encapsulate(ma.StringCast("/p2p/" + rc.relay.ID.String()))
}

// TrustOneObserver lowers go-libp2p's process-wide threshold for trusting
// an address of ours that others observe, from 4 observers to 1: behind NAT
// the relay and a player or two may be all the observers there are, and
// hole punching needs that public address. Call it before the first host
// starts: it is a plain variable that running hosts read, so only the first
// call writes it (a test process calls it once before any host, and the
// later calls of each peer it starts are no writes at all).
func TrustOneObserver() { trustOnce.Do(func() { observedaddrs.ActivationThresh = 1 }) }

var trustOnce sync.Once

// HostOptions returns what NewHost needs for a peer behind NAT: the relay
// circuit among its addresses once reserved, and hole punching. See also
// TrustOneObserver.
func (rc *RelayClient) HostOptions() Options {
	return Options{
		HolePunching: true,
		Libp2p: []libp2p.Option{libp2p.AddrsFactory(func(addrs []ma.Multiaddr) []ma.Multiaddr {
			if rc.reserved.Load() {
				addrs = append(slices.Clip(addrs), rc.circuit)
			}
			return addrs
		})},
	}
}

// Ready is closed once the first reservation is held and, with a relay at
// a public address, hole punching can answer (or PunchReadyWait later, if
// it cannot): connections through the relay made before then never go
// direct. Hosts print invite codes and
// joiners dial through the relay only after it.
func (rc *RelayClient) Ready() <-chan struct{} { return rc.ready }

// WaitHolePunch waits until go-libp2p's DCUtR service takes streams; false
// when ctx ends first. The service starts only once the host knows a public
// address of its own, which it polls for (250 ms, then doubling), and it
// runs DCUtR once, when a relayed connection comes in: a peer that dials
// through the relay, or accepts a relayed connection, before then never
// goes direct on that connection.
func WaitHolePunch(ctx context.Context, h host.Host) bool {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !slices.Contains(h.Mux().Protocols(), holepunch.Protocol) {
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
	return true
}

// Direct are h's public direct addresses, two at most (none behind NAT,
// unless observed): what an invite code names beside the relay.
func Direct(h *Host) []ma.Multiaddr {
	var out []ma.Multiaddr
	for _, m := range h.LibP2P().Addrs() {
		if manet.IsPublicAddr(m) && !IsCircuit(m) && len(out) < 2 {
			out = append(out, m)
		}
	}
	return out
}

// AddrInfo is how others dial h: through this relay's circuit first, then
// h's public direct addresses.
func (rc *RelayClient) AddrInfo(h *Host) peer.AddrInfo {
	circuit := rc.RelayAddr().Encapsulate(ma.StringCast("/p2p-circuit"))
	return peer.AddrInfo{ID: h.ID(), Addrs: append([]ma.Multiaddr{circuit}, Direct(h)...)}
}

// Start runs the reservation loop until ctx is done.
func (rc *RelayClient) Start(ctx context.Context, h *Host) {
	h.LibP2P().Network().Notify(&network.NotifyBundle{
		ConnectedF:    func(_ network.Network, c network.Conn) { rc.Connected(c, rc.relay.ID) },
		DisconnectedF: func(_ network.Network, c network.Conn) { rc.disconnected(h, c) },
	})
	go rc.loop(ctx, h)
}

func (rc *RelayClient) loop(ctx context.Context, h *Host) {
	backoff := reserveMinBackoff
	for ctx.Err() == nil {
		rctx, cancel := context.WithTimeout(ctx, reserveTimeout)
		rsvp, err := rc.reserve(rctx, h)
		cancel()
		var wait time.Duration
		if err != nil {
			rc.reserved.Store(false)
			rc.log.Warn("no reservation on the relay; retrying", "relay", rc.relay.ID, "in", backoff, "err", err)
			wait, backoff = backoff, min(2*backoff, reserveMaxBackoff)
		} else {
			backoff = reserveMinBackoff
			rc.reserved.Store(true)
			rc.readyOnce.Do(func() { go rc.awaitHolePunch(ctx, h) })
			wait = max(time.Until(rsvp.Expiration)/2, 10*time.Second)
			rc.log.Debug("relay reservation held", "relay", rc.relay.ID, "until", rsvp.Expiration, "renew in", wait)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		case <-rc.lost:
			// The relay dropped the reservation with the connection.
			rc.reserved.Store(false)
		}
	}
}

// awaitHolePunch closes ready once hole punching can answer, or after
// PunchReadyWait. A relay at a private address (LAN, loopback) sees us at
// a private address too: hole punching never starts then, so there is
// nothing to wait for.
func (rc *RelayClient) awaitHolePunch(ctx context.Context, h *Host) {
	if !manet.IsPublicAddr(rc.relay.Addrs[0]) {
		close(rc.ready)
		return
	}
	began := time.Now()
	wctx, cancel := context.WithTimeout(ctx, PunchReadyWait)
	defer cancel()
	if WaitHolePunch(wctx, h.LibP2P()) {
		rc.log.Debug("hole punching ready", "after", time.Since(began))
	} else {
		rc.log.Warn("hole punching is not ready (no public address of ours known); relayed connections may stay relayed", "waited", time.Since(began))
	}
	close(rc.ready)
}

func (rc *RelayClient) reserve(ctx context.Context, h *Host) (*client.Reservation, error) {
	if err := h.LibP2P().Connect(ctx, rc.relay); err != nil {
		return nil, err
	}
	return client.Reserve(ctx, h.LibP2P(), rc.relay)
}

func (rc *RelayClient) disconnected(h *Host, c network.Conn) {
	if c.RemotePeer() != rc.relay.ID || h.LibP2P().Network().Connectedness(rc.relay.ID) == network.Connected {
		return
	}
	select {
	case rc.lost <- struct{}{}:
	default:
	}
}

func IsCircuit(m ma.Multiaddr) bool {
	_, err := m.ValueForProtocol(ma.P_CIRCUIT)
	return err == nil
}
