package transport

import (
	"context"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/internal/testwait"
	"hostfall/session"
)

// Three members of a game on loopback: a and b know only r's address, so
// they cannot dial each other directly. Each reserves on r's relay, and b's
// mesh dial reaches a through it, on a connection without limits that
// carries session messages. A stranger can hold no reservation there, and
// once r's roster drops a, no circuit to it opens any more.
func TestPlayerRelaysForTheGame(t *testing.T) {
	r, tr := newTestTransport(t, Limits{})
	a, ta := newTestTransport(t, Limits{})
	b, tb := newTestTransport(t, Limits{})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	oneGame(ctx, t, r, tr, a, ta, b, tb)

	start := time.Now()
	tb.ensureConnected(a.ID())
	testwait.For(t, "b connected to a through r", 10*time.Second, func() bool { return tb.isConnected(a.ID()) })
	t.Logf("FIGURE b reached a through r's relay in %v", time.Since(start))
	for _, c := range b.LibP2P().Network().ConnsToPeer(a.ID()) {
		if !IsCircuit(c.RemoteMultiaddr()) || c.Stat().Limited || relayOf(c.RemoteMultiaddr()) != r.ID() {
			t.Fatalf("b's connection to a is %v (limited %v), want a circuit through r without limits", c.RemoteMultiaddr(), c.Stat().Limited)
		}
	}
	ping := session.Message{Kind: session.MsgPing, Turn: 7}
	tb.send(a.ID(), &ping)
	select {
	case in := <-ta.in:
		if in.From != b.ID() || in.Msg.Turn != 7 {
			t.Fatalf("a got %+v, want b's ping of turn 7", in)
		}
	case <-ctx.Done():
		t.Fatal("b's message did not reach a through r")
	}

	stranger := newTestHost(t)
	if _, err := client.Reserve(ctx, stranger.LibP2P(), r.AddrInfo()); err == nil {
		t.Fatal("a stranger got a reservation on a player's relay")
	}
	tr.protect([]peer.ID{b.ID()}) // a left r's game
	via := r.Addrs()[0].Encapsulate(ma.StringCast("/p2p-circuit"))
	err := stranger.LibP2P().Connect(ctx, peer.AddrInfo{ID: a.ID(), Addrs: []ma.Multiaddr{via}})
	if err == nil {
		t.Fatal("a circuit to a peer that left the relay's game was opened")
	}
	t.Logf("after a left r's game: %v", err)
}

// Two peers behind NATs that defeat punching are connected through a
// volunteer's relay (a limited circuit); a third member reaches both. The
// mesh moves them through the member's relay: the session stream leaves
// the limited circuit for one without limits, and the session hears of no
// loss.
func TestPlayerRelayReplacesALimitedCircuit(t *testing.T) {
	lr := newLimitedRelay(t, &relay.RelayLimit{Duration: time.Minute, Data: 1 << 20})
	ha, rca := newRelayOnlyHost(t, lr)
	hb, _ := newRelayOnlyHost(t, lr)
	r, tr := newTestTransport(t, Limits{})
	ta, tb := newTransport(ha, Limits{}, testLog()), newTransport(hb, Limits{}, testLog())
	t.Cleanup(func() { ta.close(0); tb.close(0) })
	ctx, cancel := context.WithTimeout(t.Context(), 15*time.Second)
	defer cancel()
	ping := limitedStream(ctx, t, ha, rca, hb, ta, tb)
	oneGame(ctx, t, r, tr, ha, ta, hb, tb)
	start := time.Now()
	testwait.For(t, "the stream off the limited circuit", 10*time.Second, func() bool {
		tb.ensureConnected(ha.ID()) // as the mesh does every half second
		ta.ensureConnected(hb.ID())
		tb.send(ha.ID(), &ping)
		return !linkOf(tb, ha.ID()).Limited && !linkOf(ta, hb.ID()).Limited && linkOf(tb, ha.ID()).Stream
	})
	t.Logf("FIGURE the session stream left the volunteer's circuit %v after both reserved", time.Since(start))
	for _, m := range []*transport{ta, tb} {
		for _, c := range m.connChanges() {
			if !c.Up {
				t.Errorf("the move was reported as a loss: %+v", c)
			}
		}
	}
	if !ha.Unlimited(hb.ID()) {
		t.Error("Host.Unlimited: a has no connection without limits to b")
	}
}

