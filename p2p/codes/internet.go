package codes

import (
	"cmp"
	"context"
	crand "crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p"
	dht "github.com/libp2p/go-libp2p-kad-dht"
	"github.com/libp2p/go-libp2p/core/event"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/host/autorelay"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"hostfall/internal/codeform"
	"hostfall/p2p/transport"
)

// Internet play rides the public libp2p network instead of a server of
// ours: the Kademlia DHT (the one IPFS and many others share) to publish and
// find short invite codes, relays found by AutoRelay among the DHT's peers,
// and DCUtR hole punching to take a relayed connection direct.
//
// The DHT runs in client mode: a game peer lives for one game and is
// usually behind NAT, so it could not answer other peers' queries, and
// servers that come and go make everyone's routing tables worse. Clients
// still look up and store records on the servers.

// Timing of internet play.
const (
	bootstrapTimeout = 15 * time.Second
	// relayWait bounds how long a host waits for its first relay
	// reservation before it publishes its code anyway (with its direct
	// addresses only).
	relayWait = 20 * time.Second
	// FindTimeout bounds a code's lookup: a code nobody publishes answers
	// ErrNoGame within it (on the public network a lookup of a missing key
	// takes a few seconds; a simulated one, well under a second).
	FindTimeout = 15 * time.Second
	// wantRelays is how many relay reservations a host or joiner keeps.
	wantRelays = 3
)

// ErrNoGame is a code that resolves to no game.
var ErrNoGame = errors.New("no game with that code")

// InternetConfig says how to join the public network.
type InternetConfig struct {
	// Bootstrap are the DHT peers to start from; none means the public
	// list go-libp2p-kad-dht ships (dht.DefaultBootstrapPeers).
	Bootstrap []peer.AddrInfo
	// Relays, when given, are the only relays AutoRelay uses; none means
	// relays found among the DHT's peers.
	Relays []peer.AddrInfo
	// RelayWait bounds how long a host waits for a relay reservation
	// before it publishes its code anyway; 0 means 20 s.
	RelayWait time.Duration
	// Progress hears what a player should see ("publishing your game…").
	Progress func(Progress)
	Logger   *slog.Logger
}

// Progress is a step of internet play a player sees.
type Progress struct {
	Step   string // publishing, published, finding, found, relayed-only
	Code   Code
	Relays int
	Via    string // published: the relays' peer IDs, comma-separated
	Direct int    // published: public direct addresses in the record (a port mapping, a public IP)
	// Players: published or found, the ways in through players of the
	// host's game whose relay carries it (circuits in the record).
	Players int
	Peer    string // relayed-only: the peer hole punching did not reach
}

// Internet is this peer on the public libp2p network: a DHT client,
// AutoRelay reservations and hole punching. Build its host with
// HostOptions, then Start it.
type Internet struct {
	cfg InternetConfig
	log *slog.Logger
	h   *transport.Host
	kad atomic.Pointer[dht.IpfsDHT]
	// lh is the libp2p host once started, for advertise.
	lh atomic.Pointer[host.Host]
	// seen are public addresses of ours that peers observed (identify).
	seen observedAddrs
	// publishing counts the publish loops, which say their last word
	// when their game ends (Wait).
	publishing sync.WaitGroup
	transport.PathWatch
}

// NewInternet prepares internet play; nothing touches the network before Start.
func NewInternet(cfg InternetConfig) *Internet {
	if len(cfg.Bootstrap) == 0 {
		cfg.Bootstrap = dht.GetDefaultBootstrapPeerAddrInfos()
	}
	return &Internet{cfg: cfg, log: cmp.Or(cfg.Logger, slog.Default())}
}

