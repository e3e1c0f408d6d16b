package relay

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/p2p/discovery"
	"hostfall/p2p/internal/p2ptest"
	"hostfall/p2p/transport"
	"hostfall/session"
)

// fakeHosting is a Hosting whose lobby a test sets.
type fakeHosting struct {
	mu      sync.Mutex
	h       *transport.Host
	name    string
	players int
	hosting bool
}

func newFakeHosting(h *transport.Host, name string, players int) *fakeHosting {
	return &fakeHosting{h: h, name: name, players: players, hosting: true}
}

func (f *fakeHosting) stop() {
	f.mu.Lock()
	f.hosting = false
	f.mu.Unlock()
}

// Announce is the lobby as the host's client announces it, with the host's
// addresses now.
func (f *fakeHosting) Announce() (discovery.Announcement, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return discovery.Announcement{Protocol: session.ProtocolVersion, GameVersion: "v", Name: f.name, Players: f.players,
		MaxPlayers: 4, State: discovery.AnnLobby, Host: f.h.ID(), HostName: "Ann", Addrs: f.h.LibP2P().Addrs()}, f.hosting
}

// testListing is a lobby as its host lists it.
func testListing(t testing.TB) discovery.Announcement {
	t.Helper()
	return discovery.Announcement{
		Protocol: session.ProtocolVersion, GameVersion: "0.1.0", Name: "Friday night", Players: 2, MaxPlayers: 4,
		State: discovery.AnnLobby, Host: freshPeer(t),
		Addrs: []ma.Multiaddr{ma.StringCast("/ip4/10.1.0.7/tcp/4001"), ma.StringCast("/ip4/10.1.0.7/udp/4001/quic-v1")},
	}
}

func TestListingWire(t *testing.T) {
	a := testListing(t)
	got, err := decodeListing(encodeListing(a.TXT()), a.Host)
	if err != nil || got.Name != a.Name || got.Players != a.Players || len(got.Addrs) != 2 {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	looking := a
	looking.State = discovery.AnnLooking
	other := freshPeer(t)
	cases := []struct {
		name string
		b    []byte
		host peer.ID
	}{
		{"another host", encodeListing(a.TXT()), other},
		{"looking", encodeListing(looking.TXT()), a.Host},
		{"cut short", encodeListing(a.TXT())[:20], a.Host},
		{"not ours", encodeListing([]string{"hello=1"}), a.Host},
		{"too long", make([]byte, listingMaxBytes+1), a.Host},
		{"empty", nil, a.Host},
	}
	for _, c := range cases {
		if _, err := decodeListing(c.b, c.host); err == nil {
			t.Errorf("%s: read", c.name)
		}
	}
}

// Any bytes as a listing: an error or an announcement of that host, never
// a panic.
func FuzzListing(f *testing.F) {
	a := testListing(f)
	f.Add(encodeListing(a.TXT()))
	f.Add([]byte{5, 'a', '=', '1'})
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := decodeListing(b, a.Host)
		if err == nil && (got.Host != a.Host || got.State == discovery.AnnLooking) {
			t.Fatalf("read %+v", got)
		}
	})
}

func freshPeer(t testing.TB) peer.ID {
	t.Helper()
	return newTestKeyID(t)
}

// listed waits until lister lists want (names, sorted), within 15 s.
func listed(t *testing.T, lister *DirectoryLister, want ...string) []DirectoryEntry {
	t.Helper()
	var got []DirectoryEntry
	var err error
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		got, err = lister.List(t.Context())
		names := make([]string, len(got))
		for i, e := range got {
			names[i] = e.Name
		}
		if err == nil && slices.Equal(names, want) {
			return got
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("listed %+v, %v; want %v", got, err, want)
	return nil
}

// The directory served by rendezvous point rp (ours, or another's): Ann and
// Bo register their lobbies; a player lists both with what each hosts (from
// the hosts) and resolves one by name; a host that stops hosting leaves.
func directoryScenario(t *testing.T, rp peer.AddrInfo) {
	ann, bo, player := p2ptest.NewHost(t), p2ptest.NewHost(t), p2ptest.NewHost(t)
	annLobby, boLobby := newFakeHosting(ann, "alpha", 1), newFakeHosting(bo, "bravo", 3)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	stopAnn := RegisterLobby(ctx, ann, annLobby, rp, p2ptest.Log())
	defer stopAnn()
	stopBo := RegisterLobby(ctx, bo, boLobby, rp, p2ptest.Log())
	defer stopBo()

	lister := &DirectoryLister{Host: player, Relay: rp}
	got := listed(t, lister, "alpha", "bravo")
	if got[0].Host != ann.ID() || got[0].Players != 1 || got[1].Host != bo.ID() || got[1].Players != 3 || got[0].HostName != "Ann" {
		t.Fatalf("listed %+v", got)
	}
	if !slices.ContainsFunc(got[0].Addrs, ann.LibP2P().Addrs()[0].Equal) {
		t.Fatalf("Ann's addresses %v lack those of her record %v", got[0].Addrs, ann.LibP2P().Addrs())
	}
	ai, err := DirectoryResolver{Relay: rp, Name: "BRAVO"}.Resolve(ctx, player)
	if err != nil || ai.ID != bo.ID() {
		t.Fatalf("resolve bravo: %v, %v", ai, err)
	}
	if player.LibP2P().Network().Connectedness(ann.ID()) == network.Connected {
		t.Error("the connection opened to ask Ann for her listing is still open")
	}
	boLobby.stop()
	listed(t, lister, "alpha")
}

// Our own rendezvous point, run by a relay.
func TestDirectory(t *testing.T) {
	relay, _ := newTestRelay(t, Options{})
	directoryScenario(t, relay.AddrInfo())
}

func TestRelayAllowList(t *testing.T) {
	allowed := p2ptest.NewHost(t)
	relay, _ := newTestRelay(t, Options{Allow: []peer.ID{allowed.ID()}})
	stranger := p2ptest.NewHost(t)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	ri := relay.AddrInfo()
	if _, err := DirectoryRegister(ctx, stranger, ri); !errors.Is(err, ErrDirectory) {
		t.Fatalf("a peer not on the allow-list registered: %v", err)
	}
	if ttl, err := DirectoryRegister(ctx, allowed, ri); err != nil || ttl != DefaultDirTTL {
		t.Fatalf("the allowed peer: ttl %v, %v", ttl, err)
	}
	if _, err := reserve(ctx, stranger, ri); err == nil {
		t.Fatal("a peer not on the allow-list got a reservation")
	}
}
