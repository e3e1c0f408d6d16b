package transport

import (
	"errors"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// The handshake budget. Each inbound connection costs this peer a handshake
// (TLS or Noise: Ed25519, X25519, ML-KEM, P-256) before it knows who calls,
// and a flood of fresh identities spends on them the CPU the game loop ticks
// on: at ~110 connections a second from 100 identities the handshakes took
// most of a host's CPU and its followers claimed. So an inbound connection
// over its source's budget is refused before the handshake: a token bucket
// per source (an IPv4 address, an IPv6 /64, a relay for circuits), and one
// for all strangers' sources together. A source a member of the game
// connected from lately has a larger budget and does not draw on the shared
// one, so strangers behind the same NAT cannot lock the members out, nor a
// distributed flood the members' own addresses. A member that reconnects
// after a drop is also dialled by the others (Transport.Mesh), which no
// budget limits.
//
// The budget sits in the resource manager's OpenConnection, not in the
// gater's InterceptAccept: go-libp2p v0.51 calls both before a TCP
// handshake, but InterceptAccept only after a QUIC one
// (p2p/transport/quic/listener.go), while quicreuse's ConnContext opens the
// connection's scope before it.
const (
	strangerAcceptRate  = 4  // new connections a second per stranger source
	strangerAcceptBurst = 16 // and in one burst
	memberAcceptRate    = 16 // per source a member connected from within memberSourceKeep
	memberAcceptBurst   = 64 // a LAN party behind one NAT reconnecting at once
	globalAcceptRate    = 32 // all stranger sources together
	globalAcceptBurst   = 64
	// memberSourceKeep is how long a member's source keeps its budget after
	// the member's last connection from it was seen: a member that drops
	// and comes back (a host migration, a rejoin) finds it still there.
	memberSourceKeep = 10 * time.Minute
	// maxAcceptSources bounds the stranger buckets kept (about 100 bytes
	// each with the map's own, so ~400 KiB). A source with no room is
	// charged to the shared bucket alone.
	maxAcceptSources = 4096
	// maxMemberSources bounds the member sources kept (a game has 8 slots).
	maxMemberSources = 256
	// refilled is how long an untouched stranger bucket takes to be full.
	refilled = strangerAcceptBurst / strangerAcceptRate * time.Second
)

// errOverBudget refuses a connection whose source is over its budget.
var errOverBudget = errors.New("transport: too many new connections from this address: try again in a few seconds")

// acceptKey names a source of inbound connections.
type acceptKey struct {
	net     netip.Prefix // an IPv4 address, an IPv6 /64, or a circuit's relay address
	circuit bool
}

// sourceOf is the source of a connection from a, false when a has no IP
// address.
func sourceOf(a ma.Multiaddr) (acceptKey, bool) {
	ip, err := manet.ToIP(a)
	if err != nil {
		return acceptKey{}, false
	}
	addr, ok := netip.AddrFromSlice(ip)
	if !ok {
		return acceptKey{}, false
	}
	addr = addr.Unmap()
	bits := 32
	if addr.Is6() {
		bits = 64 // one subscriber's network; a flood from many is the shared bucket's
	}
	p, err := addr.Prefix(bits)
	if err != nil {
		return acceptKey{}, false
	}
	return acceptKey{net: p, circuit: IsCircuit(a)}, true
}

// bucket is a token bucket: tokens at the time at (unix nanoseconds).
type bucket struct {
	tokens float64
	at     int64
}

// fill brings b to now; a new bucket (at 0) is full.
func (b *bucket) fill(now int64, rate, burst float64) {
	if b.at == 0 {
		b.tokens = burst
	} else if d := now - b.at; d > 0 {
		b.tokens = min(burst, b.tokens+rate*float64(d)/float64(time.Second))
	}
	b.at = max(b.at, now)
}

// acceptBudget decides which inbound connections may start a handshake.
type acceptBudget struct {
	now       func() time.Time // injectable: tests drive the buckets
	unlimited []netip.Prefix   // sources spared (Options.Unlimited)
	refused   atomic.Int64

	mu       sync.Mutex
	shared   bucket
	sources  map[acceptKey]*bucket
	members  map[acceptKey]*memberSource
	prunedAt int64
	// pending counts, per source, the inbound connections whose handshake
	// is under way (opened, no peer known yet): see open.
	pending map[acceptKey]int
}

// memberSource is a source a member was seen connected from (unix nanos),
// with its own bucket.
type memberSource struct {
	seen int64
	b    bucket
}

func newAcceptBudget(now func() time.Time, unlimited []netip.Prefix) *acceptBudget {
	return &acceptBudget{now: now, unlimited: unlimited, sources: map[acceptKey]*bucket{}, members: map[acceptKey]*memberSource{}, pending: map[acceptKey]int{}}
}

// open admits an inbound connection from a to its handshake, or refuses
// it: when its source is over its budget (allow), or when as many
// connections from its source as the budget's burst (16, 64 at a member's
// source) are still in their handshake. Before its handshake nobody can
// tell a member's connection from a stranger's, and go-libp2p holds one
// that sends nothing for 15 s (its accept timeout), so without this a
// stranger at 4 a second could keep 76 such places open at its address.
// done ends the count when the handshake ends (the peer is known) or the
// connection does, whichever is first; it is nil for a spared source.
func (b *acceptBudget) open(a ma.Multiaddr) (done func(), ok bool) {
	k, ok := sourceOf(a)
	if !ok || b.spared(k) {
		return nil, b.allow(a)
	}
	b.mu.Lock()
	most := strangerAcceptBurst
	if m := b.members[k]; m != nil && b.now().UnixNano()-m.seen < int64(memberSourceKeep) {
		most = memberAcceptBurst
	}
	if b.pending[k] >= most {
		b.mu.Unlock()
		b.refused.Add(1)
		return nil, false
	}
	b.pending[k]++ // before allow, which takes b.mu itself
	b.mu.Unlock()
	var once sync.Once
	done = func() {
		once.Do(func() {
			b.mu.Lock()
			if b.pending[k]--; b.pending[k] <= 0 {
				delete(b.pending, k)
			}
			b.mu.Unlock()
		})
	}
	if !b.allow(a) {
		done()
		return nil, false
	}
	return done, true
}

// handshaking is how many inbound connections are in their handshake
// from the busiest source (tests).
func (b *acceptBudget) handshaking() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	most := 0
	for _, n := range b.pending {
		most = max(most, n)
	}
	return most
}

