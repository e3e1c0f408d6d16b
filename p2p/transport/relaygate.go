package transport

import (
	"context"
	"errors"
	"maps"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/proto"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	"golang.org/x/time/rate"
)

// Strangers on a player's relay. The relay's ACL lets anyone open a
// circuit to a member (a joiner may reach the host only through one), and
// go-libp2p counts circuits per source and per destination only, so fresh
// identities could fill a member's MaxCircuits with circuits without
// limits: the members' own circuits to it would then be refused, and the
// relaying player would carry the strangers' bytes for as long as they
// like. So circuits whose source is no member are bounded apart:
//
//   - at most strangerCircuits at once through one relay,
//     strangerCircuitsEach per stranger and strangerCircuitsPerSource per
//     source address (an IPv4 address, an IPv6 /64, a relay: accept.go's
//     sources); members' circuits never count. Identities are free and
//     addresses are not: a laptop with a thousand identities holds one
//     place, and a joiner from any other address finds one of the others
//     free (it reaches the host only through a member, so it must);
//   - its request sent within strangerRequestTime of its hop stream's
//     start, or the stream is reset and the place freed (go-libp2p waits
//     a minute, StreamTimeout);
//   - each for at most strangerCircuitLife (then reset: sweepStrangers);
//   - strangerCircuitBytes each way per stranger, whatever circuits it
//     opens one after the other (kept while it is connected);
//   - all of them together at strangerRelayRate each way.
//
// A stranger admitted meanwhile (a joiner that came through this relay)
// counts no more, and its circuit goes on without limits. The count is
// kept on the hop stream's resource scope, which the relay attaches to its
// service (SetService) before it reads the request, and which the swarm
// ends (Done) once, when the stream is gone: so a circuit counts from its
// request to its last byte, whichever side ends it, and a request over the
// bound is reset before the relay reads it. go-libp2p's RelayLimit (time
// and bytes) is one for all of a relay's circuits, so it would bound the
// members' too: the bytes are counted on the hop stream the relay is
// handed instead (relayHost).
const (
	strangerCircuits          = 4
	strangerCircuitsEach      = 1
	strangerCircuitsPerSource = 1
	// strangerRequestTime is how long a stranger's hop stream may take to
	// send its request: a joiner sends it as soon as the stream is open.
	strangerRequestTime = 5 * time.Second
	// strangerCircuitLife is how long a stranger's circuit may last: long
	// enough for a joiner's Hello to be answered and it to be admitted
	// (then it is a member, and its next circuit is not bounded).
	strangerCircuitLife = 2 * time.Minute
	// strangerCircuitBytes is what a stranger's circuits may carry each way:
	// a joiner's Hello and the lobby, a welcome's snapshot or a catch-up
	// (the answer budget's 4 MiB, session/budget.go) before its admission.
	strangerCircuitBytes = 4 << 20
	// strangerRelayRate is what all strangers' circuits together may carry
	// a second each way (and strangerRelayBurst at once): a 4 MiB
	// snapshot in 8 s, a small share of a LAN's or a home line's.
	strangerRelayRate  = 512 << 10
	strangerRelayBurst = 64 << 10
)

// errRelayBusy refuses a stranger's circuit over the bound.
var errRelayBusy = errors.New("transport: this player's relay carries as many circuits of non-members as it may: try again in a minute or join through the host")

// relayGate counts the circuits non-members hold through this peer's relay.
type relayGate struct {
	// member reports whether a peer is a member of this peer's game; nil
	// until the relay runs (then no hop stream is served anyway).
	member  atomic.Pointer[func(peer.ID) bool]
	refused atomic.Int64
	// in and out hold all strangers' circuits to strangerRelayRate, from
	// them and to them.
	in, out *rate.Limiter

	// source names the address a peer is connected from (accept.go's
	// sources), false when unknown; nil until the host runs.
	source atomic.Pointer[func(peer.ID) (acceptKey, bool)]
	// bytesEach is what one stranger's circuits may carry each way
	// (strangerCircuitBytes; tests make it smaller).
	bytesEach int64
	// total, each and perSource are the places for all strangers, one,
	// and one source address (strangerCircuits…; ServeRelayClients).
	total, each, perSource int

	mu       sync.Mutex
	circuits map[*gatedStream]placeOf // strangers' hop streams counted
	spent    map[peer.ID]*spentBytes  // what each stranger's circuits carried
}

