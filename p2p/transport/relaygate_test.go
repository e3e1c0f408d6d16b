package transport

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/proto"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/internal/testwait"
)

// Strangers with fresh identities open circuits through member r's relay
// to member a: strangerCircuits of them get one, the rest are refused,
// member b's circuit to a still opens past them, and a stranger that hangs
// up frees its place for the next. A stranger's circuit stops at its bytes
// (at the strangers' rate), a member's carries more. When their time is up the strangers'
// circuits are closed, and the member's stays.
func TestStrangersCannotCrowdAPlayerRelay(t *testing.T) {
	l := newRelayLab(t, 30*time.Second, nil)
	r, tr, a, b, tb, ctx, via := l.r, l.tr, l.a, l.b, l.tb, l.ctx, l.via

	var in []*Host
	refused := 0
	for i := range strangerCircuits + 3 {
		s := newTestHostAt(t, fmt.Sprintf("127.0.0.%d", 20+i)) // one each: a place per address
		err := s.LibP2P().Connect(ctx, via)
		if err != nil {
			refused++
			t.Logf("stranger %d refused: %v", i, err)
			continue
		}
		in = append(in, s)
	}
	if len(in) != strangerCircuits || refused != 3 {
		t.Fatalf("%d strangers' circuits opened and %d refused, want %d and 3", len(in), refused, strangerCircuits)
	}
	if got := r.relays.held(); got != strangerCircuits {
		t.Fatalf("r counts %d strangers' circuits, want %d", got, strangerCircuits)
	}

	tb.ensureConnected(a.ID())
	testwait.For(t, "b connected to a through r past the strangers", 10*time.Second, func() bool { return tb.isConnected(a.ID()) })

	if err := in[0].LibP2P().Network().ClosePeer(a.ID()); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "the stranger's place freed", 10*time.Second, func() bool { return r.relays.held() == strangerCircuits-1 })
	late := newTestHostAt(t, "127.0.0.30")
	if err := late.LibP2P().Connect(ctx, via); err != nil {
		t.Fatalf("a stranger was refused after another hung up: %v", err)
	}
	got := sink(t, a)
	start := time.Now()
	sent, err := pour(ctx, late, a.ID(), strangerCircuitBytes+1<<20)
	took := time.Since(start)
	if err == nil {
		t.Fatalf("a stranger sent %d bytes through r's relay, over its %d", sent, strangerCircuitBytes)
	}
	n := <-got
	if n > strangerCircuitBytes {
		t.Fatalf("a received %d bytes from a stranger through r's relay, over its %d", n, strangerCircuitBytes)
	}
	t.Logf("FIGURE a stranger's circuit ended after it wrote %d bytes in %v (%.0f KiB/s), %d received: %v", sent, took, float64(n)/1024/took.Seconds(), n, err)
	got = sink(t, a)
	start = time.Now()
	if sent, err := pour(ctx, b, a.ID(), strangerCircuitBytes+1<<20); err != nil {
		t.Fatalf("member b's circuit stopped after %d bytes: %v", sent, err)
	}
	if n := <-got; n != strangerCircuitBytes+1<<20 {
		t.Fatalf("a received %d bytes of member b's, want all %d", n, strangerCircuitBytes+1<<20)
	}
	t.Logf("FIGURE member b's 5 MiB through r took %v", time.Since(start))
	t.Logf("FIGURE strangers refused by r's relay: %d", r.relays.refused.Load())

	tr.relay.sweepStrangers(time.Now().Add(strangerCircuitLife + time.Second))
	testwait.For(t, "the strangers' circuits ended when their time was up", 10*time.Second, func() bool { return r.relays.held() == 0 })
	if !tb.isConnected(a.ID()) {
		t.Fatal("the sweep of strangers' circuits closed member b's")
	}
}

const sinkProto = "/hostfall-test/sink"

