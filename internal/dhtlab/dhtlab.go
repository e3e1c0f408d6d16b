// Package dhtlab is a test rig: a public libp2p network of a test's own,
// DHT servers on loopback, so that internet play is tested without any
// public bootstrap peer.
package dhtlab

import (
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"

	"hostfall/p2p/codes"
	"hostfall/p2p/transport"
)

// Loopback runs n DHT servers on loopback, each knowing the first, until
// the test ends, and returns their addresses (bootstrap peers for the test).
func Loopback(t testing.TB, n int) []transport.AddrInfo {
	t.Helper()
	var boot []transport.AddrInfo
	for range n {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		node, err := codes.NewDHTNode(t.Context(), k, []string{"/ip4/127.0.0.1/tcp/0"}, boot[:min(len(boot), 1)], codes.DHTNodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { node.Close() })
		if len(boot) > 0 {
			if err := node.Host.LibP2P().Connect(t.Context(), boot[0]); err != nil {
				t.Fatal(err)
			}
		}
		boot = append(boot, node.Host.AddrInfo())
	}
	return boot
}