// placeOf is whose a counted circuit is: the stranger and its source.
type placeOf struct {
	p     peer.ID
	src   acceptKey
	known bool // src is known; unknown sources are not bounded apart
}

// spentBytes is what one stranger's circuits carried each way.
type spentBytes struct{ read, written atomic.Int64 }

func newRelayGate() *relayGate {
	return &relayGate{
		circuits:  map[*gatedStream]placeOf{},
		spent:     map[peer.ID]*spentBytes{},
		bytesEach: strangerCircuitBytes,
		total:     strangerCircuits,
		each:      strangerCircuitsEach,
		perSource: strangerCircuitsPerSource,
		in:        rate.NewLimiter(strangerRelayRate, strangerRelayBurst),
		out:       rate.NewLimiter(strangerRelayRate, strangerRelayBurst),
	}
}

// take counts s, a hop stream of stranger p, false when p or all strangers
// hold their bound. A stranger admitted since its circuit opened counts no
// more: a joiner that came through this relay keeps no stranger's place.
func (g *relayGate) take(s *gatedStream, p peer.ID) bool {
	g.forgetMembers()
	at := placeOf{p: p}
	if f := g.source.Load(); f != nil {
		at.src, at.known = (*f)(p)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	each, here := 0, 0
	for _, q := range g.circuits {
		if q.p == p {
			each++
		}
		if at.known && q.known && q.src == at.src {
			here++
		}
	}
	if s.done || len(g.circuits) >= g.total || each >= g.each || here >= g.perSource {
		g.refused.Add(1)
		return false
	}
	g.circuits[s] = at
	return true
}

// spentBy is what p's circuits carried so far.
func (g *relayGate) spentBy(p peer.ID) *spentBytes {
	g.mu.Lock()
	defer g.mu.Unlock()
	b := g.spent[p]
	if b == nil {
		b = &spentBytes{}
		g.spent[p] = b
	}
	return b
}

// forgetSpent drops what the strangers that went or became members
// carried: a stranger connected again is as new as a fresh identity, which
// costs no more.
func (g *relayGate) forgetSpent(connected func(peer.ID) bool) {
	g.mu.Lock()
	held := maps.Clone(g.spent)
	g.mu.Unlock()
	for p := range held {
		if !connected(p) || !g.stranger(p) { // asked without g.mu: see forgetMembers
			g.mu.Lock()
			delete(g.spent, p)
			g.mu.Unlock()
		}
	}
}

// forgetMembers stops counting the circuits of strangers who became
// members. Membership is asked without g.mu held: it takes the transport's
// lock, under which streams may end (release).
func (g *relayGate) forgetMembers() {
	g.mu.Lock()
	held := maps.Clone(g.circuits)
	g.mu.Unlock()
	for s, at := range held {
		if !g.stranger(at.p) {
			g.release(s)
		}
	}
}

// release forgets s.
func (g *relayGate) release(s *gatedStream) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.circuits, s)
}

// held is how many strangers' circuits are counted (tests).
func (g *relayGate) held() int {
	g.forgetMembers()
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.circuits)
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
	g    *relayGate
	p    peer.ID
	done bool // under g.mu
}

func (s *gatedStream) SetService(name string) error {
	if name == relay.ServiceName && s.g.stranger(s.p) && !s.g.take(s, s.p) {
		return errRelayBusy
	}
	return s.StreamManagementScope.SetService(name)
}

func (s *gatedStream) Done() {
	s.g.mu.Lock() // a leaf lock: ended under any other
	delete(s.g.circuits, s)
	s.done = true // a request read after its stream ended takes no place
	s.g.mu.Unlock()
	s.StreamManagementScope.Done()
}