// HostOptions are what the host needs: hole punching, a port mapping
// when the router gives one, AutoRelay at once, and AutoNAT v2.
//
// Reachability is found out address by address (AutoNAT v2 asks DHT
// servers to dial each public address back): a public IPv6 address stays
// in the host's DHT record until a server finds it unreachable, while a
// public IPv4 one (a port mapping, a forwarded port) joins the record
// once a server found it reachable (advertise says why); one confirmed
// reachable takes the relays out of the record. The host's overall
// reachability still starts private, without AutoNAT v1's wait (about
// 17 s), because that is what starts AutoRelay: a host wants its code out
// in seconds, and a joiner dials its direct addresses first (go-libp2p
// delays relay dials by 500 ms when there are others). See also
// TrustOneObserver.
func (in *Internet) HostOptions() transport.Options {
	ar := []autorelay.Option{autorelay.WithBackoff(time.Minute), autorelay.WithMinInterval(time.Second)}
	relays := libp2p.EnableAutoRelayWithStaticRelays(in.cfg.Relays, ar...)
	if len(in.cfg.Relays) == 0 {
		ar = append(ar, autorelay.WithNumRelays(wantRelays), autorelay.WithMinCandidates(1), autorelay.WithBootDelay(time.Second))
		relays = libp2p.EnableAutoRelayWithPeerSource(in.relayCandidates, ar...)
	}
	opts := []libp2p.Option{relays, libp2p.ForceReachabilityPrivate(), libp2p.EnableAutoNATv2(), libp2p.AddrsFactory(in.advertise)}
	if onPublicNetwork(in.cfg.Bootstrap) {
		opts = append(opts, libp2p.NATPortMap())
	}
	return transport.Options{HolePunching: true, Libp2p: opts}
}

// onPublicNetwork reports whether a bootstrap peer has a public address:
// then the router is asked for a port mapping (UPnP-IGD, NAT-PMP; go-libp2p's
// NATPortMap), which a joiner dials directly, whatever the NAT. A network
// of private addresses (tests on loopback) is left alone: the request
// would go to the machine's real router.
func onPublicNetwork(boot []peer.AddrInfo) bool {
	for _, ai := range boot {
		if slices.ContainsFunc(ai.Addrs, manet.IsPublicAddr) {
			return true
		}
	}
	return false
}

// relayCandidates is AutoRelay's peer source: the DHT servers this peer
// knows, in random order so that hosts spread over the relays.
func (in *Internet) relayCandidates(ctx context.Context, n int) <-chan peer.AddrInfo {
	var cands []peer.AddrInfo
	if kad := in.kad.Load(); kad != nil {
		for _, p := range kad.RoutingTable().ListPeers() {
			if ai := in.h.LibP2P().Peerstore().PeerInfo(p); len(ai.Addrs) > 0 {
				cands = append(cands, ai)
			}
		}
	}
	rand.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	out := make(chan peer.AddrInfo, min(n, len(cands)))
	for _, ai := range cands[:min(n, len(cands))] {
		out <- ai
	}
	close(out)
	return out
}

// internetKey keeps a host's internet play with the host (Host.Attach).
type internetKey struct{}

// On is the internet play started on h, nil unless started (Internet.Start).
func On(h *transport.Host) *Internet {
	in, _ := h.Attached(internetKey{}).(*Internet)
	return in
}

// Start joins the DHT through the bootstrap peers: it returns once at
// least one answered (bootstrapTimeout at most).
func (in *Internet) Start(ctx context.Context, h *transport.Host) error {
	in.h = h
	lh := h.LibP2P()
	in.lh.Store(&lh)
	h.Attach(internetKey{}, in)
	h.LibP2P().Network().Notify(&network.NotifyBundle{
		ConnectedF: func(_ network.Network, c network.Conn) { in.Connected(c, "") },
	})
	if err := in.seen.watch(ctx, h.LibP2P()); err != nil {
		return fmt.Errorf("codes: watch identify: %w", err)
	}
	in.connectOverQUIC(ctx)
	kad, err := dht.New(h.LibP2P(), dht.Mode(dht.ModeClient), dht.BootstrapPeers(in.cfg.Bootstrap...))
	if err != nil {
		return fmt.Errorf("codes: start the DHT: %w", err)
	}
	in.kad.Store(kad)
	context.AfterFunc(ctx, func() { kad.Close() })
	bctx, cancel := context.WithTimeout(ctx, bootstrapTimeout)
	defer cancel()
	var wg sync.WaitGroup
	var reached atomic.Int32
	for _, ai := range in.cfg.Bootstrap {
		wg.Go(func() {
			if err := h.LibP2P().Connect(bctx, ai); err == nil {
				reached.Add(1)
				for _, c := range h.LibP2P().Network().ConnsToPeer(ai.ID) {
					in.log.Debug("bootstrap peer reached", "peer", ai.ID, "over", c.RemoteMultiaddr(), "sees us at", c.LocalMultiaddr())
				}
			} else {
				in.log.Debug("bootstrap peer did not answer", "peer", ai.ID, "err", err)
			}
		})
	}
	wg.Wait()
	if reached.Load() == 0 {
		return fmt.Errorf("codes: none of the %d bootstrap peers of the libp2p network answered within %s: check the internet connection, or name reachable ones with --bootstrap", len(in.cfg.Bootstrap), bootstrapTimeout)
	}
	in.log.Debug("on the libp2p network", "bootstrap peers", reached.Load(), "of", len(in.cfg.Bootstrap))
	// The routing table takes the peers in once identify says they serve
	// the DHT; a lookup before that finds nothing.
	for kad.RoutingTable().Size() == 0 {
		select {
		case <-bctx.Done():
			return fmt.Errorf("codes: the bootstrap peers answered but none serves the DHT: name others with --bootstrap")
		case <-time.After(20 * time.Millisecond):
		}
	}
	return kad.Bootstrap(ctx)
}

