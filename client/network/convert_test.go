package network

import (
	"fmt"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/client"
	"hostfall/session"
)

func testIDs(t *testing.T, n int) []peer.ID {
	t.Helper()
	ids := make([]peer.ID, n)
	for i := range ids {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		if ids[i], err = peer.IDFromPrivateKey(k); err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

func TestConvert(t *testing.T) {
	ids := testIDs(t, 4)
	ann, bo, stranger, self := ids[0], ids[1], ids[2], ids[3]
	l := &session.Lobby{Slots: []session.Slot{
		{Kind: session.SlotHuman, Peer: session.PeerID(ann.String()), Name: "Ann"},
		{Kind: session.SlotHuman, Peer: session.PeerID(bo.String()), Name: "Bo"},
		{Kind: session.SlotBot, Name: "Bot 3"},
	}}
	const tick = 10 * time.Millisecond
	tests := []struct {
		in   Event
		want client.Event
		ok   bool
	}{
		{Event{Kind: EvHostChanged, OldHost: ann, Host: bo, Epoch: 3, Took: 137 * time.Millisecond},
			client.Event{Kind: client.EvHostChanged, Name: "Bo", Millis: 137}, true},
		{Event{Kind: EvHostChanged, OldHost: self, Host: bo, Epoch: 33, OldEpoch: 16, Took: 138 * time.Millisecond},
			client.Event{Kind: client.EvHostChanged, Name: "Bo", Millis: 138, Text: "You were away too long — Bo took over hosting"}, true},
		// This player hosted (epoch 33) after Bo, the host of epoch 16, went
		// quiet; Bo came back and the split rule gave the game to its side.
		{Event{Kind: EvHostChanged, OldHost: self, Host: bo, Epoch: 16, OldEpoch: 33, Took: 18 * time.Millisecond},
			client.Event{Kind: client.EvHostChanged, Name: "Bo", Millis: 18, Text: "Bo is back and hosts the game again"}, true},
		{Event{Kind: EvHostChanged, OldHost: ann, Host: self, Took: 9 * time.Millisecond},
			client.Event{Kind: client.EvHostChanged, Name: shortID(self.String()), Millis: 9, Text: "Host left — you are now hosting (hand-over took 9 ms)"}, true},
		{Event{Kind: EvHostChanged, Host: stranger, Took: 5 * time.Millisecond},
			client.Event{Kind: client.EvHostChanged, Name: shortID(stranger.String()), Millis: 5}, true},
		{Event{Kind: EvWaiting, Slot: 1, Name: "Bo", Left: 2500 * time.Millisecond},
			client.Event{Kind: client.EvWaiting, Name: "Bo", Seconds: 3}, true},
		{Event{Kind: EvWaiting, Slot: 1, Left: 900 * time.Millisecond},
			client.Event{Kind: client.EvWaiting, Name: "Bo", Seconds: 1}, true},
		{Event{Kind: EvWaitOver, Slot: 1}, client.Event{Kind: client.EvWaitOver, Name: "Bo"}, true},
		{Event{Kind: EvPlayerLeft, Slot: 0, Turn: 80, Reason: session.DepartLeft},
			client.Event{Kind: client.EvPlayerLeft, Name: "Ann", Turn: 80, Text: session.DepartLeft.String()}, true},
		{Event{Kind: EvDesync, Turn: 40, Desync: &session.DesyncInfo{Turn: 40}},
			client.Event{Kind: client.EvDesync, Turn: 40}, true},
		{Event{Kind: EvDesyncRepaired, Turn: 40}, client.Event{Kind: client.EvDesyncRepaired, Turn: 40}, true},
		{Event{Kind: EvChat, Chat: &session.Chat{FromName: "Bo", Team: 2, Text: "go"}},
			client.Event{Kind: client.EvChat, Name: "Bo", Team: 2, Text: "go"}, true},
		{Event{Kind: EvChat}, client.Event{}, false},
		{Event{Kind: EvRefused, Text: "The game is full."}, client.Event{Kind: client.EvRefused, Text: "The game is full."}, true},
		{Event{Kind: EvCountdown, Count: 2}, client.Event{Kind: client.EvCountdown, Count: 2}, true},
		{Event{Kind: EvLeft, Text: "You left the session."}, client.Event{Kind: client.EvLeft, Text: "You left the session."}, true},
		{Event{Kind: EvTurn, Turn: 20}, client.Event{}, false},
		{Event{Kind: EvLobby, Lobby: l}, client.Event{}, false},
		{Event{Kind: EvJoined}, client.Event{}, false},
		{Event{Kind: EvGameStarted}, client.Event{}, false},
		{Event{Kind: EvEnd}, client.Event{}, false},
		{Event{Kind: EvDesyncReport}, client.Event{}, false},
	}
	for _, tt := range tests {
		got, ok := convert(tt.in, l, tick, self)
		if ok != tt.ok || got != tt.want {
			t.Errorf("%v: got %+v %v, want %+v %v", tt.in.Kind, got, ok, tt.want, tt.ok)
		}
	}
}

func TestNetStatus(t *testing.T) {
	ids := testIDs(t, 4)
	ann, bo, cy, spec := ids[0], ids[1], ids[2], ids[3]
	l := &session.Lobby{TurnTicks: 5, Slots: []session.Slot{
		{Kind: session.SlotHuman, Peer: session.PeerID(ann.String()), Name: "Ann"},
		{Kind: session.SlotBot, Name: "Bot 2"},
		{Kind: session.SlotHuman, Peer: session.PeerID(bo.String()), Name: "Bo"},
		{Kind: session.SlotHuman, Peer: session.PeerID(cy.String()), Name: "Cy"},
		{Kind: session.SlotOpen},
	}, Spectators: []session.PeerID{session.PeerID(spec.String())}}
	const tick = 10 * time.Millisecond
	tests := []struct {
		name string
		in   Status
		want client.NetStatus
	}{
		{"browsing", Status{Self: bo}, client.NetStatus{Online: true, TurnMillis: 50,
			Peers: []client.PeerStatus{{Name: "Ann", PingMillis: -1}, {Name: "Bo", Slot: 2, Self: true}, {Name: "Cy", Slot: 3, PingMillis: -1},
				{Name: "spectator " + shortID(spec.String()), Slot: -1, PingMillis: -1}}}},
		{"a follower in a game", Status{Self: bo, Host: ann, Joined: true, Epoch: 2<<4 | 1, Turn: 300, Delay: 100 * time.Millisecond,
			InRate: 2048, OutRate: 512, Peers: []PeerStatus{
				{ID: ann, Slot: 0, Connected: true, RTT: 1500 * time.Microsecond},
				{ID: cy, Slot: 3, Connected: false, RTT: 9 * time.Millisecond}, // lost: no ping shown
				{ID: spec, Slot: -1, Connected: true},                          // not measured yet
			}},
			client.NetStatus{Online: true, Host: "Ann", Epoch: 2, Turn: 300, InputDelay: 2, TurnMillis: 50, BytesIn: 2048, BytesOut: 512,
				Peers: []client.PeerStatus{{Name: "Ann", Host: true, PingMillis: 1.5}, {Name: "Bo", Slot: 2, Self: true},
					{Name: "Cy", Slot: 3, PingMillis: -1}, {Name: "spectator " + shortID(spec.String()), Slot: -1, PingMillis: -1}}}},
		{"hosting after a migration", Status{Self: bo, Host: bo, IsHost: true, Joined: true, Epoch: 3<<4 | 2, Turn: 9, Delay: 49 * time.Millisecond},
			client.NetStatus{Online: true, Host: "Bo", Epoch: 3, Turn: 9, InputDelay: 1, TurnMillis: 50,
				Peers: []client.PeerStatus{{Name: "Ann", PingMillis: -1}, {Name: "Bo", Slot: 2, Self: true, Host: true},
					{Name: "Cy", Slot: 3, PingMillis: -1}, {Name: "spectator " + shortID(spec.String()), Slot: -1, PingMillis: -1}}}},
		{"a host not in the lobby", Status{Self: bo, Host: spec, Joined: true}, client.NetStatus{Online: true, Host: shortID(spec.String()), TurnMillis: 50,
			Peers: []client.PeerStatus{{Name: "Ann", PingMillis: -1}, {Name: "Bo", Slot: 2, Self: true}, {Name: "Cy", Slot: 3, PingMillis: -1},
				{Name: "spectator " + shortID(spec.String()), Slot: -1, PingMillis: -1, Host: true}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := netStatus(tt.in, l, tick, nil)
			if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
	// Over the internet: Ann through Cy's relay, Cy direct, the spectator
	// through a relay that is no player's.
	path := func(id string) (client.Path, string) {
		switch id {
		case ann.String():
			return client.PathRelayed, cy.String()
		case cy.String():
			return client.PathDirect, ""
		}
		return client.PathRelayed, ids[1].String() + "x"
	}
	got := netStatus(Status{Self: bo, Host: ann, Joined: true}, l, tick, path)
	want := []client.PeerStatus{{Name: "Ann", Host: true, PingMillis: -1, Path: client.PathRelayed, Via: "Cy"}, {Name: "Bo", Slot: 2, Self: true},
		{Name: "Cy", Slot: 3, PingMillis: -1, Path: client.PathDirect}, {Name: "spectator " + shortID(spec.String()), Slot: -1, PingMillis: -1, Path: client.PathRelayed}}
	if fmt.Sprintf("%+v", got.Peers) != fmt.Sprintf("%+v", want) {
		t.Errorf("over the internet: got  %+v\nwant %+v", got.Peers, want)
	}
}
