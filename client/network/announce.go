package network

import (
	"hostfall/p2p/discovery"
	"hostfall/session"
)

// announced is p's session as it is announced: on the LAN (auto: as an
// --auto lobby) and in a relay's directory. It is the discovery.Hosting
// that AnnounceLobby, relay.RegisterLobby and relay.RegisterCode carry.
type announced struct {
	p    *Peer
	auto bool
}

// Announce is p's lobby as an announcement, while p hosts it.
func (a announced) Announce() (discovery.Announcement, bool) {
	l, ok := a.p.Hosting()
	if !ok {
		return discovery.Announcement{}, false
	}
	return a.p.announcement(&l, a.auto), true
}

// announcement describes the lobby l this peer hosts: its players (people
// and bots), the host player's name, and the state lobby until the
// countdown starts, playing after.
func (p *Peer) announcement(l *session.Lobby, auto bool) discovery.Announcement {
	self := p.h.ID()
	a := discovery.Announcement{
		Protocol: session.ProtocolVersion, GameVersion: l.GameVersion, Name: l.Name,
		MaxPlayers: int(l.MaxPlayers), Password: l.Password, Auto: auto,
		Host: self, Addrs: p.h.LibP2P().Addrs(),
	}
	for _, s := range l.Slots {
		if s.HoldsPlayer() {
			a.Players++
		}
		if s.Kind == session.SlotHuman && s.Peer == session.PeerID(self.String()) {
			a.HostName = s.Name
		}
	}
	if l.State != session.StateLobby {
		a.State = discovery.AnnPlaying
	}
	return a
}
