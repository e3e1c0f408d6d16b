package network

import (
	"testing"

	"hostfall/client"
	"hostfall/p2p/discovery"
	"hostfall/p2p/relay"
	"hostfall/session"
)

// What mDNS announces becomes the browser's listings: sessions of another
// game version and peers still looking for an --auto game are left out.
func TestLANListing(t *testing.T) {
	id := testIDs(t, 1)[0]
	seen := func(st discovery.AnnState, version string) *discovery.Seen {
		return &discovery.Seen{Announcement: discovery.Announcement{GameVersion: version, Name: "lan party", Players: 3,
			MaxPlayers: 4, State: st, Password: true, Host: id, HostName: "Ann"}}
	}
	nameless := seen(discovery.AnnLobby, "v1")
	nameless.HostName = "" // an older peer's announcement
	l := LAN{GameVersion: "v1"}
	for _, tc := range []struct {
		name string
		s    *discovery.Seen
		ok   bool
		want session.LobbyState
	}{
		{"lobby", seen(discovery.AnnLobby, "v1"), true, session.StateLobby},
		{"playing", seen(discovery.AnnPlaying, "v1"), true, session.StatePlaying},
		{"looking for --auto", seen(discovery.AnnLooking, "v1"), false, 0},
		{"another version", seen(discovery.AnnLobby, "v2"), false, 0},
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
	d := &RelayDirectory{entries: []relay.DirectoryEntry{
		{Announcement: discovery.Announcement{Name: "relay night", Players: 1, MaxPlayers: 4, Host: ids[0], HostName: "Ann"}},
		{Announcement: discovery.Announcement{Name: "older peer", Players: 1, MaxPlayers: 4, Host: ids[1]}},
	}}
	got := d.Sessions()
	if len(got) != 2 || got[0].Host != "Ann" || got[1].Host != shortID(ids[1].String()) {
		t.Fatalf("listings %+v, want hosts Ann and %s", got, shortID(ids[1].String()))
	}
}
