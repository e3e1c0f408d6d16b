package network

import (
	"fmt"

	"hostfall/client"
	"hostfall/p2p"
	"hostfall/session"
)

// LAN is the Browser over the sessions mDNS and beacons find (a p2p.Browser): a
// listing's ID is its host's peer ID. Peers still looking for an --auto game
// host nothing and are not listed.
type LAN struct {
	B           *p2p.Browser
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

func (l LAN) listing(s *p2p.Seen) (client.Listing, bool) {
	if s.State == p2p.AnnLooking || (l.GameVersion != "" && s.GameVersion != l.GameVersion) {
		return client.Listing{}, false
	}
	state := session.StateLobby
	if s.State == p2p.AnnPlaying {
		state = session.StatePlaying
	}
	return client.Listing{ID: s.Host.String(), Name: s.Name, Host: announcedHost(&s.Announcement), Players: s.Players, Max: s.MaxPlayers,
		State: state, Locked: s.Password, Source: client.SourceLAN}, true
}

// announcedHost is the name a browser shows for an announcement's host:
// the name it gives, or its peer ID's end (an older peer gives no name).
func announcedHost(a *p2p.Announcement) string {
	if a.HostName != "" {
		return a.HostName
	}
	return shortID(a.Host.String())
}

// Resolve returns the address of the host of the listing with that ID.
func (l LAN) Resolve(id string) (p2p.AddrInfo, error) {
	for _, s := range l.B.Sessions() {
		if s.Host.String() == id {
			return s.DialInfo(), nil
		}
	}
	return p2p.AddrInfo{}, fmt.Errorf("that game is no longer announced on the LAN")
}