// Relays counts the relays this peer holds a reservation on (its circuit
// addresses).
func (in *Internet) Relays() int { return len(in.relayIDs()) }

// relayIDs are the relays of this peer's circuit addresses, sorted.
func (in *Internet) relayIDs() []string {
	var ids []string
	for _, a := range in.h.LibP2P().Addrs() {
		if !transport.IsCircuit(a) {
			continue
		}
		relay, _ := ma.SplitFunc(a, func(c ma.Component) bool { return c.Code() == ma.P_CIRCUIT })
		if id, err := relayID(relay); err == nil && !slices.Contains(ids, id.String()) {
			ids = append(ids, id.String())
		}
	}
	slices.Sort(ids)
	return ids
}

// quicWait bounds connectOverQUIC.
const quicWait = 3 * time.Second

// connectOverQUIC reaches the first bootstrap peer that has a QUIC
// address over QUIC alone (quicWait at most), before the DHT knows its
// other addresses: every other dial is TCP first (transport.TCPFirst), and
// a peer learns its public QUIC address (identify's observed address,
// which QUIC hole punching offers the other side) only from a peer it
// reached over QUIC. Measured: with TCP to every bootstrap peer no peer
// behind NAT ever knew its QUIC address, and no punch went over QUIC.
func (in *Internet) connectOverQUIC(ctx context.Context) {
	i := slices.IndexFunc(in.cfg.Bootstrap, func(ai peer.AddrInfo) bool { return len(quicAddrs(ai.Addrs)) > 0 })
	if i < 0 {
		return
	}
	ai := in.cfg.Bootstrap[i]
	qctx, cancel := context.WithTimeout(ctx, quicWait)
	defer cancel()
	lh := in.h.LibP2P()
	lh.Peerstore().ClearAddrs(ai.ID)
	err := lh.Connect(qctx, peer.AddrInfo{ID: ai.ID, Addrs: quicAddrs(ai.Addrs)})
	in.log.Debug("bootstrap peer dialled over QUIC", "peer", ai.ID, "err", err)
}

// quicAddrs are addrs' QUIC ones.
func quicAddrs(addrs []ma.Multiaddr) []ma.Multiaddr {
	return slices.DeleteFunc(slices.Clone(addrs), func(a ma.Multiaddr) bool {
		_, err := a.ValueForProtocol(ma.P_QUIC_V1)
		return err != nil
	})
}

// publishAddrs are the addresses a host publishes: its circuits through
// relays and its public addresses (those advertise keeps); with no relay
// reservation, its public direct addresses whatever AutoNAT v2 found; on a
// network with no public address (a LAN, tests on loopback) all of them.
func (in *Internet) publishAddrs() []ma.Multiaddr {
	lh := in.h.LibP2P()
	all := lh.Addrs()
	out := slices.DeleteFunc(slices.Clone(all), func(a ma.Multiaddr) bool {
		return !transport.IsCircuit(a) && !manet.IsPublicAddr(a)
	})
	if d, ok := lh.(interface{ AllAddrs() []ma.Multiaddr }); ok && countCircuits(out) == 0 {
		out = ma.Unique(append(out, slices.DeleteFunc(d.AllAddrs(), func(a ma.Multiaddr) bool { return !manet.IsPublicAddr(a) })...))
	}
	if len(out) == 0 {
		return all
	}
	return out
}

