package discovery

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

const testPeerID = "12D3KooWJfs5RGnCqpP3NqiZf5mGcw3hv6JBDcjig7mkYi64VsEa"

// testProtocol is the session protocol version of the announcements here:
// discovery carries it and compares it, it does not know what it means.
const testProtocol = 7

func testAnnouncement(t testing.TB) Announcement {
	t.Helper()
	id, err := peer.Decode(testPeerID)
	if err != nil {
		t.Fatal(err)
	}
	return Announcement{
		Protocol: testProtocol, GameVersion: "0.1.0", Name: "Friday night", Players: 2, MaxPlayers: 4,
		State: AnnLobby, Password: true, Host: id, HostName: "Ann",
		Addrs: []ma.Multiaddr{ma.StringCast("/ip4/10.1.0.7/tcp/4001"), ma.StringCast("/ip4/10.1.0.7/udp/4001/quic-v1")},
	}
}

func TestTXTRoundTrip(t *testing.T) {
	base := testAnnouncement(t)
	long := base
	long.Name = strings.Repeat("é", 100) // 200 bytes: clipped on a rune boundary
	looking := base
	looking.Name, looking.State, looking.Auto, looking.Players = "", AnnLooking, true, 0
	local := base
	local.Addrs = []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/1"), ma.StringCast("/ip6/fe80::1/tcp/2"),
		ma.StringCast("/ip4/192.168.1.2/tcp/3")}
	many := base
	many.Addrs = nil
	for range 20 {
		many.Addrs = append(many.Addrs, ma.StringCast("/ip6/2001:db8:aaaa:bbbb:cccc:dddd:eeee:ffff/udp/65535/quic-v1"))
	}
	for _, tc := range []struct {
		name      string
		in        Announcement
		wantName  string
		wantAddrs int
	}{
		{"lobby", base, base.Name, 2},
		{"long name", long, strings.Repeat("é", maxAnnName/2), 2},
		{"looking", looking, "", 2},
		{"loopback and link-local left out", local, base.Name, 1},
		{"address budget", many, base.Name, maxTXTAddrs},
	} {
		t.Run(tc.name, func(t *testing.T) {
			txt := tc.in.TXT()
			size := 0
			for _, s := range txt {
				if len(s) > MaxTXTString {
					t.Errorf("TXT string of %d bytes: %q", len(s), s)
				}
				size += len(s) + 1
			}
			if size > MaxTXTBytes+MaxTXTString {
				t.Errorf("TXT of %d bytes", size)
			}
			got, err := DecodeTXT(txt)
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != tc.wantName || len(got.Addrs) != tc.wantAddrs {
				t.Fatalf("name %q, %d addrs; want %q, %d", got.Name, len(got.Addrs), tc.wantName, tc.wantAddrs)
			}
			want := tc.in
			want.Name, want.Addrs = got.Name, got.Addrs
			if !sameAnnouncement(&got, &want) {
				t.Fatalf("decoded %+v, want %+v", got, want)
			}
		})
	}
}

func TestDecodeTXTRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		txt  []string
		want error
	}{
		{"no txtvers", []string{"peer=" + testPeerID, "state=lobby"}, ErrNotHostfall},
		{"newer layout", []string{"txtvers=9", "peer=" + testPeerID, "state=lobby"}, ErrNewerTXT},
		{"bad peer", []string{"txtvers=1", "peer=nobody", "state=lobby"}, ErrNotHostfall},
		{"bad state", []string{"txtvers=1", "peer=" + testPeerID, "state=sleeping"}, ErrNotHostfall},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := DecodeTXT(tc.txt); !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
		})
	}
	// The first of duplicate keys wins; junk numbers read as 0; unknown keys are ignored.
	a, err := DecodeTXT([]string{"txtvers=1", "peer=" + testPeerID, "state=playing", "name=first", "name=second",
		"players=-3", "max=99", "future=yes", "a0=/not/an/addr", "a1=/ip4/1.2.3.4/tcp/5"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "first" || a.Players != 0 || a.MaxPlayers != maxAnnPlayers || a.State != AnnPlaying || len(a.Addrs) != 1 {
		t.Fatalf("decoded %+v", a)
	}
}

func TestJoinable(t *testing.T) {
	a := testAnnouncement(t)
	if !a.Joinable(testProtocol, "0.1.0") {
		t.Fatal("an open lobby of the same version is joinable")
	}
	for _, mut := range []func(*Announcement){
		func(a *Announcement) { a.State = AnnPlaying },
		func(a *Announcement) { a.Players = a.MaxPlayers },
		func(a *Announcement) { a.GameVersion = "0.2.0" },
		func(a *Announcement) { a.Protocol++ },
	} {
		b := a
		mut(&b)
		if b.Joinable(testProtocol, "0.1.0") {
			t.Errorf("%+v is joinable", b)
		}
	}
}

func TestPickSession(t *testing.T) {
	base := testAnnouncement(t)
	now := time.Now()
	mk := func(name string, st AnnState, first time.Duration, host string) Seen {
		a := base
		a.Name, a.State, a.Host = name, st, peer.ID(host)
		return Seen{Announcement: a, First: now.Add(first)}
	}
	all := []Seen{
		mk("alpha", AnnPlaying, 0, "p1"),
		mk("alpha", AnnLobby, 2*time.Second, "p2"),
		mk("alpha", AnnLobby, time.Second, "p3"),
		mk("Beta", AnnLobby, 0, "p4"),
		mk("", AnnLooking, 0, "p5"),
	}
	for _, tc := range []struct{ name, want string }{
		{"alpha", "p3"}, // a lobby before a game in progress, then the first seen
		{"beta", "p4"},  // case folded when nothing matches exactly
		{"gamma", ""},
		{"", ""}, // peers looking for --auto games are no sessions
	} {
		s, ok := PickSession(all, tc.name)
		if got := string(s.Host); ok != (tc.want != "") || got != tc.want {
			t.Errorf("PickSession(%q) = %q, %v; want %q", tc.name, got, ok, tc.want)
		}
	}
}

func TestInstanceName(t *testing.T) {
	a := testAnnouncement(t)
	a.Name = "a.b\\c\"d;e(f)g@h$i\x01 " + strings.Repeat("x", 80)
	svc, err := service(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(svc.Instance) > 63 || strings.ContainsAny(svc.Instance[:len(svc.Instance)-14], ".\\\";()@$\x01") {
		t.Fatalf("instance %q", svc.Instance)
	}
	if !strings.HasSuffix(svc.Instance, "(mkyi64vsea)") || svc.HostName != "hf-mkyi64vsea.local." || svc.Port != 4001 {
		t.Fatalf("instance %q host %q port %d", svc.Instance, svc.HostName, svc.Port)
	}
}

func FuzzDecodeTXT(f *testing.F) {
	a := testAnnouncement(f)
	f.Add(strings.Join(a.TXT(), "\x00"))
	f.Add("txtvers=1\x00peer=" + testPeerID + "\x00state=looking\x00a0=/ip4/1.2.3.4")
	f.Add("txtvers=1\x00txtvers=2\x00=\x00==\x00players=99999999999999999999")
	f.Fuzz(func(t *testing.T, s string) {
		fields := strings.Split(s, "\x00")
		a, err := DecodeTXT(fields)
		if err != nil {
			return
		}
		if a.Players < 0 || a.Players > maxAnnPlayers || a.MaxPlayers > maxAnnPlayers ||
			len(a.Name) > maxAnnName || len(a.Addrs) > maxTXTAddrs {
			t.Fatalf("out of bounds: %+v", a)
		}
		// What decodes re-encodes to something that decodes the same.
		b, err := DecodeTXT(a.TXT())
		if err != nil {
			t.Fatalf("re-encoded announcement does not decode: %v", err)
		}
		want := a
		want.Addrs = slices.DeleteFunc(slices.Clone(a.Addrs), func(m ma.Multiaddr) bool { return !dialableOnLAN(m) })
		if len(want.Addrs) > len(b.Addrs) {
			want.Addrs = want.Addrs[:len(b.Addrs)] // past the size budget
		}
		if !sameAnnouncement(&b, &want) {
			t.Fatalf("round trip changed %+v into %+v", want, b)
		}
	})
}