// sweepStrangers resets the hop streams (so the circuits) strangers have
// held through this relay for longer than strangerCircuitLife, and forgets
// the bytes of strangers that went.
func (pr *playerRelay) sweepStrangers(now time.Time) {
	nw := pr.t.h.h.Network()
	pr.t.h.relays.forgetSpent(func(p peer.ID) bool { return nw.Connectedness(p) == network.Connected })
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

// relayHost is the host the relay service runs on: its hop requests from
// strangers reach the relay through a stream that carries at most
// strangerCircuitBytes each way (go-libp2p's RelayLimit would bound the
// members' circuits too).
type relayHost struct {
	host.Host
	g *relayGate
}

func (h relayHost) SetStreamHandler(pid protocol.ID, handler network.StreamHandler) {
	if pid != proto.ProtoIDv2Hop {
		h.Host.SetStreamHandler(pid, handler)
		return
	}
	h.Host.SetStreamHandler(pid, func(s network.Stream) {
		if p := s.Conn().RemotePeer(); h.g.stranger(p) {
			s = &strangerStream{Stream: s, g: h.g, p: p, spent: h.g.spentBy(p), requestBy: time.Now().Add(strangerRequestTime)}
		}
		handler(s)
	})
}

// strangerStream is a stranger's hop stream: it carries at most
// strangerCircuitBytes each way, and all strangers' streams together
// strangerRelayRate each way, unless the stranger has become a member (a
// joiner admitted meanwhile).
type strangerStream struct {
	network.Stream
	g     *relayGate
	p     peer.ID
	spent *spentBytes // the stranger's, over all its circuits
	free  atomic.Bool // its source is a member now
	// requestBy is when its request must have been read; asked is set
	// once it was (the relay clears the read deadline then).
	requestBy time.Time
	asked     atomic.Bool
}

// SetReadDeadline holds the relay's deadline for the request (a minute)
// to requestBy; the relay clears it once it read the request, and from
// then on the deadlines are the relay's.
func (s *strangerStream) SetReadDeadline(t time.Time) error {
	if !s.asked.Load() {
		if t.IsZero() {
			s.asked.Store(true)
		} else if t.After(s.requestBy) {
			t = s.requestBy
		}
	}
	return s.Stream.SetReadDeadline(t)
}

// errCircuitSpent ends a stranger's circuit that carried its bytes.
var errCircuitSpent = errors.New("transport: a non-member's circuit through this relay carried all it may")

// room is how many of want bytes may pass one way that has carried n.
func (s *strangerStream) room(n *atomic.Int64, want int) int {
	if s.free.Load() {
		return want
	}
	if !s.g.stranger(s.p) {
		s.free.Store(true)
		return want
	}
	return int(min(int64(want), strangerRelayBurst, max(s.g.bytesEach-n.Load(), 0)))
}

// wait holds a stranger's k bytes to the strangers' rate. Each wait is
// short (a burst at the rate, for each stranger's circuit at most).
func (s *strangerStream) wait(l *rate.Limiter, k int) {
	if k > 0 && !s.free.Load() {
		_ = l.WaitN(context.Background(), k)
	}
}

func (s *strangerStream) Read(b []byte) (int, error) {
	k := s.room(&s.spent.read, len(b))
	if k == 0 && len(b) > 0 {
		return 0, errCircuitSpent
	}
	n, err := s.Stream.Read(b[:k])
	s.spent.read.Add(int64(n))
	s.wait(s.g.in, n)
	return n, err
}

func (s *strangerStream) Write(b []byte) (int, error) {
	sent := 0
	for sent < len(b) {
		k := s.room(&s.spent.written, len(b)-sent)
		if k == 0 {
			return sent, errCircuitSpent
		}
		s.wait(s.g.out, k)
		n, err := s.Stream.Write(b[sent : sent+k])
		sent += n
		s.spent.written.Add(int64(n))
		if err != nil {
			return sent, err
		}
	}
	return sent, nil
}

// sourceFrom names a peer's source by the address of its connection on nw.
func (g *relayGate) sourceFrom(nw network.Network) {
	f := func(p peer.ID) (acceptKey, bool) {
		for _, c := range nw.ConnsToPeer(p) {
			return sourceOf(c.RemoteMultiaddr())
		}
		return acceptKey{}, false
	}
	g.source.Store(&f)
}

// ServeRelayClients bounds the circuits through a relay service run on h
// (`hostfall relay`, which has no game members) for everyone alike:
// perSource at once per source address (accept.go's sources), so a flood
// of identities from one address takes at most that many of a
// destination's circuits. The other bounds of a player's relay (places
// in all, time, bytes) are not applied: a relay server carries games.
func (h *Host) ServeRelayClients(perSource int) {
	g := h.relays
	g.mu.Lock()
	g.total, g.each, g.perSource = math.MaxInt, math.MaxInt, perSource
	g.mu.Unlock()
	none := func(peer.ID) bool { return false }
	g.member.Store(&none)
}
