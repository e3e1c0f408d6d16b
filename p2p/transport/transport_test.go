package transport

import (
	"context"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/internal/testwait"
	"hostfall/session"
)

func newTestTransport(t *testing.T, lim Limits) (*Host, *transport) {
	t.Helper()
	h := newTestHost(t)
	tr := newTransport(h, lim, testLog())
	t.Cleanup(func() { tr.close(0) })
	return h, tr
}

// A peer that floods frames is read no faster than its limits allow: here
// pings, whose pongs show how fast the flood was read. Only an upper bound
// is checked, which a slow machine cannot break.
func TestRateLimitThrottlesAFlood(t *testing.T) {
	const rate, burst = 100, 20
	victim, _ := newTestTransport(t, Limits{FrameRate: rate, FrameBurst: burst})
	attacker := newTestHost(t)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := attacker.LibP2P().Connect(ctx, victim.AddrInfo()); err != nil {
		t.Fatal(err)
	}
	s, err := attacker.LibP2P().NewStream(ctx, victim.ID(), ProtocolID)
	if err != nil {
		t.Fatal(err)
	}
	flood := helloFrame()
	for i := range 400 {
		flood = appendFrame(flood, framePing, encodePing(uint64(i)))
	}
	start := time.Now()
	go s.Write(flood)
	fr := newFrameReader(s, MaxFrameSize)
	pongs := 0
	for pongs < 60 {
		_ = s.SetReadDeadline(time.Now().Add(5 * time.Second))
		kind, _, err := fr.next()
		if err != nil {
			t.Fatalf("after %d pongs: %v", pongs, err)
		}
		if kind != framePong {
			continue
		}
		pongs++
		// The hello took one frame of the burst.
		if allowed := burst + int(time.Since(start).Seconds()*rate) + 1; pongs > allowed {
			t.Fatalf("%d pongs after %v: the flood was read faster than %d frames a second", pongs, time.Since(start), rate)
		}
	}
	t.Logf("60 pongs after %v (burst %d, %d frames/s)", time.Since(start), burst, rate)
}

// Both peers open a stream to each other at the same moment, many times:
// one stream stays (when both did open one, the one the smaller peer ID
// opened) and messages flow both ways on it.
func TestSimultaneousOpen(t *testing.T) {
	races := 0
	defer func() { t.Logf("%d of 5 rounds had both sides open a stream", races) }()
	for round := range 5 {
		a, ta := newTestTransport(t, Limits{})
		b, tb := newTestTransport(t, Limits{})
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		if err := a.LibP2P().Connect(ctx, b.AddrInfo()); err != nil {
			t.Fatal(err)
		}
		cancel()
		ping := session.Message{Kind: session.MsgPing, Turn: uint64(round)}
		go ta.send(b.ID(), &ping)
		go tb.send(a.ID(), &ping)
		opener, other := a, b
		if b.ID() < a.ID() {
			opener, other = b, a
		}
		// Settled: one stream on each side, and the same one (one side's
		// outbound is the other's inbound): a glance while one stream gives
		// way to the other can see two. When both sides opened one and both
		// opens succeeded, the smaller peer ID's stays. (When one open
		// failed, on a slow machine or a reset on the way, the other's
		// stream is the only one and rightly stays.) The condition is
		// waited for, so a tie-break still on its way is not a failure,
		// and one that settled the wrong way is.
		tieBroken := func() bool {
			raced := ta.simultaneous.Load()+tb.simultaneous.Load() > 0
			failed := ta.openFailed.Load()+tb.openFailed.Load() > 0
			return !raced || failed || outbound(opener, other.ID())
		}
		testwait.For(t, "one stream, the smaller peer ID's when both opened", 5*time.Second, func() bool {
			return sessionStreams(a, b.ID()) == 1 && sessionStreams(b, a.ID()) == 1 &&
				ta.linkUp(b.ID()) && tb.linkUp(a.ID()) && outbound(a, b.ID()) != outbound(b, a.ID()) && tieBroken()
		})
		if ta.simultaneous.Load()+tb.simultaneous.Load() > 0 {
			races++
		}
		// Messages flow both ways (the first may have died with a losing stream).
		for _, dir := range []struct {
			from *transport
			to   *transport
		}{{ta, tb}, {tb, ta}} {
			got := false
			deadline := time.Now().Add(5 * time.Second)
			for !got && time.Now().Before(deadline) {
				m := session.Message{Kind: session.MsgPing, Turn: 1000}
				dir.from.send(dir.to.self, &m)
				select {
				case in := <-dir.to.in:
					got = in.Msg.Turn == 1000 || in.Msg.Kind == session.MsgPing
				case <-time.After(100 * time.Millisecond):
				}
			}
			if !got {
				t.Fatalf("round %d: no message from %s", round, dir.from.self)
			}
		}
	}
}

// outbound reports whether h opened its session stream to p.
func outbound(h *Host, p peer.ID) bool {
	for _, c := range h.LibP2P().Network().ConnsToPeer(p) {
		for _, s := range c.GetStreams() {
			if s.Protocol() == ProtocolID {
				return s.Stat().Direction == network.DirOutbound
			}
		}
	}
	return false
}

func sessionStreams(h *Host, p peer.ID) int {
	n := 0
	for _, c := range h.LibP2P().Network().ConnsToPeer(p) {
		for _, s := range c.GetStreams() {
			if s.Protocol() == ProtocolID {
				n++
			}
		}
	}
	return n
}
