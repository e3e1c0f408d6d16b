package network

import (
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/p2p/transport"
	"hostfall/session"
)

// 10,000 fresh identities that connect and go, and each one answered,
// leave the loop's maps small: the peer IDs it caches are bounded, and the
// time of a loss is kept for members only.
func TestGoneStrangersLeaveTheLoopSmall(t *testing.T) {
	p, err := NewPeer(newTestHost(t), PeerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.t.Close(0) })
	_, pub, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 10_000 {
		// A fresh ID each time: the public key's bytes move, cheaper than new keys.
		raw, _ := pub.Raw()
		raw[0]++
		k, err := crypto.UnmarshalEd25519PublicKey(raw)
		if err != nil {
			t.Fatal(err)
		}
		pub = k
		id, err := peer.IDFromPublicKey(pub)
		if err != nil {
			t.Fatal(err)
		}
		p.stepConnChanges([]transport.ConnChange{{Peer: id, Up: true}, {Peer: id, Closed: true}})
		if _, err := p.peerID(session.PeerID(id.String())); err != nil { // an answer to its Hello
			t.Fatal(err)
		}
	}
	if len(p.ids) > maxIDs || len(p.lostAt) != 0 {
		t.Fatalf("after 10,000 strangers: %d peer IDs cached (bound %d), %d losses timed (want 0)", len(p.ids), maxIDs, len(p.lostAt))
	}
}
