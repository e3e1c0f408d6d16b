package codes

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ipfs/boxo/ipns"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/p2p/internal/p2ptest"
	"hostfall/p2p/transport"
)

// testDHT starts n DHT servers on loopback, each bootstrapped from the
// first, and returns their addresses.
func testDHT(t *testing.T, n int) []peer.AddrInfo {
	t.Helper()
	var infos []peer.AddrInfo
	for i := range n {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		node, err := NewDHTNode(t.Context(), k, []string{"/ip4/127.0.0.1/tcp/0"}, infos[:min(i, 1)], DHTNodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { node.Close() })
		infos = append(infos, node.Host.AddrInfo())
		if i > 0 {
			if err := node.Host.LibP2P().Connect(t.Context(), infos[0]); err != nil {
				t.Fatal(err)
			}
		}
	}
	return infos
}

// testInternet starts a peer on the test DHT.
func testInternet(t *testing.T, boot []peer.AddrInfo, progress func(Progress)) (*Internet, *transport.Host) {
	t.Helper()
	return testInternetRanked(t, boot, progress, nil)
}

// testInternetRanked is testInternet whose host dials in ranker's order
// (nil: the default).
func testInternetRanked(t *testing.T, boot []peer.AddrInfo, progress func(Progress), ranker func([]ma.Multiaddr) []network.AddrDelay) (*Internet, *transport.Host) {
	t.Helper()
	in := NewInternet(InternetConfig{Bootstrap: boot, RelayWait: 100 * time.Millisecond, Progress: progress, Logger: p2ptest.Log()})
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	opt := in.HostOptions()
	opt.Identity, opt.Listen, opt.DialRanker = k, []string{"/ip4/127.0.0.1/tcp/0"}, ranker
	h, err := transport.NewHost(t.Context(), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	if err := in.Start(t.Context(), h); err != nil {
		t.Fatal(err)
	}
	return in, h
}

// A host publishes its code on a DHT of loopback peers; a joiner that knows
// only the code finds the host and its addresses; a code nobody published
// answers ErrNoGame well within FindTimeout.
func TestInternetPublishFind(t *testing.T) {
	boot := testDHT(t, 12)
	var mu sync.Mutex
	var steps []string
	published := make(chan struct{}, 1)
	host, hh := testInternet(t, boot[:2], func(p Progress) {
		mu.Lock()
		steps = append(steps, p.Step)
		mu.Unlock()
		if p.Step == "published" {
			select {
			case published <- struct{}{}:
			default:
			}
		}
	})
	pctx, unpublish := context.WithCancel(t.Context())
	code, _, err := host.Publish(pctx)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-published:
	case <-time.After(30 * time.Second):
		t.Fatalf("the code was not published within 30 s; steps %v", steps)
	}
	join, _ := testInternet(t, boot[5:6], nil)
	began := time.Now()
	ai, err := join.Find(t.Context(), code)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("found %s in %v at %v", code, time.Since(began), ai.Addrs)
	if ai.ID != hh.ID() || len(ai.Addrs) == 0 {
		t.Fatalf("found %v, want host %s with addresses", ai, hh.ID())
	}
	began = time.Now()
	other := CodeFor(join.h.ID(), []byte("nobody publishes this"))
	_, err = join.Find(t.Context(), other)
	took := time.Since(began)
	t.Logf("unknown code answered in %v: %v", took, err)
	if !errors.Is(err, ErrNoGame) || !strings.Contains(err.Error(), "no game with that code") {
		t.Fatalf("unknown code: %v", err)
	}
	if took > FindTimeout/2 {
		t.Errorf("an unknown code took %v to answer", took)
	}
	// The game ends: the host's last word answers at once.
	unpublish()
	host.Wait(5 * time.Second)
	if _, err := join.Find(t.Context(), code); !errors.Is(err, ErrNoGame) || !strings.Contains(err.Error(), "ended") {
		t.Fatalf("the code of an ended game: %v", err)
	}
}

// With static relays, AutoRelay uses them alone; the host still starts.
func TestInternetStaticRelays(t *testing.T) {
	boot := testDHT(t, 2)
	in := NewInternet(InternetConfig{Bootstrap: boot, Relays: boot[1:], Logger: p2ptest.Log()})
	opt := in.HostOptions()
	opt.Listen = []string{"/ip4/127.0.0.1/tcp/0"}
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	opt.Identity = k
	h, err := transport.NewHost(t.Context(), opt)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := in.Start(t.Context(), h); err != nil {
		t.Fatal(err)
	}
	if On(h) != in {
		t.Fatal("the host does not know its internet play")
	}
}

