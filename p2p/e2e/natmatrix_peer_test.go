package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/p2p/codes"
	"hostfall/p2p/transport"
)

// A peer of the NAT matrix (natmatrix_test.go): this test binary run again
// inside a home namespace with matrixPeerEnv set. It builds its libp2p host
// as internet play does (codes.Internet's HostOptions: AutoRelay, AutoNAT
// v2, port mapping, hole punching) on the simulated public network, and
// plays no game: a host publishes a short code and waits; a joiner looks it
// up, connects and reports how the host was reached.
//
// Lines on stdout (JSON): the host prints {"ev":"published"} after each
// record it put, the first with the code; the joiner prints one
// {"ev":"result",…}: direct or not, the milliseconds from its start to
// its first direct connection, that connection's transport and IP version,
// and whether it was direct from the start (no relayed connection first).
const (
	matrixPeerEnv   = "HFLAN_MATRIX_PEER"   // "host" or "join"
	matrixBootEnv   = "HFLAN_MATRIX_BOOT"   // bootstrap multiaddrs, comma-separated
	matrixCodeEnv   = "HFLAN_MATRIX_CODE"   // the joiner's code
	matrixListenEnv = "HFLAN_MATRIX_LISTEN" // "" TCP and QUIC, or "tcp" or "quic" alone
	// matrixPort is every matrix peer's port (TCP and UDP): the cone NATs
	// forward it (one peer per home network).
	matrixPort = 4100
	// directWait bounds how long a joiner waits for a direct connection
	// after it found the host: DCUtR tries three times within about 15 s.
	directWait = 25 * time.Second
)

// runMatrixPeer serves as a matrix peer when matrixPeerEnv is set, and exits.
func runMatrixPeer() {
	role := os.Getenv(matrixPeerEnv)
	if role == "" {
		return
	}
	err := matrixPeer(role)
	fmt.Fprintln(os.Stderr, "matrix peer:", err)
	os.Exit(1)
}

func matrixPeer(role string) error {
	ctx := context.Background()
	began := time.Now()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var addrs []ma.Multiaddr
	for _, s := range strings.Split(os.Getenv(matrixBootEnv), ",") {
		a, err := ma.NewMultiaddr(s)
		if err != nil {
			return fmt.Errorf("bootstrap %q: %w", s, err)
		}
		addrs = append(addrs, a)
	}
	boot, err := peer.AddrInfosFromP2pAddrs(addrs...)
	if err != nil {
		return err
	}
	emit := json.NewEncoder(os.Stdout)
	var emitMu sync.Mutex
	say := func(kv map[string]any) {
		kv["unix_ms"] = time.Now().UnixMilli()
		emitMu.Lock()
		defer emitMu.Unlock()
		_ = emit.Encode(kv)
	}
	cfg := codes.InternetConfig{Bootstrap: boot, Logger: log}
	if role == "host" {
		cfg.Progress = func(p codes.Progress) {
			if p.Step == "published" {
				say(map[string]any{"ev": "published", "code": p.Code.String(), "direct": p.Direct, "relays": p.Relays})
			}
		}
	}
	in := codes.NewInternet(cfg)
	key, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		return err
	}
	transport.TrustOneObserver()
	opt := in.HostOptions()
	opt.Identity, opt.Listen, opt.Logger = key, matrixListen(os.Getenv(matrixListenEnv)), log
	h, err := transport.NewHost(ctx, opt)
	if err != nil {
		return err
	}
	conns := &connLog{}
	h.LibP2P().Network().Notify(&network.NotifyBundle{ConnectedF: func(_ network.Network, c network.Conn) { conns.add(c) }})
	if err := in.Start(ctx, h); err != nil {
		return err
	}
	if role == "host" {
		if _, _, err := in.Publish(ctx); err != nil {
			return err
		}
		select {} // until the test kills it
	}
	res, err := codes.ResolveAnyCode(os.Getenv(matrixCodeEnv))
	if err != nil {
		return err
	}
	ai, err := res.Resolve(ctx, h)
	if err != nil {
		say(map[string]any{"ev": "result", "error": err.Error()})
		return err
	}
	say(matrixResult(ctx, h, ai, began, conns))
	select {}
}

// matrixListen are a matrix peer's listen addresses: TCP and QUIC, on IPv4
// and IPv6, at matrixPort; or one transport alone.
func matrixListen(only string) []string {
	var out []string
	for _, ip := range []string{"/ip4/0.0.0.0", "/ip6/::"} {
		if only != "quic" {
			out = append(out, fmt.Sprintf("%s/tcp/%d", ip, matrixPort))
		}
		if only != "tcp" {
			out = append(out, fmt.Sprintf("%s/udp/%d/quic-v1", ip, matrixPort))
		}
	}
	return out
}

// connLog is every connection the host opened or accepted, with when.
type connLog struct {
	mu    sync.Mutex
	conns []network.Conn
	at    []time.Time
}

func (l *connLog) add(c network.Conn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.conns, l.at = append(l.conns, c), append(l.at, time.Now())
}

// get is the i-th connection, if there is one yet.
func (l *connLog) get(i int) (network.Conn, time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if i >= len(l.conns) {
		return nil, time.Time{}, false
	}
	return l.conns[i], l.at[i], true
}

// matrixResult waits (directWait at most) for a direct connection to the
// host, connecting through its relays first if nothing reached it yet.
func matrixResult(ctx context.Context, h *transport.Host, ai peer.AddrInfo, began time.Time, conns *connLog) map[string]any {
	host := ai.ID
	cctx, cancel := context.WithTimeout(network.WithAllowLimitedConn(ctx, "matrix"), directWait)
	defer cancel()
	if err := h.LibP2P().Connect(cctx, ai); err != nil {
		return map[string]any{"ev": "result", "error": err.Error()}
	}
	relayedFirst := false
	for i := 0; ; {
		c, at, ok := conns.get(i)
		if !ok {
			select {
			case <-cctx.Done():
				return map[string]any{"ev": "result", "direct": false, "relayed_first": relayedFirst}
			case <-time.After(10 * time.Millisecond):
			}
			continue
		}
		i++
		if c.RemotePeer() != host {
			continue
		}
		if transport.IsCircuit(c.RemoteMultiaddr()) {
			relayedFirst = true
			continue
		}
		return map[string]any{"ev": "result", "direct": true, "relayed_first": relayedFirst,
			"ms": at.Sub(began).Milliseconds(), "transport": transportOf(c.RemoteMultiaddr()),
			"ip": ipOf(c.RemoteMultiaddr()), "addr": c.RemoteMultiaddr().String()}
	}
}

// transportOf is "quic" or "tcp".
func transportOf(a ma.Multiaddr) string {
	if _, err := a.ValueForProtocol(ma.P_QUIC_V1); err == nil {
		return "quic"
	}
	return "tcp"
}

// ipOf is "ipv6" or "ipv4".
func ipOf(a ma.Multiaddr) string {
	if _, err := a.ValueForProtocol(ma.P_IP6); err == nil {
		return "ipv6"
	}
	return "ipv4"
}
