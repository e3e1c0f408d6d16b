package network

import (
	"fmt"

	"hostfall/client"
	"hostfall/p2p/discovery"
	"hostfall/p2p/transport"
	"hostfall/session"
)

// LAN is the Browser over the sessions mDNS and beacons find (a discovery.Browser): a
// listing's ID is its host's peer ID. Peers still looking for an --auto game
// host nothing and are not listed.
type LAN struct {
	B           *discovery.Browser
	GameVersion string // "" lists every version; otherwise others are left out
}

// Sessions lists the LAN's joinable sessions, in the browser's order.
func (l LAN) Sessions() []client.Listing {
	var out []client.Listing
	for _, s := range l.B.Sessions() {
		if li, ok := l.listing(&s); ok {
			out = append(out, li)
		}
	}
	return out
}

func (l LAN) listing(s *discovery.Seen) (client.Listing, bool) {
	if s.State == discovery.AnnLooking || (l.GameVersion != "" && s.GameVersion != l.GameVersion) {
		return client.Listing{}, false
	}
	state := session.StateLobby
	if s.State == discovery.AnnPlaying {
		state = session.StatePlaying
	}
	return client.Listing{ID: s.Host.String(), Name: s.Name, Host: announcedHost(&s.Announcement), Players: s.Players, Max: s.MaxPlayers,
		State: state, Locked: s.Password, Source: client.SourceLAN}, true
}

// announcedHost is the name a browser shows for an announcement's host:
// the name it gives, or its peer ID's end (an older peer gives no name).
func announcedHost(a *discovery.Announcement) string {
	if a.HostName != "" {
		return a.HostName
	}
	return shortID(a.Host.String())
}

// Resolve returns the address of the host of the listing with that ID.
func (l LAN) Resolve(id string) (transport.AddrInfo, error) {
	for _, s := range l.B.Sessions() {
		if s.Host.String() == id {
			return s.DialInfo(), nil
		}
	}
	return transport.AddrInfo{}, fmt.Errorf("that game is no longer announced on the LAN")
}
