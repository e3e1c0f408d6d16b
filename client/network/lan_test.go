package network

import (
	"testing"

	"hostfall/client"
	"hostfall/p2p"
	"hostfall/session"
)

// What mDNS announces becomes the browser's listings: sessions of another
// game version and peers still looking for an --auto game are left out.
func TestLANListing(t *testing.T) {
	id := testIDs(t, 1)[0]
	seen := func(st p2p.AnnState, version string) *p2p.Seen {
		return &p2p.Seen{Announcement: p2p.Announcement{GameVersion: version, Name: "lan party", Players: 3,
			MaxPlayers: 4, State: st, Password: true, Host: id, HostName: "Ann"}}
	}
	nameless := seen(p2p.AnnLobby, "v1")
	nameless.HostName = "" // an older peer's announcement
	l := LAN{GameVersion: "v1"}
	for _, tc := range []struct {
		name string
		s    *p2p.Seen
		ok   bool
		want session.LobbyState
	}{
		{"lobby", seen(p2p.AnnLobby, "v1"), true, session.StateLobby},
		{"playing", seen(p2p.AnnPlaying, "v1"), true, session.StatePlaying},
		{"looking for --auto", seen(p2p.AnnLooking, "v1"), false, 0},
		{"another version", seen(p2p.AnnLobby, "v2"), false, 0},
		{"no host name", nameless, true, session.StateLobby},
	} {
		got, ok := l.listing(tc.s)
		if ok != tc.ok {
			t.Errorf("%s: listed %v, want %v", tc.name, ok, tc.ok)
			continue
		}
		host := "Ann"
		if tc.s.HostName == "" {
			host = shortID(id.String())
		}
		want := client.Listing{ID: id.String(), Name: "lan party", Host: host, Players: 3, Max: 4, State: tc.want, Locked: true, Source: client.SourceLAN}
		if ok && got != want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, want)
		}
	}
}

// A relay directory's listings name their host as the LAN's do (they
// showed none: an empty Host column in the browser).
func TestRelayListingNamesTheHost(t *testing.T) {
	ids := testIDs(t, 2)
	d := &RelayDirectory{entries: []p2p.DirectoryEntry{
		{Announcement: p2p.Announcement{Name: "relay night", Players: 1, MaxPlayers: 4, Host: ids[0], HostName: "Ann"}},
		{Announcement: p2p.Announcement{Name: "older peer", Players: 1, MaxPlayers: 4, Host: ids[1]}},
	}}
	got := d.Sessions()
	if len(got) != 2 || got[0].Host != "Ann" || got[1].Host != shortID(ids[1].String()) {
		t.Fatalf("listings %+v, want hosts Ann and %s", got, shortID(ids[1].String()))
	}
}
