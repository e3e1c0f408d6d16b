package network

import (
	"context"
	"flag"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/p2p/net/connmgr"
	"github.com/libp2p/go-libp2p/p2p/protocol/ping"
	"github.com/libp2p/go-libp2p/p2p/transport/tcp"

	"hostfall/internal/testwait"
	"hostfall/p2p"
)

var strangerCount = flag.Int("strangers", 200, "stranger identities TestStrangersCannotTrimMembers connects")

// helloFrame is a valid transport hello (frame kind 1, wirepb.Hello{Version: 1}).
var helloFrame = []byte{3, 1, 0x08, 0x01}

// holdStrangers connects n fresh identities to h, 16 at a time; each says
// a valid hello on a session stream, opens a ping stream, and then only
// holds both open. It returns the strangers' hosts.
func holdStrangers(tb testing.TB, h *p2p.Host, n int) []host.Host {
	tb.Helper()
	out := make([]host.Host, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for i := range out {
		s, err := libp2p.New(libp2p.NoListenAddrs, libp2p.Transport(tcp.NewTCPTransport), libp2p.DisableRelay(),
			libp2p.ResourceManager(&network.NullResourceManager{}), libp2p.DisableMetrics())
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { s.Close() })
		out[i] = s
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := s.Connect(ctx, h.AddrInfo()); err != nil {
				return // refused: fine, the host owes strangers nothing
			}
			if st, err := s.NewStream(ctx, h.ID(), p2p.ProtocolID); err == nil {
				_, _ = st.Write(helloFrame)
			}
			if st, err := s.NewStream(ctx, h.ID(), ping.ID); err == nil {
				_, _ = st.Write(make([]byte, ping.PingSize))
			}
		})
	}
	wg.Wait()
	return out
}

// TestStrangersCannotTrimMembers: 200 fresh identities (-strangers) each
// hold a session stream and a ping stream open to the host of a running
// 3-player game over real TCP connections on loopback. The host's
// connection manager is go-libp2p's, made to trim early (16 connections,
// 1 s of grace) so the test does not wait a minute: it trims strangers
// only, the members' connections stay, nobody is waited for and the host
// stays the host. The strangers' connections are bounded by
// p2p.Limits.StrangersPerIP (they all come from 127.0.0.1).
func TestStrangersCannotTrimMembers(t *testing.T) {
	const limit = 500
	peers := newGame(t, gameOpts{players: 3, turnLimit: limit, libp2p: func(i int) []libp2p.Option {
		if i != 0 {
			return nil
		}
		cm, err := connmgr.NewConnManager(8, 16, connmgr.WithGracePeriod(time.Second), connmgr.WithSilencePeriod(200*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		return []libp2p.Option{libp2p.ConnectionManager(cm)}
	}})
	host := peers[0]
	start := time.Now()
	strangers := holdStrangers(t, host.host, *strangerCount)
	took := time.Since(start)
	open := 0
	testwait.For(t, "the connection manager's grace", 10*time.Second, func() bool {
		return time.Since(start) > took+3*time.Second
	})
	for _, s := range strangers {
		if s.Network().Connectedness(host.ID()) == network.Connected {
			open++
		}
	}
	t.Logf("%d strangers connected in %v; %d still connected after the grace; the host counts %d stranger connections",
		len(strangers), took.Round(time.Millisecond), open, host.t.Strangers())
	if n := host.t.Strangers(); n > p2p.DefaultLimits.StrangersPerIP {
		t.Errorf("the host holds %d stranger connections from one address, more than the %d allowed", n, p2p.DefaultLimits.StrangersPerIP)
	}
	for _, p := range peers {
		for _, e := range p.all(EvWaiting) {
			t.Errorf("%s waited for slot %d (%s) while strangers held connections", p.name, e.Slot, e.Name)
		}
	}
	survivorsAgree(t, peers, limit, 0)
}
