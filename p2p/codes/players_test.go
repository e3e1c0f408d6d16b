package codes

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/internal/testwait"
	"hostfall/p2p/internal/p2ptest"
	"hostfall/p2p/transport"
)

// A game of two on a loopback DHT: the host publishes its code, a player
// joins it directly, and the host, holding a reservation on that player's
// relay, publishes the code again with a way in through it. A joiner who
// cannot dial the host's own addresses (its dials to them are dropped, as
// a NAT that defeats hole punching would) finds the code and reaches the
// host through the player's relay: a circuit without limits, the first
// and only connection, and no volunteer's relay involved.
func TestCodeLeadsThroughAPlayer(t *testing.T) {
	t.Parallel()
	boot := testDHT(t, 4)
	published := make(chan Progress, 16)
	host, hh := testInternet(t, boot[:1], func(p Progress) {
		if p.Step == "published" {
			select {
			case published <- p:
			default:
			}
		}
	})
	member, mh := testInternet(t, boot[1:2], nil)
	ht := transport.NewTransport(hh, transport.Limits{}, p2ptest.Log())
	mt := transport.NewTransport(mh, transport.Limits{}, p2ptest.Log())
	t.Cleanup(func() { ht.Close(0); mt.Close(0) })
	ctx, cancel := context.WithTimeout(t.Context(), 45*time.Second)
	defer cancel()
	code, _, err := host.Publish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if first := awaitPublished(ctx, t, published, func(Progress) bool { return true }); first.Players != 0 {
		t.Fatalf("the first record names %d ways through players before anyone joined", first.Players)
	}
	ai, err := member.Find(ctx, code)
	if err != nil {
		t.Fatal(err)
	}
	if err := mh.LibP2P().Connect(ctx, ai); err != nil {
		t.Fatal(err)
	}
	ht.Protect([]peer.ID{mh.ID()}) // the host admitted the player
	mt.Protect([]peer.ID{hh.ID()})
	began := time.Now()
	awaitPublished(ctx, t, published, func(p Progress) bool { return p.Players > 0 })
	t.Logf("FIGURE the record named a way through the player %v after it joined", time.Since(began).Round(time.Millisecond))

	hostPorts := listenPorts(hh)
	_, jh := testInternetRanked(t, boot[2:3], nil, func(addrs []ma.Multiaddr) []network.AddrDelay {
		return transport.TCPFirst(slices.DeleteFunc(slices.Clone(addrs), func(a ma.Multiaddr) bool {
			p, err := a.ValueForProtocol(ma.P_TCP)
			return err == nil && !transport.IsCircuit(a) && slices.Contains(hostPorts, p)
		}))
	})
	began = time.Now()
	if _, err := CodeResolver(code).Resolve(ctx, jh); err != nil {
		t.Fatal(err)
	}
	t.Logf("FIGURE the joiner reached the host %v after it looked the code up", time.Since(began).Round(time.Millisecond))
	conns := jh.LibP2P().Network().ConnsToPeer(hh.ID())
	if len(conns) == 0 {
		t.Fatal("the joiner holds no connection to the host")
	}
	for _, c := range conns {
		a := c.RemoteMultiaddr()
		if !transport.IsCircuit(a) || c.Stat().Limited || !slices.Contains(relaysOf(a), mh.ID()) {
			t.Errorf("the joiner reached the host at %v (limited %v), want a circuit through the player %s", a, c.Stat().Limited, mh.ID())
		}
	}
	testwait.For(t, "the joiner's connection still open", time.Second, func() bool {
		return jh.LibP2P().Network().Connectedness(hh.ID()) == network.Connected
	})
}

// awaitPublished waits for a "published" step that ok accepts.
func awaitPublished(ctx context.Context, t *testing.T, ch <-chan Progress, ok func(Progress) bool) Progress {
	t.Helper()
	for {
		select {
		case p := <-ch:
			if ok(p) {
				return p
			}
		case <-ctx.Done():
			t.Fatal("no such record was published")
		}
	}
}

// listenPorts are h's TCP listening ports.
func listenPorts(h *transport.Host) []string {
	var out []string
	for _, a := range h.LibP2P().Network().ListenAddresses() {
		if p, err := a.ValueForProtocol(ma.P_TCP); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// relaysOf are the relays' peer IDs named in circuit address a.
func relaysOf(a ma.Multiaddr) []peer.ID {
	relay, _ := ma.SplitFunc(a, func(c ma.Component) bool { return c.Code() == ma.P_CIRCUIT })
	id, err := peer.IDFromP2PAddr(relay)
	if err != nil {
		return nil
	}
	return []peer.ID{id}
}
