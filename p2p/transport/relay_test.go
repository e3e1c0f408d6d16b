package transport

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"

	"hostfall/internal/testwait"
	"hostfall/session"
)

func TestMain(m *testing.M) {
	TrustOneObserver() // as a peer with --relay does, before any host starts
	os.Exit(m.Run())
}

var loopbackListen = []string{"/ip4/127.0.0.1/tcp/0"}

// newRelay runs go-libp2p's relay service on loopback without limits, as
// the relay of package relay runs it.
func newRelay(t *testing.T) *Host {
	t.Helper()
	h := newRelayHost(t)
	r, err := relay.New(h.LibP2P(), relay.WithResources(relay.DefaultResources()), relay.WithInfiniteLimits())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return h
}

// newRelayHost is a loopback host built to run a relay.
func newRelayHost(t *testing.T) *Host {
	t.Helper()
	k, _, _ := crypto.GenerateEd25519Key(nil)
	h, err := NewHost(t.Context(), Options{Identity: k, Listen: loopbackListen, Libp2p: []libp2p.Option{libp2p.ForceReachabilityPublic(), libp2p.DisableRelay()}, Logger: testLog()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// newNATHost starts a host that holds a reservation on the relay; extra
// libp2p options follow the relay client's.
func newNATHost(t *testing.T, relay *Host, extra ...libp2p.Option) (*Host, *RelayClient) {
	t.Helper()
	return newNATHostWindow(t, relay, 0, extra...)
}

// newNATHostWindow is newNATHost with a punch window of its own (0: the default).
func newNATHostWindow(t *testing.T, relay *Host, window time.Duration, extra ...libp2p.Option) (*Host, *RelayClient) {
	t.Helper()
	rc, err := NewRelayClient(relay.Addrs()[0].String(), testLog())
	if err != nil {
		t.Fatal(err)
	}
	opt := rc.HostOptions()
	k, _, _ := crypto.GenerateEd25519Key(nil)
	opt.Identity, opt.Listen, opt.Logger, opt.PunchWindow = k, loopbackListen, testLog(), window
	opt.Libp2p = append(opt.Libp2p, extra...)
	h, err := NewHost(t.Context(), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	rc.Start(t.Context(), h)
	select {
	case <-rc.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("no reservation within 10 s")
	}
	return h, rc
}

// sessionPath says whether the session stream from h to p runs over the
// relay ("relayed"), a direct connection ("direct") or is not open ("").
func sessionPath(h *Host, p peer.ID) string {
	path := ""
	for _, c := range h.LibP2P().Network().ConnsToPeer(p) {
		for _, s := range c.GetStreams() {
			if s.Protocol() != ProtocolID {
				continue
			}
			if IsCircuit(c.RemoteMultiaddr()) {
				path = "relayed"
			} else {
				return "direct"
			}
		}
	}
	return path
}

// Two peers first talk through the relay; once a direct connection opens,
// the session stream moves onto it on both sides and messages go on.
func TestSessionMovesToDirect(t *testing.T) {
	relay := newRelay(t)
	ha, rc := newNATHost(t, relay)
	hb := newTestHost(t)
	ta, tb := NewTransport(ha, Limits{}, testLog()), NewTransport(hb, Limits{}, testLog())
	t.Cleanup(func() { ta.Close(0); tb.Close(0) })
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if err := tb.Connect(ctx, peer.AddrInfo{ID: ha.ID(), Addrs: rc.AddrInfo(ha).Addrs[:1]}); err != nil {
		t.Fatal(err)
	}
	// b speaks first (as a joiner does), a answers on the stream b opened.
	exchange := func(turn uint64) {
		t.Helper()
		for _, dir := range []struct {
			from, to *Transport
			id       peer.ID
		}{{tb, ta, ha.ID()}, {ta, tb, hb.ID()}} {
			dir.from.Send(dir.id, &session.Message{Kind: session.MsgPing, Turn: turn})
			select {
			case in := <-dir.to.Inbound():
				if in.Msg.Turn != turn {
					t.Fatalf("got turn %d, want %d", in.Msg.Turn, turn)
				}
			case <-ctx.Done():
				t.Fatalf("message %d did not arrive", turn)
			}
		}
	}
	exchange(1)
	if pa, pb := sessionPath(ha, hb.ID()), sessionPath(hb, ha.ID()); pa != "relayed" || pb != "relayed" {
		t.Fatalf("session stream %q / %q, want relayed on both sides", pa, pb)
	}
	if _, err := hb.LibP2P().Network().DialPeer(network.WithForceDirectDial(ctx, "test"), ha.ID()); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "the session stream on the direct connection", 10*time.Second, func() bool {
		return sessionPath(ha, hb.ID()) == "direct" && sessionPath(hb, ha.ID()) == "direct"
	})
	exchange(2)
}
