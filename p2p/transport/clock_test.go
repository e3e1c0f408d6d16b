package transport

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Violations count within the window only: a peer that slips once a while
// is never blocked; one that keeps at it is.
func TestStrikesSlideWithTheWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := strikeBook{window: time.Minute, at: map[peer.ID][]time.Time{}}
		p := peer.ID("x")
		for i := range 5 {
			if n := b.add(p, time.Now()); n != 1 {
				t.Fatalf("slip %d counts %d strikes", i, n)
			}
			time.Sleep(time.Minute)
		}
		b.add(p, time.Now())
		time.Sleep(30 * time.Second)
		b.add(p, time.Now())
		time.Sleep(29 * time.Second)
		if n := b.add(p, time.Now()); n != 3 {
			t.Fatalf("three strikes within a minute count %d", n)
		}
	})
}

// A block lasts its time, then the peer may come back.
func TestBlockExpires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := &gater{blocked: map[peer.ID]time.Time{}}
		p := peer.ID("x")
		g.block(p, time.Now().Add(time.Minute))
		if g.InterceptPeerDial(p) || g.InterceptSecured(0, p, nil) {
			t.Fatal("a blocked peer passes the gater")
		}
		time.Sleep(59 * time.Second)
		if !g.isBlocked(p) {
			t.Fatal("unblocked early")
		}
		time.Sleep(2 * time.Second)
		if g.isBlocked(p) || !g.InterceptPeerDial(p) {
			t.Fatal("still blocked after its time")
		}
	})
}
