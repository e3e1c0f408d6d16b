package network

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/client"
	"hostfall/internal/codeform"
	"hostfall/internal/testwait"
	"hostfall/p2p/codes"
	"hostfall/p2p/relay"
	"hostfall/p2p/transport"
	"hostfall/session"
)

// Merged lists each browser's sessions in turn, a session two list once
// (as the first lists it), and resolves through the next browser when one
// no longer knows the session.
func TestMerged(t *testing.T) {
	ids := testIDs(t, 3)
	addr := func(i int) transport.AddrInfo {
		return transport.AddrInfo{ID: ids[i], Addrs: []ma.Multiaddr{ma.StringCast("/ip4/10.0.0.1/tcp/400" + string(rune('0'+i)))}}
	}
	lan, relay := &Static{}, &Static{}
	lan.Add(client.Listing{ID: "a", Name: "on the LAN", Source: client.SourceLAN}, addr(0))
	lan.Add(client.Listing{ID: "b", Name: "on both (LAN)", Source: client.SourceLAN}, addr(1))
	relay.Add(client.Listing{ID: "b", Name: "on both (relay)", Source: client.SourceRelay}, addr(1))
	relay.Add(client.Listing{ID: "c", Name: "through the relay", Source: client.SourceRelay}, addr(2))
	m := Merged{lan, relay}

	var got []string
	for _, l := range m.Sessions() {
		got = append(got, l.ID+" "+l.Source.String())
	}
	if want := []string{"a LAN", "b LAN", "c relay"}; !slices.Equal(got, want) {
		t.Fatalf("sessions %q, want %q", got, want)
	}
	for _, tc := range []struct {
		id    string
		want  int // index of the host; -1: not found
		setup func()
	}{
		{"a", 0, nil},
		{"c", 2, nil},
		{"b", 1, func() { lan.Remove("b") }}, // gone from the LAN, still through the relay
		{"z", -1, nil},
	} {
		if tc.setup != nil {
			tc.setup()
		}
		a, err := m.Resolve(tc.id)
		switch {
		case tc.want < 0 && err == nil:
			t.Errorf("resolve %s: %v, want an error", tc.id, a)
		case tc.want >= 0 && (err != nil || a.ID != ids[tc.want]):
			t.Errorf("resolve %s: %v, %v; want host %d", tc.id, a, err, tc.want)
		}
	}
	if (Merged{}).Sessions() != nil {
		t.Error("an empty Merged lists something")
	}
	if _, err := (Merged{}).Resolve("a"); err == nil {
		t.Error("an empty Merged resolves")
	}
}

// startRelay runs a relay with its directory on a loopback host.
func startRelay(t *testing.T) *transport.Host {
	t.Helper()
	h := relayHost(t)
	rs, err := relay.Start(h, relay.Options{Logger: testLog()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rs.Close() })
	return h
}