// allow takes one connection from a (a remote multiaddr) out of the budget,
// and reports false when its source has none left.
func (b *acceptBudget) allow(a ma.Multiaddr) bool {
	k, ok := sourceOf(a)
	if ok && b.spared(k) {
		return true
	}
	now := b.now().UnixNano()
	b.mu.Lock()
	defer b.mu.Unlock()
	if !ok {
		return b.take(nil, 0, 0, now)
	}
	if m := b.members[k]; m != nil && now-m.seen < int64(memberSourceKeep) {
		m.b.fill(now, memberAcceptRate, memberAcceptBurst)
		if m.b.tokens < 1 {
			b.refused.Add(1)
			return false
		}
		m.b.tokens--
		return true
	}
	return b.take(b.source(k, now), strangerAcceptRate, strangerAcceptBurst, now)
}

// take charges one connection to src (if any) and the shared bucket, or
// neither when either is empty. Called with b.mu held.
func (b *acceptBudget) take(src *bucket, rate, burst float64, now int64) bool {
	b.shared.fill(now, globalAcceptRate, globalAcceptBurst)
	if src != nil {
		src.fill(now, rate, burst)
	}
	if b.shared.tokens < 1 || src != nil && src.tokens < 1 {
		b.refused.Add(1)
		return false
	}
	b.shared.tokens--
	if src != nil {
		src.tokens--
	}
	return true
}

// source is k's bucket, nil when the table is full. Called with b.mu held.
func (b *acceptBudget) source(k acceptKey, now int64) *bucket {
	if src := b.sources[k]; src != nil {
		return src
	}
	if len(b.sources) >= maxAcceptSources && now-b.prunedAt > int64(time.Second) {
		b.prunedAt = now
		for k, src := range b.sources {
			if now-src.at >= int64(refilled) {
				delete(b.sources, k) // full again: as good as new
			}
		}
	}
	if len(b.sources) >= maxAcceptSources {
		return nil
	}
	src := &bucket{}
	b.sources[k] = src
	return src
}

// spared reports whether k is in a network spared every limit.
func (b *acceptBudget) spared(k acceptKey) bool {
	for _, p := range b.unlimited {
		if p.Contains(k.net.Addr()) {
			return true
		}
	}
	return false
}

// member notes that a member of the game is connected from a.
func (b *acceptBudget) member(a ma.Multiaddr) {
	k, ok := sourceOf(a)
	if !ok {
		return
	}
	now := b.now().UnixNano()
	b.mu.Lock()
	defer b.mu.Unlock()
	if m := b.members[k]; m != nil {
		m.seen = now
		return
	}
	if len(b.members) >= maxMemberSources {
		var oldest acceptKey
		at := int64(-1)
		for k, m := range b.members {
			if at < 0 || m.seen < at {
				oldest, at = k, m.seen
			}
		}
		delete(b.members, oldest)
	}
	b.members[k] = &memberSource{seen: now}
}

// sizes are how many stranger and member sources are kept (tests).
func (b *acceptBudget) sizes() (sources, members int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.sources), len(b.members)
}

// budgetedRM is a resource manager that refuses inbound connections over
// the accept budget before their handshake, and strangers' circuits through
// this peer's relay over their bound (relaygate.go).
type budgetedRM struct {
	network.ResourceManager
	b      *acceptBudget
	relays *relayGate
}

func (r budgetedRM) OpenConnection(dir network.Direction, usefd bool, a ma.Multiaddr) (network.ConnManagementScope, error) {
	if dir != network.DirInbound {
		return r.ResourceManager.OpenConnection(dir, usefd, a)
	}
	done, ok := r.b.open(a)
	if !ok {
		return nil, errOverBudget
	}
	s, err := r.ResourceManager.OpenConnection(dir, usefd, a)
	if done == nil {
		return s, err
	}
	if err != nil {
		done()
		return nil, err
	}
	return handshakeScope{s, done}, nil
}

// handshakeScope ends an inbound connection's place among its source's
// handshakes when the handshake names its peer or the connection ends.
type handshakeScope struct {
	network.ConnManagementScope
	done func()
}

func (s handshakeScope) SetPeer(p peer.ID) error {
	s.done()
	return s.ConnManagementScope.SetPeer(p)
}

func (s handshakeScope) Done() {
	s.done()
	s.ConnManagementScope.Done()
}

func (r budgetedRM) OpenStream(p peer.ID, dir network.Direction) (network.StreamManagementScope, error) {
	s, err := r.ResourceManager.OpenStream(p, dir)
	if err != nil || dir != network.DirInbound || r.relays == nil {
		return s, err
	}
	return &gatedStream{StreamManagementScope: s, g: r.relays, p: p}, nil
}