// A record is refused when it expired, when the code does not hash from
// the host it names, or when its addresses are not signed by that host.
func TestCodeRecordChecks(t *testing.T) {
	h := p2ptest.NewHost(t)
	other := p2ptest.NewHost(t)
	salt := []byte("0123456789abcdef")
	code := CodeFor(h.ID(), salt)
	now := time.Now()
	addrs := []ma.Multiaddr{ma.StringCast("/ip4/11.0.0.7/tcp/4001")}
	good, err := codeRecord(h, code, salt, 1, now, hostAddrs{own: addrs})
	if err != nil {
		t.Fatal(err)
	}
	ai, err := openCodeRecord(code, good, now)
	if err != nil || ai.ID != h.ID() || len(ai.Addrs) != 1 || !ai.Addrs[0].Equal(addrs[0]) {
		t.Fatalf("good record: %v, %v", ai, err)
	}
	if _, err := openCodeRecord(code, good, now.Add(recordLife+time.Second)); !errors.Is(err, ErrNoGame) {
		t.Errorf("an expired record: %v", err)
	}
	// Another peer signs a record under the same code (it knows the code,
	// so it can derive the key), naming itself: its ID does not hash to it.
	squat, err := codeRecord(other, code, salt, 2, now, hostAddrs{own: addrs})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := openCodeRecord(code, squat, now); err == nil || !strings.Contains(err.Error(), "whose code is not") {
		t.Errorf("a squatter's record: %v", err)
	}
	// A record of another code, read under this one: the IPNS signature fails.
	if _, err := openCodeRecord(CodeFor(h.ID(), []byte("x")), good, now); err == nil {
		t.Error("a record read under another code was accepted")
	}
	last, err := codeRecord(h, code, salt, 3, now, hostAddrs{own: []ma.Multiaddr{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := openCodeRecord(code, last, now); !errors.Is(err, ErrNoGame) {
		t.Errorf("the host's last word: %v", err)
	}
	if _, err := openCodeRecord(code, []byte("junk"), now); err == nil {
		t.Error("junk accepted")
	}
}

// A record names circuits through players of the host's game apart, sealed
// by the host: the joiner reads them first. Circuits sealed by another
// peer, or addresses that are no circuits, make the record refused.
func TestCodeRecordViaPlayers(t *testing.T) {
	h, player, other := p2ptest.NewHost(t), p2ptest.NewHost(t), p2ptest.NewHost(t)
	salt := []byte("0123456789abcdef")
	code := CodeFor(h.ID(), salt)
	now := time.Now()
	own := []ma.Multiaddr{ma.StringCast("/ip4/11.0.0.7/tcp/4001")}
	via := ma.StringCast("/ip4/11.0.0.9/tcp/4001/p2p/" + player.ID().String() + "/p2p-circuit")
	b, err := codeRecord(h, code, salt, 1, now, hostAddrs{own: own, viaPlayers: []ma.Multiaddr{via}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := openCodeRecord(code, b, now)
	if err != nil || f.ID != h.ID() || len(f.viaPlayers) != 1 || !f.viaPlayers[0].Equal(via) ||
		len(f.Addrs) != 2 || !f.Addrs[0].Equal(via) || !f.Addrs[1].Equal(own[0]) {
		t.Fatalf("a record with a way through a player: %+v, %v", f, err)
	}
	t.Logf("record with one way through a player: %d bytes (IPNS allows 10240)", len(b))

	// The players' circuits of another host's record, put into this one
	// by someone who knows the code (it can re-sign the IPNS record).
	foreign, err := codeRecord(other, code, salt, 1, now, hostAddrs{own: own, viaPlayers: []ma.Multiaddr{via}})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ipns.UnmarshalRecord(foreign)
	if err != nil {
		t.Fatal(err)
	}
	stolen, err := metaBytes(rec, mdViaPlayers)
	if err != nil {
		t.Fatal(err)
	}
	mine, err := ipns.UnmarshalRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := metaBytes(mine, mdPeerRecord)
	if err != nil {
		t.Fatal(err)
	}
	forged, err := ipns.NewRecord(codeKey(code), ipns.NameFromPeer(h.ID()).AsPath(), 2, now.Add(recordLife), republishEvery,
		ipns.WithMetadata(map[string]any{mdPeerRecord: sealed, mdSalt: salt, mdViaPlayers: stolen}))
	if err != nil {
		t.Fatal(err)
	}
	fb, err := ipns.MarshalRecord(forged)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := openCodeRecord(code, fb, now); err == nil {
		t.Error("circuits sealed by another peer were accepted")
	}
	direct, err := codeRecord(h, code, salt, 3, now, hostAddrs{own: own, viaPlayers: own})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := openCodeRecord(code, direct, now); err == nil || !strings.Contains(err.Error(), "not relay circuits") {
		t.Errorf("a direct address among the ways through players: %v", err)
	}
}

// A record from the network never crashes the joiner, and one it accepts
// names the host the code hashes from.
func FuzzOpenCodeRecord(f *testing.F) {
	h, other := p2ptest.NewHost(f), p2ptest.NewHost(f)
	salt := []byte("0123456789abcdef")
	code := CodeFor(h.ID(), salt)
	now := time.Unix(1_800_000_000, 0)
	good, err := codeRecord(h, code, salt, 1, now, hostAddrs{own: []ma.Multiaddr{ma.StringCast("/ip4/11.0.0.7/tcp/4001")}, viaPlayers: []ma.Multiaddr{ma.StringCast("/ip4/11.0.0.9/tcp/4001/p2p/" + other.ID().String() + "/p2p-circuit")}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		ai, err := openCodeRecord(code, b, now)
		if err == nil && ai.ID != h.ID() { // nothing but the host's own record can pass
			t.Fatalf("accepted a record naming %s", ai.ID)
		}
	})
}
