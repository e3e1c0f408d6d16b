package transport

import (
	"path/filepath"
	"testing"
	"time"

	ma "github.com/multiformats/go-multiaddr"
)

func TestIdentityPersists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "identity.key")
	a, err := NewHost(t.Context(), Options{IdentityPath: path, Listen: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	id := a.ID()
	a.Close()
	b, err := NewHost(t.Context(), Options{IdentityPath: path, Listen: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.ID() != id {
		t.Fatalf("restarted host is %s, want %s", b.ID(), id)
	}
}

func TestIdentityFileDamaged(t *testing.T) {
	t.Setenv(IdentityEnv, filepath.Join(t.TempDir(), "k"))
	path, _ := DefaultIdentityPath()
	if err := writeFile(path, []byte("not a key")); err != nil {
		t.Fatal(err)
	}
	if _, err := NewHost(t.Context(), Options{}); err == nil {
		t.Fatal("a damaged key file was accepted")
	}
}

func TestHostsConnectAndBlock(t *testing.T) {
	a := newTestHost(t)
	b := newTestHost(t)
	if err := b.LibP2P().Connect(t.Context(), a.AddrInfo()); err != nil {
		t.Fatal(err)
	}
	a.Block(b.ID(), time.Minute, "test")
	if !a.Blocked(b.ID()) {
		t.Fatal("not blocked")
	}
	_ = b.LibP2P().Connect(t.Context(), a.AddrInfo()) // may look fine from b's side until a hangs up
	if n := len(a.LibP2P().Network().ConnsToPeer(b.ID())); n != 0 {
		t.Fatalf("a holds %d connections to the peer it blocked", n)
	}
	if err := a.LibP2P().Connect(t.Context(), b.AddrInfo()); err == nil {
		t.Fatal("a dialed the peer it blocked")
	}
}

func TestTCPFirst(t *testing.T) {
	var addrs []ma.Multiaddr
	for _, s := range []string{"/ip4/10.0.0.2/udp/4001/quic-v1", "/ip4/10.0.0.2/tcp/4001", "/ip6/fe80::1/tcp/4002",
		"/ip4/1.2.3.4/tcp/1/p2p/12D3KooWQBLJd26LdATpKWrLDbspdUiDBprEFmQzMmoeMRoBxyXn/p2p-circuit"} {
		addrs = append(addrs, ma.StringCast(s))
	}
	for _, ad := range TCPFirst(addrs) {
		_, tcpErr := ad.Addr.ValueForProtocol(ma.P_TCP)
		_, relayErr := ad.Addr.ValueForProtocol(ma.P_CIRCUIT)
		switch {
		case relayErr == nil:
		case tcpErr == nil && ad.Delay != 0:
			t.Errorf("%s waits %v", ad.Addr, ad.Delay)
		case tcpErr != nil && ad.Delay < quicDelay:
			t.Errorf("QUIC %s waits only %v", ad.Addr, ad.Delay)
		}
	}
}
