package p2p

import (
	"path/filepath"
	"testing"
	"time"
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