// sink counts the bytes of the next stream to h's sink protocol.
func sink(t *testing.T, h *Host) <-chan int64 {
	got := make(chan int64, 1)
	h.LibP2P().SetStreamHandler(sinkProto, func(s network.Stream) {
		n, _ := io.Copy(io.Discard, s)
		_ = s.Close()
		got <- n
	})
	t.Cleanup(func() { h.LibP2P().RemoveStreamHandler(sinkProto) })
	return got
}

// pour writes n bytes to p's sink from h, and how many went before an error.
func pour(ctx context.Context, h *Host, p peer.ID, n int) (int, error) {
	s, err := h.LibP2P().NewStream(ctx, p, sinkProto)
	if err != nil {
		return 0, err
	}
	buf := make([]byte, 64<<10)
	sent := 0
	for sent < n {
		k, err := s.Write(buf[:min(len(buf), n-sent)])
		sent += k
		if err != nil {
			return sent, err
		}
	}
	if err := s.CloseWrite(); err != nil {
		return sent, err
	}
	_, err = io.Copy(io.Discard, s) // the sink's close: all arrived
	return sent, err
}

// The bound is per stranger and for all strangers; a stream that ended
// frees its place, and one that ended before its request takes none.
func TestRelayGateBounds(t *testing.T) {
	g := newRelayGate()
	none := func(peer.ID) bool { return false }
	g.member.Store(&none)
	ids := make([]peer.ID, strangerCircuits+1)
	for i := range ids {
		ids[i] = testID(t)
	}
	streams := make([]*gatedStream, 6)
	for i := range streams {
		streams[i] = &gatedStream{g: g}
	}
	for i, tc := range []struct {
		p    peer.ID
		want bool
	}{{ids[0], true}, {ids[0], strangerCircuitsEach > 1}, {ids[1], true}, {ids[2], true}, {ids[3], true}, {ids[4], false}} {
		if got := g.take(streams[i], tc.p); got != tc.want {
			t.Fatalf("take %d: %v, want %v", i, got, tc.want)
		}
	}
	g.release(streams[2])
	if !g.take(streams[5], ids[4]) {
		t.Fatal("a place freed by release was not given to the next stranger")
	}
	g.release(streams[3])
	ended := &gatedStream{g: g, done: true}
	if g.take(ended, testID(t)) {
		t.Fatal("a stream that had ended took a place")
	}
	if got := g.held(); got != strangerCircuits-1 {
		t.Fatalf("the gate counts %d circuits, want %d", got, strangerCircuits-1)
	}
	all := func(peer.ID) bool { return true }
	g.member.Store(&all)
	if got := g.held(); got != 0 {
		t.Fatalf("the gate counts %d circuits of peers now members, want 0", got)
	}
}

// A joiner that reaches a member only through another member's relay gets
// a circuit past a thousand-identity flood from one address: the flood
// holds one stranger's place, not all of them. Before, a dozen fresh IDs
// took every place and the joiner was refused.
func TestJoinerGetsPastAFloodFromOneAddress(t *testing.T) {
	l := newRelayLab(t, 30*time.Second, nil)
	r, ctx, via := l.r, l.ctx, l.via
	in := 0
	for range 3 * strangerCircuits {
		s := newTestHostAt(t, "127.0.0.40")
		if s.LibP2P().Connect(ctx, via) == nil {
			in++
		}
	}
	if in > strangerCircuitsPerSource {
		t.Fatalf("%d circuits through r for strangers from one address, want at most %d", in, strangerCircuitsPerSource)
	}
	j := newTestHostAt(t, "127.0.0.41")
	if err := j.LibP2P().Connect(ctx, via); err != nil {
		t.Fatalf("a joiner from another address was refused a circuit to a: %v", err)
	}
	for _, c := range r.LibP2P().Network().ConnsToPeer(j.ID()) {
		if got := remoteIP(c.RemoteMultiaddr()); got != "127.0.0.41" {
			t.Fatalf("the joiner's connection comes from %s, not the address it listens on", got)
		}
	}
	t.Logf("FIGURE %d of %d strangers from one address got a circuit; the joiner got one; %d refused", in, 3*strangerCircuits, r.relays.refused.Load())
}

