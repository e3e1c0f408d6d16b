package p2p

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"os"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"

	"hostfall/internal/testwait"
	"hostfall/p2p/rendezvous"
	"hostfall/session"
)

func TestMain(m *testing.M) {
	TrustOneObserver() // as a peer with --relay does, before any host starts
	os.Exit(m.Run())
}

var loopbackListen = []string{"/ip4/127.0.0.1/tcp/0"}

// newTestRelay starts a relay with its directory on loopback.
func newTestRelay(t *testing.T, opt RelayOptions) (*Host, *RelayService) {
	t.Helper()
	h := newRelayHost(t)
	rs, err := StartRelay(h, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rs.Close() })
	return h, rs
}

// newRelayHost is a loopback host built to run a relay.
func newRelayHost(t *testing.T) *Host {
	t.Helper()
	k, _, _ := crypto.GenerateEd25519Key(nil)
	h, err := NewHost(t.Context(), Options{Identity: k, Listen: loopbackListen, Libp2p: RelayHostOptions(), Logger: testLog()})
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

const echoProto = "/hostfall-test/echo/1"

// A relayed connection carries more than libp2p's default relay limit
// (128 KiB a direction) and is reported as relayed; a later direct
// connection is reported as direct.
func TestRelayCarriesAGame(t *testing.T) {
	relay, _ := newTestRelay(t, RelayOptions{})
	a, rc := newNATHost(t, relay)
	paths := make(chan PathKind, 4)
	rc.OnPath(func(_ peer.ID, k PathKind) { paths <- k })
	a.LibP2P().SetStreamHandler(echoProto, func(s network.Stream) {
		defer s.Close()
		_, _ = io.Copy(s, s)
	})
	b := newTestHost(t)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	invite := rc.Invite(a)
	inv, err := invite.Encode()
	if err != nil {
		t.Fatal(err)
	}
	target, err := InviteResolver(inv).Resolve(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.LibP2P().Connect(ctx, peer.AddrInfo{ID: target.ID, Addrs: target.Addrs[:1]}); err != nil {
		t.Fatal(err)
	}
	s, err := b.LibP2P().NewStream(ctx, a.ID(), echoProto)
	if err != nil {
		t.Fatal(err)
	}
	if !isCircuit(s.Conn().RemoteMultiaddr()) {
		t.Fatalf("stream over %s, want the relay circuit", s.Conn().RemoteMultiaddr())
	}
	if s.Conn().Stat().Limited {
		t.Fatal("the relayed connection is limited")
	}
	msg := make([]byte, 300<<10)
	_, _ = rand.Read(msg)
	go func() {
		_, _ = s.Write(msg)
		_ = s.CloseWrite()
	}()
	got, err := io.ReadAll(s)
	if err != nil || !bytes.Equal(got, msg) {
		t.Fatalf("echoed %d of %d bytes through the relay: %v", len(got), len(msg), err)
	}
	if k := <-paths; k != PathRelayed {
		t.Fatalf("first path %v, want relayed", k)
	}
	if err := b.LibP2P().Connect(ctx, peer.AddrInfo{ID: a.ID(), Addrs: a.LibP2P().Addrs()}); err != nil {
		t.Fatal(err)
	}
	// Connect returns at once: a connection exists. Force a new one.
	if _, err := b.LibP2P().Network().DialPeer(network.WithForceDirectDial(ctx, "test"), a.ID()); err != nil {
		t.Fatal(err)
	}
	select {
	case k := <-paths:
		if k != PathDirect {
			t.Fatalf("second path %v, want direct", k)
		}
	case <-ctx.Done():
		t.Fatal("the direct connection was not reported")
	}
}

// Junk sent to the relay's rendezvous point gets a reset stream, never a
// crash, and the point answers the next peer.
func TestDirectoryJunk(t *testing.T) {
	relay, _ := newTestRelay(t, RelayOptions{})
	c := newTestHost(t)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := c.LibP2P().Connect(ctx, relay.AddrInfo()); err != nil {
		t.Fatal(err)
	}
	s, err := c.LibP2P().NewStream(ctx, relay.ID(), rendezvous.ProtocolID)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = s.Write([]byte{0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2, 3}) // a length far over the limit
	if b, _ := io.ReadAll(s); len(b) != 0 {
		t.Fatalf("junk got an answer: %x", b)
	}
	if _, err := DirectoryList(ctx, c, relay.AddrInfo()); err != nil {
		t.Fatalf("the directory stopped answering after junk: %v", err)
	}
}

// reserve asks relay for a reservation for h.
func reserve(ctx context.Context, h *Host, relay peer.AddrInfo) (*client.Reservation, error) {
	if err := h.LibP2P().Connect(ctx, relay); err != nil {
		return nil, err
	}
	return client.Reserve(ctx, h.LibP2P(), relay)
}

func newTestKeyID(t testing.TB) peer.ID {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return id
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
			if isCircuit(c.RemoteMultiaddr()) {
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
	relay, _ := newTestRelay(t, RelayOptions{})
	ha, rc := newNATHost(t, relay)
	hb := newTestHost(t)
	ta, tb := NewTransport(ha, Limits{}, testLog()), NewTransport(hb, Limits{}, testLog())
	t.Cleanup(func() { ta.Close(0); tb.Close(0) })
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	invite := rc.Invite(ha)
	if err := tb.Connect(ctx, peer.AddrInfo{ID: ha.ID(), Addrs: invite.AddrInfo().Addrs[:1]}); err != nil {
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
