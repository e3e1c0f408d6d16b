package transport

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	ma "github.com/multiformats/go-multiaddr"
)

// A player relays for its game. When two members cannot reach each other
// (both behind NATs that defeat hole punching) but a third reaches both,
// the third carries their traffic: every transport runs a circuit v2 relay
// service without limits that only the members of its current game (the
// peers the loop admits, see Transport.Admit and Protect) may use:
//
//   - Reservations: only members may reserve, so only members can be
//     reached through it. Each member reserves on every member it holds a
//     direct connection to (reserveLoop), so the way through is there
//     before anyone needs it: a reservation is one stream and a few bytes.
//   - Circuits: only to a member (the ACL is asked at every connect, so it
//     follows the roster: a player who left is out at once). The source may
//     be anyone, as a joiner that reaches the host only through a member is
//     no member yet; the member reached treats it as any stranger
//     (strangers.go), and the relay can carry nobody to anyone else.
//     Strangers' circuits are bounded apart and never count against the
//     members' (relaygate.go): all strangers together cost this peer at
//     most 4 circuits at once (1 each), each for at most 2 minutes and
//     4 MiB each way, all at most 512 KiB/s each way together: 4 × 32 KiB
//     of relay buffers, and what it receives for them it sends once more.
//   - Dialling: a member with no connection to another adds, to the
//     other's addresses, a circuit through each member it reaches directly
//     (viaMembers); libp2p dials relay addresses 500 ms after direct ones,
//     so a direct path wins when there is one. A member reached only over a
//     volunteer's limited circuit is moved off it (offVolunteers) as soon
//     as a member's relay offers a way.
//
// The connection gater lets these circuits through after a peer's punch
// window closed: they are not a volunteer's (circuit.go).
const (
	// playerRelayTTL is how long a reservation on a player's relay lasts;
	// members renew it at half. A member who leaves keeps its reservation
	// until then, but nobody may connect to it.
	playerRelayTTL = 30 * time.Minute
	// reserveEvery is how often the reservation loop looks at the members;
	// a change of the roster wakes it at once.
	reserveEvery = 2 * time.Second
	// reserveRetry is how long a refused or failed reservation waits.
	reserveRetry         = 10 * time.Second
	memberReserveTimeout = 5 * time.Second
)

// playerRelay is this peer's relay service for its game and the
// reservations it holds on the other members'.
type playerRelay struct {
	t     *transport
	r     *relay.Relay
	kick  chan struct{}
	mu    sync.Mutex
	held  map[peer.ID]time.Time // member relays this peer holds a reservation on, until
	tried map[peer.ID]time.Time // last failed reservation per member
}

// startPlayerRelay starts t's relay service and its reservation loop; nil
// (logged) if the service cannot start.
func startPlayerRelay(t *transport) *playerRelay {
	res := relay.DefaultResources()
	res.ReservationTTL = playerRelayTTL
	res.MaxReservations = 64      // a full game's members, with room for changes
	res.MaxReservationsPerIP = 32 // a LAN party behind one NAT
	res.MaxCircuits = 32          // every pair of a 16-player game through one member
	res.BufferSize = 16 << 10     // whole snapshot frames in one go
	pr := &playerRelay{t: t, kick: make(chan struct{}, 1), held: map[peer.ID]time.Time{}, tried: map[peer.ID]time.Time{}}
	r, err := relay.New(relayHost{t.h.h, t.h.relays},
		relay.WithResources(res),
		relay.WithInfiniteLimits(), // after WithResources, which sets the default limits
		relay.WithACL(memberACL{t}),
		relay.WithReservationAddressFilter(func(ma.Multiaddr) bool { return true }), // members may be on a LAN
	)
	if err != nil {
		t.log.Warn("no relay for the game's players", "err", err)
		return nil
	}
	pr.r = r
	member := t.isMember
	t.h.gate.viaMember.Store(&member)
	t.h.relays.member.Store(&member)
	held := pr.heldRelays
	t.h.memberRelays.Store(&held)
	t.wg.Add(1)
	go pr.reserveLoop()
	return pr
}

// close stops the relay service (the loop ends with t's context).
func (pr *playerRelay) close() {
	if pr != nil {
		_ = pr.r.Close()
	}
}

// wake makes the reservation loop look at the members now.
func (pr *playerRelay) wake() {
	if pr == nil {
		return
	}
	select {
	case pr.kick <- struct{}{}:
	default:
	}
}

// memberACL lets only the members of this peer's game use its relay.
type memberACL struct{ t *transport }

func (a memberACL) AllowReserve(p peer.ID, _ ma.Multiaddr) bool { return a.t.isMember(p) }

func (a memberACL) AllowConnect(src peer.ID, _ ma.Multiaddr, dest peer.ID) bool {
	return src != dest && a.t.isMember(dest)
}

// isMember reports whether p is a member of this peer's game (Protect's).
func (t *transport) isMember(p peer.ID) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.protected[p]
}

// members are the peers Protect named last.
func (t *transport) members() []peer.ID {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]peer.ID, 0, len(t.protected))
	for p := range t.protected {
		out = append(out, p)
	}
	return out
}

// reserveLoop keeps a reservation on the relay of every member this peer
// reaches directly.
func (pr *playerRelay) reserveLoop() {
	defer pr.t.wg.Done()
	tick := time.NewTicker(reserveEvery)
	defer tick.Stop()
	for {
		select {
		case <-pr.t.ctx.Done():
			return
		case now := <-tick.C:
			pr.sweepStrangers(now)
		case <-pr.kick:
		}
		pr.reserveAll()
	}
}

