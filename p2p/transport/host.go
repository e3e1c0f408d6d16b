package transport

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"math"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/control"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/gologshim"
	rcmgr "github.com/libp2p/go-libp2p/p2p/host/resource-manager"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	libp2pquic "github.com/libp2p/go-libp2p/p2p/transport/quic"
	"github.com/libp2p/go-libp2p/p2p/transport/tcp"
	"github.com/libp2p/go-libp2p/x/rate"
	ma "github.com/multiformats/go-multiaddr"
)

// DefaultListen are the listen addresses when Options.Listen is empty: TCP
// and QUIC on every interface, ports chosen by the system.
var DefaultListen = []string{
	"/ip4/0.0.0.0/tcp/0",
	"/ip4/0.0.0.0/udp/0/quic-v1",
	"/ip6/::/tcp/0",
	"/ip6/::/udp/0/quic-v1",
}

// Options set up a Host. The zero value is a peer with the identity of this
// user on this machine, listening on every interface.
type Options struct {
	// Identity is the private key to use. Nil loads (or creates) the key
	// file at IdentityPath.
	Identity crypto.PrivKey
	// IdentityPath is the key file; "" means DefaultIdentityPath().
	IdentityPath string
	// Listen are multiaddrs to listen on; empty means DefaultListen.
	Listen []string
	// HolePunching runs DCUtR so relayed peers try to connect directly.
	HolePunching bool
	// DialRanker orders dial attempts; nil means TCPFirst. Pass
	// swarm.DefaultDialRanker for libp2p's own QUIC-first order.
	DialRanker network.DialRanker
	// Libp2p options are applied after Hostfall's own (relay client, auto
	// relay, reachability, address factories, …); a later option wins.
	Libp2p []libp2p.Option
	// Logger receives the host's logs; nil means slog.Default().
	Logger *slog.Logger
	// Unlimited are networks whose addresses are spared the handshake
	// budget per address (accept.go): the simulated
	// public network of the tests, whose nodes share one namespace and so
	// dial from one source address.
	Unlimited []netip.Prefix
	// ConnsPerAddr, if above 0, bounds the open connections from and to
	// one address (an IPv4 address, an IPv6 /56), this peer's dials
	// included: for a relay server, which has no game members to spare.
	// A game peer leaves it 0 (see resourceManager).
	ConnsPerAddr int
	// PunchWindow is how long limited (public relay) circuits to a peer
	// may be used after the first; 0 means PunchWindow (circuit.go).
	// Tests that measure renewal itself lengthen it.
	PunchWindow time.Duration
}

// Host is this process's libp2p host: one identity, TCP and QUIC, encrypted
// and multiplexed as libp2p does (TLS or Noise; yamux). It closes when the
// context given to NewHost is done or on Close.
type Host struct {
	h    host.Host
	gate *gater
	log  *slog.Logger
	stop func() bool
	file string // the identity key file; "" for a key given in memory
	// attached holds what other packages keep with this host (Attach).
	attached sync.Map
	// relayFirst counts dials under way that replace a limited relay
	// circuit: while it is above zero, relay addresses are dialled at once
	// rather than after libp2p's RelayDelay (500 ms), since the direct path
	// is known to fail (circuit.go).
	relayFirst *atomic.Int32
	// punch says, per peer, whether limited circuits may still be used
	// (circuit.go): the gater refuses them once it closed.
	punch *punchWindows
	// accept is the handshake budget of inbound connections (accept.go).
	accept *acceptBudget
	// relays bounds strangers' circuits through this peer's relay
	// (relaygate.go).
	relays *relayGate
	// memberRelays are the members whose relay this peer holds a
	// reservation on (playerrelay.go; MemberRelays).
	memberRelays atomic.Pointer[func() []peer.ID]
}

// Attach keeps v with this host under key, as a context keeps values: the
// internet play of package codes is found from the host that runs it. The
// key is a value of an unexported type of the caller's package.
func (h *Host) Attach(key, v any) { h.attached.Store(key, v) }

// Attached is what Attach kept under key, nil if nothing.
func (h *Host) Attached(key any) any {
	v, _ := h.attached.Load(key)
	return v
}

// IdentityFile is the key file this host's identity came from, "" when the
// key was given in memory: what belongs to the identity is kept beside it.
func (h *Host) IdentityFile() string { return h.file }