// relayHost is a loopback host built to run a relay.
func relayHost(t testing.TB) *transport.Host {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	h, err := transport.NewHost(t.Context(), transport.Options{Identity: k, Listen: []string{"/ip4/127.0.0.1/tcp/0"},
		Libp2p: relay.HostOptions(), Logger: testLog()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// newRelayClient is a client that uses relay as the window does with
// --relay: its host built with the relay client's options, UseRelay on its
// options (after tweak).
func newRelayClient(t *testing.T, name string, relay *transport.Host, tweak func(*Options)) *tclient {
	t.Helper()
	rc, err := transport.NewRelayClient(relay.Addrs()[0].String(), testLog())
	if err != nil {
		t.Fatal(err)
	}
	return newClientOn(t, name, rc.HostOptions(), func(o *Options) {
		if tweak != nil {
			tweak(o)
		}
		UseRelay(t.Context(), o, RelayOptions{Relay: rc, Every: 200 * time.Millisecond})
	})
}

// Through a real relay on loopback: Ann hosts with --relay, her lobby is in
// the directory and her status offers the short code (which friends on the
// relay type) and the long invite code (which names the relay); Bo's browser lists
// it (SourceRelay) beside a LAN game and Bo joins it from the list, through
// the relay's circuit; Cy, with no relay of his own, joins with the code.
func TestRelayDirectoryAndInvite(t *testing.T) {
	t.Parallel() // real-time game on loopback, mostly idle
	point := startRelay(t)
	ann := newRelayClient(t, "ann", point, nil)
	lan := &Static{}
	lanHost := testIDs(t, 1)[0]
	lan.Add(client.Listing{ID: lanHost.String(), Name: "LAN party", Players: 1, Max: 4, Source: client.SourceLAN},
		transport.AddrInfo{ID: lanHost, Addrs: []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/9")}})
	bo := newRelayClient(t, "bo", point, func(o *Options) { o.Browser = lan })
	cy := newClient(t, "cy", func(o *Options) {
		o.ResolveCode = func(ctx context.Context, code string) (transport.AddrInfo, error) {
			return codes.InviteResolver(code).Resolve(ctx, o.Host)
		}
	})

	if st := ann.Status(); st.Invite != "" {
		t.Fatalf("an invite code %q before Ann hosts", st.Invite)
	}
	if err := ann.Create(client.CreateOptions{Name: "Relay night", PlayerName: "Ann", MaxPlayers: 3, MapSize: 64}); err != nil {
		t.Fatal(err)
	}
	var code, short string
	testwait.For(t, "Ann's invite codes", 15*time.Second, func() bool {
		st := ann.Status()
		short, code = st.Invite, st.InviteLong
		return code != ""
	})
	if c, err := codes.ParseCode(short); err != nil {
		t.Fatalf("Ann's short code %q: %v", short, err)
	} else if ai, err := (relay.CodeResolver{Relay: point.AddrInfo(), Code: c}).Resolve(t.Context(), bo.opt.Host); err != nil || ai.ID != ann.opt.Host.ID() {
		t.Fatalf("the short code %s resolves on the relay to %v, %v; want Ann", short, ai.ID, err)
	}
	inv, err := codes.DecodeInvite(code)
	if err != nil || inv.Host != ann.opt.Host.ID() || inv.Relay == nil || !strings.HasPrefix(code, codeform.LongPrefix) {
		t.Fatalf("invite code %q: %+v, %v", code, inv, err)
	}
	t.Logf("Ann's invite code (%d characters): %s", len(code), code)

	annID := ann.opt.Host.ID().String()
	var listed []client.Listing
	testwait.For(t, "Ann's lobby in Bo's browser", 15*time.Second, func() bool {
		listed = bo.Sessions()
		return slices.ContainsFunc(listed, func(l client.Listing) bool { return l.ID == annID })
	})
	if len(listed) != 2 || listed[0].Source != client.SourceLAN || listed[1] != (client.Listing{ID: annID, Host: "Ann",
		Name: "Relay night", Players: 1, Max: 3, State: session.StateLobby, Source: client.SourceRelay}) {
		t.Fatalf("Bo's browser lists %+v; want the LAN game, then Ann's lobby from the relay", listed)
	}
	addr, err := bo.opt.Browser.Resolve(annID)
	if err != nil || len(addr.Addrs) == 0 || !strings.HasSuffix(addr.Addrs[0].String(), "/p2p-circuit") {
		t.Fatalf("Ann's lobby resolves to %v, %v; want the relay's circuit first", addr, err)
	}
	if err := bo.Join(annID, client.JoinOptions{PlayerName: "Bo"}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Bo in Ann's lobby", 20*time.Second, func() bool { return bo.Slot() == 1 })
	if st := bo.Status(); st.Invite != "" || st.InviteLong != "" {
		t.Errorf("Bo, who does not host, offers the invite codes %q, %q", st.Invite, st.InviteLong)
	}

	if err := cy.JoinCode(code, client.JoinOptions{PlayerName: "Cy"}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Cy in Ann's lobby by the code", 20*time.Second, func() bool { return cy.Slot() == 2 })
	testwait.For(t, "three players in Ann's lobby", 10*time.Second, func() bool {
		l := ann.lobby()
		return len(client.SessionPlayers(&l)) == 3
	})
	// The directory follows the lobby: three players of three now.
	testwait.For(t, "the full lobby in the directory", 15*time.Second, func() bool {
		for _, l := range bo.opt.Browser.Sessions() {
			if l.ID == annID {
				return l.Players == 3
			}
		}
		return false
	})
}