// reserveAll reserves, one after the other, on each member reached
// directly whose reservation is missing or half spent.
func (pr *playerRelay) reserveAll() {
	t := pr.t
	members := t.members()
	now := time.Now()
	pr.mu.Lock()
	for p := range pr.held {
		if !t.isMember(p) {
			delete(pr.held, p)
		}
	}
	pr.mu.Unlock()
	for _, p := range members {
		if t.ctx.Err() != nil {
			return
		}
		pr.mu.Lock()
		due := pr.held[p].Sub(now) < playerRelayTTL/2 && now.Sub(pr.tried[p]) >= reserveRetry
		pr.mu.Unlock()
		if !due || len(directConns(t.h.h.Network(), p)) == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(t.ctx, memberReserveTimeout)
		rsvp, err := client.Reserve(ctx, t.h.h, peer.AddrInfo{ID: p})
		cancel()
		pr.mu.Lock()
		if err != nil {
			pr.tried[p] = now
			t.log.Debug("no reservation on a player's relay", "peer", p, "err", err)
		} else {
			pr.held[p] = rsvp.Expiration
			delete(pr.tried, p)
			t.log.Debug("reachable through a player's relay", "relay", p, "until", rsvp.Expiration)
		}
		pr.mu.Unlock()
	}
}

// heldRelays are the members whose relay this peer holds a live
// reservation on and reaches directly (Host.MemberRelays).
func (pr *playerRelay) heldRelays() []peer.ID {
	if pr.t.ctx.Err() != nil {
		return nil
	}
	now := time.Now()
	pr.mu.Lock()
	var out []peer.ID
	for p, until := range pr.held {
		if until.After(now) {
			out = append(out, p)
		}
	}
	pr.mu.Unlock()
	return slices.DeleteFunc(out, func(p peer.ID) bool {
		return !pr.t.isMember(p) || len(directConns(pr.t.h.h.Network(), p)) == 0
	})
}

// MemberRelays are the players of this peer's game whose relay it holds a
// reservation on, each with the addresses this peer knows of it (the
// circuits of its own aside), sorted by peer: a peer that reaches one of
// them reaches this one through it, at
// /…/p2p/PLAYER/p2p-circuit/p2p/THIS. A host publishes them with its
// game's code (package codes), so that a joiner who cannot reach it
// directly gets in through a player of the game rather than over a
// volunteer's relay.
func (h *Host) MemberRelays() []peer.AddrInfo {
	f := h.memberRelays.Load()
	if f == nil {
		return nil
	}
	ids := (*f)()
	slices.Sort(ids)
	out := make([]peer.AddrInfo, 0, len(ids))
	for _, p := range ids {
		addrs := slices.DeleteFunc(h.h.Peerstore().Addrs(p), IsCircuit)
		if len(addrs) > 0 {
			out = append(out, peer.AddrInfo{ID: p, Addrs: addrs})
		}
	}
	return out
}

// CircuitsVia are circuit addresses through relay r, at each address this
// peer holds a direct connection to r on: a peer reached through r (a
// player of the game that relays for it) is dialled at them followed by
// /p2p/PEER.
func (h *Host) CircuitsVia(r peer.ID) []ma.Multiaddr {
	hop, err := ma.NewMultiaddr("/p2p/" + r.String() + "/p2p-circuit")
	if err != nil {
		return nil
	}
	var out []ma.Multiaddr
	for _, c := range directConns(h.h.Network(), r) {
		out = append(out, c.RemoteMultiaddr().Encapsulate(hop))
	}
	return out
}

// directConns are the connections to p that run over no relay.
func directConns(n network.Network, p peer.ID) []network.Conn {
	var out []network.Conn
	for _, c := range n.ConnsToPeer(p) {
		if !IsCircuit(c.RemoteMultiaddr()) {
			out = append(out, c)
		}
	}
	return out
}

// viaMembers are circuit addresses of p through each other member this
// peer reaches directly, at the address it reaches that member on.
func (t *transport) viaMembers(p peer.ID) []ma.Multiaddr {
	if t.relay == nil {
		return nil
	}
	var out []ma.Multiaddr
	for _, r := range t.members() {
		if r != p {
			out = append(out, t.h.CircuitsVia(r)...)
		}
	}
	return out
}

// offVolunteers moves p off a volunteer's limited circuit, for one through
// a member's relay: libp2p dials no second connection to a peer while one
// is open, so the limited one is closed first, as a renewal closes it (a
// planned silence the session is told of: holdDown), and from now on the
// gater lets only members' circuits to p through.
func (t *transport) offVolunteers(p peer.ID) {
	t.h.gate.membersOnly(p)
	t.mu.Lock()
	t.holdDown(p)
	t.mu.Unlock()
	for _, c := range t.h.h.Network().ConnsToPeer(p) {
		if c.Stat().Limited {
			_ = c.Close()
		}
	}
	t.log.Info("moving off a public relay: a player of the game relays", "peer", p)
}

// limitedOnly reports whether every connection to p (one at least) is a
// limited circuit: a volunteer's relay carries it.
func (t *transport) limitedOnly(p peer.ID) bool {
	conns := t.h.h.Network().ConnsToPeer(p)
	for _, c := range conns {
		if !c.Stat().Limited {
			return false
		}
	}
	return len(conns) > 0
}

// relayOf is the relay's peer ID in circuit address a ("" if none).
func relayOf(a ma.Multiaddr) peer.ID {
	var id peer.ID
	for _, c := range a {
		switch c.Protocol().Code {
		case ma.P_CIRCUIT:
			return id
		case ma.P_P2P:
			id, _ = peer.Decode(c.Value())
		}
	}
	return ""
}