// A stranger that opens a hop stream and asks nothing loses its place
// within strangerRequestTime, not go-libp2p's minute.
func TestStrangerMustAskAtOnce(t *testing.T) {
	l := newRelayLab(t, 60*time.Second, nil)
	r, ctx := l.r, l.ctx
	s := newTestHostAt(t, "127.0.0.50")
	if err := s.LibP2P().Connect(ctx, r.AddrInfo()); err != nil {
		t.Fatal(err)
	}
	hop, err := s.LibP2P().NewStream(ctx, r.ID(), proto.ProtoIDv2Hop)
	if err != nil {
		t.Fatal(err)
	}
	defer hop.Reset()
	// Half a request's length: the relay starts on the stream (its
	// protocol goes with the first bytes) and waits for the rest.
	if _, err := hop.Write([]byte{0x40}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	testwait.For(t, "the silent stranger to take a place", 10*time.Second, func() bool { return r.relays.held() == 1 })
	testwait.For(t, "the silent stranger's place freed", 30*time.Second, func() bool { return r.relays.held() == 0 })
	t.Logf("FIGURE a stranger that asked nothing held its place %v (bound %v)", time.Since(start).Round(time.Millisecond), strangerRequestTime)
}

// A stranger's bytes are counted over all its circuits: after its first
// circuit carried its share, a second on the same connection carries
// nothing. Before, each circuit had its own 4 MiB.
func TestStrangersBytesSpanItsCircuits(t *testing.T) {
	const share = 256 << 10
	l := newRelayLab(t, 30*time.Second, func(r *Host) { r.relays.bytesEach = share })
	r, a, ctx, via := l.r, l.a, l.ctx, l.via
	s := newTestHostAt(t, "127.0.0.60")
	var total int64
	for i := range 2 {
		s.LibP2P().Peerstore().ClearAddrs(a.ID()) // through r, not a's own addresses (identify gave them)
		if err := s.LibP2P().Connect(ctx, via); err != nil {
			t.Logf("circuit %d refused: %v", i+1, err)
			break
		}
		got := sink(t, a)
		sent, err := pour(ctx, s, a.ID(), 2*share)
		if err == nil {
			t.Fatalf("circuit %d carried all %d bytes, over the stranger's %d", i+1, sent, share)
		}
		select {
		case n := <-got:
			total += n
		case <-time.After(10 * time.Second):
			t.Fatal("a's sink did not end after the circuit was cut")
		}
		testwait.For(t, "the cut circuit gone", 10*time.Second, func() bool { return r.relays.held() == 0 })
		if r.LibP2P().Network().Connectedness(s.ID()) != network.Connected {
			t.Fatal("the stranger's connection to r closed; the test needs it open")
		}
	}
	if total > share {
		t.Fatalf("a received %d bytes from one stranger over two circuits, over its %d", total, share)
	}
	t.Logf("FIGURE one stranger's two circuits carried %d bytes to a (share %d)", total, share)
}

// relayLab is member r relaying for members a and b (oneGame), and via,
// the circuit address of a through r.
type relayLab struct {
	r, a, b    *Host
	tr, ta, tb *transport
	via        peer.AddrInfo
	ctx        context.Context // done after the lab's time
}

// newRelayLab starts a relayLab for at most d; setup, if not nil, runs on
// r before the game starts.
func newRelayLab(t *testing.T, d time.Duration, setup func(r *Host)) relayLab {
	t.Helper()
	var l relayLab
	l.r, l.tr = newTestTransport(t, Limits{})
	l.a, l.ta = newTestTransport(t, Limits{})
	l.b, l.tb = newTestTransport(t, Limits{})
	if setup != nil {
		setup(l.r)
	}
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	l.ctx = ctx
	oneGame(ctx, t, l.r, l.tr, l.a, l.ta, l.b, l.tb)
	l.via = peer.AddrInfo{ID: l.a.ID(), Addrs: []ma.Multiaddr{l.r.Addrs()[0].Encapsulate(ma.StringCast("/p2p/" + l.r.ID().String() + "/p2p-circuit"))}}
	return l
}