// maxViaPlayers bounds the circuits through players a record names (an
// IPNS record holds 10 KiB at most).
const maxViaPlayers = 8

// recordAddrs are what the code's record names now: publishAddrs, and
// circuits through the players of the game whose relay holds a
// reservation of this host's (transport.Host.MemberRelays). A player is
// named at its public addresses, which a joiner can dial; on a network
// with no public address (a LAN, tests on loopback) at all of them, as
// publishAddrs does; a player with no public address on the internet is
// left out, since a joiner reaches it no better than the host.
func (in *Internet) recordAddrs() hostAddrs {
	own := in.publishAddrs()
	online := slices.ContainsFunc(own, manet.IsPublicAddr) // a circuit's too: its relay's address
	var via []ma.Multiaddr
	for _, m := range in.h.MemberRelays() {
		addrs := slices.DeleteFunc(slices.Clone(m.Addrs), func(a ma.Multiaddr) bool { return !manet.IsPublicAddr(a) })
		if len(addrs) == 0 && !online {
			addrs = m.Addrs
		}
		hop := ma.StringCast("/p2p/" + m.ID.String() + "/p2p-circuit")
		for _, a := range addrs {
			if len(via) < maxViaPlayers {
				via = append(via, a.Encapsulate(hop))
			}
		}
	}
	return hostAddrs{own: own, viaPlayers: via}
}

// advertise is the host's AddrsFactory: its addresses, less the public
// IPv4 ones that peers observed and AutoNAT v2 has not found reachable
// (yet), so that neither its code's record nor what identify tells other
// peers names them. Hole punching still offers them (go-libp2p adds its
// observed addresses to DCUtR's message after this factory). A port
// mapping nobody observed (behind a symmetric NAT, which shows each peer
// another port) stays: nobody punches to it, so a dial to it meets no
// punch later.
//
// Why: a peer dials another's advertised direct addresses first, from its
// listening port (the joiner a record's; go-libp2p's hole puncher the
// other side's before it punches, and that dial ran 5 s here). Behind a
// port-restricted NAT the unanswered SYN leaves an entry in the dialler's
// own router (Linux conntrack) that remembers its sequence number. When
// the punch from the other side then arrives first, it meets the
// dialler's listening socket, whose SYN-ACK has another sequence number:
// conntrack judges it out of window and it leaves the router
// untranslated, from the private address; and the half-open connection
// keeps the dialler's own punch off its listening port (it dials from
// another, which the other NAT never saw). Measured with tcpdump in the
// routers: two port-restricted NATs then missed most punches. IPv6 is
// not translated, so there the same leftover entry does no harm.
func (in *Internet) advertise(addrs []ma.Multiaddr) []ma.Multiaddr {
	lh := in.lh.Load()
	if lh == nil {
		return addrs
	}
	reachable := confirmedReachable(*lh)
	return slices.DeleteFunc(slices.Clone(addrs), func(a ma.Multiaddr) bool {
		_, v4 := a.ValueForProtocol(ma.P_IP4)
		return v4 == nil && !transport.IsCircuit(a) && in.seen.has(a) && !reachable(a)
	})
}

// maxObserved bounds observedAddrs (a symmetric NAT shows a new port to
// each peer).
const maxObserved = 64

// observedAddrs are the public addresses of ours that peers told us they
// see (identify), up to maxObserved.
type observedAddrs struct {
	mu   sync.Mutex
	addr map[string]bool
}

// watch records what identify reports until ctx ends.
func (o *observedAddrs) watch(ctx context.Context, h host.Host) error {
	sub, err := h.EventBus().Subscribe(new(event.EvtPeerIdentificationCompleted))
	if err != nil {
		return err
	}
	go func() {
		defer sub.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-sub.Out():
				if !ok {
					return
				}
				if a := e.(event.EvtPeerIdentificationCompleted).ObservedAddr; a != nil && manet.IsPublicAddr(a) {
					o.add(a)
				}
			}
		}
	}()
	return nil
}

