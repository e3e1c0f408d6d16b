package transport

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"hostfall/internal/testwait"
)

// onlyAddrs is h's address info with just its addresses of protocol code.
func onlyAddrs(h *Host, code int) peer.AddrInfo {
	ai := h.AddrInfo()
	var keep []ma.Multiaddr
	for _, a := range ai.Addrs {
		if _, err := a.ValueForProtocol(code); err == nil {
			keep = append(keep, a)
		}
	}
	ai.Addrs = keep
	return ai
}

// 40 fresh identities connecting at once from one address get no more
// handshakes than a stranger's burst, over TCP and over QUIC (whose
// handshake go-libp2p runs before its gater asks).
func TestStrangersOverTheBudgetAreRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		code int
	}{{"tcp", ma.P_TCP}, {"quic", ma.P_QUIC_V1}} {
		t.Run(tc.name, func(t *testing.T) {
			victim := newTestHost(t)
			target := onlyAddrs(victim, tc.code)
			var ok atomic.Int64
			var wg sync.WaitGroup
			strangers := make([]*Host, 40)
			for i := range strangers {
				strangers[i] = newTestHost(t) // first: a host takes a while to make under -race
			}
			start := time.Now()
			for _, s := range strangers {
				wg.Go(func() {
					ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
					defer cancel()
					if s.h.Connect(ctx, target) == nil {
						ok.Add(1)
					}
				})
			}
			wg.Wait()
			// Tokens came at the stranger's rate while the 40 connected.
			most := strangerAcceptBurst + int64(strangerAcceptRate*time.Since(start).Seconds()) + 1
			if n := ok.Load(); n > most || n < strangerAcceptBurst/2 {
				t.Fatalf("%d of 40 strangers connected from one address in %v, want %d to %d", n, time.Since(start), strangerAcceptBurst/2, most)
			}
			if victim.accept.refused.Load() == 0 {
				t.Fatal("no connection was refused")
			}
			t.Logf("FIGURE %d of 40 strangers connected, %d connections refused", ok.Load(), victim.accept.refused.Load())
		})
	}
}

// A member that loses its connection while strangers from its own address
// keep its budget empty (bare TCP connections, the cheapest flood) is back
// at once: the host dials it (Mesh, as the game loop does every second),
// and no budget limits what this peer dials. The time is a figure.
func TestMemberComesBackThroughAFloodFromItsAddress(t *testing.T) {
	host, member := newTestHost(t), newTestHost(t)
	tr := NewTransport(host, Limits{}, nil)
	t.Cleanup(func() { tr.Close(0) })
	tr.Admit(func(p peer.ID) bool { return p == member.ID() })
	if err := member.h.Connect(t.Context(), host.AddrInfo()); err != nil {
		t.Fatal(err)
	}
	tr.Protect([]peer.ID{member.ID()})
	tcp := onlyAddrs(host, ma.P_TCP).Addrs[0]
	_, hostport, err := manet.DialArgs(tcp)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	defer wg.Wait()
	defer stop()
	for range 4 {
		wg.Go(func() {
			for ctx.Err() == nil {
				if c, err := net.DialTimeout("tcp", hostport, time.Second); err == nil {
					c.Close()
				}
			}
		})
	}
	testwait.For(t, "the flood to empty the member's budget", 10*time.Second, func() bool { return host.accept.refused.Load() > 100 })
	lost := time.Now()
	_ = member.h.Network().ClosePeer(host.ID())
	testwait.For(t, "the host to see the member gone", 5*time.Second, func() bool { return !tr.IsConnected(member.ID()) })
	testwait.For(t, "the member back", 20*time.Second, func() bool {
		tr.Mesh([]peer.ID{member.ID()})
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		_ = member.h.Connect(network.WithForceDirectDial(ctx, "test"), host.AddrInfo())
		return tr.IsConnected(member.ID())
	})
	t.Logf("FIGURE the member was back %v after its connection closed; %d connections refused meanwhile", time.Since(lost), host.accept.refused.Load())
}
