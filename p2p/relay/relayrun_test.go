package relay

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/p2p/internal/p2ptest"
)

// Run serves until its context ends, tells Listening where (addresses
// that name the relay, as --relay takes them) and keeps its key: a second
// run is the same peer.
func TestRunRelay(t *testing.T) {
	key := filepath.Join(t.TempDir(), "relay.key")
	run := func() peer.ID {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		heard := make(chan peer.ID, 1)
		done := make(chan error, 1)
		go func() {
			done <- Run(ctx, Config{IdentityPath: key, Listen: p2ptest.LoopbackListen, Logger: p2ptest.Log(),
				Listening: func(id peer.ID, addrs []ma.Multiaddr) {
					if len(addrs) == 0 || !strings.HasSuffix(addrs[0].String(), "/p2p/"+id.String()) {
						t.Errorf("relay %s listens on %v, want addresses ending in its ID", id, addrs)
					}
					heard <- id
				}})
		}()
		var id peer.ID
		select {
		case id = <-heard:
		case err := <-done:
			t.Fatalf("Run returned %v before it listened", err)
		case <-time.After(20 * time.Second):
			t.Fatal("Run never said where it listens")
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("Run after its context ended: %v", err)
		}
		return id
	}
	if a, b := run(), run(); a != b {
		t.Fatalf("the relay was %s, then %s: its key did not last", a, b)
	}
}

func TestParsePeerIDs(t *testing.T) {
	newID := func() peer.ID {
		k, _, _ := crypto.GenerateEd25519Key(nil)
		id, err := peer.IDFromPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	a, b := newID(), newID()
	ids, err := ParsePeerIDs(" " + a.String() + ",," + b.String() + " ")
	if err != nil || len(ids) != 2 || ids[0] != a || ids[1] != b {
		t.Fatalf("ParsePeerIDs: %v %v, want [%s %s]", ids, err, a, b)
	}
	if ids, err := ParsePeerIDs(""); err != nil || ids != nil {
		t.Fatalf("ParsePeerIDs(\"\"): %v %v, want none", ids, err)
	}
	if _, err := ParsePeerIDs("nope"); err == nil || !strings.Contains(err.Error(), `"nope" is not a peer ID`) {
		t.Fatalf("ParsePeerIDs(nope): %v", err)
	}
}