func (o *observedAddrs) add(a ma.Multiaddr) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.addr == nil {
		o.addr = map[string]bool{}
	}
	if len(o.addr) < maxObserved {
		o.addr[a.String()] = true
	}
}

// has reports whether a peer observed a.
func (o *observedAddrs) has(a ma.Multiaddr) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.addr[a.String()]
}

// confirmedReachable reports whether AutoNAT v2 found an address of h
// reachable (every address, on a host that does not say).
func confirmedReachable(h host.Host) func(ma.Multiaddr) bool {
	c, ok := h.(interface {
		ConfirmedAddrs() (reachable, unreachable, unknown []ma.Multiaddr)
	})
	if !ok {
		return func(ma.Multiaddr) bool { return true }
	}
	reachable, _, _ := c.ConfirmedAddrs()
	return func(a ma.Multiaddr) bool { return slices.ContainsFunc(reachable, a.Equal) }
}

// Publish picks this host's code and keeps it published until ctx ends;
// it returns the code at once and a channel closed once it is out.
// Progress hears "publishing" and then "published" with the number of
// relays the record names, each time.
func (in *Internet) Publish(ctx context.Context) (Code, <-chan struct{}, error) {
	salt := make([]byte, saltLen)
	if _, err := crand.Read(salt); err != nil {
		return "", nil, err
	}
	code := CodeFor(in.h.ID(), salt)
	published := make(chan struct{})
	in.publishing.Add(1)
	go in.publishLoop(ctx, code, salt, published)
	return code, published, nil
}

