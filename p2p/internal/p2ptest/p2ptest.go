// Package p2ptest starts the real libp2p hosts that the tests of the
// packages above the transport (discovery, codes, relay) share: hosts on
// loopback with fresh identities, relay hosts, hosts behind a relay, and a
// quiet logger. The transport's own tests keep theirs inside the package.
package p2ptest

import (
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"

	"hostfall/p2p/transport"
)

func init() {
	transport.TrustOneObserver() // as a peer with --relay does, before any host starts
	if os.Getenv("HOSTFALL_TEST_LOG") == "" {
		// go-libp2p logs an error when a closing host's listener stops; quiet.
		transport.RouteLibp2pLogs(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 4}))
	}
}

// LoopbackListen is a host's listen address on loopback TCP.
var LoopbackListen = []string{"/ip4/127.0.0.1/tcp/0"}

// Log is quiet unless HOSTFALL_TEST_LOG is set.
func Log() *slog.Logger {
	level := slog.LevelError
	if os.Getenv("HOSTFALL_TEST_LOG") != "" {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
}

// Key is a fresh identity.
func Key(t testing.TB) crypto.PrivKey {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// NewHost starts a host on loopback TCP and QUIC with a fresh identity,
// closed when the test ends.
func NewHost(t testing.TB) *transport.Host {
	t.Helper()
	return start(t, transport.Options{Identity: Key(t), Listen: []string{"/ip4/127.0.0.1/tcp/0", "/ip4/127.0.0.1/udp/0/quic-v1"}})
}

// NewRelayHost is a loopback host built to run a relay: reachable by
// definition and needing no relay itself.
func NewRelayHost(t testing.TB) *transport.Host {
	t.Helper()
	return start(t, transport.Options{Identity: Key(t), Listen: LoopbackListen, Libp2p: []libp2p.Option{libp2p.ForceReachabilityPublic(), libp2p.DisableRelay()}, Logger: Log()})
}

// NewLimitedRelay runs go-libp2p's relay service with limit on loopback,
// as public relays run it.
func NewLimitedRelay(t testing.TB, limit *relay.RelayLimit) *transport.Host {
	t.Helper()
	h := NewRelayHost(t)
	r, err := relay.New(h.LibP2P(), relay.WithResources(relay.DefaultResources()), relay.WithLimit(limit))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return h
}

// NewNATHost starts a host that holds a reservation on the relay, with a
// punch window of its own (0: the default); extra libp2p options follow the
// relay client's.
func NewNATHost(t testing.TB, relayHost *transport.Host, window time.Duration, extra ...libp2p.Option) (*transport.Host, *transport.RelayClient) {
	t.Helper()
	rc, err := transport.NewRelayClient(relayHost.Addrs()[0].String(), Log())
	if err != nil {
		t.Fatal(err)
	}
	opt := rc.HostOptions()
	opt.Identity, opt.Listen, opt.Logger, opt.PunchWindow = Key(t), LoopbackListen, Log(), window
	opt.Libp2p = append(opt.Libp2p, extra...)
	h := start(t, opt)
	rc.Start(t.Context(), h)
	select {
	case <-rc.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("no reservation within 10 s")
	}
	return h, rc
}

func start(t testing.TB, opt transport.Options) *transport.Host {
	t.Helper()
	h, err := transport.NewHost(t.Context(), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}
