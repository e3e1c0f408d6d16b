package discovery

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/internal/netns"
	"hostfall/p2p/beacon"
)

// inNamespace runs the calling test again inside a fresh namespace (see
// netns.Inside) and reports whether this process is that run.
func inNamespace(t *testing.T) bool {
	t.Helper()
	return netns.Inside(t, "mdns", "10.88.0", "10.89.0")
}

// The advertiser and the browser over real multicast: sessions appear,
// change and go; two interfaces; a name resolves to the host.
func TestMDNSDiscovery(t *testing.T) {
	if !inNamespace(t) {
		return
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	a := testAnnouncement(t)
	b := a
	b.Name = "second"
	b.Host = mustPeer(t, "12D3KooWPMg4ZbAVnDK9Vwf9hgW3zREW76LKXTWYtjHFdyLo2Fcq")
	br := Browse(ctx, BrowseOptions{Interval: 200 * time.Millisecond, Expire: time.Second, Ways: MDNS})
	defer br.Close()

	start := time.Now()
	adA, err := Advertise(a, AdvertiseOptions{Interfaces: []string{"hflan0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer adA.Close()
	adB, err := Advertise(b, AdvertiseOptions{Interfaces: []string{"hflan1"}})
	if err != nil {
		t.Fatal(err)
	}
	waitSeen(ctx, t, br, "both sessions", func(ss []Seen) bool { return len(ss) == 2 })
	t.Logf("both seen after %v", time.Since(start).Round(time.Millisecond))

	a.Players, a.State = 4, AnnPlaying
	if err := adA.Update(a); err != nil {
		t.Fatal(err)
	}
	waitSeen(ctx, t, br, "the update", func(ss []Seen) bool {
		return len(ss) == 2 && ss[0].Name == a.Name && ss[0].Players == 4 && ss[0].State == AnnPlaying
	})

	gone := time.Now()
	adB.Close()
	waitSeen(ctx, t, br, "the closed session to go", func(ss []Seen) bool { return len(ss) == 1 && ss[0].Host == a.Host })
	t.Logf("closed session gone after %v", time.Since(gone).Round(time.Millisecond))

	rctx, rcancel := context.WithTimeout(ctx, 5*time.Second)
	defer rcancel()
	ai, err := SessionResolver{Name: strings.ToUpper(a.Name), Browse: BrowseOptions{Interval: 200 * time.Millisecond}}.Resolve(rctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ai.ID != a.Host || len(ai.Addrs) != 2 {
		t.Fatalf("resolved %v, want %s with 2 addresses", ai, a.Host)
	}
	nctx, ncancel := context.WithTimeout(ctx, time.Second)
	defer ncancel()
	if _, err := (SessionResolver{Name: "nobody"}).Resolve(nctx, nil); err == nil || !strings.Contains(err.Error(), `"nobody"`) {
		t.Fatalf("resolving a missing session: %v", err)
	}
}

// One session announced both ways is listed once, whichever path heard it
// first; it stays while either path still hears it, and a beacon goodbye
// forgets it. A browser that only hears beacons finds it too.
func TestLANBothPaths(t *testing.T) {
	if !inNamespace(t) {
		return
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	a := testAnnouncement(t)
	// One interface: hashicorp/mdns's client changes an entry it has
	// handed over when a second responder answers for it (a data race).
	ad, err := Advertise(a, AdvertiseOptions{Interfaces: []string{"hflan0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer ad.Close()
	bc, err := beacon.Announce(a.TXT(), beacon.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer bc.Close()
	for _, d := range []Way{MDNS, Beacon} {
		start := time.Now()
		br := Browse(ctx, BrowseOptions{Ways: d})
		waitSeen(ctx, t, br, d.String()+" session", func(ss []Seen) bool { return len(ss) == 1 })
		t.Logf("%s alone: listed %.1f ms after opening", d, float64(time.Since(start).Microseconds())/1000)
		br.Close()
	}
	br := Browse(ctx, BrowseOptions{Interval: 200 * time.Millisecond, Expire: time.Second})
	defer br.Close()
	waitSeen(ctx, t, br, "the session", func(ss []Seen) bool { return len(ss) == 1 })
	time.Sleep(500 * time.Millisecond) // both paths have answered by now
	if ss := br.Sessions(); len(ss) != 1 || ss[0].Host != a.Host {
		t.Fatalf("listed %+v, want the one session once", ss)
	}
	t.Logf("found first by %s", br.Sessions()[0].Via)
	ad.Close()
	time.Sleep(2 * time.Second) // past Expire: mDNS answers no more
	if ss := br.Sessions(); len(ss) != 1 {
		t.Fatalf("with mDNS gone the beacon should keep the session; listed %+v", ss)
	}
	bc.Close()
	waitSeen(ctx, t, br, "the session to go", func(ss []Seen) bool { return len(ss) == 0 })
}

func waitSeen(ctx context.Context, t *testing.T, b *Browser, what string, ok func([]Seen) bool) {
	t.Helper()
	for !ok(b.Sessions()) {
		select {
		case <-ctx.Done():
			t.Fatalf("no %s: the browser sees %+v", what, b.Sessions())
		case <-b.Changed():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func mustPeer(t *testing.T, s string) peer.ID {
	t.Helper()
	id, err := peer.Decode(s)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
