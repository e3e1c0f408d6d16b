package relay

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"

	"hostfall/p2p/codes"
	"hostfall/p2p/internal/p2ptest"
	"hostfall/p2p/rendezvous"
	"hostfall/p2p/transport"
)

// newTestRelay starts a relay with its directory on loopback.
func newTestRelay(t *testing.T, opt Options) (*transport.Host, *Service) {
	t.Helper()
	h := p2ptest.NewRelayHost(t)
	rs, err := Start(h, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rs.Close() })
	return h, rs
}

const echoProto = "/hostfall-test/echo/1"

// A relayed connection carries more than libp2p's default relay limit
// (128 KiB a direction) and is reported as relayed; a later direct
// connection is reported as direct.
func TestRelayCarriesAGame(t *testing.T) {
	relay, _ := newTestRelay(t, Options{})
	a, rc := p2ptest.NewNATHost(t, relay, 0)
	paths := make(chan transport.PathKind, 4)
	rc.OnPath(func(_ peer.ID, k transport.PathKind) { paths <- k })
	a.LibP2P().SetStreamHandler(echoProto, func(s network.Stream) {
		defer s.Close()
		_, _ = io.Copy(s, s)
	})
	b := p2ptest.NewHost(t)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	invite := codes.RelayInvite(rc, a)
	inv, err := invite.Encode()
	if err != nil {
		t.Fatal(err)
	}
	target, err := codes.InviteResolver(inv).Resolve(ctx, b)
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
	if !transport.IsCircuit(s.Conn().RemoteMultiaddr()) {
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
	if k := <-paths; k != transport.PathRelayed {
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
		if k != transport.PathDirect {
			t.Fatalf("second path %v, want direct", k)
		}
	case <-ctx.Done():
		t.Fatal("the direct connection was not reported")
	}
}

// Junk sent to the relay's rendezvous point gets a reset stream, never a
// crash, and the point answers the next peer.
func TestDirectoryJunk(t *testing.T) {
	relay, _ := newTestRelay(t, Options{})
	c := p2ptest.NewHost(t)
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
func reserve(ctx context.Context, h *transport.Host, relay peer.AddrInfo) (*client.Reservation, error) {
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