// Wait waits (d at most) until every code whose game ended has been
// replaced by its host's last word: call it before closing the host.
func (in *Internet) Wait(d time.Duration) {
	done := make(chan struct{})
	go func() { in.publishing.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// AwaitHolePunch waits (transport.PunchReadyWait at most) until this peer's hole
// punching service answers: a relayed connection made before then never
// goes direct.
func (in *Internet) AwaitHolePunch(ctx context.Context) bool {
	wctx, cancel := context.WithTimeout(ctx, transport.PunchReadyWait)
	defer cancel()
	return transport.WaitHolePunch(wctx, in.h.LibP2P())
}

// A code nobody publishes is looked up again every lookupAgain for
// unknownAfter before Find answers ErrNoGame.
const (
	unknownAfter = 5 * time.Second
	lookupAgain  = 500 * time.Millisecond
)

// Find resolves a code to its host within FindTimeout: its peer ID and
// the addresses it signed (circuits through players of its game first,
// then through its relays).
func (in *Internet) Find(ctx context.Context, code Code) (peer.AddrInfo, error) {
	f, err := in.find(ctx, code)
	return f.AddrInfo, err
}

func (in *Internet) find(ctx context.Context, code Code) (found, error) {
	kad := in.kad.Load()
	if kad == nil {
		return found{}, errors.New("codes: internet play is not started")
	}
	in.progress(Progress{Step: "finding", Code: code})
	ctx, cancel := context.WithTimeout(ctx, FindTimeout)
	defer cancel()
	f, err := lookupCode(ctx, kad, code)
	// A lookup that finds nothing is not the last word while the routing
	// table fills (a client's table is empty until identify finishes, and a
	// bootstrap peer may just have gone): it is asked again for
	// unknownAfter before the code counts as unknown.
	for start := time.Now(); errors.As(err, new(noRecord)) && time.Since(start) < unknownAfter && ctx.Err() == nil; {
		select {
		case <-ctx.Done():
		case <-time.After(lookupAgain):
			f, err = lookupCode(ctx, kad, code)
		}
	}
	if err != nil {
		return f, err
	}
	in.log.Debug("code found", "code", code, "addrs", f.Addrs, "via players", len(f.viaPlayers))
	in.progress(Progress{Step: "found", Code: code, Relays: countCircuits(f.Addrs) - len(f.viaPlayers), Players: len(f.viaPlayers)})
	return f, nil
}

func (in *Internet) progress(p Progress) {
	if in.cfg.Progress != nil {
		in.cfg.Progress(p)
	}
}

// ErrNoInternet is a short code given to a peer not on the internet.
var ErrNoInternet = errors.New("short invite codes are found on the internet, and internet play is off: start with --internet")

// CodeResolver finds the host of a short invite code through the DHT of
// the host's internet play and, when the way in is through a relay, waits
// until hole punching can take the connection direct.
type CodeResolver Code

// Resolve looks the code up. When the record names a way in through a
// player of the host's game, that is tried first (viaPlayersFirst): a
// volunteer's relay only introduces, a player's carries the game.
func (c CodeResolver) Resolve(ctx context.Context, h *transport.Host) (peer.AddrInfo, error) {
	in := On(h)
	if in == nil {
		return peer.AddrInfo{}, ErrNoInternet
	}
	f, err := in.find(ctx, Code(c))
	if err != nil || countCircuits(f.Addrs) == 0 {
		return f.AddrInfo, err
	}
	if !in.AwaitHolePunch(ctx) {
		in.log.Warn("hole punching is not ready (no public address of ours known yet); the connection may stay relayed")
	}
	if in.viaPlayersFirst(ctx, f) {
		return f.AddrInfo, nil
	}
	if in.hostGone(ctx, f.AddrInfo) {
		return f.AddrInfo, fmt.Errorf("%w (%s): the game with that code has ended (its host is at none of its relays any more)", ErrNoGame, Code(c))
	}
	return f.AddrInfo, nil
}

// playersWait bounds viaPlayersFirst's dial.
const playersWait = 5 * time.Second

// viaPlayersFirst dials the host of f at its direct addresses and through
// the relays of its game's players alone (playersWait at most), and reports
// whether that reached it: the join then goes on over that connection
// (hole punching still tries to go direct over it), and no volunteer's
// relay is needed.
func (in *Internet) viaPlayersFirst(ctx context.Context, f found) bool {
	if len(f.viaPlayers) == 0 {
		return false
	}
	addrs := slices.DeleteFunc(slices.Clone(f.Addrs), func(a ma.Multiaddr) bool {
		return transport.IsCircuit(a) && !slices.ContainsFunc(f.viaPlayers, a.Equal)
	})
	ctx, cancel := context.WithTimeout(ctx, playersWait)
	defer cancel()
	err := in.h.LibP2P().Connect(ctx, peer.AddrInfo{ID: f.ID, Addrs: addrs})
	in.log.Debug("host of the code dialled through its players' relays first", "peer", f.ID, "err", err)
	return err == nil
}

// probeTimeout bounds hostGone's dial.
const probeTimeout = 10 * time.Second

// hostGone dials the host of a found code and reports whether every relay
// it names answered that the host holds no reservation there: its process
// is gone (a relay drops the reservation with the host's connection, which
// a crash ends at once), though its last record still says otherwise for
// up to recordLife. A dial that works is kept for the join.
func (in *Internet) hostGone(ctx context.Context, ai peer.AddrInfo) bool {
	ctx, cancel := context.WithTimeout(network.WithAllowLimitedConn(ctx, "hostfall code lookup"), probeTimeout)
	defer cancel()
	err := in.h.LibP2P().Connect(ctx, ai)
	gone := err != nil && noReservation(err)
	in.log.Debug("host of the code dialled", "peer", ai.ID, "gone", gone, "err", err)
	return gone
}

// noReservation reports whether a dial failed at a relay, at one at least,
// each for the same reason: the peer holds no reservation there.
func noReservation(err error) bool {
	var de *swarm.DialError
	if !errors.As(err, &de) {
		return false
	}
	relays := 0
	for _, te := range de.DialErrors {
		if !transport.IsCircuit(te.Address) {
			continue
		}
		if te.Cause == nil || !strings.Contains(te.Cause.Error(), "NO_RESERVATION") {
			return false
		}
		relays++
	}
	return relays > 0
}

// ResolveAnyCode is the resolver of an invite code of either form: short
// (through the DHT) or long (HF1-…, which holds the addresses itself).
func ResolveAnyCode(code string) (transport.Resolver, error) {
	if !codeform.IsShort(code) {
		if _, err := DecodeInvite(code); err != nil {
			return nil, err
		}
		return InviteResolver(code), nil
	}
	c, err := ParseCode(code)
	if err != nil {
		return nil, err
	}
	return CodeResolver(c), nil
}

func countCircuits(addrs []ma.Multiaddr) int {
	n := 0
	for _, a := range addrs {
		if transport.IsCircuit(a) {
			n++
		}
	}
	return n
}
