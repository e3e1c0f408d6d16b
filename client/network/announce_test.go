package network

import (
	"testing"

	"hostfall/p2p/discovery"
	"hostfall/session"
)

// A hosted lobby is announced with its players (people and bots, not open
// or closed seats), the host player's name and the state: lobby until the
// countdown, playing after.
func TestLobbyAnnouncement(t *testing.T) {
	p := &Peer{h: newTestHost(t)}
	self := session.PeerID(p.h.ID().String())
	l := session.Lobby{Name: "Friday", GameVersion: "1.0", MaxPlayers: 4, Password: true, State: session.StateLobby,
		Slots: []session.Slot{{Kind: session.SlotHuman, Peer: "other", Name: "Bo"}, {Kind: session.SlotHuman, Peer: self, Name: "Ann"},
			{Kind: session.SlotBot}, {Kind: session.SlotOpen}, {Kind: session.SlotClosed}}}
	a := p.announcement(&l, true)
	if a.Players != 3 || a.HostName != "Ann" || a.State != discovery.AnnLobby || !a.Auto || !a.Password ||
		a.Protocol != session.ProtocolVersion || a.Host != p.h.ID() || len(a.Addrs) == 0 {
		t.Errorf("lobby announced as %+v", a)
	}
	l.State = session.StateCountdown
	if a := p.announcement(&l, false); a.State != discovery.AnnPlaying || a.Auto {
		t.Errorf("counting down: announced as %+v", a)
	}
}
