package transport

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/proto"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
)

// Strangers on a player's relay. The relay's ACL lets anyone open a
// circuit to a member (a joiner may reach the host only through one), and
// go-libp2p counts circuits per source and per destination only, so fresh
// identities could fill a member's MaxCircuits with circuits without
// limits: the members' own circuits to it would then be refused, and the
// relaying player would carry the strangers' bytes for as long as they
// like. So circuits whose source is no member are bounded apart:
//
//   - at most strangerCircuits at once through one relay, and
//     strangerCircuitsEach per stranger; members' circuits never count;
//   - each for at most strangerCircuitLife, then reset (sweepStrangers).
//
// The count is kept on the hop stream's resource scope, which the relay
// attaches to its service (SetService) before it reads the request, and
// which the swarm ends (Done) exactly once, when the stream is gone: so a
// circuit counts from its request to its last byte, whichever side ends
// it. A stream refused there is reset before the relay reads a byte.
// go-libp2p's limits on duration and bytes (RelayLimit) are one for all
// circuits of a relay, so members' circuits could not stay without
// limits; the life above is the strangers' instead.
const (
	strangerCircuits     = 4
	strangerCircuitsEach = 1
	// strangerCircuitLife is how long a stranger's circuit may last: long
	// enough for a joiner's Hello to be answered and it to be admitted
	// (then it is a member, and its next circuit is not bounded).
	strangerCircuitLife = 2 * time.Minute
)

// errRelayBusy refuses a stranger's circuit over the bound.
var errRelayBusy = errors.New("transport: this player's relay carries as many circuits of non-members as it may: try again in a minute or join through the host")

// relayGate counts the circuits non-members hold through this peer's relay.
type relayGate struct {
	// member reports whether a peer is a member of this peer's game; nil
	// until the relay runs (then no hop stream is served anyway).
	member  atomic.Pointer[func(peer.ID) bool]
	refused atomic.Int64

	mu    sync.Mutex
	total int
	each  map[peer.ID]int
}

func newRelayGate() *relayGate { return &relayGate{each: map[peer.ID]int{}} }

// take counts one circuit of stranger p, false when p or all strangers
// hold their bound.
func (g *relayGate) take(p peer.ID) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.total >= strangerCircuits || g.each[p] >= strangerCircuitsEach {
		g.refused.Add(1)
		return false
	}
	g.total++
	g.each[p]++
	return true
}

// release forgets one circuit of p that take counted.
func (g *relayGate) release(p peer.ID) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.total--
	if g.each[p]--; g.each[p] <= 0 {
		delete(g.each, p)
	}
}

// held is how many strangers' circuits are counted (tests).
func (g *relayGate) held() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.total
}

// stranger reports whether p's relay requests are bounded.
func (g *relayGate) stranger(p peer.ID) bool {
	f := g.member.Load()
	return f != nil && !(*f)(p)
}

// gatedStream is an inbound stream's scope that counts it when it turns
// out to be a stranger's request to the relay.
type gatedStream struct {
	network.StreamManagementScope
	g *relayGate
	p peer.ID

	mu      sync.Mutex
	counted bool
	done    bool
}

func (s *gatedStream) SetService(name string) error {
	if name == relay.ServiceName && s.g.stranger(s.p) {
		s.mu.Lock()
		if !s.done && !s.counted {
			if !s.g.take(s.p) {
				s.mu.Unlock()
				return errRelayBusy
			}
			s.counted = true
		}
		s.mu.Unlock()
	}
	return s.StreamManagementScope.SetService(name)
}

func (s *gatedStream) Done() {
	s.mu.Lock()
	if s.counted {
		s.g.release(s.p)
		s.counted = false
	}
	s.done = true
	s.mu.Unlock()
	s.StreamManagementScope.Done()
}

// sweepStrangers resets the hop streams (so the circuits) strangers have
// held through this relay for longer than strangerCircuitLife.
func (pr *playerRelay) sweepStrangers(now time.Time) {
	nw := pr.t.h.h.Network()
	for _, c := range nw.Conns() {
		if pr.t.isMember(c.RemotePeer()) {
			continue
		}
		for _, s := range c.GetStreams() {
			if s.Protocol() == proto.ProtoIDv2Hop && s.Stat().Direction == network.DirInbound && now.Sub(s.Stat().Opened) > strangerCircuitLife {
				_ = s.Reset()
				pr.t.log.Debug("closed a stranger's circuit through this relay: its time is up", "peer", c.RemotePeer())
			}
		}
	}
}