// NewHost starts a libp2p host.
func NewHost(ctx context.Context, opt Options) (*Host, error) {
	log := opt.Logger
	if log == nil {
		log = slog.Default()
	}
	key := opt.Identity
	file := ""
	if key == nil {
		path := opt.IdentityPath
		if path == "" {
			var err error
			if path, err = DefaultIdentityPath(); err != nil {
				return nil, err
			}
		}
		var err error
		if key, err = LoadIdentity(path); err != nil {
			return nil, err
		}
		file = path
	}
	listen := opt.Listen
	if len(listen) == 0 {
		listen = DefaultListen
	}
	punch := &punchWindows{d: cmp.Or(opt.PunchWindow, PunchWindow)}
	g := &gater{blocked: map[peer.ID]time.Time{}, punch: punch}
	rm, err := resourceManager(opt.ConnsPerAddr)
	if err != nil {
		return nil, err
	}
	accept := newAcceptBudget(time.Now, opt.Unlimited)
	relays := newRelayGate()
	lopts := []libp2p.Option{
		libp2p.ResourceManager(budgetedRM{rm, accept, relays}),
		libp2p.Identity(key),
		libp2p.ListenAddrStrings(listen...),
		libp2p.Transport(tcp.NewTCPTransport),
		libp2p.Transport(libp2pquic.NewTransport),
		libp2p.ConnectionGater(g),
		libp2p.DisableMetrics(),
		libp2p.UserAgent("hostfall"),
	}
	ranker := opt.DialRanker
	if ranker == nil {
		ranker = TCPFirst
	}
	relayFirst := new(atomic.Int32)
	lopts = append(lopts, libp2p.SwarmOpts(swarm.WithDialRanker(func(addrs []ma.Multiaddr) []network.AddrDelay {
		ranked := ranker(addrs)
		if relayFirst.Load() > 0 {
			undelayRelays(ranked)
		}
		return ranked
	})))
	if opt.HolePunching {
		lopts = append(lopts, libp2p.EnableHolePunching())
	}
	lopts = append(lopts, opt.Libp2p...)
	h, err := libp2p.New(lopts...)
	if err != nil {
		return nil, fmt.Errorf("transport: start libp2p host: %w", err)
	}
	hh := &Host{h: h, gate: g, log: log, file: file, relayFirst: relayFirst, punch: punch, accept: accept, relays: relays}
	relays.sourceFrom(h.Network())
	h.Network().Notify(&network.NotifyBundle{ConnectedF: func(_ network.Network, c network.Conn) {
		if c.Stat().Limited {
			punch.limited(c.RemotePeer())
		}
	}})
	hh.stop = context.AfterFunc(ctx, func() { h.Close() })
	log.Debug("p2p host up", "peer", h.ID(), "addrs", h.Addrs())
	return hh, nil
}

// quicDelay is how long a QUIC dial waits for a TCP dial to the same peer.
const quicDelay = 250 * time.Millisecond

// TCPFirst is the default dial order: TCP addresses at once, QUIC after
// quicDelay, relays as libp2p does. A peer whose process dies has its TCP
// connections reset by its kernel, so the others learn of it within a
// millisecond and migrate at once; QUIC gives no such signal and leaves it
// to the session's heartbeats (FailTicks, 300 ms). QUIC still serves peers
// TCP cannot reach.
func TCPFirst(addrs []ma.Multiaddr) []network.AddrDelay {
	ranked := swarm.DefaultDialRanker(addrs)
	for i := range ranked {
		a := &ranked[i]
		if _, err := a.Addr.ValueForProtocol(ma.P_CIRCUIT); err == nil {
			continue
		}
		if _, err := a.Addr.ValueForProtocol(ma.P_TCP); err == nil {
			a.Delay = 0
		} else {
			a.Delay += quicDelay
		}
	}
	return ranked
}

// ID is this peer's ID (derived from the identity key).
func (h *Host) ID() peer.ID { return h.h.ID() }

// LibP2P returns the underlying libp2p host, for discovery, relay and
// whatever else builds on the same identity and connections.
func (h *Host) LibP2P() host.Host { return h.h }

// Addrs returns the addresses others can dial this peer at, each ending in
// /p2p/<id> so it names the peer too.
func (h *Host) Addrs() []ma.Multiaddr {
	full, err := peer.AddrInfoToP2pAddrs(&peer.AddrInfo{ID: h.h.ID(), Addrs: h.h.Addrs()})
	if err != nil {
		return nil
	}
	return full
}

// AddrInfo is this peer's ID and listen addresses.
func (h *Host) AddrInfo() peer.AddrInfo {
	return peer.AddrInfo{ID: h.h.ID(), Addrs: h.h.Addrs()}
}

// Block refuses connections to and from p for d and closes the open ones.
func (h *Host) Block(p peer.ID, d time.Duration, why string) {
	h.gate.block(p, time.Now().Add(d))
	h.log.Warn("blocking peer", "peer", p, "for", d, "reason", why)
	_ = h.h.Network().ClosePeer(p)
}

// Blocked reports whether p is blocked now.
func (h *Host) Blocked(p peer.ID) bool { return h.gate.isBlocked(p) }

// Close shuts the host down and closes every connection.
func (h *Host) Close() error {
	h.stop()
	return h.h.Close()
}

