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

// Strangers sharing a member's address (a LAN party behind one NAT, or a
// member whose public address is flooded) are capped there, and the member
// is never closed or left out for them. The strangers hold bare TCP
// connections open without a handshake (each keeps a place until
// go-libp2p's 15 s accept timeout) and 24 fresh identities connect in full,
// all from 127.0.0.1 like the member. Then the member's connection drops,
// and the host's dial must bring it back while the flood holds.
func TestStrangersShareAMembersAddress(t *testing.T) {
	host, member := newTestHost(t), newTestHost(t)
	tr := NewTransport(host, Limits{}, nil)
	t.Cleanup(func() { tr.Close(0) })
	tr.Admit(func(p peer.ID) bool { return p == member.ID() })
	var closed atomic.Int64 // the member's connections the host saw close
	var dropping atomic.Bool
	host.h.Network().Notify(&network.NotifyBundle{DisconnectedF: func(_ network.Network, c network.Conn) {
		if c.RemotePeer() == member.ID() && !dropping.Load() {
			closed.Add(1)
		}
	}})
	if err := member.h.Connect(t.Context(), host.AddrInfo()); err != nil {
		t.Fatal(err)
	}
	tr.Protect([]peer.ID{member.ID()})

	_, hostport, err := manet.DialArgs(onlyAddrs(host, ma.P_TCP).Addrs[0])
	if err != nil {
		t.Fatal(err)
	}
	strangers := make([]*Host, 24)
	for i := range strangers { // one at a time: the address's burst is 16
		strangers[i] = newTestHost(t)
		c, cancel := context.WithTimeout(t.Context(), 3*time.Second)
		_ = strangers[i].h.Connect(c, host.AddrInfo())
		cancel()
	}
	testwait.For(t, "the strangers over the address's bound closed", 10*time.Second, func() bool {
		return tr.t.strangerCount() <= DefaultLimits.StrangersPerIP
	})
	ctx, stop := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	defer wg.Wait()
	defer stop()
	wg.Go(func() { holdBareConns(ctx, hostport, 600) })
	testwait.For(t, "the held connections to fill their places", 20*time.Second, func() bool {
		return host.accept.handshaking() >= memberAcceptBurst/2 && host.accept.refused.Load() >= 20
	})
	peak := host.accept.handshaking()
	if peak > memberAcceptBurst {
		t.Fatalf("%d handshakes at once from one address, want at most %d", peak, memberAcceptBurst)
	}
	if n := tr.t.strangerCount(); n > DefaultLimits.StrangersPerIP {
		t.Fatalf("%d strangers connected from one address, want at most %d", n, DefaultLimits.StrangersPerIP)
	}
	if n := closed.Load(); n > 0 || !tr.IsConnected(member.ID()) {
		t.Fatalf("the member's connection closed %d times among strangers from its address", n)
	}

	dropping.Store(true)
	_ = member.h.Network().ClosePeer(host.ID())
	testwait.For(t, "the host to see the member gone", 5*time.Second, func() bool { return !tr.IsConnected(member.ID()) })
	dropping.Store(false)
	// The game dials its missing members every second (Mesh): that long
	// for the flood to take the place the member's connection left.
	time.Sleep(time.Second)
	dial := time.Now()
	testwait.For(t, "the host's dial to bring the member back", 20*time.Second, func() bool {
		tr.Mesh([]peer.ID{member.ID()})
		return tr.IsConnected(member.ID())
	})
	if n := host.accept.handshaking(); n > memberAcceptBurst {
		t.Fatalf("%d handshakes at once from one address, want at most %d", n, memberAcceptBurst)
	}
	t.Logf("FIGURE %d handshakes held at once from the member's address (cap %d), %d strangers connected, %d connections refused; the host's dial brought the member back in %v",
		peak, memberAcceptBurst, tr.t.strangerCount(), host.accept.refused.Load(), time.Since(dial).Round(time.Millisecond))
}

// holdBareConns opens TCP connections to hostport every 20 ms, at most
// most of them, and holds them open, sending nothing, until ctx is done.
func holdBareConns(ctx context.Context, hostport string, most int) {
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	tk := time.NewTicker(20 * time.Millisecond)
	defer tk.Stop()
	for range most {
		select {
		case <-ctx.Done():
			return
		case <-tk.C:
		}
		if c, err := net.DialTimeout("tcp", hostport, time.Second); err == nil {
			held = append(held, c)
		}
	}
	<-ctx.Done()
}