// oneGame makes r, a and b the members of one game, with a and b
// connected to r, and waits until both hold a reservation on r's relay.
func oneGame(ctx context.Context, t *testing.T, r *Host, tr *transport, a *Host, ta *transport, b *Host, tb *transport) {
	t.Helper()
	for _, h := range []*Host{a, b} {
		if err := h.LibP2P().Connect(ctx, r.AddrInfo()); err != nil {
			t.Fatal(err)
		}
	}
	tr.protect([]peer.ID{a.ID(), b.ID()})
	ta.protect([]peer.ID{r.ID(), b.ID()})
	tb.protect([]peer.ID{r.ID(), a.ID()})
	for _, m := range []*transport{ta, tb} {
		testwait.For(t, "a reservation on the player's relay", 10*time.Second, func() bool { return m.relay.holds(r.ID()) })
	}
}

// linkOf is t's link counters for p.
func linkOf(t *transport, p peer.ID) LinkStats {
	for _, s := range t.stats() {
		if s.Peer == p {
			return s
		}
	}
	return LinkStats{}
}

// After a peer's punch window closed, the gater refuses circuits to it
// through volunteers' relays, and lets through those of a member's relay.
func TestGaterLetsMemberRelaysPastThePunchWindow(t *testing.T) {
	member, other, target := testID(t), testID(t), testID(t)
	g := &gater{blocked: map[peer.ID]time.Time{}, punch: &punchWindows{d: time.Nanosecond}}
	g.punch.limited(target)
	time.Sleep(time.Millisecond)
	isMember := func(p peer.ID) bool { return p == member }
	g.viaMember.Store(&isMember)
	for _, tc := range []struct {
		relay peer.ID
		want  bool
	}{{member, true}, {other, false}} {
		a := ma.StringCast("/ip4/127.0.0.1/tcp/1/p2p/" + tc.relay.String() + "/p2p-circuit")
		if got := g.InterceptAddrDial(target, a); got != tc.want {
			t.Errorf("a circuit through %s after the window: allowed %v, want %v", tc.relay, got, tc.want)
		}
	}
	if !g.InterceptAddrDial(target, ma.StringCast("/ip4/127.0.0.1/tcp/1")) {
		t.Error("a direct address was refused")
	}
}

// A circuit address names its relay; any other address names none.
func TestRelayOf(t *testing.T) {
	id := testID(t)
	for _, tc := range []struct {
		addr string
		want peer.ID
	}{
		{"/ip4/1.2.3.4/tcp/1/p2p/" + id.String() + "/p2p-circuit", id},
		{"/ip4/1.2.3.4/tcp/1/p2p/" + id.String() + "/p2p-circuit/p2p/" + testID(t).String(), id},
		{"/ip4/1.2.3.4/tcp/1/p2p/" + id.String(), ""},
		{"/ip4/1.2.3.4/tcp/1", ""},
	} {
		if got := relayOf(ma.StringCast(tc.addr)); got != tc.want {
			t.Errorf("relayOf(%s) = %q, want %q", tc.addr, got, tc.want)
		}
	}
}

// holds reports whether this peer holds a reservation on member p's relay.
func (pr *playerRelay) holds(p peer.ID) bool {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	return time.Now().Before(pr.held[p])
}

// testID is a fresh peer ID.
func testID(t *testing.T) peer.ID {
	t.Helper()
	_, pub, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// limitedStream connects hb to ha through ha's limited circuit (rca's
// relay) and has tb send ta a ping, whose session stream must run on that
// circuit; it returns the ping, for more.
func limitedStream(ctx context.Context, t *testing.T, ha *Host, rca *RelayClient, hb *Host, ta, tb *transport) session.Message {
	t.Helper()
	if err := hb.LibP2P().Connect(ctx, rca.AddrInfo(ha)); err != nil {
		t.Fatal(err)
	}
	ping := session.Message{Kind: session.MsgPing, Turn: 1}
	tb.send(ha.ID(), &ping)
	<-ta.in
	if !linkOf(tb, ha.ID()).Limited {
		t.Fatal("the first stream is not on the limited circuit")
	}
	return ping
}
