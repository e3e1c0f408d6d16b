package codes

import (
	"context"
	"testing"
	"time"

	dht "github.com/libp2p/go-libp2p-kad-dht"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/internal/testwait"
)

// A lookup that found the code's record while a DHT server near the key
// does not answer (a starved one: the simulated network's servers share
// one process) returns the record, about lookupSettle after it came.
// Before, kad-dht's GetValue waited for that server until the deadline,
// answered it with an error beside the record, the record was dropped, and
// the joiner read "no game with that code" (seen once at load 41 in the
// NAT matrix).
func TestLookupKeepsWhatItFound(t *testing.T) {
	t.Parallel()
	boot := testDHT(t, 4)
	published := make(chan struct{}, 1)
	host, hh := testInternet(t, boot[:1], func(p Progress) {
		if p.Step == "published" {
			select {
			case published <- struct{}{}:
			default:
			}
		}
	})
	code, _, err := host.Publish(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-published:
	case <-time.After(30 * time.Second):
		t.Fatal("the code was not published within 30 s")
	}
	// A server of the joiner's routing table stops answering the DHT's
	// requests: it takes them and never replies.
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	mute, err := NewDHTNode(t.Context(), k, []string{"/ip4/127.0.0.1/tcp/0"}, boot[:1], DHTNodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mute.Close() })
	join, jh := testInternet(t, []peer.AddrInfo{mute.Host.AddrInfo(), boot[1]}, nil)
	kad := join.kad.Load()
	testwait.For(t, "both servers in the joiner's routing table", 10*time.Second, func() bool {
		return kad.RoutingTable().Find(mute.Host.ID()) != "" && kad.RoutingTable().Find(boot[1].ID) != ""
	})
	mute.Host.LibP2P().SetStreamHandler(dht.ProtocolDHT, func(s network.Stream) {
		<-t.Context().Done()
		_ = s.Reset()
	})
	_ = jh.LibP2P().Network().ClosePeer(mute.Host.ID()) // its open streams served requests as before
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
	defer cancel()
	began := time.Now()
	f, err := lookupCode(ctx, kad, code)
	t.Logf("lookup with a mute server among the closest: %v, %v", time.Since(began).Round(time.Millisecond), err)
	if err != nil || f.ID != hh.ID() {
		t.Fatalf("the lookup found %v, %v; want the host %s", f.ID, err, hh.ID())
	}
}
