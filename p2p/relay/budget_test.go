package relay

import (
	"context"
	"net/netip"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/p2p/internal/p2ptest"
	"hostfall/p2p/transport"
)

// hostAt is a loopback host listening on ip, which is also the source of
// its connections (go-libp2p dials from the port it listens on). spared
// lifts the handshake budget for loopback: the test is about the relay's
// own bounds, and 40 identities from one address would wait 6 s for it.
func hostAt(t *testing.T, ip string, opt transport.Options) *transport.Host {
	t.Helper()
	opt.Identity, opt.Logger = p2ptest.Key(t), p2ptest.Log()
	opt.Listen = []string{"/ip4/" + ip + "/tcp/0"}
	opt.Unlimited = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	h, err := transport.NewHost(t.Context(), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// A relay server bounds what identities from one address may take: 40
// fresh IDs from one address hold at most reservationsPerAddr
// reservations and circuitsPerAddr circuits to a host on the relay, and a
// player from another address still reserves and reaches that host
// through it. Before, one address held 32 reservations and every one of
// the host's 32 circuits.
func TestRelayServerBoundsOneAddress(t *testing.T) {
	rh := hostAt(t, "127.0.0.1", transport.Options{Libp2p: HostOptions(), ConnsPerAddr: ConnsPerAddr})
	rs, err := Start(rh, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rs.Close() })
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	relayInfo := rh.AddrInfo()
	dest := hostAt(t, "127.0.0.90", transport.Options{})
	if _, err := client.Reserve(ctx, dest.LibP2P(), relayInfo); err != nil {
		t.Fatal(err)
	}
	via := peer.AddrInfo{ID: dest.ID(), Addrs: []ma.Multiaddr{ma.StringCast(rh.Addrs()[0].String() + "/p2p-circuit")}}

	reserved, circuits := 0, 0
	for range 40 {
		s := hostAt(t, "127.0.0.91", transport.Options{})
		if _, err := client.Reserve(ctx, s.LibP2P(), relayInfo); err == nil {
			reserved++
		}
		if s.LibP2P().Connect(ctx, via) == nil {
			circuits++
		}
	}
	if reserved > reservationsPerAddr || circuits > circuitsPerAddr {
		t.Fatalf("40 identities from one address hold %d reservations and %d circuits, want at most %d and %d", reserved, circuits, reservationsPerAddr, circuitsPerAddr)
	}
	other := hostAt(t, "127.0.0.92", transport.Options{})
	if _, err := client.Reserve(ctx, other.LibP2P(), relayInfo); err != nil {
		t.Fatalf("a player from another address could not reserve: %v", err)
	}
	if err := other.LibP2P().Connect(ctx, via); err != nil {
		t.Fatalf("a player from another address could not reach the host through the relay: %v", err)
	}
	t.Logf("FIGURE 40 identities from one address: %d reservations, %d circuits; another address reserved and connected", reserved, circuits)
}
