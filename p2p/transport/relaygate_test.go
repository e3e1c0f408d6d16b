package transport

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
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
	r, tr := newTestTransport(t, Limits{})
	a, ta := newTestTransport(t, Limits{})
	b, tb := newTestTransport(t, Limits{})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	oneGame(ctx, t, r, tr, a, ta, b, tb)
	via := peer.AddrInfo{ID: a.ID(), Addrs: []ma.Multiaddr{r.Addrs()[0].Encapsulate(ma.StringCast("/p2p/" + r.ID().String() + "/p2p-circuit"))}}

	var in []*Host
	refused := 0
	for i := range strangerCircuits + 3 {
		s := newTestHost(t)
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
	late := newTestHost(t)
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
