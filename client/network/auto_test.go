package network

import (
	"slices"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/p2p/discovery"
	"hostfall/session"
)

// electAuto over hand-made announcements: lobbies beat looking peers, the
// smallest looking ID hosts once settled, foreign versions do not count.
func TestElectAuto(t *testing.T) {
	ids := testIDs(t, 3)
	slices.Sort(ids)
	small, mid, big := ids[0], ids[1], ids[2]
	seen := func(id peer.ID, state discovery.AnnState, players int, mods ...func(*discovery.Seen)) discovery.Seen {
		s := discovery.Seen{Announcement: discovery.Announcement{Protocol: session.ProtocolVersion, GameVersion: "0.1.0", Name: "Friday night", MaxPlayers: 4}}
		s.Host, s.State, s.Players, s.Auto, s.Password = id, state, players, true, false
		for _, m := range mods {
			m(&s)
		}
		return s
	}
	notAuto := func(s *discovery.Seen) { s.Auto = false }
	oldVersion := func(s *discovery.Seen) { s.GameVersion = "0.0.9" }
	full := func(s *discovery.Seen) { s.Players, s.MaxPlayers = 4, 4 }
	for _, tc := range []struct {
		name    string
		self    peer.ID
		seen    []discovery.Seen
		settled bool
		want    string // "host", "wait" or the peer to join
	}{
		{"alone, still looking", mid, nil, false, "wait"},
		{"alone, settled", mid, nil, true, "host"},
		{"smallest looking hosts", small, []discovery.Seen{seen(mid, discovery.AnnLooking, 0), seen(big, discovery.AnnLooking, 0)}, true, "host"},
		{"a bigger ID waits for the smallest", big, []discovery.Seen{seen(small, discovery.AnnLooking, 0)}, true, "wait"},
		{"the winner's lobby is joined", big, []discovery.Seen{seen(small, discovery.AnnLobby, 1)}, false, small.String()},
		{"a running lobby beats a smaller looking ID", small, []discovery.Seen{seen(big, discovery.AnnLobby, 1)}, false, big.String()},
		{"the fuller lobby wins", small, []discovery.Seen{seen(mid, discovery.AnnLobby, 1), seen(big, discovery.AnnLobby, 3)}, false, big.String()},
		{"lobbies not --auto are ignored", mid, []discovery.Seen{seen(small, discovery.AnnLobby, 1, notAuto)}, true, "host"},
		{"other versions are ignored", mid, []discovery.Seen{seen(small, discovery.AnnLooking, 0, oldVersion)}, true, "host"},
		{"full and playing lobbies are ignored", mid, []discovery.Seen{seen(small, discovery.AnnLobby, 4, full), seen(big, discovery.AnnPlaying, 2)}, true, "host"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, ok := electAuto(tc.seen, tc.self, "0.1.0", tc.settled)
			got := "wait"
			switch {
			case ok && c.Host:
				got = "host"
			case ok:
				got = c.Target.ID.String()
			}
			if got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}