// gater refuses blocked peers, in both directions, once their identity is
// known, and relay circuits to peers whose punch window closed.
type gater struct {
	mu      sync.Mutex
	blocked map[peer.ID]time.Time
	punch   *punchWindows
	// viaMember reports whether a relay is a member of this peer's game
	// (playerrelay.go): its circuits have no limits and pass after the
	// punch window.
	viaMember   atomic.Pointer[func(peer.ID) bool]
	onlyMembers map[peer.ID]bool // peers moved off volunteers' relays (g.mu)
}

// circuitOK reports whether circuit address a to p may be used: within
// p's punch window (unless p was moved to members' relays), or through a
// relay of a player of the game.
func (g *gater) circuitOK(p peer.ID, a ma.Multiaddr) bool {
	if f := g.viaMember.Load(); f != nil && (*f)(relayOf(a)) {
		return true
	}
	g.mu.Lock()
	only := g.onlyMembers[p]
	g.mu.Unlock()
	return !only && g.punch.open(p)
}

// membersOnly makes the gater refuse circuits to p but through members'
// relays (offVolunteers).
func (g *gater) membersOnly(p peer.ID) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.onlyMembers == nil {
		g.onlyMembers = map[peer.ID]bool{}
	}
	if len(g.onlyMembers) < maxWindows {
		g.onlyMembers[p] = true
	}
}

func (g *gater) block(p peer.ID, until time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.blocked[p] = until
}

func (g *gater) isBlocked(p peer.ID) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	until, ok := g.blocked[p]
	if ok && time.Now().After(until) {
		delete(g.blocked, p)
		return false
	}
	return ok
}

func (g *gater) InterceptPeerDial(p peer.ID) bool { return !g.isBlocked(p) }
func (g *gater) InterceptAddrDial(p peer.ID, a ma.Multiaddr) bool {
	return !g.isBlocked(p) && (!IsCircuit(a) || g.circuitOK(p, a))
}
func (g *gater) InterceptAccept(network.ConnMultiaddrs) bool { return true }
func (g *gater) InterceptSecured(_ network.Direction, p peer.ID, c network.ConnMultiaddrs) bool {
	return !g.isBlocked(p) && (!IsCircuit(c.RemoteMultiaddr()) || g.circuitOK(p, c.RemoteMultiaddr()))
}
func (g *gater) InterceptUpgraded(network.Conn) (bool, control.DisconnectReason) { return true, 0 }

// RouteLibp2pLogs sends go-libp2p's own logs (it logs through slog, via its
// gologshim package) to handler. Call it before the first host starts;
// otherwise go-libp2p writes to stderr as GOLOG_LOG_LEVEL says.
func RouteLibp2pLogs(handler slog.Handler) { gologshim.SetDefaultHandler(handler) }

// resourceManager is go-libp2p's default with room for more connections per
// peer (32 rather than 8): a player whose process is killed and restarted
// comes back under the same peer ID while the QUIC connections of the killed
// process linger until their idle timeout, and from its fourth restart in a
// minute the default refused it ("connection reset") for seconds.
//
// Per address, the accept budget (accept.go) replaces go-libp2p's rate of
// new connections (0.2 a second after a burst of 16, members too) and its
// cap on open connections (8, lifted for loopback). That cap counted every
// connection from and to an address alike, this peer's own dials included,
// so strangers holding handshakes open at a member's address (a LAN party
// behind one NAT, a member whose public address is flooded) kept the
// member out, even when this peer dialled it. Instead, per address:
// handshakes under way are bounded (acceptBudget.open), strangers'
// connections after their handshake too (Limits.StrangersPerIP, the oldest
// closed), and members' connections and this peer's dials are not counted.
// These are ours and apply on loopback too, so tests on loopback see the
// limits a LAN does. A relay server has no members to spare and sets a cap
// (perAddr, Options.ConnsPerAddr; 0 is none), go-libp2p's, which spares
// loopback.
func resourceManager(perAddr int) (network.ResourceManager, error) {
	if perAddr <= 0 {
		perAddr = math.MaxInt
	}
	limits := rcmgr.DefaultLimits
	libp2p.SetDefaultServiceLimits(&limits)
	perPeer := rcmgr.ResourceLimits{ConnsInbound: 32, ConnsOutbound: 32, Conns: 32, FD: 16}
	cfg := rcmgr.PartialLimitConfig{PeerDefault: perPeer}
	opts := []rcmgr.Option{
		rcmgr.WithConnRateLimiters(&rate.Limiter{}),
		rcmgr.WithLimitPerSubnet(
			[]rcmgr.ConnLimitPerSubnet{{PrefixLength: 32, ConnCount: perAddr}},
			[]rcmgr.ConnLimitPerSubnet{{PrefixLength: 56, ConnCount: perAddr}}),
	}
	rm, err := rcmgr.NewResourceManager(rcmgr.NewFixedLimiter(cfg.Build(limits.AutoScale())), opts...)
	if err != nil {
		return nil, fmt.Errorf("transport: resource manager: %w", err)
	}
	return rm, nil
}
